/**
 * Worker-side prediction with a lazar model (docs/lazar-method.md): the query's features
 * (the model's SMARTS matched on the query as fminer encodes it, or its descriptors computed),
 * similarity to every training compound, neighbours above min_sim, the model's prediction
 * algorithm (src/learn), written as data entries of the prediction dataset:
 *
 *   <pd#e{line}> ot:compound <c> ; qg:line ; ot:values [<m/predicted/value> "v"], [<m/predicted/confidence> x] ;
 *       qg:numberOfNeighbours n .
 *   measured (the query is a training compound): values under the endpoint feature, qg:measured true;
 *   no neighbour: no value, qg:reason "outside the applicability domain: …", confidence 0.
 *   verbose (single compounds): <e> qg:neighbour <e/n{k}> ; <e/n{k}> ot:compound ; qg:similarity ;
 *       qg:measuredActivity ; and <e> qg:matchedFeature <feature> for each matched substructure
 *       (descriptor models: the query's descriptor values as value nodes of the feature dataset's features).
 *
 * The built model (similarity index, compiled SMARTS, libsvm) is kept per model URI in the worker.
 */
import { DataFactory } from "n3";
import { startEntry } from "../entries.ts";
import type { Quad } from "@rdfjs/types";
import { computeDescriptors } from "../../chem/descriptors/index.ts";
import { readSmilesGuarded } from "../../chem/structure.ts";
import { createLazarModel, DescriptorSpace, FingerprintMatrix, type LazarModel, type LazarPrediction, type PredictionAlgorithm, type SparseFingerprint } from "../../learn/index.ts";
import { moleculeFromSmiles, QuerySet } from "../../chem/smarts/index.ts";
import { predictedConfidenceUri, predictedValueUri } from "../../resources/model.ts";
import { toNTriples } from "../../store/ntriples.ts";
import { bool, dbl, int, iri, ot, str, Vocab, xsd } from "../../store/vocab.ts";
import type { ModelData } from "./model-data.ts";
import type { JobContext } from "../../tasks/job.ts";
import { fingerprintOf, queryHits } from "./featurise.ts";
import { kernelPredictor } from "../kernel/job.ts";
import type { KernelModelData } from "../kernel/model.ts";
import { forestPredictor } from "../forest/job.ts";
import type { ForestModelData } from "../forest/model.ts";
import { globalEntries } from "../global/entries.ts";

const { quad, literal } = DataFactory;

export interface PredictInput {
  /** A lazar model's data, or a global model's (algorithms/kernel/model.ts, algorithms/forest/model.ts). */
  readonly model: ModelData | KernelModelData | ForestModelData;
  readonly queries: readonly { readonly line: number; readonly compound: string; readonly smiles: string | null }[];
  readonly datasetUri: string;
  readonly base: string;
  /** Write neighbours and the query's features (single compounds). */
  readonly verbose: boolean;
}

export interface PredictSummary {
  readonly compound: string;
  readonly status: LazarPrediction["status"] | "unreadable";
  readonly value?: string;
  readonly confidence?: number;
  readonly neighbours: number;
  readonly reason?: string;
}

export interface PredictOutput {
  readonly entries: Uint8Array;
  readonly summary: readonly PredictSummary[];
}

interface Built {
  readonly model: LazarModel;
  readonly queries: QuerySet | null;
}

/** Built models in this worker, by model URI (a model never changes once built). */
const built = new Map<string, Promise<Built>>();

/** Training row r of a model's data: its fingerprint (substructure models). */
export function rowFingerprint(d: ModelData, r: number): SparseFingerprint {
  return { idx: d.idx.subarray(d.offsets[r]!, d.offsets[r + 1]!), val: d.val.subarray(d.offsets[r]!, d.offsets[r + 1]!) };
}

/** Training row r of a model's data: its descriptor values (descriptor models; NaN = missing). */
export function rowDescriptors(d: ModelData, r: number): Float64Array {
  const n = d.columns.length;
  return d.rows.subarray(r * n, (r + 1) * n);
}

/** The lazar model of a model's data (substructure fingerprints or descriptor rows). */
export function lazarModelOf(d: ModelData): Promise<LazarModel> {
  const instances = { row: d.instRow, activity: d.instActivity };
  const features =
    d.kind === "substructure"
      ? new FingerprintMatrix(d.smarts.length, d.keys.map((_, r) => rowFingerprint(d, r)))
      : new DescriptorSpace(d.keys.map((_, r) => rowDescriptors(d, r)), d.columns.length);
  return createLazarModel({ features, instances, keys: d.keys, nClasses: d.classes.length, algorithm: d.predictionAlgorithm as PredictionAlgorithm, minSim: d.minSim, minTrainPerformance: d.minTrainPerformance });
}

