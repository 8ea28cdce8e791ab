/**
 * Validation statistics (their definitions: docs/cross-validation.md "Classification statistics"
 * and "Regression statistics", those of lazar's validation service, opentox/validation :
 * lib/predictions.rb @ 42ef331) against hand-worked examples; the arithmetic is written out in the
 * comments of each case.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  classificationCrossValidation,
  classificationStatistics,
  classList,
  regressionStatistics,
  wilcoxonAuc,
  type ClassificationInstance,
  type RegressionInstance,
} from "../../../src/validate/index.ts";

const close = (a: number, b: number, tol = 1e-12): void => assert.ok(Math.abs(a - b) < tol, `${a} ≉ ${b}`);

const ci = (
  n: number,
  measured: string | null,
  predicted: string | null,
  confidence: number | null,
  fold = 0,
): ClassificationInstance => ({ compound: `/compound/c${n}`, fold, measured, predicted, confidence });
const ri = (n: number, measured: number | null, predicted: number | null, confidence: number | null, fold = 0): RegressionInstance => ({
  compound: `/compound/r${n}`,
  fold,
  measured,
  predicted,
  confidence,
});

/*
 * Binary example (a = active, i = inactive):
 *   #  measured predicted conf
 *   1  a        a         0.9
 *   2  a        a         0.5
 *   3  a        i         0.5
 *   4  i        a         0.5
 *   5  i        i         0.8
 *   6  i        i         0.2
 *   7  a        –         –     (unpredicted)
 *   8  –        a         0.3   (no measured value)
 */
const binary: ClassificationInstance[] = [
  ci(1, "a", "a", 0.9, 0),
  ci(2, "a", "a", 0.5, 1),
  ci(3, "a", "i", 0.5, 0),
  ci(4, "i", "a", 0.5, 1),
  ci(5, "i", "i", 0.8, 0),
  ci(6, "i", "i", 0.2, 1),
  ci(7, "a", null, null, 0),
  ci(8, null, "a", 0.3, 1),
];

test("binary: counts, confusion matrix, accuracy and weighted accuracy", () => {
  const s = classificationStatistics(binary, ["a", "i"]);
  // 8 instances, 1 without a measured value (12.5 %), 1 of the 7 measured unpredicted (100/7 %), n = 6.
  assert.equal(s.numInstances, 8);
  assert.equal(s.numWithoutClass, 1);
  close(s.percentWithoutClass, 12.5);
  assert.equal(s.numUnpredicted, 1);
  close(s.percentUnpredicted, 100 / 7);
  assert.equal(s.numPredicted, 6);
  // cm[a] = {a: 2 (#1,#2), i: 1 (#3)}, cm[i] = {a: 1 (#4), i: 2 (#5,#6)}.
  assert.deepEqual(s.confusionMatrix, [
    { actual: "a", predicted: "a", value: 2 },
    { actual: "a", predicted: "i", value: 1 },
    { actual: "i", predicted: "a", value: 1 },
    { actual: "i", predicted: "i", value: 2 },
  ]);
  assert.equal(s.numCorrect, 4);
  assert.equal(s.numIncorrect, 2);
  close(s.accuracy, 4 / 6);
  close(s.percentCorrect, 400 / 6);
  close(s.percentIncorrect, 200 / 6);
  // Σ conf·[correct] / Σ conf = (0.9 + 0.5 + 0.8 + 0.2) / (0.9 + 0.5 + 0.5 + 0.5 + 0.8 + 0.2) = 2.4 / 3.4.
  close(s.weightedAccuracy, 2.4 / 3.4);
  assert.deepEqual(s.emptyClasses, []);
});

