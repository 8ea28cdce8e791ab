/**
 * Cosine in the whitened SVD space of autoscaled descriptors (docs/lazar-method.md "Similarity";
 * lazar's Similarity.cosine and ModelTransformer, opentox/opentox-ruby : lib/utils.rb,
 * lib/transform.rb @ v4.0.0), on real CDK constitutional descriptors of EPAFHM
 * (fixtures/data/opentox-test-2012/data/EPAFHM-constitutional.csv, the 2012 regression test's
 * feature dataset).
 *
 * Independent reference: with all components kept, rows of U satisfy u_i·u_j = z_i (ZᵀZ)⁻¹ z_jᵀ
 * (Z = autoscaled training matrix), and the query's q·V·S⁻¹ likewise; so for ≤ 12 columns the
 * cosine equals z_q G⁻¹ z_jᵀ / √(z_q G⁻¹ z_qᵀ · z_j G⁻¹ z_jᵀ) with G = ZᵀZ, computed here by
 * Gaussian elimination — no SVD involved.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DATA } from "../../helpers/data.ts";
import { DescriptorSpace, cosine } from "../../../src/learn/index.ts";

const lines = readFileSync(`${DATA}opentox-test-2012/data/EPAFHM-constitutional.csv`, "utf8").split(/\r?\n/).filter((l) => l.trim());
const header = lines[0]!.split(",");
const table = lines.slice(1, 121).map((l) => l.split(",").slice(1, header.length).map((v) => (v.trim() === "" ? Number.NaN : Number(v))));

/** Solves G·w = b (Gaussian elimination with partial pivoting). */
function solve(g: number[][], b: number[]): number[] {
  const n = b.length;
  const a = g.map((r, i) => [...r, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[p]![c]!)) p = r;
    [a[c], a[p]] = [a[p]!, a[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = a[r]![c]! / a[c]![c]!;
      for (let k = c; k <= n; k++) a[r]![k]! -= f * a[c]![k]!;
    }
  }
  const w = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = a[r]![n]!;
    for (let k = r + 1; k < n; k++) s -= a[r]![k]! * w[k]!;
    w[r] = s / a[r]![r]!;
  }
  return w;
}

test("cosine in the whitened space = z_q G⁻¹ z_j / norms (8 real descriptors, 100 compounds)", () => {
  // Columns nAtom, nAromBond, nAtomLC, nAtomLAC, nHBDon, nAtomP, nRotB, MLogP: complete, varying.
  const cols = [0, 2, 3, 5, 6, 7, 8, 9];
  const train = table.slice(0, 100).map((r) => cols.map((c) => r[c]!));
  const queries = table.slice(100, 110).map((r) => cols.map((c) => r[c]!));
  const space = new DescriptorSpace(train);
  const p = cols.length;
  const n = train.length;
  const mean = cols.map((_, j) => train.reduce((s, r) => s + r[j]!, 0) / n);
  const sd = cols.map((_, j) => Math.sqrt(train.reduce((s, r) => s + (r[j]! - mean[j]!) ** 2, 0) / n));
  const z = (r: number[]): number[] => r.map((v, j) => (v - mean[j]!) / sd[j]!);
  const Z = train.map(z);
  const G = [...Array(p).keys()].map((a) => [...Array(p).keys()].map((b) => Z.reduce((s, r) => s + r[a]! * r[b]!, 0)));
  const form = (x: number[], y: number[]): number => {
    const w = solve(G, y);
    return x.reduce((s, v, k) => s + v * w[k]!, 0);
  };
  for (const q of queries) {
    const sims = space.similarities(q);
    const zq = z(q);
    const qq = form(zq, zq);
    for (let j = 0; j < n; j += 7) {
      const expected = form(zq, Z[j]!) / Math.sqrt(qq * form(Z[j]!, Z[j]!));
      assert.ok(Math.abs(sims[j]! - expected) < 1e-8, `row ${j}: ${sims[j]} vs ${expected}`);
    }
  }
  // A training row compared with itself: 1.
  assert.ok(Math.abs(space.similarities(train[3]!)[3]! - 1) < 1e-10);
});

test("autoscaling: the cosine does not change when a column is rescaled or shifted", () => {
  const train = table.slice(0, 80).map((r) => r.slice(0, 15));
  const q = table[90]!.slice(0, 15);
  const a = new DescriptorSpace(train).similarities(q);
  const shift = (r: number[]): number[] => r.map((v, j) => (j === 4 ? 1000 * v - 3 : v));
  const b = new DescriptorSpace(train.map(shift)).similarities(shift(q));
  // Some rows have gaps (LipinskiFailures, XLogP, ALogP …): they are removed alike (NaN) in both.
  for (let i = 0; i < a.length; i++) assert.ok(Number.isNaN(a[i]!) ? Number.isNaN(b[i]!) : Math.abs(a[i]! - b[i]!) < 1e-7, `row ${i}`);
  assert.ok(a.some((s) => Number.isNaN(s)) && a.filter((s) => !Number.isNaN(s)).length > 70);
  for (const s of a) if (!Number.isNaN(s)) assert.ok(s >= -1 - 1e-12 && s <= 1 + 1e-12);
});

test("more than 12 columns: only the first 12 components count", () => {
  const u = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 100];
  const v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, -100];
  assert.ok(Math.abs(cosine(u, v, 12) - 1) < 1e-15);
  assert.ok(cosine(u, v) < 0);
});

test("missing values: query-missing columns are dropped; rows/columns with most gaps removed (docs/lazar-method.md: Similarity)", () => {
  const cols = [0, 2, 3, 5, 6];
  const train = table.slice(0, 40).map((r) => cols.map((c) => r[c]!));
  const q = table[50]!.filter((_, c) => cols.includes(c));
  const full = new DescriptorSpace(train);
  // Query lacks column 2 → same as a space without column 2.
  const qMissing = q.map((v, j) => (j === 2 ? Number.NaN : v));
  const without = new DescriptorSpace(train.map((r) => r.filter((_, j) => j !== 2)));
  const a = full.similarities(qMissing);
  const b = without.similarities(q.filter((_, j) => j !== 2));
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) < 1e-9);
  // One training row with a gap in one column (1/5 of the row, 1/40 of the column): the row goes.
  const gappy = train.map((r, i) => (i === 7 ? r.map((v, j) => (j === 1 ? Number.NaN : v)) : r));
  const s = new DescriptorSpace(gappy).similarities(q);
  assert.ok(Number.isNaN(s[7]!));
  assert.equal(s.filter((x) => Number.isNaN(x)).length, 1);
  // A column missing in most rows goes instead of the rows.
  const sparseCol = train.map((r, i) => (i % 2 === 0 ? r.map((v, j) => (j === 3 ? Number.NaN : v)) : r));
  const t = new DescriptorSpace(sparseCol).similarities(q);
  const noCol = new DescriptorSpace(train.map((r) => r.filter((_, j) => j !== 3))).similarities(q.filter((_, j) => j !== 3));
  for (let i = 0; i < t.length; i++) assert.ok(Math.abs(t[i]! - noCol[i]!) < 1e-9);
});
