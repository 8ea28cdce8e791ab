/**
 * Worker jobs of the default global model (issue 16; docs/benchmarks.md "Quality"): an SVM on the
 * mean of five kernels — Tanimoto on Morgan r2/2048, atom pairs, RDKit paths and MACCS, and an RBF
 * on RDKit's 2D descriptors standardised on the training compounds — with a conformal calibration
 * (learn/kernel-model.ts).
 *
 * `kernel.train`: the training compounds' features (global/features.ts: chem/jobs.ts
 *   `featuresJob` in its 1000-compound steps), the Gram matrix, the model. The result is plain data: the model, and
 *   what predicting needs of the training compounds (packed fingerprints, the standardiser and
 *   the standardised descriptors), ≈ 3 MB for Kazius. A compound whose structure cannot be read
 *   is left out (`rows` maps training rows to the input's compounds; `errors` says why).
 * `kernel.predict`: the queries' features, their kernel rows against the training compounds,
 *   the prediction with its p-values or interval, and the most similar training rows (the
 *   neighbours a person judges the prediction by, with their kernel similarity); global/entries.ts
 *   writes them as prediction entries (`kernelPredictor`), as it does the random forest's.
 * `cv.fold.kernel`: one fold of a cross-validation.
 */
import { BadRequest } from "../../errors.ts";
import { addRbf, addTanimoto, fitStandardiser, standardise, type BitRows, type Standardiser } from "../../learn/kernels.ts";
import { kernelValuePValue, predictKernelModel, trainKernelModel, type KernelModel } from "../../learn/kernel-model.ts";
import { loadLibsvm } from "../../learn/svm.ts";
import type { JobContext } from "../../tasks/job.ts";
import type { FoldOutput } from "../crossvalidation/job.ts";
import { applicabilityDomain, type Domain } from "../global/domain.ts";
import { classConfidence, unreadable, type GlobalPrediction, type GlobalPredictor } from "../global/entries.ts";
import { KERNEL_FEATURES, modelFeatures, NO_PROGRESS, pickFeatures, type ModelFeatures } from "../global/features.ts";
import { globalFoldPredictions } from "../global/fold.ts";
import type { KernelModelData } from "./model.ts";
import { KERNEL_COST, KERNEL_EPSILON, KERNEL_SEED } from "./spec.ts";

export interface KernelTrainInput {
  readonly smiles: readonly string[];
  /** The compounds' features when computed before (a cross-validation's fold): then not computed again. */
  readonly features?: ModelFeatures;
  /** Per compound: the class index (0 or 1) or the value. */
  readonly y: readonly number[];
  readonly kind: "classification" | "regression";
  /** Classification: the number of classes (y holds 0 … nClasses − 1); 0 for numbers. */
  readonly nClasses: number;
  readonly cost: number;
  readonly epsilon: number;
  readonly seed: number;
}

export interface TrainedKernelModel {
  readonly kind: "classification" | "regression";
  readonly model: KernelModel;
  /** Training row r is input compound rows[r]. */
  readonly rows: Int32Array;
  /** Per input compound: why it was left out, or null. */
  readonly errors: readonly (string | null)[];
  readonly fingerprints: readonly BitRows[];
  readonly standardiser: Standardiser;
  /** Standardised descriptors of the training rows (rows × standardiser.used.length). */
  readonly descriptors: Float64Array;
  /** The applicability domain (`applicabilityDomain`). */
  readonly domain: Domain;
}

/**
 * Shares of a training's time: features, the Gram matrix, the SVMs (measured on Kazius, 4069
 * compounds, one thread: ≈ 8 s, 2 s and 6 s).
 */
const TRAIN_SHARES = { features: 0.5, gram: 0.1, svm: 0.4 } as const;

/** The mean of the five kernels between a (queries or the training rows) and the training rows. */
function kernelMatrix(a: readonly BitRows[], za: Float64Array, na: number, train: readonly BitRows[], zt: Float64Array, nt: number, q: number): Float32Array {
  const out = new Float32Array(na * nt);
  const w = 1 / (train.length + 1);
  for (let f = 0; f < train.length; f++) addTanimoto(out, a[f]!, train[f]!, w);
  addRbf(out, za, na, zt, nt, q, w);
  return out;
}

