/**
 * A lazar model and a cross-validation fold built from the same rows have the same training
 * vectors (src/algorithms/lazar/featurise.ts is the one featurisation both use). The model takes
 * the service's whole path in this process: hamster_carcinogenicity.csv uploaded into a real
 * GraphStore, BBRC's feature dataset written and stored by the model task (worker pool, task
 * runner), the model's data read back from the graphs (model-data.ts). The fold mines the same
 * rows itself, as a cross-validation's `cv.fold` job does, and keeps nothing. Compared per
 * training compound: the features by SMARTS, their values (p-value, or hits × p-value with
 * nr_hits) exactly, and the activities. Both with and without nr_hits.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DATA } from "../../../helpers/data.ts";
import { servicePool, type Jobs } from "../../../../src/algorithms/jobs.ts";
import type { Services } from "../../../../src/algorithms/algorithm.ts";
import { submitUpload } from "../../../../src/algorithms/upload/index.ts";
import { lazar } from "../../../../src/algorithms/lazar/index.ts";
import { buildModelData } from "../../../../src/algorithms/lazar/model-data.ts";
import { rowFingerprint } from "../../../../src/algorithms/lazar/job.ts";
import { crossValidation } from "../../../../src/algorithms/crossvalidation/index.ts";
import { crossValidationRequest } from "../../../../src/algorithms/crossvalidation/spec.ts";
import { foldInput } from "../../../../src/algorithms/crossvalidation/operation.ts";
import { foldTraining, mineFold } from "../../../../src/algorithms/crossvalidation/job.ts";
import { read } from "../../../../src/resources/reads.ts";
import { parseParams } from "../../../../src/resources/params.ts";
import type { TaskState } from "../../../../src/resources/task.ts";
import { Uris } from "../../../../src/resources/uris.ts";
import { GraphStore } from "../../../../src/store/graph-store.ts";
import { Vocab } from "../../../../src/store/vocab.ts";
import { TaskRunner } from "../../../../src/tasks/runner.ts";

const BASE = "http://localhost:8080";
const dir = mkdtempSync(join(tmpdir(), "qsargraph-featurise-"));
const store = await GraphStore.open(dir);
const pool = servicePool(1);
const uris = new Uris(BASE);
const vocab = new Vocab(BASE);
const tasks = new TaskRunner<Jobs>(store, pool, uris, vocab);
const services: Services = { store, vocab, uris, tasks, config: { workers: 1 } };
let dataset = "";

/** Wait for a task and return its result URI (or fail with its error). */
async function result(t: TaskState): Promise<string> {
  await tasks.idle();
  const done = tasks.get(t.id)!;
  assert.equal(done.status, "Completed", JSON.stringify(done.error));
  return done.resultUri!;
}

const params = (pairs: Record<string, string>): Map<string, string[]> => new Map(Object.entries(pairs).map(([k, x]) => [k, [x]]));

/** Per compound: its features' SMARTS with their values, sorted; and its activities. */
type Vectors = Map<string, { features: [string, number][]; activities: number[] }>;

function vectors(keys: readonly string[], smarts: readonly string[], fingerprint: (r: number) => { idx: Int32Array; val: Float64Array }, instRow: Int32Array, instActivity: Float64Array): Vectors {
  const out: Vectors = new Map();
  keys.forEach((k, r) => {
    const fp = fingerprint(r);
    out.set(k, { features: [...fp.idx].map((j, n): [string, number] => [smarts[j]!, fp.val[n]!]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)), activities: [] });
  });
  instRow.forEach((r, i) => out.get(keys[r]!)!.activities.push(instActivity[i]!));
  return out;
}

describe("a model and a cross-validation fold from the same rows: one featurisation", () => {
  before(async () => {
    const bytes = readFileSync(`${DATA}lazar/test/data/hamster_carcinogenicity.csv`);
    dataset = await result(await submitUpload({ bytes, fileName: "hamster_carcinogenicity.csv" }, { rows: 1e6, columns: 1e4, triples: 1e8 }, services));
  });
  after(async () => {
    await pool.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  for (const nrHits of ["false", "true"]) {
    it(`BBRC, min_frequency 4, nr_hits=${nrHits}: the same compounds, features, values and activities`, async () => {
      const settings = { feature_generation_uri: `${BASE}/algorithm/fminer/bbrc`, min_frequency: "4", nr_hits: nrHits };
      const raw = params({ dataset_uri: dataset, ...settings });
      const modelUri = await result(await lazar.submit(parseParams(lazar.spec, raw), raw, `${BASE}/algorithm/qsar`, services));
      const model = await buildModelData(store, (await read(store, vocab, "model", modelUri))!, vocab);
      assert.equal(model.kind, "substructure");

      const cvRaw = params({ algorithm_uri: `${BASE}/algorithm/qsar`, dataset_uri: dataset, algorithm_params: Object.entries(settings).map(([k, x]) => `${k}=${x}`).join(";") });
      const request = await crossValidationRequest(parseParams(crossValidation.spec, cvRaw), cvRaw.get("algorithm_params")![0]!, store, uris, vocab);
      assert.equal(request.features.kind, "mined");
      if (request.features.kind !== "mined") return;
      // Every instance in training, none in test: the fold's model is built from all rows, as the model is.
      const input = foldInput(request, request.features, () => true, new Map());
      const fold = foldTraining(input.train, await mineFold(input), input.nrHits);

      const fromModel = vectors(model.keys, model.smarts, (r) => rowFingerprint(model, r), model.instRow, model.instActivity);
      const fromFold = vectors(fold.keys, fold.smarts, (r) => fold.fingerprints[r]!, fold.instRow, fold.instActivity);
      assert.equal(fromModel.size, 85, "hamster's 85 compounds are training compounds");
      assert.deepEqual([...fromFold.keys()].sort(), [...fromModel.keys()].sort());
      for (const [k, m] of fromModel) assert.deepEqual(fromFold.get(k), m, k);
      assert.deepEqual([...fold.smarts].sort(), [...model.smarts].sort(), "the same features");
      const withFeatures = [...fromModel.values()].filter((x) => x.features.length > 0).length;
      assert.ok(withFeatures > 60, `${withFeatures} compounds have features`);
      if (nrHits === "true") assert.ok([...fromModel.values()].some((x) => x.features.some(([s, val]) => val !== fold.weights[fold.smarts.indexOf(s)])), "some value counts more than one hit");
    });
  }
});
