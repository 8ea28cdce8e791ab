/**
 * The chi-square distribution function for any degrees of freedom: P(df/2, x/2), the regularized
 * lower incomplete gamma function, by its series (x < a + 1) or continued fraction (Numerical
 * Recipes §6.2, `gammp`). liblast's ChisqTest reports CDF(chi², df = k − 1) for k classes, the
 * p-value of a LAST-PM feature (docs/miners.md "LAST-PM features"); fminer's df = 1 case is
 * `chisqCdf1` in stats.ts.
 */

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; relative error < 1e-15). */
function lnGamma(x: number): number {
  const c = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let a = c[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Regularized lower incomplete gamma P(a, x). */
export function gammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  const lnPrefix = a * Math.log(x) - x - lnGamma(a);
  if (x < a + 1) {
    let sum = 1 / a;
    let term = sum;
    for (let n = 1; n < 1000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-16) break;
    }
    return sum * Math.exp(lnPrefix);
  }
  return 1 - upperByContinuedFraction(a, x, lnPrefix);
}

/** CDF of the chi-square distribution with `df` degrees of freedom at `x`. */
export function chiSquareCdf(x: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be positive (got ${df})`);
  return gammaP(df / 2, x / 2);
}

/**
 * Regularized upper incomplete gamma Q(a, x) = 1 − P(a, x), computed without the cancellation
 * of `1 − gammaP` where Q is small (the continued fraction gives Q itself).
 */
export function gammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  if (x < a + 1) return 1 - gammaP(a, x);
  return upperByContinuedFraction(a, x, a * Math.log(x) - x - lnGamma(a));
}

/** Q(a, x) for x ≥ a + 1 by Lentz's continued fraction; `lnPrefix` = a ln x − x − ln Γ(a). */
function upperByContinuedFraction(a: number, x: number, lnPrefix: number): number {
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(lnPrefix) * h;
}

/**
 * The upper tail of the chi-square distribution at `x` (the p-value of a statistic x): the
 * significance a page shows, where the stored `ot:pValue` is the distribution function, 1 − p.
 */
export function chiSquareSurvival(x: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be positive (got ${df})`);
  return gammaQ(df / 2, x / 2);
}