function build(d: ModelData): Promise<Built> {
  let b = built.get(d.uri);
  if (!b) {
    b = (async (): Promise<Built> => ({ model: await lazarModelOf(d), queries: d.kind === "substructure" ? new QuerySet(d.smarts) : null }))();
    built.set(d.uri, b);
    b.catch(() => built.delete(d.uri));
  }
  return b;
}

function label(d: ModelData, x: number): string {
  return d.classes.length > 0 ? (d.classes[Math.round(x) - 1] ?? String(x)) : String(x);
}

function valueLiteral(d: ModelData, x: number): Quad["object"] {
  return d.classes.length > 0 ? str(label(d, x)) : literal(String(x), xsd.double);
}

export async function predictJob(input: PredictInput, ctx: JobContext): Promise<PredictOutput> {
  if (input.model.kind === "kernel") return globalEntries(input, input.model, kernelPredictor(input.model), ctx);
  if (input.model.kind === "forest") return globalEntries(input, input.model, forestPredictor(input.model), ctx);
  const d = input.model;
  const { model, queries } = await build(d);
  const v = new Vocab(input.base);
  const valueF = iri(predictedValueUri(d.uri));
  const confF = iri(predictedConfidenceUri(d.uri));
  const q: Quad[] = [];
  const summary: PredictSummary[] = [];
  for (let i = 0; i < input.queries.length; i++) {
    const query = input.queries[i]!;
    const { entry: e, value } = startEntry(q, input.datasetUri, query, v);
    // The query's features.
    let fingerprint: { idx: Int32Array; val: Float64Array } | undefined;
    let descriptors: Float64Array | undefined;
    let matched: number[] = [];
    let readable = query.smiles !== null;
    if (query.smiles !== null && d.kind === "substructure" && queries) {
      const mol = await readSmilesGuarded(query.smiles, moleculeFromSmiles);
      if (mol === null) readable = false;
      else {
        const hits = queryHits(queries, mol, d.nrHits);
        matched = hits.map((h) => h.feature);
        fingerprint = fingerprintOf(hits, d.weights, d.nrHits);
      }
    } else if (query.smiles !== null) {
      const computed = await readSmilesGuarded(query.smiles, (rdkit, smiles) => computeDescriptors(rdkit, smiles, { pcTypes: d.pcTypes, lib: d.libs }));
      if (computed === null) readable = false;
      else descriptors = Float64Array.from(d.columns, (c) => computed.get(c) ?? NaN);
    }
    const inTraining = d.keys.includes(query.compound);
    if (!readable && !inTraining) {
      const reason = "the query's structure could not be read";
      q.push(quad(e, v.qg.reason, str(reason)));
      value(confF, dbl(0));
      summary.push({ compound: query.compound, status: "unreadable", neighbours: 0, reason });
      continue;
    }
    const p = model.predict({ key: query.compound, ...(fingerprint ? { fingerprint } : {}), ...(descriptors ? { descriptors } : {}) });
    if (p.status === "measured") {
      q.push(quad(e, v.qg.measured, bool(true)));
      for (const a of p.measured) value(iri(d.endpoint), valueLiteral(d, a));
      summary.push({ compound: query.compound, status: "measured", value: p.measured.map((a) => label(d, a)).join(", "), neighbours: 0 });
    } else {
      q.push(quad(e, v.qg.numberOfNeighbours, int(p.neighbours.length)));
      if (p.status === "predicted") {
        value(valueF, valueLiteral(d, p.value));
        value(confF, dbl(p.confidence));
        summary.push({ compound: query.compound, status: "predicted", value: label(d, p.value), confidence: p.confidence, neighbours: p.neighbours.length });
      } else {
        value(confF, dbl(0));
        q.push(quad(e, v.qg.reason, str(p.reason)));
        summary.push({ compound: query.compound, status: "unpredicted", confidence: 0, neighbours: p.neighbours.length, reason: p.reason });
      }
      if (input.verbose) {
        p.neighbours.forEach((nb, n) => {
          const node = iri(`${input.datasetUri}#e${query.line}n${n}`);
          q.push(
            quad(e, v.qg.neighbour, node),
            quad(node, ot.compound, iri(d.keys[nb.row]!)),
            quad(node, v.qg.similarity, dbl(nb.similarity)),
            quad(node, v.qg.measuredActivity, valueLiteral(d, nb.activity)),
          );
        });
        for (const j of matched) q.push(quad(e, v.qg.matchedFeature, iri(d.featureUris[j]!)));
        if (descriptors) descriptors.forEach((x, j) => Number.isFinite(x) && value(iri(d.featureUris[j]!), dbl(x)));
      }
    }
    if (i % 10 === 0) ctx.progress(i / input.queries.length);
    matched = [];
  }
  return { entries: new TextEncoder().encode(toNTriples(q)), summary };
}
