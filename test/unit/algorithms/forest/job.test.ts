/**
 * The random forest's worker jobs (src/algorithms/forest/job.ts) and their orchestration on a
 * pool (forest/model.ts `trainForestOnPool`): lazar's hamster carcinogenicity set (85 compounds,
 * classification) and EPAFHM.medi (91, regression) through a worker; a three-class toy problem
 * on hand-made features whose p-values are worked out by hand; the columns the trees see.
 */
import { after, describe, it, test } from "node:test";
import assert from "node:assert/strict";
import { forestColumns, forestFinishJob, forestFoldJob, forestPredictJob, forestTrainJob, spreadConfidence, type ForestTrainInput } from "../../../../src/algorithms/forest/job.ts";
import { trainForestOnPool } from "../../../../src/algorithms/forest/model.ts";
import { forestFeatureSet } from "../../../../src/algorithms/forest/spec.ts";
import { modelFeatures, type ModelFeatures } from "../../../../src/algorithms/global/features.ts";
import { servicePool, type RunJob } from "../../../../src/algorithms/jobs.ts";
import { BadRequest } from "../../../../src/errors.ts";
import { packBits } from "../../../../src/learn/kernels.ts";
import { EPAFHM, HAMSTER, readSmilesCsv } from "../../../helpers/data.ts";
import { checkHamsterQueries, HAMSTER_QUERIES } from "../../../helpers/learner-checks.ts";

const hamster = readSmilesCsv(HAMSTER);
const epafhm = readSmilesCsv(EPAFHM).filter((r) => r.value !== "");

/** Hand-made features: Morgan bit lists (2048 bits) and descriptor rows. */
function features(bits: readonly number[][], descriptors: readonly number[][]): ModelFeatures {
  const offsets = [0];
  for (const b of bits) offsets.push(offsets.at(-1)! + b.length);
  const columns = descriptors[0]?.length ?? 0;
  return {
    rows: Int32Array.from(bits, (_, i) => i),
    errors: bits.map(() => null),
    fingerprints: [packBits(Int32Array.from(offsets), Int32Array.from(bits.flat()), 2048)],
    descriptors: Float64Array.from(descriptors.flat()),
    columns,
  };
}

