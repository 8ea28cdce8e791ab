/**
 * The proxy's list of the graphs of a Virtuoso store that are not the service's ("foreign"
 * graphs: Virtuoso's system graphs, data of others), which its exclusion pragmas name
 * (src/store/sparql-proxy.ts, docs/virtuoso.md finding 11): read in the background, not at the
 * start's expense; kept in a file for the next start; until a first list exists, a query that
 * would need it answers 503 with Retry-After, never a result that could see a foreign graph.
 *
 * A temporary Virtuoso (test/helpers/virtuoso.ts) holding 3,000 graphs of the service (written
 * by SparqlStore, as an upload writes its compounds) and graphs of another writer. The expected
 * counts come from what the test wrote; the system graphs are those docs/virtuoso.md finding 4
 * lists (and test/external/sparql-proxy.test.ts checks on a store of the service's own).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ServiceUnavailable } from "../../src/errors.ts";
import { SparqlProxy, type ServedGraphs } from "../../src/store/sparql-proxy.ts";
import { SparqlStore } from "../../src/store/sparql-store.ts";
import { freshDir, removeDir } from "../helpers/server.ts";
import { startVirtuoso, type Virtuoso } from "../helpers/virtuoso.ts";

const BASE = "http://foreign.test";
const P = `${BASE}/p/`;
const SERVED = 3_000;
const SYSTEM = ["http://localuriqaserver/sparql", "http://www.openlinksw.com/schemas/virtrdf#", "http://www.w3.org/ns/ldp#"];
const OTHERS = ["http://other.test/g1", "http://other.test/g2", "http://other.test/g3"];

describe("the proxy's foreign graphs on Virtuoso 7.2: read in the background, kept for the next start", () => {
  let v: Virtuoso;
  let store: SparqlStore;
  let graphs: ServedGraphs;
  let dir: string;
  let file: string;

  const insert = async (graph: string): Promise<void> => {
    const r = await fetch(v.update, { method: "POST", body: new URLSearchParams({ update: `INSERT DATA { GRAPH <${graph}> { <${graph}/s> <${P}v> "foreign" } }` }) });
    assert.equal(r.status, 200, await r.text());
  };
  const open = (over: ServedGraphs = graphs): Promise<SparqlProxy> =>
    SparqlProxy.open(over, { endpoint: v.sparql, base: BASE, timeoutMs: 30_000, maxResults: 100_000, concurrency: 1, dialect: "virtuoso", foreignFile: file });
  const count = async (p: SparqlProxy, query: string, o: Parameters<SparqlProxy["query"]>[2] = {}): Promise<number> =>
    Number((JSON.parse((await p.query(query, "application/sparql-results+json", { prefixes: { p: P }, ...o })).body.toString()) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]!.n.value);
  /** Every query form that names no dataset, over the union and over GRAPH ?g: the served triples only. */
  const seesServedOnly = async (p: SparqlProxy): Promise<void> => {
    assert.equal(await count(p, "SELECT (COUNT(*) AS ?n) WHERE { ?s p:v ?o }"), SERVED, "the default graph: the served graphs' triples");
    assert.equal(await count(p, "SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { ?s p:v ?o } }"), SERVED, "GRAPH ?g: the served graphs");
    assert.equal(await count(p, `SELECT (COUNT(*) AS ?n) WHERE { { ?s p:v "foreign" } UNION { GRAPH ?g { ?s ?q "foreign" } } }`), 0, "no foreign triple");
  };

  before(async () => {
    v = await startVirtuoso({ resultSetMaxRows: 10_000 });
    dir = freshDir();
    file = join(dir, "foreign-graphs.json");
    store = await SparqlStore.open({ query: v.sparql, update: v.update, gsp: v.gsp, base: BASE }, { bodies: join(dir, "bodies"), gspParam: "graph-uri" });
    graphs = { has: (g) => store.has(g), graphsWithPrefix: (p) => store.graphsWithPrefix(p), unservedGraphs: () => store.unservedGraphs() };
    for (let made = 0; made < SERVED; made += 1_000) {
      const part = Array.from({ length: 1_000 }, (_, k) => `${BASE}/graph/m${made + k}`);
      await store.commit([{ graphs: part, nquads: part.map((g, k) => `<${BASE}/s/m${made + k}> <${P}v> "${made + k}" <${g}> .\n`).join("") }]);
    }
    for (const g of OTHERS) await insert(g);
  });

  after(async () => {
    await store?.close();
    await v?.stop();
    if (dir) removeDir(dir);
  });

  test("first start: the store's graphs are listed, the list kept in the file; nothing foreign is seen", async () => {
    const t0 = performance.now();
    const p = await open();
    const openMs = Math.round(performance.now() - t0);
    try {
      await p.foreignRead;
      const readMs = Math.round(performance.now() - t0);
      console.log(`first start over ${SERVED + OTHERS.length + SYSTEM.length} graphs: opened in ${openMs} ms, the store's graphs read after ${readMs} ms`);
      assert.equal(p.foreignKnown, true);
      assert.deepEqual([...p.foreign].sort(), [...SYSTEM, ...OTHERS].sort());
      const kept = JSON.parse(readFileSync(file, "utf8")) as { endpoint: string; graphs: string[] };
      assert.equal(kept.endpoint, v.sparql);
      assert.deepEqual([...kept.graphs].sort(), [...SYSTEM, ...OTHERS].sort());
      await seesServedOnly(p);
    } finally {
      await p.close();
    }
  });

  test("restart: the kept list serves from the first query; the read after the start adds a graph written since", async () => {
    const late = "http://other.test/late";
    await insert(late);
    const t0 = performance.now();
    const p = await open();
    const openMs = Math.round(performance.now() - t0);
    try {
      // before the background read: the list of the last start (the late graph not yet in it, unless the read was quicker)
      assert.equal(p.foreignKnown, true, "the kept list is used at once");
      assert.ok([...SYSTEM, ...OTHERS].every((g) => p.foreign.includes(g)));
      assert.equal(await count(p, "SELECT (COUNT(*) AS ?n) WHERE { ?s p:v ?o FILTER(?o != \"foreign\") }"), SERVED);
      await p.foreignRead;
      console.log(`restart over ${SERVED + OTHERS.length + SYSTEM.length + 1} graphs: opened in ${openMs} ms with the kept list, the store's graphs read again after ${Math.round(performance.now() - t0)} ms`);
      assert.deepEqual([...p.foreign].sort(), [...SYSTEM, ...OTHERS, late].sort());
      assert.ok((JSON.parse(readFileSync(file, "utf8")) as { graphs: string[] }).graphs.includes(late), "the file holds the new list");
      await seesServedOnly(p);
    } finally {
      await p.close();
    }
  });

  test("no list yet (the read fails): a query that names no dataset is 503 with Retry-After, one that names its dataset is answered", { timeout: 60_000 }, async () => {
    const without = join(dir, "never-written.json");
    assert.equal(existsSync(without), false);
    // the service's own graphs cannot be told (its catalog unreadable): the list cannot be made
    const broken: ServedGraphs = {
      ...graphs,
      unservedGraphs: () => {
        throw new Error("the catalog cannot be read");
      },
    };
    const p = await SparqlProxy.open(broken, { endpoint: v.sparql, base: BASE, timeoutMs: 30_000, maxResults: 100_000, concurrency: 1, dialect: "virtuoso", foreignFile: without });
    try {
      assert.equal(p.foreignKnown, false);
      await assert.rejects(count(p, "SELECT (COUNT(*) AS ?n) WHERE { ?s p:v ?o }"), (e: unknown) => {
        assert.ok(e instanceof ServiceUnavailable, String(e));
        assert.match(e.message, /still reading which graphs of the external store are not the service's/);
        assert.equal(typeof e.details.retryAfter, "number");
        return true;
      });
      assert.equal(await count(p, `SELECT (COUNT(*) AS ?n) FROM <${BASE}/graph/m7> WHERE { ?s p:v ?o }`), 1, "FROM: lists of served graphs, no list of foreign graphs needed");
      assert.equal(existsSync(without), false, "nothing kept");
    } finally {
      await p.close();
    }
  });
});