export async function kernelTrainJob(input: KernelTrainInput, ctx?: Pick<JobContext, "progress">): Promise<TrainedKernelModel> {
  if (input.smiles.length !== input.y.length) throw new BadRequest("kernel.train: one value per compound", { field: "y" });
  const progress = ctx ? (f: number) => ctx.progress(f) : NO_PROGRESS;
  const lib = await loadLibsvm();
  const c = input.features ?? (await modelFeatures(input.smiles, KERNEL_FEATURES, (f) => progress(TRAIN_SHARES.features * f)));
  const n = c.rows.length;
  if (n < 10) throw new BadRequest(`only ${n} training compounds have readable structures; the model needs at least 10`, { field: "dataset_uri" });
  const y = Float64Array.from(c.rows, (i) => input.y[i]!);
  if (input.kind === "classification" && new Set(y).size < 2) throw new BadRequest("the training compounds all have the same class: a classifier needs both", { field: "prediction_feature" });
  const standardiser = fitStandardiser(c.descriptors, n, c.columns);
  const z = standardise(standardiser, c.descriptors, n);
  const gram = kernelMatrix(c.fingerprints, z, n, c.fingerprints, z, n, standardiser.used.length);
  progress(TRAIN_SHARES.features + TRAIN_SHARES.gram);
  // the Tanimoto parts were added from one triangle (a === b): the matrix is symmetric
  const all = Int32Array.from({ length: n }, (_, i) => i);
  const model = trainKernelModel(lib, gram, n, all, y, { kind: input.kind, nClasses: input.nClasses, cost: input.cost, epsilon: input.epsilon, seed: input.seed }, (f) =>
    progress(TRAIN_SHARES.features + TRAIN_SHARES.gram + TRAIN_SHARES.svm * f),
  );
  return { kind: input.kind, model, rows: c.rows, errors: c.errors, fingerprints: c.fingerprints, standardiser, descriptors: z, domain: applicabilityDomain(gram, n) };
}

export interface KernelPredictInput {
  readonly model: TrainedKernelModel;
  readonly smiles: readonly string[];
  /** The queries' features when computed before: then not computed again. */
  readonly features?: ModelFeatures;
  /** Regression intervals at this confidence (e.g. 0.8). */
  readonly confidenceLevel: number;
  /** Neighbours reported per prediction. */
  readonly neighbours: number;
}

/** A kernel prediction (its similarities: the mean kernel), with the SVM's decision value and, for numbers, the difficulty. */
export interface KernelQueryPrediction extends GlobalPrediction {
  readonly decision: number;
  /** Numbers: the difficulty σ the interval is scaled by (learn/kernel-model.ts); NaN for classes. */
  readonly difficulty: number;
}

/** The model's features: the fingerprints' bits and the descriptor columns it uses. */
export function featureCount(t: TrainedKernelModel): number {
  return t.fingerprints.reduce((a, f) => a + f.words * 32, 0) + t.standardiser.used.length;
}

/**
 * A prediction's confidence: classes, 1 − the largest p-value of the other classes (the conformal
 * confidence); a number, 1 − its difficulty σ, the mean similarity of its most similar training
 * compounds (learn/kernel-model.ts): the interval's width grows with σ, so this ranks numeric
 * predictions as their intervals do.
 */
function conformalConfidence(p: Pick<KernelQueryPrediction, "pValues" | "value" | "difficulty">): number {
  return p.pValues ? classConfidence(p.pValues, p.value) : 1 - p.difficulty;
}

