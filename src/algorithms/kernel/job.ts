/**
 * Worker jobs of the default global model (issue 16; docs/benchmarks.md "Quality"): an SVM on the
 * mean of five kernels — Tanimoto on Morgan r2/2048, atom pairs, RDKit paths and MACCS, and an RBF
 * on RDKit's 2D descriptors standardised on the training compounds — with a conformal calibration
 * (learn/kernel-model.ts).
 *
 * `kernel.train`: the training compounds' features (chem/jobs.ts `featuresJob`, in its
 *   1000-compound steps), the Gram matrix, the model. The result is plain data: the model, and
 *   what predicting needs of the training compounds (packed fingerprints, the standardiser and
 *   the standardised descriptors), ≈ 3 MB for Kazius. A compound whose structure cannot be read
 *   is left out (`rows` maps training rows to the input's compounds; `errors` says why).
 * `kernel.predict`: the queries' features, their kernel rows against the training compounds,
 *   the prediction with its p-values or interval, and the most similar training rows (the
 *   neighbours a person judges the prediction by, with their kernel similarity).
 */
import { featuresJob, type FeaturesOutput } from "../../chem/jobs.ts";
import { DEFAULT_MODEL_FEATURES } from "../../chem/fingerprints.ts";
import { BadRequest } from "../../errors.ts";
import { addRbf, addTanimoto, fitStandardiser, packBits, standardise, type BitRows, type Standardiser } from "../../learn/kernels.ts";
import { kernelValuePValue, predictKernelModel, trainKernelModel, type KernelModel } from "../../learn/kernel-model.ts";
import { loadLibsvm } from "../../learn/svm.ts";
import { DataFactory } from "n3";
import { startEntry } from "../entries.ts";
import type { Quad } from "@rdfjs/types";
import { predictedConfidenceUri, predictedValueUri } from "../../resources/model.ts";
import { toNTriples } from "../../store/ntriples.ts";
import { bool, dbl, int, iri, ot, str, Vocab, xsd } from "../../store/vocab.ts";
import type { JobContext } from "../../tasks/job.ts";
import type { PredictInput, PredictOutput, PredictSummary } from "../lazar/job.ts";
import type { KernelModelData } from "./model.ts";
import type { FoldOutput } from "../crossvalidation/job.ts";
import { KERNEL_COST, KERNEL_EPSILON, KERNEL_SEED } from "./spec.ts";

const { quad, literal } = DataFactory;

/** Compounds per features step (the features job's own limit). */
const FEATURE_STEP = 1000;

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
 * The applicability domain of a kernel model: a query is inside when its most similar training
 * compound is at least `threshold` similar (mean kernel), the similarity that all but
 * `DOMAIN_QUANTILE` of the training compounds reach with their own nearest other training
 * compound. Outside, the model still predicts (the conformal p-values or interval say how
 * surely), but the query is less like the training data than nearly every training compound is
 * like the rest.
 */
export interface Domain {
  readonly threshold: number;
  readonly quantile: number;
}

export const DOMAIN_QUANTILE = 0.05;

/** The domain from an n × n Gram matrix: each row's largest kernel value with another row, at the quantile. */
export function applicabilityDomain(gram: ArrayLike<number>, n: number, quantile = DOMAIN_QUANTILE): Domain {
  const nearest = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let best = -Infinity;
    for (let j = 0; j < n; j++) if (j !== i && gram[i * n + j]! > best) best = gram[i * n + j]!;
    nearest[i] = best;
  }
  nearest.sort();
  return { threshold: n < 2 ? 0 : nearest[Math.floor(quantile * (n - 1))]!, quantile };
}

/** Progress of a job part: told the share done of its own work. */
type Progress = (fraction: number) => void;
const NO_PROGRESS: Progress = () => undefined;

/** The default model's features of `smiles`, in steps (`progress` after each). */
async function features(smiles: readonly string[], progress: Progress): Promise<FeaturesOutput[]> {
  const out: FeaturesOutput[] = [];
  for (let i = 0; i < smiles.length; i += FEATURE_STEP) {
    out.push(await featuresJob({ smiles: smiles.slice(i, i + FEATURE_STEP), fingerprints: [...DEFAULT_MODEL_FEATURES.fingerprints], descriptors: true }));
    progress(Math.min(1, (i + FEATURE_STEP) / smiles.length));
  }
  return out;
}

