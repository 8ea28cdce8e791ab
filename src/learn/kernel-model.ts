/**
 * A global kernel model with calibrated confidence: an SVM on a precomputed kernel (svm.ts
 * trainSvm: C-SVC for two classes, ε-SVR for numbers) and a conformal calibration of it
 * (conformal.ts), so that every prediction carries the p-value of each class or an interval at a
 * requested confidence level.
 *
 * Calibration without holding data back: the training rows are split into `calibrationFolds`
 * (default 5) seeded folds; an SVM trained on the others scores each fold's rows, and those
 * out-of-fold scores calibrate the SVM trained on all rows (the pooled cross-conformal scheme;
 * the out-of-fold models are a little weaker than the final one, so the p-values and intervals
 * err on the safe side).
 * - Classification: the nonconformity of class c is −f(x) for the class f > 0 stands for and
 *   +f(x) for the other (f the decision value): the further on the wrong side, the stranger.
 *   Mondrian: p-values per class from that class's calibration scores. More than two classes:
 *   one SVM per class against the rest (f_c > 0 ⇒ class c), the nonconformity of class c is
 *   −f_c(x), the predicted class the one with the largest f_c; a class without training rows
 *   has no SVM, p-value 0 and is never predicted.
 * - Regression: normalised, α = |y − f(x)| / (σ(x) + β), σ(x) = 1 − the mean kernel value of the
 *   `neighbours` (default 10) most similar training rows (other than the row itself): a compound
 *   far from the training data gets a wider interval.
 */
import { calibrateMondrian, calibrateRegression, pValues, predictionIntervals, regressionPValue, type MondrianCalibration, type RegressionCalibration } from "./conformal.ts";
import { decisionValue, trainSvm, type KernelSvmOptions, type Libsvm, type SvmModel } from "./svm.ts";
import { mulberry32Unit } from "../numeric/random.ts";

export interface KernelModelOptions {
  readonly kind: "classification" | "regression";
  /** Classification: the number of classes (default 2); class indices are 0 … nClasses − 1. */
  readonly nClasses?: number;
  /** SVM cost C. */
  readonly cost: number;
  /** ε of ε-SVR. */
  readonly epsilon?: number;
  /** Folds of the calibration (default 5). */
  readonly calibrationFolds?: number;
  /** Seed of the calibration folds (default 1). */
  readonly seed?: number;
  /** Neighbours of the regression difficulty σ (default 10). */
  readonly neighbours?: number;
}

/** A trained model: plain data (crosses threads, can be stored). */
export interface KernelModel {
  readonly kind: "classification" | "regression";
  readonly svm: SvmModel;
  /** More than two classes: per class c, the SVM of c against the rest (f > 0 ⇒ c), null when no training row has class c; `svm` is then the first of them. */
  readonly oneVsRest: readonly (SvmModel | null)[] | null;
  /** Classification: class indices 0 … k − 1; the calibration per class. */
  readonly classCalibration: MondrianCalibration | null;
  readonly regressionCalibration: RegressionCalibration | null;
  readonly neighbours: number;
}

/** Rows of the Gram matrix as kernel values of one instance with training row j. */
export type KernelRow = (j: number) => number;

/** σ(x) = 1 − the mean of the k largest kernel values of x with the training rows, skipping `self`. */
export function difficulty(k: KernelRow, rows: ArrayLike<number>, neighbours: number, self = -1): number {
  const top: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const j = rows[i]!;
    if (j === self) continue;
    const v = k(j);
    if (top.length < neighbours) {
      top.push(v);
      top.sort((a, b) => a - b);
    } else if (v > top[0]!) {
      top[0] = v;
      top.sort((a, b) => a - b);
    }
  }
  if (top.length === 0) return 1;
  return Math.max(0, 1 - top.reduce((a, b) => a + b, 0) / top.length);
}

/**
 * Train on rows `rows` of an n × n Gram matrix (row-major) with `y` per row of `rows` (class
 * index, or the value), and calibrate (see the module comment). `progress` is told the share of
 * the SVM trainings done (the model on all rows, then one per calibration fold).
 */
