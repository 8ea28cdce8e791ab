/**
 * Plot data (ROC points, cumulative confidence curves) on hand-worked examples, and the SVG
 * plots: well-formed XML (test/unit/validate/xml-check.ts), the expected number of points and
 * paths, escaped text, deterministic output.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  accuracyByConfidence,
  accuracyConfidencePlot,
  classificationRocPlot,
  errorConfidencePlot,
  niceTicks,
  rmseByConfidence,
  rocClasses,
  rocCurve,
  rocPlot,
  scatterPlot,
  trapezoidArea,
  type ClassificationInstance,
  type RegressionInstance,
} from "../../../src/validate/index.ts";
import { checkMarkup, count } from "./xml-check.ts";

const close = (a: number, b: number, tol = 1e-12): void => assert.ok(Math.abs(a - b) < tol, `${a} ≉ ${b}`);
const ci = (n: number, measured: string | null, predicted: string | null, confidence: number | null, fold = 0): ClassificationInstance => ({
  compound: `/compound/c${n}`,
  fold,
  measured,
  predicted,
  confidence,
});

// The binary example of statistics.test.ts.
const binary: ClassificationInstance[] = [
  ci(1, "a", "a", 0.9),
  ci(2, "a", "a", 0.5),
  ci(3, "a", "i", 0.5),
  ci(4, "i", "a", 0.5),
  ci(5, "i", "i", 0.8),
  ci(6, "i", "i", 0.2),
  ci(7, "a", null, null),
  ci(8, null, "a", 0.3),
];

test("ROC points: equal scores form one (diagonal) step; the trapezoid area is the tie-aware AUC", () => {
  // Scores for class a, descending: +0.9 P, +0.5 P, +0.5 N, −0.2 N, −0.5 P, −0.8 N (P = N = 3).
  // After each distinct score: (0,1/3), (1/3,2/3), (2/3,2/3), (2/3,1), (1,1).
  const pts = rocCurve(binary, "a");
  const want = [[0, 0], [0, 1 / 3], [1 / 3, 2 / 3], [2 / 3, 2 / 3], [2 / 3, 1], [1, 1]];
  assert.equal(pts.length, want.length);
  pts.forEach((p, k) => (close(p.fpr, want[k]![0]!), close(p.tpr, want[k]![1]!)));
  // Area: 0 + (1/3)(1/3 + 2/3)/2 + (1/3)(2/3) + 0 + (1/3)(1) = 1/6 + 2/9 + 1/3 = 13/18, the AUC.
  close(trapezoidArea(pts), 13 / 18);
  assert.deepEqual(rocCurve([ci(1, "a", "a", 0.5)], "a"), []); // no negatives
});

test("accuracy versus confidence: cumulative over the predictions with at least each confidence", () => {
  // Predicted instances with a measured value: 0.9 ok, 0.8 ok, 0.5 ok/miss/miss, 0.2 ok.
  //   ≥ 0.9: 1/1;  ≥ 0.8: 2/2;  ≥ 0.5: 3/5;  ≥ 0.2: 4/6.
  assert.deepEqual(accuracyByConfidence(binary), [
    { confidence: 0.9, n: 1, value: 1 },
    { confidence: 0.8, n: 2, value: 1 },
    { confidence: 0.5, n: 5, value: 3 / 5 },
    { confidence: 0.2, n: 6, value: 4 / 6 },
  ]);
  // near-identical confidences (equal to 6 decimals) are one point, at the smaller one
  const merged = accuracyByConfidence([ci(1, "a", "a", 0.7), ci(2, "a", "i", 0.7000000001)]);
  assert.deepEqual(merged, [{ confidence: 0.7, n: 2, value: 0.5 }]);
});

const reg = (n: number, measured: number | null, predicted: number | null, confidence: number | null, fold: number): RegressionInstance => ({
  compound: `/compound/r${n}`,
  fold,
  measured,
  predicted,
  confidence,
});
const regression: RegressionInstance[] = [
  reg(1, 1, 2, 0.9, 0),
  reg(2, 2, 2, 0.6, 1),
  reg(3, 3, 5, 0.6, 0),
  reg(4, 4, 3, 0.1, 1),
  reg(5, 5, null, null, 1),
];

test("RMSE versus confidence", () => {
  // ≥ 0.9: e = 1 → 1;  ≥ 0.6: e = 1, 0, 2 → √(5/3);  ≥ 0.1: + e = −1 → √(6/4).
  const c = rmseByConfidence(regression);
  assert.deepEqual(c.map((p) => [p.confidence, p.n]), [[0.9, 1], [0.6, 3], [0.1, 4]]);
  close(c[0]!.value, 1);
  close(c[1]!.value, Math.sqrt(5 / 3));
  close(c[2]!.value, Math.sqrt(1.5));
});

function svgOf(s: string) {
  const els = checkMarkup(s, "xml");
  assert.equal(els[0]!.name, "svg");
  assert.equal(els[0]!.attributes.get("xmlns"), "http://www.w3.org/2000/svg");
  assert.ok(s.trimEnd().endsWith("</svg>"));
  assert.equal(count(els, "title") >= 1, true);
  return els;
}

test("ROC plot: one path per curve plus the diagonal; valid, deterministic", () => {
  const svg = classificationRocPlot(binary, ["a", "i"]);
  const els = svgOf(svg);
  // two classes, neither matches the "true" pattern → one curve per class, plus the dashed diagonal
  assert.equal(count(els, "path", "line"), 3);
  const d = els.find((e) => e.name === "path")!.attributes.get("d")!;
  assert.equal(d.split(/[ML]/).filter(Boolean).length, 6); // the six ROC points of class a
  assert.equal(svg, classificationRocPlot(binary, ["a", "i"]));
  assert.deepEqual(rocClasses(["inactive", "active"]), ["active"]);
  assert.deepEqual(rocClasses(["false", "true"]), ["true"]);
  assert.deepEqual(rocClasses(["a", "b", "c"]), ["a", "b", "c"]);
});

test("accuracy plot: one circle per confidence point and one line", () => {
  const els = svgOf(accuracyConfidencePlot(binary));
  assert.equal(count(els, "circle"), 4);
  assert.equal(count(els, "path", "series"), 1);
});

test("scatter plot: one circle per predicted instance, one group per fold, the identity line", () => {
  const svg = scatterPlot(regression, 2);
  const els = svgOf(svg);
  assert.equal(count(els, "circle"), 4);
  assert.equal(count(els, "g", "points"), 2);
  assert.equal(count(els, "path", "line"), 1);
  assert.match(svg, /fold 1/);
  assert.match(svg, /fold 2/);
  const e = svgOf(errorConfidencePlot(regression));
  assert.equal(count(e, "circle"), 3);
});

test("empty data gives a valid plot saying so", () => {
  const svg = accuracyConfidencePlot([]);
  const els = svgOf(svg);
  assert.equal(count(els, "circle"), 0);
  assert.match(svg, /no predictions/);
  svgOf(scatterPlot([], 3));
  svgOf(errorConfidencePlot([reg(1, 1, null, null, 0)]));
  svgOf(classificationRocPlot([], ["a", "b"]));
});

test("hostile labels are escaped (including control characters and lone surrogates)", () => {
  const label = `<script>alert("x")</script> & 'q' \u0001 \uD800`;
  const svg = rocPlot([{ label, points: [{ fpr: 0, tpr: 0 }, { fpr: 1, tpr: 1 }] }], `title ${label}`);
  svgOf(svg);
  assert.ok(!svg.includes("<script"));
  assert.ok(!svg.includes("\u0001"));
  assert.match(svg, /&#60;script&#62;/);
});

test("nice ticks: 1, 2 or 5 × 10^m", () => {
  // [0, 1] / 5 = 0.2 → step 0.2: 0, 0.2, …, 1.
  assert.deepEqual(niceTicks(0, 1), [0, 0.2, 0.4, 0.6, 0.8, 1]);
  // [−3.2, 7.9]: 11.1 / 5 = 2.22 = 2.22 × 10⁰, nearest of 1, 2, 5 (geometric midpoints √2, √10, √50) → 2:
  // multiples of 2 from ⌈−1.6⌉·2 = −2 up to 7.9.
  assert.deepEqual(niceTicks(-3.2, 7.9), [-2, 0, 2, 4, 6]);
  // [0.3, 0.62]: 0.064 = 6.4 × 10⁻² ≥ √10 → 0.05: 0.3, 0.35, …, 0.6.
  assert.deepEqual(niceTicks(0.3, 0.62), [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6]);
});
