/**
 * ot:effect of a substructure for classification (src/algorithms/mining/job.ts `classEffect`), the
 * formula of lazar's `effect` (opentox/opentox-ruby : lib/utils.rb @ v4.0.0; docs/lazar-method.md
 * "Substructures"): with occ_i the occurrences in class i (ascending classes), actual_i =
 * occ_i/Σocc and expected_i = n_i/N, effect = 1 + argmax over the classes with actual_i >
 * expected_i of (actual_i − expected_i)/actual_i. Expected values worked by hand.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DATA } from "../../../helpers/data.ts";
import { BadRequest } from "../../../../src/errors.ts";
import { loadRDKit } from "../../../../src/chem/rdkit.ts";
import { parseActivityFile, parseSmiFile } from "../../../../src/mining/index.ts";
import { classEffect, mine, type MiningRow } from "../../../../src/algorithms/mining/job.ts";

test("two classes (hamster: 40 false, 45 true): the over-represented class", () => {
  assert.equal(classEffect([5, 0], [40, 45]), 1);
  assert.equal(classEffect([0, 5], [40, 45]), 2);
  // 20/45 = 0.444 < 40/85 = 0.471; 25/45 = 0.556 > 45/85 = 0.529 → class 2
  assert.equal(classEffect([20, 25], [40, 45]), 2);
});

test("three classes: the largest relative excess wins, not the largest count", () => {
  // actual 0.1, 0.5, 0.4 against 1/3 each: margins (0.5−1/3)/0.5 = 0.33 and (0.4−1/3)/0.4 = 0.17
  assert.equal(classEffect([1, 5, 4], [10, 10, 10]), 2);
  // class 1 has most occurrences but is the largest class: 6/10 = 0.6 < 60/100; class 3: 3/10 = 0.3 > 20/100
  assert.equal(classEffect([6, 1, 3], [60, 20, 20]), 3);
});

/**
 * A search that reaches max_visited (src/mining/budget.ts) ends the job with a 400 naming the
 * parameter to change first: feature_type in regression with trees (the Kuiper test cannot prune:
 * fminer2 switches pruning off in regression, amaunz/fminer2 @ 21afb3b : libbbrc/bbrc.cpp
 * SetRegression; lazar mined paths for numeric endpoints, opentox/algorithm : lazar.rb @ bc73e23),
 * backbone with backbone=false, else min_frequency. Rows: fminer2's hamster input (classes 1/2) and
 * EPAFHM regression input (fixtures/data/fminer2/libbbrc/test).
 */
const F2 = `${DATA}fminer2/libbbrc/test/`;
function rows(smi: string, act: string, classes: boolean): MiningRow[] {
  const activity = parseActivityFile(readFileSync(F2 + act, "utf8"));
  return parseSmiFile(readFileSync(F2 + smi, "utf8")).flatMap((c) => (activity.has(c.id) ? [{ id: c.id, smiles: c.smiles, activity: activity.get(c.id)! + (classes ? 1 : 0) }] : []));
}

async function refusal(input: Parameters<typeof mine>[1]): Promise<BadRequest> {
  const rdkit = await loadRDKit();
  try {
    mine(rdkit, input);
  } catch (e) {
    assert.ok(e instanceof BadRequest, String(e));
    return e;
  }
  assert.fail("the search finished within max_visited");
}

test("max_visited reached: regression with trees → feature_type; with paths → min_frequency", async () => {
  const epafhm = rows("EPAFHM.smi", "EPAFHM.act", false);
  const trees = await refusal({ miner: "bbrc", options: { minfreq: 5, regression: true, type: 2, maxVisited: 100 }, rows: epafhm, classes: [] });
  assert.equal(trees.details.field, "feature_type");
  assert.match(trees.message, /visited max_visited=100 patterns/);
  assert.match(trees.message, /feature_type=paths/);
  const paths = await refusal({ miner: "bbrc", options: { minfreq: 5, regression: true, type: 1, maxVisited: 100 }, rows: epafhm, classes: [] });
  assert.equal(paths.details.field, "min_frequency");
  assert.match(paths.message, /min_frequency above 5/);
});

test("max_visited reached: classification with backbone=false → backbone; LAST-PM → min_frequency", async () => {
  const hamster = rows("hamster_carcinogenicity.smi", "hamster_carcinogenicity.class", true);
  const all = await refusal({ miner: "bbrc", options: { minfreq: 2, backbone: false, maxVisited: 50 }, rows: hamster, classes: ["false", "true"] });
  assert.equal(all.details.field, "backbone");
  const last = await refusal({ miner: "last", options: { minfreq: 2, maxVisited: 50 }, rows: hamster, classes: ["false", "true"] });
  assert.equal(last.details.field, "min_frequency");
  assert.match(last.message, /^LAST-PM stopped/);
});

test("the job's progress: rising, from the reading of the rows to the end of the search", async () => {
  const rdkit = await loadRDKit();
  const seen: number[] = [];
  const run = mine(rdkit, { miner: "bbrc", options: { minfreq: 2 }, rows: rows("hamster_carcinogenicity.smi", "hamster_carcinogenicity.class", true), classes: ["false", "true"] }, (f) => seen.push(f));
  // fminer/test/tmp1: 53 patterns at minimum support 2
  assert.equal(run.found.length, 53);
  assert.equal(seen[0], 0);
  assert.equal(seen.at(-1), 1);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i]! >= seen[i - 1]! - 1e-12, `${seen[i - 1]} → ${seen[i]}`);
  assert.ok(new Set(seen).size > 3, `${seen.length} reports`);
});
