/**
 * A fast random forest (Breiman 2001, as R's `randomForest` 4.x implements it) for the
 * recursive feature elimination (rfe.ts) — pure TypeScript on typed arrays.
 *
 * - CART trees: Gini for classification (maximise Σ_c n_Lc²/n_L + Σ_c n_Rc²/n_R), residual sum of
 *   squares for regression (maximise S_L²/n_L + S_R²/n_R); split thresholds at the midpoint of
 *   two neighbouring distinct values; cases with x ≤ threshold go left.
 * - Each tree is grown on a bootstrap sample (n draws with replacement from the training rows);
 *   a row drawn k times is one case of weight k (the same sums as k copies, less work).
 * - `mtry` as randomForest: ⌊√q⌋ for classification, max(⌊q/3⌋, 1) for regression (q features);
 *   features are drawn without replacement per node; a node none of whose drawn features
 *   improves the criterion becomes a leaf (randomForest does the same).
 * - `nodesize` as randomForest: 1 for classification (grow until pure), 5 for regression; a node
 *   of weight ≤ nodesize is not split. No depth limit.
 * - Out-of-bag predictions and error (misclassification rate, resp. mean squared error).
 * - Importance: **permutation importance**, as `randomForest(importance = TRUE)` computes it and
 *   `importance(type = 1, scale = TRUE)` reports it — per tree the increase of the OOB error when
 *   one feature's values are permuted among the tree's OOB cases, averaged over the trees and
 *   divided by its standard error. This is what caret's `rfFuncs` (used by the reference RFE)
 *   ranks by: its `fit` sets `importance = TRUE` for the first fit, and `varImp` takes
 *   `%IncMSE` (regression) or the per-class columns, averaged over the classes (classification).
 *   Impurity importance (MeanDecreaseGini / IncNodePurity) is collected on the side, at no cost.
 *
 * Speed: every column is rank-coded once (`ForestData`), so a tree never sorts values. At a node a
 * candidate feature is scanned either through a histogram over its ranks (few distinct values,
 * large nodes) or by sorting packed (rank, position) keys of the node's cases (small nodes);
 * partitioning is in place on one index array; all scratch memory is allocated once per forest.
 *
 * Determinism: tree t draws from mulberry32Unit (src/numeric/random.ts) seeded with
 * `mixSeed(seed, t)` (a 32-bit integer hash, below), and every tree starts from the same order of
 * candidate features, so a forest is a function of its seed, independent of how trees are
 * scheduled: trees can be grown in parts (`treeRange`, e.g. in two worker threads) and joined
 * (`combineForests`) into the same forest.
 */
import { mulberry32Unit } from "../numeric/random.ts";

