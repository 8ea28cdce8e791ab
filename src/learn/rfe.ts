/**
 * Recursive feature elimination as the reference service did it (fs.rb of the OpenTox algorithm
 * service of 2012, R caret `rfe` with `rfFuncs`) — the pure core: a matrix in, the kept column
 * indices out.
 *
 * 1. Rows whose endpoint is missing are ignored; fewer than 10 rows is an error.
 * 2. Cleaning: columns that are all missing, that hold any ±Infinity, or that are constant (fewer
 *    than two distinct non-missing values) are dropped.
 * 3. Missing values: with `delMissing` the rows with any missing value are dropped (then columns
 *    that became constant too; centring and scaling are left out, forests do not see them);
 *    otherwise every column is centred and scaled and the missing
 *    values are imputed as caret's `preProcess(method = "knnImpute")` does: the mean of the k = 5
 *    nearest complete rows (Euclidean distance over the row's non-missing, scaled columns). When
 *    there are no complete rows, the neighbours are taken among the rows holding the missing
 *    column, by the mean squared distance over the columns both rows hold (caret would stop).
 * 4. Candidate sizes: round(q × f) for f = 0.30, 0.32, …, 0.70 (R's round half to even), unique,
 *    2 ≤ size ≤ q, where q is the number of clean columns. caret's `rfe` also evaluates all q
 *    columns (with the ranking forest) — its performance is reported, and with `includeAll`
 *    it is a candidate as in caret.
 * 5. Resampling as caret's `rfeControl(method = "boot")`: B bootstrap resamples (n rows drawn with
 *    replacement; the rows not drawn are the hold-out; a row drawn twice is two cases for the
 *    forests, as randomForest gets them from caret). Per resample a forest on all columns
 *    ranks them by permutation importance (`rerank = FALSE`: once per resample), then for every
 *    size a forest on the top-ranked columns predicts the hold-out. Performance: accuracy
 *    (classification; Cohen's κ reported too) or RMSE (regression; R² = squared correlation
 *    reported too), averaged over the resamples (caret's default metrics).
 * 6. caret's `pickSizeBest`: the size with the best mean performance (the smaller on ties); caret's
 *    `pickVars`: the columns of highest mean importance, the mean taken as caret does over the
 *    rows of `rfe$variables` — per resample and evaluated size, each column retained at that size
 *    with its importance in that resample (so a column counts more often in resamples that rank
 *    it high).
 *
 * Differences from the reference, for speed (the goal: ≈ 1000 × 200 in ≤ 30 s on 2 cores): the
 * reference ran 150 bootstrap resamples (`rfeControl(number = 150)`) with randomForest's default
 * 500 trees per forest (≈ 1.6 million trees for 200 columns); the defaults here (`RFE_DEFAULTS`)
 * are 10 resamples, 100 trees for the ranking forest and 50 per subset forest — the same
 * procedure with less effort; `resamples: 150, rankTrees: 500, ntree: 500` is the reference's.
 * By default only the 30–70 % sizes compete (the reference's list); caret also lets the full set
 * win (`includeAll`).
 *
 * `rfe` runs in the calling thread; `rfeOnResamples` (algorithms/rfe/resamples.ts) runs each
 * resample as a job of the service's worker pool and returns the same result.
 *
 * Deterministic for a seed: resample b draws from mulberry32Unit(mixSeed(seed, b)); its forests
 * get seeds derived from that stream, so a resample's result does not depend on the others.
 */
import { ForestData, mixSeed, trainForest, type ForestTarget } from "./forest.ts";
import { mulberry32Unit } from "../numeric/random.ts";

/** The endpoint: class labels or numeric values per row (null / NaN = missing). */
export type RfeEndpoint =
  | { readonly kind: "classification"; readonly labels: readonly (string | null | undefined)[] }
  | { readonly kind: "regression"; readonly values: readonly (number | null | undefined)[] };

