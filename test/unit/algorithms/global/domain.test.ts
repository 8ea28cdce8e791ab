/**
 * The global models' applicability domain (src/algorithms/global/domain.ts): the threshold from a
 * Gram matrix (the kernel model) or from Tanimoto on fingerprint bits without the matrix (the
 * forest), hand-checked on small cases and checked against the whole Tanimoto matrix
 * (learn/kernels.ts tanimotoGram) on random rows.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { applicabilityDomain, domainNote, tanimotoDomain } from "../../../../src/algorithms/global/domain.ts";
import { packBits, tanimotoGram } from "../../../../src/learn/kernels.ts";
import { mulberry32Unit } from "../../../../src/numeric/random.ts";

/** Bit rows from lists of on bits. */
function bits(rows: readonly number[][], space: number): ReturnType<typeof packBits> {
  const offsets = [0];
  for (const r of rows) offsets.push(offsets.at(-1)! + r.length);
  return packBits(Int32Array.from(offsets), Int32Array.from(rows.flat()), space);
}

test("applicabilityDomain: the 5 % quantile of each row's largest similarity with another row (hand-checked)", () => {
  // 4 rows; off-diagonal maxima per row: 0.9, 0.9, 0.5, 0.3 → sorted 0.3, 0.5, 0.9, 0.9;
  // quantile 0.05 → index floor(0.05 × 3) = 0 → 0.3; quantile 0.5 → index 1 → 0.5
  const g = [
    1, 0.9, 0.2, 0.1,
    0.9, 1, 0.5, 0.3,
    0.2, 0.5, 1, 0.1,
    0.1, 0.3, 0.1, 1,
  ];
  assert.deepEqual(applicabilityDomain(g, 4), { threshold: 0.3, quantile: 0.05 });
  assert.equal(applicabilityDomain(g, 4, 0.5).threshold, 0.5);
  const note = domainNote(0.21, { threshold: 0.3, quantile: 0.05 });
  assert.match(note, /0\.21.*0\.30.*95 %/);
});

test("tanimotoDomain: each row's nearest other row by Tanimoto, at the quantile (hand-checked)", () => {
  // A = {0, 1}, B = {0, 1, 2}, C = {5}: T(A, B) = 2 / 3, T(A, C) = T(B, C) = 0; nearest per row
  // 2/3, 2/3, 0 → sorted 0, 2/3, 2/3; quantile 0.05 → index 0 → 0; quantile 0.5 → index 1 → 2/3
  const r = bits([[0, 1], [0, 1, 2], [5]], 64);
  assert.deepEqual(tanimotoDomain(r), { threshold: 0, quantile: 0.05 });
  assert.ok(Math.abs(tanimotoDomain(r, 0.5).threshold - 2 / 3) < 1e-6);
  // a row with itself does not count: two identical rows are each other's nearest (1)
  assert.equal(tanimotoDomain(bits([[3, 4], [3, 4]], 64)).threshold, 1);
});

test("tanimotoDomain of 600 random rows equals the domain of their whole Tanimoto matrix", () => {
  const rand = mulberry32Unit(7);
  const rows = Array.from({ length: 600 }, () => Array.from({ length: 128 }, (_, b) => b).filter(() => rand() < 0.1));
  const r = bits(rows, 128);
  for (const q of [0.05, 0.5]) assert.deepEqual(tanimotoDomain(r, q), applicabilityDomain(tanimotoGram(r), r.n, q));
});
