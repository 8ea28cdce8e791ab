/**
 * fminer's statistics (amaunz/fminer2 @ 21afb3b : libbbrc/constraints.cpp and constraints.h: the
 * chi-square of the present row with fminer's signed 0.5 correction, its upper bound over class
 * subsets, the default thresholds) and the helpers that reproduce its numerics. Reference values:
 * the golden files fixtures/data/fminer2/fminer/test/tmp1 and tmp2, and hand calculations.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DATA } from "../../helpers/data.ts";
import { fminerChisq, fminerUpperBound, formatFixed, defaultChisqThreshold } from "../../../src/mining/stats.ts";
import { stdSort } from "../../../src/mining/stdsort.ts";

const hamsterClasses = (): Map<number, number> => {
  const m = new Map<number, number>();
  for (const l of readFileSync(`${DATA}fminer2/libbbrc/test/hamster_carcinogenicity.class`, "utf8").split("\n")) {
    const f = l.split("\t");
    if (f.length === 3) m.set(Number(f[0]), Number(f[2]));
  }
  return m;
};

// By hand: E = 35·45/85 = 18.529 and 35·40/85 = 16.471; (30 − 18.529 − 0.5)²/18.529 +
// (5 − 16.471 − 0.5)²/16.471 = 6.496 + 8.700 = 15.196; line 48 of tmp1 prints 15.1953.
test("worked example: [#7&A]-[#7&A] in 30 actives / 5 inactives of 45/40 → 15.1953", () => {
  assert.equal(formatFixed(fminerChisq([5, 30], [40, 45], 85), 4), "15.1953");
});

test("chi-square of every line of tmp1 and tmp2, recomputed from the listed occurrences, to 4 decimals", () => {
  const cls = hamsterClasses();
  const n = [0, 0];
  for (const v of cls.values()) n[v]!++;
  for (const file of ["tmp1", "tmp2"]) {
    const text = readFileSync(`${DATA}fminer2/fminer/test/${file}`, "utf8");
    let checked = 0;
    for (const line of text.split("\n").filter((l) => l)) {
      const m = /^- \[ "[^"]*", ([\d.]+), \[([^\]]*)\], \[([^\]]*)\] \]$/.exec(line);
      assert.ok(m, line);
      const ids = (s: string) => s.split(",").map((x) => x.trim()).filter((x) => x).map(Number);
      const act = ids(m[2]!);
      const inact = ids(m[3]!);
      // lists are by descending class value: actives (1) first
      for (const id of act) assert.equal(cls.get(id), 1);
      for (const id of inact) assert.equal(cls.get(id), 0);
      const chi = fminerChisq([inact.length, act.length], n, 85);
      assert.equal(formatFixed(chi, 4), m[1], line);
      assert.ok(chi >= defaultChisqThreshold(2), "significant");
      assert.ok(fminerUpperBound([inact.length, act.length], n, 85) >= chi, "u bounds chi2 when significant");
      checked++;
    }
    assert.equal(checked, file === "tmp1" ? 53 : 195);
  }
});

test("exact ties print like glibc printf (ties to even on the exact binary value)", () => {
  assert.equal(formatFixed(6.03125, 4), "6.0312"); // exactly representable tie
  assert.equal(formatFixed(6.03135, 4), (6.03135).toFixed(4)); // not a tie in binary
  assert.equal(formatFixed(0.5, 0), "0");
  assert.equal(formatFixed(1.5, 0), "2");
  assert.equal(formatFixed(15.195338249207, 4), "15.1953");
});

// fminer's bound (libbbrc/constraints.h Calc): the largest chi-square over every non-empty proper
// subset of the classes, the others set to 0; for two classes that is the classic one.
test("upper bound for two classes is max(chi2(f_a, 0), chi2(0, f_i))", () => {
  const n = [40, 45];
  const u = fminerUpperBound([5, 30], n, 85);
  assert.equal(u, Math.max(fminerChisq([5, 0], n, 85), fminerChisq([0, 30], n, 85)));
  // three classes: all 6 non-empty proper subsets
  const n3 = [12, 45, 28];
  const f3 = [1, 10, 3];
  let best = 0;
  for (const s of [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, 0, 1], [0, 1, 1]]) best = Math.max(best, fminerChisq(f3.map((x, i) => x * s[i]!), n3, 85));
  assert.equal(fminerUpperBound(f3, n3, 85), best);
});

test("stdSort equals a stable sort for a strict weak order and handles > 16 elements", () => {
  const xs = Array.from({ length: 200 }, (_, i) => (i * 7919) % 101);
  const a = [...xs];
  stdSort(a, (p, q) => p < q);
  assert.deepEqual(a, [...xs].sort((p, q) => p - q));
});
