/**
 * LAST-PM against liblast's golden GraphML (fixtures/data/fminer2/liblast/test/, from
 * amaunz/fminer2 @ 21afb3b; the algorithm is liblast's, in the same repository): fminer1 =
 * hamster, minfreq 2; fminer2 = hamster with 3 classes, minfreq 5; fminer4 = EPAFHM regression,
 * minfreq 5 (fminer3, the Kekulé run, is not attempted: its encoding depends on OpenBabel's Kekulé
 * assignment, which even a build of fminer2 against OpenBabel 3.1.1 does not reproduce). Reference
 * values are read from fixtures/data/fminer2; nothing is copied.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DATA } from "../../helpers/data.ts";
import { loadRDKit } from "../../../src/chem/rdkit.ts";
import { parseSmiFile, parseActivityFile } from "../../../src/mining/order.ts";
import { mineLast, readGraphml, writeGraphml, lastSmarts, matchSmarts, type LastOptions, type LastRun } from "../../../src/mining/last/index.ts";
import type { Walk } from "../../../src/mining/last/walk.ts";
import { svdCompress, symmetricEigen } from "../../../src/mining/last/svd.ts";

const F2 = `${DATA}fminer2/`;
const read = (p: string): string => readFileSync(F2 + p, "utf8");

async function run(smi: string, act: string, options: LastOptions): Promise<LastRun> {
  const rdkit = await loadRDKit();
  return mineLast(rdkit, parseSmiFile(read(`libbbrc/test/${smi}`)), parseActivityFile(read(`libbbrc/test/${act}`)), options);
}
const hamster = (options: LastOptions, classes = "hamster_carcinogenicity.class") => run("hamster_carcinogenicity.smi", classes, options);

/** A graph as text: act, hops, node labels, edges with bond labels and weights (no del flags). */
function shape(w: Walk): string {
  const nodes = w.nodeIds().map((i) => `${i}:${w.nodes.get(i)!.join(",")}`);
  const edges = w.edgeList().map(([f, t, e]) => `${f}-${t}:${e.labels.join(",")}w${e.weight}`);
  return `act=${w.activating} hops=${w.hops} N=[${nodes.join(" ")}] E=[${edges.join(" ")}]`;
}

/** Multiset intersection size. */
function common(a: readonly string[], b: readonly string[]): number {
  const m = new Map<string, number>();
  for (const x of b) m.set(x, (m.get(x) ?? 0) + 1);
  let n = 0;
  for (const x of a) {
    const c = m.get(x) ?? 0;
    if (c > 0) {
      n++;
      m.set(x, c - 1);
    }
  }
  return n;
}

test("GraphML writer: reading and re-writing each golden file gives it back byte for byte", () => {
  for (const f of ["fminer1", "fminer2", "fminer3", "fminer4"]) {
    const text = read(`liblast/test/${f}`);
    assert.equal(writeGraphml(readGraphml(text).map((g) => g.walk)), text, f);
  }
});

test("hamster minfreq 2 = liblast/test/fminer1: all 82 graphs identical (nodes, labels, edges, weights, act, hops, numbering)", async () => {
  const r = await hamster({ minfreq: 2 });
  const gold = readGraphml(read("liblast/test/fminer1"));
  assert.equal(gold.length, 82);
  assert.deepEqual(
    r.latent.map((l) => shape(l.walk)),
    gold.map((g) => shape(g.walk)),
  );
});

// KNOWN GAP (SVD `del` flags, liblast/graphstate.cpp GSWalk::svd): the flag is numerically fragile;
// fminer2 itself, built against OpenBabel 3.1.1, differs from this golden file in 2 flags. Here 2
// of the 248 edges of merged graphs differ: graph 10 edge 4-5 and graph 56 edge 0-1 are deleted in
// the golden file but kept here. No truncation of the symmetric weight matrix to any rank
// reproduces either of them (in graph 56 the edges 0-1 and 3-4 are exchanged by a symmetry of the
// weighted tree, so they always get the same reconstructed value, yet only 0-1 is deleted), so they
// cannot come from the stated algorithm in exact arithmetic. Everything else in the file is
// identical.
test("hamster minfreq 2 GraphML vs fminer1: identical except 2 del flags (known gap, see comment)", async () => {
  const r = await hamster({ minfreq: 2 });
  const mine = r.graphml.split("\n");
  const gold = read("liblast/test/fminer1").split("\n");
  assert.equal(mine.length, gold.length);
  const differing = mine.map((l, i) => [i, l, gold[i]] as const).filter(([, a, b]) => a !== b);
  assert.deepEqual(
    differing.map(([, a, b]) => [a.trim(), b!.trim()]),
    [
      ['<data key="del">0</data>', '<data key="del">1</data>'],
      ['<data key="del">0</data>', '<data key="del">1</data>'],
    ],
  );
  // which edges: graph 10 edge 4-5, graph 56 edge 0-1
  const gg = readGraphml(read("liblast/test/fminer1"));
  const flips: string[] = [];
  r.latent.forEach((l, k) => {
    for (const [f, t, e] of l.walk.edgeList()) if (gg[k]!.walk.edge(f, t)!.deleted !== e.deleted) flips.push(`${l.id}:${f}-${t}`);
  });
  assert.deepEqual(flips, ["10:4-5", "56:0-1"]);
});

