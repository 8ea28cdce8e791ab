/**
 * Similarities of lazar models (docs/lazar-method.md "Similarity").
 *
 * - Weighted Tanimoto (substructure fingerprints): sim(a, b) = Σ_f min(a_f, b_f) / Σ_f max(a_f, b_f)
 *   over the union of features, 0 when the denominator is 0. With pValue entries this is
 *   Σ pValue over shared patterns / Σ pValue over the union; with hits × pValue it is the weighted
 *   MinMax coefficient. Computed as Σmin / (Σa + Σb − Σmin), so one pass over the training row's
 *   entries against a dense query vector suffices (`TanimotoIndex`).
 * - Cosine in the whitened SVD space of autoscaled descriptors: `DescriptorSpace`
 *   (descriptor-space.ts), re-exported here.
 */

import { FingerprintMatrix, fingerprintSum, type SparseFingerprint } from "./fingerprint.ts";

export { DescriptorSpace, cosine, COSINE_COMPONENTS, type DescriptorProjection } from "./descriptor-space.ts";

/** Weighted Tanimoto of two sparse fingerprints (indices ascending). */
export function weightedTanimoto(a: SparseFingerprint, b: SparseFingerprint): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.idx.length && j < b.idx.length) {
    const fa = a.idx[i]!;
    const fb = b.idx[j]!;
    if (fa === fb) {
      const va = a.val[i]!;
      const vb = b.val[j]!;
      common += va < vb ? va : vb;
      i++;
      j++;
    } else if (fa < fb) i++;
    else j++;
  }
  const all = fingerprintSum(a) + fingerprintSum(b) - common;
  return all > 0 ? common / all : 0;
}

/**
 * The Gaussian weight lazar used before its 3.1 release (neighbours were weighted by it instead
 * of their raw similarity; the 2011 algorithm tests passed feature weights through it):
 * exp(−(1 − x)² / (2σ²)), σ = 0.3.
 */
export function gauss(x: number, sigma = 0.3): number {
  const d = 1 - x;
  return Math.exp(-(d * d) / (2 * sigma * sigma));
}

/**
 * A training set's fingerprints prepared for many queries: `similarities(query)` returns the
 * weighted Tanimoto of the query with every training row (row order), in O(total entries).
 */
export class TanimotoIndex {
  readonly matrix: FingerprintMatrix;
  private readonly dense: Float64Array;

  constructor(matrix: FingerprintMatrix) {
    this.matrix = matrix;
    this.dense = new Float64Array(matrix.nFeatures);
  }

  get rows(): number {
    return this.matrix.rows;
  }

  /** Similarities of `query` to every training row, written into `out` (length = rows). */
  similarities(query: SparseFingerprint, out: Float64Array = new Float64Array(this.matrix.rows)): Float64Array {
    const { offsets, idx, val, sums } = this.matrix;
    const q = this.dense;
    const n = q.length;
    let qSum = 0;
    for (let k = 0; k < query.idx.length; k++) {
      const f = query.idx[k]!;
      if (f < 0 || f >= n) continue; // a feature the model does not know is ignored, as in lazar
      q[f] = query.val[k]!;
      qSum += query.val[k]!;
    }
    try {
      for (let r = 0, end = sums.length; r < end; r++) {
        let common = 0;
        for (let k = offsets[r]!, e = offsets[r + 1]!; k < e; k++) {
          const qv = q[idx[k]!]!;
          if (qv !== 0) {
            const tv = val[k]!;
            common += qv < tv ? qv : tv;
          }
        }
        const all = qSum + sums[r]! - common;
        out[r] = all > 0 ? common / all : 0;
      }
    } finally {
      for (let k = 0; k < query.idx.length; k++) {
        const f = query.idx[k]!;
        if (f >= 0 && f < n) q[f] = 0;
      }
    }
    return out;
  }
}
