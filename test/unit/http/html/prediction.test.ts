/**
 * The words of the prediction page (src/http/html/prediction.ts): three significant digits, the
 * prediction and the applicability domain in words from what an entry stores. Expected texts are
 * written by hand from the entries' shapes (docs/lazar-method.md "Model and prediction resources").
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { domainInWords, predictionInWords, sig3, valueText } from "../../../../src/http/html/prediction.ts";
import type { PredictionEntryView } from "../../../../src/resources/prediction-read.ts";

test("three significant digits", () => {
  assert.equal(sig3(0.9347826086956522), "0.935");
  assert.equal(sig3(1.6831824973478864), "1.68");
  assert.equal(sig3(-9.289189424259026), "−9.29");
  assert.equal(sig3(0.0113), "0.0113");
  assert.equal(sig3(12.655554418954798), "12.7");
  assert.equal(sig3(0.3), "0.3");
  assert.equal(sig3(Infinity), "∞");
  assert.equal(valueText("1.13E-02", true), "0.0113");
  assert.equal(valueText("true", false), "true");
});

const entry = (e: Partial<PredictionEntryView>): PredictionEntryView => ({ line: 1, compound: "c", structure: null, measured: [], pValues: [], ...e });

test("the prediction in words: a class, a number, a training compound, none", () => {
  assert.equal(predictionInWords(entry({ predicted: "false" }), "Hamster Carcinogenicity", false), "Predicted Hamster Carcinogenicity: false.");
  assert.equal(predictionInWords(entry({ predicted: "1.6831824973478864" }), "LC50_mmol", true), "Predicted LC50_mmol: 1.68.");
  assert.equal(predictionInWords(entry({ measured: ["true"] }), "H", false), "Measured H: true (a training compound).");
  assert.equal(predictionInWords(entry({ reason: "no neighbours above min_sim" }), "H", false), "No prediction of H: no neighbours above min_sim.");
});

test("the applicability domain: a global model's threshold, lazar's neighbours, a reason", () => {
  const inside = domainInWords(entry({ insideDomain: true, nearestSimilarity: 0.4125613570213318, domainThreshold: 0.2670157849788666 }), null);
  assert.deepEqual(inside, { verdict: "inside", why: "Inside the applicability domain: the most similar training compound has similarity 0.413; the domain's threshold is 0.267." });
  const outside = domainInWords(entry({ insideDomain: false, nearestSimilarity: 0.1, domainThreshold: 0.267, domainNote: "the most similar training compound is less similar than 95 % of the training compounds' nearest neighbours" }), null);
  assert.equal(outside.verdict, "outside");
  assert.match(outside.why, /^Outside the applicability domain: the most similar training compound is less similar/);
  assert.deepEqual(domainInWords(entry({ neighbours: 15 }), { minSim: 0.3, featureKind: "substructure" }), { verdict: "inside", why: "Inside the applicability domain: 15 training compounds are neighbours (similarity above min_sim = 0.3)." });
  assert.equal(domainInWords(entry({ neighbours: 0, reason: "no neighbours above min_sim 0.3" }), null).verdict, "outside");
  assert.equal(domainInWords(entry({ reason: "the query's structure could not be read" }), null).verdict, "none");
  assert.deepEqual(domainInWords(entry({ neighbours: 4, reason: "the local SVM's accuracy on its neighbours is below min_train_performance" }), null), {
    verdict: "inside",
    why: "Inside the applicability domain: 4 training compounds are neighbours; no prediction: the local SVM's accuracy on its neighbours is below min_train_performance.",
  });
  assert.equal(domainInWords(entry({ measured: ["1"] }), null).verdict, "training");
});