// KNOWN GAP (multinomial): this golden file matches neither md5 in
// fixtures/data/fminer2/liblast/test/fminer_md5.yaml (SOURCES.md notes it), and fminer2 itself,
// built against OpenBabel 3.1.1, gives 36 graphs of which one merged graph has hops 7 where the
// golden file has 5. Here too: golden graphs 3 (hops 5)
// and 4 (hops 2) come out as one graph with hops 7; one extra single ground feature is flushed;
// golden graph 13 has hops 6, here 5. The other 33 golden graphs are reproduced identically.
test("hamster 3 classes minfreq 5 vs liblast/test/fminer2: 33 of 36 golden graphs identical (known gap, see comment)", async () => {
  const r = await hamster({ minfreq: 5 }, "hamster_carcinogenicity-multinomial.class");
  const gold = readGraphml(read("liblast/test/fminer2"));
  assert.equal(gold.length, 36);
  const mine = r.latent.map((l) => shape(l.walk));
  const g = gold.map((x) => shape(x.walk));
  assert.deepEqual({ graphs: mine.length, identical: common(g, mine) }, { graphs: 36, identical: 33 });
  assert.deepEqual(
    r.latent.map((l) => l.hops).slice(0, 4),
    [gold[0]!.walk.hops, gold[1]!.walk.hops, gold[2]!.walk.hops + gold[3]!.walk.hops, gold[4]!.walk.hops],
  );
});

// KNOWN GAP (regression): LAST regression runs unpruned (liblast computes no bound in regression
// mode: liblast/last.cpp, path.cpp) and shares the tree-ordering rules of pattern.ts, which now
// reproduce fminer's BBRC exactly, but liblast walks tree extensions in its own order (search.ts)
// and does not yet compare Kuiper p-values as C floats as fminer does; the odd "median"
// (liblast/stats.h computeMedian: where the cumulative sum of the values first reaches half of
// their total, not the middle value) decides `act`. The test pins the distance exactly (it was 323
// graphs, 187 identical, before pattern.ts took fminer's order).
test("EPAFHM regression minfreq 5 vs liblast/test/fminer4: distance pinned (known gap)", async () => {
  const r = await run("EPAFHM.smi", "EPAFHM.act", { minfreq: 5, regression: true });
  const gold = readGraphml(read("liblast/test/fminer4"));
  assert.equal(gold.length, 320);
  const mine = r.latent.map((l) => shape(l.walk));
  const g = gold.map((x) => shape(x.walk));
  assert.deepEqual({ graphs: mine.length, identical: common(g, mine) }, { graphs: 308, identical: 248 });
});

// An independent calculation: fminer2's liblast (amaunz/fminer2 @ 21afb3b, built against
// OpenBabel 3.1.1) on hamster at minfreq 6 (lazar's default 80 per mil of 85) gives 23 graphs;
// turned into SMARTS as last-utils does (amaunz/last-utils @ 01b21b0 : lu.rb LUGraph#to_smarts,
// mode nls), two of them are the SMARTS below, with these hops and act in the GraphML. lazar's
// service test (opentox/opentox-test : test/fminer.rb @ 0346d13) expected 21 features, the first
// [#6&A]-[#6&a]:[#6&a]:[#6&a]:[#6&a]:[#6&a]: that service de-duplicated SMARTS and ran on its own
// copy of the dataset; here all 23 SMARTS are distinct, so the difference comes from that copy,
// not from de-duplication.
test("hamster minfreq 6: 23 latent structures; two reference LAST-SMARTS with their hops and act", async () => {
  const r = await hamster({ minfreq: 6 });
  assert.equal(r.latent.length, 23);
  assert.equal(r.uniqueSmarts.length, 23);
  const bySmarts = new Map(r.latent.map((l) => [l.smarts, l]));
  const nitroso = bySmarts.get("[#8&A]=[#7&A]-[#7&A;$([#7&A](-[#6&A]-[#6&A,#8&A]-[#6&A,#8&A])-[#7&A]),$([#7&A](-[#6&A])-[#7&A]),$([#7&A](-[#6&A])-[#7&A])](~*)");
  assert.ok(nitroso, "nitrosamine latent structure");
  assert.deepEqual([nitroso.hops, nitroso.activating], [14, 1]);
  const toluene = bySmarts.get("[#6&A]-[#6&a]:[#6&a]:[#6&a]:[#6&a]:[#6&a]");
  assert.ok(toluene, "[#6&A]-[#6&a]:[#6&a]:[#6&a]:[#6&a]:[#6&a]");
  assert.deepEqual([toluene.hops, toluene.activating], [9, 0]);
});

