/**
 * Weighted Tanimoto (docs/lazar-method.md "Similarity") against the reference values of the 2011
 * OpenTox algorithm test (0.498056105472291 and 0.472823526091916: opentox/test : algorithm.rb @
 * 00a79f3, test_tanimoto) and against a naive Σmin/Σmax written here.
 *
 * That test compares two feature sets, without and with hit counts: c:c and c:c:c in both compounds
 * (A, B), O:N only in the first (C), O:O only in the second (D), weights 0.95, 0.96, 0.97, 0.98,
 * hits c:c 10/6, c:c:c 5/3, O:N 2, O:O 2. The similarity of that era put each weight through a
 * Gaussian, exp(−(1−p)² / (2·0.3²)) (opentox/opentox-ruby : lib/algorithm.rb Similarity.tanimoto
 * and Algorithm.gauss @ v3.0.0). The inputs below were first reconstructed by an exhaustive search
 * and are those of the test, except that B's hits are written 3/5 instead of 5/3, which neither
 * Σmin nor Σmax can tell apart. Both values are reproduced to all 15 printed digits.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { FingerprintMatrix, TanimotoIndex, gauss, weightedFingerprint, weightedTanimoto, type SparseFingerprint } from "../../../src/learn/index.ts";

const P = [0.95, 0.96, 0.97, 0.98];
const W = P.map((p) => gauss(p));
const set = (features: number[], hits?: number[]) => features.map((feature, k) => ({ feature, hits: hits?.[k] ?? 1 }));

test("gauss is exp(−(1−x)²/0.18)", () => {
  assert.equal(gauss(1), 1);
  assert.ok(Math.abs(gauss(0.7) - Math.exp(-0.5)) < 1e-15);
  assert.ok(Math.abs(gauss(0.95) - Math.exp(-0.0025 / 0.18)) < 1e-15);
});

test("algorithm test: weighted Tanimoto of {A,B,C} and {A,B,D} = 0.498056105472291", () => {
  const a = weightedFingerprint(set([0, 1, 2]), W, false);
  const b = weightedFingerprint(set([0, 1, 3]), W, false);
  assert.equal(weightedTanimoto(a, b).toPrecision(15), "0.498056105472291");
  assert.equal(weightedTanimoto(b, a).toPrecision(15), "0.498056105472291");
});

test("algorithm test with hit counts (weighted MinMax) = 0.472823526091916", () => {
  const a = weightedFingerprint(set([0, 1, 2], [10, 3, 2]), W, true);
  const b = weightedFingerprint(set([0, 1, 3], [6, 5, 2]), W, true);
  assert.equal(weightedTanimoto(a, b).toPrecision(15), "0.472823526091916");
});

test("pValue weights: Σ p over shared patterns / Σ p over the union (docs/lazar-method.md: Similarity)", () => {
  const a = weightedFingerprint(set([0, 1, 2]), P, false);
  const b = weightedFingerprint(set([0, 1, 3]), P, false);
  assert.ok(Math.abs(weightedTanimoto(a, b) - (0.95 + 0.96) / (0.95 + 0.96 + 0.97 + 0.98)) < 1e-15);
  // Similarity 1 for different structures sharing every endpoint-relevant pattern.
  assert.equal(weightedTanimoto(a, weightedFingerprint(set([2, 1, 0]), P, false)), 1);
  // No common feature, or empty fingerprints: 0.
  assert.equal(weightedTanimoto(weightedFingerprint(set([0]), P, false), weightedFingerprint(set([1]), P, false)), 0);
  assert.equal(weightedTanimoto(weightedFingerprint([], P, false), weightedFingerprint([], P, false)), 0);
});

/** Naive reference: dense vectors, Σ min / Σ max. */
function naive(a: number[], b: number[]): number {
  let mn = 0;
  let mx = 0;
  a.forEach((x, i) => {
    mn += Math.min(x, b[i]!);
    mx += Math.max(x, b[i]!);
  });
  return mx > 0 ? mn / mx : 0;
}

function rand(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 16807) % 2147483647) / 2147483647);
}

test("TanimotoIndex = pairwise = naive Σmin/Σmax on random sparse hit fingerprints", () => {
  const r = rand(7);
  const nF = 60;
  const weights = Array.from({ length: nF }, () => 0.9 + 0.1 * r());
  const dense: number[][] = [];
  const fps: SparseFingerprint[] = [];
  for (let i = 0; i < 200; i++) {
    const occ = [];
    for (let f = 0; f < nF; f++) if (r() < 0.15) occ.push({ feature: f, hits: 1 + Math.floor(3 * r()) });
    const fp = weightedFingerprint(occ, weights, true);
    fps.push(fp);
    const d = new Array<number>(nF).fill(0);
    fp.idx.forEach((f, k) => (d[f] = fp.val[k]!));
    dense.push(d);
  }
  const index = new TanimotoIndex(new FingerprintMatrix(nF, fps.slice(1)));
  const sims = index.similarities(fps[0]!);
  for (let i = 1; i < fps.length; i++) {
    const expected = naive(dense[0]!, dense[i]!);
    assert.ok(Math.abs(sims[i - 1]! - expected) < 1e-12, `row ${i}`);
    assert.equal(sims[i - 1], weightedTanimoto(fps[0]!, fps[i]!));
  }
  // The index leaves no state behind: a second query gives its own values.
  const again = index.similarities(fps[5]!);
  assert.equal(again[0], weightedTanimoto(fps[5]!, fps[1]!));
});

test("query features unknown to the model are ignored (docs/lazar-method.md: Substructures)", () => {
  const m = new FingerprintMatrix(3, [weightedFingerprint(set([0, 1]), [1, 1, 1], false)]);
  const q: SparseFingerprint = { idx: Int32Array.from([0, 1, 7]), val: Float64Array.from([1, 1, 1]) };
  assert.equal(new TanimotoIndex(m).similarities(q)[0], 1);
});

test("fingerprints reject features outside the model and unsorted rows", () => {
  assert.throws(() => weightedFingerprint(set([4]), P, false), RangeError);
  assert.throws(() => new FingerprintMatrix(4, [{ idx: Int32Array.from([2, 1]), val: Float64Array.from([1, 1]) }]), RangeError);
});
