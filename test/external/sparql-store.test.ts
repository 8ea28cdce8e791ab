/**
 * The SPARQL store backend (src/store/sparql-store.ts) against a Virtuoso 7.2 started for the
 * test: commits, replaces, deletes, several-graph puts, batching of large bodies, stages, the
 * catalog read back at start-up (crash recovery) and commits the store refuses.
 * Expected values are the triples the tests write themselves (hand-written bodies, or numbered
 * ones whose count is known by construction); the store's content is checked with its own
 * SPARQL endpoint (counts with the predicate bound: an unbound COUNT(*) can be very slow on
 * Virtuoso, docs/virtuoso.md finding 3).
 * Not part of `npm test`: `npm run test:external`.
 */
import assert from "node:assert/strict";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Parser } from "n3";
import * as ox from "oxigraph";
import { NotAcceptable } from "../../src/errors.ts";
import type { StoreBackend } from "../../src/store/backend.ts";
import { GraphStore } from "../../src/store/graph-store.ts";
import { RDF_TYPES, serialiseRdf } from "../../src/store/rdf-formats.ts";
import { sourceSlices } from "../../src/store/render-job.ts";
import { Vocab } from "../../src/store/vocab.ts";
import { SparqlStore, type SparqlEndpoints } from "../../src/store/sparql-store.ts";
import { QG_NS } from "../../src/store/vocab.ts";
import { freshDir } from "../helpers/server.ts";
import { startVirtuoso, type Virtuoso } from "../helpers/virtuoso.ts";

const BASE = "http://qsargraph.test";
const P = "http://qsargraph.test/p/";

function endpoints(v: Virtuoso): SparqlEndpoints {
  return { query: v.sparql, update: v.update, gsp: v.gsp, base: BASE };
}

/** The local body cache of the stores on `v` (in its temporary directory: one data directory per Virtuoso, as after a restart). */
const bodiesOf = (v: Virtuoso): string => join(v.dir, "qsargraph-bodies");

/** `n` triples `<BASE/s/{tag}{i}> <P v> "i"`, as N-Triples (plain literals: Virtuoso keeps them as written, docs/virtuoso.md finding 2). */
function numbered(tag: string, n: number, from = 0): string {
  let s = "";
  for (let i = from; i < from + n; i++) s += `<${BASE}/s/${tag}${i}> <${P}v> "${i}" .\n`;
  return s;
}

async function select(v: Virtuoso, query: string): Promise<Record<string, { value: string }>[]> {
  const r = await fetch(v.sparql, { method: "POST", headers: { accept: "application/sparql-results+json" }, body: new URLSearchParams({ query }) });
  const text = await r.text();
  assert.equal(r.status, 200, text);
  return (JSON.parse(text) as { results: { bindings: Record<string, { value: string }>[] } }).results.bindings;
}

/** Triples of `graph` with predicate `p` (bound: fast on Virtuoso). */
async function countIn(v: Virtuoso, graph: string, p = `${P}v`): Promise<number> {
  const [row] = await select(v, `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graph}> { ?s <${p}> ?o } }`);
  return Number(row!.n!.value);
}

async function update(v: Virtuoso, u: string): Promise<void> {
  const r = await fetch(v.update, { method: "POST", body: new URLSearchParams({ update: u }) });
  const text = await r.text();
  assert.equal(r.status, 200, text);
}

const parse = (s: string, format: string) => new Parser({ format }).parse(s);
/** The triples of an N-Triples text, each as JSON of its terms, sorted (Virtuoso writes tabs between terms). */
const triples = (s: string): string[] => parse(s, "N-Triples").map((q) => JSON.stringify([q.subject.toJSON(), q.predicate.toJSON(), q.object.toJSON()])).sort();

