/**
 * Cyclic Jacobi eigen-decomposition (src/numeric/jacobi.ts), checked against references that do not
 * use it:
 * - the path graph P_n (adjacency of a chain of n vertices): eigenvalues 2·cos(kπ/(n+1)),
 *   eigenvectors x_j = sin(jkπ/(n+1)), k = 1…n (standard result of spectral graph theory:
 *   x_{j−1} + x_{j+1} = 2cos(kπ/(n+1))·x_j by the sine addition formula, x_0 = x_{n+1} = 0);
 * - the 2×2 closed form λ = (a+c)/2 ± √(((a−c)/2)² + b²) of [[a, b], [b, c]];
 * - matrices built as H·diag(λ)·H with the Householder reflection H = I − 2uuᵀ/(uᵀu) (orthogonal
 *   and symmetric by construction), so the spectrum is known, repeated values included;
 * - for random symmetric matrices, the defining properties: A·v = λ·v for every column of V,
 *   VᵀV = I, Σλ = trace A and Σλ² = ‖A‖²_F (random numbers from the project's seeded mulberry32Unit,
 *   so a failure can be replayed).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { jacobiEigen, type JacobiOptions } from "../../../src/numeric/jacobi.ts";
import { mulberry32Unit } from "../../../src/numeric/random.ts";

const TIGHT: JacobiOptions = { converged: (off, diag) => off <= 1e-30 * diag || off === 0 };

function randomSymmetric(n: number, rnd: () => number): Float64Array {
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) a[i * n + j] = a[j * n + i] = rnd() * 2 - 1;
  return a;
}

const ascending = (x: ArrayLike<number>): number[] => Array.from(x).sort((p, q) => p - q);

function assertClose(actual: number, expected: number, tol: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected}`);
}

/** A·v = λ·v for every eigenpair and VᵀV = I, within `tol`. */
function assertEigenpairs(a: Float64Array, n: number, values: Float64Array, v: Float64Array, tol: number): void {
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < n; r++) {
      let av = 0;
      for (let k = 0; k < n; k++) av += a[r * n + k]! * v[k * n + i]!;
      assertClose(av, values[i]! * v[r * n + i]!, tol, `(A·v - λ·v)[${r}] of pair ${i}`);
    }
    for (let j = 0; j < n; j++) {
      let dot = 0;
      for (let k = 0; k < n; k++) dot += v[k * n + i]! * v[k * n + j]!;
      assertClose(dot, i === j ? 1 : 0, tol, `(VᵀV)[${i}][${j}]`);
    }
  }
}

test("Jacobi: path graph P_n has eigenvalues 2cos(kπ/(n+1)) and sine eigenvectors", () => {
  for (const n of [1, 2, 3, 5, 8, 13]) {
    const a = new Float64Array(n * n);
    for (let i = 0; i + 1 < n; i++) a[i * n + i + 1] = a[(i + 1) * n + i] = 1;
    const { values, vectors } = jacobiEigen(a.slice(), n, TIGHT);
    const expected = ascending(Array.from({ length: n }, (_, k) => 2 * Math.cos(((k + 1) * Math.PI) / (n + 1))));
    const got = ascending(values);
    for (let k = 0; k < n; k++) assertClose(got[k]!, expected[k]!, 1e-12, `P_${n} eigenvalue ${k}`);
    assertEigenpairs(a, n, values, vectors, 1e-12);
    // eigenvalues of P_n are simple, so each column is ± the normalised sine vector of its λ
    for (let i = 0; i < n; i++) {
      const k = Math.round((Math.acos(Math.max(-1, Math.min(1, values[i]! / 2))) * (n + 1)) / Math.PI);
      const norm = Math.sqrt(2 / (n + 1));
      const sign = Math.sign(vectors[i]!) || 1; // first component sin(kπ/(n+1)) ≠ 0
      for (let j = 0; j < n; j++) assertClose(sign * vectors[j * n + i]!, norm * Math.sin(((j + 1) * k * Math.PI) / (n + 1)), 1e-12, `P_${n} vector ${k}`);
    }
  }
});