/** The default model's features of a list of compounds: those that have them (input indices), packed fingerprints, descriptor rows. Plain data. */
export type ModelFeatures = ReturnType<typeof collect>;

/** The default model's features of `smiles` (computed in steps). */
export async function defaultModelFeatures(smiles: readonly string[], progress: Progress = NO_PROGRESS): Promise<ModelFeatures> {
  return collect(await features(smiles, progress));
}

/** `kernel.features`: the default model's features of `smiles`, once for a whole cross-validation (its folds pick their rows: `pickFeatures`). */
export async function kernelFeaturesJob(input: { readonly smiles: readonly string[] }, ctx?: Pick<JobContext, "progress">): Promise<ModelFeatures> {
  return defaultModelFeatures(input.smiles, ctx ? (f) => ctx.progress(f) : NO_PROGRESS);
}

/** The features of the input compounds `pick` (indices into the input `f` was computed for), as if computed for those alone, in that order. */
export function pickFeatures(f: ModelFeatures, pick: readonly number[]): ModelFeatures {
  const rowOf = new Map<number, number>();
  f.rows.forEach((input, r) => rowOf.set(input, r));
  const rows: number[] = [];
  const sel: number[] = [];
  pick.forEach((i, k) => {
    const r = rowOf.get(i);
    if (r === undefined) return;
    rows.push(k);
    sel.push(r);
  });
  const fingerprints = f.fingerprints.map((b): BitRows => {
    const data = new Uint32Array(sel.length * b.words);
    sel.forEach((r, k) => data.set(b.data.subarray(r * b.words, (r + 1) * b.words), k * b.words));
    return { n: sel.length, words: b.words, data, ones: Int32Array.from(sel, (r) => b.ones[r]!) };
  });
  const descriptors = new Float64Array(sel.length * f.columns);
  sel.forEach((r, k) => descriptors.set(f.descriptors.subarray(r * f.columns, (r + 1) * f.columns), k * f.columns));
  return { rows: Int32Array.from(rows), errors: pick.map((i) => f.errors[i] ?? "no features"), fingerprints, descriptors, columns: f.columns };
}

/**
 * Shares of a training's time: features, the Gram matrix, the SVMs (measured on Kazius, 4069
 * compounds, one thread: ≈ 8 s, 2 s and 6 s).
 */
const TRAIN_SHARES = { features: 0.5, gram: 0.1, svm: 0.4 } as const;

/** The compounds of `steps` that have their features (input indices), their fingerprints packed and their descriptor rows. */
function collect(steps: readonly FeaturesOutput[]): { rows: Int32Array; errors: (string | null)[]; fingerprints: BitRows[]; descriptors: Float64Array; columns: number } {
  const errors = steps.flatMap((s) => s.errors);
  const rows = Int32Array.from(errors.flatMap((e, i) => (e === null ? [i] : [])));
  const nfp = DEFAULT_MODEL_FEATURES.fingerprints.length;
  const fingerprints: BitRows[] = [];
  for (let f = 0; f < nfp; f++) {
    const offsets = [0];
    const idx: number[] = [];
    for (const s of steps) {
      const fp = s.fingerprints[f]!;
      for (let i = 0; i < s.errors.length; i++) {
        if (s.errors[i] !== null) continue;
        for (let k = fp.offsets[i]!; k < fp.offsets[i + 1]!; k++) idx.push(fp.idx[k]!);
        offsets.push(idx.length);
      }
    }
    fingerprints.push(packBits(Int32Array.from(offsets), Int32Array.from(idx), steps[0]!.fingerprints[f]!.space));
  }
  const columns = steps[0]!.descriptors!.names.length;
  const descriptors = new Float64Array(rows.length * columns);
  let r = 0;
  for (const s of steps) {
    const v = s.descriptors!.values;
    for (let i = 0; i < s.errors.length; i++) if (s.errors[i] === null) descriptors.set(v.subarray(i * columns, (i + 1) * columns), columns * r++);
  }
  return { rows, errors, fingerprints, descriptors, columns };
}

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
  const c = input.features ?? (await defaultModelFeatures(input.smiles, (f) => progress(TRAIN_SHARES.features * f)));
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

