/**
 * Validation statistics of lazar cross-validations (definitions: docs/cross-validation.md; as the
 * 2012 validation service computed them, opentox/validation lib/predictions.rb). Statistics are
 * computed over a list of prediction instances — pooled over all folds for the cross-validation,
 * and the same function over one fold's instances for the per-fold table (never by averaging fold
 * statistics).
 *
 * An instance is one measured value of a test compound (a compound measured twice is two
 * instances, each with the compound's one prediction). Counts:
 * - `numInstances` all instances; `numWithoutClass` those without a measured value;
 * - `numUnpredicted` instances with a measured value but no prediction, `percentUnpredicted` of
 *   the instances with a measured value; n (`numPredicted`) = instances with both.
 *
 * Every rate whose denominator is 0 is 0 (as the validation service had it), and so are R², r
 * and CCC when undefined.
 *
 * Choices where the 2012 definitions leave room (see also the tests):
 * - classes: the caller's class list (the feature's accept values) keeps its order; measured or
 *   predicted labels outside it are appended in code-point order. `emptyClasses` are classes
 *   with no measured instance.
 * - one-vs-rest counts in the multi-class case: TN = instances with actual ≠ c and predicted ≠ c
 *   (as the validation service's `num_true_negatives`), so NPV = TN / (predictions ≠ c).
 * - AUC: Wilcoxon–Mann–Whitney on the signed score conf·(+1 if predicted c else −1) with ties
 *   counted ½ (computed with mid-ranks, exact); +0 and −0 are a tie. 0 without positives, 1
 *   without negatives. The average AUC weights class c by its number of actual instances among
 *   the n predicted ones.
 * - weighted R²: ā in Σc·(a−ā)² is the plain (unweighted) mean of the actual values, as the
 *   2012 definition has it. Weighted RMSE/MAE divide by n·c̄ = Σc.
 * - target variances are sample variances (n − 1) over the n predicted instances (0 if n < 2).
 * - a predicted instance must carry a finite confidence in [0, 1], as the validation service
 *   required; otherwise the functions throw a RangeError naming the compound.
 */

/** One prediction of a cross-validation: a measured value of a test compound. */
export interface PredictionInstance<V extends string | number> {
  /** Compound URI. */
  readonly compound: string;
  /** Fold index, 0-based (shown as 1…k). */
  readonly fold: number;
  /** Measured value; null = the compound has no measured value (counted in `numWithoutClass`). */
  readonly measured: V | null;
  /** Predicted value; null = not predicted (outside the applicability domain, failure). */
  readonly predicted: V | null;
  /** Confidence in [0, 1] of the prediction; ignored (may be null) when `predicted` is null. */
  readonly confidence: number | null;
  /** A conformal model's p-value of each class, in the cross-validation's class order (classification). */
  readonly pValues?: readonly number[];
  /** A conformal model's interval at the cross-validation's confidence level (regression; ±Infinity when unbounded). */
  readonly interval?: readonly [number, number];
  /** The conformal p-value of the measured value (regression; classification: pValues of the measured class). */
  readonly truthPValue?: number;
}

export type ClassificationInstance = PredictionInstance<string>;
export type RegressionInstance = PredictionInstance<number>;

export interface CountStatistics {
  readonly numInstances: number;
  readonly numWithoutClass: number;
  readonly percentWithoutClass: number;
  readonly numUnpredicted: number;
  readonly percentUnpredicted: number;
  /** n: instances with a measured and a predicted value. */
  readonly numPredicted: number;
}

export interface ConfusionCell {
  readonly actual: string;
  readonly predicted: string;
  readonly value: number;
}

