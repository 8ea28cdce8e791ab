/**
 * Coverage and conformal calibration of a cross-validation (src/validate/conformal.ts,
 * docs/cross-validation.md "Coverage" and "Conformal calibration"). Every expected value below is
 * worked out by hand in the comments from the definitions in the docs: coverage k = ⌈c · N⌉ of
 * all N instances with a measured value, most confident first, ties with the last kept kept too;
 * an instance is an error at ε when the p-value of its measured value is ≤ ε; the prediction set
 * at ε is {classes with p > ε}.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  calibrationAt,
  CALIBRATION_SIGNIFICANCES,
  classificationCalibration,
  classificationCoverage,
  COVERAGE_LEVELS,
  crossValidationResult,
  regressionCalibration,
  regressionCoverage,
  type ClassificationInstance,
  type RegressionInstance,
} from "../../../src/validate/index.ts";

const close = (a: number, b: number, tol = 1e-12): void => assert.ok(Math.abs(a - b) < tol, `${a} ≉ ${b}`);
const ci = (n: number, measured: string, predicted: string | null, confidence: number | null, pValues?: number[]): ClassificationInstance => ({
  compound: `/compound/c${n}`,
  fold: 0,
  measured,
  predicted,
  confidence,
  ...(pValues ? { pValues } : {}),
});

test("the levels: coverage 0.1 … 1 and significance 0.05 … 0.5, each the double of its decimal", () => {
  assert.deepEqual(COVERAGE_LEVELS, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
  assert.deepEqual(CALIBRATION_SIGNIFICANCES, [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]);
});

test("accuracy versus coverage, by hand: unpredicted instances count in the denominator, ties are kept together", () => {
  // 10 instances, 8 predicted: confidence (correct?) 0.9 ✓, 0.8 ✓, 0.8 ✗, 0.7 ✓, 0.6 ✗, 0.5 ✓, 0.4 ✓, 0.3 ✗, and 2 unpredicted
  const xs: ClassificationInstance[] = [
    ci(1, "a", "a", 0.9),
    ci(2, "a", "a", 0.8),
    ci(3, "b", "a", 0.8),
    ci(4, "b", "b", 0.7),
    ci(5, "a", "b", 0.6),
    ci(6, "b", "b", 0.5),
    ci(7, "a", "a", 0.4),
    ci(8, "b", "a", 0.3),
    ci(9, "a", null, null),
    ci(10, "b", null, null),
  ];
  const c = classificationCoverage(xs);
  assert.equal(c.metric, "accuracy");
  assert.equal(c.order, "confidence");
  assert.equal(c.total, 10);
  // coverage c keeps k = ⌈10c⌉: k = 1 → the 0.9 (1 of 1); k = 2 and 3 → down to 0.8, three kept (2 of 3, actual 0.3);
  // k = 4 → 0.7 (3 of 4); 5 → 0.6 (3 of 5); 6 → 0.5 (4 of 6); 7 → 0.4 (5 of 7); 8 → 0.3 (5 of 8); 9 and 10 unreachable
  const expected: [number, number, number, number][] = [
    [0.1, 1, 0.9, 1],
    [0.2, 3, 0.8, 2 / 3],
    [0.3, 3, 0.8, 2 / 3],
    [0.4, 4, 0.7, 3 / 4],
    [0.5, 5, 0.6, 3 / 5],
    [0.6, 6, 0.5, 4 / 6],
    [0.7, 7, 0.4, 5 / 7],
    [0.8, 8, 0.3, 5 / 8],
  ];
  assert.equal(c.points.length, expected.length, "0.9 and 1 cannot be reached with 8 of 10 predicted");
  c.points.forEach((p, i) => {
    const [coverage, n, threshold, value] = expected[i]!;
    assert.equal(p.coverage, coverage);
    assert.equal(p.n, n);
    close(p.actualCoverage, n / 10);
    assert.equal(p.threshold, threshold);
    close(p.value, value);
  });
});

test("coverage when few are predicted: the curve ends with all predictions, at the coverage they reach", () => {
  // 20 instances, 3 predicted: 0.9 ✓, 0.7 ✗, 0.4 ✓. Coverage 0.1 keeps ⌈2⌉ = 2 (1 of 2 correct, threshold 0.7);
  // 0.2 would need 4: unreachable; the last point keeps all 3 (2 of 3) at coverage 3/20
  const xs: ClassificationInstance[] = [ci(1, "a", "a", 0.9), ci(2, "b", "a", 0.7), ci(3, "b", "b", 0.4), ...Array.from({ length: 17 }, (_, i) => ci(10 + i, "a", null, null))];
  const c = classificationCoverage(xs);
  assert.deepEqual(
    c.points.map((p) => [p.coverage, p.n, p.threshold, p.value]),
    [
      [0.1, 2, 0.7, 0.5],
      [3 / 20, 3, 0.4, 2 / 3],
    ],
  );
  assert.equal(c.points[1]!.actualCoverage, 3 / 20);
});

test("RMSE versus coverage of a conformal regressor, by hand: narrowest interval first, the threshold is the widest kept", () => {
  // (measured, predicted, interval): A (1, 1.5, [1, 2]) width 1, e = 0.5; B (3, 1, [0, 2]) width 2, e = −2;
  // C (2, 1, [−1, 3]) width 4, e = −1; D (0, 0, unbounded) width ∞, e = 0; E unpredicted. N = 5.
  // All carry the confidence 0.8 (the level), which would tie them all.
  const xs: RegressionInstance[] = [
    { compound: "/c/A", fold: 0, measured: 1, predicted: 1.5, confidence: 0.8, interval: [1, 2], truthPValue: 0.7 },
    { compound: "/c/B", fold: 0, measured: 3, predicted: 1, confidence: 0.8, interval: [0, 2], truthPValue: 0.1 },
    { compound: "/c/C", fold: 1, measured: 2, predicted: 1, confidence: 0.8, interval: [-1, 3], truthPValue: 0.3 },
    { compound: "/c/D", fold: 1, measured: 0, predicted: 0, confidence: 0.8, interval: [-Infinity, Infinity], truthPValue: 0.95 },
    { compound: "/c/E", fold: 1, measured: 5, predicted: null, confidence: null },
  ];
  const c = regressionCoverage(xs);
  assert.equal(c.order, "interval width");
  assert.equal(c.total, 5);
  // k = ⌈5c⌉: 0.1, 0.2 → 1 (A: RMSE 0.5); 0.3, 0.4 → 2 (A, B: √((0.25 + 4)/2)); 0.5, 0.6 → 3 (+C: √(5.25/3));
  // 0.7, 0.8 → 4 (+D: √(5.25/4), widest ∞); 0.9, 1 → 5 > 4 predicted: none
  const expected: [number, number, number][] = [
    [1, 1, 0.5],
    [1, 1, 0.5],
    [2, 2, Math.sqrt(4.25 / 2)],
    [2, 2, Math.sqrt(4.25 / 2)],
    [3, 4, Math.sqrt(5.25 / 3)],
    [3, 4, Math.sqrt(5.25 / 3)],
    [4, Infinity, Math.sqrt(5.25 / 4)],
    [4, Infinity, Math.sqrt(5.25 / 4)],
  ];
  assert.equal(c.points.length, 8);
  c.points.forEach((p, i) => {
    const [n, threshold, value] = expected[i]!;
    assert.equal(p.coverage, COVERAGE_LEVELS[i]);
    assert.equal(p.n, n, `coverage ${p.coverage}`);
    assert.equal(p.threshold, threshold);
    close(p.value, value);
  });
  // without intervals the same instances are ordered by their (tied) confidence: one step of all four
  const plain = regressionCoverage(xs.map(({ interval: _i, truthPValue: _t, ...x }) => x));
  assert.equal(plain.order, "confidence");
  assert.ok(plain.points.every((p) => p.n === 4 && p.threshold === 0.8));
});

test("regression calibration, by hand: an error at ε is a p-value ≤ ε (a tie is an error); interval width and misses at the stored level", () => {
  const xs: RegressionInstance[] = [
    { compound: "/c/A", fold: 0, measured: 1, predicted: 1.5, confidence: 0.8, interval: [1, 2], truthPValue: 0.7 },
    { compound: "/c/B", fold: 0, measured: 3, predicted: 1, confidence: 0.8, interval: [0, 2], truthPValue: 0.1 },
    { compound: "/c/C", fold: 1, measured: 2, predicted: 1, confidence: 0.8, interval: [-1, 3], truthPValue: 0.3 },
    { compound: "/c/E", fold: 1, measured: 5, predicted: null, confidence: null },
    { compound: "/c/F", fold: 1, measured: null, predicted: 2, confidence: 0.8, interval: [1, 3], truthPValue: 0.01 },
  ];
  const c = regressionCalibration(xs, 0.8)!;
  assert.equal(c.type, "regression");
  // counted over A, B, C (E has no prediction, F no measured value)
  assert.equal(c.n, 3);
  // p-values 0.7, 0.1, 0.3: errors at 0.05: 0; 0.1 … 0.25: 1 (B, 0.1 ≤ 0.1); 0.3 … 0.5: 2 (+C)
  assert.deepEqual(c.points.map((p) => p.errors), [0, 1, 1, 1, 1, 2, 2, 2, 2, 2]);
  c.points.forEach((p) => close(p.errorRate, p.errors / 3));
  assert.equal(c.confidenceLevel, 0.8);
  // widths 1, 2, 4 → 7/3; B's 3 lies outside [0, 2], A's 1 on its bound is inside → 1 of 3
  close(c.meanIntervalWidth!, 7 / 3);
  close(c.intervalErrorRate!, 1 / 3);
  assert.equal(calibrationAt(c, 0.2)?.errors, 1);
  // an unbounded interval makes the mean width unbounded; no p-values at all → no calibration
  assert.equal(regressionCalibration([...xs, { compound: "/c/D", fold: 1, measured: 0, predicted: 0, confidence: 0.8, interval: [-Infinity, Infinity], truthPValue: 0.95 }])!.meanIntervalWidth, Infinity);
  assert.equal(regressionCalibration(xs.map(({ truthPValue: _t, ...x }) => x)), null);
});

test("classification calibration, by hand: errors, mean set size, single-class and empty sets", () => {
  // classes [a, b]; (measured, p_a, p_b): 1 (a, 0.5, 0.08), 2 (b, 0.3, 0.2), 3 (a, 0.04, 0.6), 4 (b, 0.12, 0.45);
  // 5 has no p-values (another model), 6 is unpredicted: both left out
  const xs = [
    ci(1, "a", "a", 0.92, [0.5, 0.08]),
    ci(2, "b", "a", 0.8, [0.3, 0.2]),
    ci(3, "a", "b", 0.96, [0.04, 0.6]),
    ci(4, "b", "b", 0.88, [0.12, 0.45]),
    ci(5, "a", "a", 0.5),
    ci(6, "b", null, null),
  ];
  const c = classificationCalibration(xs, ["a", "b"])!;
  assert.equal(c.n, 4);
  // ε = 0.05: sets {a,b} {a,b} {b} {a,b}: 3's a (0.04) excluded → 1 error; sizes 2,2,1,2 → 7/4; 1 single; 0 empty
  // ε = 0.1:  {a} {a,b} {b} {a,b}: 1 error; sizes 1,2,1,2 → 1.5; 2 single
  // ε = 0.2:  {a} {a} (0.2 ≤ 0.2) {b} {b}: errors 2 and 3; sizes all 1; 4 single
  // ε = 0.3:  {a} {} {b} {b}: errors 2 and 3; sizes 1,0,1,1 → 0.75; 3 single; 1 empty
  // ε = 0.5:  {} {} {b} {}: all 4 errors; sizes 0,0,1,0 → 0.25; 1 single; 3 empty
  const expected: [number, number, number, number, number][] = [
    [0.05, 1, 7 / 4, 1 / 4, 0],
    [0.1, 1, 1.5, 2 / 4, 0],
    [0.2, 2, 1, 1, 0],
    [0.3, 2, 0.75, 3 / 4, 1 / 4],
    [0.5, 4, 0.25, 1 / 4, 3 / 4],
  ];
  for (const [eps, errors, size, single, empty] of expected) {
    const p = calibrationAt(c, eps)!;
    assert.equal(p.errors, errors, `errors at ${eps}`);
    close(p.errorRate, errors / 4);
    close(p.meanSetSize!, size);
    close(p.singleClassRate!, single);
    close(p.emptySetRate!, empty);
  }
  assert.equal(classificationCalibration(xs.slice(4), ["a", "b"]), null, "no p-values → no calibration");
  assert.throws(() => classificationCalibration([ci(1, "a", "a", 0.9, [0.5])], ["a", "b"]), /do not match the classes/);
});

test("a cross-validation result carries both; calibration only when the predictions carry p-values", () => {
  const parameters = { algorithmUri: "/algorithm/qsar", datasetUri: "/dataset/d", predictionFeature: "/dataset/d/feature/f", algorithmParams: "", numFolds: 2, randomSeed: 1, stratified: false };
  const xs = [ci(1, "a", "a", 0.92, [0.5, 0.08]), ci(2, "b", "a", 0.8, [0.3, 0.2])];
  const r = crossValidationResult({ uri: "/validation/crossvalidation/x", parameters }, { type: "classification", classes: ["a", "b"], predictions: xs });
  assert.equal(r.calibration?.n, 2);
  assert.equal(r.coverage.points.at(-1)?.coverage, 1);
  const lazar = crossValidationResult({ uri: "/validation/crossvalidation/y", parameters }, { type: "classification", classes: ["a", "b"], predictions: xs.map(({ pValues: _p, ...x }) => x) });
  assert.equal(lazar.calibration, null);
});
