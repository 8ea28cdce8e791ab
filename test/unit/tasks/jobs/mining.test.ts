/**
 * ot:effect of a substructure for classification (src/tasks/jobs/mining.ts `classEffect`), the
 * formula of spec miners.md §7.1: with occ_i the occurrences in class i (ascending classes),
 * actual_i = occ_i/Σocc and expected_i = n_i/N, effect = 1 + argmax over the classes with
 * actual_i > expected_i of (actual_i − expected_i)/actual_i. Expected values worked by hand.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { classEffect } from "../../../../src/tasks/jobs/mining.ts";

test("two classes (hamster: 40 false, 45 true): the over-represented class", () => {
  assert.equal(classEffect([5, 0], [40, 45]), 1);
  assert.equal(classEffect([0, 5], [40, 45]), 2);
  // 20/45 = 0.444 < 40/85 = 0.471; 25/45 = 0.556 > 45/85 = 0.529 → class 2
  assert.equal(classEffect([20, 25], [40, 45]), 2);
});

test("three classes: the largest relative excess wins, not the largest count", () => {
  // actual 0.1, 0.5, 0.4 against 1/3 each: margins (0.5−1/3)/0.5 = 0.33 and (0.4−1/3)/0.4 = 0.17
  assert.equal(classEffect([1, 5, 4], [10, 10, 10]), 2);
  // class 1 has most occurrences but is the largest class: 6/10 = 0.6 < 60/100; class 3: 3/10 = 0.3 > 20/100
  assert.equal(classEffect([6, 1, 3], [60, 20, 20]), 3);
});
