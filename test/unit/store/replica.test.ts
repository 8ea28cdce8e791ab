/**
 * The SPARQL read replica (src/store/replica.ts): a worker-thread copy of the graph store that
 * follows commits, answers read-only queries in every result format, enforces the result limit,
 * and is terminated and restarted when a query runs past the time limit.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Worker } from "node:worker_threads";
import { parse as parseCsv } from "csv-parse/sync";
import { Parser } from "n3";
import * as ox from "oxigraph";
import { QueryTimeout, ServiceError } from "../../../src/errors.ts";
import { GraphStore } from "../../../src/store/graph-store.ts";
import { SparqlReplica } from "../../../src/store/replica.ts";

const EX = "http://example.org/";
const JSON_T = "application/sparql-results+json";
const TIMEOUT_MS = 400;
const MAX = 100;
const BIG_N = 2000;

type Triple = readonly [string, string, string]; // N-Triples terms
const iri = (local: string): string => `<${EX}${local}>`;
const lit = (value: string): string => JSON.stringify(value); // JSON escapes are valid N-Triples escapes here
const nt = (ts: readonly Triple[]): string => ts.map((t) => `${t.join(" ")} .\n`).join("");

const GA = `${EX}graph/people`;
const GB = `${EX}graph/tricky`;
const GBIG = `${EX}graph/big`;
const people: Triple[] = [
  [iri("alice"), iri("knows"), iri("bob")],
  [iri("bob"), iri("knows"), iri("carol")],
  [iri("carol"), iri("knows"), iri("alice")],
  [iri("alice"), iri("name"), lit("Alice")],
  [iri("bob"), iri("name"), lit("Bob")],
  [iri("carol"), iri("name"), lit("Carol")],
];
const trickyValues = ['two\nlines, "quoted"', "tab\there", "comma, only", 'semi; "q" \\ back'];
const tricky: Triple[] = trickyValues.map((v, i) => [iri(`t${i}`), iri("label"), lit(v)]);
const bigValue = (i: number): string => `value ${i},\n"${i}"`;
const big: Triple[] = Array.from({ length: BIG_N }, (_, i) => [iri(`item/${String(i).padStart(5, "0")}`), iri("value"), lit(bigValue(i))]);

function statusOf(err: unknown): number | undefined {
  return err instanceof ServiceError ? err.status : undefined;
}

async function rejection(p: Promise<unknown>): Promise<ServiceError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof ServiceError, `expected a ServiceError, got ${String(err)}`);
  return err;
}

describe("SparqlReplica", () => {
  let dir: string;
  let store: GraphStore;
  let replica: SparqlReplica;

  const bindings = async (query: string, dataset = {}): Promise<Record<string, { value: string }>[]> => {
    const r = await replica.query(query, JSON_T, dataset);
    assert.equal(r.contentType, JSON_T);
    return (JSON.parse(r.body) as { results: { bindings: Record<string, { value: string }>[] } }).results.bindings;
  };
  const count = async (where: string, dataset = {}): Promise<number> => {
    const rows = await bindings(`SELECT (COUNT(*) AS ?n) WHERE { ${where} }`, dataset);
    return Number(rows[0]!.n!.value);
  };
  const ask = async (query: string): Promise<boolean> => (JSON.parse((await replica.query(query, JSON_T)).body) as { boolean: boolean }).boolean;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "qg-replica-"));
    store = GraphStore.open(dir);
    await store.commit([{ graph: GA, ntriples: nt(people) }]);
    await store.commit([{ graph: GB, ntriples: nt(tricky) }]);
    await store.commit([{ graph: GBIG, ntriples: nt(big) }]);
    replica = await SparqlReplica.start(store, { dataDir: dir, timeoutMs: TIMEOUT_MS, maxResults: MAX });
  });

  after(async () => {
    await replica?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("loads the data dir at start: COUNT over the union default graph and per graph", async () => {
    assert.equal(replica.loadedSeq, store.lastSeq);
    assert.equal(await count("?s ?p ?o"), people.length + tricky.length + big.length);
    const rows = await bindings("SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g");
    const got = Object.fromEntries(rows.map((r) => [r.g!.value, Number(r.n!.value)]));
    assert.deepEqual(got, { [GA]: people.length, [GB]: tricky.length, [GBIG]: big.length });
  });

  it("answers ASK", async () => {
    assert.equal(await ask(`ASK { ${iri("alice")} ${iri("knows")} ${iri("bob")} }`), true);
    assert.equal(await ask(`ASK { ${iri("bob")} ${iri("knows")} ${iri("alice")} }`), false);
  });

  it("answers CONSTRUCT as N-Triples, Turtle and RDF/XML", async () => {
    const query = `CONSTRUCT { ?b ${iri("knownBy")} ?a } WHERE { ?a ${iri("knows")} ?b }`;
    const expected = people.filter((t) => t[1] === iri("knows")).map(([a, , b]) => `${b} ${iri("knownBy")} ${a} .`).sort();
    const ntr = await replica.query(query, "application/n-triples");
    assert.equal(ntr.contentType, "application/n-triples");
    assert.deepEqual(ntr.body.trim().split("\n").sort(), expected);
    const ttl = await replica.query(query, "text/turtle");
    assert.equal(ttl.contentType, "text/turtle");
    const fromTtl = new Parser().parse(ttl.body).map((q) => `<${q.subject.value}> <${q.predicate.value}> <${q.object.value}> .`);
    assert.deepEqual(fromTtl.sort(), expected);
    const xml = await replica.query(query, "application/rdf+xml");
    assert.match(xml.body, /<rdf:RDF/);
    const s = new ox.Store();
    s.load(xml.body, { format: "application/rdf+xml" });
    assert.deepEqual(s.dump({ format: "application/n-triples", from_graph_name: ox.defaultGraph() }).trim().split("\n").sort(), expected);
  });

  it("serialises SELECT as XML, CSV and TSV, escaping newlines, quotes and commas", async () => {
    const query = `SELECT ?v WHERE { GRAPH <${GB}> { ?s ${iri("label")} ?v } } ORDER BY ?s`;
    const csv = await replica.query(query, "text/csv");
    assert.equal(csv.contentType, "text/csv");
    assert.deepEqual(parseCsv(csv.body, { relax_quotes: false }) as string[][], [["v"], ...trickyValues.map((v) => [v])]);
    const tsv = await replica.query(query, "text/tab-separated-values");
    assert.deepEqual(tsv.body.trimEnd().split("\n"), ["?v", ...trickyValues.map(lit)]);
    const xml = await replica.query(query, "application/sparql-results+xml");
    assert.equal(xml.body.split("<result>").length - 1, trickyValues.length);
  });

  it("sees a commit in the next query after the commit resolved", async () => {
    const GC = `${EX}graph/late`;
    for (let k = 1; k <= 5; k++) {
      const ts: Triple[] = Array.from({ length: k * 3 }, (_, i) => [iri(`c${i}`), iri("round"), `"${k}"^^<http://www.w3.org/2001/XMLSchema#integer>`]);
      await store.commit([{ graph: GC, ntriples: nt(ts) }]);
      assert.equal(await count(`GRAPH <${GC}> { ?s ?p ?o }`), k * 3);
    }
    await store.commit([{ graph: GC, delete: true }]);
    assert.equal(await ask(`ASK { GRAPH <${GC}> { ?s ?p ?o } }`), false);
  });

  it("uses default-graph-uri / named-graph-uri and the query's FROM as the dataset", async () => {
    assert.equal(await count("?s ?p ?o", { defaultGraphs: [GA] }), people.length);
    assert.equal(await count("?s ?p ?o", { defaultGraphs: [GA, GB] }), people.length + tricky.length);
    const rows = await bindings("SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g", { namedGraphs: [GB] });
    assert.deepEqual(rows.map((r) => [r.g!.value, Number(r.n!.value)]), [[GB, tricky.length]]);
    const from = await bindings(`SELECT (COUNT(*) AS ?n) FROM <${GB}> WHERE { ?s ?p ?o }`);
    assert.equal(Number(from[0]!.n!.value), tricky.length);
    const bad = await rejection(replica.query("ASK {}", JSON_T, { defaultGraphs: ["not an iri"] }));
    assert.equal(bad.status, 400);
    assert.equal(bad.details.field, "default-graph-uri");
  });

  it("refuses results over the limit, in every format, and accepts the limit itself", async () => {
    for (const format of [JSON_T, "application/sparql-results+xml", "text/csv", "text/tab-separated-values"]) {
      const q = (n: number): string => `SELECT ?s ?v WHERE { GRAPH <${GBIG}> { ?s ?p ?v } } ORDER BY ?s LIMIT ${n}`;
      const ok = await replica.query(q(MAX), format);
      assert.equal(ok.contentType, format);
      const err = await rejection(replica.query(q(MAX + 1), format));
      assert.equal(err.status, 400, format);
      assert.match(err.message, new RegExp(`more than ${MAX} rows`));
    }
    for (const format of ["application/n-triples", "text/turtle", "application/rdf+xml"]) {
      const q = (n: number): string => `CONSTRUCT { ?s ?p ?v } WHERE { GRAPH <${GBIG}> { ?s ?p ?v } } ORDER BY ?s LIMIT ${n}`;
      const ok = await replica.query(q(MAX), format);
      if (format === "application/n-triples") assert.equal(ok.body.trim().split("\n").length, MAX);
      const err = await rejection(replica.query(q(MAX + 1), format));
      assert.equal(err.status, 400, format);
      assert.match(err.message, new RegExp(`more than ${MAX} triples`));
    }
    // Aggregates over more rows than the limit are fine: only the result is counted.
    assert.equal(await count(`GRAPH <${GBIG}> { ?s ?p ?v }`), BIG_N);
  });

  it("rejects SPARQL updates with 400, and the data is unchanged", async () => {
    const total = await count("?s ?p ?o");
    const updates = [
      `INSERT DATA { GRAPH <${GA}> { ${iri("x")} ${iri("y")} ${iri("z")} } }`,
      `PREFIX ex: <${EX}>\n# a comment\nDELETE WHERE { ?s ex:knows ?o }`,
      `DELETE { ?s ?p ?o } INSERT { ?o ?p ?s } WHERE { ?s ?p ?o }`,
      `WITH <${GA}> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }`,
      `LOAD <http://127.0.0.1:1/data.ttl>`,
      "CLEAR ALL",
      `DROP GRAPH <${GA}>`,
      `CREATE GRAPH <${EX}new>`,
      `ADD <${GA}> TO <${GB}>`,
      `MOVE <${GA}> TO <${GB}>`,
      `copy <${GA}> to <${GB}>`,
      `BASE <${EX}> PREFIX : <${EX}> INSERT DATA { :a :b :c }`,
    ];
    for (const u of updates) {
      const err = await rejection(replica.query(u, JSON_T));
      assert.equal(err.status, 400, u);
      assert.equal(err.message, "SPARQL update is not allowed: this endpoint is read-only", u);
    }
    assert.equal(await count("?s ?p ?o"), total);
  });

  it("reports syntax errors with 400 and Oxigraph's line and column", async () => {
    const query = "SELECT * WHERE {\n  ?s ?p\n}";
    const err = await rejection(replica.query(query, JSON_T));
    assert.equal(err.status, 400);
    assert.match(err.message, /^invalid SPARQL query: error at 3:\d+/);
    assert.equal(err.details.line, 3);
    assert.equal(typeof err.details.column, "number");
  });

  it("rejects SERVICE without contacting the service", async () => {
    let hits = 0;
    const server: Server = createServer((_req, res) => {
      hits++;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const ep = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sparql`;
    try {
      for (const q of [
        `SELECT * WHERE { SERVICE <${ep}> { ?s ?p ?o } }`,
        `select * where { service silent <${ep}> { ?s ?p ?o } }`,
        `SELECT * WHERE { VALUES ?ep { <${ep}> } SERVICE ?ep { ?s ?p ?o } }`,
        `CONSTRUCT { ?s ?p ?o } WHERE { SERVICE <${ep}> { ?s ?p ?o } }`,
      ]) {
        const err = await rejection(replica.query(q, q.startsWith("CONSTRUCT") ? "text/turtle" : JSON_T));
        assert.equal(err.status, 400, q);
        assert.match(err.message, /SERVICE/);
      }
      assert.equal(hits, 0);
      // The word in a literal or as a local name is not the keyword.
      assert.equal(await ask(`PREFIX ex: <${EX}> ASK { FILTER("SERVICE" != str(ex:SERVICE)) }`), true);
    } finally {
      server.close();
    }
  });

  it("stops a query at the time limit off the main thread, restarts, and keeps every commit", async () => {
    const restarts = replica.restartCount;
    const LATE = `${EX}graph/during-slow`;
    let last = performance.now();
    let maxGap = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 5);
    const t0 = performance.now();
    // BIG_N³ = 8e9 join rows: far beyond the time limit.
    const slow = replica.query(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${GBIG}> { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f } }`, JSON_T);
    const queued = count(`GRAPH <${GA}> { ?s ?p ?o }`); // waits behind the slow one
    await store.commit([{ graph: LATE, ntriples: nt(people.slice(0, 2)) }]);
    const err = await rejection(slow);
    const elapsed = performance.now() - t0;
    clearInterval(tick);
    assert.ok(err instanceof QueryTimeout);
    assert.equal(err.status, 503);
    assert.match(err.message, new RegExp(`${TIMEOUT_MS} ms`));
    assert.ok(elapsed >= TIMEOUT_MS, `stopped after ${elapsed} ms`);
    assert.ok(maxGap < 100, `the event loop stalled for ${maxGap.toFixed(0)} ms during a ${elapsed.toFixed(0)} ms query`);
    assert.equal(await queued, people.length);
    assert.equal(replica.restartCount, restarts + 1);
    // The new worker reloaded from disk: the commit made during the slow query is there, and
    // one made right after the restart is forwarded.
    assert.equal(await count(`GRAPH <${LATE}> { ?s ?p ?o }`), 2);
    await store.commit([{ graph: LATE, ntriples: nt(people) }]);
    assert.equal(await count(`GRAPH <${LATE}> { ?s ?p ?o }`), people.length);
  });

  it("replaces a worker that reports a commit gap and re-runs the query waiting behind it", async () => {
    const restarts = replica.restartCount;
    const worker = (replica as unknown as { worker: Worker }).worker;
    worker.postMessage({ type: "record", seq: store.lastSeq + 5, record: new Uint8Array(0) });
    assert.equal(await count("?s ?p ?o", { defaultGraphs: [GA] }), people.length);
    assert.equal(replica.restartCount, restarts + 1);
  });

  it("renew(): a running query finishes on the old worker, then a new worker loads the data dir and sees every commit", async () => {
    const restarts = replica.restartCount;
    const renewals = replica.renewalCount;
    const running = count(`GRAPH <${GA}> { ?s ?p ?o }`);
    replica.renew();
    assert.equal(await running, people.length, "the query running at the renewal was answered");
    const GC = `${EX}graph/after-renewal`;
    await store.commit([{ graph: GC, ntriples: nt(people.slice(0, 2)) }]);
    assert.equal(await count(`GRAPH <${GC}> { ?s ?p ?o }`), 2);
    assert.equal(await count(`GRAPH <${GBIG}> { ?s ?p ?o }`), BIG_N);
    assert.equal(replica.renewalCount, renewals + 1);
    assert.equal(replica.restartCount, restarts, "a renewal is not counted as a failure restart");
  });

  it("fails queries with 503 once closed", async () => {
    const second = await SparqlReplica.start(store, { dataDir: dir, timeoutMs: TIMEOUT_MS, maxResults: MAX });
    assert.equal(await second.query("ASK {}", JSON_T).then((r) => r.body), '{"head":{},"boolean":true}');
    const pending = second.query(`SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f }`, JSON_T).catch((e: unknown) => e);
    await second.close();
    assert.equal(statusOf(await pending), 503);
    assert.equal(statusOf(await second.query("ASK {}", JSON_T).catch((e: unknown) => e)), 503);
  });
});
