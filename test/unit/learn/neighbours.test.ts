/**
 * Neighbours, training-set queries, no-neighbour queries and the parameter rules, as
 * docs/lazar-method.md states them ("Neighbours", "Prediction", "Applicability domain", "Defaults
 * and parameters"), on small hand-made fingerprints.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  FingerprintMatrix,
  LazarModel,
  LazarParameterError,
  OUTSIDE_DOMAIN,
  checkAlgorithm,
  createLazarModel,
  findNeighbours,
  instancesOf,
  similarityThreshold,
  usesHits,
  weightedFingerprint,
} from "../../../src/learn/index.ts";

const W = [1, 1, 1, 1];
const fp = (...features: number[]) => weightedFingerprint(features.map((feature) => ({ feature, hits: 1 })), W, false);

test("neighbours: strictly above min_sim, one per activity value, training order kept", () => {
  const sims = [0.3, 0.31, 0.9, Number.NaN, 0.5];
  const inst = instancesOf([[1], [2], [1, 2, 2], [1], []]);
  // Row 4 has no activity (no instance); row 3's similarity is NaN (never a neighbour).
  const nb = findNeighbours(sims, inst, 0.3);
  assert.deepEqual(
    nb.map((n) => [n.row, n.similarity, n.activity]),
    [
      [1, 0.31, 2],
      [2, 0.9, 1],
      [2, 0.9, 2],
      [2, 0.9, 2],
    ],
  );
  assert.deepEqual(nb.map((n) => n.instance), [1, 2, 3, 4]);
});

// Training: rows 0..3 with features; row 3 measured twice.
const matrix = new FingerprintMatrix(4, [fp(0, 1), fp(0, 1, 2), fp(2), fp(0, 1, 3)]);
const instances = instancesOf([[2], [2], [1], [1, 2]]);
const keys = ["K0", "K1", "K2", "K3"];

test("a query in the training set gets its measured values and no prediction (docs/lazar-method.md: Prediction)", () => {
  const model = new LazarModel({ features: matrix, instances, keys, nClasses: 2 });
  const p = model.predict({ key: "K3", fingerprint: fp(2) });
  assert.deepEqual(p, { status: "measured", row: 3, measured: [1, 2] });
});

test("a query without neighbours has no value and the applicability-domain reason (docs/lazar-method.md: Applicability domain)", () => {
  const model = new LazarModel({ features: matrix, instances, keys, nClasses: 2 });
  const p = model.predict({ key: "other", fingerprint: fp() });
  assert.equal(p.status, "unpredicted");
  assert.ok(p.status === "unpredicted" && p.reason === OUTSIDE_DOMAIN && p.confidence === 0 && p.neighbours.length === 0);
});

test("a WMV prediction uses every instance above min_sim (hand-worked)", () => {
  const model = new LazarModel({ features: matrix, instances, keys, nClasses: 2, minSim: 0.3 });
  // Query {0,1}: sims row0 = 2/2 = 1, row1 = 2/3, row2 = 0, row3 = 2/3.
  // Instances: row0 (2) +1, row1 (2) +2/3, row3 (1) −2/3, row3 (2) +2/3 → S = 1 + 2/3, n = 4.
  const p = model.predict({ fingerprint: fp(0, 1) });
  assert.equal(p.status, "predicted");
  if (p.status !== "predicted") return;
  assert.equal(p.value, 2);
  assert.equal(p.neighbours.length, 4);
  assert.ok(Math.abs(p.confidence - (1 + 2 / 3) / 4) < 1e-12);
});

test("min_sim is strict: a similarity equal to min_sim is not a neighbour", () => {
  const model = new LazarModel({ features: matrix, instances, nClasses: 2, minSim: 0.5 });
  // Query {0,2}: row0 1/3, row1 2/3, row2 1/2 (= min_sim, excluded), row3 1/4.
  assert.deepEqual(model.neighbours({ fingerprint: fp(0, 2) }).map((n) => n.row), [1]);
});

test("parameters (docs/lazar-method.md: Defaults and parameters): defaults, nr_hits, the cosine threshold and invalid combinations", () => {
  assert.equal(new LazarModel({ features: matrix, instances, nClasses: 2 }).algorithm, "weighted_majority_vote");
  assert.equal(new LazarModel({ features: matrix, instances, nClasses: 2 }).threshold, 0.3);
  assert.equal(usesHits("weighted_majority_vote", 2), false);
  assert.equal(usesHits("local_svm_classification", 2), true);
  assert.equal(usesHits("local_svm_regression", 0), true);
  assert.ok(Math.abs(similarityThreshold(0.7, "descriptor") - 0.4) < 1e-15);
  assert.equal(similarityThreshold(0.7, "substructure"), 0.7);
  assert.throws(() => checkAlgorithm("weighted_majority_vote", 0), LazarParameterError);
  assert.throws(() => checkAlgorithm("local_svm_regression", 2), LazarParameterError);
  assert.throws(() => checkAlgorithm("weighted_average", 3), LazarParameterError);
  assert.throws(() => checkAlgorithm("knn", 2), /unknown prediction_algorithm/);
  assert.throws(() => new LazarModel({ features: matrix, instances, nClasses: 2, minSim: 1.5 }), LazarParameterError);
  assert.throws(() => new LazarModel({ features: matrix, instances, nClasses: 2, algorithm: "local_svm_classification" }), /libsvm/);
});

test("createLazarModel loads libsvm for SVM models; all-equal neighbours give that value without training", async () => {
  const model = await createLazarModel({ features: matrix, instances: instancesOf([[2], [2], [1], [2]]), nClasses: 2, algorithm: "local_svm_classification" });
  const p = model.predict({ fingerprint: fp(0, 1) });
  assert.ok(p.status === "predicted" && p.value === 2 && p.svm?.note === "all neighbours have the same activity");
});
