/**
 * Coverage and conformal calibration of a cross-validation (docs/cross-validation.md "Coverage"
 * and "Conformal calibration"), from its pooled prediction instances.
 *
 * **Coverage.** How good the predictions are that one keeps when one keeps only the most
 * confident ones: at coverage 10 %, 20 % … 100 % of ALL instances with a measured value (the
 * unpredicted ones count in the denominator, so a model that leaves compounds out cannot reach
 * 100 %), the accuracy or RMSE of the k = ⌈coverage · instances⌉ most confident predictions, and
 * the confidence threshold that keeps them. The curve is curves.ts's cumulative
 * `accuracyByConfidence` / `rmseByConfidence`: a point is the first of its steps that keeps at
 * least k predictions, so predictions tied with the last one kept are kept too and the actual
 * coverage (kept / instances) may exceed the nominal one. A coverage the predictions cannot reach
 * has no point; instead the curve ends with a point of all predictions, at the coverage they
 * reach (its nominal coverage is that share). A conformal regressor's predictions are ordered by
 * their interval's width, narrowest first (the same curve, with the confidence 1 / (1 + width)),
 * and the threshold is the widest interval kept: the width is what its confidence means, and it
 * is comparable across folds (the kernel model's confidence, 1 − σ, is scaled by each fold's own
 * calibration quantile to give the width).
 *
 * **Calibration** (conformal cross-validations only: instances that carry p-values). An instance
 * is an error at significance ε when the p-value of its measured value is ≤ ε: its class is not
 * in the prediction set {c : p_c > ε}, or its value lies outside the interval at confidence
 * 1 − ε. At ε = 0.05, 0.10 … 0.50 the observed error rate over the instances with such a p-value
 * (valid: about ε, not above); and the efficiency: for classes the mean prediction-set size and
 * the shares of single-class and empty sets at each ε (learn/conformal.ts
 * `classificationValidity`), for numbers the mean width of the stored intervals (at the
 * cross-validation's confidence level only) and the share of measured values outside them.
 */
import { classificationValidity } from "../learn/conformal.ts";
import { accuracyByConfidence, rmseByConfidence, type ConfidencePoint } from "./curves.ts";
import type { ClassificationInstance, RegressionInstance } from "./statistics.ts";

/** Nominal coverages: 0.1, 0.2, …, 1. */
export const COVERAGE_LEVELS: readonly number[] = Array.from({ length: 10 }, (_, k) => (k + 1) / 10);
/** Significances of the calibration: 0.05, 0.10, …, 0.50 (each the double nearest to 5k/100). */
export const CALIBRATION_SIGNIFICANCES: readonly number[] = Array.from({ length: 10 }, (_, k) => (5 * (k + 1)) / 100);

export interface CoveragePoint {
  /** The nominal coverage (0.1 … 1). */
  readonly coverage: number;
  /** Predictions kept: the most confident, at least ⌈coverage · total⌉ (ties with the last kept included). */
  readonly n: number;
  /** n / total. */
  readonly actualCoverage: number;
  /** The lowest confidence kept (order "confidence"), or the widest interval kept (order "interval width"). */
  readonly threshold: number;
  /** Accuracy or RMSE of the kept predictions. */
  readonly value: number;
}

export interface Coverage {
  readonly metric: "accuracy" | "rmse";
  readonly order: "confidence" | "interval width";
  /** Instances with a measured value: the denominator of coverage. */
  readonly total: number;
  readonly points: readonly CoveragePoint[];
}

/** The points of a cumulative curve at the coverage levels (see the module comment). */
function atLevels(curve: readonly ConfidencePoint[], total: number, threshold: (p: ConfidencePoint) => number): CoveragePoint[] {
  const out: CoveragePoint[] = [];
  let j = 0;
  for (const coverage of COVERAGE_LEVELS) {
    const k = Math.max(1, Math.ceil(coverage * total - 1e-9));
    while (j < curve.length && curve[j]!.n < k) j++;
    if (j === curve.length) break;
    const p = curve[j]!;
    out.push({ coverage, n: p.n, actualCoverage: p.n / total, threshold: threshold(p), value: p.value });
  }
  // not every instance predicted: a last point with all predictions, at the coverage they reach
  const last = curve.at(-1);
  if (last && last.n > (out.at(-1)?.n ?? 0)) out.push({ coverage: last.n / total, n: last.n, actualCoverage: last.n / total, threshold: threshold(last), value: last.value });
  return out;
}

function measuredCount(instances: readonly { readonly measured: unknown }[]): number {
  let n = 0;
  for (const i of instances) if (i.measured !== null) n++;
  return n;
}

/** Accuracy versus coverage, most confident first. */
export function classificationCoverage(instances: readonly ClassificationInstance[]): Coverage {
  const total = measuredCount(instances);
  return { metric: "accuracy", order: "confidence", total, points: atLevels(accuracyByConfidence(instances), total, (p) => p.confidence) };
}