export function trainKernelModel(lib: Libsvm, gram: ArrayLike<number>, n: number, rows: Int32Array, y: ArrayLike<number>, options: KernelModelOptions, progress: (fraction: number) => void = () => undefined): KernelModel {
  const m = rows.length;
  if (y.length !== m) throw new RangeError("trainKernelModel: one target per row");
  const folds = Math.max(2, Math.min(options.calibrationFolds ?? 5, m));
  const neighbours = options.neighbours ?? 10;
  const svmOptions = { kind: options.kind, cost: options.cost, ...(options.epsilon === undefined ? {} : { epsilon: options.epsilon }) };
  const ys = Array.from(y);
  const nClasses = options.kind === "classification" ? (options.nClasses ?? 2) : 0;
  if (nClasses > 2) return trainOneVsRest(lib, gram, n, rows, ys, nClasses, folds, neighbours, options, svmOptions, progress);
  const svm = trainSvm(lib, gram, n, rows, ys, svmOptions);
  progress(1 / (folds + 1));
  const foldOf = calibrationFolds(m, folds, options.seed ?? 1);
  const outOfFold = new Float64Array(m).fill(NaN);
  for (let f = 0; f < folds; f++) {
    const trainIdx: number[] = [];
    const testIdx: number[] = [];
    for (let i = 0; i < m; i++) (foldOf[i] === f ? testIdx : trainIdx).push(i);
    const trainY = trainIdx.map((i) => ys[i]!);
    // a fold whose training part has one class only cannot be scored: its rows stay uncalibrated
    if (options.kind === "classification" && new Set(trainY).size < 2) continue;
    const part = trainSvm(lib, gram, n, Int32Array.from(trainIdx, (i) => rows[i]!), trainY, svmOptions);
    for (const i of testIdx) outOfFold[i] = decisionValue(part, (j) => gram[rows[i]! * n + j]!);
    // the part's decision values are oriented like the full model's (f > 0 ⇒ labels[0])
    if (options.kind === "classification" && part.labels[0] !== svm.labels[0]) for (const i of testIdx) outOfFold[i] = -outOfFold[i]!;
    progress((f + 2) / (folds + 1));
  }
  if (options.kind === "classification") {
    const own = Float64Array.from(outOfFold, (f, i) => classScore(svm, f, ys[i]!));
    return { kind: "classification", svm, oneVsRest: null, classCalibration: calibrateMondrian(Int32Array.from(ys), own, 2), regressionCalibration: null, neighbours };
  }
  const sigma = Float64Array.from({ length: m }, (_, i) => difficulty((j) => gram[rows[i]! * n + j]!, rows, neighbours, rows[i]!));
  const valid = Array.from({ length: m }, (_, i) => i).filter((i) => !Number.isNaN(outOfFold[i]!));
  const calibration = calibrateRegression(
    valid.map((i) => ys[i]!),
    valid.map((i) => outOfFold[i]!),
    valid.map((i) => sigma[i]!),
  );
  return { kind: "regression", svm, oneVsRest: null, classCalibration: null, regressionCalibration: calibration, neighbours };
}

