/**
 * chiSquareCdf (src/mining/chisq.ts) against closed forms and tables: df = 2 is 1 − e^(−x/2) and
 * df = 4 is 1 − e^(−x/2)(1 + x/2) (exact); df = 1 against fminer's erf-based chisqCdf1
 * (stats.ts, another implementation); the 95 % quantiles 3.841, 5.991, 7.815, 9.488 of
 * df = 1…4 (standard tables, 4 significant digits) give 0.95.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chiSquareCdf } from "../../../src/mining/chisq.ts";
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