export interface RfeOptions {
  /** Seed (default 1, as the reference's `set.seed(1)`). */
  readonly seed?: number;
  /** Drop rows with missing values instead of imputing them (reference `del_missing`). */
  readonly delMissing?: boolean;
  /** Bootstrap resamples (reference 150; default RFE_DEFAULTS.resamples). */
  readonly resamples?: number;
  /** Trees of the forest that ranks all columns in each resample (reference 500). */
  readonly rankTrees?: number;
  /** Trees of each subset forest (reference 500). */
  readonly ntree?: number;
  /** Fractions of the clean columns tried as subset sizes (default 0.30, 0.32, …, 0.70). */
  readonly fractions?: readonly number[];
  /** Let all clean columns compete as a size too, as caret's rfe does (default false). */
  readonly includeAll?: boolean;
  /** Neighbours for the imputation (default 5, caret's knnImpute). */
  readonly k?: number;
  /** Called with the fraction done after each resample. */
  readonly onProgress?: (fraction: number) => void;
}

export const RFE_DEFAULTS = {
  seed: 1,
  resamples: 10,
  rankTrees: 100,
  ntree: 50,
  k: 5,
} as const;

export type DropReason = "all-missing" | "non-finite" | "constant";

export interface SizePerformance {
  readonly size: number;
  /** Accuracy (classification) or RMSE (regression), mean over resamples. */
  readonly performance: number;
  /** Standard deviation over resamples. */
  readonly sd: number;
  /** Cohen's κ (classification) or R² (squared correlation; regression), mean over resamples. */
  readonly secondary: number;
  /** Whether the size competed (false only for the full set without `includeAll`). */
  readonly candidate: boolean;
}

export interface RfeResult {
  readonly kind: "classification" | "regression";
  readonly metric: "Accuracy" | "RMSE";
  /** Kept columns (indices of the input columns), most important first. */
  readonly selected: number[];
  /** All clean columns, most important first. */
  readonly ranking: number[];
  /** Mean scaled permutation importance per input column as caret's pickVars averages it (NaN if dropped). */
  readonly importance: Float64Array;
  /** Columns dropped by the cleaning. */
  readonly dropped: { readonly column: number; readonly reason: DropReason }[];
  /** Performance per evaluated size, ascending sizes (the last is all clean columns). */
  readonly performance: SizePerformance[];
  readonly bestSize: number;
  /** Input rows used (endpoint present, and complete with `delMissing`). */
  readonly rows: number[];
  /** Number of imputed values (0 with `delMissing`). */
  readonly imputed: number;
  readonly resamples: number;
}

/** A problem with the input (the HTTP layer answers 400 with the message). */
export class RfeInputError extends Error {
  override readonly name = "RfeInputError";
}

export const MIN_ROWS = 10;

/** R's `round` (IEC 60559: half to even). */
function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** Default fractions, as R's seq(0.3, 0.7, by = 0.02). */
export const DEFAULT_FRACTIONS: readonly number[] = Array.from({ length: 21 }, (_, i) => 0.3 + i * 0.02);

/** Candidate subset sizes for q columns: round(q·f), unique, 2 ≤ size ≤ q, ascending. */
export function subsetSizes(q: number, fractions: readonly number[] = DEFAULT_FRACTIONS): number[] {
  const s = new Set<number>();
  for (const f of fractions) {
    const v = roundHalfEven(q * f);
    if (v >= 2 && v <= q) s.add(v);
  }
  return [...s].sort((a, b) => a - b);
}

export interface CleanResult {
  /** Kept input columns. */
  readonly kept: number[];
  readonly dropped: { readonly column: number; readonly reason: DropReason }[];
}