test("binary: one-vs-rest rates", () => {
  const [a, i] = classificationStatistics(binary, ["a", "i"]).classStatistics;
  // class a: TP 2, FN 1, FP 1, TN 2 → every rate 2/3, FPR = FNR = 1/3, F = 2/3.
  assert.equal(a!.classValue, "a");
  assert.deepEqual(
    [a!.numTruePositives, a!.numFalseNegatives, a!.numFalsePositives, a!.numTrueNegatives, a!.numActual],
    [2, 1, 1, 2, 3],
  );
  for (const v of [a!.truePositiveRate, a!.trueNegativeRate, a!.positivePredictiveValue, a!.negativePredictiveValue, a!.fMeasure]) close(v, 2 / 3);
  close(a!.falsePositiveRate, 1 / 3);
  close(a!.falseNegativeRate, 1 / 3);
  assert.equal(i!.numTruePositives, 2);
  assert.equal(i!.numFalsePositives, 1);
});

test("AUC with ties: Wilcoxon–Mann–Whitney on the signed confidence, ties count ½", () => {
  const s = classificationStatistics(binary, ["a", "i"]);
  // Class a, score = +conf if a predicted else −conf.
  //   positives (measured a): #1 +0.9, #2 +0.5, #3 −0.5;  negatives: #4 +0.5, #5 −0.8, #6 −0.2.
  //   +0.9 beats all three                     → 3
  //   +0.5 ties +0.5, beats −0.8 and −0.2      → 2.5
  //   −0.5 beats −0.8 only                     → 1
  //   AUC = 6.5 / 9 = 13/18.
  close(s.classStatistics[0]!.areaUnderRoc, 13 / 18);
  // Class i: positives #4 −0.5, #5 +0.8, #6 +0.2; negatives #1 −0.9, #2 −0.5, #3 +0.5.
  //   −0.5: beats −0.9, ties −0.5 → 1.5;  +0.8: 3;  +0.2: beats −0.9, −0.5 → 2.  AUC = 6.5/9.
  close(s.classStatistics[1]!.areaUnderRoc, 13 / 18);
  // Weighted by actual instances (3 and 3): 13/18.
  close(s.averageAreaUnderRoc, 13 / 18);
});

test("wilcoxonAuc: all scores tied → ½; no positives → 0; no negatives → 1; +0 and −0 tie", () => {
  close(wilcoxonAuc([0.4, 0.4, 0.4], [true, false, false]), 0.5);
  assert.equal(wilcoxonAuc([0.1, 0.2], [false, false]), 0);
  assert.equal(wilcoxonAuc([0.1, 0.2], [true, true]), 1);
  // scores +0 (positive) and −0 (negative): one tied pair → ½.
  close(wilcoxonAuc([0, -0], [true, false]), 0.5);
  // perfect separation 1, inverted 0.
  assert.equal(wilcoxonAuc([0.9, 0.8, -0.1], [true, true, false]), 1);
  assert.equal(wilcoxonAuc([-0.9, 0.8, 0.85], [true, false, false]), 0);
});

/*
 * Three classes x, y, z, z never measured (an empty class):
 *   #  measured predicted conf
 *   1  x        x         1.0
 *   2  x        y         0.5
 *   3  y        y         0.4
 *   4  y        x         0.6
 *   5  y        z         0.3
 */
const three: ClassificationInstance[] = [
  ci(1, "x", "x", 1.0),
  ci(2, "x", "y", 0.5),
  ci(3, "y", "y", 0.4),
  ci(4, "y", "x", 0.6),
  ci(5, "y", "z", 0.3),
];

