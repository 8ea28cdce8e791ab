/**
 * The k dominant eigenpairs (largest |λ|) of a symmetric matrix, approximately, by subspace
 * (block power) iteration: multiply k vectors by G, Gram–Schmidt, repeat; the Rayleigh
 * quotients are the eigenvalue estimates. Start vectors come from the caller's PRNG; at most 60
 * iterations, stopping once no estimate changes by more than 1e-3 relative (after the fifth).
 *
 * Used by the conformer generator (chem/descriptors/conformer.ts) for the 4D coordinates from a
 * metric matrix, which only need to be a starting point for minimisation. It is not
 * numeric/jacobi.ts: Jacobi finds all n eigenpairs to full precision at O(n³) per sweep, this
 * finds k approximately at O(n²k) per iteration (n is up to 600 atoms with hydrogens, within
 * the conformer's time bound), and the conformers, hence the 3D descriptor values, depend on
 * exactly these approximate vectors.
 */

import { DeadlineExceeded } from "./deadline.ts";

/**
 * Top-k eigenpairs of the symmetric n×n matrix G (row-major). `vectors` is column-major: vector
 * c at [c·n, c·n + n). Throws `DeadlineExceeded` past `deadline` (`performance.now()` ms,
 * checked every 16 iterations).
 */
export function topEigenpairs(G: Float64Array, n: number, k: number, rand: () => number, deadline = Infinity): { values: Float64Array; vectors: Float64Array } {
  const Q = new Float64Array(n * k); // column-major: vector c at [c*n .. c*n+n)
  for (let t = 0; t < Q.length; t++) Q[t] = rand() - 0.5;
  const Z = new Float64Array(n * k);
  const orth = (A: Float64Array): void => {
    for (let c = 0; c < k; c++) {
      for (let p = 0; p < c; p++) {
        let dot = 0;
        for (let i = 0; i < n; i++) dot += A[c * n + i]! * A[p * n + i]!;
        for (let i = 0; i < n; i++) A[c * n + i]! -= dot * A[p * n + i]!;
      }
      let nn = 0;
      for (let i = 0; i < n; i++) nn += A[c * n + i]! ** 2;
      nn = Math.sqrt(nn) || 1;
      for (let i = 0; i < n; i++) A[c * n + i]! /= nn;
    }
  };
  orth(Q);
  const values = new Float64Array(k);
  const prev = new Float64Array(k);
  for (let it = 0; it < 60; it++) {
    if ((it & 15) === 0 && performance.now() > deadline) throw new DeadlineExceeded();
    for (let i = 0; i < n; i++) {
      const row = i * n;
      for (let c = 0; c < k; c++) {
        let s = 0;
        const q = c * n;
        for (let j = 0; j < n; j++) s += G[row + j]! * Q[q + j]!;
        Z[q + i] = s;
      }
    }
    let change = 0;
    for (let c = 0; c < k; c++) {
      let r = 0;
      for (let i = 0; i < n; i++) r += Q[c * n + i]! * Z[c * n + i]!;
      values[c] = r;
      change = Math.max(change, Math.abs(r - prev[c]!) / Math.max(1, Math.abs(r)));
      prev[c] = r;
    }
    Q.set(Z);
    orth(Q);
    if (it > 3 && change < 1e-3) break;
  }
  return { values, vectors: Q };
}
