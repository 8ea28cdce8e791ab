/**
 * Predicting with a lazar model (main thread): the compounds of a dataset or one compound, read
 * in steps and predicted in `model.predict` jobs against the model's data (model-data.ts).
 */
import { actingCreator, withCreator } from "../../resources/creator.ts";
import { EntryOrder, readCompoundsInOrder } from "../../resources/entry-order.ts";
import { predictedFeatureQuads, predictedConfidenceUri, predictedValueUri, type ModelRecord } from "../../resources/model.ts";
import { read } from "../../resources/reads.ts";
import type { StoreBackend, StagedGraph } from "../../store/backend.ts";
import type { Quad } from "@rdfjs/types";
import { toNTriples } from "../../store/ntriples.ts";
import { dateTime, dc, int, iri, ot, rdf, str, type Vocab } from "../../store/vocab.ts";
import { loadModelData } from "./model-data.ts";
import { trainKernel } from "../kernel/model.ts";
import { KERNEL_SVM } from "../kernel/spec.ts";
import { trainForest } from "../forest/model.ts";
import { RANDOM_FOREST, recordedForestSettings } from "../forest/spec.ts";
import { loadGlobalModel } from "../global/model.ts";
import type { PredictInput, PredictOutput, PredictSummary } from "./job.ts";
import type { Operation, OperationContext, RunJob } from "../jobs.ts";
import type { JobInput, JobOutput } from "../jobs.ts";
import { DataFactory } from "n3";
import { chunked, chunkedBody, runChunks } from "../chunks.ts";
import { uploadOperation, type UploadInput } from "../upload/operation.ts";

const { quad } = DataFactory;

/** Prediction: compounds to predict (line = order), their SMILES (null = unknown structure). */
export interface Queries {
  readonly rows: readonly { readonly line: number; readonly compound: string; readonly smiles: string | null }[];
  readonly parameter: readonly [string, string];
}

export async function datasetQueries(store: StoreBackend, datasetUri: string, v: Vocab): Promise<Queries> {
  const rows = (await readCompoundsInOrder(new EntryOrder(store, v), datasetUri)).map((c) => ({ compound: c.compound, line: c.line, smiles: c.smiles ?? null }));
  return { rows, parameter: ["dataset_uri", datasetUri] };
}

const PREDICT_CHUNK = 50;

function predictionHeader(m: ModelRecord, datasetUri: string, q: Queries, counts: { entries: number }, v: Vocab): Uint8Array {
  const ds = iri(datasetUri);
  const model = iri(m.uri);
  const quads: Quad[] = [
    quad(ds, rdf.type, ot.Dataset),
    quad(ds, dc.title, str(`${m.endpointTitle}: predictions of ${m.title}`)),
    quad(ds, dc.date, dateTime(new Date())),
    quad(ds, ot.hasSource, model),
    quad(ds, dc.creator, model),
    quad(ds, v.qg.model, model),
    quad(ds, iri("http://www.opentox.org/api/1.1#dependentVariables"), iri(m.endpoint)),
    quad(ds, iri("http://www.opentox.org/api/1.1#predictedVariables"), iri(predictedValueUri(m.uri))),
    quad(ds, iri("http://www.opentox.org/api/1.1#predictedVariables"), iri(predictedConfidenceUri(m.uri))),
    quad(ds, v.qg.numberOfEntries, int(counts.entries)),
    quad(ds, v.qg.numberOfCompounds, int(counts.entries)),
    quad(ds, v.qg.numberOfFeatures, int(2)),
    quad(iri(m.endpoint), rdf.type, ot.Feature),
    quad(iri(m.endpoint), dc.title, str(m.endpointTitle)),
  ];
  const p = iri(`${datasetUri}#param-${q.parameter[0]}`);
  quads.push(quad(ds, ot.parameters, p), quad(p, rdf.type, ot.Parameter), quad(p, dc.title, str(q.parameter[0])), quad(p, ot.paramValue, str(q.parameter[1])));
  quads.push(...predictedFeatureQuads(m, v));
  quads.push(quad(iri(predictedValueUri(m.uri)), v.qg.index, int(0)), quad(iri(predictedConfidenceUri(m.uri)), v.qg.index, int(1)));
  return new TextEncoder().encode(toNTriples(quads));
}

type RunPredict = (input: PredictInput, onProgress: (f: number) => void) => Promise<PredictOutput>;

/**
 * The data `model.predict` needs of model `m`: a lazar model's training data (model-data.ts), or a
 * global model's trained state, kept in memory and trained again after a restart by its own
 * train function on the task pool (`train`).
 */
export function modelData(store: StoreBackend, m: ModelRecord, v: Vocab, train: RunJob): Promise<PredictInput["model"]> {
  if (m.predictionAlgorithm === KERNEL_SVM) return loadGlobalModel(store, m, v, (input) => trainKernel(train, m, input));
  if (m.predictionAlgorithm === RANDOM_FOREST) return loadGlobalModel(store, m, v, (input) => trainForest(train, m, input, recordedForestSettings(m)));
  return loadModelData(store, m, v);
}

