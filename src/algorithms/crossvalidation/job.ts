/**
 * One fold of a cross-validation (docs/cross-validation.md "One fold"), in a worker: mine
 * the training fold (the features never see the test fold), build the lazar model from the
 * miner's own occurrences, and predict the test fold's compounds by matching the mined SMARTS
 * on them — the same steps as building a model and predicting over HTTP, without storing the
 * intermediate datasets.
 */
import { readSmilesGuarded } from "../../chem/structure.ts";
import { createLazarModel, FingerprintMatrix, type LazarPrediction, type PredictionAlgorithm, type SparseFingerprint } from "../../learn/index.ts";
import { moleculeFromSmiles, QuerySet } from "../../chem/smarts/index.ts";
import type { JobContext } from "../../tasks/job.ts";
import { mineGuarded, type Found, type MinerOptions } from "../mining/job.ts";
import type { OrderedCompounds } from "../../mining/order.ts";
import { distinctFeatures, fingerprintOf, minedHits, queryHits } from "../lazar/featurise.ts";
import type { ModelData } from "../lazar/model-data.ts";
import { lazarModelOf, rowDescriptors, rowFingerprint } from "../lazar/job.ts";
import { crossValidationNTriples, crossValidationResultOf, type CrossValidationParameters, type StoredPrediction } from "../../resources/validation.ts";
import { Vocab } from "../../store/vocab.ts";

export interface FoldInput {
  /** Training instances: one per measured value (a compound measured twice is two rows). */
  readonly train: readonly { readonly key: string; readonly smiles: string; readonly inchi?: string; readonly activity: number }[];
  /** Test compounds (unique). */
  readonly test: readonly { readonly key: string; readonly smiles: string | null }[];
  readonly miner: MinerOptions;
  /** Accept values of the classes 1…k; empty for a numeric endpoint. */
  readonly classes: readonly string[];
  readonly algorithm: PredictionAlgorithm;
  readonly minSim: number;
  readonly minTrainPerformance: number;
  readonly nrHits: boolean;
}

export interface FoldPrediction {
  readonly key: string;
  /** Class index 1…k or value; null = not predicted. */
  readonly value: number | null;
  readonly confidence: number;
  readonly neighbours: number;
  readonly reason?: string;
  /** A conformal model's p-value of every class, in the cross-validation's class order (classification). */
  readonly pValues?: readonly number[];
  /** A conformal model's interval at the cross-validation's confidence level (regression; ±Infinity when unbounded). */
  readonly interval?: readonly [number, number];
  /** The conformal p-value of each of the test compound's measured values, in the order given (regression). */
  readonly truthPValues?: readonly number[];
}

export interface FoldOutput {
  readonly predictions: readonly FoldPrediction[];
  /** Features the training fold gave. */
  readonly features: number;
}

/** A test compound's prediction as a fold reports it. */
function foldPrediction(key: string, p: LazarPrediction): FoldPrediction {
  if (p.status === "predicted") return { key, value: p.value, confidence: p.confidence, neighbours: p.neighbours.length };
  if (p.status === "unpredicted") return { key, value: null, confidence: 0, neighbours: p.neighbours.length, reason: p.reason };
  return { key, value: null, confidence: 0, neighbours: 0, reason: "in the training fold" };
}

/** Shares of a fold's time: mining, training fingerprints, predictions (they add up to 1). */
const FOLD_SHARES = { mine: 0.35, train: 0.15, predict: 0.5 } as const;

/**
 * A fold's training data from its mining run, as a stored model of the same rows has it
 * (lazar/model-data.ts): the training compounds (the first row of each key the miner could
 * read), their fingerprints (lazar/featurise.ts), and one instance per row with its activity.
 */
export interface FoldTraining {
  readonly keys: readonly string[];
  readonly fingerprints: readonly SparseFingerprint[];
  readonly instRow: Int32Array;
  readonly instActivity: Float64Array;
  /** The features (each SMARTS once, in the miner's order) and their weights (p-values). */
  readonly smarts: readonly string[];
  readonly weights: Float64Array;
}

