/**
 * The default global model's worker jobs (src/algorithms/kernel/job.ts) on lazar's hamster
 * carcinogenicity set (85 compounds, classification) and EPAFHM.medi (91, regression): a model
 * trained and sent through a worker predicts; a training compound is its own nearest neighbour
 * (kernel similarity 1: every kernel of a compound with itself is 1); unreadable structures are
 * reported, never predicted; the conformal outputs are well-formed, and a cross-validation fold
 * (`cv.fold.kernel`) keeps them, with the p-value of each measured value of a numeric endpoint.
 */
import { after, describe, it, test } from "node:test";
import assert from "node:assert/strict";
import { kernelFoldJob, kernelPredictJob, kernelTrainJob } from "../../../../src/algorithms/kernel/job.ts";
import { servicePool } from "../../../../src/algorithms/jobs.ts";
import { BadRequest } from "../../../../src/errors.ts";
import { EPAFHM, HAMSTER, readSmilesCsv } from "../../../helpers/data.ts";
import { checkHamsterQueries, HAMSTER_QUERIES } from "../../../helpers/learner-checks.ts";

const hamster = readSmilesCsv(HAMSTER);
const epafhm = readSmilesCsv(EPAFHM).filter((r) => r.value !== "");

describe("kernel.train / kernel.predict", () => {
  const pool = servicePool(1);
  after(() => pool.close());

  it("classification (hamster): trained in a worker, predicts in a worker; a training compound is its own nearest neighbour; p-values in (0, 1]", async () => {
    const smiles = [...hamster.map((r) => r.smiles), "this is not a SMILES"];
    const y = [...hamster.map((r) => (r.value === "true" ? 1 : 0)), 0];
    const model = await pool.run("kernel.train", { smiles, y, kind: "classification", nClasses: 2, cost: 2, epsilon: 0.1, seed: 1 });
    assert.equal(model.rows.length, 85, "the unreadable compound is left out");
    assert.match(model.errors[85] ?? "", /./, "…and says why");
    const queries = HAMSTER_QUERIES;
    const { predictions } = await pool.run("kernel.predict", { model, smiles: queries, confidenceLevel: 0.8, neighbours: 3 });
    const aniline = checkHamsterQueries(model, predictions);
    assert.equal(aniline.value, aniline.decision > 0 ? model.model.svm.labels[0] : model.model.svm.labels[1], "the class is the side of the decision value");
    // the same request again: the same answer (the model and its calibration are deterministic)
    const again = await kernelPredictJob({ model, smiles: [queries[3]!], confidenceLevel: 0.8, neighbours: 3 });
    assert.deepEqual(again.predictions[0], aniline);
  });

  it("regression (EPAFHM.medi): the interval at 0.8 holds the prediction and is narrower than at 0.95", async () => {
    const smiles = epafhm.map((r) => r.smiles);
    const y = epafhm.map((r) => Number(r.value));
    const model = await kernelTrainJob({ smiles, y, kind: "regression", nClasses: 0, cost: 10, epsilon: 0.1, seed: 1 });
    const q = ["CCCCCCCCO", smiles[5]!];
    const at80 = (await kernelPredictJob({ model, smiles: q, confidenceLevel: 0.8, neighbours: 2 })).predictions;
    const at95 = (await kernelPredictJob({ model, smiles: q, confidenceLevel: 0.95, neighbours: 2 })).predictions;
    for (let i = 0; i < 2; i++) {
      const [lo, hi] = at80[i]!.interval!;
      assert.ok(lo < at80[i]!.value && at80[i]!.value < hi, `${lo} < ${at80[i]!.value} < ${hi}`);
      const [lo95, hi95] = at95[i]!.interval!;
      assert.ok(hi95 - lo95 > hi - lo, "more confidence, a wider interval");
    }
    // a training compound is predicted near its measured value (within the 0.8 interval)
    const [lo, hi] = at80[1]!.interval!;
    assert.ok(lo <= y[5]! && y[5]! <= hi, `${y[5]} in [${lo}, ${hi}]`);
  });

  it("refuses a classifier with one class and too few readable compounds, naming the parameter", async () => {
    const smiles = hamster.slice(0, 20).map((r) => r.smiles);
    await assert.rejects(kernelTrainJob({ smiles, y: smiles.map(() => 1), kind: "classification", nClasses: 2, cost: 2, epsilon: 0.1, seed: 1 }), (e: unknown) => e instanceof BadRequest && e.details.field === "prediction_feature");
    await assert.rejects(kernelTrainJob({ smiles: smiles.slice(0, 5), y: [0, 1, 0, 1, 0], kind: "classification", nClasses: 2, cost: 2, epsilon: 0.1, seed: 1 }), (e: unknown) => e instanceof BadRequest && /at least 10/.test(e.message));
  });
});

