/**
 * Cyclic Jacobi eigen-decomposition of a symmetric matrix: the one implementation behind LAST-PM's
 * SVD filter (mining/last/svd.ts), the descriptor-space PCA (learn/descriptor-space.ts), BCUT
 * (chem/descriptors/hybrid.ts) and the 3×3 inertia/covariance tensors of the 3D descriptors
 * (chem/descriptors/geometry3d.ts).
 *
 * Each sweep visits the pairs (p, q), p < q, in row order and annihilates a_pq with the rotation
 * θ = (a_qq − a_pp) / (2 a_pq), t = sign(θ) / (|θ| + √(θ² + 1)) (sign(0) taken as +1),
 * c = 1 / √(t² + 1), s = t·c, applied to the columns p, q of A, then to its rows p, q, then to the
 * columns of V. The callers differ only in their stopping rule, so that is a parameter; the
 * arithmetic (loop order, operations, summation order of the convergence sums) is fixed, and
 * LAST-PM's golden flags depend on it bit for bit.
 */

export interface JacobiOptions {
  /**
   * Stopping rule, asked before every sweep: `offDiagonalSquares` is Σ a_pq² over p < q and
   * `diagonalSquares` Σ a_pp², each summed from 0 in row order. True stops.
   */
  readonly converged: (offDiagonalSquares: number, diagonalSquares: number) => boolean;
  /** Accumulate the eigenvectors (default true); false returns `vectors: null`. */
  readonly vectors?: boolean;
  /** Sweep limit (default 100). */
  readonly maxSweeps?: number;
}

/** Rotations for |a_pq| below this are skipped: a_pq² underflows to 0, the entry is already annihilated. */
const NEGLIGIBLE = 1e-300;

/**
 * Eigen-decomposition of the symmetric n×n matrix `a` (row-major), which is destroyed: on return
 * its diagonal holds the eigenvalues. Eigenvalues come unsorted, in the order of the diagonal;
 * eigenvector i is column i of `vectors` (row-major n×n: vectors[k·n + i]).
 */
export function jacobiEigen(a: Float64Array, n: number, options: JacobiOptions & { vectors: false }): { values: Float64Array; vectors: null };
export function jacobiEigen(a: Float64Array, n: number, options: JacobiOptions): { values: Float64Array; vectors: Float64Array };
export function jacobiEigen(a: Float64Array, n: number, options: JacobiOptions): { values: Float64Array; vectors: Float64Array | null } {
  const { converged, maxSweeps = 100 } = options;
  let V: Float64Array | null = null;
  if (options.vectors !== false) {
    V = new Float64Array(n * n);
    for (let i = 0; i < n; i++) V[i * n + i] = 1;
  }
  for (let sweep = 0; sweep < maxSweeps; sweep++) {
    let off = 0;
    let diag = 0;
    for (let p = 0; p < n; p++) {
      diag += a[p * n + p]! * a[p * n + p]!;
      for (let q = p + 1; q < n; q++) off += a[p * n + q]! * a[p * n + q]!;
    }
    if (converged(off, diag)) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        if (Math.abs(apq) < NEGLIGIBLE) continue;
        const app = a[p * n + p]!;
        const aqq = a[q * n + q]!;
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p]!;
          const akq = a[k * n + q]!;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k]!;
          const aqk = a[q * n + k]!;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        if (V === null) continue;
        for (let k = 0; k < n; k++) {
          const vkp = V[k * n + p]!;
          const vkq = V[k * n + q]!;
          V[k * n + p] = c * vkp - s * vkq;
          V[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = a[i * n + i]!;
  return { values, vectors: V };
}
