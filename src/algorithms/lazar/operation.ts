/**
 * Building a lazar model (main thread): its features (mined, computed descriptors, or a stored
 * feature dataset), then the model record.
 */
import { UnprocessableEntity } from "../../errors.ts";
import { read } from "../../resources/reads.ts";
import { modelNTriples, type ModelRecord } from "../../resources/model.ts";
import type { StoreBackend, StagedGraph } from "../../store/backend.ts";
import { type Vocab } from "../../store/vocab.ts";
import { selectedFeatures } from "../descriptors/spec.ts";
import { miningInput } from "../mining/spec.ts";
import { describe } from "../descriptors/operation.ts";
import type { Operation, RunJob } from "../jobs.ts";
import type { ModelRequest } from "./spec.ts";
import { loadModelData } from "./model-data.ts";
import { featureCount } from "../kernel/job.ts";
import { trainKernel } from "../kernel/model.ts";
import { forestFeatureCount } from "../forest/job.ts";
import { trainForest } from "../forest/model.ts";
import { keepGlobalModel, trainingInput, type GlobalModelData } from "../global/model.ts";

/** The model-building task: features (generated, or the stored feature dataset), then the record. */
export function buildModelOperation(store: StoreBackend, request: ModelRequest, modelUri: string, newDataset: () => string, base: string, version: string, v: Vocab): Operation {
  return async (ctx) => {
    const ops: { graph: string; ntriples: Uint8Array | string }[] = [];
    let featureDataset: string;
    let features: number;
    let preloaded: StagedGraph[] = [];
    let trainingCompounds = request.trainingCompounds;
    /** A global model's data, kept in memory once the model is stored. */
    let global: GlobalModelData<string, unknown> | undefined;
    const g = request.generator;
    if (g.kind === "kernel" || g.kind === "forest") {
      // no feature dataset: the model computes its fingerprints and descriptors itself
      featureDataset = "";
      ctx.progress(0.05);
      const input = await trainingInput(store, request.record, v);
      const m = { ...request.record, uri: modelUri };
      const run: RunJob = (kind, jobInput, onProgress) => ctx.run(kind, jobInput, onProgress);
      const progress = (f: number): void => ctx.progress(0.05 + 0.9 * f);
      const data = g.kind === "kernel" ? await trainKernel(run, m, input, progress) : await trainForest(run, m, input, g.settings, progress);
      ctx.progress(0.95);
      trainingCompounds = new Set(data.keys).size;
      features = data.kind === "kernel" ? featureCount(data.trained) : forestFeatureCount(data.trained.columns);
      global = data;
    } else if (g.kind === "stored") {
      featureDataset = g.uri;
      features = (await read(store, v, "datasetSummary", g.uri)).features.length;
    } else if (g.kind === "miner") {
      featureDataset = newDataset();
      const input = await miningInput(g.request, store, v);
      const out = await ctx.run("mine", { ...input, dataset: { ...input.dataset, uri: featureDataset, created: new Date() } }, (f) => ctx.progress(0.9 * f));
      ops.push({ graph: featureDataset, ntriples: out.ntriples });
      features = out.features;
    } else {
      featureDataset = newDataset();
      const stage = store.stage(featureDataset);
      try {
        const body = await describe(g.request, featureDataset, base, (input, onProgress) => ctx.run("descriptors.chunk", input, onProgress), (f) => ctx.progress(0.9 * f), stage);
        ops.push({ graph: featureDataset, ntriples: body });
        preloaded = [stage];
      } catch (err) {
        await stage.discard();
        throw err;
      }
      features = selectedFeatures(g.request.pcTypes, g.request.libs).values.length;
    }
    if (features === 0) {
      await Promise.all(preloaded.map((s) => s.discard()));
      throw new UnprocessableEntity("the feature generator found no features: a model needs at least one (for a miner, try a lower min_frequency)", { field: "feature_generation_uri" });
    }
    const record: ModelRecord = { ...request.record, uri: modelUri, created: new Date(), featureDataset, features, trainingCompounds, version };
    ops.push({ graph: modelUri, ntriples: modelNTriples(record, v) });
    // The model's data is read into its cache before the task completes: the first prediction
    // does not wait for it (a Kazius BBRC model: ≈ 2.5 s of reading).
    if (global) {
      const data = global;
      return { ops, resultUri: modelUri, preloaded, warm: async () => keepGlobalModel(data) };
    }
    return { ops, resultUri: modelUri, preloaded, warm: async () => void (await loadModelData(store, record, v)) };
  };
}