test("kernel.predict with no queries answers with none", async () => {
  const smiles = hamster.slice(0, 30).map((r) => r.smiles);
  const model = await kernelTrainJob({ smiles, y: hamster.slice(0, 30).map((r) => (r.value === "true" ? 1 : 0)), kind: "classification", nClasses: 2, cost: 2, epsilon: 0.1, seed: 1 });
  assert.deepEqual((await kernelPredictJob({ model, smiles: [], confidenceLevel: 0.8, neighbours: 3 })).predictions, []);
});

test("cv.fold.kernel keeps the conformal output: both classes' p-values; an interval and the p-value of each measured value, ≤ 0.2 exactly when the value is outside the 0.8 interval", async () => {
  // classification: hamster, every fifth compound a test compound
  const cls = await kernelFoldJob({
    train: hamster.filter((_, i) => i % 5 !== 0).map((r) => ({ smiles: r.smiles, activity: r.value === "true" ? 2 : 1 })),
    test: hamster.flatMap((r, i) => (i % 5 === 0 ? [{ key: `h${i}`, smiles: r.smiles }] : [])),
    classes: ["false", "true"],
    confidenceLevel: 0.8,
  });
  assert.equal(cls.predictions.length, 17);
  for (const p of cls.predictions) {
    assert.equal(p.pValues?.length, 2);
    assert.ok(p.pValues!.every((x) => x > 0 && x <= 1));
    // the confidence of the predicted class (1 or 2) is 1 − the other class's p-value
    assert.ok(Math.abs(p.confidence - (1 - p.pValues![p.value === 1 ? 1 : 0]!)) < 1e-12);
    assert.equal(p.interval, undefined);
  }
  // regression: EPAFHM.medi, every fifth compound tested, one of them given as measured twice (a second, invented value)
  const testRows = epafhm.flatMap((r, i) => (i % 5 === 0 ? [{ key: `e${i}`, smiles: r.smiles, measured: [Number(r.value)] }] : []));
  const twice = { ...testRows[0]!, measured: [testRows[0]!.measured[0]!, testRows[0]!.measured[0]! + 5] };
  const reg = await kernelFoldJob({
    train: epafhm.filter((_, i) => i % 5 !== 0).map((r) => ({ smiles: r.smiles, activity: Number(r.value) })),
    test: [twice, ...testRows.slice(1)],
    classes: [],
    confidenceLevel: 0.8,
  });
  let checked = 0;
  for (const [i, p] of reg.predictions.entries()) {
    const measured = (i === 0 ? twice : testRows[i]!).measured;
    assert.equal(p.truthPValues?.length, measured.length, "one p-value per measured value");
    const [lo, hi] = p.interval!;
    assert.ok(lo <= p.value! && p.value! <= hi);
    measured.forEach((y, j) => {
      const outside = !(y >= lo && y <= hi);
      assert.equal(p.truthPValues![j]! <= 0.2, outside, `compound ${i}, value ${y} in [${lo}, ${hi}]: p ${p.truthPValues![j]}`);
      checked++;
    });
  }
  assert.equal(checked, testRows.length + 1);
  // the invented value 5 log units away is far outside: a small p-value
  assert.ok(reg.predictions[0]!.truthPValues![1]! <= 0.1, `p ${reg.predictions[0]!.truthPValues![1]}`);
});
