/**
 * The comparison of several cross-validations (src/validate/compare.ts, docs/cross-validation.md
 * "Comparing cross-validations"): one table column per cross-validation, overlaid plots with a
 * legend entry per cross-validation (the calibration only for those with p-values), the warning
 * when dataset, endpoint, folds, seed or stratification differ, the folded full reports, and
 * escaping. The conformal sections of a single report are checked here too.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  algorithmName,
  comparabilityProblems,
  crossValidationComparisonBody,
  crossValidationComparisonPage,
  crossValidationReportBody,
  crossValidationResult,
  type ClassificationInstance,
  type CrossValidationParameters,
  type CrossValidationResult,
  type RegressionInstance,
} from "../../../src/validate/index.ts";
import { checkMarkup, count } from "./xml-check.ts";

const params: CrossValidationParameters = {
  algorithmUri: "http://localhost:8080/algorithm/qsar",
  datasetUri: "http://localhost:8080/dataset/abc",
  predictionFeature: "http://localhost:8080/dataset/abc/feature/activity",
  algorithmParams: "",
  numFolds: 2,
  randomSeed: 1,
  stratified: false,
};

const C = "http://localhost:8080/compound/InChI=1S/CH4/h1H4";
const lazarPredictions: ClassificationInstance[] = [
  { compound: `${C}a`, fold: 0, measured: "active", predicted: "active", confidence: 0.9 },
  { compound: `${C}b`, fold: 0, measured: "inactive", predicted: "active", confidence: 0.4 },
  { compound: `${C}c`, fold: 1, measured: "inactive", predicted: "inactive", confidence: 0.7 },
  { compound: `${C}d`, fold: 1, measured: "active", predicted: null, confidence: null },
];
// the same instances predicted by a conformal model (p-values in class order inactive, active)
const kernelPredictions: ClassificationInstance[] = [
  { compound: `${C}a`, fold: 0, measured: "active", predicted: "active", confidence: 0.9, pValues: [0.1, 0.6] },
  { compound: `${C}b`, fold: 0, measured: "inactive", predicted: "inactive", confidence: 0.7, pValues: [0.5, 0.3] },
  { compound: `${C}c`, fold: 1, measured: "inactive", predicted: "inactive", confidence: 0.8, pValues: [0.4, 0.2] },
  { compound: `${C}d`, fold: 1, measured: "active", predicted: "inactive", confidence: 0.6, pValues: [0.3, 0.15] },
];

function cv(id: string, predictions: ClassificationInstance[], p: Partial<CrossValidationParameters> = {}): CrossValidationResult {
  return crossValidationResult(
    { uri: `http://localhost:8080/validation/crossvalidation/${id}`, parameters: { ...params, ...p }, runtimeMs: 2500 },
    { type: "classification", classes: ["inactive", "active"], predictions },
  );
}

test("the algorithm's name: as recorded; else prediction_algorithm in algorithm_params; else lazar (cross-validations stored before the algorithm was recorded)", () => {
  assert.equal(algorithmName({ algorithmParams: "", predictionAlgorithm: "kernel_svm" }), "kernel_svm");
  assert.equal(algorithmName({ algorithmParams: "min_sim=0.4", predictionAlgorithm: "weighted_majority_vote" }), "weighted_majority_vote");
  assert.equal(algorithmName({ algorithmParams: "" }), "lazar");
  assert.equal(algorithmName({ algorithmParams: "min_frequency=8; prediction_algorithm = kernel_svm" }), "kernel_svm");
  assert.equal(algorithmName({ algorithmParams: "feature_dataset_uri=http://x/dataset/y?a=b" }), "lazar");
});

test("two comparable cross-validations: one column each, overlaid plots naming both, the calibration of the conformal one", () => {
  const a = cv("one", lazarPredictions);
  const b = cv("two", kernelPredictions, { algorithmParams: "prediction_algorithm=kernel_svm" });
  assert.deepEqual(comparabilityProblems([a, b]), []);
  const body = crossValidationComparisonBody([a, b]);
  const els = checkMarkup(body, "html");
  assert.match(body, /share their folds/);
  assert.equal(count(els, "div", "warning"), 0);
  // header row: an empty corner and one column per cross-validation
  const head = /<table class="comparison"><thead><tr>(.*?)<\/tr><\/thead>/.exec(body)![1]!;
  assert.equal(head.match(/<th>/g)!.length, 3);
  assert.ok(head.includes("1: lazar") && head.includes("2: kernel SVM"));
  // ROC, accuracy versus coverage, calibration
  assert.equal(count(els, "svg"), 3);
  const legends = [...body.matchAll(/<g class="legend"[^>]*>(.*?)<\/g>/gs)].map((m) => m[1]!);
  assert.equal(legends.length, 3, "every overlaid plot has a legend");
  for (const l of legends.slice(0, 2)) assert.ok(l.includes("1: lazar") && l.includes("2: kernel SVM"), l);
  assert.ok(legends[2]!.includes("2: kernel SVM") && !legends[2]!.includes("1: lazar"), "only the conformal one has a calibration");
  // the conformal error rates, by hand: the measured class's p-values are a (active) 0.6, b (inactive) 0.5,
  // c (inactive) 0.4, d (active) 0.15 → none ≤ 0.1; d ≤ 0.2 → 1 of 4
  assert.match(body, /conformal error rate at ε = 0\.1<\/th><td class="note">not conformal<\/td><td class="num">0 <span class="note">\(0 of 4\)/);
  assert.match(body, /conformal error rate at ε = 0\.2<\/th><td class="note">not conformal<\/td><td class="num">0\.250 <span class="note">\(1 of 4\)/);
  // predicted: 3 of 4 (75 %) and 4 of 4
  assert.match(body, /predicted<\/th><td class="num">3 \(75 %\)<\/td><td class="num">4 \(100 %\)<\/td>/);
  // single-class sets at 0.2: a {active}, b {inactive, active}, c {inactive} (0.2 is not > 0.2), d {inactive} → 3 of 4
  assert.match(body, /efficiency at ε = 0\.2<\/th><td>–<\/td><td>0\.750 single-class sets<\/td>/);
  assert.match(body, /run time<\/th><td class="num">2\.5 s<\/td>/);
});

test("not comparable: another dataset, seed, fold count or stratification is named in a warning", () => {
  const a = cv("one", lazarPredictions);
  const b = cv("two", kernelPredictions, { randomSeed: 2, numFolds: 5, datasetUri: "http://localhost:8080/dataset/other", stratified: true });
  const problems = comparabilityProblems([a, b]);
  assert.equal(problems.length, 4);
  assert.match(problems.join("\n"), /another dataset/);
  assert.match(problems.join("\n"), /seed 2/);
  assert.match(problems.join("\n"), /5 folds/);
  assert.match(problems.join("\n"), /stratified/);
  const body = crossValidationComparisonBody([a, b]);
  assert.equal(count(checkMarkup(body, "html"), "div", "warning"), 1);
  assert.match(body, /Not comparable/);
  // a regression next to a classification
  const r = crossValidationResult({ uri: "/validation/crossvalidation/r", parameters: params }, { type: "regression", predictions: [{ compound: "/c/1", fold: 0, measured: 1, predicted: 2, confidence: 0.5 }] as RegressionInstance[] });
  assert.match(comparabilityProblems([a, r]).join("\n"), /is a regression/);
  checkMarkup(crossValidationComparisonBody([a, r]), "html");
});

test("the page of several: the comparison, then each report folded; a deleted one is said to be deleted; hostile text escaped", () => {
  const a = cv("one", lazarPredictions, { algorithmParams: `prediction_algorithm=<script>alert(1)</script>` });
  const b = cv("two", kernelPredictions);
  const page = crossValidationComparisonPage([
    { uri: a.uri, result: a },
    { uri: "http://localhost:8080/validation/crossvalidation/gone", result: null },
    { uri: b.uri, result: b },
  ]);
  const els = checkMarkup(page, "html");
  assert.equal(/<script/i.test(page), false);
  assert.equal(count(els, "details", "cv-detail"), 2);
  assert.match(page, /crossvalidation\/gone<\/h2><p>This cross-validation has been deleted/);
  assert.ok(page.indexOf('id="comparison"') < page.indexOf("<details"), "the comparison comes first");
});

test("a conformal cross-validation's own report: the calibration table and plot, p-values in the predictions", () => {
  const body = crossValidationReportBody(cv("two", kernelPredictions, { algorithmParams: "prediction_algorithm=kernel_svm" }));
  const els = checkMarkup(body, "html");
  for (const id of ["coverage", "calibration"]) assert.ok(els.some((e) => e.name === "section" && e.attributes.get("id") === id), id);
  assert.equal(count(els, "svg"), 4); // ROC, accuracy versus confidence, accuracy versus coverage, calibration
  assert.equal(count(els, "table", "calibration"), 1);
  assert.match(body, /Conformal calibration/);
  assert.match(body, /inactive 0\.100<br>active 0\.600/);
});

test("the comparison notes statistics on fewer than 20 predicted compounds, and a cross-validation with less than half predicted", () => {
  // lazar: 3 of 4 predicted; the kernel model: 4 of 4 — every figure on n < 20
  const body = crossValidationComparisonBody([cv("l1", lazarPredictions), cv("k1", kernelPredictions)]);
  checkMarkup(body, "html");
  const row = (name: string): string => new RegExp(`<tr><th>${name}</th>(.*?)</tr>`).exec(body)?.[1] ?? "";
  assert.equal((row("accuracy").match(/n = 3: too few for a reliable figure/g) ?? []).length, 1);
  assert.equal((row("accuracy").match(/n = 4: too few for a reliable figure/g) ?? []).length, 1);
  assert.match(row("average AUC"), /n = 3: too few/);
  assert.match(row("conformal error rate at ε = 0.1"), /n = 4: too few/);
  assert.doesNotMatch(row("predicted"), /less than half/);
  const half = [...lazarPredictions.slice(0, 1), ...lazarPredictions.slice(1).map((p) => ({ ...p, predicted: null, confidence: null }))];
  assert.match(crossValidationComparisonBody([cv("l2", half)]), /<tr><th>predicted<\/th><td class="num">1 \(25 %\)<br><span class="small-n">less than half predicted<\/span>/);
});
