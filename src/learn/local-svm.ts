/**
 * Local SVM classification and regression on a query's neighbours (lazar's prediction
 * algorithms "local_svm_classification / local_svm_regression", the reference's caret `svmRadial` setup):
 *
 * - all neighbour activities identical → that value (no training);
 * - X = neighbour rows (hits × pValue fingerprints, or raw descriptors); columns missing in the
 *   query or a neighbour are dropped, then near-zero-variance columns (caret `nearZeroVar`:
 *   constant, or most/second-most frequent value > 95/5 with < 10 % distinct values) and highly
 *   correlated ones (caret `findCorrelation`, |r| > 0.9); centre and scale;
 * - RBF kernel exp(−σ‖x − x'‖²), σ from kernlab's `sigest` as caret uses it: mean of 1/q₀.₉ and
 *   1/q₀.₁ of the non-zero squared distances (here over all pairs, deterministic, instead of a
 *   random sample of pairs);
 * - C tuned over caret's tuneLength = 8 grid 2^(−2..5) by leave-group-out resampling (10
 *   stratified partitions, 75 % training, seeded), best mean Accuracy (classification) or lowest
 *   mean RMSE (regression); final model on all neighbours with that C;
 * - training performance = that mean Accuracy, or the mean R² (squared correlation) at the lowest
 *   RMSE; NaN or < min_train_performance (default 0.1) → the prediction is censored.
 * ε-SVR works on standardised y (ε = 0.1), as kernlab scales y for regression.
 *
 * Deviations (documented; none changes what is predicted in kind): centring/scaling and σ are
 * estimated once on all neighbours rather than inside each resample (caret also estimates σ once);
 * the resampling RNG is our own seeded PRNG, so partitions differ from R's `set.seed(1)`.
 * The Gram matrix is computed once per prediction and every fit uses a precomputed kernel.
 */

import { KernelSvm, type Libsvm, type SvmKind } from "./svm.ts";
import { mulberry32Unit, shuffle } from "../numeric/random.ts";

export interface LocalSvmOptions {
  readonly kind: SvmKind;
  /** Cost grid (default 2^(−2..5), caret's tuneLength 8). */
  readonly costs?: readonly number[];
  /** Number of leave-group-out resamples (default 10). */
  readonly resamples?: number;
  /** Training fraction of a resample (default 0.75). */
  readonly trainFraction?: number;
  /** PRNG seed of the partitions (default 1). */
  readonly seed?: number;
  /** Censoring threshold (default 0.1). */
  readonly minTrainPerformance?: number;
  /** ε of ε-SVR on standardised y (default 0.1). */
  readonly epsilon?: number;
  /** Correlation cutoff of the column filter (default 0.9). */
  readonly correlationCutoff?: number;
}

export interface LocalSvmResult {
  /** Class index or value; null when censored. */
  readonly value: number | null;
  /** Mean Accuracy or R² over the resamples at the chosen C (NaN when no model was trained). */
  readonly trainPerformance: number;
  /** Chosen cost and kernel width (NaN when no model was trained). */
  readonly cost: number;
  readonly sigma: number;
  /** Number of columns left after filtering. */
  readonly columns: number;
  /** Why there is no value (censoring), or why no model was needed. */
  readonly note?: string;
}

export const DEFAULT_COSTS: readonly number[] = [0.25, 0.5, 1, 2, 4, 8, 16, 32];

/** R's default (type 7) quantile of sorted values. */
function quantile7(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** caret nearZeroVar (freqCut 95/5, uniqueCut 10): true = drop the column. */
function nearZeroVar(col: Float64Array): boolean {
  const counts = new Map<number, number>();
  for (const v of col) counts.set(v, (counts.get(v) ?? 0) + 1);
  if (counts.size <= 1) return true;
  const c = [...counts.values()].sort((a, b) => b - a);
  const freqRatio = c[0]! / c[1]!;
  const percentUnique = (100 * counts.size) / col.length;
  return freqRatio > 95 / 5 && percentUnique < 10;
}

/**
 * caret findCorrelation (non-exact variant): columns ordered by decreasing mean |r|; for each
 * pair above the cutoff with both still kept, drop the one with the larger mean |r|.
 */
function correlatedColumns(cols: Float64Array[], cutoff: number): Set<number> {
  const p = cols.length;
  const n = cols[0]?.length ?? 0;
  const z = cols.map((c) => {
    let m = 0;
    for (const v of c) m += v;
    m /= n;
    let ss = 0;
    const d = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      d[i] = c[i]! - m;
      ss += d[i]! * d[i]!;
    }
    const s = Math.sqrt(ss);
    for (let i = 0; i < n; i++) d[i] = s > 0 ? d[i]! / s : 0;
    return d;
  });
  const r = new Float64Array(p * p);
  for (let a = 0; a < p; a++) {
    r[a * p + a] = 1;
    for (let b = a + 1; b < p; b++) {
      let s = 0;
      const za = z[a]!;
      const zb = z[b]!;
      for (let i = 0; i < n; i++) s += za[i]! * zb[i]!;
      r[a * p + b] = r[b * p + a] = Math.abs(s);
    }
  }
  const meanAbs = new Float64Array(p);
  for (let a = 0; a < p; a++) {
    let s = 0;
    for (let b = 0; b < p; b++) s += r[a * p + b]!;
    meanAbs[a] = s / p;
  }
  const order = [...meanAbs.keys()].sort((a, b) => meanAbs[b]! - meanAbs[a]! || a - b);
  const drop = new Set<number>();
  for (let i = 0; i < order.length; i++) {
    const a = order[i]!;
    if (drop.has(a)) continue;
    for (let j = i + 1; j < order.length; j++) {
      const b = order[j]!;
      if (drop.has(b) || r[a * p + b]! <= cutoff) continue;
      drop.add(meanAbs[a]! >= meanAbs[b]! ? a : b);
      if (drop.has(a)) break;
    }
  }
  return drop;
}