export interface ClassValueStatistics {
  readonly classValue: string;
  /** Predicted instances whose measured value is this class (the weight of its AUC). */
  readonly numActual: number;
  readonly numTruePositives: number;
  readonly numFalsePositives: number;
  readonly numTrueNegatives: number;
  readonly numFalseNegatives: number;
  readonly truePositiveRate: number;
  readonly trueNegativeRate: number;
  readonly falsePositiveRate: number;
  readonly falseNegativeRate: number;
  readonly positivePredictiveValue: number;
  readonly negativePredictiveValue: number;
  readonly fMeasure: number;
  readonly areaUnderRoc: number;
}

export interface ClassificationStatistics extends CountStatistics {
  readonly type: "classification";
  readonly classes: readonly string[];
  /** Classes without any measured instance. */
  readonly emptyClasses: readonly string[];
  /** All class pairs, actual-major in class order. */
  readonly confusionMatrix: readonly ConfusionCell[];
  readonly numCorrect: number;
  readonly numIncorrect: number;
  readonly percentCorrect: number;
  readonly percentIncorrect: number;
  readonly accuracy: number;
  readonly weightedAccuracy: number;
  readonly classStatistics: readonly ClassValueStatistics[];
  readonly averageAreaUnderRoc: number;
}

export interface RegressionStatistics extends CountStatistics {
  readonly type: "regression";
  readonly rootMeanSquaredError: number;
  readonly meanAbsoluteError: number;
  readonly sumSquaredError: number;
  readonly rSquare: number;
  readonly weightedRSquare: number;
  readonly weightedRootMeanSquaredError: number;
  readonly weightedMeanAbsoluteError: number;
  readonly sampleCorrelationCoefficient: number;
  readonly concordanceCorrelationCoefficient: number;
  readonly targetVarianceActual: number;
  readonly targetVariancePredicted: number;
}

export type ValidationStatistics = ClassificationStatistics | RegressionStatistics;

/** a / b, or 0 when b is 0 (or the result is not finite). */
export function ratio(a: number, b: number): number {
  if (b === 0) return 0;
  const r = a / b;
  return Number.isFinite(r) ? r : 0;
}

function checkConfidence(i: PredictionInstance<string | number>): number {
  const c = i.confidence;
  if (typeof c !== "number" || !Number.isFinite(c) || c < 0 || c > 1) {
    throw new RangeError(`confidence of the prediction for ${i.compound} must lie in [0, 1], got ${String(c)}`);
  }
  return c;
}

/** A predicted instance with a measured value, its confidence checked. */
interface Scored<V> {
  readonly actual: V;
  readonly predicted: V;
  readonly confidence: number;
}

function counts<V extends string | number>(instances: readonly PredictionInstance<V>[]): {
  counts: CountStatistics;
  scored: Scored<V>[];
} {
  let withoutClass = 0;
  let unpredicted = 0;
  const scored: Scored<V>[] = [];
  for (const i of instances) {
    if (i.measured === null) withoutClass++;
    else if (i.predicted === null) unpredicted++;
    else scored.push({ actual: i.measured, predicted: i.predicted, confidence: checkConfidence(i) });
  }
  const n = instances.length;
  return {
    counts: {
      numInstances: n,
      numWithoutClass: withoutClass,
      percentWithoutClass: 100 * ratio(withoutClass, n),
      numUnpredicted: unpredicted,
      percentUnpredicted: 100 * ratio(unpredicted, n - withoutClass),
      numPredicted: scored.length,
    },
    scored,
  };
}

/** Code-point order (= UTF-8 byte order), independent of locale. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k++) {
    const x = a.charCodeAt(k);
    const y = b.charCodeAt(k);
    // At the first different UTF-16 unit, surrogates (code points ≥ U+10000) rank above U+E000–U+FFFF.
    if (x !== y) return fixup(x) - fixup(y);
  }
  return a.length - b.length;
}

function fixup(u: number): number {
  return u >= 0xd800 && u <= 0xdfff ? u + 0x2000 : u >= 0xe000 ? u - 0x800 : u;
}

/** The caller's classes, then any other label met in the instances (code-point order). */
export function classList(classes: readonly string[], instances: readonly ClassificationInstance[]): string[] {
  const known = new Set(classes);
  const extra = new Set<string>();
  for (const i of instances) {
    for (const v of [i.measured, i.predicted]) if (v !== null && !known.has(v)) extra.add(v);
  }
  return [...new Set(classes), ...[...extra].sort(compareCodePoints)];
}

