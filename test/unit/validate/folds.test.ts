/**
 * Cross-validation folds (algorithm in the comment of src/validate/folds.ts).
 *
 * The reference folds below were derived outside this code base, by this independent Python
 * transcription of the documented steps (run with Python 3):
 *
 *   M = 2**32
 *   def mulberry(seed):
 *       s = seed % M
 *       def nxt():
 *           nonlocal s
 *           s = (s + 0x6D2B79F5) % M
 *           t = s
 *           t = ((t ^ (t >> 15)) * (t | 1)) % M
 *           t = t ^ ((t + ((t ^ (t >> 7)) * (t | 61)) % M) % M)
 *           return t ^ (t >> 14)
 *       return nxt
 *   def shuffled(units, seed):
 *       u = sorted(set(units)); r = mulberry(seed)
 *       for i in range(len(u) - 1, 0, -1):
 *           j = (r() * (i + 1)) // M
 *           u[i], u[j] = u[j], u[i]
 *       return u
 *   def plain(units, k, seed):
 *       u = shuffled(units, seed); n = len(u); out = []; p = 0
 *       for f in range(k):
 *           size = n // k + (1 if f < n % k else 0); out.append(u[p:p+size]); p += size
 *       return out
 *   def strat(units, labels, k, seed):
 *       u = shuffled(units, seed)
 *       order = sorted(range(len(u)), key=lambda p: (labels[u[p]], p))
 *       out = [[] for _ in range(k)]
 *       for q, p in enumerate(order): out[q % k].append(u[p])
 *       return out
 *
 * mulberry(1) draws 2693262067, 11749833, 2265367787 (the first is the widely quoted
 * 0.6270739405881613 · 2³² of the JavaScript mulberry32).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mulberry32Uint32 } from "../../../src/numeric/random.ts";
import { assignFolds, FoldError } from "../../../src/validate/index.ts";

const units = Array.from({ length: 10 }, (_, i) => `c${String(i + 1).padStart(2, "0")}`);

test("mulberry32 draws match the independent transcription", () => {
  const r = mulberry32Uint32(1);
  assert.deepEqual([r(), r(), r()], [2693262067, 11749833, 2265367787]);
});

test("non-stratified folds match the independent transcription (seed 1 and seed −1 ≡ 2³²−1)", () => {
  // plain(c01…c10, 3, 1)
  const a = assignFolds(units, { numFolds: 3, seed: 1 });
  assert.deepEqual(a.folds, [["c08", "c09", "c04", "c03"], ["c02", "c06", "c10"], ["c05", "c01", "c07"]]);
  // plain(c01…c10, 3, 4294967295)
  const b = assignFolds(units, { numFolds: 3, seed: -1 });
  assert.deepEqual(b.folds, [["c04", "c01", "c10", "c05"], ["c03", "c08", "c07"], ["c06", "c02", "c09"]]);
  assert.deepEqual(assignFolds(units, { numFolds: 3, seed: 4294967295 }).folds, b.folds);
});

test("stratified folds match the independent transcription (c01–c06 class a, c07–c10 class b, seed 7)", () => {
  const labels = units.map((u) => (Number(u.slice(1)) <= 6 ? "a" : "b"));
  const s = assignFolds(units, { numFolds: 3, seed: 7, stratified: true }, labels);
  assert.deepEqual(s.folds, [["c06", "c04", "c07", "c10"], ["c02", "c05", "c09"], ["c03", "c01", "c08"]]);
});

test("the input order of the instances does not matter (units are sorted first)", () => {
  const a = assignFolds(units, { numFolds: 4, seed: 3 });
  const b = assignFolds([...units].reverse(), { numFolds: 4, seed: 3 });
  assert.deepEqual(a.folds, b.folds);
});

/** 57 compounds, every third measured twice, a fifth of them three times. */
const many = Array.from({ length: 57 }, (_, i) => `/compound/m${i}`);
const instances = many.flatMap((c, i) => (i % 5 === 0 ? [c, c, c] : i % 3 === 0 ? [c, c] : [c]));

test("every compound in exactly one fold, duplicates together, sizes differ by at most one", () => {
  const a = assignFolds(instances, { numFolds: 10, seed: 1 });
  const all = a.folds.flat();
  assert.equal(all.length, 57);
  assert.deepEqual(new Set(all), new Set(many));
  // 57 = 5·6 + 5·5: folds 0–6 get 6 units, 7–9 get 5 (the first 57 mod 10 = 7 folds get one more).
  assert.deepEqual(a.folds.map((f) => f.length), [6, 6, 6, 6, 6, 6, 6, 5, 5, 5]);
  instances.forEach((c, i) => assert.equal(a.instanceFold[i], a.foldOf.get(c)));
  assert.equal(a.instanceFold.length, instances.length);
});

