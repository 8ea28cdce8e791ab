/**
 * Subspace iteration (src/numeric/subspace-iteration.ts) on a matrix with a known spectrum:
 * A = H·diag(λ)·H with the Householder reflection H = I − 2uuᵀ/(uᵀu), orthogonal and symmetric
 * by construction, so A's eigenvalues are λ and its eigenvectors the columns of H. The routine
 * is approximate by design (it stops once the estimates change by less than 1e-3 relative),
 * so the checks use a well separated spectrum and loose tolerances.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DeadlineExceeded } from "../../../src/numeric/deadline.ts";
import { mulberry32Unit } from "../../../src/numeric/random.ts";
import { topEigenpairs } from "../../../src/numeric/subspace-iteration.ts";

test("the four dominant eigenpairs of H·diag(λ)·H, approximately", () => {
  const n = 12;
  const lambda = [100, 40, 15, 6, 1, 0.8, 0.5, 0.3, 0.2, -0.1, -0.4, 0];
  const u = Float64Array.from({ length: n }, (_, i) => 1 + ((i * 7) % 5) - i / 10);
  let uu = 0;
  for (const v of u) uu += v * v;
  const H = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) H[i * n + j] = (i === j ? 1 : 0) - (2 * u[i]! * u[j]!) / uu;
  const A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    let s = 0;
    for (let k = 0; k < n; k++) s += H[i * n + k]! * lambda[k]! * H[j * n + k]!;
    A[i * n + j] = s;
  }
  const { values, vectors } = topEigenpairs(A, n, 4, mulberry32Unit(5));
  for (let c = 0; c < 4; c++) {
    assert.ok(Math.abs(values[c]! - lambda[c]!) < 1e-2 * lambda[c]!, `λ${c} = ${values[c]} vs ${lambda[c]}`);
    // |cos| of the angle to the true eigenvector (column c of H)
    let dot = 0;
    for (let i = 0; i < n; i++) dot += vectors[c * n + i]! * H[i * n + c]!;
    assert.ok(Math.abs(dot) > 0.99, `vector ${c}: |cos| = ${Math.abs(dot)}`);
  }
  assert.throws(() => topEigenpairs(A, n, 4, mulberry32Unit(5), performance.now() - 1), DeadlineExceeded);
});
