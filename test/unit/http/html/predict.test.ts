/**
 * The predict box (src/http/html/predict.ts): one model → posts to it; several → a labelled
 * choice posting to POST /model with model_uri; every field labelled; a file part for batches.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { modelLabel, predictForm } from "../../../../src/http/html/predict.ts";

const BASE = "http://h";

test("one model: the form posts to it, multipart, with the structure box and a file field, each labelled", () => {
  const html = predictForm({ base: BASE, models: [{ uri: `${BASE}/model/abc`, title: "M" }] });
  assert.match(html, /<form id="predict" method="post" action="http:\/\/h\/model\/abc" enctype="multipart\/form-data">/);
  assert.doesNotMatch(html, /<select/);
  for (const id of ["predict-structure", "predict-file"]) assert.match(html, new RegExp(`<label for="${id}">`), id);
  assert.match(html, /<textarea id="predict-structure" name="structure"[^>]*data-depiction="http:\/\/h\/depiction"/);
  assert.match(html, /<input type="file" id="predict-file" name="file"/);
});

test("several models: a labelled choice, posted to POST /model; labels show endpoint, algorithm and date", () => {
  const html = predictForm({
    base: BASE,
    models: [
      { uri: `${BASE}/model/b`, title: "kernel SVM model for LC50", endpoint: "LC50", algorithm: "kernel_svm", created: new Date("2026-11-27T13:15:51Z") },
      { uri: `${BASE}/model/a`, title: "lazar model for H", created: "2026-11-26T10:00:00Z" },
    ],
  });
  assert.match(html, /action="http:\/\/h\/model"/);
  assert.match(html, /<label for="predict-model">Model<\/label> <select id="predict-model" name="model_uri" required>/);
  assert.match(html, /<option value="http:\/\/h\/model\/b">kernel SVM model for LC50 \(LC50, kernel_svm, 2026-11-27\)<\/option>/);
  assert.equal(modelLabel({ uri: "u", title: "T" }), "T");
  assert.equal(predictForm({ base: BASE, models: [] }), "");
});