/**
 * Wilcoxon–Mann–Whitney AUC: P(score_pos > score_neg) + ½·P(score_pos = score_neg), by mid-ranks.
 * 0 when there are no positives, 1 when there are no negatives (the validation service's convention).
 */
export function wilcoxonAuc(scores: readonly number[], positive: readonly boolean[]): number {
  const idx = scores.map((_, k) => k).sort((a, b) => scores[a]! - scores[b]!);
  let pos = 0;
  let rankSum = 0;
  for (let s = 0; s < idx.length; ) {
    let e = s;
    while (e + 1 < idx.length && scores[idx[e + 1]!] === scores[idx[s]!]) e++;
    const midRank = (s + e) / 2 + 1; // ranks are 1-based
    for (let k = s; k <= e; k++) if (positive[idx[k]!]) (pos++, (rankSum += midRank));
    s = e + 1;
  }
  const neg = idx.length - pos;
  if (pos === 0) return 0;
  if (neg === 0) return 1;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** The signed score of the AUC for class c: +confidence if c was predicted, −confidence otherwise. */
export function signedScore(predicted: string, confidence: number, c: string): number {
  return predicted === c ? confidence : -confidence;
}

export function classificationStatistics(
  instances: readonly ClassificationInstance[],
  classes: readonly string[],
): ClassificationStatistics {
  const all = classList(classes, instances);
  const k = all.length;
  const at = new Map(all.map((c, i) => [c, i]));
  const { counts: cnt, scored } = counts(instances);
  const n = scored.length;
  const cm = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  let correct = 0;
  let confCorrect = 0;
  let confSum = 0;
  for (const s of scored) {
    cm[at.get(s.actual)!]![at.get(s.predicted)!]!++;
    confSum += s.confidence;
    if (s.actual === s.predicted) (correct++, (confCorrect += s.confidence));
  }
  const measured = new Set(instances.flatMap((i) => (i.measured === null ? [] : [i.measured])));
  const classStatistics = all.map((c, ci): ClassValueStatistics => {
    let rowSum = 0;
    let colSum = 0;
    for (let j = 0; j < k; j++) (rowSum += cm[ci]![j]!), (colSum += cm[j]![ci]!);
    const tp = cm[ci]![ci]!;
    const fn = rowSum - tp;
    const fp = colSum - tp;
    const tn = n - tp - fn - fp;
    const tpr = ratio(tp, tp + fn);
    const ppv = ratio(tp, tp + fp);
    const auc = wilcoxonAuc(
      scored.map((s) => signedScore(s.predicted, s.confidence, c)),
      scored.map((s) => s.actual === c),
    );
    return {
      classValue: c,
      numActual: rowSum,
      numTruePositives: tp,
      numFalsePositives: fp,
      numTrueNegatives: tn,
      numFalseNegatives: fn,
      truePositiveRate: tpr,
      trueNegativeRate: ratio(tn, tn + fp),
      falsePositiveRate: ratio(fp, fp + tn),
      falseNegativeRate: ratio(fn, tp + fn),
      positivePredictiveValue: ppv,
      negativePredictiveValue: ratio(tn, tn + fn),
      fMeasure: ratio(2 * ppv * tpr, ppv + tpr),
      areaUnderRoc: auc,
    };
  });
  let aucWeighted = 0;
  for (const cs of classStatistics) aucWeighted += cs.numActual * cs.areaUnderRoc;
  return {
    type: "classification",
    ...cnt,
    classes: all,
    emptyClasses: all.filter((c) => !measured.has(c)),
    confusionMatrix: all.flatMap((a, i) => all.map((p, j) => ({ actual: a, predicted: p, value: cm[i]![j]! }))),
    numCorrect: correct,
    numIncorrect: n - correct,
    percentCorrect: 100 * ratio(correct, n),
    percentIncorrect: 100 * ratio(n - correct, n),
    accuracy: ratio(correct, n),
    weightedAccuracy: ratio(confCorrect, confSum),
    classStatistics,
    averageAreaUnderRoc: ratio(aucWeighted, n),
  };
}

export function regressionStatistics(instances: readonly RegressionInstance[]): RegressionStatistics {
  const { counts: cnt, scored } = counts(instances);
  for (const s of scored) {
    if (!Number.isFinite(s.actual) || !Number.isFinite(s.predicted)) {
      throw new RangeError("measured and predicted values of a regression must be finite numbers");
    }
  }
  const n = scored.length;
  let sa = 0;
  let sp = 0;
  for (const s of scored) (sa += s.actual), (sp += s.predicted);
  const ma = ratio(sa, n);
  const mp = ratio(sp, n);
  let sse = 0;
  let sae = 0;
  let wsse = 0;
  let wsae = 0;
  let wsst = 0;
  let csum = 0;
  let saa = 0;
  let spp = 0;
  let sap = 0;
  for (const s of scored) {
    const e = s.predicted - s.actual;
    const c = s.confidence;
    const da = s.actual - ma;
    const dp = s.predicted - mp;
    sse += e * e;
    sae += Math.abs(e);
    wsse += c * e * e;
    wsae += c * Math.abs(e);
    wsst += c * da * da;
    csum += c;
    saa += da * da;
    spp += dp * dp;
    sap += da * dp;
  }
  const r2 = (num: number, den: number): number => (den === 0 ? 0 : 1 - ratio(num, den));
  return {
    type: "regression",
    ...cnt,
    rootMeanSquaredError: Math.sqrt(ratio(sse, n)),
    meanAbsoluteError: ratio(sae, n),
    sumSquaredError: sse,
    rSquare: r2(sse, saa),
    weightedRSquare: r2(wsse, wsst),
    weightedRootMeanSquaredError: Math.sqrt(ratio(wsse, csum)),
    weightedMeanAbsoluteError: ratio(wsae, csum),
    sampleCorrelationCoefficient: ratio(sap, Math.sqrt(saa * spp)),
    concordanceCorrelationCoefficient: ratio(2 * sap, saa + spp + n * (ma - mp) ** 2),
    targetVarianceActual: n < 2 ? 0 : saa / (n - 1),
    targetVariancePredicted: n < 2 ? 0 : spp / (n - 1),
  };
}

/** Statistics of one fold (0-based index). */
export interface FoldStatistics<S extends ValidationStatistics> {
  readonly fold: number;
  readonly statistics: S;
}

/** Pooled statistics and the same statistics per fold 0…numFolds−1. */
export function classificationCrossValidation(
  instances: readonly ClassificationInstance[],
  classes: readonly string[],
  numFolds: number,
): { pooled: ClassificationStatistics; folds: FoldStatistics<ClassificationStatistics>[] } {
  const all = classList(classes, instances);
  return {
    pooled: classificationStatistics(instances, all),
    folds: Array.from({ length: numFolds }, (_, f) => ({
      fold: f,
      statistics: classificationStatistics(instances.filter((i) => i.fold === f), all),
    })),
  };
}

export function regressionCrossValidation(
  instances: readonly RegressionInstance[],
  numFolds: number,
): { pooled: RegressionStatistics; folds: FoldStatistics<RegressionStatistics>[] } {
  return {
    pooled: regressionStatistics(instances),
    folds: Array.from({ length: numFolds }, (_, f) => ({
      fold: f,
      statistics: regressionStatistics(instances.filter((i) => i.fold === f)),
    })),
  };
}