/** Stratified leave-group-out partitions (training index sets), deterministic for a seed. */
export function partitions(y: ArrayLike<number>, kind: SvmKind, times: number, fraction: number, seed: number): Int32Array[] {
  const n = y.length;
  const strata = new Map<number, number[]>();
  const add = (key: number, i: number): void => {
    const g = strata.get(key);
    if (g) g.push(i);
    else strata.set(key, [i]);
  };
  if (kind === "classification") {
    for (let i = 0; i < n; i++) add(y[i]!, i);
  } else {
    // caret: numeric y cut at its quantiles into (up to) 4 groups.
    const sorted = Float64Array.from(y).sort();
    const breaks = [...new Set([0.25, 0.5, 0.75].map((p) => quantile7(sorted, p)))];
    for (let i = 0; i < n; i++) {
      add(breaks.filter((b) => y[i]! > b).length, i);
    }
  }
  const rand = mulberry32Unit(seed);
  const groups = [...strata.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);
  const out: Int32Array[] = [];
  for (let t = 0; t < times; t++) {
    const train: number[] = [];
    for (const g of groups) train.push(...shuffle([...g], rand).slice(0, Math.ceil(g.length * fraction)));
    out.push(Int32Array.from(train.sort((a, b) => a - b)));
  }
  return out;
}

function pearson2(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  if (n < 2) return NaN;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i]! - ma) * (b[i]! - mb);
    saa += (a[i]! - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  }
  return saa > 0 && sbb > 0 ? (sab * sab) / (saa * sbb) : NaN;
}

function meanFinite(xs: readonly number[]): number {
  let s = 0;
  let k = 0;
  for (const x of xs) {
    if (Number.isFinite(x)) {
      s += x;
      k++;
    }
  }
  return k > 0 ? s / k : NaN;
}

/**
 * Trains the local SVM on the neighbours (rows × columns, row-major `x`, activities `y`) and
 * predicts the query row `q` (same columns; NaN = missing).
 */