describe("SparqlStore on Virtuoso 7.2", () => {
  let v: Virtuoso;
  let store: SparqlStore;
  before(async () => {
    v = await startVirtuoso();
    store = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
  });
  after(async () => {
    await store?.close();
    await v?.stop();
  });

  test("a new store starts empty; a commit is served with its size, and dumps give back what was written", async () => {
    assert.deepEqual(store.graphsWithPrefix(BASE), []);
    assert.equal(store.openInfo.lastSeq, 0);
    const g = `${BASE}/dataset/a`;
    const body = numbered("a", 3);
    const seq = await store.commit([{ graph: g, ntriples: body }]);
    assert.equal(seq, 1, "the first commit");
    assert.equal(store.has(g), true);
    assert.equal(store.graphSize(g), 3);
    assert.deepEqual(store.graphsWithPrefix(`${BASE}/dataset/`), [g]);
    assert.equal(await countIn(v, g), 3, "the triples are in the external store");
    assert.deepEqual(triples(await store.dump(g, "application/n-triples")), triples(body));
    const nq = parse(await store.dump(g, "application/n-quads"), "N-Quads");
    assert.equal(nq.length, 3);
    // As the embedded store writes them (Oxigraph's writer, from the graph: in the default graph); compared byte for byte below.
    assert.ok(nq.every((q) => q.graph.termType === "DefaultGraph"));
    // Two commits issued together run one after the other, numbered in call order.
    const [s2, s3] = await Promise.all([store.commit([{ graph: `${BASE}/x/1`, ntriples: numbered("x", 1) }]), store.commit([{ graph: `${BASE}/x/2`, ntriples: numbered("y", 2) }])]);
    assert.deepEqual([s2, s3], [2, 3]);
    assert.equal(store.capacity().live, 3 + 1 + 2);
    assert.equal(store.capacity().max, Infinity);
    // The body is kept locally, exactly as written.
    const at = store.storedBody(g)!;
    assert.equal(readFileSync(at.path).subarray(at.offset, at.offset + at.length).toString(), body);
    // The catalog is never one of the graphs.
    assert.equal(store.has(store.catalog), false);
  });

  test("a replace leaves only the new content; a delete removes the graph from the list and the store", async () => {
    const g = `${BASE}/dataset/a`;
    const body = numbered("b", 2, 100);
    await store.commit([{ graph: g, ntriples: body }]);
    assert.equal(store.graphSize(g), 2);
    assert.equal(await countIn(v, g), 2, "old triples gone");
    assert.deepEqual(triples(await store.dump(g, "application/n-triples")), triples(body));
    await store.commit([{ graph: g, delete: true }]);
    assert.equal(store.has(g), false);
    assert.equal(store.graphSize(g), 0);
    assert.equal(await countIn(v, g), 0);
    // Deleting a graph that does not exist is no error.
    await store.commit([{ graph: `${BASE}/never`, delete: true }]);
  });

  test("a several-graph N-Quads put creates each of its graphs with its own triples", async () => {
    const gs = [1, 2, 3].map((i) => `${BASE}/compound/c${i}`);
    // Graph c1 gets 1 triple, c2 2, c3 3; one literal holds " <" and ">" to test the graph is found at the line's end.
    let nquads = `<${BASE}/s/q> <${P}v> "a <b> c" <${gs[0]}> .\n`;
    for (let i = 0; i < 2; i++) nquads += `<${BASE}/s/q${i}> <${P}v> "${i}" <${gs[1]}> .\n`;
    for (let i = 0; i < 3; i++) nquads += `<${BASE}/s/r${i}> <${P}v> "${i}"@en <${gs[2]}> .\n`;
    await store.commit([{ graphs: gs, nquads: Buffer.from(nquads) }]);
    assert.deepEqual(store.graphsWithPrefix(`${BASE}/compound/`).sort(), gs);
    assert.deepEqual(gs.map((g) => store.graphSize(g)), [1, 2, 3]);
    assert.deepEqual(await Promise.all(gs.map((g) => countIn(v, g))), [1, 2, 3]);
    const back = parse(await store.dump(gs[0]!, "application/n-triples"), "N-Triples");
    assert.equal(back[0]!.object.value, "a <b> c");
  });

  test("a body of 120k triples goes in batches and arrives complete (the longest event-loop delay printed); dump refuses it", async (t) => {
    const g = `${BASE}/dataset/big`;
    const n = 120_000; // 3 batches of at most 50,000
    const body = Buffer.from(numbered("big", n));
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    const t0 = performance.now();
    await store.commit([{ graph: g, ntriples: body }]);
    const ms = performance.now() - t0;
    h.disable();
    const stallMs = h.max / 1e6;
    t.diagnostic(`120k triples (${(body.length / 1e6).toFixed(1)} MB) committed in ${Math.round(ms)} ms; longest event-loop delay ${stallMs.toFixed(1)} ms`);
    assert.equal(store.graphSize(g), n);
    assert.equal(await countIn(v, g), n, "every batch arrived");
    // The first and last lines of the body are there (the cuts fell at line ends).
    const [edges] = await select(v, `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${g}> { ?s <${P}v> ?o FILTER(?o IN ("0", "49999", "50000", "119999")) } }`);
    assert.equal(Number(edges!.n!.value), 4);
    // The goal of issue 19 point 3 (no step holds the event loop more than 100 ms) is a figure, not
    // an assert (no timing asserts: it failed on a machine at load 10 before and after the body
    // cache): printed above, and bench/scale.ts reports the longest stall of a whole MUV run.
    await assert.rejects(store.dump(g, "application/n-triples"), NotAcceptable);
    const at = store.storedBody(g)!;
    assert.ok(readFileSync(at.path).subarray(at.offset, at.offset + at.length).equals(body), "the local copy is the body as written");
  });

  test("a stage loads ahead of its commit, unserved; the commit only publishes it (its body is the stage's own copy); a discarded stage leaves nothing", async () => {
    const g = `${BASE}/dataset/staged`;
    const st = store.stage(g);
    assert.equal(st.keepsBody, true, "callers may drop what they loaded and commit an empty body");
    await st.load(numbered("st", 5));
    await st.load(numbered("st", 5, 5));
    assert.equal(st.statements, 10);
    assert.equal(store.has(g), false, "not served before its commit");
    await store.commit([{ graph: g, ntriples: "" }], { preloaded: [st] });
    assert.equal(store.has(g), true);
    assert.equal(store.graphSize(g), 10);
    assert.equal(await countIn(v, g), 10);
    const at = store.storedBody(g)!;
    const served = readFileSync(at.path).subarray(at.offset, at.offset + at.length).toString("utf8");
    assert.equal(served, numbered("st", 5) + numbered("st", 5, 5), "the local copy is what was loaded, not the (empty) body of the put");
    const d = `${BASE}/dataset/discarded`;
    const st2 = store.stage(d);
    await st2.load(numbered("d", 4));
    assert.equal(await countIn(v, d), 4);
    await st2.discard();
    assert.equal(await countIn(v, d), 0);
    assert.equal(store.has(d), false);
  });

  test("reopening restores the graph list, sizes and commit number", async () => {
    const again = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
    const list = (s: SparqlStore): [string, number][] => s.graphsWithPrefix(BASE).sort().map((g) => [g, s.graphSize(g)]);
    assert.deepEqual(list(again), list(store));
    assert.equal(again.openInfo.lastSeq, store.openInfo.lastSeq + 9, "nine commits in the tests above");
    assert.equal(again.openInfo.tornTail, undefined, "nothing to recover");
    await again.close();
  });

  test("a crash mid-commit (a graph left `writing` with one batch in, a delete left `deleting`) is rolled back at the next start", async () => {
    // What a commit leaves when the process dies after marking and one batch (written by hand,
    // as sparql-store.ts writes it).
    const half = `${BASE}/dataset/half`;
    const del = `${BASE}/x/1`;
    assert.equal(store.has(del), true);
    const cat = `<${store.catalog}>`;
    await update(
      v,
      `DELETE DATA { GRAPH ${cat} { <${del}> <${QG_NS}state> "ready" } } ;
       INSERT DATA { GRAPH ${cat} { <${half}> <${QG_NS}state> "writing" ; <${QG_NS}triples> "0"^^<http://www.w3.org/2001/XMLSchema#integer> . <${del}> <${QG_NS}state> "deleting" } }`,
    );
    const r = await fetch(`${v.gsp}?graph-uri=${encodeURIComponent(half)}`, { method: "POST", headers: { "content-type": "text/turtle" }, body: numbered("h", 50) });
    assert.ok(r.ok, await r.text());
    assert.equal(await countIn(v, half), 50);
    const again = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
    assert.equal(again.has(half), false);
    assert.equal(again.has(del), false);
    assert.equal(await countIn(v, half), 0, "the half-written graph was dropped");
    assert.equal(await countIn(v, del), 0, "the delete was finished");
    assert.match(again.openInfo.tornTail ?? "", /^1 graph\(s\) of interrupted commits or stages dropped; 1 interrupted delete\(s\) finished; 1 file\(s\) of the local body cache not current, removed$/);
    // And the catalog is clean: a third start finds nothing to do.
    const third = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
    assert.equal(third.openInfo.tornTail, undefined);
    assert.equal(third.graphsWithPrefix(BASE).length, again.graphsWithPrefix(BASE).length);
    await again.close();
    await third.close();
  });

  test("a crash in the middle of a publish of several requests rolls the whole commit back: its puts go, its delete is undone", async () => {
    // What commit L+1 leaves when the process dies after the first of its publish requests: one
    // put already `ready`, one still `writing`, its delete `deleting` (not yet dropped), and
    // lastCommit still L (written by hand, as sparql-store.ts writes it).
    const before = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
    const L = before.openInfo.lastSeq;
    await before.close();
    const cat = `<${store.catalog}>`;
    const int = (n: number): string => `"${n}"^^<http://www.w3.org/2001/XMLSchema#integer>`;
    const [p1, p2, kept] = [`${BASE}/compound/p1`, `${BASE}/compound/p2`, `${BASE}/x/2`];
    assert.equal(store.graphSize(kept), 2);
    await update(
      v,
      `DELETE DATA { GRAPH ${cat} { <${kept}> <${QG_NS}state> "ready" ; <${QG_NS}commit> ${int(3)} } } ;
       INSERT DATA { GRAPH ${cat} {
         <${p1}> <${QG_NS}state> "ready" ; <${QG_NS}triples> ${int(2)} ; <${QG_NS}commit> ${int(L + 1)} .
         <${p2}> <${QG_NS}state> "writing" ; <${QG_NS}triples> ${int(0)} ; <${QG_NS}commit> ${int(L + 1)} .
         <${kept}> <${QG_NS}state> "deleting" ; <${QG_NS}commit> ${int(L + 1)} } } ;
       INSERT DATA { GRAPH <${p1}> { <${BASE}/s/p1a> <${P}v> "1" . <${BASE}/s/p1b> <${P}v> "2" } GRAPH <${p2}> { <${BASE}/s/p2> <${P}v> "1" } }`,
    );
    const again = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
    assert.equal(again.openInfo.lastSeq, L);
    assert.deepEqual([again.has(p1), again.has(p2)], [false, false]);
    assert.deepEqual([await countIn(v, p1), await countIn(v, p2)], [0, 0]);
    assert.equal(again.has(kept), true, "the delete of the unfinished commit is undone");
    assert.equal(again.graphSize(kept), 2);
    assert.equal(await countIn(v, kept), 2);
    const at = again.storedBody(kept);
    assert.ok(at, "the undone delete's graph keeps its local copy (its newest file)");
    assert.equal(readFileSync(at.path).subarray(at.offset, at.offset + at.length).toString(), numbered("y", 2));
    assert.match(again.openInfo.tornTail ?? "", /^2 graph\(s\) of interrupted commits or stages dropped; 1 delete\(s\) of interrupted commits undone$/);
    await again.close();
  });

  test("a commit of more graphs than one catalog update holds is published in several requests and reads back whole", async () => {
    // catalogBatch 2: 5 graphs go in 3 catalog updates (by hand: 2 + 2 + 1).
    const small = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v), catalogBatch: 2 });
    const gs = [0, 1, 2, 3, 4].map((i) => `${BASE}/compound/m${i}`);
    const nquads = gs.map((g, i) => `<${BASE}/s/m${i}> <${P}v> "${i}" <${g}> .\n`).join("");
    const seq = await small.commit([{ graphs: gs, nquads }, { graph: `${BASE}/x/2`, delete: true }]);
    assert.equal(seq, small.openInfo.lastSeq + 1);
    assert.deepEqual(gs.map((g) => small.graphSize(g)), [1, 1, 1, 1, 1]);
    assert.equal(await countIn(v, `${BASE}/x/2`), 0);
    const again = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
    assert.equal(again.openInfo.lastSeq, seq);
    assert.equal(again.openInfo.tornTail, undefined);
    assert.deepEqual(again.graphsWithPrefix(`${BASE}/compound/m`).sort(), gs);
    assert.equal(again.has(`${BASE}/x/2`), false);
    await small.close();
    await again.close();
  });

  test("on Virtuoso, updates carry DEFINE sql:big-data-const 1: a several-graph put of 6,000 lines in one INSERT DATA and 1,500 catalog entries per update, which Virtuoso refuses without it (finding 9), go through whole", async () => {
    // Without the pragma Virtuoso refuses an INSERT DATA of more than about 1,200 triples (400 SP031,
    // docs/virtuoso.md finding 9); with it, 10,000 were accepted by hand (docs/virtuoso.md "Upload speed
    // on the SPARQL store"). So this commit can only succeed when the store sends the pragma.
    const big = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v), insertLines: 6_000, batchLines: 6_000, catalogBatch: 1_500 });
    assert.equal(big.dialect, "virtuoso", "found by the probe as the store opened (src/store/sparql-dialect.ts)");
    const gs = Array.from({ length: 1_500 }, (_, i) => `${BASE}/compound/big${i}`);
    // Four lines per graph, as a compound graph has; the last one a typed literal written non-canonically.
    const nquads = gs.map((g, i) => `<${g}> <${P}v> "${i}" <${g}> .\n<${g}> <${P}w> "a ${i}" <${g}> .\n<${g}> <${P}x> "b"@en <${g}> .\n<${g}> <${P}n> "0${i}"^^<http://www.w3.org/2001/XMLSchema#integer> <${g}> .\n`).join("");
    await big.commit([{ graphs: gs, nquads }]);
    assert.deepEqual(new Set(gs.map((g) => big.graphSize(g))), new Set([4]));
    const [row] = await select(v, `SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s <${P}w> ?o } FILTER(STRSTARTS(STR(?g), "${BASE}/compound/big")) }`);
    assert.equal(Number(row!.n!.value), 1_500);
    // Read back as plain INSERT DATA stores it (finding 2: "0100"^^xsd:integer comes back "100").
    const [n] = await select(v, `SELECT ?o WHERE { GRAPH <${gs[100]}> { ?s <${P}n> ?o } }`);
    assert.equal(n!.o!.value, "100");
    const again = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
    assert.equal(again.graphsWithPrefix(`${BASE}/compound/big`).length, 1_500);
    assert.equal(again.graphSize(gs[1_499]!), 4);
    await big.close();
    await again.close();
  });

  test("a commit of 6,000 graphs: the read threads hear of them in batches, and a read asked for right after the commit sees its last graph", async (t) => {
    // 6,000 changes are three messages to each read thread (sparql-reads.ts CHANGES_PER_MESSAGE);
    // a read posted before the last of them would find the last graph not ready (no triples).
    const gs = Array.from({ length: 6_000 }, (_, i) => `${BASE}/compound/many${i}`);
    const nquads = gs.map((g, i) => `<${g}> <${P}v> "${i}" <${g}> .\n`).join("");
    const reads = new URL("../../src/resources/reads.ts", import.meta.url);
    // a read first, so that the threads exist before the commit (they are started by the first read)
    await store.read(reads, "describeInGraph", [BASE, gs[0], gs[0]]);
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    await store.commit([{ graphs: gs, nquads }]);
    h.disable();
    const last = (await store.read(reads, "describeInGraph", [BASE, gs[5_999], gs[5_999]])) as string;
    assert.match(last, /"5999"/);
    t.diagnostic(`6,000-graph commit: longest event-loop delay ${(h.max / 1e6).toFixed(0)} ms`);
  });

  test("reads run in the read threads (test/external/sparql-reads.test.ts): an unknown read is refused by name", async () => {
    await assert.rejects(store.read(new URL("../../src/resources/reads.ts", import.meta.url), "noSuchRead", [BASE]), /read noSuchRead on the SPARQL store failed: no store read named noSuchRead/);
  });
});