const width = (i: RegressionInstance): number => (i.interval ? i.interval[1] - i.interval[0] : Infinity);

/** RMSE versus coverage, most confident first (conformal predictions: narrowest interval first). */
export function regressionCoverage(instances: readonly RegressionInstance[]): Coverage {
  const total = measuredCount(instances);
  if (!instances.some((i) => i.predicted !== null && i.interval !== undefined)) {
    return { metric: "rmse", order: "confidence", total, points: atLevels(rmseByConfidence(instances), total, (p) => p.confidence) };
  }
  const ranked = instances.map((i) => (i.predicted === null ? i : { ...i, confidence: 1 / (1 + width(i)) }));
  const widths = ranked.flatMap((i) => (i.predicted === null || i.measured === null ? [] : [width(i)])).sort((a, b) => a - b);
  return { metric: "rmse", order: "interval width", total, points: atLevels(rmseByConfidence(ranked), total, (p) => widths[p.n - 1]!) };
}

export interface CalibrationPoint {
  readonly significance: number;
  /** Instances whose measured value has a p-value ≤ the significance. */
  readonly errors: number;
  readonly errorRate: number;
  /** Classification: mean number of classes in the prediction set {c : p_c > ε}. */
  readonly meanSetSize?: number;
  /** Classification: share of prediction sets with exactly one class. */
  readonly singleClassRate?: number;
  /** Classification: share of empty prediction sets. */
  readonly emptySetRate?: number;
}

export interface ConformalCalibration {
  readonly type: "classification" | "regression";
  /** Instances with a measured value and its p-value: the denominator of the error rates. */
  readonly n: number;
  readonly points: readonly CalibrationPoint[];
  /** Regression: the confidence level of the stored intervals. */
  readonly confidenceLevel?: number;
  /** Regression: mean width of the stored intervals (Infinity when one is unbounded). */
  readonly meanIntervalWidth?: number;
  /** Regression: share of measured values outside their stored interval (closed). */
  readonly intervalErrorRate?: number;
}

/**
 * The calibration of a conformal classification: instances with a measured class and the
 * p-values of the classes (`pValues[c]` for class `classes[c]`); null when none has p-values.
 */
export function classificationCalibration(instances: readonly ClassificationInstance[], classes: readonly string[]): ConformalCalibration | null {
  const rows = instances.filter((i) => i.measured !== null && i.pValues !== undefined);
  if (rows.length === 0) return null;
  const K = classes.length;
  const at = new Map(classes.map((c, k) => [c, k]));
  const p = new Float64Array(rows.length * K);
  const labels = new Int32Array(rows.length);
  rows.forEach((r, i) => {
    const y = at.get(r.measured!);
    if (y === undefined || r.pValues!.length !== K) throw new RangeError(`the p-values of the prediction for ${r.compound} do not match the classes ${classes.join(", ")}`);
    labels[i] = y;
    p.set(r.pValues!, i * K);
  });
  const points = classificationValidity(p, labels, K, CALIBRATION_SIGNIFICANCES).map((v) => ({
    significance: v.significance,
    errors: v.errors,
    errorRate: v.errorRate,
    meanSetSize: v.meanSetSize,
    singleClassRate: v.singletonRate,
    emptySetRate: v.emptyRate,
  }));
  return { type: "classification", n: rows.length, points };
}

/**
 * The calibration of a conformal regression: instances with a measured value and its p-value
 * (`truthPValue`), and the stored intervals at `confidenceLevel`; null when none has a p-value.
 */
export function regressionCalibration(instances: readonly RegressionInstance[], confidenceLevel?: number): ConformalCalibration | null {
  const rows = instances.filter((i) => i.measured !== null && i.truthPValue !== undefined);
  if (rows.length === 0) return null;
  const points = CALIBRATION_SIGNIFICANCES.map((significance) => {
    let errors = 0;
    for (const r of rows) if (r.truthPValue! <= significance) errors++;
    return { significance, errors, errorRate: errors / rows.length };
  });
  const withInterval = rows.filter((r) => r.interval !== undefined);
  let sum = 0;
  let outside = 0;
  for (const r of withInterval) {
    const [lo, hi] = r.interval!;
    sum += hi - lo;
    if (!(r.measured! >= lo && r.measured! <= hi)) outside++;
  }
  return {
    type: "regression",
    n: rows.length,
    points,
    ...(confidenceLevel === undefined ? {} : { confidenceLevel }),
    ...(withInterval.length === 0 ? {} : { meanIntervalWidth: sum / withInterval.length, intervalErrorRate: outside / withInterval.length }),
  };
}

/** The calibration point at significance ε (one of CALIBRATION_SIGNIFICANCES), if any. */
export function calibrationAt(c: ConformalCalibration | null, significance: number): CalibrationPoint | undefined {
  return c?.points.find((p) => Math.abs(p.significance - significance) < 1e-12);
}