test("same seed → same folds; another seed → other folds", () => {
  const a = assignFolds(instances, { numFolds: 10, seed: 1 });
  const b = assignFolds(instances, { numFolds: 10, seed: 1 });
  const c = assignFolds(instances, { numFolds: 10, seed: 2 });
  assert.deepEqual(a.folds, b.folds);
  assert.notDeepEqual(a.folds, c.folds);
});

test("stratified by class: each class spread over the folds within one; fold sizes within one", () => {
  // 40 units, 25 of class "p" and 15 of class "n"; 5 folds → 5 p and 3 n in every fold.
  const cs = Array.from({ length: 40 }, (_, i) => `/compound/s${i}`);
  const labels = cs.map((_, i) => (i < 25 ? "p" : "n"));
  const s = assignFolds(cs, { numFolds: 5, seed: 11, stratified: true }, labels);
  for (const f of s.folds) {
    assert.equal(f.length, 8);
    assert.equal(f.filter((c) => Number(c.slice(11)) < 25).length, 5);
  }
  // 23 p, 14 n and 3 unlabelled over 4 folds: p 6/6/6/5, n 4/4/3/3 in some order, sizes 10/10/10/10.
  const labels2 = cs.map((_, i) => (i < 23 ? "p" : i < 37 ? "n" : null));
  const t = assignFolds(cs, { numFolds: 4, seed: 5, stratified: true }, labels2);
  const per = (lo: number, hi: number) => t.folds.map((f) => f.filter((c) => Number(c.slice(11)) >= lo && Number(c.slice(11)) < hi).length);
  for (const [lo, hi] of [[0, 23], [23, 37], [37, 40]] as const) {
    const n = per(lo, hi);
    assert.ok(Math.max(...n) - Math.min(...n) <= 1, `stratum ${lo}–${hi}: ${n}`);
  }
  assert.deepEqual(t.folds.map((f) => f.length), [10, 10, 10, 10]);
});

test("stratified: a compound measured with conflicting classes takes its majority class (ties: smaller label)", () => {
  // x: a, a, b → a;  y: a, b → tie → "a";  z: b.  With 2 folds and strata a = {x, y}, b = {z}:
  // the two a-units are dealt to different folds (positions 0 and 1 of the sorted order).
  const s = assignFolds(["x", "x", "x", "y", "y", "z"], { numFolds: 2, seed: 1, stratified: true }, ["a", "a", "b", "a", "b", "b"]);
  assert.notEqual(s.foldOf.get("x"), s.foldOf.get("y"));
  assert.equal(s.foldOf.get("z"), 0); // position 2 → fold 0
});

test("stratified by numeric value: one unit of each block of k sorted values per fold", () => {
  // values 1…20 (compound v{i} has value i, some measured twice with the same mean), k = 4:
  // blocks {1–4}, {5–8}, {9–12}, {13–16}, {17–20}; every fold gets one of each.
  const cs = Array.from({ length: 20 }, (_, i) => `v${i + 1}`);
  const compounds = [...cs, "v3", "v3"];
  const values = [...cs.map((_, i) => i + 1), 2, 4]; // v3 measured 3, 2, 4 → mean 3
  const s = assignFolds(compounds, { numFolds: 4, seed: 9, stratified: true }, values);
  for (const f of s.folds) {
    const blocks = f.map((c) => Math.floor((Number(c.slice(1)) - 1) / 4)).sort();
    assert.deepEqual(blocks, [0, 1, 2, 3, 4]);
  }
});

test("bad parameters are FoldErrors", () => {
  assert.throws(() => assignFolds(units, { numFolds: 1, seed: 1 }), FoldError);
  assert.throws(() => assignFolds(units, { numFolds: 2.5, seed: 1 }), FoldError);
  assert.throws(() => assignFolds(units, { numFolds: 11, seed: 1 }), /exceeds/);
  assert.throws(() => assignFolds(units, { numFolds: 2, seed: 0.5 }), FoldError);
  assert.throws(() => assignFolds(units, { numFolds: 2, seed: 1, stratified: true }), FoldError);
  // k = n is allowed: one compound per fold.
  assert.deepEqual(assignFolds(units, { numFolds: 10, seed: 1 }).folds.map((f) => f.length), Array(10).fill(1));
});

test("units are ordered by code point, not by UTF-16 unit", async () => {
  const { compareCodePoints } = await import("../../../src/validate/index.ts");
  // U+FF21 (FULLWIDTH A, one UTF-16 unit 0xFF21) < U+1F600 (two units 0xD83D 0xDE00) by code point,
  // although 0xFF21 > 0xD83D as UTF-16 units.
  assert.ok(compareCodePoints("\uFF21", "\u{1F600}") < 0);
  assert.ok(compareCodePoints("\u{1F600}", "\uFF21") > 0);
  assert.ok(compareCodePoints("a", "ab") < 0);
  assert.equal(compareCodePoints("x\u{1F600}", "x\u{1F600}"), 0);
  assert.ok(compareCodePoints("B", "a") < 0); // U+0042 < U+0061, no locale folding
});