// Failing requests on Virtuoso 7.2.5 may break later inserts (docs/virtuoso.md finding 8): these run on a Virtuoso of their own.
describe("SparqlStore: commits the store refuses", () => {
  let v: Virtuoso;
  let store: SparqlStore;
  before(async () => {
    v = await startVirtuoso();
    // Batches of 2 lines, so that a bad line in the middle fails after earlier batches went in.
    store = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v), batchLines: 2 });
  });
  after(async () => {
    await store?.close();
    await v?.stop();
  });

  test("a batch the store rejects (resent once) fails the commit with its reason; what went in before is dropped and nothing is served", async (t) => {
    const ok = `${BASE}/dataset/ok`;
    await store.commit([{ graph: ok, ntriples: numbered("ok", 3) }]);
    const g = `${BASE}/dataset/bad`;
    const body = `${numbered("bad", 4)}<${BASE}/s/x> <${P}v> "unterminated .\n${numbered("bad", 2, 4)}`;
    await assert.rejects(store.commit([{ graph: g, ntriples: body }, { graph: ok, delete: true }]), (e: Error) => {
      assert.match(e.message, /commit failed, nothing of it is served .*POST of 2 triples to .*bad: the SPARQL store answered \d{3}/);
      t.diagnostic(e.message);
      return true;
    });
    assert.equal(store.has(g), false);
    assert.equal(await countIn(v, g), 0, "the first two batches were dropped");
    assert.equal(store.has(ok), true, "the commit's delete did not happen");
    assert.equal(await countIn(v, ok), 3);
    const again = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
    assert.deepEqual(again.graphsWithPrefix(BASE), [ok]);
    await again.close();
  });

  test("a commit while the store refuses updates fails with a clear error and leaves the graphs as they were", async () => {
    const ok = `${BASE}/dataset/ok`;
    await v.isql(`revoke SPARQL_UPDATE from "SPARQL";`);
    try {
      const g = `${BASE}/dataset/refused`;
      await assert.rejects(store.commit([{ graph: g, ntriples: numbered("r", 3) }, { graph: ok, delete: true }]), /commit failed, nothing of it was written: catalog update: the SPARQL store answered \d{3}/);
      assert.equal(store.has(g), false);
      assert.equal(store.has(ok), true, "the graph to delete is still served");
      assert.equal(await countIn(v, g), 0);
      assert.equal(store.pendingCleanUps, 1, "taking the marks back was refused too: kept for the next commit");
    } finally {
      await v.isql(`grant SPARQL_UPDATE to "SPARQL";`);
    }
    // Writes work again once the store accepts them (the failed commit's marks, which could not
    // be taken back while updates were refused, are cleaned up first).
    await store.commit([{ graph: `${BASE}/dataset/later`, ntriples: numbered("l", 1) }]);
    assert.equal(store.pendingCleanUps, 0);
    assert.equal(await countIn(v, `${BASE}/dataset/later`), 1);
    const again = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
    assert.deepEqual(again.graphsWithPrefix(BASE).sort(), [`${BASE}/dataset/later`, ok]);
    assert.equal(again.openInfo.tornTail, undefined, "the catalog holds no mark of the refused commit");
    assert.equal(await countIn(v, ok), 3);
    await again.close();
  });

  test("a replace the store refuses (a bad batch, after the old content was dropped) fails, and the old content is put back from its local copy and served", async () => {
    const g = `${BASE}/task/refused-replace`;
    await store.commit([{ graph: g, ntriples: numbered("old", 5) }]);
    const dumped = await store.dump(g, "application/n-triples");
    const body = `${numbered("new", 4)}<${BASE}/s/x> <${P}v> "unterminated .\n`;
    await assert.rejects(store.commit([{ graph: g, ntriples: body }]), /commit failed, nothing of it is served \(1 graph\(s\) dropped\): POST of 1 triples to .*refused-replace: the SPARQL store answered \d{3}/);
    assert.equal(store.pendingCleanUps, 0);
    assert.equal(store.has(g), true, "the replaced graph is served again");
    assert.equal(store.graphSize(g), 5);
    assert.equal(await countIn(v, g), 5, "the old 5 triples are back in the store, none of the new");
    assert.equal(await store.dump(g, "application/n-triples"), dumped, "byte for byte");
    assert.equal(bytesAt(store.storedBody(g)!).toString(), numbered("old", 5));
    const again = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
    assert.equal(again.openInfo.tornTail, undefined, "the catalog holds the old entry, ready");
    assert.equal(again.graphSize(g), 5);
    await again.close();
  });
});

