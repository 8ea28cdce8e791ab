/**
 * Limited-memory BFGS minimisation (the two-loop recursion over the last `memory` correction
 * pairs with the initial Hessian scaled by sᵀy / yᵀy, as in Nocedal & Wright, Numerical
 * Optimization, algorithm 7.4) with a backtracking Armijo line search (sufficient decrease
 * c₁ = 1e-4, the step halved at most 20 times). Pairs with sᵀy ≤ 1e-12 are not stored;
 * a direction that is not a descent direction restarts from steepest descent with the memory
 * cleared. Written for the conformer generator's distance-geometry and force-field clean-up
 * (chem/descriptors/conformer.ts), which bounds the step per coordinate (`maxStep`) and the
 * wall-clock time (`deadline`).
 *
 * Stops when the largest gradient component is below `gtol`, when one step changes the value
 * by less than 1e-9·max(1, |f|), when the line search finds no
 * sufficient decrease, or after `maxIter` iterations.
 */

import { DeadlineExceeded } from "./deadline.ts";

/** Value at x; writes the gradient into `grad`. */
export type Objective = (x: Float64Array, grad: Float64Array) => number;

export interface LbfgsOptions {
  /** Iteration limit. */
  readonly maxIter: number;
  /** Converged when max |∂f/∂xᵢ| < gtol (default 1e-4). */
  readonly gtol?: number;
  /** The first trial step moves no coordinate by more than this (default Infinity: the full step). */
  readonly maxStep?: number;
  /**
   * `performance.now()` time after which `DeadlineExceeded` is thrown (checked every 8
   * iterations; default none).
   */
  readonly deadline?: number;
  /** Correction pairs kept (default 6). */
  readonly memory?: number;
}

/** Minimise f from x, which is updated in place. Returns the final value. */
export function lbfgs(f: Objective, x: Float64Array, options: LbfgsOptions): number {
  const { maxIter, gtol = 1e-4, maxStep = Infinity, deadline = Infinity, memory: M = 6 } = options;
  const dim = x.length;
  const S = Array.from({ length: M }, () => new Float64Array(dim));
  const Y = Array.from({ length: M }, () => new Float64Array(dim));
  const rho = new Float64Array(M);
  const alpha = new Float64Array(M);
  let count = 0; // stored pairs
  let head = 0; // next slot
  const g = new Float64Array(dim);
  const gNew = new Float64Array(dim);
  const xNew = new Float64Array(dim);
  const d = new Float64Array(dim);
  let fx = f(x, g);
  for (let it = 0; it < maxIter; it++) {
    if ((it & 7) === 0 && performance.now() > deadline) throw new DeadlineExceeded();
    let gn = 0;
    for (let i = 0; i < dim; i++) {
      const v = Math.abs(g[i]!);
      if (v > gn) gn = v;
    }
    if (gn < gtol) break;
    for (let i = 0; i < dim; i++) d[i] = -g[i]!;
    for (let c = 0; c < count; c++) {
      const t = (head - 1 - c + M) % M;
      const s = S[t]!;
      const y = Y[t]!;
      let a = 0;
      for (let i = 0; i < dim; i++) a += s[i]! * d[i]!;
      a *= rho[t]!;
      alpha[t] = a;
      for (let i = 0; i < dim; i++) d[i]! -= a * y[i]!;
    }
    if (count > 0) {
      const t = (head - 1 + M) % M;
      const s = S[t]!;
      const y = Y[t]!;
      let sy = 0;
      let yy = 0;
      for (let i = 0; i < dim; i++) {
        sy += s[i]! * y[i]!;
        yy += y[i]! * y[i]!;
      }
      const gamma = sy / yy;
      for (let i = 0; i < dim; i++) d[i]! *= gamma;
    }
    for (let c = count - 1; c >= 0; c--) {
      const t = (head - 1 - c + M) % M;
      const s = S[t]!;
      const y = Y[t]!;
      let b = 0;
      for (let i = 0; i < dim; i++) b += y[i]! * d[i]!;
      b *= rho[t]!;
      const k = alpha[t]! - b;
      for (let i = 0; i < dim; i++) d[i]! += k * s[i]!;
    }
    let slope = 0;
    for (let i = 0; i < dim; i++) slope += g[i]! * d[i]!;
    if (slope >= 0) {
      // not a descent direction: restart with steepest descent
      count = 0;
      slope = 0;
      for (let i = 0; i < dim; i++) {
        d[i] = -g[i]!;
        slope -= g[i]! * g[i]!;
      }
    }
    // first trial step: the full step, shortened so that no coordinate moves more than maxStep
    let mx = 0;
    for (let i = 0; i < dim; i++) {
      const v = Math.abs(d[i]!);
      if (v > mx) mx = v;
    }
    let step = mx > maxStep ? maxStep / mx : 1;
    let fNew = 0;
    let ok = false;
    for (let ls = 0; ls < 20; ls++) {
      for (let i = 0; i < dim; i++) xNew[i] = x[i]! + step * d[i]!;
      fNew = f(xNew, gNew);
      if (fNew <= fx + 1e-4 * step * slope) {
        ok = true;
        break;
      }
      step *= 0.5;
    }
    if (!ok) break;
    const s = S[head]!;
    const y = Y[head]!;
    let sy = 0;
    for (let i = 0; i < dim; i++) {
      s[i] = xNew[i]! - x[i]!;
      y[i] = gNew[i]! - g[i]!;
      sy += s[i]! * y[i]!;
    }
    x.set(xNew);
    g.set(gNew);
    const converged = Math.abs(fx - fNew) < 1e-9 * Math.max(1, Math.abs(fx));
    fx = fNew;
    if (sy > 1e-12) {
      rho[head] = 1 / sy;
      head = (head + 1) % M;
      if (count < M) count++;
    }
    if (converged) break;
  }
  return fx;
}
