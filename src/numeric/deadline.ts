/**
 * Wall-clock bounds for the iterative numeric routines (lbfgs.ts, subspace-iteration.ts): a
 * caller passes a `deadline` in `performance.now()` milliseconds; past it the routine throws
 * `DeadlineExceeded` instead of returning a half-finished result.
 */

/** Thrown by a numeric routine whose deadline has passed. */
export class DeadlineExceeded extends Error {
  constructor() {
    super("deadline exceeded");
    this.name = "DeadlineExceeded";
  }
}