const XSD = "http://www.w3.org/2001/XMLSchema#";
/** `n` triples with typed and tagged literals in forms Virtuoso rewrites (docs/virtuoso.md finding 2): "i.50" doubles, "0i" integers, "@fr-CA". */
function typed(tag: string, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) {
    const o = [`"${i}.50"^^<${XSD}double>`, `"0${i}"^^<${XSD}integer>`, `"x ${i}"@fr-CA`, `"${i}"`][i % 4];
    s += `<${BASE}/s/${tag}${i}> <${P}v> ${o} .\n`;
  }
  return s;
}

const bytesAt = (at: { path: string; offset: number; length: number }): Buffer => readFileSync(at.path).subarray(at.offset, at.offset + at.length);

describe("SparqlStore's local body cache", () => {
  let v: Virtuoso;
  let store: SparqlStore;
  const big = `${BASE}/dataset/big30k`;
  const bigBody = typed("big", 30_000);
  const plain = `${BASE}/dataset/plain30k`;
  const plainBody = numbered("plain", 30_000);
  before(async () => {
    // ResultSetMaxRows 10,000 (Virtuoso's default): fetched bodies must come in pages below it.
    v = await startVirtuoso({ resultSetMaxRows: 10_000 });
    store = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
  });
  after(async () => {
    await store?.close();
    await v?.stop();
  });

  test("a 30k-triple graph: its local copy is the body as written (\"1.50\" stays), complete in every format; dump refuses it as the embedded store does", async (t) => {
    await store.commit([{ graph: big, ntriples: Buffer.from(bigBody) }]);
    const at = store.storedBody(big)!;
    assert.ok(at, "served from a local file");
    assert.equal(bytesAt(at).toString(), bigBody, "byte for byte as written");
    // Virtuoso itself gives the literal back rewritten (finding 2): the reason for the copy.
    const r = await fetch(`${v.gsp}?graph-uri=${encodeURIComponent(big)}`, { headers: { accept: "application/n-triples" } });
    const fromStore = await r.text();
    assert.match(fromStore, /"\d+\.5"\^\^/);
    assert.doesNotMatch(fromStore, /"\d+\.50"\^\^/);
    const vocab = new Vocab(BASE);
    for (const type of RDF_TYPES) {
      // As the render worker renders a stored graph (http/render-rdf.ts, store/render-job.ts).
      const t0 = performance.now();
      const out = await serialiseRdf(sourceSlices({ file: at }, vocab), type, vocab);
      t.diagnostic(`${type}: ${Math.round(performance.now() - t0)} ms`);
      if (type === "application/json") {
        // Compacted against the published context's URL: one node per subject (each subject has one triple).
        assert.equal((JSON.parse(out) as { "@graph": unknown[] })["@graph"].length, 30_000, type);
        continue;
      }
      const s = new ox.Store();
      s.load(out, { format: type, base_iri: BASE });
      assert.equal(s.size, 30_000, `${type}: every triple`);
      if (type !== "application/rdf+xml") assert.ok(out.includes('"4.50"'), `${type}: "4.50" as written`);
    }
    await assert.rejects(store.dump(big, "application/n-triples"), NotAcceptable);
  });

  test("dump gives byte for byte what the embedded store gives for the same writes (one-graph put, several-graph put, stage, replace; inline and in a worker thread), in every format", async () => {
    const dir = freshDir("qsargraph-embedded-");
    const emb = await GraphStore.open(dir);
    try {
      const g1 = `${BASE}/dataset/same1`;
      const g2 = `${BASE}/dataset/same2`;
      const cs = [1, 2, 3].map((i) => `${BASE}/compound/same${i}`);
      const nquads = cs.map((c, i) => typed(`c${i}`, 5 + i).replace(/ \.\n/g, ` <${c}> .\n`)).join("");
      for (const s of [store, emb] as StoreBackend[]) {
        await s.commit([{ graph: g1, ntriples: typed("one", 2_000) }]);
        await s.commit([{ graphs: cs, nquads: Buffer.from(nquads) }]);
        const st = s.stage(g2);
        await st.load(typed("st", 300));
        await st.load(typed("st2", 200));
        await s.commit([{ graph: g2, ntriples: "" }], { preloaded: [st] });
        await s.commit([{ graph: g1, ntriples: typed("again", 1_500) }]); // over 1,000: dumped in a worker thread
      }
      for (const g of [g1, g2, ...cs, `${BASE}/dataset/none`]) {
        for (const f of ["application/n-triples", "application/n-quads", "application/rdf+xml", "application/ld+json"] as const) {
          assert.equal(await store.dump(g, f), await emb.dump(g, f), `${g} as ${f}`);
        }
      }
      assert.match(await store.dump(g1, "application/n-triples"), /"0\.5"\^\^/, "(Oxigraph's writer rewrites doubles too: the same on both backends)");
    } finally {
      await emb.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a replaced or deleted graph's file is removed after its commit; a several-graph file goes with its last graph", async () => {
    const g = `${BASE}/dataset/replaced`;
    await store.commit([{ graph: g, ntriples: numbered("r1", 10) }]);
    const first = store.storedBody(g)!.path;
    await store.commit([{ graph: g, ntriples: numbered("r2", 20) }]);
    const second = store.storedBody(g)!;
    assert.notEqual(second.path, first);
    assert.equal(existsSync(first), false, "the replaced body's file is gone");
    assert.equal(bytesAt(second).toString(), numbered("r2", 20));
    await store.commit([{ graph: g, delete: true }]);
    assert.equal(existsSync(second.path), false, "the deleted graph's file is gone");
    const cs = [1, 2].map((i) => `${BASE}/compound/pack${i}`);
    await store.commit([{ graphs: cs, nquads: cs.map((c, i) => `<${BASE}/s/pk${i}> <${P}v> "${i}" <${c}> .\n`).join("") }]);
    const pack = store.storedBody(cs[0]!)!;
    assert.equal(bytesAt(pack).toString(), `<${BASE}/s/pk0> <${P}v> "0" .\n`, "each graph's lines, as N-Triples");
    assert.equal(store.storedBody(cs[1]!)!.path, pack.path, "one file for the commit's several graphs");
    await store.commit([{ graph: cs[0]!, delete: true }]);
    assert.equal(existsSync(pack.path), true, "still holds the other graph");
    await store.commit([{ graph: cs[1]!, ntriples: numbered("pk", 1) }]);
    assert.equal(existsSync(pack.path), false, "gone with its last graph");
    assert.equal(existsSync(pack.path.replace(/\.pack$/, ".index")), false);
  });

  test("a lost cache is fetched again from the store, in pages below ResultSetMaxRows, equal to what was written; stray files are removed at start", async (t) => {
    await store.commit([{ graph: plain, ntriples: plainBody }]);
    const cs = [`${BASE}/compound/pack2`];
    await store.close();
    const dir = bodiesOf(v);
    for (const f of readdirSync(dir)) rmSync(join(dir, f));
    writeFileSync(join(dir, `${"0".repeat(40)}-99.nt`), "stray");
    writeFileSync(join(dir, "12.pack.tmp"), "torn");
    store = await SparqlStore.open(endpoints(v), { bodies: dir, fetchPage: 4_000 });
    assert.match(store.openInfo.tornTail ?? "", /^2 file\(s\) of the local body cache not current, removed$/);
    assert.deepEqual(readdirSync(dir), []);
    assert.equal(store.storedBody(plain), undefined, "not yet: being fetched");
    let t0 = performance.now();
    const at = (await store.cachedBody(plain))!;
    t.diagnostic(`30,000 triples fetched in ${Math.round(performance.now() - t0)} ms`);
    assert.deepEqual(triples(bytesAt(at).toString()), triples(plainBody), "30,000 triples, in 8 pages of 4,000");
    assert.deepEqual(store.storedBody(plain), at);
    // A graph with rewritten literals comes back as the store holds it (the values are the same).
    t0 = performance.now();
    const bigAt = (await store.cachedBody(big))!;
    t.diagnostic(`30,000 typed triples fetched in ${Math.round(performance.now() - t0)} ms`);
    const back = parse(bytesAt(bigAt).toString(), "N-Triples");
    assert.equal(back.length, 30_000);
    assert.ok(back.some((q) => q.object.value === "4.5"));
    assert.ok(!back.some((q) => q.object.value === "4.50"));
    assert.equal(triples(bytesAt((await store.cachedBody(cs[0]!))!).toString()).length, 1);
    // And a restart keeps what was fetched.
    const again = await SparqlStore.open(endpoints(v), { bodies: dir });
    assert.deepEqual(again.storedBody(plain), at);
    assert.equal(again.openInfo.tornTail, undefined);
    await again.close();
  });

  test("a fetch whose pages the store cuts short fails, naming the counts: never a silently cut body", async () => {
    const dir = freshDir("qsargraph-bodies-");
    // Pages of 20,000 rows, but the store answers at most 10,000.
    const s = await SparqlStore.open(endpoints(v), { bodies: dir, fetchPage: 20_000 });
    try {
      await assert.rejects(s.cachedBody(plain), /holds 30000 triples in the SPARQL store but 10000 were read: the store cut the answer short/);
      assert.equal(s.storedBody(plain), undefined);
      // the fetch storedBody started fails too, and leaves no file (it may take a while on a busy machine)
      for (let i = 0; i < 100 && readdirSync(dir).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(readdirSync(dir), []);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a crash between the commit point and the files' rename: the next start serves the commit, its bodies fetched from the store", async () => {
    const g = `${BASE}/dataset/crashed`;
    const cs = [1, 2].map((i) => `${BASE}/compound/crashed${i}`);
    let reached!: () => void;
    const atCommitPoint = new Promise<void>((r) => (reached = r));
    // The process "dies" right after the commit point: the hook never returns.
    const crashing = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v), afterCommitPoint: () => (reached(), new Promise<void>(() => undefined)) });
    void crashing.commit([{ graph: g, ntriples: numbered("cr", 3_000) }, { graphs: cs, nquads: cs.map((c, i) => `<${BASE}/s/cr${i}> <${P}v> "${i}" <${c}> .\n`).join("") }]);
    await atCommitPoint;
    const tmp = readdirSync(bodiesOf(v)).filter((f) => f.endsWith(".tmp"));
    assert.equal(tmp.length, 3, `written and fsynced under temporary names: ${tmp.join(", ")}`);
    const again = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
    assert.equal(again.has(g), true, "the commit is complete");
    assert.deepEqual(cs.map((c) => again.has(c)), [true, true]);
    assert.match(again.openInfo.tornTail ?? "", /^3 file\(s\) of the local body cache not current, removed$/);
    assert.deepEqual(readdirSync(bodiesOf(v)).filter((f) => f.endsWith(".tmp")), []);
    assert.equal(again.storedBody(g), undefined);
    assert.deepEqual(triples(bytesAt((await again.cachedBody(g))!).toString()), triples(numbered("cr", 3_000)));
    assert.deepEqual(triples(bytesAt((await again.cachedBody(cs[1]!))!).toString()), triples(`<${BASE}/s/cr1> <${P}v> "1" .\n`));
    await again.close();
  });

  test("a crash in a replace after the old content was dropped (before the commit point): the next start puts the old content back from its local copy; without one, it is counted lost", async () => {
    const g = `${BASE}/task/replaced-crash`;
    const oldBody = typed("old", 40);
    const seq = await store.commit([{ graph: g, ntriples: oldBody }]);
    const dumped = await store.dump(g, "application/n-triples");
    /** A store whose next commit "dies" right before its commit point (the hook never returns), once that commit wrote its bodies. */
    const crashIn = async (body: string): Promise<void> => {
      let reached!: () => void;
      const atCommitPoint = new Promise<void>((r) => (reached = r));
      const crashing = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v), beforeCommitPoint: () => (reached(), new Promise<void>(() => undefined)) });
      void crashing.commit([{ graph: g, ntriples: body }]);
      await atCommitPoint;
    };
    await crashIn(typed("new", 60));
    assert.equal(await countIn(v, g), 60, "the old content was dropped from the store, the new one written");
    const rows = await select(v, `SELECT ?p ?o WHERE { GRAPH <${store.catalog}> { <${g}> ?p ?o } }`);
    const entry = Object.fromEntries(rows.map((r) => [r.p!.value.replace(QG_NS, ""), r.o!.value]));
    assert.deepEqual(entry, { state: "writing", triples: "0", commit: String(seq + 1), previousCommit: String(seq), previousTriples: "40" });
    const again = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
    assert.match(again.openInfo.tornTail ?? "", /^1 replaced graph\(s\) of interrupted commits put back from their local copies; 1 file\(s\) of the local body cache not current, removed$/);
    assert.equal(again.openInfo.lastSeq, seq);
    assert.equal(again.has(g), true);
    assert.equal(again.graphSize(g), 40);
    assert.equal(await countIn(v, g), 40, "the old content is back in the store");
    assert.equal(bytesAt(again.storedBody(g)!).toString(), oldBody, "its local copy, as written");
    assert.equal(await again.dump(g, "application/n-triples"), dumped, "byte for byte");
    await again.close();
    const third = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
    assert.equal(third.openInfo.tornTail, undefined, "the catalog is clean");
    assert.equal(third.graphSize(g), 40);
    const oldFile = third.storedBody(g)!.path;
    await third.close();
    // The same crash with the local copy lost: the old content cannot come back.
    await crashIn(typed("newer", 7));
    rmSync(oldFile);
    const fourth = await SparqlStore.open(endpoints(v), { bodies: bodiesOf(v) });
    assert.match(fourth.openInfo.tornTail ?? "", /^1 replaced graph\(s\) of interrupted commits lost \(no local copy of their previous content\); 1 file\(s\) of the local body cache not current, removed$/);
    assert.equal(fourth.openInfo.replacesLost, 1);
    assert.equal(fourth.has(g), false);
    assert.equal(await countIn(v, g), 0, "dropped, as any graph of an interrupted commit");
    await fourth.close();
  });
});