/** Predict the queries in chunks on the pool; the prediction dataset's body and per-query summaries. */
export async function predict(store: StoreBackend, m: ModelRecord, q: Queries, datasetUri: string, v: Vocab, verbose: boolean, run: RunPredict, progress: (f: number) => void, train: RunJob, stage?: StagedGraph): Promise<{ body: Uint8Array; summary: PredictSummary[] }> {
  const model = await modelData(store, m, v, train);
  const { outputs, loads } = await runChunks(chunked(q.rows, PREDICT_CHUNK), (queries) => queries.length, (queries, onProgress) => run({ model, queries, datasetUri, base: v.base, verbose }, onProgress), progress, stage);
  const header = predictionHeader(m, datasetUri, q, { entries: q.rows.length }, v);
  return { body: await chunkedBody(header, outputs, loads, stage), summary: outputs.flatMap((o) => o.summary) };
}

export function predictDatasetOperation(store: StoreBackend, m: ModelRecord, q: Queries, datasetUri: string, v: Vocab): Operation {
  return async (ctx: OperationContext) => {
    const stage = store.stage(datasetUri);
    try {
      const { body } = await predict(store, m, q, datasetUri, v, false, (input, onProgress) => ctx.run("model.predict", input, onProgress), (f) => ctx.progress(f), (kind, input, onProgress) => ctx.run(kind, input, onProgress), stage);
      return { ops: [{ graph: datasetUri, ntriples: body }], resultUri: datasetUri, preloaded: [stage] };
    } catch (err) {
      await stage.discard();
      throw err;
    }
  };
}

/**
 * A batch of structures (a file, or the lines of the `structure` parameter written as a CSV)
 * predicted in one task: the upload operation makes a dataset of them (algorithms/upload: the
 * same rules and limits as POST /dataset), which is committed, then predicted as `dataset_uri`
 * would be. The task's result is the prediction dataset; the query dataset stays (the
 * prediction's `dataset_uri` parameter names it), unless the prediction fails: then it is
 * deleted again, so that a failed batch leaves nothing behind.
 */
export function uploadAndPredictOperation(store: StoreBackend, m: ModelRecord, upload: UploadInput, resultUri: string, creator: string | undefined, v: Vocab): Operation {
  return async (ctx: OperationContext) => {
    const part = (from: number, to: number): OperationContext => ({
      signal: ctx.signal,
      taskUri: ctx.taskUri,
      progress: (f) => ctx.progress(from + (to - from) * f),
      run: (kind, input, onProgress) => ctx.run(kind, input, onProgress),
    });
    const up = await uploadOperation(store, upload)(part(0, 0.4));
    const preloaded = up.preloaded ?? [];
    await store.commit(await withCreator(up.ops, creator, v, (g) => !store.has(g), preloaded), { preloaded });
    try {
      return await predictDatasetOperation(store, m, await datasetQueries(store, upload.datasetUri, v), resultUri, v)(part(0.4, 1));
    } catch (err) {
      await store.commit([{ graph: upload.datasetUri, delete: true }]).catch(() => undefined);
      throw err;
    }
  };
}

/**
 * The prediction dataset a request made earlier for compound `compound` with model `m`, by the
 * same creator (the acting token's name, or none), if it is still stored: a model and a compound
 * always give the same prediction, so lazar answered a repeated request with the same URI instead
 * of storing another copy. Found through the compound's URI as the value of the dataset's
 * `compound_uri` parameter (an object-index lookup), then checked: a dataset of this model,
 * whose parameter is that one, served (not pending), of the same creator.
 */
export async function storedPrediction(store: StoreBackend, m: ModelRecord, compound: string, v: Vocab): Promise<string | undefined> {
  const found = await read(store, v, "storedPredictions", m.uri, compound, actingCreator());
  return found.find((g) => store.has(g));
}

/** One compound, answered directly: predicted by `run` (the request-time pool), committed, its summary returned. */
export async function predictCompound(
  store: StoreBackend,
  run: (input: JobInput<"model.predict">) => Promise<JobOutput<"model.predict">>,
  train: RunJob,
  m: ModelRecord,
  compound: string,
  smiles: string | null,
  datasetUri: string,
  v: Vocab,
): Promise<PredictSummary> {
  const q: Queries = { rows: [{ line: 1, compound, smiles }], parameter: ["compound_uri", compound] };
  const { body, summary } = await predict(store, m, q, datasetUri, v, true, (input) => run(input), () => undefined, train);
  await store.commit(await withCreator([{ graph: datasetUri, ntriples: body }], actingCreator(), v, (g) => !store.has(g)));
  return summary[0]!;
}