export function foldTraining(train: FoldInput["train"], run: { readonly compounds: OrderedCompounds; readonly found: readonly Found[] }, nrHits: boolean, progress: (f: number) => void = () => undefined): FoldTraining {
  const found = distinctFeatures(run.found);
  const weights = Float64Array.from(found, (f) => f.pValue);
  const hitsOf = minedHits(found, run.compounds, nrHits);
  const tidOfId = new Map(run.compounds.ids.map((id, t) => [id, t]));
  const keyRow = new Map<string, number>();
  const keys: string[] = [];
  const firstTid: number[] = [];
  train.forEach((r, i) => {
    const t = tidOfId.get(i + 1);
    if (t === undefined || keyRow.has(r.key)) return;
    keyRow.set(r.key, keys.length);
    keys.push(r.key);
    firstTid.push(t);
  });
  const fingerprints = firstTid.map((t, r) => {
    if (r % 64 === 0) progress(r / firstTid.length);
    return fingerprintOf(hitsOf(t), weights, nrHits);
  });
  const instRow: number[] = [];
  const instActivity: number[] = [];
  train.forEach((r, i) => {
    const row = keyRow.get(r.key);
    if (row !== undefined && tidOfId.has(i + 1)) {
      instRow.push(row);
      instActivity.push(r.activity);
    }
  });
  return { keys, fingerprints, instRow: Int32Array.from(instRow), instActivity: Float64Array.from(instActivity), smarts: found.map((f) => f.smarts), weights };
}

/** Mine the training rows of a fold (the miner's rows are numbered 1… in `train`'s order). */
export function mineFold(input: Pick<FoldInput, "train" | "miner" | "classes">, progress?: (f: number) => void): ReturnType<typeof mineGuarded> {
  const rows = input.train.map((r, i) => ({ id: i + 1, smiles: r.smiles, ...(r.inchi !== undefined ? { inchi: r.inchi } : {}), activity: r.activity }));
  return mineGuarded({ ...input.miner, rows, classes: input.classes }, progress);
}

export async function crossValidationFold(input: FoldInput, ctx: JobContext): Promise<FoldOutput> {
  // Progress: mining the training fold, then the training fingerprints, then each test compound
  // (shares measured on LOAEL, 998 compounds, paths, local SVM regression: 4.2 s, 1.6 s and 8 s).
  const run = await mineFold(input, (f) => ctx.progress(FOLD_SHARES.mine * f));
  ctx.progress(FOLD_SHARES.mine);
  const t = foldTraining(input.train, run, input.nrHits, (f) => ctx.progress(FOLD_SHARES.mine + FOLD_SHARES.train * f));
  const set = new QuerySet(t.smarts);
  const model = await createLazarModel({
    features: new FingerprintMatrix(t.smarts.length, t.fingerprints),
    instances: { row: t.instRow, activity: t.instActivity },
    keys: t.keys,
    nClasses: input.classes.length,
    algorithm: input.algorithm,
    minSim: input.minSim,
    minTrainPerformance: input.minTrainPerformance,
  });
  const predictions: FoldPrediction[] = [];
  for (const [i, q] of input.test.entries()) {
    ctx.progress(1 - FOLD_SHARES.predict * (1 - i / input.test.length));
    const mol = q.smiles === null ? null : await readSmilesGuarded(q.smiles, moleculeFromSmiles);
    if (mol === null) {
      predictions.push({ key: q.key, value: null, confidence: 0, neighbours: 0, reason: "the structure could not be read" });
      continue;
    }
    predictions.push(foldPrediction(q.key, model.predict({ fingerprint: fingerprintOf(queryHits(set, mol, input.nrHits), t.weights, input.nrHits) })));
  }
  return { predictions, features: t.smarts.length };
}

