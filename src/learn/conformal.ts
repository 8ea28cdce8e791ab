/**
 * Conformal prediction (docs/conformal.md): p-values and prediction sets for classification,
 * prediction intervals for regression, and the validity figures a cross-validation reports.
 * Pure computation on typed arrays; the caller supplies the model's outputs.
 *
 * Calibration set: the random forest's out-of-bag predictions (Johansson et al. 2014), so no
 * training data is held back; any set of predictions of examples the model was not fitted on
 * will do (inductive conformal prediction).
 *
 * Classification is **Mondrian** (label-conditional): the calibration scores are kept per class,
 * and the p-value of class c compares the test example's score for c only with the calibration
 * examples of class c. Validity then holds within every class, not only on average — what a
 * user of an imbalanced endpoint (few actives) needs.
 *   - nonconformity of an example for class c (`nonconformity`): "inverse-probability"
 *     α = 1 − P̂(c) (the default), or "margin" α = max_{c'≠c} P̂(c') − P̂(c); P̂ the forest's vote
 *     share (out-of-bag for calibration examples). For two classes the margin is 1 − 2·P̂(c), a
 *     strictly increasing function of 1 − P̂(c), so both give identical p-values; for more classes
 *     they differ (the margin tends to more single-label sets, inverse probability to smaller
 *     sets on average; Johansson et al. 2017).
 *   - p_c = (#{i of class c: α_i ≥ α_c} + 1) / (n_c + 1); smoothed: (#{α_i > α_c} +
 *     τ·(#{α_i = α_c} + 1)) / (n_c + 1) with τ ∈ [0, 1) drawn by the seeded generator
 *     (src/numeric/random.ts), one τ per test example for all its classes. τ = 1 gives the
 *     unsmoothed value.
 *   - prediction set at significance ε = {c : p_c > ε}; credibility = the largest p-value,
 *     confidence = 1 − the second largest.
 *   - a class with no calibration example has p = 1 (unsmoothed; τ smoothed) for every test
 *     example: nothing speaks against it, so it is in every set. More generally the smallest
 *     p-value class c can reach is 1 / (n_c + 1): at ε below it, c is never excluded.
 *
 * Regression is **normalised** inductive conformal prediction (Papadopoulos et al. 2002, 2011):
 *   - α_i = |y_i − ŷ_i| / (σ_i + β), σ_i ≥ 0 a difficulty estimate the caller computes (the
 *     spread of the trees' predictions, the mean distance to the k nearest training neighbours,
 *     or 0 everywhere for intervals of one width), β > 0 (default DEFAULT_BETA = 0.01, in the
 *     units of σ: it only keeps the ratio finite where σ = 0 and bounds the influence of tiny σ);
 *   - at significance ε the interval is ŷ ± q·(σ + β), q = the k-th smallest calibration α,
 *     k = ⌈(1 − ε)(n + 1)⌉; when k > n there is no such α and the interval is (−∞, +∞)
 *     (`bounded: false`), which is the honest answer with too few calibration examples.
 *
 * Costs: calibration sorts once (O(n log n)); a test example costs one binary search per class,
 * a regression quantile one array read.
 */
import { mulberry32Unit } from "../numeric/random.ts";

/** β of the normalised regression score α = |y − ŷ| / (σ + β), in the units of σ. */
export const DEFAULT_BETA = 0.01;
/** The service's default confidence level of regression intervals (significance 0.2). */
export const DEFAULT_CONFIDENCE_LEVEL = 0.8;

export type NonconformityMeasure = "inverse-probability" | "margin";

// ---------------------------------------------------------------------------------------------
// sorted arrays

