/**
 * lazar as an algorithm (`/algorithm/qsar`, alias `/algorithm/lazar`): building a model; and
 * predicting with one, a dataset as a task or one compound answered directly.
 */
import type { Algorithm, Services } from "../algorithm.ts";
import type { RunJob, RunRequestJob } from "../jobs.ts";
import { requireDataset } from "../checks.ts";
import { BadRequest, UnprocessableEntity } from "../../errors.ts";
import { read } from "../../resources/reads.ts";
import type { ModelRecord } from "../../resources/model.ts";
import type { TaskState } from "../../resources/task.ts";
import { newId } from "../../resources/uris.ts";
import { VERSION } from "../../version.ts";
import { buildModelOperation } from "./operation.ts";
import { datasetQueries, predictCompound, predictDatasetOperation, storedPrediction, uploadAndPredictOperation } from "./predict.ts";
import { resolveLines, structureLines } from "./resolve.ts";
import { compoundQuads } from "../../resources/dataset.ts";
import type { UploadLimits } from "../../resources/upload-limits.ts";
import { toNTriples } from "../../store/ntriples.ts";
import { csvRows } from "../../tabular/csv-write.ts";
import { detectFormat, SUPPORTED_FORMATS, type UploadFormat } from "../../tabular/format.ts";
import { UnsupportedMediaType } from "../../errors.ts";
import { actingCreator } from "../../resources/creator.ts";
import type { StoreBackend } from "../../store/backend.ts";
import { LAZAR, modelRequest } from "./spec.ts";

export const lazar: Algorithm = {
  spec: LAZAR,
  async submit(params, raw, _uri, { store, uris, vocab, tasks }) {
    const request = await store.withRoom(() => modelRequest(params, raw, store, uris, vocab));
    const model = `${uris.models()}/${newId()}`;
    return tasks.submit(request.title, "model building", buildModelOperation(store, request, model, () => uris.dataset(newId()), vocab.base, VERSION, vocab));
  },
};

/** Predict every compound of dataset `dataset` with model `m`, as a task. */
export async function predictDataset(m: ModelRecord, dataset: string, { store, uris, vocab, tasks }: Services): Promise<TaskState> {
  requireDataset(dataset, "dataset_uri", store, uris);
  const result = uris.dataset(newId());
  return tasks.submit(`${m.endpointTitle}: predicting ${dataset}`, "prediction", predictDatasetOperation(store, m, await datasetQueries(store, dataset, vocab), result, vocab));
}

/** A batch to predict: a CSV or SD file's bytes (checked against the upload limits on its shape by the caller, as POST /dataset does). */
export interface BatchFile {
  readonly bytes: Uint8Array;
  readonly fileName: string;
  readonly format?: UploadFormat;
}

/**
 * Predict the structures of a file with model `m`, as one task (lazar/predict.ts
 * uploadAndPredictOperation): the file becomes a dataset by the upload's rules, then it is predicted.
 */
export async function predictFile(m: ModelRecord, file: BatchFile, limits: UploadLimits, { store, uris, vocab, tasks }: Services): Promise<TaskState> {
  let format = file.format;
  if (format === undefined) {
    const detected = detectFormat(file.bytes, file.fileName);
    if ("unsupported" in detected) throw new UnsupportedMediaType(`${file.fileName} is ${detected.unsupported}; a batch to predict is ${SUPPORTED_FORMATS}`, { field: "file" });
    format = detected.format;
  }
  const upload = { bytes: file.bytes, fileName: file.fileName, format, datasetUri: uris.dataset(newId()), base: vocab.base, limits };
  return tasks.submit(`${m.endpointTitle}: predicting ${file.fileName}`, "prediction", uploadAndPredictOperation(store, m, upload, uris.dataset(newId()), actingCreator(), vocab));
}