describe("the foreign graphs when the store cuts the list at its row limit (ResultSetMaxRows 1,000 < its graphs)", () => {
  let v: Virtuoso;
  let store: SparqlStore;
  let dir: string;

  before(async () => {
    v = await startVirtuoso({ resultSetMaxRows: 1_000 });
    dir = freshDir();
    store = await SparqlStore.open({ query: v.sparql, update: v.update, gsp: v.gsp, base: BASE }, { bodies: join(dir, "bodies"), gspParam: "graph-uri" });
    for (let made = 0; made < 2_500; made += 500) {
      const part = Array.from({ length: 500 }, (_, k) => `${BASE}/graph/m${made + k}`);
      await store.commit([{ graphs: part, nquads: part.map((g, k) => `<${BASE}/s/m${made + k}> <${P}v> "${made + k}" <${g}> .\n`).join("") }]);
    }
    // graphs of another writer sorting before and after the service's
    for (const g of ["http://a.test/first", "http://zz.test/last"]) {
      const r = await fetch(v.update, { method: "POST", body: new URLSearchParams({ update: `INSERT DATA { GRAPH <${g}> { <${g}/s> <${P}v> "foreign" } }` }) });
      assert.equal(r.status, 200, await r.text());
    }
  });

  after(async () => {
    await store?.close();
    await v?.stop();
    if (dir) removeDir(dir);
  });

  test("the GROUP BY answer is cut: the keyset pages find every foreign graph", async () => {
    const graphs: ServedGraphs = { has: (g) => store.has(g), graphsWithPrefix: (p) => store.graphsWithPrefix(p), unservedGraphs: () => store.unservedGraphs() };
    const p = await SparqlProxy.open(graphs, { endpoint: v.sparql, base: BASE, timeoutMs: 30_000, maxResults: 100_000, concurrency: 1, dialect: "virtuoso", foreignFile: join(dir, "foreign-graphs.json") });
    try {
      await p.foreignRead;
      assert.equal(p.rowLimit, 1_000);
      assert.deepEqual([...p.foreign].sort(), [...SYSTEM, "http://a.test/first", "http://zz.test/last"].sort());
      const n = (JSON.parse((await p.query(`SELECT (COUNT(*) AS ?n) WHERE { ?s <${P}v> ?o }`, "application/sparql-results+json")).body.toString()) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]!.n.value;
      assert.equal(Number(n), 2_500, "the served triples only");
    } finally {
      await p.close();
    }
  });
});
