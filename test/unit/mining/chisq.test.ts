/**
 * chiSquareCdf (src/mining/chisq.ts) against closed forms and tables: df = 2 is 1 − e^(−x/2) and
 * df = 4 is 1 − e^(−x/2)(1 + x/2) (exact); df = 1 against fminer's erf-based chisqCdf1
 * (stats.ts, another implementation); the 95 % quantiles 3.841, 5.991, 7.815, 9.488 of
 * df = 1…4 (standard tables, 4 significant digits) give 0.95. chiSquareSurvival (the upper tail,
 * the p-value the pages show) against the same closed forms where they are tiny (e^(−x/2) down to
 * 1e−87, where 1 − CDF would be 0) and, for df = 1, the normal tail 2·(1 − Φ(√x)) by Simpson's
 * rule.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chiSquareCdf, chiSquareSurvival } from "../../../src/mining/chisq.ts";
import { chisqCdf1 } from "../../../src/mining/stats.ts";

const close = (a: number, b: number, tol: number, what: string): void => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

test("closed forms for df 2 and 4", () => {
  for (const x of [0.01, 0.5, 1, 2.5, 5.991, 10, 30, 80]) {
    close(chiSquareCdf(x, 2), 1 - Math.exp(-x / 2), 1e-13, `df 2 at ${x}`);
    close(chiSquareCdf(x, 4), 1 - Math.exp(-x / 2) * (1 + x / 2), 1e-13, `df 4 at ${x}`);
  }
});

test("df 1 agrees with fminer's erf-based chisqCdf1", () => {
  for (const x of [0.001, 0.3, 1, 3.84, 5.7007, 15.1953, 40]) close(chiSquareCdf(x, 1), chisqCdf1(x), 1e-12, `df 1 at ${x}`);
});

test("95 % quantiles of df 1–4 from the tables", () => {
  const q: [number, number][] = [[3.841, 1], [5.991, 2], [7.815, 3], [9.488, 4]];
  for (const [x, df] of q) close(chiSquareCdf(x, df), 0.95, 1e-4, `df ${df}`);
  assert.equal(chiSquareCdf(0, 3), 0);
  assert.throws(() => chiSquareCdf(1, 0), RangeError);
});

test("the upper tail: closed forms for df 2 and 4, relative error 1e−12, also where 1 − CDF is 0", () => {
  for (const x of [0.01, 0.5, 1, 2.5, 5.991, 10, 30, 80, 200, 400]) {
    const rel = (a: number, b: number, what: string): void => assert.ok(Math.abs(a - b) <= 1e-12 * b, `${what}: ${a} vs ${b}`);
    rel(chiSquareSurvival(x, 2), Math.exp(-x / 2), `df 2 at ${x}`);
    rel(chiSquareSurvival(x, 4), Math.exp(-x / 2) * (1 + x / 2), `df 4 at ${x}`);
  }
  assert.equal(1 - chiSquareCdf(400, 2), 0, "the CDF cannot tell it");
  assert.throws(() => chiSquareSurvival(1, 0), RangeError);
});

test("the upper tail at df 1 is the two-sided normal tail (Simpson's rule, 200,000 steps)", () => {
  const tail = (z: number): number => {
    const n = 200_000;
    const h = 40 / n;
    const f = (t: number): number => Math.exp((-t * t) / 2) / Math.sqrt(2 * Math.PI);
    let s = f(z) + f(z + 40);
    for (let i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * f(z + i * h);
    return (s * h) / 3;
  };
  for (const x of [0.3, 1, 3.84, 5.7007, 15.1953, 40]) {
    const want = 2 * tail(Math.sqrt(x));
    assert.ok(Math.abs(chiSquareSurvival(x, 1) - want) <= 1e-9 * want, `df 1 at ${x}: ${chiSquareSurvival(x, 1)} vs ${want}`);
  }
});