test("three classes with an empty class", () => {
  const s = classificationStatistics(three, ["x", "y", "z"]);
  assert.deepEqual(s.emptyClasses, ["z"]);
  // correct #1, #3 → 2/5; weighted (1.0 + 0.4) / (1.0 + 0.5 + 0.4 + 0.6 + 0.3) = 1.4 / 2.8 = 0.5.
  close(s.accuracy, 0.4);
  close(s.weightedAccuracy, 0.5);
  const [x, y, z] = s.classStatistics;
  // x: TP 1 (#1), FN 1 (#2), FP 1 (#4), TN = 5 − 3 = 2 (#3, #5).
  assert.deepEqual([x!.numTruePositives, x!.numFalseNegatives, x!.numFalsePositives, x!.numTrueNegatives], [1, 1, 1, 2]);
  close(x!.truePositiveRate, 0.5);
  close(x!.trueNegativeRate, 2 / 3);
  close(x!.positivePredictiveValue, 0.5);
  close(x!.negativePredictiveValue, 2 / 3);
  close(x!.fMeasure, 0.5);
  // y: TP 1 (#3), FN 2 (#4, #5), FP 1 (#2), TN 1 (#1). TPR 1/3, TNR 1/2, PPV 1/2, NPV 1/(1+2),
  //    F = 2·(1/2)(1/3) / (1/2 + 1/3) = (1/3)/(5/6) = 2/5.
  assert.deepEqual([y!.numTruePositives, y!.numFalseNegatives, y!.numFalsePositives, y!.numTrueNegatives], [1, 2, 1, 1]);
  close(y!.truePositiveRate, 1 / 3);
  close(y!.trueNegativeRate, 1 / 2);
  close(y!.positivePredictiveValue, 1 / 2);
  close(y!.negativePredictiveValue, 1 / 3);
  close(y!.fMeasure, 2 / 5);
  // z: TP 0, FN 0, FP 1 (#5), TN 4. TPR 0/0 → 0, TNR 4/5, PPV 0/1 = 0, NPV 4/4 = 1, F 0/0 → 0, AUC 0 (no positives).
  assert.deepEqual([z!.numTruePositives, z!.numFalseNegatives, z!.numFalsePositives, z!.numTrueNegatives, z!.numActual], [0, 0, 1, 4, 0]);
  assert.equal(z!.truePositiveRate, 0);
  close(z!.trueNegativeRate, 0.8);
  assert.equal(z!.positivePredictiveValue, 0);
  assert.equal(z!.negativePredictiveValue, 1);
  assert.equal(z!.fMeasure, 0);
  assert.equal(z!.areaUnderRoc, 0);
  // AUC x: positives #1 +1.0, #2 −0.5; negatives #3 −0.4, #4 +0.6, #5 −0.3.
  //   +1.0 beats 3; −0.5 beats none → 3/6.
  close(x!.areaUnderRoc, 0.5);
  // AUC y: positives #3 +0.4, #4 −0.6, #5 −0.3; negatives #1 −1.0, #2 +0.5. Each positive beats −1.0 only → 3/6.
  close(y!.areaUnderRoc, 0.5);
  // average = (2·0.5 + 3·0.5 + 0·0) / 5 = 0.5.
  close(s.averageAreaUnderRoc, 0.5);
  // The confusion matrix has all 9 pairs, z's row all zero.
  assert.equal(s.confusionMatrix.length, 9);
  assert.deepEqual(s.confusionMatrix.filter((c) => c.actual === "z").map((c) => c.value), [0, 0, 0]);
});

test("labels outside the class list are appended in code-point order", () => {
  const inst = [ci(1, "d", "b", 0.5), ci(2, "c", "Z", 0.5)];
  // given order b, a; then the unseen labels sorted by code point: "Z" (U+005A) < "c" < "d".
  assert.deepEqual(classList(["b", "a"], inst), ["b", "a", "Z", "c", "d"]);
  assert.deepEqual(classificationStatistics(inst, ["b", "a"]).emptyClasses, ["b", "a", "Z"]);
});

