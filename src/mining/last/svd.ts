/**
 * LAST-PM's SVD edge filter (docs/miners.md "SVD filter"; liblast's `GSWalk::svd`).
 *
 * The walk's weighted adjacency matrix A (symmetric, A_ij = A_ji = edge weight, nodes in id
 * order) is decomposed, the smallest singular values are dropped as long as their cumulative
 * energy stays within CUTOFF of the total (the value that crosses the cutoff is kept), A is
 * reconstructed from the rest and every edge whose reconstructed entry is below 1 is flagged
 * `deleted`. Nothing is removed from the walk.
 *
 * liblast uses GSL's Golub–Reinsch SVD. A is symmetric, so its SVD follows from the symmetric
 * eigen-decomposition A = Q Λ Qᵀ (singular values |λ|, U = Q·sign(λ), V = Q), computed here with
 * the cyclic Jacobi method, which is exact to rounding for these small matrices. Where singular
 * values tie at the cutoff the reconstruction depends on the basis chosen inside the eigenspace,
 * so flags can differ from GSL's (even fminer2 itself, built from source today, differs from its
 * own golden file in 2 of ~900 edges).
 */

import { jacobiEigen, type JacobiOptions } from "../../numeric/jacobi.ts";
import type { Walk } from "./walk.ts";

export const SVD_CUTOFF = 0.2;

/** Stop once the off-diagonal sum of squares is below 1e-30 (an absolute threshold). */
const SVD_JACOBI: JacobiOptions = { converged: (off) => off < 1e-30 };

/** Eigen-decomposition of a symmetric n×n matrix (row-major): eigenvalues and column eigenvectors. */
export function symmetricEigen(a: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  return jacobiEigen(Float64Array.from(a), n, SVD_JACOBI);
}

/**
 * Low-rank reconstruction of a symmetric matrix: the smallest singular values are dropped as
 * long as their cumulative squared share of the total stays ≤ cutoff; equal singular values are
 * dropped or kept together. (A tree's adjacency matrix is bipartite, so its singular values come
 * in pairs ±λ; keeping a pair whole reproduces liblast's golden flags better than splitting
 * it: hamster fminer1 2 instead of 3 of 248 edges of merged graphs differ, EPAFHM fminer4 36
 * instead of 39 of 1794.)
 */
export function svdCompress(a: Float64Array, n: number, cutoff = SVD_CUTOFF): Float64Array {
  const { values, vectors } = symmetricEigen(a, n);
  const order = [...values.keys()].sort((i, j) => Math.abs(values[j]!) - Math.abs(values[i]!)); // descending σ
  let total = 0;
  for (const v of values) total += v * v;
  const same = (x: number, y: number): boolean => Math.abs(Math.abs(x) - Math.abs(y)) <= 1e-9 * Math.max(1, Math.abs(x));
  let kept = n;
  let dropped = 0;
  while (kept > 0) {
    let j = kept - 1;
    let e = values[order[j]!]! ** 2;
    while (j > 0 && same(values[order[j - 1]!]!, values[order[kept - 1]!]!)) {
      j--;
      e += values[order[j]!]! ** 2;
    }
    if (dropped + e > cutoff * total) break;
    dropped += e;
    kept = j;
  }
  const out = new Float64Array(n * n);
  for (const i of order.slice(0, kept)) {
    const l = values[i]!;
    for (let x = 0; x < n; x++) {
      const vx = vectors[x * n + i]! * l;
      if (vx === 0) continue;
      for (let y = 0; y < n; y++) out[x * n + y]! += vx * vectors[y * n + i]!;
    }
  }
  return out;
}

/** Entries below this count as "< 1" (rounding of an exactly reconstructed weight 1 is not). */
const BELOW_ONE = 1 - 1e-9;

/** Flag the edges of a merged walk that the compressed adjacency matrix does not support. */
export function svdFilter(w: Walk): void {
  const ids = w.nodeIds();
  const n = ids.length;
  const index = new Map(ids.map((id, i) => [id, i]));
  const a = new Float64Array(n * n);
  const edges = w.edgeList();
  for (const [f, t, e] of edges) {
    const i = index.get(f)!;
    const j = index.get(t)!;
    a[i * n + j] = e.weight;
    a[j * n + i] = e.weight;
  }
  const r = svdCompress(a, n);
  for (const [f, t, e] of edges) e.deleted = r[index.get(f)! * n + index.get(t)!]! < BELOW_ONE;
}