export function localSvm(lib: Libsvm, x: Float64Array, y: ArrayLike<number>, q: ArrayLike<number>, options: LocalSvmOptions): LocalSvmResult {
  const n = y.length;
  const m = n > 0 ? x.length / n : 0;
  const kind = options.kind;
  const none = (note: string, extra: Partial<LocalSvmResult> = {}): LocalSvmResult => ({ value: null, trainPerformance: NaN, cost: NaN, sigma: NaN, columns: 0, note, ...extra });
  if (n === 0) return none("no neighbours");
  let same = true;
  for (let i = 1; i < n; i++) if (y[i] !== y[0]) same = false;
  if (same) return { value: y[0]!, trainPerformance: NaN, cost: NaN, sigma: NaN, columns: 0, note: "all neighbours have the same activity" };

  // Column filter.
  const kept: Float64Array[] = [];
  const keptQ: number[] = [];
  for (let j = 0; j < m; j++) {
    if (!Number.isFinite(q[j]!)) continue;
    const col = new Float64Array(n);
    let ok = true;
    for (let i = 0; i < n; i++) {
      const v = x[i * m + j]!;
      if (!Number.isFinite(v)) {
        ok = false;
        break;
      }
      col[i] = v;
    }
    if (ok && !nearZeroVar(col)) {
      kept.push(col);
      keptQ.push(q[j]!);
    }
  }
  const drop = correlatedColumns(kept, options.correlationCutoff ?? 0.9);
  const cols = kept.filter((_, j) => !drop.has(j));
  const qv = keptQ.filter((_, j) => !drop.has(j));
  const p = cols.length;
  if (p === 0) return none("training failed: no informative column among the neighbours");

  // Centre and scale (sample s.d., as R's scale()).
  const z = new Float64Array(n * p);
  const zq = new Float64Array(p);
  for (let j = 0; j < p; j++) {
    const c = cols[j]!;
    let mu = 0;
    for (let i = 0; i < n; i++) mu += c[i]!;
    mu /= n;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (c[i]! - mu) ** 2;
    const sd = n > 1 ? Math.sqrt(ss / (n - 1)) : 0;
    const s = sd > 0 ? sd : 1;
    for (let i = 0; i < n; i++) z[i * p + j] = (c[i]! - mu) / s;
    zq[j] = (qv[j]! - mu) / s;
  }

  // Squared distances, σ, Gram matrix.
  const d2 = new Float64Array(n * n);
  const pairs: number[] = [];
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      let s = 0;
      for (let j = 0; j < p; j++) {
        const t = z[a * p + j]! - z[b * p + j]!;
        s += t * t;
      }
      d2[a * n + b] = d2[b * n + a] = s;
      if (s > 0) pairs.push(s);
    }
  }
  if (pairs.length === 0) return none("training failed: all neighbours have identical features", { columns: p });
  const sorted = Float64Array.from(pairs).sort();
  const sigma = (1 / quantile7(sorted, 0.9) + 1 / quantile7(sorted, 0.1)) / 2;
  const gram = new Float64Array(n * n);
  for (let k = 0; k < n * n; k++) gram[k] = Math.exp(-sigma * d2[k]!);
  const kq = new Float64Array(n);
  for (let a = 0; a < n; a++) {
    let s = 0;
    for (let j = 0; j < p; j++) s += (z[a * p + j]! - zq[j]!) ** 2;
    kq[a] = Math.exp(-sigma * s);
  }

  const yArr = Array.from(y as ArrayLike<number>);
  const fit = (subset: Int32Array, cost: number): { predict: (k: (j: number) => number) => number; free: () => void } => {
    const ys = Array.from(subset, (i) => yArr[i]!);
    if (kind === "classification") {
      if (ys.every((v) => v === ys[0])) return { predict: () => ys[0]!, free: () => {} };
      const svm = new KernelSvm(lib, gram, n, subset, ys, { kind, cost });
      return { predict: (k) => svm.predict(k), free: () => svm.free() };
    }
    let mu = 0;
    for (const v of ys) mu += v;
    mu /= ys.length;
    let ss = 0;
    for (const v of ys) ss += (v - mu) ** 2;
    const sd = ys.length > 1 ? Math.sqrt(ss / (ys.length - 1)) : 0;
    if (!(sd > 0)) return { predict: () => mu, free: () => {} };
    const svm = new KernelSvm(lib, gram, n, subset, ys.map((v) => (v - mu) / sd), { kind, cost, epsilon: options.epsilon ?? 0.1 });
    return { predict: (k) => mu + sd * svm.predict(k), free: () => svm.free() };
  };

  // Tuning by leave-group-out resampling.
  const costs = options.costs ?? DEFAULT_COSTS;
  const parts = partitions(y, kind, options.resamples ?? 10, options.trainFraction ?? 0.75, options.seed ?? 1);
  const scores = costs.map(() => ({ acc: [] as number[], rmse: [] as number[], r2: [] as number[] }));
  for (const train of parts) {
    const inTrain = new Uint8Array(n);
    for (const i of train) inTrain[i] = 1;
    const test: number[] = [];
    for (let i = 0; i < n; i++) if (!inTrain[i]) test.push(i);
    if (test.length === 0) continue;
    costs.forEach((cost, c) => {
      const model = fit(train, cost);
      try {
        const pred = test.map((t) => model.predict((j) => gram[t * n + j]!));
        const obs = test.map((t) => yArr[t]!);
        if (kind === "classification") {
          scores[c]!.acc.push(pred.filter((v, i) => v === obs[i]).length / test.length);
        } else {
          let se = 0;
          for (let i = 0; i < test.length; i++) se += (pred[i]! - obs[i]!) ** 2;
          scores[c]!.rmse.push(Math.sqrt(se / test.length));
          scores[c]!.r2.push(pearson2(pred, obs));
        }
      } finally {
        model.free();
      }
    });
  }
  let best = -1;
  let bestPerf = NaN;
  costs.forEach((_, c) => {
    const s = scores[c]!;
    if (kind === "classification") {
      const acc = meanFinite(s.acc);
      if (Number.isFinite(acc) && (best < 0 || acc > bestPerf)) {
        best = c;
        bestPerf = acc;
      }
    } else {
      const rmse = meanFinite(s.rmse);
      if (Number.isFinite(rmse) && (best < 0 || rmse < bestPerf)) {
        best = c;
        bestPerf = rmse;
      }
    }
  });
  if (best < 0) return none("training failed: too few neighbours to resample", { sigma, columns: p });
  const cost = costs[best]!;
  const perf = kind === "classification" ? bestPerf : meanFinite(scores[best]!.r2);
  const minPerf = options.minTrainPerformance ?? 0.1;
  if (!Number.isFinite(perf) || perf < minPerf) {
    return { value: null, trainPerformance: perf, cost, sigma, columns: p, note: `censored: training performance ${Number.isFinite(perf) ? perf.toFixed(3) : "NaN"} < min_train_performance ${minPerf}` };
  }
  const all = Int32Array.from({ length: n }, (_, i) => i);
  const model = fit(all, cost);
  try {
    const value = model.predict((j) => kq[j]!);
    return { value, trainPerformance: perf, cost, sigma, columns: p };
  } finally {
    model.free();
  }
}