test("all unpredicted: every statistic 0, counts right", () => {
  const inst = [ci(1, "a", null, null), ci(2, "i", null, null), ci(3, "a", null, 0.7)];
  const s = classificationStatistics(inst, ["a", "i"]);
  assert.equal(s.numUnpredicted, 3);
  assert.equal(s.percentUnpredicted, 100);
  assert.equal(s.numPredicted, 0);
  assert.equal(s.accuracy, 0);
  assert.equal(s.weightedAccuracy, 0);
  assert.equal(s.averageAreaUnderRoc, 0);
  assert.ok(s.confusionMatrix.every((c) => c.value === 0));
  const r = regressionStatistics([ri(1, 1, null, null), ri(2, 2, null, null)]);
  assert.equal(r.numUnpredicted, 2);
  assert.equal(r.percentUnpredicted, 100);
  for (const v of [r.rootMeanSquaredError, r.meanAbsoluteError, r.rSquare, r.weightedRSquare, r.sampleCorrelationCoefficient, r.concordanceCorrelationCoefficient, r.weightedRootMeanSquaredError]) {
    assert.equal(v, 0);
  }
  // No instances at all: no NaN anywhere.
  const e = classificationStatistics([], ["a"]);
  assert.equal(e.percentUnpredicted, 0);
  assert.equal(e.percentWithoutClass, 0);
  assert.deepEqual(e.emptyClasses, ["a"]);
});

test("a predicted instance needs a confidence in [0, 1]", () => {
  assert.throws(() => classificationStatistics([ci(1, "a", "a", 1.5)], ["a"]), RangeError);
  assert.throws(() => classificationStatistics([ci(1, "a", "a", null)], ["a"]), /c1/);
  assert.throws(() => regressionStatistics([ri(1, 1, 2, Number.NaN)]), RangeError);
});

/*
 * Regression example:
 *   #  a  p  c     e = p − a
 *   1  1  2  1.0    1
 *   2  2  2  0.25   0
 *   3  3  5  0.5    2
 *   4  4  3  0.0   −1
 *   5  5  –  –     (unpredicted)
 *   6  –  3  0.5   (no measured value)
 * n = 4, ā = 2.5, p̄ = 3; a − ā = (−1.5, −0.5, 0.5, 1.5), p − p̄ = (−1, −1, 2, 0).
 */
const reg: RegressionInstance[] = [ri(1, 1, 2, 1.0), ri(2, 2, 2, 0.25), ri(3, 3, 5, 0.5), ri(4, 4, 3, 0.0), ri(5, 5, null, null), ri(6, null, 3, 0.5)];

test("regression: RMSE, MAE, R², weighted variants, Pearson r, CCC, variances", () => {
  const s = regressionStatistics(reg);
  assert.equal(s.numInstances, 6);
  assert.equal(s.numWithoutClass, 1);
  assert.equal(s.numUnpredicted, 1);
  close(s.percentUnpredicted, 20); // 1 of the 5 measured
  assert.equal(s.numPredicted, 4);
  // Σe² = 1 + 0 + 4 + 1 = 6; RMSE = √(6/4); MAE = (1 + 0 + 2 + 1)/4 = 1.
  close(s.sumSquaredError, 6);
  close(s.rootMeanSquaredError, Math.sqrt(1.5));
  close(s.meanAbsoluteError, 1);
  // Σ(a−ā)² = 2.25 + 0.25 + 0.25 + 2.25 = 5; R² = 1 − 6/5 = −0.2.
  close(s.rSquare, -0.2);
  // Σc·e² = 1·1 + 0.25·0 + 0.5·4 + 0·1 = 3; Σc·(a−ā)² = 2.25 + 0.0625 + 0.125 + 0 = 2.4375;
  // weighted R² = 1 − 3/2.4375 = 1 − 16/13 = −3/13.
  close(s.weightedRSquare, -3 / 13);
  // Σc = 1.75 = n·c̄; weighted RMSE = √(3/1.75) = √(12/7); Σc·|e| = 1 + 0 + 1 + 0 = 2 → 2/1.75 = 8/7.
  close(s.weightedRootMeanSquaredError, Math.sqrt(12 / 7));
  close(s.weightedMeanAbsoluteError, 8 / 7);
  // Σ(a−ā)(p−p̄) = 1.5 + 0.5 + 1 + 0 = 3; Σ(p−p̄)² = 1 + 1 + 4 + 0 = 6; r = 3/√(5·6).
  close(s.sampleCorrelationCoefficient, 3 / Math.sqrt(30));
  // CCC = 2·3 / (5 + 6 + 4·(2.5 − 3)²) = 6 / 12 = 0.5.
  close(s.concordanceCorrelationCoefficient, 0.5);
  // sample variances: 5/3 and 6/3.
  close(s.targetVarianceActual, 5 / 3);
  close(s.targetVariancePredicted, 2);
});

