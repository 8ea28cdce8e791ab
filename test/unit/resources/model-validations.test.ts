/**
 * Which cross-validations validate a model (src/resources/model-validations.ts): the same
 * prediction algorithm, and every parameter the cross-validation was given agreeing with the
 * model's recorded value (numbers compared as numbers); the data parameters are matched by the
 * read itself. Cases written by hand from the rule in the module comment.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { modelAlgorithmParams, parseAlgorithmParams, validatesModel } from "../../../src/resources/model-validations.ts";

const model = {
  predictionAlgorithm: "weighted_majority_vote",
  parameters: [
    ["dataset_uri", "http://x/dataset/a"],
    ["prediction_feature", "http://x/dataset/a/feature/y"],
    ["min_sim", "0.3"],
    ["nr_hits", "false"],
    ["prediction_algorithm", "weighted_majority_vote"],
  ] as const,
};

test("algorithm_params text → pairs", () => {
  assert.deepEqual(parseAlgorithmParams(" min_sim=0.3; ;nr_hits = false;flag"), [["min_sim", "0.3"], ["nr_hits", "false"], ["flag", ""]]);
  assert.deepEqual(parseAlgorithmParams(""), []);
});

test("a cross-validation validates the model when its given parameters agree", () => {
  assert.equal(validatesModel(model, { predictionAlgorithm: "weighted_majority_vote", algorithmParams: "prediction_algorithm=weighted_majority_vote" }), true);
  assert.equal(validatesModel(model, { predictionAlgorithm: "weighted_majority_vote", algorithmParams: "min_sim=0.30;nr_hits=false" }), true, "0.30 is 0.3");
  assert.equal(validatesModel(model, { algorithmParams: "dataset_uri=http://x/other" }), true, "the data parameters are the read's to match");
  assert.equal(validatesModel(model, { predictionAlgorithm: "kernel_svm", algorithmParams: "" }), false, "another algorithm");
  assert.equal(validatesModel(model, { predictionAlgorithm: "weighted_majority_vote", algorithmParams: "min_sim=0.5" }), false, "another min_sim");
  assert.equal(validatesModel(model, { predictionAlgorithm: "weighted_majority_vote", algorithmParams: "min_frequency=4" }), false, "a parameter the model does not record");
});

test("the model's own algorithm_params leave out the data and validate it", () => {
  const text = modelAlgorithmParams(model);
  assert.equal(text, "min_sim=0.3;nr_hits=false;prediction_algorithm=weighted_majority_vote");
  assert.equal(validatesModel(model, { predictionAlgorithm: model.predictionAlgorithm, algorithmParams: text }), true);
});
