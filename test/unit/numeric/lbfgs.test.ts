/**
 * L-BFGS (src/numeric/lbfgs.ts) on functions whose minimiser is known in closed form, so no
 * reference value comes from the code under test:
 * - Rosenbrock's function f(x, y) = 100·(y − x²)² + (1 − x)² (H. H. Rosenbrock, "An automatic
 *   method for finding the greatest or least value of a function", The Computer Journal 3, 1960)
 *   from its customary start (−1.2, 1): a sum of two squares, zero only where x = 1 and
 *   y = x², so the minimum is f = 0 at (1, 1);
 * - the extended Rosenbrock function (Moré, Garbow & Hillstrom, "Testing unconstrained
 *   optimization software", ACM TOMS 7, 1981, problem 21: n/2 independent Rosenbrock pairs,
 *   start (−1.2, 1, …)), minimum 0 at (1, …, 1);
 * - a convex quadratic ½xᵀAx − bᵀx with A symmetric positive definite, b = A·x* for a chosen
 *   x*: the gradient Ax − b vanishes only at x*.
 * The minimiser stops when one step changes f by less than 1e-9·max(1, |f|), which near a
 * minimum can leave x about 1e-5 from it (the quadratic, where |f| is large): hence its tolerance.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { DeadlineExceeded } from "../../../src/numeric/deadline.ts";
import { lbfgs, type Objective } from "../../../src/numeric/lbfgs.ts";

const rosenbrock: Objective = (x, g) => {
  let f = 0;
  g.fill(0);
  for (let i = 0; i + 1 < x.length; i += 2) {
    const a = x[i]!;
    const b = x[i + 1]!;
    const r = b - a * a;
    f += 100 * r * r + (1 - a) * (1 - a);
    g[i] = -400 * a * r - 2 * (1 - a);
    g[i + 1] = 200 * r;
  }
  return f;
};

test("Rosenbrock's function from (−1.2, 1): the minimum 0 at (1, 1)", () => {
  const x = Float64Array.from([-1.2, 1]);
  const f = lbfgs(rosenbrock, x, { maxIter: 1000, gtol: 1e-8 });
  assert.ok(Math.abs(x[0]! - 1) < 1e-6 && Math.abs(x[1]! - 1) < 1e-6, `x = (${x[0]}, ${x[1]})`);
  assert.ok(f >= 0 && f < 1e-8, `f = ${f}`);
});

test("extended Rosenbrock (10 variables) from (−1.2, 1, …): the minimum 0 at (1, …, 1)", () => {
  const x = new Float64Array(10);
  for (let i = 0; i < 10; i += 2) x.set([-1.2, 1], i);
  const f = lbfgs(rosenbrock, x, { maxIter: 2000, gtol: 1e-8 });
  for (let i = 0; i < 10; i++) assert.ok(Math.abs(x[i]! - 1) < 1e-6, `x[${i}] = ${x[i]}`);
  assert.ok(f >= 0 && f < 1e-8, `f = ${f}`);
});

test("a convex quadratic ½xᵀAx − bᵀx with b = A·x*: the minimiser x*", () => {
  // A = tridiagonal (4 on the diagonal, −1 beside it): symmetric, strictly diagonally dominant
  // with a positive diagonal, hence positive definite.
  const n = 8;
  const xStar = Float64Array.from({ length: n }, (_, i) => (i % 3) - 1.5 + i / 4);
  const mul = (v: Float64Array, out: Float64Array): void => {
    for (let i = 0; i < n; i++) out[i] = 4 * v[i]! - (i > 0 ? v[i - 1]! : 0) - (i + 1 < n ? v[i + 1]! : 0);
  };
  const b = new Float64Array(n);
  mul(xStar, b);
  const ax = new Float64Array(n);
  const quadratic: Objective = (x, g) => {
    mul(x, ax);
    let f = 0;
    for (let i = 0; i < n; i++) {
      f += 0.5 * x[i]! * ax[i]! - b[i]! * x[i]!;
      g[i] = ax[i]! - b[i]!;
    }
    return f;
  };
  const x = new Float64Array(n);
  lbfgs(quadratic, x, { maxIter: 200, gtol: 1e-10 });
  for (let i = 0; i < n; i++) assert.ok(Math.abs(x[i]! - xStar[i]!) < 1e-4, `x[${i}] = ${x[i]} vs ${xStar[i]}`);
});

test("maxStep bounds the first trial step per coordinate; a passed deadline throws DeadlineExceeded", () => {
  const start = Float64Array.from([-1.2, 1]);
  const trials: Float64Array[] = [];
  const recording: Objective = (x, g) => {
    trials.push(x.slice());
    return rosenbrock(x, g);
  };
  lbfgs(recording, start.slice(), { maxIter: 1, maxStep: 0.05 });
  // trials[0] is the start; trials[1] the first trial point of the line search
  assert.ok(trials.length >= 2);
  const moved = Math.max(Math.abs(trials[1]![0]! - start[0]!), Math.abs(trials[1]![1]! - start[1]!));
  assert.ok(moved <= 0.05 + 1e-15 && moved > 0.049, `first trial moved ${moved}`);
  assert.throws(() => lbfgs(rosenbrock, start.slice(), { maxIter: 10, deadline: performance.now() - 1 }), DeadlineExceeded);
});
