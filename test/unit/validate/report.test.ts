/**
 * The cross-validation report (docs/cross-validation.md "The report"): its sections, plots,
 * depictions, the well-formedness of the body, and the escaping of hostile text and URIs.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  crossValidationReportBody,
  crossValidationReportDocument,
  crossValidationResult,
  depictionUri,
  isSafeUri,
  type ClassificationInstance,
  type CrossValidationParameters,
  type RegressionInstance,
} from "../../../src/validate/index.ts";
import { checkMarkup, count } from "./xml-check.ts";

const params: CrossValidationParameters = {
  algorithmUri: "http://localhost:8080/algorithm/qsar",
  datasetUri: "http://localhost:8080/dataset/abc",
  predictionFeature: "http://localhost:8080/dataset/abc/feature/activity",
  algorithmParams: "feature_generation_uri=http://localhost:8080/algorithm/miner/bbrc",
  numFolds: 2,
  randomSeed: 1,
  stratified: false,
};

const C = "http://localhost:8080/compound/InChI=1S/CH4/h1H4";
const classification: ClassificationInstance[] = [
  { compound: C, fold: 0, measured: "active", predicted: "active", confidence: 0.9 },
  { compound: `${C}x`, fold: 0, measured: "inactive", predicted: "active", confidence: 0.4 },
  { compound: `${C}y`, fold: 1, measured: "inactive", predicted: "inactive", confidence: 0.7 },
  { compound: `${C}z`, fold: 1, measured: "active", predicted: null, confidence: null },
];

function classificationReport() {
  return crossValidationResult(
    { uri: "http://localhost:8080/validation/crossvalidation/cv1", parameters: params, runtimeMs: 1234, foldUris: ["http://localhost:8080/validation/crossvalidation/cv1/fold/1"] },
    { type: "classification", classes: ["inactive", "active"], predictions: classification },
  );
}

test("classification report: sections, confusion matrix, two plots, per-fold and prediction tables", () => {
  const r = classificationReport();
  const body = crossValidationReportBody(r);
  const els = checkMarkup(body, "html");
  for (const id of ["parameters", "summary", "confusion-matrix", "plots", "folds", "predictions"]) {
    assert.ok(els.some((e) => e.name === "section" && e.attributes.get("id") === id), `section ${id}`);
  }
  assert.equal(count(els, "svg"), 3); // ROC, accuracy versus confidence, accuracy versus coverage (no calibration: no p-values)
  assert.ok(els.some((e) => e.name === "section" && e.attributes.get("id") === "coverage"), "section coverage");
  assert.equal(els.some((e) => e.name === "section" && e.attributes.get("id") === "calibration"), false, "no calibration without p-values");
  assert.equal(count(els, "table", "confusion"), 1);
  // confusion matrix: header row + 2 class rows; every prediction a row (+ header)
  assert.equal(count(els, "img", "depiction"), 4);
  assert.ok(body.includes(`src="${C}?format=svg"`));
  assert.match(body, /pooling the predictions of all folds/);
  assert.match(body, /fold 1/);
  assert.match(body, /not predicted/);
  // ROC of the "active" class only (the binary "true" class)
  assert.match(body, /<title>active<\/title>/);
  assert.equal(body.includes("<script"), false);
});

test("the standalone document has a print stylesheet and no scripts", () => {
  const doc = crossValidationReportDocument(classificationReport());
  checkMarkup(doc, "html");
  assert.match(doc, /@media print/);
  assert.equal(/<script/i.test(doc), false);
});

test("regression report: pooled table, scatter and RMSE plots", () => {
  const preds: RegressionInstance[] = [
    { compound: "/compound/a", fold: 0, measured: 1, predicted: 1.5, confidence: 0.8 },
    { compound: "/compound/b", fold: 1, measured: 2, predicted: 1.5, confidence: 0.5 },
    { compound: "/compound/c", fold: 1, measured: null, predicted: 3, confidence: 0.5 },
  ];
  const r = crossValidationResult({ uri: "/validation/crossvalidation/r1", parameters: params }, { type: "regression", predictions: preds });
  const body = crossValidationReportBody(r);
  const els = checkMarkup(body, "html");
  assert.equal(count(els, "svg"), 3); // scatter, RMSE versus confidence, RMSE versus coverage
  assert.match(body, /Predicted versus measured/);
  assert.match(body, /RMSE versus coverage/);
  assert.match(body, /RMSE versus confidence/);
  assert.match(body, /concordance correlation/);
  assert.equal(count(els, "table", "confusion"), 0);
  // error column: predicted − measured = 0.5 and −0.5
  assert.match(body, /<td>0\.500<\/td>/);
  assert.match(body, /<td>-0\.500<\/td>/);
});

test("hostile text and URIs are escaped; unsafe URIs are neither links nor images", () => {
  const evil = `<img src=x onerror="alert(1)">&'`;
  const preds: ClassificationInstance[] = [
    { compound: "javascript:alert(1)", fold: 0, measured: evil, predicted: evil, confidence: 0.5 },
    { compound: `http://h/c"><script>alert(1)</script>`, fold: 0, measured: "b", predicted: evil, confidence: 0.5 },
  ];
  const r = crossValidationResult(
    {
      uri: "javascript:alert(2)",
      parameters: { ...params, algorithmParams: `</code><script>alert(3)</script>`, datasetUri: `"><b>x</b>` },
    },
    { type: "classification", classes: [evil, "b"], predictions: preds },
  );
  const body = crossValidationReportBody(r);
  const els = checkMarkup(body, "html");
  assert.equal(/<script/i.test(body), false);
  assert.equal(body.includes("<img src=x"), false);
  assert.equal(body.includes("<b>x</b>"), false);
  assert.equal(els.some((e) => (e.attributes.get("href") ?? "").startsWith("javascript")), false);
  assert.equal(count(els, "img"), 0); // neither compound URI is safe to load
  assert.equal(count(els, "b"), 0);
  assert.match(body, /&#60;img src=x onerror=&#34;alert\(1\)&#34;&#62;&#38;&#39;/);
});

test("safe URIs and depiction URIs", () => {
  assert.ok(isSafeUri("http://localhost:8080/compound/InChI=1S/H2O/h1H2"));
  assert.ok(isSafeUri("/compound/x"));
  assert.equal(isSafeUri("//evil.example/x"), false);
  assert.equal(isSafeUri("data:text/html,x"), false);
  assert.equal(depictionUri("/compound/x"), "/compound/x?format=svg");
  assert.equal(depictionUri("/compound/x?a=1"), "/compound/x?a=1&format=svg");
});

/**
 * n predictions of a classification: the first `predicted` predicted (alternating classes, every
 * third one wrong), the rest not; 2 folds by parity.
 */
