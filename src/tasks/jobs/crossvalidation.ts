/**
 * One fold of a cross-validation (issue "Cross-validation"; spec lazar.md §6), in a worker: mine
 * the training fold (the features never see the test fold), build the lazar model from the
 * miner's own occurrences, and predict the test fold's compounds by matching the mined SMARTS
 * on them — the same steps as building a model and predicting over HTTP, without storing the
 * intermediate datasets.
 */
import { readSmilesGuarded } from "../../chem/structure.ts";
import { createLazarModel, FingerprintMatrix, type LazarPrediction, type PredictionAlgorithm, type SparseFingerprint } from "../../learn/index.ts";
import { moleculeFromSmiles, QuerySet } from "../../chem/smarts/index.ts";
import type { JobContext } from "./context.ts";
import { mineGuarded, type Found, type MinerOptions } from "./mining.ts";
import type { ModelData } from "../model-data.ts";
import { lazarModelOf, rowDescriptors, rowFingerprint } from "./predict.ts";

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

export async function crossValidationFold(input: FoldInput, ctx: JobContext): Promise<FoldOutput> {
  const rows = input.train.map((r, i) => ({ id: i + 1, smiles: r.smiles, ...(r.inchi !== undefined ? { inchi: r.inchi } : {}), activity: r.activity }));
  // Progress: mining the training fold, then the training fingerprints, then each test compound
  // (shares measured on LOAEL, 998 compounds, paths, local SVM regression: 4.2 s, 1.6 s and 8 s).
  const run = await mineGuarded({ ...input.miner, rows, classes: input.classes }, (f) => ctx.progress(FOLD_SHARES.mine * f));
  ctx.progress(FOLD_SHARES.mine);
  const found: Found[] = [];
  const seen = new Set<string>();
  for (const f of run.found) if (!seen.has(f.smarts)) (seen.add(f.smarts), found.push(f));
  const weights = Float64Array.from(found, (f) => f.pValue);
  const set = new QuerySet(found.map((f) => f.smarts));
  // Training compounds: the first row of each key the miner could read.
  const tidOfId = new Map(run.compounds.ids.map((id, t) => [id, t]));
  const keyRow = new Map<string, number>();
  const keys: string[] = [];
  const firstTid: number[] = [];
  input.train.forEach((r, i) => {
    const t = tidOfId.get(i + 1);
    if (t === undefined || keyRow.has(r.key)) return;
    keyRow.set(r.key, keys.length);
    keys.push(r.key);
    firstTid.push(t);
  });
  const present: number[][] = keys.map(() => []);
  const rowOfTid = new Map(firstTid.map((t, r) => [t, r]));
  found.forEach((f, j) => {
    for (let i = 0; i < f.tids.length; i++) {
      const r = rowOfTid.get(f.tids[i]!);
      if (r !== undefined) present[r]!.push(j);
    }
  });
  const fingerprint = (features: readonly number[], counts: Int32Array | null): SparseFingerprint => {
    const sorted = [...features].sort((a, b) => a - b);
    return { idx: Int32Array.from(sorted), val: Float64Array.from(sorted, (j) => (input.nrHits && counts ? counts[j]! : 1) * weights[j]!) };
  };
  const trainRows = present.map((features, r) => {
    if (r % 64 === 0) ctx.progress(FOLD_SHARES.mine + FOLD_SHARES.train * (r / present.length));
    return fingerprint(features, input.nrHits && features.length > 0 ? set.countAll(run.compounds.graphs[firstTid[r]!]!) : null);
  });
  const instRow: number[] = [];
  const instActivity: number[] = [];
  input.train.forEach((r, i) => {
    const row = keyRow.get(r.key);
    if (row !== undefined && tidOfId.has(i + 1)) {
      instRow.push(row);
      instActivity.push(r.activity);
    }
  });
  const model = await createLazarModel({
    features: new FingerprintMatrix(found.length, trainRows),
    instances: { row: Int32Array.from(instRow), activity: Float64Array.from(instActivity) },
    keys,
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
    const counts = set.countAll(mol, input.nrHits ? Number.MAX_SAFE_INTEGER : 1);
    const features: number[] = [];
    for (let j = 0; j < counts.length; j++) if (counts[j]! > 0) features.push(j);
    predictions.push(foldPrediction(q.key, model.predict({ fingerprint: fingerprint(features, counts) })));
  }
  return { predictions, features: found.length };
}

/**
 * One fold with features given as a feature dataset (`feature_dataset_uri`): the training rows
 * are the data's rows whose compound is not in the test fold, the test compounds are predicted
 * from their own rows of the feature dataset (no matching or computing). A test compound
 * without features is not predicted.
 */
export interface StoredFoldInput {
  /** Every compound of the dataset that has features, with its measured values (tasks/model-data.ts). */
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