export interface KernelQueryPrediction {
  /** Why the query could not be predicted (its structure), or null. */
  readonly error: string | null;
  readonly value: number;
  readonly decision: number;
  readonly pValues: readonly number[] | null;
  readonly interval: readonly [number, number] | null;
  /** Numbers: the difficulty σ the interval is scaled by (learn/kernel-model.ts); NaN for classes. */
  readonly difficulty: number;
  /** The most similar training rows, most similar first, with their kernel similarity. */
  readonly neighbours: readonly { readonly row: number; readonly similarity: number }[];
  /** The similarity of the most similar training compound (NaN when unreadable). */
  readonly nearest: number;
  /** Whether `nearest` reaches the model's domain threshold. */
  readonly inside: boolean;
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
function conformalConfidence(p: KernelQueryPrediction): number {
  return p.pValues ? 1 - Math.max(0, ...p.pValues.filter((_, c) => c !== p.value)) : 1 - p.difficulty;
}

export async function kernelPredictJob(input: KernelPredictInput): Promise<{ readonly predictions: readonly KernelQueryPrediction[] }> {
  if (input.smiles.length === 0) return { predictions: [] };
  const t = input.model;
  const c = input.features ?? (await defaultModelFeatures(input.smiles));
  const m = c.rows.length;
  const z = standardise(t.standardiser, c.descriptors, m);
  const nt = t.rows.length;
  const k = kernelMatrix(c.fingerprints, z, m, t.fingerprints, t.descriptors, nt, t.standardiser.used.length);
  const all = Int32Array.from({ length: nt }, (_, i) => i);
  const byInput = new Map<number, number>();
  c.rows.forEach((inputIndex, r) => byInput.set(inputIndex, r));
  const predictions = input.smiles.map((_, i): KernelQueryPrediction => {
    const r = byInput.get(i);
    if (r === undefined) return { error: c.errors[i] ?? "no features", value: NaN, decision: NaN, pValues: null, interval: null, difficulty: NaN, neighbours: [], nearest: NaN, inside: false };
    const row = k.subarray(r * nt, (r + 1) * nt);
    let nearest = -Infinity;
    for (let j = 0; j < nt; j++) if (row[j]! > nearest) nearest = row[j]!;
    const p = predictKernelModel(t.model, (j) => row[j]!, all, input.confidenceLevel);
    const order = Array.from(all).sort((a, b) => row[b]! - row[a]! || a - b).slice(0, input.neighbours);
    return {
      error: null,
      value: p.value,
      decision: p.decision,
      pValues: p.pValues ? Array.from(p.pValues) : null,
      interval: p.interval ?? null,
      difficulty: p.difficulty ?? NaN,
      neighbours: order.map((j) => ({ row: j, similarity: row[j]! })),
      nearest,
      inside: nearest >= t.domain.threshold,
    };
  });
  return { predictions };
}

/**
 * `model.predict` for a kernel model (lazar/job.ts hands it over): the prediction dataset's
 * entries, in the shape of lazar's (docs/lazar-method.md "Model and prediction resources") and
 * with the conformal output:
 *
 *   <e> qg:pValue <e/p{c}> ; <e/p{c}> qg:forClass "<class>" ; qg:confidence p .   (classes)
 *   <e> qg:intervalLower a ; qg:intervalUpper b ; qg:confidenceLevel 0.8 .         (numbers)
 *
 * The confidence value of a class prediction is the conformal confidence, 1 − the largest p-value
 * of the other classes (how surely the other classes are ruled out); of a numeric one, 1 − its difficulty σ (`conformalConfidence`).
 * A training compound is answered with its measured values, as lazar does.
 */
export async function kernelEntries(input: Omit<PredictInput, "model"> & { readonly model: KernelModelData }, ctx: JobContext): Promise<PredictOutput> {
  const d = input.model;
  const v = new Vocab(input.base);
  const valueF = iri(predictedValueUri(d.uri));
  const confF = iri(predictedConfidenceUri(d.uri));
  const label = (x: number): Quad["object"] => (d.classes.length > 0 ? str(d.classes[x] ?? String(x)) : literal(String(x), xsd.double));
  const text = (x: number): string => (d.classes.length > 0 ? (d.classes[x] ?? String(x)) : String(x));
  const measured = new Map<string, number[]>();
  d.keys.forEach((k, r) => measured.set(k, [...(measured.get(k) ?? []), d.activities[r]!]));
  const toPredict = input.queries.filter((q) => q.smiles !== null && !measured.has(q.compound));
  const { predictions } = await kernelPredictJob({ model: d.trained, smiles: toPredict.map((q) => q.smiles!), confidenceLevel: d.confidenceLevel, neighbours: input.verbose ? 5 : 0 });
  const predicted = new Map(toPredict.map((q, i) => [q.line, predictions[i]!]));
  const q: Quad[] = [];
  const summary: PredictSummary[] = [];
  input.queries.forEach((query, i) => {
    const { entry: e, value } = startEntry(q, input.datasetUri, query, v);
    const known = measured.get(query.compound);
    const p = predicted.get(query.line);
    if (known) {
      q.push(quad(e, v.qg.measured, bool(true)));
      for (const a of known) value(iri(d.endpoint), label(a));
      summary.push({ compound: query.compound, status: "measured", value: known.map(text).join(", "), neighbours: 0 });
    } else if (!p || p.error !== null) {
      const reason = "the query's structure could not be read";
      q.push(quad(e, v.qg.reason, str(reason)));
      value(confF, dbl(0));
      summary.push({ compound: query.compound, status: "unreadable", neighbours: 0, reason });
    } else {
      const confidence = conformalConfidence(p);
      if (p.pValues) {
        p.pValues.forEach((pv, c) => {
          const node = iri(`${input.datasetUri}#e${query.line}p${c}`);
          q.push(quad(e, v.qg.pValue, node), quad(node, v.qg.forClass, str(d.classes[c] ?? String(c))), quad(node, v.qg.confidence, dbl(pv)));
        });
      } else {
        const [lo, hi] = p.interval!;
        if (Number.isFinite(lo) && Number.isFinite(hi)) q.push(quad(e, v.qg.intervalLower, dbl(lo)), quad(e, v.qg.intervalUpper, dbl(hi)));
        q.push(quad(e, v.qg.confidenceLevel, dbl(d.confidenceLevel)));
      }
      value(valueF, label(p.value));
      value(confF, dbl(confidence));
      q.push(quad(e, v.qg.nearestSimilarity, dbl(p.nearest)), quad(e, v.qg.insideDomain, bool(p.inside)), quad(e, v.qg.domainThreshold, dbl(d.trained.domain.threshold)));
      if (!p.inside) q.push(quad(e, v.qg.domainNote, str(domainNote(p.nearest, d.trained.domain))));
      q.push(quad(e, v.qg.numberOfNeighbours, int(d.keys.length)));
      p.neighbours.forEach((nb, n) => {
        const node = iri(`${input.datasetUri}#e${query.line}n${n}`);
        q.push(quad(e, v.qg.neighbour, node), quad(node, ot.compound, iri(d.keys[nb.row]!)), quad(node, v.qg.similarity, dbl(nb.similarity)), quad(node, v.qg.measuredActivity, label(d.activities[nb.row]!)));
      });
      summary.push({ compound: query.compound, status: "predicted", value: text(p.value), confidence, neighbours: d.keys.length });
    }
    if (i % 10 === 0) ctx.progress(i / input.queries.length);
  });
  return { entries: new TextEncoder().encode(toNTriples(q)), summary };
}

/** Why a prediction outside the domain is to be read with care. */
export function domainNote(nearest: number, domain: Domain): string {
  const pct = Math.round(100 * (1 - domain.quantile));
  return `outside the applicability domain: the most similar training compound has similarity ${nearest.toFixed(2)}, below ${domain.threshold.toFixed(2)}, which ${pct} % of the training compounds reach with their nearest other training compound; the prediction is given, its p-values or interval say how sure it is`;
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
   * The features of the cross-validation's compounds, computed once (`kernel.features`), and
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
  return {
    features: featureCount(model),
    predictions: input.test.map((t) => {
      const p = byKey.get(t.key);
      if (!p || p.error !== null) return { key: t.key, value: null, confidence: 0, neighbours: 0, reason: "the structure could not be read" };
      const confidence = conformalConfidence(p);
      const base = { key: t.key, value: kind === "classification" ? p.value + 1 : p.value, confidence, neighbours: model.rows.length };
      if (p.pValues) return { ...base, pValues: p.pValues };
      // scoring only: the p-value of each measured value against the fold model's calibration
      const truthPValues = (t.measured ?? []).map((y) => kernelValuePValue(model.model, p.value, p.difficulty, y));
      return { ...base, interval: p.interval!, truthPValues };
    }),
  };
}
