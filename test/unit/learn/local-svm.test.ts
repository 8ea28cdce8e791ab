/**
 * Local SVMs on real data (src/learn/local-svm.ts): properties that could be false, never values
 * produced by this code.
 *
 * - Regression: EPAFHM (fathead minnow, -log10 LC50 mmol; fixtures/data/lazar/test/data/
 *   EPAFHM.medi_log10.csv, 91 rows) with CDK-compatible topological descriptors, cosine
 *   neighbours (min_sim 0.7 → 0.4 on the cosine), leave-one-out: the local SVM must beat the
 *   training mean (the no-model baseline) in RMSE, stay inside the training range, and be
 *   deterministic.
 * - Classification: hamster carcinogenicity (85 compounds, BBRC min_frequency 8, hits × pValue),
 *   leave-one-out: accuracy above the majority-class rate (45/85 = 0.529).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadRDKit } from "../../../src/chem/rdkit.ts";
import { computeDescriptors } from "../../../src/chem/descriptors/index.ts";
import { mineBbrc } from "../../../src/mining/index.ts";
import { chisqCdf1 } from "../../../src/mining/stats.ts";
import { QuerySet } from "../../../src/chem/smarts/index.ts";
import { DescriptorSpace, FingerprintMatrix, createLazarModel, instancesOf, localSvm, loadLibsvm, partitions, weightedFingerprint } from "../../../src/learn/index.ts";
import { DATA, readSmilesCsv } from "../../helpers/data.ts";


async function epafhm(): Promise<{ rows: Float64Array[]; y: number[] }> {
  const rdkit = await loadRDKit();
  const data = readSmilesCsv(`${DATA}lazar/test/data/EPAFHM.medi_log10.csv`);
  const values = data.map((d) => computeDescriptors(rdkit, d.smiles, { pcTypes: ["topological"], lib: "cdk" }));
  const names = [...new Set(values.flatMap((v) => (v ? [...v.keys()] : [])))].sort();
  const keep = data.map((_, i) => values[i] !== null);
  const rows = values.filter((_, i) => keep[i]).map((v) => Float64Array.from(names, (n) => v!.get(n) ?? NaN));
  const y = data.filter((_, i) => keep[i]).map((d) => Number(d.value));
  return { rows, y };
}

test("local SVM regression, EPAFHM leave-one-out: beats the mean, stays in range, deterministic", async (t) => {
  const { rows, y } = await epafhm();
  assert.ok(rows.length >= 85, `${rows.length} compounds with descriptors`);
  const lo = Math.min(...y);
  const hi = Math.max(...y);
  let seSvm = 0;
  let seMean = 0;
  let predicted = 0;
  let first: number[] | null = null;
  for (let run = 0; run < 2; run++) {
    const values: number[] = [];
    for (let t = 0; t < rows.length; t++) {
      const train = rows.filter((_, i) => i !== t);
      const ty = y.filter((_, i) => i !== t);
      const model = await createLazarModel({
        features: new DescriptorSpace(train),
        instances: instancesOf(ty.map((v) => [v])),
        nClasses: 0,
        algorithm: "local_svm_regression",
      });
      const p = model.predict({ descriptors: rows[t]! });
      if (p.status !== "predicted") {
        values.push(Number.NaN);
        continue;
      }
      values.push(p.value);
      assert.ok(p.confidence > 0.7 && p.confidence <= 1, `confidence ${p.confidence} is the mean similarity mapped to (c+1)/2 > min_sim`);
      if (run === 0) {
        predicted++;
        seSvm += (p.value - y[t]!) ** 2;
        const mean = ty.reduce((s, v) => s + v, 0) / ty.length;
        seMean += (mean - y[t]!) ** 2;
        assert.ok(p.value >= lo - 1e-9 && p.value <= hi + 1e-9, `prediction ${p.value} inside the training range [${lo}, ${hi}]`);
      }
    }
    if (run === 0) first = values;
    else assert.deepEqual(values, first, "two runs give identical predictions");
  }
  assert.ok(predicted >= rows.length / 3, `${predicted} of ${rows.length} predicted`);
  const rmseSvm = Math.sqrt(seSvm / predicted);
  const rmseMean = Math.sqrt(seMean / predicted);
  t.diagnostic(`EPAFHM LOO: ${predicted}/${rows.length} predicted, RMSE local SVM ${rmseSvm.toFixed(3)}, training mean ${rmseMean.toFixed(3)}`);
  assert.ok(rmseSvm < rmseMean, `local SVM RMSE ${rmseSvm.toFixed(3)} < training-mean RMSE ${rmseMean.toFixed(3)}`);
});

test("local SVM classification, hamster leave-one-out: accuracy above the majority rate", async (t) => {
  const rdkit = await loadRDKit();
  const data = readSmilesCsv(`${DATA}lazar/test/data/hamster_carcinogenicity.csv`);
  const classes = [...new Set(data.map((d) => d.value))].sort();
  const act = new Map(data.map((d, i) => [i + 1, classes.indexOf(d.value) + 1]));
  const run = mineBbrc(rdkit, data.map((d, i) => ({ id: i + 1, smiles: d.smiles })), act, { minfreq: 8 });
  const weights = run.patterns.map((p) => Math.round(chisqCdf1(p.stat) * 1e4) / 1e4);
  const counter = new QuerySet(run.patterns.map((p) => p.smarts));
  const fps = run.compounds.graphs.map((g) => {
    const c = counter.countAll(g);
    return weightedFingerprint([...c].map((hits, feature) => ({ feature, hits })), weights, true);
  });
  const n = fps.length;
  const majority = Math.max(...classes.map((_, k) => run.compounds.activities.filter((a) => a === k + 1).length)) / n;
  let correct = 0;
  let predicted = 0;
  for (let t = 0; t < n; t++) {
    const others = [...Array(n).keys()].filter((i) => i !== t);
    const model = await createLazarModel({
      features: new FingerprintMatrix(weights.length, others.map((i) => fps[i]!)),
      instances: instancesOf(others.map((i) => [run.compounds.activities[i]!])),
      nClasses: 2,
      algorithm: "local_svm_classification",
    });
    const p = model.predict({ fingerprint: fps[t]! });
    if (p.status === "predicted") {
      predicted++;
      if (p.value === run.compounds.activities[t]) correct++;
    }
  }
  assert.ok(predicted >= n / 2, `${predicted} of ${n} predicted`);
  t.diagnostic(`hamster LOO: ${predicted}/${n} predicted, accuracy ${(correct / predicted).toFixed(3)}, majority ${majority.toFixed(3)}`);
  assert.ok(correct / predicted > majority, `LOO accuracy ${(correct / predicted).toFixed(3)} > majority rate ${majority.toFixed(3)}`);
});

test("censoring: a local regression with no signal (training R² < 0.1) gives no value", async () => {
  const lib = await loadLibsvm();
  // y independent of x: x = 0..29 on one column, y alternates in a pattern unrelated to x.
  const n = 30;
  const x = Float64Array.from({ length: n }, (_, i) => i);
  const y = Float64Array.from({ length: n }, (_, i) => ((i * 7) % 5) - 2);
  const r = localSvm(lib, x, y, [15.5], { kind: "regression", minTrainPerformance: 0.99 });
  assert.equal(r.value, null);
  assert.ok(r.note?.startsWith("censored"));
  // A clean signal trains well above the default threshold and predicts close to the truth.
  const y2 = Float64Array.from(x, (v) => Math.sin(v / 5));
  const r2 = localSvm(lib, x, y2, [15.5], { kind: "regression" });
  assert.ok(r2.trainPerformance > 0.5, `R² ${r2.trainPerformance}`);
  assert.ok(Math.abs(r2.value! - Math.sin(15.5 / 5)) < 0.2, `prediction ${r2.value} vs ${Math.sin(15.5 / 5)}`);
});

test("resampling partitions are stratified, 75 % per class, and seeded", () => {
  const y = [1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2];
  const a = partitions(y, "classification", 10, 0.75, 1);
  assert.equal(a.length, 10);
  for (const p of a) {
    assert.equal([...p].filter((i) => y[i] === 1).length, 3);
    assert.equal([...p].filter((i) => y[i] === 2).length, 6);
  }
  assert.deepEqual(partitions(y, "classification", 10, 0.75, 1), a);
  assert.notDeepEqual(partitions(y, "classification", 10, 0.75, 2), a);
});
