/**
 * A cross-validation's graph (src/resources/validation.ts): the conformal output of its
 * predictions — the p-value of each class, or the interval (unbounded ones included) and the
 * p-value of the measured value — is written and read back unchanged, with the intervals'
 * confidence level; the coverage curve and the calibration are in the graph as the result
 * computes them (the values the test compares with are the result's own, and a few by hand).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as ox from "oxigraph";
import { crossValidationNTriples, crossValidationOf, crossValidationResultOf, readStoredCrossValidation, type CrossValidationParameters, type StoredPrediction } from "../../../src/resources/validation.ts";
import { Vocab } from "../../../src/store/vocab.ts";

const BASE = "http://localhost:8080";
const v = new Vocab(BASE);
const C = (n: number): string => `${BASE}/compound/InChI=1S/C${n}H4`;

function storeOf(uri: string, ntriples: string): ox.Store {
  const s = new ox.Store();
  s.load(ntriples, { format: "application/n-triples", to_graph_name: ox.namedNode(uri) });
  return s;
}

const common = { title: "t", algorithmUri: `${BASE}/algorithm/qsar`, datasetUri: `${BASE}/dataset/d`, endpoint: `${BASE}/dataset/d/feature/f`, algorithmParams: "prediction_algorithm=kernel_svm", numFolds: 2, seed: 3, stratified: false };

test("classification: the p-values of every class round-trip; the calibration and coverage are in the graph", () => {
  const uri = `${BASE}/validation/crossvalidation/cccccccccccc`;
  const p: CrossValidationParameters & { title: string } = { ...common, classes: ["false", "true"] };
  const predictions: StoredPrediction[] = [
    { compound: C(1), fold: 0, measured: "true", predicted: "true", confidence: 0.875, pValues: [0.125, 0.5] },
    { compound: C(2), fold: 1, measured: "false", predicted: "true", confidence: 0.75, pValues: [0.0625, 0.25] },
    // a compound measured twice: two instances with the same p-values
    { compound: C(2), fold: 1, measured: "true", predicted: "true", confidence: 0.75, pValues: [0.0625, 0.25] },
    { compound: C(3), fold: 0, measured: "false", predicted: null, confidence: null },
  ];
  const result = crossValidationResultOf(p, uri, predictions, 1000);
  const nt = crossValidationNTriples(uri, p, predictions, result, 1000, v);
  const back = readStoredCrossValidation(storeOf(uri, nt), uri, v)!;
  assert.deepEqual(back.predictions, predictions);
  assert.equal(back.parameters.confidenceLevel, undefined);
  assert.deepEqual(crossValidationOf(uri, back).calibration, result.calibration);
  // the graph's calibration node at ε = 0.1 (the second): errors where the measured class's p ≤ 0.1:
  // instance 2 (false: 0.0625) only → 1 of 3
  const qg = v.qgNs;
  assert.ok(nt.includes(`<${uri}> <${qg}calibrationPoint> <${uri}#calibration2> .`));
  assert.ok(nt.includes(`<${uri}#calibration2> <${qg}significance> "0.1"^^<http://www.w3.org/2001/XMLSchema#double> .`));
  assert.ok(nt.includes(`<${uri}#calibration2> <${qg}numErrors> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`));
  assert.ok(nt.includes(`<${uri}> <${qg}conformalInstances> "3"^^<http://www.w3.org/2001/XMLSchema#integer> .`));
  // coverage 0.1 of 4 instances keeps ⌈0.4⌉ = 1: the 0.875 (correct) → accuracy 1
  assert.ok(nt.includes(`<${uri}#coverage1> <${qg}accuracy> "1"^^<http://www.w3.org/2001/XMLSchema#double> .`));
  assert.ok(nt.includes(`<${uri}#coverage1> <${qg}confidenceThreshold> "0.875"^^<http://www.w3.org/2001/XMLSchema#double> .`));
  assert.ok(nt.includes(`<${uri}> <${qg}coverageOrder> "confidence" .`));
});

test("regression: the interval (unbounded as ±INF), the p-value of the measured value and the confidence level round-trip", () => {
  const uri = `${BASE}/validation/crossvalidation/rrrrrrrrrrrr`;
  const p: CrossValidationParameters & { title: string } = { ...common, classes: [], confidenceLevel: 0.8 };
  const predictions: StoredPrediction[] = [
    { compound: C(1), fold: 0, measured: 1.5, predicted: 1.25, confidence: 0.8, interval: [0.5, 2], truthPValue: 0.625 },
    { compound: C(2), fold: 1, measured: -3, predicted: 1, confidence: 0.8, interval: [-Infinity, Infinity], truthPValue: 0.0625 },
    { compound: C(2), fold: 1, measured: 2.5, predicted: 1, confidence: 0.8, interval: [-Infinity, Infinity], truthPValue: 0.375 },
    { compound: C(4), fold: 0, measured: 7, predicted: null, confidence: null },
  ];
  const result = crossValidationResultOf(p, uri, predictions, 5);
  const nt = crossValidationNTriples(uri, p, predictions, result, 5, v);
  assert.ok(nt.includes(`"INF"^^<http://www.w3.org/2001/XMLSchema#double>`) && nt.includes(`"-INF"^^<http://www.w3.org/2001/XMLSchema#double>`));
  const back = readStoredCrossValidation(storeOf(uri, nt), uri, v)!;
  assert.deepEqual(back.predictions, predictions);
  assert.equal(back.parameters.confidenceLevel, 0.8);
  const again = crossValidationOf(uri, back);
  assert.deepEqual(again.calibration, result.calibration);
  assert.deepEqual(again.coverage, result.coverage);
  // ordered by interval width: the bounded one (width 1.5) first; the mean width is unbounded, so not written
  assert.equal(result.coverage.order, "interval width");
  assert.ok(nt.includes(`<${uri}#coverage1> <${v.qgNs}intervalWidthThreshold> "1.5"^^<http://www.w3.org/2001/XMLSchema#double> .`));
  assert.equal(nt.includes(`${v.qgNs}meanIntervalWidth>`), false);
  // errors at ε = 0.1: the p-value 0.0625 → 1 of 3 (the unpredicted instance is not counted)
  assert.ok(nt.includes(`<${uri}#calibration2> <${v.qgNs}numErrors> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`));
});

test("a cross-validation without conformal output reads back without conformal fields, as before", () => {
  const uri = `${BASE}/validation/crossvalidation/llllllllllll`;
  const p = { ...common, algorithmParams: "", classes: ["a", "b"] };
  const predictions: StoredPrediction[] = [
    { compound: C(1), fold: 0, measured: "a", predicted: "a", confidence: 0.5 },
    { compound: C(2), fold: 1, measured: "b", predicted: "a", confidence: 0.25 },
  ];
  const result = crossValidationResultOf(p, uri, predictions, 1);
  const nt = crossValidationNTriples(uri, p, predictions, result, 1, v);
  assert.deepEqual(readStoredCrossValidation(storeOf(uri, nt), uri, v)!.predictions, predictions);
  assert.equal(result.calibration, null);
  assert.equal(nt.includes("calibrationPoint"), false);
});