/** Hash two 32-bit integers into a seed (murmur3's finaliser over a golden-ratio combination). */
export function mixSeed(a: number, b: number): number {
  let h = (Math.imul(a >>> 0, 0x9e3779b1) ^ Math.imul((b >>> 0) + 0x7f4a7c15, 0x85ebca6b)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Sorting packs (rank, position) into one int32 key, so rows < 2^15. */
const MAX_ROWS = 32767;
/** Nodes up to this many cases are sorted by insertion sort instead of the native sort. */
const INSERTION_MAX = 24;
/** A node scans a feature through a histogram when its distinct values ≤ HIST_FACTOR × node size. */
const HIST_FACTOR = 4;

/**
 * A complete numeric matrix (no missing or non-finite values) prepared for forests: the values
 * column-major and every column rank-coded (dense ranks 0 … distinct−1 over the sorted distinct
 * values).
 */
export class ForestData {
  /** Values, column-major: x[j·n + i]. */
  readonly x: Float64Array;
  /** Dense rank of x[j·n + i] among column j's distinct values. */
  readonly rank: Int32Array;
  /** Sorted distinct values of each column. */
  readonly distinct: Float64Array[];
  /** The largest number of distinct values of any column. */
  readonly maxDistinct: number;

  private constructor(
    readonly n: number,
    readonly p: number,
    x: Float64Array,
  ) {
    if (n > MAX_ROWS) throw new RangeError(`ForestData: at most ${MAX_ROWS} rows`);
    this.x = x;
    this.rank = new Int32Array(n * p);
    this.distinct = [];
    let maxDistinct = 0;
    const order = new Float64Array(n);
    for (let j = 0; j < p; j++) {
      const col = x.subarray(j * n, (j + 1) * n);
      for (let i = 0; i < n; i++) {
        if (!Number.isFinite(col[i]!)) throw new RangeError(`ForestData: value ${col[i]} in row ${i}, column ${j}`);
        order[i] = i;
      }
      const idx = Array.from(order).sort((a, b) => col[a]! - col[b]!);
      const vals: number[] = [];
      let k = -1;
      let last = NaN;
      for (const i of idx) {
        const v = col[i]!;
        if (k < 0 || v !== last) {
          k++;
          vals.push(v);
          last = v;
        }
        this.rank[j * n + i] = k;
      }
      this.distinct.push(Float64Array.from(vals));
      if (vals.length > maxDistinct) maxDistinct = vals.length;
    }
    this.maxDistinct = maxDistinct;
  }

  /** From column-major values x[j·n + i] (kept, not copied). */
  static fromColumnMajor(x: Float64Array, n: number, p: number): ForestData {
    if (x.length !== n * p) throw new RangeError("ForestData: length is not n × p");
    return new ForestData(n, p, x);
  }

  /** From columns (each of length n). */
  static fromColumns(columns: readonly ArrayLike<number>[]): ForestData {
    const p = columns.length;
    const n = p === 0 ? 0 : columns[0]!.length;
    const x = new Float64Array(n * p);
    columns.forEach((c, j) => {
      if (c.length !== n) throw new RangeError("ForestData: columns of different lengths");
      for (let i = 0; i < n; i++) x[j * n + i] = c[i]!;
    });
    return new ForestData(n, p, x);
  }

  /** From rows (each of length p). */
  static fromRows(rows: readonly ArrayLike<number>[]): ForestData {
    const n = rows.length;
    const p = n === 0 ? 0 : rows[0]!.length;
    const x = new Float64Array(n * p);
    rows.forEach((r, i) => {
      if (r.length !== p) throw new RangeError("ForestData: rows of different lengths");
      for (let j = 0; j < p; j++) x[j * n + i] = r[j]!;
    });
    return new ForestData(n, p, x);
  }
}

/** The response, indexed by ForestData row. */
export type ForestTarget =
  | { readonly kind: "classification"; readonly classes: Int32Array; readonly nClasses: number }
  | { readonly kind: "regression"; readonly values: Float64Array };

export type ImportanceType = "permutation" | "none";

export interface ForestOptions {
  /** Number of trees (randomForest default 500). */
  readonly ntree?: number;
  /** Features tried per node (default ⌊√q⌋ classification, max(⌊q/3⌋,1) regression). */
  readonly mtry?: number;
  /** Nodes of at most this weight are leaves (default 1 classification, 5 regression). */
  readonly nodesize?: number;
  /** Seed of the PRNG (default 1). */
  readonly seed?: number;
  /** Permutation importance on the OOB cases (default "none"; impurity importance is always kept). */
  readonly importance?: ImportanceType;
  /** Columns of the data to use (default all), as column indices. */
  readonly features?: ArrayLike<number>;
  /**
   * Training rows (default all); may repeat rows (e.g. a bootstrap resample). As in randomForest
   * every entry is a case: trees draw entries, and OOB error and importance are over the entries
   * not drawn (a duplicate of an in-bag row included).
   */
  readonly rows?: ArrayLike<number>;
  /**
   * Grow only trees [from, to) of the forest of `ntree` trees (each with the seed it has in the
   * whole forest), for training parts in parallel; `combineForests` joins the parts into the
   * forest `trainForest` would have grown. No permutation importance with a range.
   */
  readonly treeRange?: readonly [number, number];
  /** Told the number of trees grown so far (of this call's range) after each tree: a job's progress. */
  readonly onTree?: (grown: number) => void;
}

/** The out-of-bag sums per training entry (of `rows`), from which the OOB figures are computed; summed over parts. */
export interface OobAccumulators {
  /** Classification: votes per entry and class (m × K); regression: Σ of OOB tree predictions per entry. */
  readonly sum: Float64Array;
  /** Trees each entry was out of bag for. */
  readonly count: Int32Array;
  /** Regression: Σ of squared OOB tree predictions per entry; empty for classification. */
  readonly sq: Float64Array;
}

/** One tree in flat arrays; node 0 is the root, `child[k]` the left child (right = left + 1) or −1. */
export interface Tree {
  readonly feature: Int32Array;
  readonly threshold: Float64Array;
  readonly child: Int32Array;
  /** Leaf value: class index or mean response. */
  readonly value: Float64Array;
}

function treeLeaf(tree: Tree, x: Float64Array, n: number, r: number): number {
  const { feature, threshold, child } = tree;
  let k = 0;
  let c = child[0]!;
  while (c >= 0) {
    k = x[feature[k]! * n + r]! <= threshold[k]! ? c : c + 1;
    c = child[k]!;
  }
  return k;
}

/** Leaf of row r when feature f takes the value v. */
function treeLeafWith(tree: Tree, x: Float64Array, n: number, r: number, f: number, v: number): number {
  const { feature, threshold, child } = tree;
  let k = 0;
  let c = child[0]!;
  while (c >= 0) {
    const g = feature[k]!;
    k = (g === f ? v : x[g * n + r]!) <= threshold[k]! ? c : c + 1;
    c = child[k]!;
  }
  return k;
}

/** A trained forest. Features are column indices of the ForestData it was trained on. */
export class RandomForest {
  constructor(
    readonly kind: "classification" | "regression",
    readonly nClasses: number,
    readonly trees: readonly Tree[],
    /** Column indices the forest was allowed to use. */
    readonly features: Int32Array,
    readonly mtry: number,
    /** OOB error: misclassification rate (classification) or mean squared error (regression); NaN when no row was ever OOB. */
    readonly oobError: number,
    /** OOB prediction per data row (class index or value; NaN when the row was never OOB or not a training row). */
    readonly oobPrediction: Float64Array,
    /**
     * Per data row, from the trees it was out of bag for (NaN where it never was): classification
     * the vote share of each class (row-major n × nClasses, each row summing to 1), regression the
     * standard deviation of those trees' predictions — a conformal calibration set without holding
     * data back (learn/conformal.ts).
     */
    readonly oobVotes: Float64Array,
    /**
     * Scaled permutation importance per column of the data (0 for columns not in `features`):
     * regression %IncMSE, classification the mean over classes of the per-class mean decrease
     * in accuracy — caret's `varImp` "Overall" for rfFuncs. Null unless requested.
     */
    readonly importance: Float64Array | null,
    /** Unscaled mean decrease in OOB accuracy / increase in OOB MSE (randomForest `scale = FALSE`, overall column). */
    readonly rawImportance: Float64Array | null,
    /** Total impurity decrease per column, averaged over trees (MeanDecreaseGini / IncNodePurity). */
    readonly impurityImportance: Float64Array,
    /** The OOB sums behind the figures above (to combine forests trained in parts); empty when not trained here. */
    readonly oob: OobAccumulators = { sum: new Float64Array(0), count: new Int32Array(0), sq: new Float64Array(0) },
  ) {}

  /** Prediction for row r of data (same column layout as the training data). */
  predictRow(data: ForestData, r: number): number {
    const { x, n } = data;
    if (this.kind === "regression") {
      let s = 0;
      for (const t of this.trees) s += t.value[treeLeaf(t, x, n, r)]!;
      return s / this.trees.length;
    }
    const votes = new Float64Array(this.nClasses);
    for (const t of this.trees) votes[t.value[treeLeaf(t, x, n, r)]!]!++;
    return argmax(votes);
  }

  /** Predictions for rows of data (default all): class indices (majority vote, lowest index on ties) or values. */
  predict(data: ForestData, rows?: ArrayLike<number>): Float64Array {
    const m = rows === undefined ? data.n : rows.length;
    const out = new Float64Array(m);
    const { x, n } = data;
    if (this.kind === "regression") {
      for (const t of this.trees) {
        for (let i = 0; i < m; i++) out[i] += t.value[treeLeaf(t, x, n, rows === undefined ? i : rows[i]!)]!;
      }
      for (let i = 0; i < m; i++) out[i] /= this.trees.length;
      return out;
    }
    const K = this.nClasses;
    const votes = new Float64Array(m * K);
    for (const t of this.trees) {
      for (let i = 0; i < m; i++) votes[i * K + t.value[treeLeaf(t, x, n, rows === undefined ? i : rows[i]!)]!]!++;
    }
    for (let i = 0; i < m; i++) out[i] = argmax(votes.subarray(i * K, (i + 1) * K));
    return out;
  }

  /** Standard deviation of the trees' predictions per row (regression only): how much they disagree. */
  predictSpread(data: ForestData, rows?: ArrayLike<number>): Float64Array {
    if (this.kind !== "regression") throw new Error("predictSpread: classification forest");
    const m = rows === undefined ? data.n : rows.length;
    const sum = new Float64Array(m);
    const sq = new Float64Array(m);
    for (const t of this.trees) {
      for (let i = 0; i < m; i++) {
        const v = t.value[treeLeaf(t, data.x, data.n, rows === undefined ? i : rows[i]!)]!;
        sum[i] += v;
        sq[i] += v * v;
      }
    }
    const T = this.trees.length;
    for (let i = 0; i < m; i++) sum[i] = Math.sqrt(Math.max(0, sq[i]! / T - (sum[i]! / T) ** 2));
    return sum;
  }

  /** Class vote fractions per row (classification only), row-major m × nClasses. */
  predictProba(data: ForestData, rows?: ArrayLike<number>): Float64Array {
    if (this.kind !== "classification") throw new Error("predictProba: regression forest");
    const m = rows === undefined ? data.n : rows.length;
    const K = this.nClasses;
    const votes = new Float64Array(m * K);
    for (const t of this.trees) {
      for (let i = 0; i < m; i++) votes[i * K + t.value[treeLeaf(t, data.x, data.n, rows === undefined ? i : rows[i]!)]!]!++;
    }
    for (let i = 0; i < votes.length; i++) votes[i] /= this.trees.length;
    return votes;
  }
}

function argmax(v: ArrayLike<number>): number {
  let best = 0;
  for (let c = 1; c < v.length; c++) if (v[c]! > v[best]!) best = c;
  return best;
}

/** Train a random forest on `data` and the response `y` (indexed by data row). */
export function trainForest(data: ForestData, y: ForestTarget, options: ForestOptions = {}): RandomForest {
  const { n } = data;
  const classification = y.kind === "classification";
  const K = classification ? y.nClasses : 1;
  if (classification && (y.classes.length !== n || K < 1)) throw new RangeError("trainForest: classes do not match the data");
  if (!classification && y.values.length !== n) throw new RangeError("trainForest: values do not match the data");
  const features = options.features === undefined ? Int32Array.from({ length: data.p }, (_, j) => j) : Int32Array.from(options.features);
  const q = features.length;
  if (q === 0) throw new RangeError("trainForest: no features");
  for (const f of features) if (f < 0 || f >= data.p) throw new RangeError(`trainForest: no column ${f}`);
  const entries = options.rows === undefined ? Int32Array.from({ length: n }, (_, i) => i) : Int32Array.from(options.rows);
  if (entries.length === 0) throw new RangeError("trainForest: no training rows");
  const ntree = options.ntree ?? 500;
  const mtry = Math.max(1, Math.min(q, options.mtry ?? (classification ? Math.floor(Math.sqrt(q)) : Math.floor(q / 3))));
  const nodesize = options.nodesize ?? (classification ? 1 : 5);
  const seed = options.seed ?? 1;
  const permutation = options.importance === "permutation";
  const [fromTree, toTree] = options.treeRange ?? [0, ntree];
  if (!(Number.isInteger(fromTree) && Number.isInteger(toTree) && 0 <= fromTree && fromTree < toTree && toTree <= ntree)) throw new RangeError(`trainForest: tree range [${fromTree}, ${toTree}) is not within the ${ntree} trees`);
  if (permutation && options.treeRange) throw new RangeError("trainForest: no permutation importance for a range of trees");

  // unique training rows
  const seen = new Uint8Array(n);
  const uniq: number[] = [];
  for (const r of entries) {
    if (r < 0 || r >= n) throw new RangeError(`trainForest: no row ${r}`);
    if (seen[r] === 0) {
      seen[r] = 1;
      uniq.push(r);
    }
  }
  const unique = Int32Array.from(uniq);
  const m = entries.length;

  const grower = new TreeGrower(data, y, features, mtry, nodesize);
  const trees: Tree[] = [];
  const weight = grower.weight;
  // OOB accumulators per training entry: as randomForest, each entry of `rows` is a case of its
  // own, so an entry not drawn is out of bag even when a duplicate of its row is in the bag
  const oobSum = new Float64Array(classification ? m * K : m);
  const oobCount = new Int32Array(m);
  /** Regression: Σ of squared OOB tree predictions per entry (for the spread). */
  const oobSq = classification ? null : new Float64Array(m);
  const entryDrawn = new Uint8Array(m);
  const oobEntry = new Int32Array(m);
  // permutation importance accumulators (per column; classification: K per-class + overall)
  const cols = classification ? K + 1 : 1;
  const impSum = permutation ? new Float64Array(data.p * cols) : null;
  const impSq = permutation ? new Float64Array(data.p * cols) : null;
  const oob = new Int32Array(m);
  const perm = new Int32Array(m);
  const basePred = new Float64Array(m);
  const nOobClass = new Float64Array(K);
  const rightBase = new Float64Array(K);
  const rightPerm = new Float64Array(K);

  for (let t = fromTree; t < toTree; t++) {
    const rand = mulberry32Unit(mixSeed(seed, t));
    for (let d = 0; d < m; d++) {
      const e = Math.floor(rand() * m);
      entryDrawn[e] = 1;
      weight[entries[e]!]!++;
    }
    let nIn = 0;
    let nOob = 0;
    for (const r of unique) if (weight[r]! > 0) grower.idx[nIn++] = r;
    for (let e = 0; e < m; e++) {
      if (entryDrawn[e] === 0) {
        oobEntry[nOob] = e;
        oob[nOob++] = entries[e]!;
      } else entryDrawn[e] = 0;
    }
    const tree = grower.grow(nIn, rand);
    for (let i = 0; i < nIn; i++) weight[grower.idx[i]!] = 0;
    trees.push(tree);
    options.onTree?.(trees.length);

    // OOB predictions of this tree
    const { x } = data;
    for (let i = 0; i < nOob; i++) {
      const v = tree.value[treeLeaf(tree, x, n, oob[i]!)]!;
      const e = oobEntry[i]!;
      basePred[i] = v;
      oobCount[e]!++;
      if (classification) oobSum[e * K + v]!++;
      else {
        oobSum[e] += v;
        oobSq![e] += v * v;
      }
    }
    if (impSum === null || impSq === null || nOob === 0) continue;

    // permutation importance: only features the tree splits on can change its predictions
    const used = grower.usedFeatures;
    if (classification) {
      const cls = y.classes;
      nOobClass.fill(0);
      rightBase.fill(0);
      let right = 0;
      for (let i = 0; i < nOob; i++) {
        const c = cls[oob[i]!]!;
        nOobClass[c]!++;
        if (basePred[i] === c) {
          rightBase[c]!++;
          right++;
        }
      }
      for (const f of used) {
        permuteInto(perm, oob, nOob, rand);
        rightPerm.fill(0);
        let rightP = 0;
        for (let i = 0; i < nOob; i++) {
          const r = oob[i]!;
          const c = cls[r]!;
          if (tree.value[treeLeafWith(tree, x, n, r, f, x[f * n + perm[i]!]!)] === c) {
            rightPerm[c]!++;
            rightP++;
          }
        }
        for (let c = 0; c < K; c++) {
          if (nOobClass[c] === 0) continue;
          const d = (rightBase[c]! - rightPerm[c]!) / nOobClass[c]!;
          impSum[f * cols + c] += d;
          impSq[f * cols + c] += d * d;
        }
        const d = (right - rightP) / nOob;
        impSum[f * cols + K] += d;
        impSq[f * cols + K] += d * d;
      }
    } else {
      const yv = y.values;
      let err0 = 0;
      for (let i = 0; i < nOob; i++) {
        const e = yv[oob[i]!]! - basePred[i]!;
        err0 += e * e;
      }
      err0 /= nOob;
      for (const f of used) {
        permuteInto(perm, oob, nOob, rand);
        let err = 0;
        for (let i = 0; i < nOob; i++) {
          const r = oob[i]!;
          const e = yv[r]! - tree.value[treeLeafWith(tree, x, n, r, f, x[f * n + perm[i]!]!)]!;
          err += e * e;
        }
        const d = err / nOob - err0;
        impSum[f] += d;
        impSq[f] += d * d;
      }
    }
  }

  const oobAcc: OobAccumulators = { sum: oobSum, count: oobCount, sq: oobSq ?? new Float64Array(0) };
  const { oobError, oobPrediction, oobVotes } = oobFigures(y, K, n, entries, unique, oobAcc);

  let importance: Float64Array | null = null;
  let rawImportance: Float64Array | null = null;
  if (impSum !== null && impSq !== null) {
    importance = new Float64Array(data.p);
    rawImportance = new Float64Array(data.p);
    const scaled = (f: number, c: number): number => {
      const mean = impSum[f * cols + c]! / ntree;
      const v = impSq[f * cols + c]! / ntree - mean * mean;
      const se = Math.sqrt(Math.max(v, 0) / ntree);
      return se > 0 ? mean / se : 0;
    };
    for (const f of features) {
      if (classification) {
        let s = 0;
        for (let c = 0; c < K; c++) s += scaled(f, c);
        importance[f] = s / K;
        rawImportance[f] = impSum[f * cols + K]! / ntree;
      } else {
        importance[f] = scaled(f, 0);
        rawImportance[f] = impSum[f]! / ntree;
      }
    }
  }
  const impurityImportance = grower.impurity;
  for (let j = 0; j < impurityImportance.length; j++) impurityImportance[j] /= ntree;
  return new RandomForest(y.kind, K, trees, features, mtry, oobError, oobPrediction, oobVotes, importance, rawImportance, impurityImportance, oobAcc);
}

/**
 * The OOB error over the entries, and per row the OOB prediction and vote shares / spread from
 * all its entries (`unique`: the distinct rows of `entries`).
 */
function oobFigures(y: ForestTarget, K: number, n: number, entries: Int32Array, unique: Int32Array, acc: OobAccumulators): { oobError: number; oobPrediction: Float64Array; oobVotes: Float64Array } {
  const classification = y.kind === "classification";
  const { sum: oobSum, count: oobCount, sq: oobSq } = acc;
  const m = entries.length;
  // OOB error over the entries; OOB prediction per row from the votes of all its entries
  let errSum = 0;
  let errN = 0;
  const rowSum = new Float64Array(classification ? n * K : n);
  const rowCount = new Int32Array(n);
  const rowSq = classification ? null : new Float64Array(n);
  for (let e = 0; e < m; e++) {
    if (oobCount[e] === 0) continue;
    const r = entries[e]!;
    rowCount[r] += oobCount[e]!;
    if (classification) {
      const votes = oobSum.subarray(e * K, (e + 1) * K);
      if (argmax(votes) !== y.classes[r]) errSum++;
      for (let c = 0; c < K; c++) rowSum[r * K + c] += votes[c]!;
    } else {
      const d = y.values[r]! - oobSum[e]! / oobCount[e]!;
      errSum += d * d;
      rowSum[r] += oobSum[e]!;
      rowSq![r] += oobSq[e]!;
    }
    errN++;
  }
  const oobError = errN === 0 ? NaN : errSum / errN;
  const oobPrediction = new Float64Array(n).fill(NaN);
  const oobVotes = new Float64Array(classification ? n * K : n).fill(NaN);
  for (const r of unique) {
    const c = rowCount[r]!;
    if (c === 0) continue;
    if (classification) {
      oobPrediction[r] = argmax(rowSum.subarray(r * K, (r + 1) * K));
      for (let k = 0; k < K; k++) oobVotes[r * K + k] = rowSum[r * K + k]! / c;
    } else {
      const mean = rowSum[r]! / c;
      oobPrediction[r] = mean;
      oobVotes[r] = Math.sqrt(Math.max(0, rowSq![r]! / c - mean * mean));
    }
  }

  return { oobError, oobPrediction, oobVotes };
}

/**
 * Join forests trained in parts (`treeRange`, e.g. in two worker threads) on the same data,
 * target and options, in the order of their ranges: the forest `trainForest` grows in one piece
 * (the same trees, OOB figures and impurity importance; permutation importance is not
 * available for parts). Of the data only its number of rows is read: parts that crossed threads
 * as `PackedForestPart`s can be joined where the data is not.
 */
export function combineForests(parts: readonly RandomForest[], data: Pick<ForestData, "n">, y: ForestTarget, options: ForestOptions = {}): RandomForest {
  if (parts.length === 0) throw new RangeError("combineForests: no parts");
  const first = parts[0]!;
  const K = first.nClasses;
  const entries = options.rows === undefined ? Int32Array.from({ length: data.n }, (_, i) => i) : Int32Array.from(options.rows);
  const unique = Int32Array.from(new Set(entries));
  const acc: OobAccumulators = { sum: new Float64Array(first.oob.sum.length), count: new Int32Array(first.oob.count.length), sq: new Float64Array(first.oob.sq.length) };
  const impurity = new Float64Array(first.impurityImportance.length);
  for (const part of parts) {
    if (part.oob.count.length !== entries.length) throw new RangeError("combineForests: a part was trained on other rows");
    for (let i = 0; i < acc.sum.length; i++) acc.sum[i] += part.oob.sum[i]!;
    for (let i = 0; i < acc.count.length; i++) acc.count[i] += part.oob.count[i]!;
    for (let i = 0; i < acc.sq.length; i++) acc.sq[i] += part.oob.sq[i]!;
    for (let j = 0; j < impurity.length; j++) impurity[j] += part.impurityImportance[j]!;
  }
  const { oobError, oobPrediction, oobVotes } = oobFigures(y, K, data.n, entries, unique, acc);
  return new RandomForest(first.kind, K, parts.flatMap((p) => p.trees), first.features, first.mtry, oobError, oobPrediction, oobVotes, null, null, impurity, acc);
}

/** perm[0..m) = a random permutation of src[0..m). */
function permuteInto(perm: Int32Array, src: Int32Array, m: number, rand: () => number): void {
  for (let i = 0; i < m; i++) perm[i] = src[i]!;
  for (let i = m - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = perm[i]!;
    perm[i] = perm[j]!;
    perm[j] = t;
  }
}

/** Grows trees; holds all scratch memory of a forest. */
class TreeGrower {
  /** Bootstrap weight per data row (0 = not in the tree's sample). */
  readonly weight: Float64Array;
  /** Rows of the tree's sample, partitioned node by node. */
  readonly idx: Int32Array;
  /** Features the last tree split on. */
  usedFeatures: number[] = [];
  /** Impurity decrease per column, summed over trees. */
  readonly impurity: Float64Array;

  private readonly n: number;
  private readonly rank: Int32Array;
  private readonly classes: Int32Array | null;
  private readonly values: Float64Array | null;
  private readonly K: number;
  private readonly pool: Int32Array;
  /** The columns the forest may use, in their given order (each tree's `pool` starts from it). */
  private readonly features: Int32Array;
  private readonly keys: Int32Array;
  private readonly bits: number;
  private readonly histW: Float64Array;
  private readonly histY: Float64Array;
  private readonly cnt: Float64Array;
  private readonly left: Float64Array;
  private readonly stack: Int32Array;
  private readonly used: Uint8Array;
  // node arrays of the tree being grown (capacity 2·n + 1)
  private readonly nFeature: Int32Array;
  private readonly nThreshold: Float64Array;
  private readonly nChild: Int32Array;
  private readonly nValue: Float64Array;

  constructor(
    private readonly data: ForestData,
    y: ForestTarget,
    features: Int32Array,
    private readonly mtry: number,
    private readonly nodesize: number,
  ) {
    const n = data.n;
    this.n = n;
    this.rank = data.rank;
    this.classes = y.kind === "classification" ? y.classes : null;
    this.values = y.kind === "regression" ? y.values : null;
    this.K = y.kind === "classification" ? y.nClasses : 1;
    this.weight = new Float64Array(n);
    this.idx = new Int32Array(n);
    this.features = Int32Array.from(features);
    this.pool = Int32Array.from(features);
    this.keys = new Int32Array(n);
    this.bits = Math.max(1, Math.ceil(Math.log2(n + 1)));
    this.histW = new Float64Array(data.maxDistinct);
    this.histY = new Float64Array(data.maxDistinct * this.K);
    this.cnt = new Float64Array(this.K);
    this.left = new Float64Array(this.K);
    this.stack = new Int32Array(3 * (2 * n + 2));
    this.used = new Uint8Array(data.p);
    this.impurity = new Float64Array(data.p);
    const cap = 2 * n + 1;
    this.nFeature = new Int32Array(cap);
    this.nThreshold = new Float64Array(cap);
    this.nChild = new Int32Array(cap);
    this.nValue = new Float64Array(cap);
  }

  /** Grow a tree on idx[0..m) with the weights set in `weight`. */
  grow(m: number, rand: () => number): Tree {
    const { idx, weight, rank, n, K, pool, stack, used, nFeature, nThreshold, nChild, nValue } = this;
    const classes = this.classes;
    const values = this.values;
    const cnt = this.cnt;
    const q = pool.length;
    const mtry = this.mtry;
    // The candidate features are drawn by a partial shuffle of `pool`: start every tree from the
    // same order, so that a tree depends on its own seed only (not on the trees grown before it).
    pool.set(this.features);
    this.usedFeatures = [];
    let nodes = 1;
    let sp = 0;
    stack[sp++] = 0;
    stack[sp++] = 0;
    stack[sp++] = m;
    while (sp > 0) {
      const e = stack[--sp]!;
      const s = stack[--sp]!;
      const node = stack[--sp]!;
      // a leaf until split: no feature, no threshold (not what an earlier tree left here)
      nChild[node] = -1;
      nFeature[node] = -1;
      nThreshold[node] = 0;
      // node statistics
      let W = 0;
      let S = 0;
      let parent: number;
      let pure: boolean;
      if (classes !== null) {
        cnt.fill(0);
        for (let i = s; i < e; i++) {
          const r = idx[i]!;
          cnt[classes[r]!] += weight[r]!;
        }
        let nonzero = 0;
        let best = 0;
        parent = 0;
        for (let c = 0; c < K; c++) {
          const v = cnt[c]!;
          W += v;
          parent += v * v;
          if (v > 0) nonzero++;
          if (v > cnt[best]!) best = c;
        }
        parent /= W;
        nValue[node] = best;
        pure = nonzero <= 1;
      } else {
        for (let i = s; i < e; i++) {
          const r = idx[i]!;
          const w = weight[r]!;
          W += w;
          S += w * values![r]!;
        }
        parent = (S * S) / W;
        nValue[node] = S / W;
        pure = false;
      }
      if (pure || W <= this.nodesize || e - s < 2) continue;

      // best split over mtry features drawn without replacement
      let bestCrit = parent + 1e-12 * Math.abs(parent) + 1e-300;
      let bestF = -1;
      let bestK = -1;
      let bestNext = -1;
      for (let t = 0; t < mtry; t++) {
        const j = t + Math.floor(rand() * (q - t));
        const f = pool[j]!;
        pool[j] = pool[t]!;
        pool[t] = f;
        const res = this.scan(f, s, e, W, S);
        if (res > bestCrit) {
          bestCrit = res;
          bestF = f;
          bestK = this.splitRank;
          bestNext = this.nextRank;
        }
      }
      if (bestF < 0) continue;

      // partition idx[s..e) by rank ≤ bestK
      const base = bestF * n;
      let i = s;
      let j = e - 1;
      while (i <= j) {
        if (rank[base + idx[i]!]! <= bestK) i++;
        else {
          const t = idx[i]!;
          idx[i] = idx[j]!;
          idx[j] = t;
          j--;
        }
      }
      const dv = this.data.distinct[bestF]!;
      const lo = dv[bestK]!;
      const hi = dv[bestNext]!;
      let thr = (lo + hi) / 2;
      if (!(thr < hi)) thr = lo;
      nFeature[node] = bestF;
      nThreshold[node] = thr;
      nChild[node] = nodes;
      this.impurity[bestF] += bestCrit - parent;
      if (used[bestF] === 0) {
        used[bestF] = 1;
        this.usedFeatures.push(bestF);
      }
      stack[sp++] = nodes;
      stack[sp++] = s;
      stack[sp++] = i;
      stack[sp++] = nodes + 1;
      stack[sp++] = i;
      stack[sp++] = e;
      nodes += 2;
    }
    for (const f of this.usedFeatures) used[f] = 0;
    return {
      feature: nFeature.slice(0, nodes),
      threshold: nThreshold.slice(0, nodes),
      child: nChild.slice(0, nodes),
      value: nValue.slice(0, nodes),
    };
  }

  /** Set by scan: the best split's last rank going left and the next present rank. */
  private splitRank = -1;
  private nextRank = -1;

  /**
   * Best criterion value of feature f on idx[s..e) (−Infinity when the node is constant in f);
   * sets splitRank/nextRank.
   */
  private scan(f: number, s: number, e: number, W: number, S: number): number {
    const { idx, weight, rank, n, K } = this;
    const classes = this.classes;
    const values = this.values;
    const base = f * n;
    const m = e - s;
    const u = this.data.distinct[f]!.length;
    let best = -Infinity;
    if (u <= 1) return best;
    if (u <= HIST_FACTOR * m) {
      // histogram over ranks
      const hw = this.histW;
      const hy = this.histY;
      let kmin = u;
      let kmax = -1;
      if (classes !== null && K === 2) {
        // binary: hw = weight, hy = weight of class 1
        for (let i = s; i < e; i++) {
          const r = idx[i]!;
          const k = rank[base + r]!;
          const w = weight[r]!;
          hw[k] += w;
          if (classes[r] === 1) hy[k] += w;
          if (k < kmin) kmin = k;
          if (k > kmax) kmax = k;
        }
        const c1 = this.cnt[1]!;
        let wl = 0;
        let l1 = 0;
        let prev = -1;
        for (let k = kmin; k <= kmax; k++) {
          const w = hw[k]!;
          if (w === 0) continue;
          if (prev >= 0) {
            const wr = W - wl;
            const l0 = wl - l1;
            const r1 = c1 - l1;
            const r0 = wr - r1;
            const crit = (l0 * l0 + l1 * l1) / wl + (r0 * r0 + r1 * r1) / wr;
            if (crit > best) {
              best = crit;
              this.splitRank = prev;
              this.nextRank = k;
            }
          }
          wl += w;
          l1 += hy[k]!;
          hw[k] = 0;
          hy[k] = 0;
          prev = k;
        }
      } else if (classes !== null) {
        for (let i = s; i < e; i++) {
          const r = idx[i]!;
          const k = rank[base + r]!;
          const w = weight[r]!;
          hw[k] += w;
          hy[k * K + classes[r]!] += w;
          if (k < kmin) kmin = k;
          if (k > kmax) kmax = k;
        }
        const left = this.left;
        const cnt = this.cnt;
        left.fill(0);
        let wl = 0;
        let prev = -1;
        for (let k = kmin; k <= kmax; k++) {
          const w = hw[k]!;
          if (w === 0) continue;
          if (prev >= 0) {
            const wr = W - wl;
            let sl = 0;
            let sr = 0;
            for (let c = 0; c < K; c++) {
              const a = left[c]!;
              const b = cnt[c]! - a;
              sl += a * a;
              sr += b * b;
            }
            const crit = sl / wl + sr / wr;
            if (crit > best) {
              best = crit;
              this.splitRank = prev;
              this.nextRank = k;
            }
          }
          wl += w;
          hw[k] = 0;
          for (let c = 0; c < K; c++) {
            left[c] += hy[k * K + c]!;
            hy[k * K + c] = 0;
          }
          prev = k;
        }
      } else {
        for (let i = s; i < e; i++) {
          const r = idx[i]!;
          const k = rank[base + r]!;
          const w = weight[r]!;
          hw[k] += w;
          hy[k] += w * values![r]!;
          if (k < kmin) kmin = k;
          if (k > kmax) kmax = k;
        }
        let wl = 0;
        let sl = 0;
        let prev = -1;
        for (let k = kmin; k <= kmax; k++) {
          const w = hw[k]!;
          if (w === 0) continue;
          if (prev >= 0) {
            const sr = S - sl;
            const crit = (sl * sl) / wl + (sr * sr) / (W - wl);
            if (crit > best) {
              best = crit;
              this.splitRank = prev;
              this.nextRank = k;
            }
          }
          wl += w;
          sl += hy[k]!;
          hw[k] = 0;
          hy[k] = 0;
          prev = k;
        }
      }
      return best;
    }

    // sort packed (rank, position) keys
    const keys = this.keys;
    const bits = this.bits;
    for (let i = 0; i < m; i++) keys[i] = (rank[base + idx[s + i]!]! << bits) | i;
    if (m <= INSERTION_MAX) {
      for (let i = 1; i < m; i++) {
        const v = keys[i]!;
        let j = i - 1;
        while (j >= 0 && keys[j]! > v) {
          keys[j + 1] = keys[j]!;
          j--;
        }
        keys[j + 1] = v;
      }
    } else keys.subarray(0, m).sort();
    let prev = -1;
    const mask = (1 << bits) - 1;
    if (classes !== null && K === 2) {
      const c1 = this.cnt[1]!;
      let wl = 0;
      let l1 = 0;
      for (let q = 0; q < m; q++) {
        const key = keys[q]!;
        const k = key >>> bits;
        const r = idx[s + (key & mask)]!;
        if (k !== prev && prev >= 0) {
          const wr = W - wl;
          const l0 = wl - l1;
          const r1 = c1 - l1;
          const r0 = wr - r1;
          const crit = (l0 * l0 + l1 * l1) / wl + (r0 * r0 + r1 * r1) / wr;
          if (crit > best) {
            best = crit;
            this.splitRank = prev;
            this.nextRank = k;
          }
        }
        const w = weight[r]!;
        wl += w;
        if (classes[r] === 1) l1 += w;
        prev = k;
      }
    } else if (classes !== null) {
      const left = this.left;
      const cnt = this.cnt;
      left.fill(0);
      let wl = 0;
      for (let q = 0; q < m; q++) {
        const key = keys[q]!;
        const k = key >>> bits;
        const r = idx[s + (key & mask)]!;
        if (k !== prev && prev >= 0) {
          const wr = W - wl;
          let sl = 0;
          let sr = 0;
          for (let c = 0; c < K; c++) {
            const a = left[c]!;
            const b = cnt[c]! - a;
            sl += a * a;
            sr += b * b;
          }
          const crit = sl / wl + sr / wr;
          if (crit > best) {
            best = crit;
            this.splitRank = prev;
            this.nextRank = k;
          }
        }
        const w = weight[r]!;
        wl += w;
        left[classes[r]!] += w;
        prev = k;
      }
    } else {
      let wl = 0;
      let sl = 0;
      for (let q = 0; q < m; q++) {
        const key = keys[q]!;
        const k = key >>> bits;
        const r = idx[s + (key & mask)]!;
        if (k !== prev && prev >= 0) {
          const sr = S - sl;
          const crit = (sl * sl) / wl + (sr * sr) / (W - wl);
          if (crit > best) {
            best = crit;
            this.splitRank = prev;
            this.nextRank = k;
          }
        }
        const w = weight[r]!;
        wl += w;
        sl += w * values![r]!;
        prev = k;
      }
    }
    return best;
  }
}

/**
 * A trained forest's trees as five flat arrays (worker → main thread transfers, and files):
 * `nodes[t]` = where tree t's nodes start in the other four (length ntree + 1); `child` indices
 * stay relative to their tree. With the kind, the class count and the used columns that is all
 * a prediction needs (OOB figures and importance are not kept).
 */
export interface PackedForest {
  readonly kind: "classification" | "regression";
  readonly nClasses: number;
  readonly features: Int32Array;
  readonly mtry: number;
  readonly nodes: Int32Array;
  readonly feature: Int32Array;
  readonly threshold: Float64Array;
  readonly child: Int32Array;
  readonly value: Float64Array;
}

export function packForest(f: RandomForest): PackedForest {
  const nodes = new Int32Array(f.trees.length + 1);
  f.trees.forEach((t, i) => (nodes[i + 1] = nodes[i]! + t.feature.length));
  const total = nodes[f.trees.length]!;
  const feature = new Int32Array(total);
  const threshold = new Float64Array(total);
  const child = new Int32Array(total);
  const value = new Float64Array(total);
  f.trees.forEach((t, i) => {
    const at = nodes[i]!;
    feature.set(t.feature, at);
    threshold.set(t.threshold, at);
    child.set(t.child, at);
    value.set(t.value, at);
  });
  return { kind: f.kind, nClasses: f.nClasses, features: Int32Array.from(f.features), mtry: f.mtry, nodes, feature, threshold, child, value };
}

/** The forest of `packForest` again, able to predict (its trees are views into the packed arrays). */
export function unpackForest(p: PackedForest): RandomForest {
  const trees: Tree[] = [];
  for (let i = 0; i + 1 < p.nodes.length; i++) {
    const a = p.nodes[i]!;
    const b = p.nodes[i + 1]!;
    trees.push({ feature: p.feature.subarray(a, b), threshold: p.threshold.subarray(a, b), child: p.child.subarray(a, b), value: p.value.subarray(a, b) });
  }
  return new RandomForest(p.kind, p.nClasses, trees, p.features, p.mtry, NaN, new Float64Array(0), new Float64Array(0), null, null, new Float64Array(0));
}

/**
 * A part of a forest (`treeRange`) as plain data, to cross threads: its trees packed, its OOB
 * sums and impurity importance — what `combineForests` joins.
 */
export interface PackedForestPart {
  readonly forest: PackedForest;
  readonly oob: OobAccumulators;
  readonly impurity: Float64Array;
}

export function packForestPart(f: RandomForest): PackedForestPart {
  return { forest: packForest(f), oob: f.oob, impurity: f.impurityImportance };
}

/** The part again, ready for `combineForests`. */
export function unpackForestPart(p: PackedForestPart): RandomForest {
  const f = unpackForest(p.forest);
  return new RandomForest(f.kind, f.nClasses, f.trees, f.features, f.mtry, NaN, new Float64Array(0), new Float64Array(0), null, null, p.impurity, p.oob);
}
