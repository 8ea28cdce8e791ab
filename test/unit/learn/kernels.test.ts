/**
 * Kernels of the default global model (src/learn/kernels.ts) and the plain-array SVM
 * (src/learn/svm.ts trainSvm / decisionValue). Expected values are worked out by hand in the
 * comments; the SVM cases are problems whose maximum-margin solution is known in closed form.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fitStandardiser, meanKernel, nearestTanimoto, packBits, rbfCross, selectRows, standardise, tanimotoCross, tanimotoGram } from "../../../src/learn/kernels.ts";
import { decisionValue, loadLibsvm, trainSvm } from "../../../src/learn/svm.ts";

const csr = (rows: number[][]): { offsets: Int32Array; idx: Int32Array } => {
  const offsets = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => (offsets[i + 1] = offsets[i]! + r.length));
  return { offsets, idx: Int32Array.from(rows.flat()) };
};

test("Tanimoto on packed bits: |a∧b| / |a∨b| by hand, across word boundaries; empty rows; cross = Gram; each row's nearest", () => {
  // a = {1, 2, 3}, b = {2, 3, 4}: 2 shared of 4 → 0.5; c = {0, 31, 32, 63} (two words), d = {31, 32}: 2/4;
  // a vs c: none shared of 7 → 0; e = {} vs e' = {}: 0 off the diagonal, 1 on it; a repeated bit counts once.
  const { offsets, idx } = csr([[1, 2, 3], [2, 3, 4], [0, 31, 32, 63], [31, 32, 32], [], []]);
  const r = packBits(offsets, idx, 64);
  assert.deepEqual([...r.ones], [3, 3, 4, 2, 0, 0]);
  const g = tanimotoGram(r);
  const at = (i: number, j: number): number => g[i * 6 + j]!;
  assert.equal(at(0, 1), 0.5);
  assert.equal(at(2, 3), 0.5);
  assert.equal(at(0, 2), 0);
  assert.equal(at(4, 5), 0);
  for (let i = 0; i < 6; i++) assert.equal(at(i, i), 1);
  assert.equal(at(1, 0), at(0, 1));
  const q = selectRows(r, [1, 3]);
  const x = tanimotoCross(q, r);
  assert.deepEqual([...x.subarray(0, 6)], [...g.subarray(6, 12)], "query row = Gram row of the same compound");
  assert.deepEqual([...x.subarray(6, 12)], [...g.subarray(18, 24)]);
  // each row's nearest other row: a and b 0.5 apart, c and d 0.5, the empty rows 0 from everything
  assert.deepEqual([...nearestTanimoto(r)], [0.5, 0.5, 0.5, 0.5, 0, 0]);
  assert.throws(() => packBits(...Object.values(csr([[64]])) as [Int32Array, Int32Array], 64), /bit 64 of row 0 outside 0..63/);
});

test("standardising: training mean and sd (population), missing → mean, clipped at ±5, constant columns left out", () => {
  // column 0: 1, 2, 3, NaN → mean 2, sd √(2/3); column 1 constant 7 → left out; column 2: 0, 0, 0, 100 → mean 25, sd 43.30…
  const x = Float64Array.from([1, 7, 0, 2, 7, 0, 3, 7, 0, NaN, 7, 100]);
  const st = fitStandardiser(x, 4, 3);
  assert.equal(st.mean[0], 2);
  assert.ok(Math.abs(st.sd[0]! - Math.sqrt(2 / 3)) < 1e-12);
  assert.deepEqual([...st.used], [0, 2]);
  const z = standardise(st, Float64Array.from([2 + 10 * Math.sqrt(2 / 3), 7, 25, NaN, 1, 25 + 43.30127018922193]), 2);
  assert.equal(z.length, 4);
  assert.equal(z[0], 5, "10 sd above the mean is clipped to 5");
  assert.equal(z[1], 0);
  assert.equal(z[2], 0, "missing → the mean → 0");
  assert.ok(Math.abs(z[3]! - 1) < 1e-9);
});

test("RBF exp(−γ‖a − b‖²), γ = 1/q; the mean of kernels", () => {
  // a = (0, 0), b = (1, 1): ‖a − b‖² = 2, γ = 1/2 → e^(−1); a with itself → 1
  const k = rbfCross(Float64Array.from([0, 0]), 1, Float64Array.from([0, 0, 1, 1]), 2, 2);
  assert.equal(k[0], 1);
  assert.ok(Math.abs(k[1]! - Math.exp(-1)) < 1e-7);
  assert.deepEqual([...meanKernel([Float32Array.from([1, 0]), Float32Array.from([0, 0.5])])], [0.5, 0.25]);
  assert.throws(() => meanKernel([new Float32Array(2), new Float32Array(3)]), /different shapes/);
});

test("trainSvm: the maximum-margin line of a separable 1-D problem, as plain arrays (libsvm freed)", async () => {
  const lib = await loadLibsvm();
  // x = −2, −1 (class 0) and 1, 2 (class 1), linear kernel K = x·x'; with a large C the hard-margin
  // solution is f(x) = x (margin points ±1, w = 1, b = 0): f(0.5) = 0.5, f(−3) = −3.
  const xs = [-2, -1, 1, 2];
  const gram = Float64Array.from(xs.flatMap((a) => xs.map((b) => a * b)));
  const m = trainSvm(lib, gram, 4, Int32Array.from([0, 1, 2, 3]), [0, 0, 1, 1], { kind: "classification", cost: 1000 });
  const f = (x: number): number => decisionValue(m, (j) => x * xs[j]!);
  const sign = m.labels[0] === 1 ? 1 : -1; // f > 0 means labels[0]
  assert.ok(Math.abs(sign * f(0.5) - 0.5) < 1e-6, `f(0.5) = ${f(0.5)}`);
  assert.ok(Math.abs(sign * f(-3) + 3) < 1e-6);
  assert.deepEqual([...m.sv].sort(), [1, 2], "the support vectors are the two margin points");
  assert.throws(() => trainSvm(lib, gram, 4, Int32Array.from([0, 1, 2, 3]), [1, 1, 1, 1], { kind: "classification", cost: 1 }), /two classes/);
});

test("trainSvm: ε-SVR recovers y = 2x on a linear kernel; a subset's support vectors index the Gram rows", async () => {
  const lib = await loadLibsvm();
  // y = 2x exactly; with ε = 0.01 and a large C the fit is within ε at the training points, so f(1.5) ≈ 3.
  const xs = [9, -1, 0, 1, 2, 3]; // row 0 is not in the subset
  const gram = Float64Array.from(xs.flatMap((a) => xs.map((b) => a * b)));
  const subset = Int32Array.from([1, 2, 3, 4, 5]);
  const m = trainSvm(lib, gram, 6, subset, [-2, 0, 2, 4, 6], { kind: "regression", cost: 1000, epsilon: 0.01 });
  assert.ok([...m.sv].every((j) => j >= 1), "support vectors are Gram rows of the subset");
  const f = (x: number): number => decisionValue(m, (j) => x * xs[j]!);
  assert.ok(Math.abs(f(1.5) - 3) < 0.02, `f(1.5) = ${f(1.5)}`);
  assert.ok(Math.abs(f(-0.5) + 1) < 0.02, `f(−0.5) = ${f(-0.5)}`);
});

test("addTanimoto / addRbf build the mean of kernels in one array: the same as meanKernel of the separate matrices", async () => {
  const { addRbf, addTanimoto } = await import("../../../src/learn/kernels.ts");
  const a = csr([[1, 2, 3], [2, 3, 4], [0, 40], []]);
  const b = csr([[5], [1, 2], [2, 40, 41], [7, 8]]);
  const ra = packBits(a.offsets, a.idx, 64);
  const rb = packBits(b.offsets, b.idx, 64);
  const za = Float64Array.from([0, 1, 1, 0, 2, 2, -1, 0.5]);
  const sep = meanKernel([tanimotoGram(ra), tanimotoGram(rb), rbfCross(za, 4, za, 4, 2)]);
  const out = new Float32Array(16);
  addTanimoto(out, ra, ra, 1 / 3);
  addTanimoto(out, rb, rb, 1 / 3);
  addRbf(out, za, 4, za, 4, 2, 1 / 3);
  for (let i = 0; i < 16; i++) assert.ok(Math.abs(out[i]! - sep[i]!) < 1e-6, `${i}: ${out[i]} vs ${sep[i]}`);
  const cross = new Float32Array(8);
  const q = selectRows(ra, [1, 3]);
  addTanimoto(cross, q, ra, 1);
  assert.deepEqual([...cross], [...tanimotoCross(q, ra)]);
});