/** Column cleaning over the given rows: all-missing, any ±Infinity, constant. */
export function cleanColumns(columns: readonly ArrayLike<number | null | undefined>[], rows: readonly number[]): CleanResult {
  const kept: number[] = [];
  const dropped: { column: number; reason: DropReason }[] = [];
  columns.forEach((col, j) => {
    let present = 0;
    let inf = false;
    let first = NaN;
    let varies = false;
    for (const i of rows) {
      const v = col[i];
      if (v === null || v === undefined || Number.isNaN(v)) continue;
      if (v === Infinity || v === -Infinity) inf = true;
      if (present === 0) first = v;
      else if (v !== first) varies = true;
      present++;
    }
    if (present === 0) dropped.push({ column: j, reason: "all-missing" });
    else if (inf) dropped.push({ column: j, reason: "non-finite" });
    else if (!varies) dropped.push({ column: j, reason: "constant" });
    else kept.push(j);
  });
  return { kept, dropped };
}

/**
 * Centre and scale the columns (over their present values) and impute the missing ones as
 * caret's knnImpute; `x` is column-major m × q with NaN for missing values, changed in place.
 * Returns the number of imputed values.
 */
export function knnImpute(x: Float64Array, m: number, q: number, k = 5): number {
  for (let j = 0; j < q; j++) {
    let s = 0;
    let c = 0;
    for (let i = 0; i < m; i++) {
      const v = x[j * m + i]!;
      if (!Number.isNaN(v)) {
        s += v;
        c++;
      }
    }
    const mean = s / c;
    let ss = 0;
    for (let i = 0; i < m; i++) {
      const v = x[j * m + i]!;
      if (!Number.isNaN(v)) ss += (v - mean) * (v - mean);
    }
    const sd = c > 1 ? Math.sqrt(ss / (c - 1)) : 0;
    for (let i = 0; i < m; i++) {
      const v = x[j * m + i]!;
      if (!Number.isNaN(v)) x[j * m + i] = sd > 0 ? (v - mean) / sd : 0;
    }
  }
  const complete: number[] = [];
  const incomplete: number[] = [];
  for (let i = 0; i < m; i++) {
    let ok = true;
    for (let j = 0; j < q && ok; j++) if (Number.isNaN(x[j * m + i]!)) ok = false;
    (ok ? complete : incomplete).push(i);
  }
  if (incomplete.length === 0) return 0;
  const imputed: { i: number; j: number; v: number }[] = [];
  const dist = new Float64Array(m);
  const nearest = (cands: number[], kk: number): number[] =>
    cands
      .map((c, pos) => ({ c, d: dist[c]!, pos }))
      .sort((a, b) => a.d - b.d || a.pos - b.pos)
      .slice(0, kk)
      .map((e) => e.c);
  for (const i of incomplete) {
    const missing: number[] = [];
    const present: number[] = [];
    for (let j = 0; j < q; j++) (Number.isNaN(x[j * m + i]!) ? missing : present).push(j);
    if (complete.length > 0) {
      for (const c of complete) {
        let d = 0;
        for (const j of present) {
          const e = x[j * m + c]! - x[j * m + i]!;
          d += e * e;
        }
        dist[c] = d;
      }
      const nn = nearest(complete, k);
      for (const j of missing) {
        let s = 0;
        for (const c of nn) s += x[j * m + c]!;
        imputed.push({ i, j, v: s / nn.length });
      }
    } else {
      for (const j of missing) {
        const cands: number[] = [];
        for (let c = 0; c < m; c++) {
          if (c === i || Number.isNaN(x[j * m + c]!)) continue;
          let d = 0;
          let shared = 0;
          for (const g of present) {
            const a = x[g * m + c]!;
            if (Number.isNaN(a)) continue;
            const e = a - x[g * m + i]!;
            d += e * e;
            shared++;
          }
          dist[c] = shared > 0 ? d / shared : Infinity;
          cands.push(c);
        }
        const nn = nearest(cands, k);
        let s = 0;
        for (const c of nn) s += x[j * m + c]!;
        imputed.push({ i, j, v: s / nn.length });
      }
    }
  }
  for (const { i, j, v } of imputed) x[j * m + i] = v;
  return imputed.length;
}

/** Performance of one resample at one size. */
interface Perf {
  readonly main: number;
  readonly secondary: number;
}

