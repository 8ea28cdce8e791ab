/**
 * The global models' request checks and the default (src/algorithms/global/spec.ts,
 * src/algorithms/kernel/spec.ts `defaultGlobalModel`): the size limits are a 400 naming the
 * dataset at the request, before any work; without prediction_algorithm a request gets the kernel
 * model, the random forest above the kernel model's limit, and lazar when it configures lazar.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { BadRequest } from "../../../../src/errors.ts";
import { checkGlobalRequest, GLOBAL_MAX_COMPOUNDS, KERNEL_SVM, RANDOM_FOREST } from "../../../../src/algorithms/global/spec.ts";
import { defaultGlobalModel } from "../../../../src/algorithms/kernel/spec.ts";

const none = new Map<string, string[]>();

test("size limits: the kernel model takes 10 to 8,000 training compounds, the forest up to 32,767; beyond, a 400 naming dataset_uri and the limit", () => {
  assert.equal(GLOBAL_MAX_COMPOUNDS[KERNEL_SVM], 8000);
  checkGlobalRequest(none, KERNEL_SVM, "the kernel model", ["a", "b"], 8000);
  checkGlobalRequest(none, RANDOM_FOREST, "the random forest", ["a", "b"], 8001);
  assert.throws(
    () => checkGlobalRequest(none, KERNEL_SVM, "the kernel model", ["a", "b"], 8001),
    (e: unknown) => e instanceof BadRequest && e.details.field === "dataset_uri" && /8001 compounds.*at most 8000.*random_forest/.test(e.message),
  );
  assert.throws(() => checkGlobalRequest(none, RANDOM_FOREST, "the random forest", [], 40000), (e: unknown) => e instanceof BadRequest && /at most 32767/.test(e.message));
  assert.throws(() => checkGlobalRequest(none, KERNEL_SVM, "the kernel model", [], 9), (e: unknown) => e instanceof BadRequest && /at least 10/.test(e.message));
});

test("the default: the kernel model; the forest above 8,000 compounds; lazar when a lazar parameter is given", () => {
  assert.equal(defaultGlobalModel(none, 85), KERNEL_SVM);
  assert.equal(defaultGlobalModel(none, 8000), KERNEL_SVM);
  assert.equal(defaultGlobalModel(none, 8001), RANDOM_FOREST);
  assert.equal(defaultGlobalModel(new Map([["min_sim", ["0.4"]]]), 85), undefined);
  assert.equal(defaultGlobalModel(new Map([["feature_dataset_uri", ["http://x/dataset/1"]]]), 9000), undefined);
});
