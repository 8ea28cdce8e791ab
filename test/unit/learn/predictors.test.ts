/**
 * Weighted majority vote and its confidence (docs/lazar-method.md "Prediction"; lazar's
 * Neighbors.weighted_majority_vote and get_confidence, opentox/opentox-ruby : lib/algorithm.rb,
 * lib/utils.rb @ v4.0.0) and the similarity-weighted average, on hand-worked examples (arithmetic
 * written out in each case).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { weightedAverage, weightedMajorityVote } from "../../../src/learn/index.ts";

const nb = (similarity: number, activity: number) => ({ similarity, activity });
const close = (a: number, b: number, tol = 1e-12): void => assert.ok(Math.abs(a - b) < tol, `${a} ≉ ${b}`);

test("two classes: S = Σ(+s for class 2, −s for class 1), class 2 if S ≥ 0, confidence |S|/n", () => {
  // S = −0.8 + 0.6 − 0.5 = −0.7 → class 1, confidence 0.7/3.
  const r = weightedMajorityVote([nb(0.8, 1), nb(0.6, 2), nb(0.5, 1)], 2);
  assert.equal(r.value, 1);
  close(r.confidence, 0.7 / 3);
  // S = 0.9 + 0.35 − 0.4 = 0.85 → class 2, confidence 0.85/3.
  const s = weightedMajorityVote([nb(0.9, 2), nb(0.35, 2), nb(0.4, 1)], 2);
  assert.equal(s.value, 2);
  close(s.confidence, 0.85 / 3);
});

test("two classes: a tie goes to class 2 (the larger accept value) with confidence 0", () => {
  const r = weightedMajorityVote([nb(0.5, 2), nb(0.5, 1)], 2);
  assert.deepEqual(r, { value: 2, confidence: 0 });
});

test("duplicates count several times: one compound measured twice votes twice", () => {
  // S = 0.6 + 0.6 − 1.0 = 0.2 → class 2, confidence 0.2/3.
  const r = weightedMajorityVote([nb(0.6, 2), nb(0.6, 2), nb(1.0, 1)], 2);
  assert.equal(r.value, 2);
  close(r.confidence, 0.2 / 3);
});

test("more than two classes: round(Σ a·s / Σ s), confidence Σ s / n", () => {
  // (0.5·1 + 0.5·3 + 1.0·2) / 2.0 = 2, confidence 2.0/3.
  const r = weightedMajorityVote([nb(0.5, 1), nb(0.5, 3), nb(1.0, 2)], 3);
  assert.equal(r.value, 2);
  close(r.confidence, 2 / 3);
  // (0.9·3 + 0.3·1) / 1.2 = 2.5 → 3 (half rounds up, as Ruby's round), confidence 1.2/2.
  const s = weightedMajorityVote([nb(0.9, 3), nb(0.3, 1)], 3);
  assert.equal(s.value, 3);
  close(s.confidence, 0.6);
});

test("no neighbour: no prediction, confidence 0 (docs/lazar-method.md: Applicability domain)", () => {
  assert.deepEqual(weightedMajorityVote([], 2), { value: null, confidence: 0 });
  assert.deepEqual(weightedAverage([]), { value: null, confidence: 0 });
});

test("weighted average: Σ s·y / Σ s, confidence = mean similarity", () => {
  // (0.5·2 + 1.0·5) / 1.5 = 6/1.5 = 4; confidence 1.5/2.
  const r = weightedAverage([nb(0.5, 2), nb(1.0, 5)]);
  close(r.value!, 4);
  close(r.confidence, 0.75);
  // (0.4·10 + 0.4·20 + 0.8·−1) / 1.6 = (4 + 8 − 0.8)/1.6 = 7; confidence 1.6/3.
  const s = weightedAverage([nb(0.4, 10), nb(0.4, 20), nb(0.8, -1)]);
  close(s.value!, 7);
  close(s.confidence, 1.6 / 3);
  // Equal similarities: the plain mean.
  close(weightedAverage([nb(0.7, 1), nb(0.7, 2), nb(0.7, 6)]).value!, 3);
});

test("a class index outside 1..2 in a two-class vote is an error", () => {
  assert.throws(() => weightedMajorityVote([nb(0.5, 3)], 2), RangeError);
});