export async function kernelPredictJob(input: KernelPredictInput): Promise<{ readonly predictions: readonly KernelQueryPrediction[] }> {
  if (input.smiles.length === 0) return { predictions: [] };
  const t = input.model;
  const c = input.features ?? (await modelFeatures(input.smiles, KERNEL_FEATURES));
  const m = c.rows.length;
  const z = standardise(t.standardiser, c.descriptors, m);
  const nt = t.rows.length;
  const k = kernelMatrix(c.fingerprints, z, m, t.fingerprints, t.descriptors, nt, t.standardiser.used.length);
  const all = Int32Array.from({ length: nt }, (_, i) => i);
  const byInput = new Map<number, number>();
  c.rows.forEach((inputIndex, r) => byInput.set(inputIndex, r));
  const predictions = input.smiles.map((_, i): KernelQueryPrediction => {
    const r = byInput.get(i);
    if (r === undefined) return { ...unreadable(c.errors[i] ?? "no features"), decision: NaN, difficulty: NaN };
    const row = k.subarray(r * nt, (r + 1) * nt);
    let nearest = -Infinity;
    for (let j = 0; j < nt; j++) if (row[j]! > nearest) nearest = row[j]!;
    const p = predictKernelModel(t.model, (j) => row[j]!, all, input.confidenceLevel);
    const order = Array.from(all).sort((a, b) => row[b]! - row[a]! || a - b).slice(0, input.neighbours);
    const out = { value: p.value, pValues: p.pValues ? Array.from(p.pValues) : null, difficulty: p.difficulty ?? NaN };
    return {
      ...out,
      error: null,
      confidence: conformalConfidence(out),
      decision: p.decision,
      interval: p.interval ?? null,
      neighbours: order.map((j) => ({ row: j, similarity: row[j]! })),
      nearest,
      inside: nearest >= t.domain.threshold,
    };
  });
  return { predictions };
}

/** The kernel model's predictions for `model.predict` (global/entries.ts writes them). */
export function kernelPredictor(d: KernelModelData): GlobalPredictor {
  return async (smiles, neighbours) => (await kernelPredictJob({ model: d.trained, smiles, confidenceLevel: d.confidenceLevel, neighbours })).predictions;
}

export interface KernelFoldInput {
  /** Training instances: class index 1…k (as cross-validation numbers classes) or value. */
  readonly train: readonly { readonly smiles: string; readonly activity: number }[];
  /**
   * Test compounds; for a numeric endpoint with their measured values, used only to score the
   * predictions (their conformal p-values), never to train.
   */
  readonly test: readonly { readonly key: string; readonly smiles: string | null; readonly measured?: readonly number[] }[];
  readonly classes: readonly string[];
  readonly confidenceLevel: number;
  /**
   * The features of the cross-validation's compounds, computed once (`model.features`), and
   * which of them each training instance and each test compound is (indices into `all`'s input).
   */
  readonly features?: { readonly all: ModelFeatures; readonly train: readonly number[]; readonly test: readonly number[] };
}

/**
 * `cv.fold.kernel`: one fold of a cross-validation of the kernel model (docs/cross-validation.md):
 * trained on the training fold only (its features, kernels, SVM and calibration), the test
 * compounds predicted, in the shape of the other fold jobs (class index 1…k, or the value; the
 * confidence as the model's predictions carry it), with the conformal output: the p-value of each
 * class, or the interval and the p-value of each measured value (the test values are only
 * compared with the finished predictions here; the model never sees them).
 */
export async function kernelFoldJob(input: KernelFoldInput, ctx?: Pick<JobContext, "progress">): Promise<FoldOutput> {
  const kind = input.classes.length > 0 ? "classification" : "regression";
  // progress: training 90 %, predicting the test fold 10 %
  const model = await kernelTrainJob({
    smiles: input.train.map((t) => t.smiles),
    y: input.train.map((t) => (kind === "classification" ? t.activity - 1 : t.activity)),
    kind,
    nClasses: input.classes.length,
    cost: KERNEL_COST[kind],
    epsilon: KERNEL_EPSILON,
    seed: KERNEL_SEED,
    ...(input.features ? { features: pickFeatures(input.features.all, input.features.train) } : {}),
  }, ctx && { progress: (f) => ctx.progress(0.9 * f) });
  const readableAt = input.test.flatMap((t, j) => (t.smiles !== null ? [j] : []));
  const readable = readableAt.map((j) => input.test[j]!);
  const testFeatures = input.features ? { features: pickFeatures(input.features.all, readableAt.map((j) => input.features!.test[j]!)) } : {};
  const { predictions } = await kernelPredictJob({ model, smiles: readable.map((t) => t.smiles!), confidenceLevel: input.confidenceLevel, neighbours: 0, ...testFeatures });
  const byKey = new Map(readable.map((t, i) => [t.key, predictions[i]!]));
  // scoring only: the p-value of each measured value against the fold model's calibration
  const truthPValue = (p: KernelQueryPrediction, y: number): number => kernelValuePValue(model.model, p.value, p.difficulty, y);
  return { features: featureCount(model), predictions: globalFoldPredictions(input.test, byKey, kind === "classification", model.rows.length, truthPValue) };
}