function classificationOf(n: number, predicted: number) {
  const preds: ClassificationInstance[] = Array.from({ length: n }, (_, i) => {
    const measured = i % 2 === 0 ? "active" : "inactive";
    const other = measured === "active" ? "inactive" : "active";
    return { compound: `${C}${i}`, fold: i % 2, measured, predicted: i < predicted ? (i % 3 === 0 ? other : measured) : null, confidence: i < predicted ? 0.5 + (i % 5) / 10 : null };
  });
  return crossValidationResult({ uri: "http://localhost:8080/validation/crossvalidation/n", parameters: params }, { type: "classification", classes: ["inactive", "active"], predictions: preds });
}

/** The small-n notes of a report body: the rows (by their first cell) that carry one, and the n each names. */
function smallNotes(body: string): string[] {
  return [...body.matchAll(/<tr>(?:<th>|<td[^>]*>)([^<]*(?:<a[^>]*>[^<]*<\/a>)?)[\s\S]*?<\/tr>/g)]
    .filter((m) => m[0].includes("too few for a reliable figure"))
    .map((m) => `${m[1]!.replace(/<[^>]+>/g, "")}: ${/n = (\d+)/.exec(m[0])![1]}`);
}

test("a statistic on fewer than 20 predicted compounds says so (pooled, per class, per fold, coverage); 20 or more do not", () => {
  // 24 instances, 12 predicted (6 per class, 6 per fold): every statistic is on n < 20
  const few = crossValidationReportBody(classificationOf(24, 12));
  const notes = smallNotes(few);
  for (const row of ["accuracy: 12", "weighted accuracy: 12", "average AUC: 12", "inactive: 6", "active: 6", "fold 1: 6", "fold 2: 6"]) assert.ok(notes.includes(row), `${row} in ${notes.join("; ")}`);
  assert.ok(!notes.some((n) => n.startsWith("instances") || n.startsWith("predicted")), "counts carry no note");
  assert.ok(notes.includes("10 %: 4"), "the coverage rows too (10 % of 24: the 4 predictions of confidence ≥ 0.8, ties kept)");
  // 60 instances, all predicted (30 per class and fold): none on the pooled or per-class figures
  const many = smallNotes(crossValidationReportBody(classificationOf(60, 60)));
  assert.ok(!many.some((n) => /^(accuracy|weighted accuracy|average AUC|inactive|active|fold \d):/.test(n)), many.join("; "));
  assert.ok(many.includes("10 %: 12"), "10 % coverage keeps the 12 predictions of confidence 0.9 (ties kept): noted");
  assert.ok(!many.some((n) => n.startsWith("100 %")), "all 60: not noted");
});

test("less than half of the compounds predicted: said at the top of the pooled results; half or more: not", () => {
  const body = crossValidationReportBody(classificationOf(30, 14));
  assert.match(body, /<div class="warning"><p><strong>Less than half of the compounds were predicted:<\/strong> 14 of 30 \(46\.7 %\)/);
  assert.doesNotMatch(crossValidationReportBody(classificationOf(30, 15)), /Less than half/);
  const doc = crossValidationReportDocument(classificationOf(30, 14));
  checkMarkup(doc, "html");
  assert.match(doc, /\.cv-report \.small-n\{/);
});