test("Jacobi: 2×2 matrices match the closed form", () => {
  const rnd = mulberry32Unit(7);
  const cases: [number, number, number][] = [
    [2, 1, 2], // eigenvalues 1 and 3
    [0, 1, 0], // ±1
    [1, 0, 5], // already diagonal
    [4, 1e-8, 4], // nearly degenerate
  ];
  for (let r = 0; r < 50; r++) cases.push([rnd() * 10 - 5, rnd() * 10 - 5, rnd() * 10 - 5]);
  for (const [a, b, c] of cases) {
    const m = new Float64Array([a, b, b, c]);
    const { values, vectors } = jacobiEigen(m.slice(), 2, TIGHT);
    const mid = (a + c) / 2;
    const rad = Math.hypot((a - c) / 2, b);
    const [lo, hi] = ascending(values);
    assertClose(lo!, mid - rad, 1e-12 * (1 + rad), `[${a}, ${b}, ${c}] low`);
    assertClose(hi!, mid + rad, 1e-12 * (1 + rad), `[${a}, ${b}, ${c}] high`);
    assertEigenpairs(m, 2, values, vectors, 1e-12 * (1 + Math.abs(mid) + rad));
  }
});

test("Jacobi: H·diag(λ)·H with a Householder reflection H has spectrum λ, repeated values included", () => {
  const rnd = mulberry32Unit(11);
  for (const lambda of [[3, -1, 0.5, 2, 7], [2, 2, 2, -1, 5, 5], [1e6, 1, 1e-6, 0]]) {
    const n = lambda.length;
    const u = Array.from({ length: n }, () => rnd() - 0.5);
    const uu = u.reduce((s, x) => s + x * x, 0);
    const h = (i: number, j: number): number => (i === j ? 1 : 0) - (2 * u[i]! * u[j]!) / uu;
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) a[i * n + j]! += h(i, k) * lambda[k]! * h(k, j);
    const scale = Math.max(...lambda.map(Math.abs));
    const { values, vectors } = jacobiEigen(a.slice(), n, TIGHT);
    const got = ascending(values);
    const expected = ascending(lambda);
    for (let k = 0; k < n; k++) assertClose(got[k]!, expected[k]!, 1e-12 * scale, `λ = ${lambda}: eigenvalue ${k}`);
    assertEigenpairs(a, n, values, vectors, 1e-12 * scale);
  }
});

test("Jacobi: random symmetric matrices satisfy A·v = λ·v, VᵀV = I, trace and Frobenius invariants", () => {
  const rnd = mulberry32Unit(3);
  for (const n of [3, 4, 6, 10, 20]) {
    for (let r = 0; r < 5; r++) {
      const a = randomSymmetric(n, rnd);
      const { values, vectors } = jacobiEigen(a.slice(), n, TIGHT);
      assertEigenpairs(a, n, values, vectors, 1e-12 * n);
      let trace = 0;
      let frob = 0;
      for (let i = 0; i < n; i++) {
        trace += a[i * n + i]!;
        for (let j = 0; j < n; j++) frob += a[i * n + j]! ** 2;
      }
      assertClose(values.reduce((s, x) => s + x, 0), trace, 1e-12 * n, "Σλ = trace");
      assertClose(values.reduce((s, x) => s + x * x, 0), frob, 1e-12 * n * frob, "Σλ² = ‖A‖²_F");
    }
  }
});

test("Jacobi: options — stopping rule gets the off-diagonal and diagonal sums, vectors: false, maxSweeps, input destroyed", () => {
  const a = new Float64Array([1, 2, 3, 2, 4, 5, 3, 5, 6]);
  const calls: [number, number][] = [];
  const withVectors = jacobiEigen(a.slice(), 3, { converged: (off, diag) => (calls.push([off, diag]), off <= 1e-30 * diag) });
  // before the first sweep: 2² + 3² + 5² and 1² + 4² + 6²
  assert.deepEqual(calls[0], [38, 53]);
  assert.ok(calls.length > 1 && calls.length <= 100);
  // values-only mode performs the same rotations on A: identical eigenvalues, no vectors
  const m = a.slice();
  const onlyValues = jacobiEigen(m, 3, { ...TIGHT, vectors: false });
  assert.equal(onlyValues.vectors, null);
  assert.deepEqual(Array.from(onlyValues.values), Array.from(withVectors.values));
  // the input is destroyed: its diagonal holds the eigenvalues
  assert.deepEqual([m[0], m[4], m[8]], Array.from(onlyValues.values));
  // no sweep allowed: diagonal as given, V = I
  const none = jacobiEigen(a.slice(), 3, { converged: () => false, maxSweeps: 0 });
  assert.deepEqual(Array.from(none.values), [1, 4, 6]);
  assert.deepEqual(Array.from(none.vectors), [1, 0, 0, 0, 1, 0, 0, 0, 1]);
  // the zero matrix and the empty matrix need no rotation
  assert.deepEqual(Array.from(jacobiEigen(new Float64Array(4), 2, TIGHT).values), [0, 0]);
  assert.equal(jacobiEigen(new Float64Array(0), 0, TIGHT).values.length, 0);
});
