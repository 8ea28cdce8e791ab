/**
 * html/crossvalidation-form.ts: the cross-validation form (the CV spec's parameters, not folded)
 * and the report form (one checkbox per cross-validation, the newest checked; a label naming its
 * title, algorithm, folds and date; a note when there are none or more than shown).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { crossValidationForm, crossValidationLabel, reportForm } from "../../../../src/http/html/crossvalidation-form.ts";
import type { CrossValidationChoice } from "../../../../src/resources/form-choices.ts";

const BASE = "http://localhost:8080";
const cv = (id: string, o: Partial<CrossValidationChoice> = {}): CrossValidationChoice => ({ uri: `${BASE}/validation/crossvalidation/${id.repeat(12)}`, title: `CV ${id}`, created: "2026-03-04T05:06:07Z", dataset: `${BASE}/dataset/d`, predictionAlgorithm: "kernel_svm", algorithmParams: "", numFolds: 10, ...o });

test("the cross-validation form: every parameter, posting to the collection", () => {
  const html = crossValidationForm(`${BASE}/validation/crossvalidation`, { datasets: { datasets: [], total: 0 } });
  assert.match(html, new RegExp(`<form method="post" action="${BASE}/validation/crossvalidation"`));
  for (const name of ["algorithm_uri", "dataset_uri", "prediction_feature", "algorithm_params", "num_folds", "random_seed", "stratified"]) assert.match(html, new RegExp(`name="${name}"`), name);
  assert.doesNotMatch(html, /<details/);
});

test("the report form: a checkbox per cross-validation, the first (newest) checked, labelled", () => {
  const html = reportForm(`${BASE}/validation/report/crossvalidation`, [cv("a"), cv("b", { predictionAlgorithm: "", algorithmParams: "min_sim=0.4", numFolds: 5 })], 7);
  assert.deepEqual([...html.matchAll(/<input type="checkbox" id="(report-cv-\d)" name="validation_uris" value="([^"]+)"( checked)?>/g)].map((m) => [m[1], m[2], m[3] ?? ""]), [
    ["report-cv-0", cv("a").uri, " checked"],
    ["report-cv-1", cv("b").uri, ""],
  ]);
  assert.match(html, /<label for="report-cv-1">CV b — min_sim=0.4, 5 folds, 2026-03-04<\/label>/);
  assert.match(html, /the 2 newest of 7/);
  assert.equal(crossValidationLabel(cv("c", { title: "", predictionAlgorithm: "", created: "" })), `${cv("c").uri} — default parameters, 10 folds`);
  assert.match(reportForm("x", [], 0), /There is no cross-validation yet/);
});