test("regression: perfect predictions → R² = r = CCC = 1; a shifted copy keeps r = 1 but lowers CCC", () => {
  const perfect = regressionStatistics([ri(1, 1, 1, 0.5), ri(2, 2, 2, 0.5), ri(3, 4, 4, 0.5)]);
  close(perfect.rSquare, 1);
  close(perfect.weightedRSquare, 1);
  close(perfect.sampleCorrelationCoefficient, 1);
  close(perfect.concordanceCorrelationCoefficient, 1);
  assert.equal(perfect.rootMeanSquaredError, 0);
  // p = a + 1 for a = 1, 2, 3: Σ(a−ā)² = Σ(p−p̄)² = Σ(a−ā)(p−p̄) = 2, n(ā−p̄)² = 3·1 = 3;
  // CCC = 4 / (2 + 2 + 3) = 4/7; r = 1; R² = 1 − 3/2 = −0.5.
  const shifted = regressionStatistics([ri(1, 1, 2, 1), ri(2, 2, 3, 1), ri(3, 3, 4, 1)]);
  close(shifted.sampleCorrelationCoefficient, 1);
  close(shifted.concordanceCorrelationCoefficient, 4 / 7);
  close(shifted.rSquare, -0.5);
});

test("regression: constant measured values → R² and r undefined → 0; all confidences 0 → weighted 0", () => {
  const s = regressionStatistics([ri(1, 2, 1, 0), ri(2, 2, 3, 0)]);
  assert.equal(s.rSquare, 0);
  assert.equal(s.weightedRSquare, 0);
  assert.equal(s.sampleCorrelationCoefficient, 0);
  assert.equal(s.weightedRootMeanSquaredError, 0);
  assert.equal(s.weightedMeanAbsoluteError, 0);
  // Σ(a−ā)² = 0, Σ(p−p̄)² = 2, covariance 0 → CCC = 0 / (0 + 2 + 0) = 0.
  assert.equal(s.concordanceCorrelationCoefficient, 0);
});

test("cross-validation: pooled over all predictions, per fold over the fold's", () => {
  const { pooled, folds } = classificationCrossValidation(binary, ["a", "i"], 2);
  close(pooled.accuracy, 4 / 6);
  // fold 0: #1 a→a 0.9, #3 a→i 0.5, #5 i→i 0.8, #7 unpredicted → accuracy 2/3, weighted 1.7/2.2.
  assert.equal(folds[0]!.fold, 0);
  close(folds[0]!.statistics.accuracy, 2 / 3);
  close(folds[0]!.statistics.weightedAccuracy, 1.7 / 2.2);
  assert.equal(folds[0]!.statistics.numUnpredicted, 1);
  // fold 1: #2 a→a 0.5, #4 i→a 0.5, #6 i→i 0.2, #8 no measured value → accuracy 2/3, weighted 0.7/1.2.
  close(folds[1]!.statistics.weightedAccuracy, 0.7 / 1.2);
  assert.equal(folds[1]!.statistics.numWithoutClass, 1);
  // Pooled is not the mean of the folds' weighted accuracies: (1.7/2.2 + 0.7/1.2)/2 ≠ 2.4/3.4.
  assert.ok(Math.abs(pooled.weightedAccuracy - (1.7 / 2.2 + 0.7 / 1.2) / 2) > 0.01);
  // a fold with no instances keeps the class list and has zero statistics
  const three = classificationCrossValidation(binary, ["a", "i"], 3);
  assert.deepEqual(three.folds[2]!.statistics.classes, ["a", "i"]);
  assert.equal(three.folds[2]!.statistics.numInstances, 0);
});
