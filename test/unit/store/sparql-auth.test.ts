/**
 * Credentials for the external store (SPARQL_USER / SPARQL_PASSWORD → `Authorization: Basic …`):
 * every request of SparqlStore (the catalog read at start, updates, GSP POSTs), of its read threads
 * (sparql-reads.ts) and of the SPARQL proxy (its probes and queries) carries the header.
 *
 * The store is a local node:http server that answers as a SPARQL store would, minimally (empty
 * results, 200 to updates, 201 to GSP POSTs), refuses with 401 any request without the header,
 * and records every request: our code against a real HTTP server, not a mock of a library.
 * (Virtuoso's `/sparql-auth` is digest-only; its basic auth needs a setup of its own.)
 */
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { SparqlProxy } from "../../../src/store/sparql-proxy.ts";
import { SparqlStore } from "../../../src/store/sparql-store.ts";
import { freshDir, removeDir } from "../../helpers/server.ts";

const BASE = "http://auth.test";
/** What app.ts sends for SPARQL_USER=qsar, SPARQL_PASSWORD=s3cret (base64 of "qsar:s3cret", by `echo -n qsar:s3cret | base64`). */
const AUTH = "Basic cXNhcjpzM2NyZXQ=";

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  /** The form's `query` or `update`, or the GSP body. */
  readonly body: string;
}

const seen: Seen[] = [];
let server: Server;
let root: string;
let dir: string;

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c)).on("end", () => resolve(Buffer.concat(chunks).toString("utf8"))).on("error", reject);
  });

/** A SELECT answer with the query's projected variables and no rows (a COUNT: 0; an ASK: false). */
function answer(query: string): string {
  if (/^\s*ASK\b/i.test(query)) return JSON.stringify({ head: {}, boolean: false });
  if (/COUNT\(/i.test(query)) return JSON.stringify({ head: { vars: ["n"] }, results: { bindings: [{ n: { type: "literal", datatype: "http://www.w3.org/2001/XMLSchema#integer", value: "0" } }] } });
  const select = /SELECT\s+(?:DISTINCT\s+|REDUCED\s+)?([^{]*?)\s*(?:WHERE|FROM|\{)/i.exec(query)?.[1] ?? "";
  const vars = [...select.matchAll(/\?(\w+)(?!\s*\))/g)].map((m) => m[1]!);
  return JSON.stringify({ head: { vars: [...new Set(vars)] }, results: { bindings: [] } });
}

before(async () => {
  dir = freshDir();
  server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const form = req.headers["content-type"]?.includes("x-www-form-urlencoded") ? new URLSearchParams(raw) : undefined;
      const body = form?.get("query") ?? form?.get("update") ?? raw;
      seen.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization, body });
      if (req.headers.authorization !== AUTH) {
        res.writeHead(401, { "www-authenticate": 'Basic realm="store"' }).end("unauthorized");
        return;
      }
      if (req.url?.startsWith("/gsp")) res.writeHead(201).end();
      else if (form?.has("update")) res.writeHead(200, { "content-type": "text/plain" }).end("done");
      // a standard store refuses Virtuoso's pragmas (the proxy then sends lists)
      else if (/^\s*define\b/i.test(body)) res.writeHead(400, { "content-type": "text/plain" }).end("syntax error");
      else res.writeHead(200, { "content-type": "application/sparql-results+json" }).end(answer(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const a = server.address();
  root = `http://127.0.0.1:${typeof a === "object" && a ? a.port : 0}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  removeDir(dir);
});

test("the store without the header: SparqlStore.open fails with the store's 401", async () => {
  await assert.rejects(SparqlStore.open({ query: `${root}/sparql`, update: `${root}/sparql`, gsp: `${root}/gsp`, base: BASE }, { bodies: join(dir, "none") }), /answered 401/);
});

test("with `authorization`, every request of SparqlStore, its read threads and the proxy carries it", { timeout: 60_000 }, async () => {
  seen.length = 0;
  const store = await SparqlStore.open({ query: `${root}/sparql`, update: `${root}/sparql`, gsp: `${root}/gsp`, base: BASE }, { bodies: join(dir, "bodies"), authorization: AUTH });
  try {
    const g = `${BASE}/dataset/1`;
    await store.commit([{ graph: g, ntriples: `<${BASE}/s> <${BASE}/p> "x" .\n` }]);
    await store.commit([{ graphs: [`${BASE}/c/1`, `${BASE}/c/2`], nquads: `<${BASE}/s> <${BASE}/p> "1" <${BASE}/c/1> .\n<${BASE}/s> <${BASE}/p> "2" <${BASE}/c/2> .\n` }]);
    assert.equal(store.has(g), true);
    assert.equal(store.dialect, "standard", "the store refused the pragma probe when it opened");
    const inserts = seen.filter((x) => /INSERT DATA/.test(x.body));
    assert.ok(inserts.length > 0 && inserts.every((x) => !/sql:big-data-const/i.test(x.body)), "no Virtuoso pragma sent to a standard store");
    // a read in a read thread: its query (searching every graph for the key) goes out from this thread's HTTP
    const found = await store.read<string[]>(new URL("../../../src/resources/reads.ts", import.meta.url), "compoundsByKey", [BASE, "AUTHTESTKEYAAAAAAAAAAAAAAAA"]);
    assert.deepEqual(found, []);
    const proxy = await SparqlProxy.open(store, { endpoint: `${root}/sparql`, base: BASE, timeoutMs: 10_000, maxResults: 1_000, concurrency: 1, authorization: AUTH });
    try {
      assert.equal(proxy.dialect, "standard", "the store refused the pragma probe");
      const r = await proxy.query("SELECT ?s WHERE { ?s ?p ?o }", "application/sparql-results+json");
      assert.deepEqual((JSON.parse(r.body.toString("utf8")) as { results: { bindings: unknown[] } }).results.bindings, []);
    } finally {
      await proxy.close();
    }
  } finally {
    await store.close();
  }
  const kinds = {
    catalog: seen.filter((s) => s.body.includes("/.store/catalog") && /SELECT/i.test(s.body)),
    updates: seen.filter((s) => /INSERT DATA|DELETE DATA|DROP/.test(s.body)),
    gsp: seen.filter((s) => s.url.startsWith("/gsp")),
    read: seen.filter((s) => s.body.includes("AUTHTESTKEY")),
    proxy: seen.filter((s) => /^\s*SELECT \?s WHERE/.test(s.body) || /^\s*define\b/.test(s.body) || /VALUES \?v0/.test(s.body)),
  };
  for (const [kind, list] of Object.entries(kinds)) assert.ok(list.length > 0, `no ${kind} request was seen`);
  const without = seen.filter((s) => s.authorization !== AUTH);
  assert.deepEqual(without, [], "requests without the header");
});