/**
 * One fold with features given as a feature dataset (`feature_dataset_uri`): the training rows
 * are the data's rows whose compound is not in the test fold, the test compounds are predicted
 * from their own rows of the feature dataset (no matching or computing). A test compound
 * without features is not predicted.
 */
export interface StoredFoldInput {
  /** Every compound of the dataset that has features, with its measured values (algorithms/lazar/model-data.ts). */
  readonly data: ModelData;
  /** The test compounds (unique). */
  readonly test: readonly string[];
}

/** The training part of `data`: the rows whose compound is not in `test`, instances renumbered. */
export function trainingPart(data: ModelData, test: ReadonlySet<string>): ModelData {
  const keep: number[] = [];
  const newRow = new Int32Array(data.keys.length).fill(-1);
  data.keys.forEach((k, r) => {
    if (test.has(k)) return;
    newRow[r] = keep.length;
    keep.push(r);
  });
  const instRow: number[] = [];
  const instActivity: number[] = [];
  data.instRow.forEach((r, i) => {
    if (newRow[r]! < 0) return;
    instRow.push(newRow[r]!);
    instActivity.push(data.instActivity[i]!);
  });
  const part = { ...data, keys: keep.map((r) => data.keys[r]!), instRow: Int32Array.from(instRow), instActivity: Float64Array.from(instActivity) };
  if (data.kind === "substructure") {
    const offsets = new Int32Array(keep.length + 1);
    const idx: number[] = [];
    const val: number[] = [];
    keep.forEach((r, n) => {
      const fp = rowFingerprint(data, r);
      idx.push(...fp.idx);
      val.push(...fp.val);
      offsets[n + 1] = idx.length;
    });
    return { ...part, offsets, idx: Int32Array.from(idx), val: Float64Array.from(val) };
  }
  const n = data.columns.length;
  const rows = new Float64Array(keep.length * n);
  keep.forEach((r, k) => rows.set(rowDescriptors(data, r), k * n));
  return { ...part, rows };
}

export async function crossValidationFoldStored(input: StoredFoldInput, ctx: JobContext): Promise<FoldOutput> {
  const { data } = input;
  const model = await lazarModelOf(trainingPart(data, new Set(input.test)));
  ctx.progress(0.5);
  const rowOf = new Map(data.keys.map((k, r) => [k, r]));
  const predictions = input.test.map((key, i): FoldPrediction => {
    ctx.progress(0.5 + 0.5 * (i / input.test.length));
    const r = rowOf.get(key);
    if (r === undefined) return { key, value: null, confidence: 0, neighbours: 0, reason: "the feature dataset has no features for this compound" };
    return foldPrediction(key, model.predict(data.kind === "substructure" ? { fingerprint: rowFingerprint(data, r) } : { descriptors: rowDescriptors(data, r) }));
  });
  return { predictions, features: data.kind === "substructure" ? data.smarts.length : data.columns.length };
}

export interface GraphInput {
  readonly uri: string;
  /** The service's base URL (the vocabulary's). */
  readonly base: string;
  readonly parameters: CrossValidationParameters & { readonly title: string };
  readonly predictions: readonly StoredPrediction[];
  readonly runtimeMs: number;
}

/**
 * `cv.graph`: a finished cross-validation's statistics (validate/) and graph
 * (resources/validation.ts) as N-Triples bytes, in a worker: for Kazius with p-values that is
 * ≈ 50 000 triples, more than the main thread may spend at once.
 */
export function crossValidationGraphJob(input: GraphInput): { readonly ntriples: Uint8Array } {
  const result = crossValidationResultOf(input.parameters, input.uri, input.predictions, input.runtimeMs);
  const text = crossValidationNTriples(input.uri, input.parameters, input.predictions, result, input.runtimeMs, new Vocab(input.base));
  return { ntriples: new TextEncoder().encode(text) };
}