test("LAST-SMARTS of a single ground feature (hops 1) matches at least minfreq training compounds", async () => {
  const rdkit = await loadRDKit();
  const compounds = parseSmiFile(read("libbbrc/test/hamster_carcinogenicity.smi"));
  const r = mineLast(rdkit, compounds, parseActivityFile(read("libbbrc/test/hamster_carcinogenicity.class")), { minfreq: 6, occurrences: true });
  const singles = r.latent.filter((l) => l.hops === 1);
  assert.ok(singles.length > 0);
  for (const l of singles) assert.ok(l.tids!.length >= 6, `${l.smarts}: ${l.tids!.length}`);
  // matching is deterministic and consistent with matchSmarts
  const again = matchSmarts(rdkit, [singles[0]!.smarts], r.compounds, compounds);
  assert.deepEqual(again.get(singles[0]!.smarts), singles[0]!.tids);
});

test("LAST-SMARTS of the golden fminer1 graphs equal those of the mined graphs where the graphs are equal", async () => {
  const r = await hamster({ minfreq: 2 });
  const gold = readGraphml(read("liblast/test/fminer1"));
  const same = r.latent.filter((l, k) => l.smarts === lastSmarts(gold[k]!.walk));
  // graphs 10 and 56 differ in a del flag (above), which changes what the SMARTS keeps
  const differ = r.latent.filter((l) => !same.includes(l)).map((l) => l.id);
  assert.deepEqual(differ, [10, 56]);
  assert.deepEqual(
    differ,
    r.latent.filter((l, k) => l.walk.edgeList().some(([f, t, e]) => gold[k]!.walk.edge(f, t)!.deleted !== e.deleted)).map((l) => l.id),
  );
});

test("LAST-SMARTS conversion: OR-lists, mandatory vs optional branches, one optional branch written as mandatory", () => {
  const [g] = readGraphml(`<graph id="1"><data key="act">1</data><data key="hops">3</data>
    <node id="0"><data key="lab_n">8</data></node><node id="1"><data key="lab_n">6</data></node>
    <node id="2"><data key="lab_n">8 156</data></node><node id="3"><data key="lab_n">6</data></node>
    <edge source="0" target="1"><data key="lab_e">2</data><data key="weight">3</data><data key="del">0</data></edge>
    <edge source="1" target="2"><data key="lab_e">1</data><data key="weight">3</data><data key="del">0</data></edge>
    <edge source="1" target="3"><data key="lab_e">1</data><data key="weight">1</data><data key="del">0</data></edge></graph>`);
  assert.equal(lastSmarts(g!.walk), "[#8&A]=[#6&A](-[#8&A,#6&a])-[#6&A]");
  g!.walk.edge(1, 3)!.deleted = true;
  assert.equal(lastSmarts(g!.walk), "[#8&A]=[#6&A]-[#8&A,#6&a]");
  assert.equal(lastSmarts(g!.walk, { noAromaticFlags: true, wildcardBonds: true }), "[#8]=,:[#6]-,:[#8,#6]");
});

test("SVD: the Jacobi eigen-decomposition reconstructs the weight matrix; cutoff drops ±λ pairs whole", () => {
  const n = 6;
  const a = new Float64Array(n * n);
  for (const [i, j, w] of [[0, 1, 3], [1, 2, 3], [2, 3, 3], [3, 4, 2], [3, 5, 1]] as const) a[i * n + j] = a[j * n + i] = w;
  const { values, vectors } = symmetricEigen(a, n);
  for (let x = 0; x < n; x++)
    for (let y = 0; y < n; y++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += values[k]! * vectors[x * n + k]! * vectors[y * n + k]!;
      assert.ok(Math.abs(s - a[x * n + y]!) < 1e-9);
    }
  // golden fminer1 graph 60 (this matrix, hops 3) deletes nothing: the ±2.60 pair holds 21% of the energy
  const r = svdCompress(a, n);
  for (let k = 0; k < n * n; k++) assert.ok(Math.abs(r[k]! - a[k]!) < 1e-9);
});