function classificationPerf(truth: Int32Array, pred: Float64Array, rows: readonly number[], K: number): Perf {
  const conf = new Float64Array(K * K);
  rows.forEach((r, i) => conf[truth[r]! * K + pred[i]!]!++);
  const m = rows.length;
  let agree = 0;
  let chance = 0;
  for (let a = 0; a < K; a++) {
    agree += conf[a * K + a]!;
    let rowSum = 0;
    let colSum = 0;
    for (let b = 0; b < K; b++) {
      rowSum += conf[a * K + b]!;
      colSum += conf[b * K + a]!;
    }
    chance += (rowSum * colSum) / (m * m);
  }
  const acc = agree / m;
  return { main: acc, secondary: chance < 1 ? (acc - chance) / (1 - chance) : NaN };
}

function regressionPerf(truth: Float64Array, pred: Float64Array, rows: readonly number[]): Perf {
  const m = rows.length;
  let se = 0;
  let my = 0;
  let mp = 0;
  rows.forEach((r, i) => {
    const e = truth[r]! - pred[i]!;
    se += e * e;
    my += truth[r]!;
    mp += pred[i]!;
  });
  my /= m;
  mp /= m;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  rows.forEach((r, i) => {
    const a = truth[r]! - my;
    const b = pred[i]! - mp;
    sxy += a * b;
    sxx += a * a;
    syy += b * b;
  });
  return { main: Math.sqrt(se / m), secondary: sxx > 0 && syy > 0 ? (sxy * sxy) / (sxx * syy) : NaN };
}

/** The prepared problem an RFE resample runs on (structured-clone safe apart from ForestData). */
export interface RfeProblem {
  readonly data: ForestData;
  readonly target: ForestTarget;
  /** Sizes to evaluate, ascending; the last is data.p (all columns). */
  readonly sizes: readonly number[];
}

export interface ResampleResult {
  /** Scaled permutation importance per column of the data. */
  readonly importance: Float64Array;
  /** Performance per size (same order as problem.sizes); null when the hold-out was empty. */
  readonly perf: (Perf | null)[];
}

/** Column indices by decreasing importance (the lower index first on ties). */
export function rankColumns(importance: Float64Array): number[] {
  return Array.from({ length: importance.length }, (_, j) => j).sort((a, c) => importance[c]! - importance[a]! || a - c);
}

/** One bootstrap resample b: rank all columns, then evaluate every size on the hold-out. */
export function runResample(problem: RfeProblem, b: number, seed: number, rankTrees: number, ntree: number): ResampleResult {
  const { data, target, sizes } = problem;
  const n = data.n;
  const rand = mulberry32Unit(mixSeed(seed, b));
  const train = new Int32Array(n);
  const drawn = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const r = Math.floor(rand() * n);
    train[i] = r;
    drawn[r] = 1;
  }
  const holdout: number[] = [];
  for (let i = 0; i < n; i++) if (drawn[i] === 0) holdout.push(i);
  const nextSeed = (): number => Math.floor(rand() * 4294967296);
  const rankForest = trainForest(data, target, { ntree: rankTrees, rows: train, seed: nextSeed(), importance: "permutation" });
  const importance = rankForest.importance!;
  const order = rankColumns(importance);
  const perf: (Perf | null)[] = [];
  const evaluate = (pred: Float64Array): Perf =>
    target.kind === "classification" ? classificationPerf(target.classes, pred, holdout, target.nClasses) : regressionPerf(target.values, pred, holdout);
  for (const size of sizes) {
    const s = nextSeed();
    if (holdout.length === 0) {
      perf.push(null);
      continue;
    }
    if (size === data.p) {
      perf.push(evaluate(rankForest.predict(data, holdout)));
      continue;
    }
    const forest = trainForest(data, target, { ntree, rows: train, seed: s, features: order.slice(0, size) });
    perf.push(evaluate(forest.predict(data, holdout)));
  }
  return { importance, perf };
}