/** The seeded calibration fold of each of m rows (a shuffle dealt round-robin into `folds`). */
function calibrationFolds(m: number, folds: number, seed: number): Int32Array {
  const rand = mulberry32Unit(seed);
  const order = Array.from({ length: m }, (_, i) => i);
  for (let i = m - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const foldOf = new Int32Array(m);
  order.forEach((i, r) => (foldOf[i] = r % folds));
  return foldOf;
}

/** One SVM per class against the rest on `rows` (null for a class with no row or only rows of it); f > 0 ⇒ the class. */
function oneVsRestSvms(lib: Libsvm, gram: ArrayLike<number>, n: number, rows: Int32Array, ys: readonly number[], nClasses: number, svmOptions: KernelSvmOptions): (SvmModel | null)[] {
  return Array.from({ length: nClasses }, (_, c) => {
    const binary = ys.map((v) => (v === c ? 1 : 0));
    const positives = binary.reduce((a: number, b) => a + b, 0);
    if (positives === 0 || positives === binary.length) return null;
    const svm = trainSvm(lib, gram, n, rows, binary, svmOptions);
    // orient: f > 0 ⇒ class c (label 1)
    return svm.labels[0] === 1 ? svm : { ...svm, coef: svm.coef.map((x) => -x), rho: -svm.rho, labels: [1, 0] };
  });
}

/** f_c(x) of every class (−Infinity for a class without an SVM). */
function oneVsRestDecisions(svms: readonly (SvmModel | null)[], k: KernelRow): Float64Array {
  return Float64Array.from(svms, (s) => (s === null ? -Infinity : decisionValue(s, k)));
}

function trainOneVsRest(
  lib: Libsvm,
  gram: ArrayLike<number>,
  n: number,
  rows: Int32Array,
  ys: readonly number[],
  nClasses: number,
  folds: number,
  neighbours: number,
  options: KernelModelOptions,
  svmOptions: KernelSvmOptions,
  progress: (fraction: number) => void,
): KernelModel {
  if (new Set(ys).size < 2) throw new RangeError("trainKernelModel: classification needs two classes");
  const m = rows.length;
  const svms = oneVsRestSvms(lib, gram, n, rows, ys, nClasses, svmOptions);
  progress(1 / (folds + 1));
  const foldOf = calibrationFolds(m, folds, options.seed ?? 1);
  const own = new Float64Array(m).fill(NaN);
  for (let f = 0; f < folds; f++) {
    const trainIdx: number[] = [];
    const testIdx: number[] = [];
    for (let i = 0; i < m; i++) (foldOf[i] === f ? testIdx : trainIdx).push(i);
    const part = oneVsRestSvms(lib, gram, n, Int32Array.from(trainIdx, (i) => rows[i]!), trainIdx.map((i) => ys[i]!), nClasses, svmOptions);
    for (const i of testIdx) {
      const s = part[ys[i]!];
      // a row whose class has no SVM in this part cannot be scored: it stays uncalibrated
      if (s) own[i] = -decisionValue(s, (j) => gram[rows[i]! * n + j]!);
    }
    progress((f + 2) / (folds + 1));
  }
  const svm = svms.find((s) => s !== null)!;
  return { kind: "classification", svm, oneVsRest: svms, classCalibration: calibrateMondrian(Int32Array.from(ys), own, nClasses), regressionCalibration: null, neighbours };
}

/** Nonconformity of class `c` (0/1) for decision value f (f > 0 ⇒ svm.labels[0]). */
function classScore(svm: SvmModel, f: number, c: number): number {
  return c === svm.labels[0] ? -f : f;
}

export interface KernelPrediction {
  /** Classification: the class index (0/1) of the decision; regression: the predicted value. */
  readonly value: number;
  /** The decision value f(x) (classification) or the prediction (regression). */
  readonly decision: number;
  /** Classification: p-value per class index. */
  readonly pValues?: Float64Array;
  /** Regression: the interval at the requested confidence level (±Infinity when too few calibration rows). */
  readonly interval?: readonly [number, number];
  /** Regression: σ(x) (see the module comment). */
  readonly difficulty?: number;
}

/** Predict an instance from its kernel values with the training rows; `confidenceLevel` for regression intervals (e.g. 0.8). */
export function predictKernelModel(model: KernelModel, k: KernelRow, rows: ArrayLike<number>, confidenceLevel: number): KernelPrediction {
  if (model.oneVsRest) {
    const f = oneVsRestDecisions(model.oneVsRest, k);
    let best = 0;
    for (let c = 1; c < f.length; c++) if (f[c]! > f[best]!) best = c;
    const p = pValues(model.classCalibration!, Array.from(f, (x) => (Number.isFinite(x) ? -x : 0)));
    model.oneVsRest.forEach((s, c) => s === null && (p[c] = 0));
    return { value: best, decision: f[best]!, pValues: p };
  }
  const f = decisionValue(model.svm, k);
  if (model.kind === "classification") {
    const p = pValues(model.classCalibration!, [classScore(model.svm, f, 0), classScore(model.svm, f, 1)]);
    return { value: f > 0 ? model.svm.labels[0]! : model.svm.labels[1]!, decision: f, pValues: p };
  }
  const sigma = difficulty(k, rows, model.neighbours);
  const iv = predictionIntervals(model.regressionCalibration!, [f], [sigma], 1 - confidenceLevel);
  return { value: f, decision: f, interval: [iv.lower[0]!, iv.upper[0]!], difficulty: sigma };
}

/**
 * Regression: the conformal p-value of value `y` for a prediction `yhat` with difficulty `sigma`
 * (KernelPrediction.difficulty) against the model's calibration (conformal.ts regressionPValue).
 * y is outside the interval at confidence level 1 − ε exactly when this is ≤ ε.
 */
export function kernelValuePValue(model: KernelModel, yhat: number, sigma: number, y: number): number {
  if (model.kind !== "regression") throw new RangeError("kernelValuePValue: not a regression model");
  return regressionPValue(model.regressionCalibration!, y, yhat, sigma);
}
