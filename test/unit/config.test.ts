/**
 * config.ts: `--store` and the external SPARQL store's options (README "External SPARQL store").
 * Expected values: the defaults the README states (store embedded, GSP parameter `graph` as in
 * SPARQL 1.1 Graph Store Protocol §5, "graph" query parameter), flags winning over the environment
 * (README "Configuration"), and the refusals' messages naming the option to fix.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadConfig } from "../../src/config.ts";

const V = "http://127.0.0.1:8890";
const SPARQL_ENV = { STORE: "sparql", SPARQL_QUERY_URL: `${V}/sparql`, SPARQL_UPDATE_URL: `${V}/sparql`, SPARQL_GSP_URL: `${V}/sparql-graph-crud` };

describe("--store and the external SPARQL store's options", () => {
  test("the default is the embedded store, with no external store", () => {
    const c = loadConfig([], {});
    assert.equal(c.store, "embedded");
    assert.equal(c.sparqlStore, undefined);
  });

  test("from the environment: the three endpoints, the GSP parameter `graph` by default, no credentials", () => {
    const c = loadConfig([], SPARQL_ENV);
    assert.equal(c.store, "sparql");
    assert.deepEqual(c.sparqlStore, { query: `${V}/sparql`, update: `${V}/sparql`, gsp: `${V}/sparql-graph-crud`, gspParam: "graph", user: undefined, password: undefined });
  });

  test("from flags, which win over the environment; Virtuoso's graph-uri; credentials from the environment", () => {
    const c = loadConfig(
      ["--store", "sparql", "--sparql-query=http://db:7200/repositories/q", "--sparql-update", "http://db:7200/repositories/q/statements", "--sparql-gsp", "http://db:7200/repositories/q/rdf-graphs/service", "--sparql-gsp-param", "graph-uri"],
      { ...SPARQL_ENV, STORE: "embedded", SPARQL_USER: "qsar", SPARQL_PASSWORD: "s3cret" },
    );
    assert.equal(c.store, "sparql");
    assert.deepEqual(c.sparqlStore, {
      query: "http://db:7200/repositories/q",
      update: "http://db:7200/repositories/q/statements",
      gsp: "http://db:7200/repositories/q/rdf-graphs/service",
      gspParam: "graph-uri",
      user: "qsar",
      password: "s3cret",
    });
  });

  test("refused with a message naming what to fix", () => {
    const refuses = (argv: string[], env: Record<string, string>, message: RegExp): void => assert.throws(() => loadConfig(argv, env), message);
    refuses([], { STORE: "virtuoso" }, /STORE \(--store\) must be 'embedded' or 'sparql', got 'virtuoso'/);
    // every endpoint is required with --store sparql
    for (const k of ["SPARQL_QUERY_URL", "SPARQL_UPDATE_URL", "SPARQL_GSP_URL"] as const) {
      const env: Record<string, string> = { ...SPARQL_ENV };
      delete env[k];
      refuses([], env, new RegExp(`--store sparql needs ${k}`));
    }
    refuses([], { ...SPARQL_ENV, SPARQL_QUERY_URL: "localhost:8890/sparql" }, /SPARQL_QUERY_URL \(--sparql-query\) must be an http\(s\) URL, got 'localhost:'/);
    refuses([], { ...SPARQL_ENV, SPARQL_UPDATE_URL: "not a url" }, /SPARQL_UPDATE_URL \(--sparql-update\) must be an absolute http\(s\) URL, got 'not a url'/);
    refuses([], { ...SPARQL_ENV, SPARQL_GSP_URL: "ftp://h/x" }, /SPARQL_GSP_URL \(--sparql-gsp\) must be an http\(s\) URL/);
    // credentials never in a URL (it is logged): only in SPARQL_USER / SPARQL_PASSWORD
    refuses([], { ...SPARQL_ENV, SPARQL_QUERY_URL: "http://u:p@h/sparql" }, /must not hold credentials: give them in SPARQL_USER and SPARQL_PASSWORD/);
    refuses([], { ...SPARQL_ENV, SPARQL_USER: "qsar" }, /give both SPARQL_USER and SPARQL_PASSWORD, or neither/);
    refuses([], { ...SPARQL_ENV, SPARQL_GSP_PARAM: "uri" }, /SPARQL_GSP_PARAM must be 'graph' .* or 'graph-uri' .*, got 'uri'/);
    // endpoints without --store sparql: a forgotten flag, not silently ignored
    refuses([], { SPARQL_QUERY_URL: `${V}/sparql` }, /SPARQL_QUERY_URL given, but the store is the embedded one: add --store sparql/);
  });
});
