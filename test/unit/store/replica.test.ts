/**
 * The SPARQL read replicas (src/store/replica.ts): worker-thread copies of the graph store that
 * follow commits, answer read-only queries in every result format, enforce the result limit; a
 * worker is terminated and replaced when its query runs past the time limit or its client goes
 * away (unless it ends within a short grace), while the other worker serves; a query that cannot
 * start within the time limit fails.
 *
 * The expected values are counts of the triples this file commits (people, tricky, big).
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
import { Cancelled, QueryTimeout, ServiceError, ServiceUnavailable } from "../../../src/errors.ts";
import { GraphStore } from "../../../src/store/graph-store.ts";
import { CANCEL_GRACE_MS, SparqlReplica, type QueryDataset } from "../../../src/store/replica.ts";

const EX = "http://example.org/";
const JSON_T = "application/sparql-results+json";
const TIMEOUT_MS = 400;
const MAX = 100;
const BIG_N = 2000;
const WORKERS = 2;
/** BIG_N³ = 8e9 join rows: far beyond any time limit. */
const SLOW = `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${EX}graph/big> { ?a ?p ?b . ?c ?q ?d . ?e ?r ?f } }`;

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

/** Resolve once `cond` holds (checked every 5 ms), or fail after `ms`. */
async function until(cond: () => boolean, what: string, ms = 30_000): Promise<void> {
  const t0 = performance.now();
  while (!cond()) {
    if (performance.now() - t0 > ms) throw new Error(`timed out waiting until ${what}`);
    await new Promise((res) => setTimeout(res, 5));
  }
}

