/**
 * Cosine similarity of lazar descriptor models, computed as lazar computed it
 * (docs/lazar-method.md "Similarity"):
 *
 * 1. drop the descriptor columns the query lacks;
 * 2. repeatedly remove whichever column or training row has the largest fraction of missing
 *    values (columns win ties) until none is missing;
 * 3. autoscale each column (training mean, population s.d.; constant columns only centred) and
 *    apply the same transform to the query;
 * 4. SVD of the scaled training matrix X = U·S·Vᵀ: training rows become rows of U, the query
 *    becomes q·V·S⁻¹ (whitened principal-component space);
 * 5. cosine of the two vectors truncated to the first 12 components.
 *
 * The result lies in [−1, 1]; lazar compared it with 2·min_sim − 1 and (after v4.0.0) mapped
 * confidences back with (c + 1)/2 (see `lazar.ts`). Steps 1–4 depend on the query only through
 * which columns it lacks, so a projection is built once per missing-column pattern and cached:
 * a query with all descriptors costs one 12-component projection and n cosines.
 *
 * The SVD is taken from the eigen-decomposition of XᵀX (cyclic Jacobi), components ordered by
 * decreasing singular value. Components with a singular value ≤ 1e-10 · s_max (rank deficiency,
 * e.g. centred constant columns) are dropped: the reference would divide by zero there.
 */

import { jacobiEigen, type JacobiOptions } from "../numeric/jacobi.ts";

/** Components kept for the cosine (step 5 above). */
export const COSINE_COMPONENTS = 12;

/** Cosine of two vectors over their first `k` entries (0 when either part is the null vector). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>, k = Math.min(a.length, b.length)): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < k; i++) {
    const x = a[i]!;
    const y = b[i]!;
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

/** A training set in the whitened PC space of one set of kept columns and rows. */
export interface DescriptorProjection {
  /** Descriptor columns used (indices into the training matrix). */
  readonly columns: Int32Array;
  /** Training rows kept (ascending); the others cannot be compared with such a query. */
  readonly rows: Int32Array;
  readonly mean: Float64Array;
  /** Divisor per column (population s.d., 1 for constant columns). */
  readonly scale: Float64Array;
  /** Number of components used for the cosine (≤ 12). */
  readonly k: number;
  /** V·S⁻¹ truncated to k components: columns.length × k, row-major. */
  readonly proj: Float64Array;
  /** Rows of U truncated to k components: rows.length × k, row-major. */
  readonly u: Float64Array;
}

/** Jacobi stopping rule for XᵀX: off-diagonal mass negligible relative to the diagonal's (or exactly 0). */
const PCA_JACOBI: JacobiOptions = { converged: (off, diag) => off <= 1e-30 * diag || off === 0 };

/**
 * Training descriptors (rows = training compounds, NaN = missing) prepared for cosine queries.
 * `raw(r)` gives a row's original values: the local SVMs train on those, not on the scaled and
 * projected ones (as lazar did).
 */
export class DescriptorSpace {
  readonly nRows: number;
  readonly nColumns: number;
  /** Row-major training values, NaN where missing. */
  readonly values: Float64Array;
  private readonly cache = new Map<string, DescriptorProjection>();

  constructor(rows: readonly ArrayLike<number>[], nColumns = rows[0]?.length ?? 0) {
    this.nRows = rows.length;
    this.nColumns = nColumns;
    this.values = new Float64Array(this.nRows * nColumns);
    rows.forEach((r, i) => {
      if (r.length !== nColumns) throw new RangeError(`row ${i} has ${r.length} values, expected ${nColumns}`);
      for (let j = 0; j < nColumns; j++) {
        const x = r[j]!;
        this.values[i * nColumns + j] = Number.isFinite(x) ? x : NaN;
      }
    });
  }

  raw(r: number): Float64Array {
    return this.values.subarray(r * this.nColumns, (r + 1) * this.nColumns);
  }

  /** The projection for a query that has the columns where `present` is true (cached). */
  projection(present: ArrayLike<boolean>): DescriptorProjection {
    let key = "";
    for (let j = 0; j < this.nColumns; j++) key += present[j] ? "1" : "0";
    let p = this.cache.get(key);
    if (p === undefined) {
      p = this.build(present);
      if (this.cache.size > 64) this.cache.clear();
      this.cache.set(key, p);
    }
    return p;
  }