/**
 * Predict the structures of a `structure` text (README "Predicting"; one SMILES or InChI a line,
 * bounded by structureLines): every line is read first (resolve.ts, in the request-time pool), and
 * a line that cannot be read refuses the request (400 naming it) before anything is stored. One
 * structure: its compound is stored (as POST /compound does) and predicted at once, as
 * compound_uri (`predictOne`). Several: a CSV of them is predicted as a file (`predictFile`), a task.
 */
export async function predictText(
  m: ModelRecord,
  text: string,
  limits: UploadLimits,
  services: Services,
  run: RunRequestJob,
  train: RunJob,
): Promise<{ readonly prediction: { uri: string; created: boolean } } | { readonly task: TaskState }> {
  const { store, uris, vocab } = services;
  const lines = structureLines(text);
  if (lines.length > 1) services.tasks.admit();
  const resolved = await resolveLines(lines, { store, vocab, uris, run });
  if (resolved.length === 1) {
    const { uri, compound } = resolved[0]!;
    if (!store.has(uri)) await store.commit([{ graph: uri, ntriples: toNTriples(compoundQuads(uri, compound, vocab)) }]);
    return { prediction: await predictOne(m, uri, services, run, train) };
  }
  // The structures as the service identified them: the SMILES as given, or the InChI when it has no SMILES.
  const csv = csvRows([["SMILES"], ...resolved.map((r) => [r.compound.smiles ?? r.compound.inchi])]);
  return { task: await predictFile(m, { bytes: new TextEncoder().encode(csv), fileName: "structures.csv", format: "csv" }, limits, services) };
}

/**
 * Predict compound `compoundUri` (parameter compound_uri: a compound URI of this service, known
 * or not) with model `m`, run by `run` (request-time jobs; a global model not in memory is trained
 * again by jobs of `train`, the task pool, without the request-time budget): the prediction dataset's URI, and
 * whether it was stored by this request (false: the same request was answered before, and its
 * stored prediction is the answer, `storedPrediction`). Identical requests that arrive while one
 * is being predicted wait for it and get its answer.
 */
export async function predictOne(m: ModelRecord, compoundUri: string, services: Services, run: RunRequestJob, train: RunJob): Promise<{ uri: string; created: boolean }> {
  const { store, uris, vocab } = services;
  const prefix = `${uris.compounds()}/`;
  if (!compoundUri.startsWith(prefix)) throw new BadRequest(`parameter 'compound_uri': ${compoundUri} is not a compound of this service (${prefix}<InChI>)`, { field: "compound_uri" });
  let inchi: string;
  try {
    inchi = decodeURIComponent(compoundUri.slice(prefix.length));
  } catch {
    throw new BadRequest("parameter 'compound_uri': malformed percent-encoding", { field: "compound_uri" });
  }
  const uri = uris.compound(inchi);
  const stored = await storedPrediction(store, m, uri, vocab);
  if (stored !== undefined) return { uri: stored, created: false };
  const key = JSON.stringify([m.uri, uri, actingCreator() ?? null]);
  const running = inFlight(store);
  const same = running.get(key);
  if (same) return { uri: await same, created: false };
  const work = (async () => {
    let smiles = store.has(uri) ? ((await read(store, vocab, "compound", uri))?.smiles ?? null) : null;
    if (!store.has(uri)) {
      const r = await run("chem.identify", { cell: inchi });
      if (!r.ok) throw new UnprocessableEntity(`parameter 'compound_uri': ${inchi} is not a compound this service can read: ${r.error}`, { field: "compound_uri" });
      smiles = r.value.smiles;
    }
    const result = uris.dataset(newId());
    await predictCompound(store, (input) => run("model.predict", input), train, m, uri, smiles, result, vocab);
    return result;
  })();
  running.set(key, work);
  try {
    return { uri: await work, created: true };
  } finally {
    running.delete(key);
  }
}

/** Single-compound predictions under way, per store: (model, compound, creator) → their answer. */
const predicting = new WeakMap<StoreBackend, Map<string, Promise<string>>>();

function inFlight(store: StoreBackend): Map<string, Promise<string>> {
  let m = predicting.get(store);
  if (!m) predicting.set(store, (m = new Map()));
  return m;
}