/** Number of a[0..n) (ascending) strictly below t: the first index with a[i] ≥ t. */
function lowerBound(a: Float64Array, t: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of a[0..n) (ascending) at most t: the first index with a[i] > t. */
function upperBound(a: Float64Array, t: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function checkSignificance(eps: number, where: string): void {
  if (!(eps > 0 && eps < 1)) throw new RangeError(`${where}: significance ${eps} outside (0, 1)`);
}

function checkClasses(nClasses: number, where: string): void {
  if (!Number.isInteger(nClasses) || nClasses < 1) throw new RangeError(`${where}: nClasses ${nClasses} is not a positive integer`);
}

// ---------------------------------------------------------------------------------------------
// classification

/**
 * Nonconformity scores of m examples for every class from class probabilities (vote shares),
 * both row-major m × nClasses. A row with a NaN probability gives NaN scores (an example that was
 * never out of bag); calibration skips such rows.
 */
export function nonconformity(
  proba: ArrayLike<number>,
  nClasses: number,
  measure: NonconformityMeasure = "inverse-probability",
): Float64Array {
  checkClasses(nClasses, "nonconformity");
  if (proba.length % nClasses !== 0) throw new RangeError("nonconformity: length is not a multiple of nClasses");
  const out = new Float64Array(proba.length);
  const K = nClasses;
  for (let base = 0; base < proba.length; base += K) {
    if (measure === "inverse-probability") {
      for (let c = 0; c < K; c++) out[base + c] = 1 - proba[base + c]!;
      continue;
    }
    // margin: the best other class's probability minus this class's; with one class, −P̂
    let first = -Infinity;
    let second = -Infinity;
    let firstC = -1;
    for (let c = 0; c < K; c++) {
      const v = proba[base + c]!;
      if (v > first) {
        second = first;
        first = v;
        firstC = c;
      } else if (v > second) second = v;
    }
    let nan = false;
    for (let c = 0; c < K; c++) if (Number.isNaN(proba[base + c]!)) nan = true;
    for (let c = 0; c < K; c++) {
      const other = c === firstC ? second : first;
      out[base + c] = nan ? NaN : (K === 1 ? 0 : other) - proba[base + c]!;
    }
  }
  return out;
}

/** Calibration of a Mondrian classifier: the calibration scores of each class, ascending. */
export interface MondrianCalibration {
  readonly nClasses: number;
  /** scores[c]: the nonconformity scores of the calibration examples of class c, sorted ascending. */
  readonly scores: readonly Float64Array[];
  /** Calibration examples per class (scores[c].length). */
  readonly counts: Int32Array;
  /** Examples left out because their score was NaN (never out of bag). */
  readonly skipped: number;
}

/**
 * Calibrate from each calibration example's label and its score for that label
 * (`ownScores[i]` = α of example i for class labels[i]). NaN scores are skipped.
 */
export function calibrateMondrian(labels: ArrayLike<number>, ownScores: ArrayLike<number>, nClasses: number): MondrianCalibration {
  checkClasses(nClasses, "calibrateMondrian");
  if (labels.length !== ownScores.length) throw new RangeError("calibrateMondrian: labels and scores differ in length");
  const counts = new Int32Array(nClasses);
  let skipped = 0;
  for (let i = 0; i < labels.length; i++) {
    const c = labels[i]!;
    if (!Number.isInteger(c) || c < 0 || c >= nClasses) throw new RangeError(`calibrateMondrian: label ${c} of example ${i} outside 0..${nClasses - 1}`);
    if (Number.isNaN(ownScores[i]!)) skipped++;
    else counts[c]!++;
  }
  const scores = Array.from(counts, (n) => new Float64Array(n));
  const fill = new Int32Array(nClasses);
  for (let i = 0; i < labels.length; i++) {
    const a = ownScores[i]!;
    if (Number.isNaN(a)) continue;
    const c = labels[i]!;
    scores[c]![fill[c]!++] = a;
  }
  for (const s of scores) s.sort();
  return { nClasses, scores, counts, skipped };
}

/**
 * Calibrate from class probabilities (row-major n × nClasses, e.g. out-of-bag vote shares) and
 * labels: the scores of `nonconformity` for each example's own class. Rows with NaN are skipped.
 */
export function calibrateMondrianFromProba(
  proba: ArrayLike<number>,
  labels: ArrayLike<number>,
  nClasses: number,
  measure: NonconformityMeasure = "inverse-probability",
): MondrianCalibration {
  if (proba.length !== labels.length * nClasses) throw new RangeError("calibrateMondrianFromProba: proba is not labels × nClasses");
  const alpha = nonconformity(proba, nClasses, measure);
  const own = new Float64Array(labels.length);
  for (let i = 0; i < labels.length; i++) {
    const c = labels[i]!;
    if (!Number.isInteger(c) || c < 0 || c >= nClasses) throw new RangeError(`calibrateMondrianFromProba: label ${c} of example ${i} outside 0..${nClasses - 1}`);
    own[i] = alpha[i * nClasses + c]!;
  }
  return calibrateMondrian(labels, own, nClasses);
}

/**
 * The p-value of every class for one test example, given its score for each class (`testScores`,
 * length nClasses). `tau` in [0, 1] smooths (undefined: unsmoothed, the same as τ = 1).
 */
export function pValues(calib: MondrianCalibration, testScores: ArrayLike<number>, tau?: number): Float64Array {
  const K = calib.nClasses;
  if (testScores.length !== K) throw new RangeError(`pValues: ${testScores.length} scores for ${K} classes`);
  if (tau !== undefined && !(tau >= 0 && tau <= 1)) throw new RangeError(`pValues: tau ${tau} outside [0, 1]`);
  const out = new Float64Array(K);
  pValuesInto(calib, testScores, 0, tau, out, 0, "pValues");
  return out;
}

function pValuesInto(
  calib: MondrianCalibration,
  scores: ArrayLike<number>,
  from: number,
  tau: number | undefined,
  out: Float64Array,
  to: number,
  where: string,
): void {
  const K = calib.nClasses;
  for (let c = 0; c < K; c++) {
    const t = scores[from + c]!;
    if (Number.isNaN(t)) throw new RangeError(`${where}: score NaN (example ${from / K}, class ${c})`);
    const a = calib.scores[c]!;
    const n = a.length;
    const below = lowerBound(a, t); // α_i < t
    if (tau === undefined) {
      out[to + c] = (n - below + 1) / (n + 1);
    } else {
      const atMost = upperBound(a, t); // α_i ≤ t
      out[to + c] = (n - atMost + tau * (atMost - below + 1)) / (n + 1);
    }
  }
}

export interface SmoothingOptions {
  /** Seed of the τ draws (mulberry32Unit): the i-th test example gets the i-th draw. */
  readonly seed: number;
}

/**
 * p-values of m test examples (scores row-major m × nClasses) → row-major m × nClasses.
 * With `smoothing`, example i is smoothed with the i-th draw of mulberry32Unit(seed).
 */
export function pValuesBatch(calib: MondrianCalibration, testScores: ArrayLike<number>, smoothing?: SmoothingOptions): Float64Array {
  const K = calib.nClasses;
  if (testScores.length % K !== 0) throw new RangeError("pValuesBatch: length is not a multiple of nClasses");
  const out = new Float64Array(testScores.length);
  const rand = smoothing === undefined ? null : mulberry32Unit(smoothing.seed);
  for (let base = 0; base < testScores.length; base += K) {
    pValuesInto(calib, testScores, base, rand === null ? undefined : rand(), out, base, "pValuesBatch");
  }
  return out;
}

/** The prediction set at significance ε: the classes (ascending) whose p-value exceeds ε. */
export function predictionSet(p: ArrayLike<number>, significance: number): Int32Array {
  checkSignificance(significance, "predictionSet");
  const set: number[] = [];
  for (let c = 0; c < p.length; c++) if (p[c]! > significance) set.push(c);
  return Int32Array.from(set);
}

export interface ForcedPrediction {
  /** The class with the largest p-value (the lowest index on ties). */
  readonly label: number;
  /** The largest p-value: how typical the example is of its most plausible class. */
  readonly credibility: number;
  /** 1 − the second largest p-value: the largest 1 − ε at which the set is that one class at most. */
  readonly confidence: number;
}

/** The single-label prediction with its credibility and confidence (Vovk et al. 2005). */
export function forcedPrediction(p: ArrayLike<number>): ForcedPrediction {
  if (p.length === 0) throw new RangeError("forcedPrediction: no class");
  let best = 0;
  for (let c = 1; c < p.length; c++) if (p[c]! > p[best]!) best = c;
  let second = 0;
  for (let c = 0; c < p.length; c++) if (c !== best && p[c]! > second) second = p[c]!;
  return { label: best, credibility: p[best]!, confidence: 1 - second };
}

export interface ClassificationValidity {
  readonly significance: number;
  /** Test examples. */
  readonly n: number;
  /** Examples whose true class is not in the set. */
  readonly errors: number;
  /** errors / n: at most ε in expectation when the calibration is valid. */
  readonly errorRate: number;
  /** The error rate among the test examples of each class (NaN for a class without any). */
  readonly classErrorRate: Float64Array;
  /** Mean number of classes in the set. */
  readonly meanSetSize: number;
  /** Fraction of sets with exactly one class (efficiency). */
  readonly singletonRate: number;
  /** Fraction of empty sets. */
  readonly emptyRate: number;
}

/**
 * Observed validity and efficiency over m test examples (p-values row-major m × nClasses, their
 * true labels) at each significance in `significances`.
 */
export function classificationValidity(
  p: ArrayLike<number>,
  labels: ArrayLike<number>,
  nClasses: number,
  significances: readonly number[],
): ClassificationValidity[] {
  checkClasses(nClasses, "classificationValidity");
  const K = nClasses;
  const m = labels.length;
  if (p.length !== m * K) throw new RangeError("classificationValidity: p-values are not labels × nClasses");
  const perClass = new Int32Array(K);
  for (let i = 0; i < m; i++) {
    const c = labels[i]!;
    if (!Number.isInteger(c) || c < 0 || c >= K) throw new RangeError(`classificationValidity: label ${c} of example ${i} outside 0..${K - 1}`);
    perClass[c]!++;
  }
  return significances.map((eps) => {
    checkSignificance(eps, "classificationValidity");
    let errors = 0;
    let size = 0;
    let singletons = 0;
    let empty = 0;
    const classErrors = new Int32Array(K);
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (let c = 0; c < K; c++) if (p[i * K + c]! > eps) s++;
      const y = labels[i]!;
      if (!(p[i * K + y]! > eps)) {
        errors++;
        classErrors[y]!++;
      }
      size += s;
      if (s === 1) singletons++;
      else if (s === 0) empty++;
    }
    return {
      significance: eps,
      n: m,
      errors,
      errorRate: m === 0 ? NaN : errors / m,
      classErrorRate: Float64Array.from(classErrors, (e, c) => (perClass[c] === 0 ? NaN : e / perClass[c]!)),
      meanSetSize: m === 0 ? NaN : size / m,
      singletonRate: m === 0 ? NaN : singletons / m,
      emptyRate: m === 0 ? NaN : empty / m,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// regression

function checkBeta(beta: number, where: string): void {
  if (!(beta > 0 && Number.isFinite(beta))) throw new RangeError(`${where}: beta ${beta} is not a positive number`);
}

function checkRegressionInputs(yhat: ArrayLike<number>, sigma: ArrayLike<number>, where: string, y?: ArrayLike<number>): void {
  if (sigma.length !== yhat.length || (y !== undefined && y.length !== yhat.length)) {
    throw new RangeError(`${where}: inputs differ in length`);
  }
}

/** α_i = |y_i − ŷ_i| / (σ_i + β); NaN where any input is NaN. σ must be ≥ 0. */
export function regressionNonconformity(
  y: ArrayLike<number>,
  yhat: ArrayLike<number>,
  sigma: ArrayLike<number>,
  beta: number = DEFAULT_BETA,
): Float64Array {
  checkBeta(beta, "regressionNonconformity");
  checkRegressionInputs(yhat, sigma, "regressionNonconformity", y);
  const out = new Float64Array(y.length);
  for (let i = 0; i < y.length; i++) {
    const s = sigma[i]!;
    if (s < 0 || s === Infinity) throw new RangeError(`regressionNonconformity: sigma ${s} of example ${i} is not a finite value ≥ 0`);
    out[i] = Math.abs(y[i]! - yhat[i]!) / (s + beta);
  }
  return out;
}

export interface RegressionCalibration {
  /** The calibration scores α, ascending (NaN-free). */
  readonly alphas: Float64Array;
  readonly beta: number;
  /** Examples left out because a value was NaN (never out of bag). */
  readonly skipped: number;
}

export interface RegressionCalibrationOptions {
  /** β (default DEFAULT_BETA). */
  readonly beta?: number;
}

/** Calibrate from the calibration examples' values, predictions (out of bag) and difficulties. */
export function calibrateRegression(
  y: ArrayLike<number>,
  yhat: ArrayLike<number>,
  sigma: ArrayLike<number>,
  options: RegressionCalibrationOptions = {},
): RegressionCalibration {
  const beta = options.beta ?? DEFAULT_BETA;
  const alpha = regressionNonconformity(y, yhat, sigma, beta);
  let kept = 0;
  for (let i = 0; i < alpha.length; i++) if (!Number.isNaN(alpha[i]!)) alpha[kept++] = alpha[i]!;
  const alphas = alpha.slice(0, kept).sort();
  return { alphas, beta, skipped: alpha.length - kept };
}

export interface ConformalQuantile {
  /** k = ⌈(1 − ε)(n + 1)⌉, 1-based. */
  readonly index: number;
  /** The k-th smallest calibration α, or Infinity when k > n. */
  readonly q: number;
  /** false when k > n: the interval is the whole line. */
  readonly bounded: boolean;
}

/**
 * The calibration quantile at significance ε. (1 − ε)(n + 1) is computed in floating point, where
 * an integer can come out a few units in the last place too large (0.3·10 = 3.0000000000000004),
 * so 1e-9 is subtracted before rounding up; exact for n below a million.
 */
export function conformalQuantile(calib: RegressionCalibration, significance: number): ConformalQuantile {
  checkSignificance(significance, "conformalQuantile");
  const n = calib.alphas.length;
  const index = Math.max(1, Math.ceil((1 - significance) * (n + 1) - 1e-9));
  if (index > n) return { index, q: Infinity, bounded: false };
  return { index, q: calib.alphas[index - 1]!, bounded: true };
}

export interface PredictionIntervals extends ConformalQuantile {
  readonly significance: number;
  /** ŷ − q·(σ + β) (−Infinity when unbounded). */
  readonly lower: Float64Array;
  /** ŷ + q·(σ + β) (+Infinity when unbounded). */
  readonly upper: Float64Array;
}

/** Intervals for m test examples (their predictions and difficulties) at significance ε = 1 − confidence level. */
export function predictionIntervals(
  calib: RegressionCalibration,
  yhat: ArrayLike<number>,
  sigma: ArrayLike<number>,
  significance: number,
): PredictionIntervals {
  checkRegressionInputs(yhat, sigma, "predictionIntervals");
  const qt = conformalQuantile(calib, significance);
  const m = yhat.length;
  const lower = new Float64Array(m);
  const upper = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    const s = sigma[i]!;
    const v = yhat[i]!;
    if (!(s >= 0 && s < Infinity)) throw new RangeError(`predictionIntervals: sigma ${s} of example ${i} is not a finite value ≥ 0`);
    if (!Number.isFinite(v)) throw new RangeError(`predictionIntervals: prediction ${v} of example ${i} is not finite`);
    if (!qt.bounded) {
      lower[i] = -Infinity;
      upper[i] = Infinity;
    } else {
      const half = qt.q * (s + calib.beta);
      lower[i] = v - half;
      upper[i] = v + half;
    }
  }
  return { ...qt, significance, lower, upper };
}

/**
 * The conformal p-value of a value y for a test example (its prediction ŷ and difficulty σ):
 * α = |y − ŷ| / (σ + β) against the calibration scores, p = (#{α_i ≥ α} + 1) / (n + 1) (ties
 * count against y, as for classes). y lies outside the interval at significance ε exactly when
 * p ≤ ε (docs/conformal.md "Regression intervals"), so with the p-value of the measured value a
 * validation knows the error at every ε, not only at the interval's level.
 */
export function regressionPValue(calib: RegressionCalibration, y: number, yhat: number, sigma: number): number {
  if (!Number.isFinite(y) || !Number.isFinite(yhat)) throw new RangeError(`regressionPValue: value ${y} or prediction ${yhat} is not finite`);
  if (!(sigma >= 0 && sigma < Infinity)) throw new RangeError(`regressionPValue: sigma ${sigma} is not a finite value ≥ 0`);
  const alpha = Math.abs(y - yhat) / (sigma + calib.beta);
  const n = calib.alphas.length;
  return (n - lowerBound(calib.alphas, alpha) + 1) / (n + 1);
}

export interface RegressionValidity {
  readonly significance: number;
  readonly n: number;
  /** Test values outside their interval (the interval is closed). */
  readonly errors: number;
  readonly errorRate: number;
  /** Mean of upper − lower (Infinity when unbounded). */
  readonly meanWidth: number;
  /** Median of upper − lower. */
  readonly medianWidth: number;
  readonly bounded: boolean;
}

/** Observed validity and efficiency over m test examples at each significance in `significances`. */
export function regressionValidity(
  calib: RegressionCalibration,
  y: ArrayLike<number>,
  yhat: ArrayLike<number>,
  sigma: ArrayLike<number>,
  significances: readonly number[],
): RegressionValidity[] {
  checkRegressionInputs(yhat, sigma, "regressionValidity", y);
  const m = y.length;
  return significances.map((eps) => {
    const iv = predictionIntervals(calib, yhat, sigma, eps);
    let errors = 0;
    let sum = 0;
    const widths = new Float64Array(m);
    for (let i = 0; i < m; i++) {
      const v = y[i]!;
      if (Number.isNaN(v)) throw new RangeError(`regressionValidity: value NaN of example ${i}`);
      if (!(v >= iv.lower[i]! && v <= iv.upper[i]!)) errors++;
      widths[i] = iv.upper[i]! - iv.lower[i]!;
      sum += widths[i]!;
    }
    widths.sort();
    const median = m === 0 ? NaN : m % 2 === 1 ? widths[(m - 1) / 2]! : (widths[m / 2 - 1]! + widths[m / 2]!) / 2;
    return {
      significance: eps,
      n: m,
      errors,
      errorRate: m === 0 ? NaN : errors / m,
      meanWidth: m === 0 ? NaN : sum / m,
      medianWidth: median,
      bounded: iv.bounded,
    };
  });
}