describe("forest jobs on a pool (model.features, forest.train in parts, forest.finish, forest.predict)", () => {
  const pool = servicePool(1);
  after(() => pool.close());
  const run: RunJob = (kind, input, onProgress) => pool.run(kind, input, onProgress ? { onProgress } : {});

  it("classification (hamster): a training compound is its own nearest neighbour; p-values in (0, 1]; the same model twice predicts the same; two parts grow the forest one part grows", async () => {
    const smiles = [...hamster.map((r) => r.smiles), "this is not a SMILES"];
    const y = [...hamster.map((r) => (r.value === "true" ? 1 : 0)), 0];
    const input = { smiles, y, keys: smiles, kind: "classification" as const, nClasses: 2 };
    const seen: number[] = [];
    // 85 × 300 trees is past the one-part bound: grown in two parts
    const model = await trainForestOnPool(run, input, { numTrees: 300, features: "morgan" }, (f) => seen.push(f));
    assert.ok(seen.length > 3 && seen.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= seen[i - 1]!)), `progress rises within [0, 1]: ${seen.join(", ")}`);
    assert.equal(model.rows.length, 85, "the unreadable compound is left out");
    assert.match(model.errors[85] ?? "", /./, "…and says why");
    assert.equal(model.forest.nodes.length, 301, "300 trees");
    // the same forest from one part, in this thread
    const features = await modelFeatures(smiles, forestFeatureSet("morgan"));
    const train: ForestTrainInput = { features, y, kind: "classification", nClasses: 2, numTrees: 300, use: "morgan", seed: 1 };
    const whole = forestFinishJob({ ...train, parts: [forestTrainJob({ ...train, trees: [0, 300] })] });
    assert.deepEqual(whole.forest, model.forest, "two parts joined are the forest grown in one piece");
    assert.deepEqual(whole.classCalibration, model.classCalibration);

    const queries = HAMSTER_QUERIES;
    const { predictions } = await pool.run("forest.predict", { model, smiles: queries, confidenceLevel: 0.8, neighbours: 3 });
    const aniline = checkHamsterQueries(model, predictions);
    assert.ok(Math.abs(aniline.confidence - (1 - aniline.pValues![1 - aniline.value]!)) < 1e-12, "confidence = 1 − the other class's p-value");
    assert.equal(aniline.interval, null);

    // the same model trained again: the same predictions (deterministic: seeded trees, the same calibration)
    const again = await trainForestOnPool(run, input, { numTrees: 300, features: "morgan" });
    const second = await forestPredictJob({ model: again, smiles: queries, confidenceLevel: 0.8, neighbours: 3 });
    assert.deepEqual(second.predictions, predictions);
  });

  it("regression (EPAFHM.medi, Morgan bits and descriptors): the interval at 0.8 holds the prediction and is narrower than at 0.95; the confidence ranks as the interval's width", async () => {
    const input = { smiles: epafhm.map((r) => r.smiles), y: epafhm.map((r) => Number(r.value)), keys: epafhm.map((r) => r.smiles), kind: "regression" as const, nClasses: 0 };
    const model = await trainForestOnPool(run, input, { numTrees: 100, features: "morgan+descriptors" });
    assert.ok(model.columns.descriptors.length > 20 && model.columns.bits.length > 100, `${model.columns.bits.length} bits, ${model.columns.descriptors.length} descriptors`);
    const q = ["CCCCCCCCO", "c1ccccc1Cl", "OC(=O)CCl", epafhm[5]!.smiles];
    const at80 = (await pool.run("forest.predict", { model, smiles: q, confidenceLevel: 0.8, neighbours: 2 })).predictions;
    const at95 = (await pool.run("forest.predict", { model, smiles: q, confidenceLevel: 0.95, neighbours: 2 })).predictions;
    for (let i = 0; i < q.length; i++) {
      const [lo, hi] = at80[i]!.interval!;
      assert.ok(lo < at80[i]!.value && at80[i]!.value < hi, `${lo} < ${at80[i]!.value} < ${hi}`);
      const [lo95, hi95] = at95[i]!.interval!;
      assert.ok(hi95 - lo95 > hi - lo, "more confidence, a wider interval");
      assert.ok(at80[i]!.confidence >= 0 && at80[i]!.confidence <= 1);
      assert.equal(at80[i]!.pValues, null);
    }
    const width = (p: (typeof at80)[number]): number => p.interval![1] - p.interval![0];
    for (const a of at80) for (const b of at80) if (width(a) < width(b)) assert.ok(a.confidence >= b.confidence, "a narrower interval, at least as confident");
  });

  it("refuses fewer than 10 readable compounds and a single class, naming the parameter", async () => {
    const f = await modelFeatures(hamster.slice(0, 20).map((r) => r.smiles), forestFeatureSet("morgan"));
    const base = { features: f, kind: "classification" as const, nClasses: 2, numTrees: 10, use: "morgan" as const, seed: 1, trees: [0, 10] as const };
    assert.throws(() => forestTrainJob({ ...base, y: f.errors.map(() => 1) }), (e: unknown) => e instanceof BadRequest && e.details.field === "prediction_feature");
    const five = await modelFeatures(hamster.slice(0, 5).map((r) => r.smiles), forestFeatureSet("morgan"));
    assert.throws(() => forestTrainJob({ ...base, features: five, y: [0, 1, 0, 1, 0] }), (e: unknown) => e instanceof BadRequest && /at least 10/.test(e.message));
  });
});

test("three classes, hand-checked: one descriptor is the class; every tree splits it exactly, so each class's calibration scores are 0 and a query of class 1 has p-values 1/11, 1, 1/11", async () => {
  // 30 training rows, 10 per class; descriptor 0 = the class index, descriptor 1 = 7 everywhere
  // (constant: not a column of the forest); Morgan bits: the class's bit and one of the row's own.
  const bits = Array.from({ length: 30 }, (_, i) => [i % 3, 10 + i]);
  const desc = Array.from({ length: 30 }, (_, i) => [i % 3, 7]);
  const train: ForestTrainInput = { features: features(bits, desc), y: desc.map((d) => d[0]!), kind: "classification", nClasses: 3, numTrees: 20, use: "descriptors", seed: 1 };
  const model = forestFinishJob({ ...train, parts: [forestTrainJob({ ...train, trees: [0, 20] })] });
  assert.deepEqual(Array.from(model.columns.descriptors), [0], "the constant descriptor is left out");
  assert.deepEqual(Array.from(model.columns.bits), [], "the trees see no Morgan bit");
  // every training row was out of bag for some tree, and all its out-of-bag trees voted its class:
  // vote share 1, nonconformity 1 − 1 = 0
  assert.deepEqual(Array.from(model.classCalibration!.counts), [10, 10, 10]);
  for (const s of model.classCalibration!.scores) assert.deepEqual(Array.from(s), new Array(10).fill(0));
  // a query with descriptor 1 (its Morgan bits: class 1's and a bit of its own): every tree votes 1;
  // nonconformity (1, 0, 1); p_c = (#{calibration scores of c ≥ α_c} + 1) / (10 + 1)
  const query = features([[1, 500]], [[1, 7]]);
  const [p] = (await forestPredictJob({ model, smiles: ["q"], features: query, confidenceLevel: 0.8, neighbours: 5 })).predictions;
  assert.equal(p!.value, 1);
  assert.deepEqual(p!.pValues, [1 / 11, 1, 1 / 11]);
  assert.ok(Math.abs(p!.confidence - 10 / 11) < 1e-12, "1 − the largest p-value of the other classes");
  // neighbours: Tanimoto |{1}| / |{1, 500, 10 + i}| = 1/3 with each class-1 row (rows 1, 4, 7, …), 0 with the others
  assert.deepEqual(p!.neighbours.map((n) => n.row), [1, 4, 7, 10, 13]);
  assert.ok(p!.neighbours.every((n) => Math.abs(n.similarity - 1 / 3) < 1e-6));
  // the domain: each training row's nearest other row shares its class bit: 1/3 as well
  assert.ok(Math.abs(model.domain.threshold - 1 / 3) < 1e-6 && p!.inside);
  // a missing descriptor takes the training median: 10 × 0, 10 × 1, 10 × 2 → 1
  const [q2] = (await forestPredictJob({ model, smiles: ["q"], features: features([[1]], [[NaN, 7]]), confidenceLevel: 0.8, neighbours: 0 })).predictions;
  assert.equal(q2!.value, 1);
  const [q0] = (await forestPredictJob({ model, smiles: ["q"], features: features([[0]], [[0, 7]]), confidenceLevel: 0.8, neighbours: 0 })).predictions;
  assert.deepEqual([q0!.value, q0!.pValues], [0, [1, 1 / 11, 1 / 11]]);
});