describe("SparqlReplica", () => {
  let dir: string;
  let store: GraphStore;
  let replica: SparqlReplica;

  /** A query's result with the body as text. */
  const text = async (query: string, format: string, dataset: QueryDataset = {}): Promise<{ contentType: string; body: string }> => {
    const r = await replica.query(query, format, dataset);
    return { contentType: r.contentType, body: r.body.toString("utf8") };
  };
  const bindings = async (query: string, dataset = {}): Promise<Record<string, { value: string }>[]> => {
    const r = await text(query, JSON_T, dataset);
    assert.equal(r.contentType, JSON_T);
    return (JSON.parse(r.body) as { results: { bindings: Record<string, { value: string }>[] } }).results.bindings;
  };
  const count = async (where: string, dataset = {}): Promise<number> => {
    const rows = await bindings(`SELECT (COUNT(*) AS ?n) WHERE { ${where} }`, dataset);
    return Number(rows[0]!.n!.value);
  };
  const ask = async (query: string): Promise<boolean> => (JSON.parse((await text(query, JSON_T)).body) as { boolean: boolean }).boolean;
  /** Both workers loaded and idle (after a test replaced one). */
  const settled = (): Promise<void> => until(() => replica.figures.ready === WORKERS && replica.figures.busy === 0, "every worker is loaded and idle");

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "qg-replica-"));
    store = await GraphStore.open(dir);
    await store.commit([{ graph: GA, ntriples: nt(people) }]);
    await store.commit([{ graph: GB, ntriples: nt(tricky) }]);
    await store.commit([{ graph: GBIG, ntriples: nt(big) }]);
    replica = await SparqlReplica.start(store, { dataDir: dir, timeoutMs: TIMEOUT_MS, maxResults: MAX, workers: WORKERS });
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
    const ntr = await text(query, "application/n-triples");
    assert.equal(ntr.contentType, "application/n-triples");
    assert.deepEqual(ntr.body.trim().split("\n").sort(), expected);
    const ttl = await text(query, "text/turtle");
    assert.equal(ttl.contentType, "text/turtle");
    const fromTtl = new Parser().parse(ttl.body).map((q) => `<${q.subject.value}> <${q.predicate.value}> <${q.object.value}> .`);
    assert.deepEqual(fromTtl.sort(), expected);
    const xml = await text(query, "application/rdf+xml");
    assert.match(xml.body, /<rdf:RDF/);
    const s = new ox.Store();
    s.load(xml.body, { format: "application/rdf+xml" });
    assert.deepEqual(s.dump({ format: "application/n-triples", from_graph_name: ox.defaultGraph() }).trim().split("\n").sort(), expected);
  });

  it("serialises SELECT as XML, CSV and TSV, escaping newlines, quotes and commas", async () => {
    const query = `SELECT ?v WHERE { GRAPH <${GB}> { ?s ${iri("label")} ?v } } ORDER BY ?s`;
    const csv = await text(query, "text/csv");
    assert.equal(csv.contentType, "text/csv");
    assert.deepEqual(parseCsv(csv.body, { relax_quotes: false }) as string[][], [["v"], ...trickyValues.map((v) => [v])]);
    const tsv = await text(query, "text/tab-separated-values");
    assert.deepEqual(tsv.body.trimEnd().split("\n"), ["?v", ...trickyValues.map(lit)]);
    const xml = await text(query, "application/sparql-results+xml");
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
      const ok = await text(q(MAX), format);
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

  it("reports syntax errors with 400 as one sentence with line and column", async () => {
    // The object of the pattern is missing: the parser stops at the '}' of line 3, column 1.
    const query = "SELECT * WHERE {\n  ?s ?p\n}";
    const err = await rejection(replica.query(query, JSON_T));
    assert.equal(err.status, 400);
    assert.equal(err.message, "invalid SPARQL query at line 3, column 1: the query is not valid SPARQL at '}'");
    assert.deepEqual([err.details.line, err.details.column], [3, 1]);
    // An undeclared prefix, named where it starts (line 1, column 24, counted by hand); with the
    // prefix predeclared the same query runs.
    const undeclared = await rejection(replica.query("SELECT ?d WHERE { ?d a ex:Dataset }", JSON_T));
    assert.equal(undeclared.message, "invalid SPARQL query at line 1, column 24: the prefix 'ex' is not declared (add PREFIX ex: <…> before the query)");
    const ok = await replica.query("SELECT ?d WHERE { ?d a ex:Dataset }", JSON_T, { prefixes: { ex: EX } });
    assert.equal(JSON.parse(ok.body.toString("utf8")).head.vars[0], "d");
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

  it("stops a query at the time limit off the main thread, while the other worker answers; the replaced worker keeps every commit", async () => {
    await settled();
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
    let slowSettled = false;
    const slow = rejection(replica.query(SLOW, JSON_T).finally(() => (slowSettled = true)));
    // Runs at once on the other worker, and is answered while the slow query still runs.
    const other = count(`GRAPH <${GA}> { ?s ?p ?o }`);
    assert.equal(replica.figures.busy, 2, "both queries were given a worker at once");
    assert.equal(await other, people.length);
    assert.equal(slowSettled, false, "the short query was answered before the slow one ended");
    await store.commit([{ graph: LATE, ntriples: nt(people.slice(0, 2)) }]);
    const err = await slow;
    const elapsed = performance.now() - t0;
    clearInterval(tick);
    assert.ok(err instanceof QueryTimeout);
    assert.equal(err.status, 503);
    assert.match(err.message, new RegExp(`${TIMEOUT_MS} ms`));
    assert.ok(elapsed >= TIMEOUT_MS, `stopped after ${elapsed} ms`);
    assert.ok(maxGap < 100, `the event loop stalled for ${maxGap.toFixed(0)} ms during a ${elapsed.toFixed(0)} ms query`);
    assert.equal(replica.restartCount, restarts + 1);
    // The new worker reloads from disk: the commit made during the slow query is there, and
    // one made right after the restart is forwarded to both workers.
    await settled();
    const both = async (graph: string): Promise<number[]> => {
      const counts = [count(`GRAPH <${graph}> { ?s ?p ?o }`), count(`GRAPH <${graph}> { ?s ?p ?o }`)];
      assert.equal(replica.figures.busy, 2, "the two queries run on the two workers");
      return Promise.all(counts);
    };
    assert.deepEqual(await both(LATE), [2, 2]);
    await store.commit([{ graph: LATE, ntriples: nt(people) }]);
    assert.deepEqual(await both(LATE), [people.length, people.length]);
  });

  it("a query sent after a commit resolved sees it on every worker", async () => {
    await settled();
    const G = `${EX}graph/consistency`;
    for (let k = 1; k <= 6; k++) {
      const ts: Triple[] = Array.from({ length: k }, (_, i) => [iri(`k${i}`), iri("round"), lit(String(k))]);
      await store.commit([{ graph: G, ntriples: nt(ts) }]);
      // Two queries sent together run on the two workers (both idle: the first takes worker 0).
      const pending = [count(`GRAPH <${G}> { ?s ?p "${k}" }`), count(`GRAPH <${G}> { ?s ?p "${k}" }`)];
      assert.equal(replica.figures.busy, 2);
      assert.deepEqual(await Promise.all(pending), [k, k], `round ${k}`);
    }
    await store.commit([{ graph: G, delete: true }]);
    const gone = [ask(`ASK { GRAPH <${G}> { ?s ?p ?o } }`), ask(`ASK { GRAPH <${G}> { ?s ?p ?o } }`)];
    assert.deepEqual(await Promise.all(gone), [false, false]);
  });

  it("a running query whose client went away terminates its worker; the next query is answered by the other worker meanwhile", async () => {
    await settled();
    const f0 = replica.figures;
    const ac = new AbortController();
    const slow = rejection(replica.query(SLOW, JSON_T, {}, ac.signal));
    await until(() => replica.figures.started === f0.started + 1, "the slow query started");
    ac.abort();
    const err = await slow;
    assert.ok(err instanceof Cancelled, `got ${err.code}`);
    // It does not end within the grace: its worker is terminated then.
    await until(() => replica.figures.restarts === f0.restarts + 1, "its worker was replaced");
    const f1 = replica.figures;
    assert.equal(f1.cancelled, f0.cancelled + 1);
    assert.equal(f1.loading, 1, "the replaced worker is loading");
    assert.equal(f1.ready, 1);
    assert.equal(f1.busy, 0);
    // Given to the ready worker at once, while the replaced one still loads.
    const next = count(`GRAPH <${GA}> { ?s ?p ?o }`);
    assert.equal(replica.figures.busy, 1);
    assert.equal(replica.figures.queued, 0);
    assert.equal(await next, people.length);
    await settled();
    assert.equal(replica.restartCount, f0.restarts + 1, "no further restart: the slow query was not left running to its time limit");
    assert.equal(replica.figures.timeouts, f0.timeouts);
  });

  it("a waiting query whose client went away is dropped and never runs", async () => {
    await settled();
    const f0 = replica.figures;
    const running = [new AbortController(), new AbortController()];
    const slow = running.map((ac) => rejection(replica.query(SLOW, JSON_T, {}, ac.signal)));
    await until(() => replica.figures.started === f0.started + 2, "both slow queries started");
    const ac = new AbortController();
    const waiting = rejection(replica.query(`ASK { ${iri("alice")} ${iri("knows")} ${iri("bob")} }`, JSON_T, {}, ac.signal));
    assert.equal(replica.figures.queued, 1);
    ac.abort();
    assert.equal(replica.figures.queued, 0, "dropped from the queue at once");
    assert.ok((await waiting) instanceof Cancelled);
    for (const a of running) a.abort();
    for (const p of slow) assert.ok((await p) instanceof Cancelled);
    await until(() => replica.figures.restarts === f0.restarts + 2, "both workers were replaced");
    await settled();
    assert.equal(await ask(`ASK { ${iri("bob")} ${iri("knows")} ${iri("carol")} }`), true);
    const f1 = replica.figures;
    // Started: the two slow queries and the last ASK, not the dropped one.
    assert.equal(f1.started, f0.started + 3);
    assert.equal(f1.cancelled, f0.cancelled + 3);
    assert.equal(f1.restarts, f0.restarts + 2, "only the two running queries cost a worker");
  });

  it("a running query whose client went away but which ends within the grace keeps its worker", async () => {
    await settled();
    const f0 = replica.figures;
    const ac = new AbortController();
    const quick = rejection(replica.query(`ASK { ${iri("alice")} ${iri("knows")} ${iri("bob")} }`, JSON_T, {}, ac.signal));
    assert.equal(replica.figures.busy, 1, "it was given a worker");
    ac.abort();
    assert.ok((await quick) instanceof Cancelled, "its caller is told at once");
    await until(() => replica.figures.busy === 0, "the worker answered");
    const f1 = replica.figures;
    assert.equal(f1.cancelled, f0.cancelled + 1);
    assert.equal(f1.ready, WORKERS);
    await new Promise((res) => setTimeout(res, CANCEL_GRACE_MS + 100));
    assert.equal(replica.figures.restarts, f0.restarts, "no worker was replaced");
    assert.equal(replica.figures.ready, WORKERS);
  });

  it("a query that cannot start within the time limit fails with 503 ServiceUnavailable", async () => {
    await settled();
    const f0 = replica.figures;
    const slow = [rejection(replica.query(SLOW, JSON_T)), rejection(replica.query(SLOW, JSON_T))];
    // Both workers are busy until the slow queries reach the limit, then they reload: this one
    // cannot start within the limit.
    const waiting = rejection(replica.query("ASK {}", JSON_T));
    assert.equal(replica.figures.queued, 1);
    const err = await waiting;
    assert.ok(err instanceof ServiceUnavailable, `got ${err.code}`);
    assert.equal(err.status, 503);
    assert.match(err.message, new RegExp(`no SPARQL worker became free within the time limit of ${TIMEOUT_MS} ms`));
    for (const p of slow) assert.ok((await p) instanceof QueryTimeout);
    assert.equal(replica.figures.timeouts, f0.timeouts + 3);
    assert.equal(replica.figures.started, f0.started + 2, "the query that waited never ran");
    await settled();
  });

  it("replaces a worker that reports a commit gap and re-runs the query waiting behind it", async () => {
    await settled();
    const restarts = replica.restartCount;
    const worker = (replica as unknown as { slots: { worker: Worker }[] }).slots[0]!.worker;
    worker.postMessage({ type: "record", seq: store.lastSeq + 5, path: "/nonexistent", offset: 0, length: 0 });
    // Both workers idle: the query goes to worker 0, which ignores it after the gap.
    const q = count("?s ?p ?o", { defaultGraphs: [GA] });
    assert.equal(replica.figures.busy, 1);
    assert.equal(await q, people.length);
    assert.equal(replica.restartCount, restarts + 1);
  });

  it("renew(): every worker is replaced, one at a time, while queries go on; a running query finishes first", async () => {
    await settled();
    const restarts = replica.restartCount;
    const renewals = replica.renewalCount;
    let minReady: number = WORKERS;
    const sample = setInterval(() => (minReady = Math.min(minReady, replica.figures.ready)), 2);
    const running = count(`GRAPH <${GA}> { ?s ?p ?o }`);
    replica.renew();
    assert.equal(await running, people.length, "the query running at the renewal was answered");
    let answered = 0;
    while (replica.renewalCount < renewals + WORKERS || replica.figures.ready < WORKERS) {
      assert.equal(await count(`GRAPH <${GB}> { ?s ?p ?o }`), tricky.length);
      answered++;
    }
    clearInterval(sample);
    assert.equal(minReady, 1, "one worker was always loaded");
    assert.ok(answered > 0);
    assert.equal(replica.renewalCount, renewals + WORKERS);
    assert.equal(replica.restartCount, restarts, "a renewal is not counted as a restart");
    const GC = `${EX}graph/after-renewal`;
    await store.commit([{ graph: GC, ntriples: nt(people.slice(0, 2)) }]);
    const after = [count(`GRAPH <${GC}> { ?s ?p ?o }`), count(`GRAPH <${GC}> { ?s ?p ?o }`)];
    assert.equal(replica.figures.busy, 2);
    assert.deepEqual(await Promise.all(after), [2, 2]);
    assert.equal(await count(`GRAPH <${GBIG}> { ?s ?p ?o }`), BIG_N);
  });

  it("fails queries with 503 once closed", async () => {
    const second = await SparqlReplica.start(store, { dataDir: dir, timeoutMs: TIMEOUT_MS, maxResults: MAX });
    assert.equal(second.figures.workers, 1);
    assert.equal(await second.query("ASK {}", JSON_T).then((r) => r.body.toString()), '{"head":{},"boolean":true}');
    const pending = second.query(SLOW, JSON_T).catch((e: unknown) => e);
    await second.close();
    assert.equal(statusOf(await pending), 503);
    assert.equal(statusOf(await second.query("ASK {}", JSON_T).catch((e: unknown) => e)), 503);
  });
});

describe("SparqlReplica: shedding garbage while idle", () => {
  it("reloads its workers when the store renews once the service is idle and it holds as much garbage as current data, and not before", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qsargraph-replica-idle-"));
    const store = await GraphStore.open(dir, { idleMs: 300, minIdleGarbage: 100 });
    const replica = await SparqlReplica.start(store, { dataDir: dir, timeoutMs: 5000, maxResults: 10_000, workers: 1 });
    const G = `${EX}graph/churn`;
    const triples = (n: number, tag: string): string => nt(Array.from({ length: n }, (_, i): Triple => [iri(`${tag}/${i}`), iri("value"), lit(String(i))]));
    const countIn = async (g: string): Promise<number> => {
      const r = await replica.query(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${g}> { ?s ?p ?o } }`, JSON_T);
      return Number((JSON.parse(r.body.toString()) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]!.n.value);
    };
    try {
      // 150 current triples, no garbage: idle for three periods, no reload.
      await store.commit([{ graph: G, ntriples: triples(150, "a") }]);
      await new Promise((res) => setTimeout(res, 1000));
      assert.equal(replica.renewalCount, 0);
      assert.equal(store.capacity().renewals, 0);
      // Replaced twice by 150 others: 300 garbage ≥ max(100, 150 current) → one renewal, once idle.
      await store.commit([{ graph: G, ntriples: triples(150, "b") }]);
      await store.commit([{ graph: G, ntriples: triples(150, "c") }]);
      const t0 = performance.now();
      while (replica.renewalCount < 1 && performance.now() - t0 < 10_000) await new Promise((res) => setTimeout(res, 50));
      assert.equal(replica.renewalCount, 1);
      assert.equal(store.capacity().renewals, 1);
      assert.deepEqual([store.capacity().loaded, store.capacity().live], [150, 150], "the store holds only the current data");
      assert.ok(performance.now() - t0 >= 250, "not before the service was idle");
      while (replica.figures.ready < 1) await new Promise((res) => setTimeout(res, 20));
      assert.equal(await countIn(G), 150, "the reloaded copy holds the current data");
      const r = await replica.query(`ASK { GRAPH <${G}> { ${iri("c/7")} ${iri("value")} ${lit("7")} } }`, JSON_T);
      assert.equal((JSON.parse(r.body.toString()) as { boolean: boolean }).boolean, true);
      // Nothing loaded since: no second renewal.
      await new Promise((res) => setTimeout(res, 1000));
      assert.equal(replica.renewalCount, 1);
      assert.equal(store.capacity().renewals, 1);
    } finally {
      await replica.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