  /** Steps 1–4 for one set of query columns. */
  private build(present: ArrayLike<boolean>): DescriptorProjection {
    const m = this.nColumns;
    const colOn = new Uint8Array(m);
    for (let j = 0; j < m; j++) colOn[j] = present[j] ? 1 : 0;
    const rowOn = new Uint8Array(this.nRows).fill(1);
    const x = this.values;
    // Step 2: remove the column or row with the largest fraction of missing values until none.
    for (;;) {
      let nCols = 0;
      let nRows = 0;
      for (let j = 0; j < m; j++) nCols += colOn[j]!;
      for (let i = 0; i < this.nRows; i++) nRows += rowOn[i]!;
      if (nCols === 0 || nRows === 0) break;
      const colMiss = new Int32Array(m);
      const rowMiss = new Int32Array(this.nRows);
      let any = false;
      for (let i = 0; i < this.nRows; i++) {
        if (!rowOn[i]) continue;
        for (let j = 0; j < m; j++) {
          if (colOn[j] && Number.isNaN(x[i * m + j]!)) {
            colMiss[j]!++;
            rowMiss[i]!++;
            any = true;
          }
        }
      }
      if (!any) break;
      let bestCol = -1;
      let bestColFrac = -1;
      for (let j = 0; j < m; j++) {
        if (colOn[j] && colMiss[j]! / nRows > bestColFrac) {
          bestColFrac = colMiss[j]! / nRows;
          bestCol = j;
        }
      }
      let bestRow = -1;
      let bestRowFrac = -1;
      for (let i = 0; i < this.nRows; i++) {
        if (rowOn[i] && rowMiss[i]! / nCols > bestRowFrac) {
          bestRowFrac = rowMiss[i]! / nCols;
          bestRow = i;
        }
      }
      if (bestColFrac >= bestRowFrac) colOn[bestCol] = 0;
      else rowOn[bestRow] = 0;
    }
    const columns = Int32Array.from([...colOn.keys()].filter((j) => colOn[j]));
    const rows = Int32Array.from([...rowOn.keys()].filter((i) => rowOn[i]));
    const p = columns.length;
    const n = rows.length;
    // Step 3: autoscale.
    const mean = new Float64Array(p);
    const scale = new Float64Array(p).fill(1);
    const z = new Float64Array(n * p);
    for (let c = 0; c < p; c++) {
      const j = columns[c]!;
      let s = 0;
      for (let r = 0; r < n; r++) s += x[rows[r]! * m + j]!;
      const mu = n > 0 ? s / n : 0;
      let ss = 0;
      for (let r = 0; r < n; r++) {
        const d = x[rows[r]! * m + j]! - mu;
        ss += d * d;
      }
      const sd = n > 0 ? Math.sqrt(ss / n) : 0;
      mean[c] = mu;
      if (sd > 1e-12 * Math.max(1, Math.abs(mu))) scale[c] = sd;
      for (let r = 0; r < n; r++) z[r * p + c] = (x[rows[r]! * m + j]! - mu) / scale[c]!;
    }
    // Step 4: SVD via XᵀX = V·S²·Vᵀ.
    const xtx = new Float64Array(p * p);
    for (let r = 0; r < n; r++) {
      for (let a = 0; a < p; a++) {
        const za = z[r * p + a]!;
        if (za === 0) continue;
        for (let b = a; b < p; b++) xtx[a * p + b]! += za * z[r * p + b]!;
      }
    }
    for (let a = 0; a < p; a++) for (let b = 0; b < a; b++) xtx[a * p + b] = xtx[b * p + a]!;
    const { values, vectors } = jacobiEigen(xtx, p, PCA_JACOBI); // cyclic Jacobi rotations, xtx destroyed
    const order = [...values.keys()].sort((a, b) => values[b]! - values[a]!);
    const sMax = Math.sqrt(Math.max(0, values[order[0] ?? 0] ?? 0));
    const comps = order.filter((c) => Math.sqrt(Math.max(0, values[c]!)) > 1e-10 * sMax && sMax > 0);
    const k = Math.min(COSINE_COMPONENTS, comps.length);
    const proj = new Float64Array(p * k);
    for (let a = 0; a < p; a++) {
      for (let c = 0; c < k; c++) proj[a * k + c] = vectors[a * p + comps[c]!]! / Math.sqrt(values[comps[c]!]!);
    }
    const u = new Float64Array(n * k);
    for (let r = 0; r < n; r++) {
      for (let a = 0; a < p; a++) {
        const za = z[r * p + a]!;
        if (za === 0) continue;
        for (let c = 0; c < k; c++) u[r * k + c]! += za * proj[a * k + c]!;
      }
    }
    return { columns, rows, mean, scale, k, proj, u };
  }

  /** The query in the projection's whitened PC space (k components). */
  project(query: ArrayLike<number>, p: DescriptorProjection): Float64Array {
    const out = new Float64Array(p.k);
    for (let a = 0; a < p.columns.length; a++) {
      const za = (query[p.columns[a]!]! - p.mean[a]!) / p.scale[a]!;
      for (let c = 0; c < p.k; c++) out[c]! += za * p.proj[a * p.k + c]!;
    }
    return out;
  }

  /**
   * Cosine similarities of the query (NaN/non-finite = missing) with every training row;
   * rows removed for missing values get NaN (never a neighbour).
   */
  similarities(query: ArrayLike<number>, out: Float64Array = new Float64Array(this.nRows)): Float64Array {
    const present: boolean[] = [];
    for (let j = 0; j < this.nColumns; j++) present.push(Number.isFinite(query[j]!));
    const p = this.projection(present);
    out.fill(NaN);
    if (p.k === 0) return out;
    const q = this.project(query, p);
    for (let r = 0; r < p.rows.length; r++) out[p.rows[r]!] = cosine(q, p.u.subarray(r * p.k, (r + 1) * p.k), p.k);
    return out;
  }
}
