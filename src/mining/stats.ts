/**
 * fminer's significance statistics (docs/miners.md "Statistics").
 */

/**
 * fminer's chi-square: only the "pattern present" row of the 2×k table, with a *signed*
 * continuity correction: Σ_c (f_c − E_c − 0.5)² / E_c over classes with E_c > 0,
 * E_c = n_c·(F/N). Precision: F/N and E_c are single-precision floats, the rest double; this is what
 * reproduces the golden files' 4-decimal values at exact ties (4.75625 → 4.7563 in
 * fminer/test/tmp2, exactly 6.03125 → 6.0312 with printf's ties-to-even).
 */
export function fminerChisq(f: ArrayLike<number>, n: ArrayLike<number>, N: number): number {
  let F = 0;
  for (let c = 0; c < f.length; c++) F += f[c]!;
  let chi = 0;
  const share = Math.fround(F / N); // a C++ `float` (see above)
  for (let c = 0; c < f.length; c++) {
    const E = Math.fround(n[c]! * share);
    if (E > 0) {
      const d = f[c]! - E - 0.5;
      chi += (d * d) / E;
    }
  }
  return chi;
}

/**
 * Morishita–Sese style upper bound: the maximum chi-square over every non-empty
 * *proper* subset S of the classes, with the counts of the classes outside S set to 0.
 * (The full set, i.e. the pattern itself, is not part of the maximum.)
 */
export function fminerUpperBound(f: ArrayLike<number>, n: ArrayLike<number>, N: number): number {
  const k = f.length;
  const g = new Float64Array(k);
  let best = 0;
  for (let s = 1; s < (1 << k) - 1; s++) {
    for (let c = 0; c < k; c++) g[c] = s & (1 << c) ? f[c]! : 0;
    const v = fminerChisq(g, n, N);
    if (v > best) best = v;
  }
  return best;
}

/** Default thresholds by number of classes k: 95% chi-square quantiles for df = k − 1. */
export function defaultChisqThreshold(k: number): number {
  return [0, 0, 3.84, 5.99, 7.82, 9.49][k] ?? 9.49;
}

/** Chi-square CDF for df = 1 (fminer's printed "p-value" 1 − p with FMINER_PVALUES, for any k). */
export function chisqCdf1(x: number): number {
  if (x <= 0) return 0;
  return erf(Math.sqrt(x / 2));
}

/** Inverse of `chisqCdf1` by bisection (user thresholds `-p`: fminer takes df = 1 for any k). */
export function chisqQuantile1(p: number): number {
  if (p <= 0) return 0;
  let lo = 0;
  let hi = 100;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (chisqCdf1(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

function erf(x: number): number {
  // Abramowitz–Stegun 7.1.26 is too coarse for 4 decimals; use a series / continued fraction.
  const t = Math.abs(x);
  let r: number;
  if (t < 3) {
    let sum = t;
    let term = t;
    for (let n = 1; n < 200; n++) {
      term *= (-t * t) / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17) break;
    }
    r = (2 / Math.sqrt(Math.PI)) * sum;
  } else {
    // erfc continued fraction
    let f = 0;
    for (let n = 60; n >= 1; n--) f = n / 2 / (t + f);
    r = 1 - Math.exp(-t * t) / Math.sqrt(Math.PI) / (t + f);
  }
  return x < 0 ? -r : r;
}

/**
 * Kuiper's two-sample statistic as fminer's regression test computes it (labelled "KS"
 * in the C++): V = D+ + D− between all activities and the activities of the compounds with the
 * pattern; p = 1 − Q_Kuiper(λ), λ = (√Ne + 0.155 + 0.24/√Ne)·V, Ne = n1·n2/(n1+n2).
 * `all` must be sorted ascending; `sub` is sorted here.
 */
export function fminerKuiper(all: Float64Array, sub: Float64Array): number {
  const n1 = all.length;
  const n2 = sub.length;
  if (n1 === 0 || n2 === 0) return 0;
  const s = Float64Array.from(sub).sort();
  let j1 = 0;
  let j2 = 0;
  let fn1 = 0;
  let fn2 = 0;
  let dplus = 0;
  let dminus = 0;
  while (j1 < n1 && j2 < n2) {
    const d1 = all[j1]!;
    const d2 = s[j2]!;
    if (d1 <= d2) fn1 = ++j1 / n1;
    if (d2 <= d1) fn2 = ++j2 / n2;
    const dt = fn2 - fn1;
    if (dt > dplus) dplus = dt;
    if (-dt > dminus) dminus = -dt;
  }
  const v = dplus + dminus;
  const ne = (n1 * n2) / (n1 + n2);
  const sq = Math.sqrt(ne);
  const lambda = (sq + 0.155 + 0.24 / sq) * v;
  return 1 - qKuiper(lambda);
}

/** Numerical Recipes' Q_Kuiper; 0 when the series does not converge within 100 terms. */
function qKuiper(lambda: number): number {
  const EPS1 = 0.001;
  const EPS2 = 1e-8;
  const a2 = -2 * lambda * lambda;
  let fac = 2;
  let sum = 0;
  let termbf = 0;
  for (let j = 1; j <= 100; j++) {
    const a2j2 = a2 * j * j;
    const term = fac * (-2 * a2j2 - 1) * Math.exp(a2j2);
    sum += term;
    if (Math.abs(term) <= EPS1 * termbf || Math.abs(term) <= EPS2 * sum) return sum;
    fac = -fac;
    termbf = Math.abs(term);
  }
  return 1;
}

/**
 * `printf("%.<digits>f")` as glibc does it: the exact binary value is rounded, exact ties to
 * even. (`Number#toFixed` rounds exact ties up: 6.03125 → "6.0313", glibc → "6.0312".)
 */
export function formatFixed(x: number, digits: number): string {
  const s = x.toFixed(digits);
  // Exact decimal expansion of the double (at most ~770 digits; 60 suffice here).
  const exact = x.toFixed(Math.min(100, digits + 60));
  const tail = exact.slice(exact.indexOf(".") + 1 + digits);
  if (/^50*$/.test(tail)) {
    // exact tie: round half to even
    const down = exact.slice(0, exact.indexOf(".") + (digits === 0 ? 0 : 1 + digits));
    const lastDigit = Number(down[down.length - 1]);
    if (lastDigit % 2 === 0) return down;
  }
  return s;
}
