/**
 * One cross-validation fold in a worker (src/algorithms/crossvalidation/job.ts), run for all ten
 * folds of hamster_carcinogenicity.csv (85 compounds, true/false) with BBRC (min frequency 2) and
 * the weighted majority vote. Reference: lazar's validation test expects an accuracy above 0.80 for
 * this set-up (opentox/opentox-test : test/validation.rb `test_fminer_crossvalidation` @ db21f62,
 * branch mongodb). The folds here are simply every tenth row; the test fold is never mined (the
 * features come from the training rows only).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DATA } from "../../../helpers/data.ts";
import { crossValidationFold } from "../../../../src/algorithms/crossvalidation/job.ts";

test("10 folds of hamster, BBRC + weighted majority vote: accuracy over the predicted compounds > 0.80", async () => {
  const lines = readFileSync(`${DATA}lazar/test/data/hamster_carcinogenicity.csv`, "utf8").split(/\r?\n/).slice(1).filter(Boolean);
  const rows = lines.map((l, i) => {
    const [s, v] = l.split(",");
    return { key: `row${i}`, smiles: s!.trim(), activity: v!.trim() === "true" ? 2 : 1 };
  });
  assert.equal(rows.length, 85);
  let correct = 0;
  let predicted = 0;
  for (let f = 0; f < 10; f++) {
    const train = rows.filter((_, i) => i % 10 !== f);
    const testRows = rows.filter((_, i) => i % 10 === f);
    const out = await crossValidationFold(
      { train, test: testRows.map((r) => ({ key: r.key, smiles: r.smiles })), miner: { miner: "bbrc", options: { minfreq: 2 } }, classes: ["false", "true"], algorithm: "weighted_majority_vote", minSim: 0.3, minTrainPerformance: 0.1, nrHits: false },
      { progress: () => undefined },
    );
    assert.equal(out.predictions.length, testRows.length);
    assert.ok(out.features > 0);
    for (const p of out.predictions) {
      if (p.value === null) {
        assert.ok(p.reason, "an unpredicted compound says why");
        continue;
      }
      predicted++;
      if (p.value === testRows.find((r) => r.key === p.key)!.activity) correct++;
    }
  }
  assert.ok(predicted >= 60, `${predicted} of 85 predicted`);
  assert.ok(correct / predicted > 0.8, `accuracy ${(correct / predicted).toFixed(3)}`);
});