test("a class no training compound has gets p-value 0 and is never predicted", async () => {
  const bits = Array.from({ length: 20 }, (_, i) => [i]);
  const desc = Array.from({ length: 20 }, (_, i) => [i % 2 === 0 ? 0 : 2]);
  const train: ForestTrainInput = { features: features(bits, desc), y: desc.map((d) => d[0]!), kind: "classification", nClasses: 3, numTrees: 20, use: "descriptors", seed: 1 };
  const model = forestFinishJob({ ...train, parts: [forestTrainJob({ ...train, trees: [0, 20] })] });
  assert.deepEqual(model.present, [true, false, true]);
  const [p] = (await forestPredictJob({ model, smiles: ["q"], features: features([[0]], [[1]]), confidenceLevel: 0.8, neighbours: 0 })).predictions;
  assert.equal(p!.pValues![1], 0);
  assert.notEqual(p!.value, 1);
});

test("forestColumns: bits that vary among the training rows; descriptors that vary, a missing value filled with the median (hand-checked)", () => {
  // bit 3 on every row (constant), bit 5 on two of three, bit 9 on none; descriptor 0 = 1, NaN, 4
  // (median 2.5), descriptor 1 = 2, 2, NaN (constant once filled with 2)
  const f = features([[3, 5], [3, 5], [3]], [[1, 2], [NaN, 2], [4, NaN]]);
  const c = forestColumns(f, "morgan+descriptors");
  assert.deepEqual(Array.from(c.bits), [5]);
  assert.deepEqual(Array.from(c.descriptors), [0]);
  assert.deepEqual(Array.from(c.fill), [2.5, 2]);
  assert.deepEqual(Array.from(forestColumns(f, "morgan").descriptors), []);
  assert.deepEqual(Array.from(forestColumns(f, "descriptors").bits), []);
});

test("spreadConfidence: the share of calibration spreads above the query's, ties half (hand-checked)", () => {
  const sigmas = Float64Array.from([0.1, 0.2, 0.2, 0.4]);
  assert.equal(spreadConfidence(sigmas, 0.05), 1);
  assert.equal(spreadConfidence(sigmas, 0.2), (1 + 2 / 2) / 4);
  assert.equal(spreadConfidence(sigmas, 0.3), 1 / 4);
  assert.equal(spreadConfidence(sigmas, 0.5), 0);
});

test("cv.fold.forest: the features picked from the cross-validation's give the fold computing its own", async () => {
  const rows = hamster.slice(0, 40);
  const train = rows.slice(0, 30).map((r) => ({ smiles: r.smiles, activity: r.value === "true" ? 2 : 1 }));
  const test = [...rows.slice(30).map((r, i) => ({ key: `k${i}`, smiles: r.smiles })), { key: "none", smiles: null }];
  const input = { train, test, classes: ["false", "true"], confidenceLevel: 0.8, numTrees: 20, use: "morgan" as const };
  const own = await forestFoldJob(input);
  const all = await modelFeatures(rows.map((r) => r.smiles), forestFeatureSet("morgan"));
  const picked = await forestFoldJob({ ...input, features: { all, train: train.map((_, i) => i), test: test.map((t, i) => (t.smiles === null ? -1 : 30 + i)) } });
  assert.deepEqual(picked, own);
  assert.equal(own.predictions.length, 11);
  assert.equal(own.predictions[10]!.value, null, "a test compound without a structure is not predicted");
  assert.ok(own.predictions.slice(0, 10).every((p) => p.value === 1 || p.value === 2), "classes counted from 1");
});