/** Clean, impute and code the endpoint: the problem plus bookkeeping. */
export function prepareRfe(
  columns: readonly ArrayLike<number | null | undefined>[],
  endpoint: RfeEndpoint,
  options: RfeOptions = {},
): { problem: RfeProblem; kept: number[]; dropped: CleanResult["dropped"]; rows: number[]; imputed: number; classes: string[] } {
  const n = endpoint.kind === "classification" ? endpoint.labels.length : endpoint.values.length;
  for (const c of columns) if (c.length !== n) throw new RfeInputError("feature columns and endpoint have different numbers of rows");
  let rows: number[] = [];
  for (let i = 0; i < n; i++) {
    if (endpoint.kind === "classification") {
      const l = endpoint.labels[i];
      if (l !== null && l !== undefined && l !== "") rows.push(i);
    } else {
      const v = endpoint.values[i];
      if (v !== null && v !== undefined && Number.isFinite(v)) rows.push(i);
    }
  }
  if (rows.length < MIN_ROWS) throw new RfeInputError(`fewer than ${MIN_ROWS} compounds with an endpoint value (${rows.length})`);
  if (columns.length === 0) throw new RfeInputError("no numeric features");
  let { kept, dropped } = cleanColumns(columns, rows);
  if (kept.length === 0) throw new RfeInputError("no numeric feature left after dropping all-missing, non-finite and constant columns");
  const isMissing = (v: number | null | undefined): boolean => v === null || v === undefined || Number.isNaN(v);
  if (options.delMissing === true) {
    rows = rows.filter((i) => kept.every((j) => !isMissing(columns[j]![i])));
    if (rows.length < MIN_ROWS) throw new RfeInputError(`fewer than ${MIN_ROWS} compounds without missing values (${rows.length})`);
    const again = cleanColumns(
      kept.map((j) => columns[j]!),
      rows,
    );
    dropped = [...dropped, ...again.dropped.map((d) => ({ column: kept[d.column]!, reason: d.reason }))].sort((a, b) => a.column - b.column);
    kept = again.kept.map((j) => kept[j]!);
    if (kept.length === 0) throw new RfeInputError("no numeric feature left after dropping the rows with missing values");
  }
  const m = rows.length;
  const q = kept.length;
  const x = new Float64Array(m * q);
  kept.forEach((j, c) => {
    const col = columns[j]!;
    rows.forEach((i, r) => {
      const v = col[i];
      x[c * m + r] = isMissing(v) ? NaN : (v as number);
    });
  });
  const imputed = options.delMissing === true ? 0 : knnImpute(x, m, q, options.k ?? RFE_DEFAULTS.k);
  let target: ForestTarget;
  let classes: string[] = [];
  if (endpoint.kind === "classification") {
    const labels = rows.map((i) => String(endpoint.labels[i]));
    classes = [...new Set(labels)].sort();
    if (classes.length < 2) throw new RfeInputError(`the endpoint has a single class (${classes[0]})`);
    const index = new Map(classes.map((c, k) => [c, k]));
    target = { kind: "classification", classes: Int32Array.from(labels, (l) => index.get(l)!), nClasses: classes.length };
  } else {
    target = { kind: "regression", values: Float64Array.from(rows, (i) => endpoint.values[i] as number) };
  }
  const columnsOut = Array.from({ length: q }, (_, c) => x.subarray(c * m, (c + 1) * m));
  const data = ForestData.fromColumns(columnsOut);
  const sizes = [...subsetSizes(q, options.fractions).filter((s) => s < q), q];
  return { problem: { data, target, sizes }, kept, dropped, rows, imputed, classes };
}

