/**
 * Weighted substructure fingerprints of lazar models (docs/lazar-method.md "Features").
 *
 * A fingerprint is sparse: the indices of the model's features that occur in a compound
 * (ascending) and one value per index — the feature's pValue ("Substructure.match", used by the
 * weighted majority vote) or hit count × pValue ("Substructure.match_hits", used by the local
 * SVMs and regression). A training set is stored as one CSR matrix (`FingerprintMatrix`) so that a
 * query is compared with thousands of rows in one pass over flat typed arrays.
 */

/** One compound's weighted features: `idx` ascending and unique, `val[k] > 0` for `idx[k]`. */
export interface SparseFingerprint {
  readonly idx: Int32Array;
  readonly val: Float64Array;
}

/** Feature values of a compound: present features (`hits` = 1 or the number of matches). */
export interface FeatureHits {
  readonly feature: number;
  readonly hits: number;
}

/**
 * Builds a fingerprint from feature occurrences. `useHits` = false → value = weight (pValue),
 * true → value = hits × weight. Features with zero hits or zero weight are left out; repeated
 * features are merged (their hits added).
 */
export function weightedFingerprint(
  occurrences: Iterable<FeatureHits>,
  weights: ArrayLike<number>,
  useHits: boolean,
): SparseFingerprint {
  const merged = new Map<number, number>();
  for (const { feature, hits } of occurrences) {
    if (!(hits > 0)) continue;
    if (feature < 0 || feature >= weights.length) throw new RangeError(`feature ${feature} outside 0..${weights.length - 1}`);
    merged.set(feature, (merged.get(feature) ?? 0) + hits);
  }
  const keys = [...merged.keys()].sort((a, b) => a - b);
  const idx: number[] = [];
  const val: number[] = [];
  for (const f of keys) {
    const w = weights[f]!;
    const v = useHits ? merged.get(f)! * w : w;
    if (v > 0) {
      idx.push(f);
      val.push(v);
    }
  }
  return { idx: Int32Array.from(idx), val: Float64Array.from(val) };
}

/** Σ of a fingerprint's values, in index order. */
export function fingerprintSum(fp: SparseFingerprint): number {
  let s = 0;
  for (let k = 0; k < fp.val.length; k++) s += fp.val[k]!;
  return s;
}

/** Training fingerprints as one CSR matrix (rows = training compounds, columns = features). */
export class FingerprintMatrix {
  /** Number of feature columns. */
  readonly nFeatures: number;
  /** Row r's entries are `idx/val[offsets[r] .. offsets[r+1])`. */
  readonly offsets: Int32Array;
  readonly idx: Int32Array;
  readonly val: Float64Array;
  /** Σ of each row's values (the row's "size" in the weighted Tanimoto). */
  readonly sums: Float64Array;

  constructor(nFeatures: number, rows: readonly SparseFingerprint[]) {
    this.nFeatures = nFeatures;
    this.offsets = new Int32Array(rows.length + 1);
    let nnz = 0;
    rows.forEach((r, i) => {
      nnz += r.idx.length;
      this.offsets[i + 1] = nnz;
    });
    this.idx = new Int32Array(nnz);
    this.val = new Float64Array(nnz);
    this.sums = new Float64Array(rows.length);
    rows.forEach((r, i) => {
      for (let k = 1; k < r.idx.length; k++) {
        if (!(r.idx[k]! > r.idx[k - 1]!)) throw new RangeError(`row ${i}: feature indices must ascend`);
      }
      if (r.idx.length > 0 && (r.idx[0]! < 0 || r.idx[r.idx.length - 1]! >= nFeatures)) throw new RangeError(`row ${i}: feature index outside 0..${nFeatures - 1}`);
      this.idx.set(r.idx, this.offsets[i]!);
      this.val.set(r.val, this.offsets[i]!);
      this.sums[i] = fingerprintSum(r);
    });
  }

  get rows(): number {
    return this.sums.length;
  }

  /** Row r as a fingerprint (views into the matrix, not copies). */
  row(r: number): SparseFingerprint {
    const a = this.offsets[r]!;
    const b = this.offsets[r + 1]!;
    return { idx: this.idx.subarray(a, b), val: this.val.subarray(a, b) };
  }

  /** Row r as a dense vector over the feature columns. */
  dense(r: number, out = new Float64Array(this.nFeatures)): Float64Array {
    out.fill(0);
    for (let k = this.offsets[r]!; k < this.offsets[r + 1]!; k++) out[this.idx[k]!] = this.val[k]!;
    return out;
  }
}