/** Combine resample results into the selection (caret pickSizeBest + pickVars). */
export function combineResamples(
  problem: RfeProblem,
  results: readonly ResampleResult[],
  kept: readonly number[],
  nColumns: number,
  includeAll: boolean,
): Pick<RfeResult, "selected" | "ranking" | "importance" | "performance" | "bestSize" | "metric"> {
  const { data, target, sizes } = problem;
  const q = data.p;
  const classification = target.kind === "classification";
  // caret's pickVars averages the importance rows of rfe's `variables`: per resample one row per
  // evaluated size for each column retained at that size (rerank = FALSE: the first fit's values)
  const impSum = new Float64Array(q);
  const impCount = new Float64Array(q);
  for (const r of results) {
    const order = rankColumns(r.importance);
    for (const size of sizes) {
      for (let t = 0; t < size; t++) {
        const j = order[t]!;
        impSum[j] += r.importance[j]!;
        impCount[j]++;
      }
    }
  }
  const meanImp = Float64Array.from(impSum, (v, j) => v / impCount[j]!);
  const ranking = Array.from({ length: q }, (_, j) => j).sort((a, b) => meanImp[b]! - meanImp[a]! || a - b);
  const performance: SizePerformance[] = sizes.map((size, s) => {
    const vals = results.map((r) => r.perf[s]).filter((p): p is Perf => p !== null);
    const mean = vals.reduce((a, p) => a + p.main, 0) / vals.length;
    const sd = vals.length > 1 ? Math.sqrt(vals.reduce((a, p) => a + (p.main - mean) ** 2, 0) / (vals.length - 1)) : NaN;
    const sec = vals.filter((p) => !Number.isNaN(p.secondary));
    const secondary = sec.length > 0 ? sec.reduce((a, p) => a + p.secondary, 0) / sec.length : NaN;
    return { size, performance: mean, sd, secondary, candidate: size < q || includeAll || sizes.length === 1 };
  });
  let best: SizePerformance | null = null;
  for (const p of performance) {
    if (!p.candidate || Number.isNaN(p.performance)) continue;
    if (best === null || (classification ? p.performance > best.performance : p.performance < best.performance)) best = p;
  }
  const bestSize = best?.size ?? q;
  const importance = new Float64Array(nColumns).fill(NaN);
  kept.forEach((j, c) => (importance[j] = meanImp[c]!));
  return {
    selected: ranking.slice(0, bestSize).map((c) => kept[c]!),
    ranking: ranking.map((c) => kept[c]!),
    importance,
    performance,
    bestSize,
    metric: classification ? "Accuracy" : "RMSE",
  };
}

/** What prepareRfe returns. */
export type PreparedRfe = ReturnType<typeof prepareRfe>;

/** The result from the prepared problem and the resamples' results (in resample order). */
export function assembleRfe(prep: PreparedRfe, results: readonly ResampleResult[], nColumns: number, includeAll: boolean): RfeResult {
  return {
    kind: prep.problem.target.kind,
    ...combineResamples(prep.problem, results, prep.kept, nColumns, includeAll),
    dropped: prep.dropped,
    rows: prep.rows,
    imputed: prep.imputed,
    resamples: results.length,
  };
}

/**
 * Recursive feature elimination: `columns[j][i]` is feature j of compound i (null / NaN when
 * missing), the endpoint has one entry per compound. Single-threaded; `rfeOnResamples`
 * (algorithms/rfe/resamples.ts) runs the resamples as pool jobs with the same result.
 */
export function rfe(columns: readonly ArrayLike<number | null | undefined>[], endpoint: RfeEndpoint, options: RfeOptions = {}): RfeResult {
  const seed = options.seed ?? RFE_DEFAULTS.seed;
  const B = options.resamples ?? RFE_DEFAULTS.resamples;
  if (!(B >= 1)) throw new RfeInputError("resamples must be at least 1");
  const prep = prepareRfe(columns, endpoint, options);
  const results: ResampleResult[] = [];
  for (let b = 0; b < B; b++) {
    results.push(runResample(prep.problem, b, seed, options.rankTrees ?? RFE_DEFAULTS.rankTrees, options.ntree ?? RFE_DEFAULTS.ntree));
    options.onProgress?.((b + 1) / B);
  }
  return assembleRfe(prep, results, columns.length, options.includeAll === true);
}
