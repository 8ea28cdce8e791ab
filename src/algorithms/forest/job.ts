/**
 * Worker jobs of the random forest (`prediction_algorithm=random_forest`; learn/forest.ts, its
 * conformal calibration learn/conformal.ts, docs/conformal.md): a forest grown on Morgan bits
 * and/or RDKit's 2D descriptors, calibrated on its own out-of-bag votes, so that no training
 * compound is held back.
 *
 * The features come from the global models' feature job (`model.features`, global/features.ts):
 * always the Morgan bits (r2/2048: the neighbours and the domain are Tanimoto on them), the
 * descriptors when the trees use them. The trees see the training compounds' non-constant columns
 * only (a bit no compound has, or every one has, cannot split anything and would only waste
 * draws); a missing descriptor value takes the training compounds' median.
 *
 * `forest.train`: trees [from, to) of the forest (learn/forest.ts `treeRange`: a tree depends on
 *   its seed only), so that two parts grow in parallel; the part as plain data.
 * `forest.finish`: the parts joined (`combineForests`: the forest grown in one piece), the
 *   Mondrian calibration from the out-of-bag vote shares (classes) or the normalised one from
 *   the out-of-bag predictions and the spread of their trees (numbers), and the applicability
 *   domain (Tanimoto). The trained model is plain data (≈ 8 MB for Kazius's 200 trees of
 *   ≈ 1,600 nodes each).
 * `forest.predict`: the queries' features, the trees' votes or values and their spread, the
 *   p-values or interval, the most similar training compounds.
 * `cv.fold.forest`: one fold of a cross-validation, all of it in one job.
 */
import { BadRequest } from "../../errors.ts";
import {
  calibrateMondrianFromProba,
  calibrateRegression,
  nonconformity,
  pValues,
  predictionIntervals,
  regressionPValue,
  type MondrianCalibration,
  type RegressionCalibration,
} from "../../learn/conformal.ts";
import { combineForests, ForestData, packForest, packForestPart, trainForest, unpackForest, unpackForestPart, type ForestTarget, type PackedForest, type PackedForestPart } from "../../learn/forest.ts";
import { tanimotoCross, type BitRows } from "../../learn/kernels.ts";
import type { JobContext } from "../../tasks/job.ts";
import type { FoldOutput } from "../crossvalidation/job.ts";
import { tanimotoDomain, type Domain } from "../global/domain.ts";
import { classConfidence, unreadable, type GlobalPrediction, type GlobalPredictor } from "../global/entries.ts";
import { modelFeatures, NO_PROGRESS, pickFeatures, type ModelFeatures } from "../global/features.ts";
import { globalFoldPredictions } from "../global/fold.ts";
import { GLOBAL_MIN_COMPOUNDS } from "../global/spec.ts";
import type { ForestModelData } from "./model.ts";
import { FOREST_SEED, forestFeatureSet, type ForestFeatures } from "./spec.ts";

export interface ForestTrainInput {
  /** The compounds' features (`forestFeatureSet(use)`: Morgan bits first, then the descriptors if any). */
  readonly features: ModelFeatures;
  /** Per input compound of the features: the class index (0 … nClasses − 1) or the value. */
  readonly y: readonly number[];
  readonly kind: "classification" | "regression";
  /** Classification: the number of classes; 0 for numbers. */
  readonly nClasses: number;
  readonly numTrees: number;
  /** What the trees are grown on. */
  readonly use: ForestFeatures;
  readonly seed: number;
}

/**
 * The forest's columns: column j < bits.length is Morgan bit bits[j], the others descriptor
 * descriptors[j − bits.length] of the features; `fill` is each descriptor's value where it is
 * missing (the training median).
 */
export interface ForestColumns {
  readonly bits: Int32Array;
  readonly descriptors: Int32Array;
  readonly fill: Float64Array;
}

export interface TrainedForestModel {
  readonly kind: "classification" | "regression";
  readonly nClasses: number;
  readonly use: ForestFeatures;
  readonly forest: PackedForest;
  readonly columns: ForestColumns;
  /** Training row r is input compound rows[r]. */
  readonly rows: Int32Array;
  /** Per input compound: why it was left out, or null. */
  readonly errors: readonly (string | null)[];
  /** The training rows' Morgan bits (neighbours and domain: Tanimoto). */
  readonly morgan: BitRows;
  readonly domain: Domain;
  /** Classes: the calibration from the out-of-bag vote shares; which classes the training rows have (a class none has gets p-value 0). */
  readonly classCalibration: MondrianCalibration | null;
  readonly present: readonly boolean[];
  /** Numbers: the calibration from the out-of-bag predictions, and the calibration rows' difficulties σ (ascending). */
  readonly regressionCalibration: RegressionCalibration | null;
  readonly sigmas: Float64Array;
  /** Misclassification rate or mean squared error of the out-of-bag predictions. */
  readonly oobError: number;
}

/** The forest's columns for the training rows of `f` (see ForestColumns). */
export function forestColumns(f: ModelFeatures, use: ForestFeatures): ForestColumns {
  const n = f.rows.length;
  const bits: number[] = [];
  if (use !== "descriptors") {
    const m = f.fingerprints[0]!;
    const count = new Int32Array(m.words * 32);
    for (let i = 0; i < n; i++) {
      for (let w = 0; w < m.words; w++) {
        let x = m.data[i * m.words + w]!;
        while (x !== 0) {
          const b = 31 - Math.clz32(x & -x);
          count[w * 32 + b]!++;
          x &= x - 1;
        }
      }
    }
    count.forEach((c, b) => c > 0 && c < n && bits.push(b));
  }
  const p = f.columns;
  const fill = new Float64Array(p);
  const descriptors: number[] = [];
  if (use !== "morgan") {
    for (let j = 0; j < p; j++) {
      const values: number[] = [];
      for (let i = 0; i < n; i++) {
        const x = f.descriptors[i * p + j]!;
        if (Number.isFinite(x)) values.push(x);
      }
      values.sort((a, b) => a - b);
      const k = values.length;
      fill[j] = k === 0 ? 0 : k % 2 === 1 ? values[(k - 1) / 2]! : (values[k / 2 - 1]! + values[k / 2]!) / 2;
      // a column that is constant once filled (its median lies between its extremes) splits nothing
      if (k > 0 && values[0] !== values[k - 1]) descriptors.push(j);
    }
  }
  return { bits: Int32Array.from(bits), descriptors: Int32Array.from(descriptors), fill };
}

/** The number of columns the trees are grown on. */
export function forestFeatureCount(c: ForestColumns): number {
  return c.bits.length + c.descriptors.length;
}

/** The rows of `f` as the forest's column-major matrix. */
function matrix(f: ModelFeatures, c: ForestColumns): ForestData {
  const n = f.rows.length;
  const x = new Float64Array(n * forestFeatureCount(c));
  const m = f.fingerprints[0]!;
  c.bits.forEach((b, j) => {
    const w = b >>> 5;
    const bit = b & 31;
    for (let i = 0; i < n; i++) x[j * n + i] = (m.data[i * m.words + w]! >>> bit) & 1;
  });
  const p = f.columns;
  c.descriptors.forEach((d, k) => {
    const at = (c.bits.length + k) * n;
    for (let i = 0; i < n; i++) {
      const v = f.descriptors[i * p + d]!;
      x[at + i] = Number.isFinite(v) ? v : c.fill[d]!;
    }
  });
  return ForestData.fromColumnMajor(x, n, forestFeatureCount(c));
}

/** The training target and the checks of a training input (at least 10 readable compounds; two classes). */
function target(input: ForestTrainInput): ForestTarget {
  const f = input.features;
  if (f.errors.length !== input.y.length) throw new BadRequest("forest.train: one value per compound", { field: "y" });
  const n = f.rows.length;
  if (n < GLOBAL_MIN_COMPOUNDS) throw new BadRequest(`only ${n} training compounds have readable structures; the model needs at least ${GLOBAL_MIN_COMPOUNDS}`, { field: "dataset_uri" });
  if (input.kind === "regression") return { kind: "regression", values: Float64Array.from(f.rows, (i) => input.y[i]!) };
  const classes = Int32Array.from(f.rows, (i) => input.y[i]!);
  if (new Set(classes).size < 2) throw new BadRequest("the training compounds all have the same class: a classifier needs two", { field: "prediction_feature" });
  return { kind: "classification", classes, nClasses: input.nClasses };
}

/** `forest.train`: trees [from, to) of the forest, as a part to join (`forest.finish`). */
export function forestTrainJob(input: ForestTrainInput & { readonly trees: readonly [number, number] }, ctx?: Pick<JobContext, "progress">): PackedForestPart {
  const y = target(input);
  const columns = forestColumns(input.features, input.use);
  if (forestFeatureCount(columns) === 0) throw new BadRequest("no feature varies among the training compounds: the forest has nothing to split on", { field: "features" });
  const data = matrix(input.features, columns);
  const [from, to] = input.trees;
  const progress = ctx ? (f: number) => ctx.progress(f) : NO_PROGRESS;
  const forest = trainForest(data, y, { ntree: input.numTrees, seed: input.seed, treeRange: [from, to], onTree: (k) => progress(k / (to - from)) });
  return packForestPart(forest);
}

/** `forest.finish`: the parts joined, calibrated, with the domain: the trained model. */
export function forestFinishJob(input: ForestTrainInput & { readonly parts: readonly PackedForestPart[] }): TrainedForestModel {
  const y = target(input);
  const f = input.features;
  const n = f.rows.length;
  const columns = forestColumns(f, input.use);
  const forest = combineForests(input.parts.map(unpackForestPart), { n }, y);
  let classCalibration: MondrianCalibration | null = null;
  let regressionCalibration: RegressionCalibration | null = null;
  let sigmas = new Float64Array(0);
  const present = Array.from({ length: input.nClasses }, () => false);
  if (y.kind === "classification") {
    for (const c of y.classes) present[c] = true;
    classCalibration = calibrateMondrianFromProba(forest.oobVotes, y.classes, y.nClasses);
  } else {
    // the rows that were out of bag at least once: their OOB prediction and the spread of its trees
    const rows = Array.from({ length: n }, (_, i) => i).filter((i) => Number.isFinite(forest.oobPrediction[i]!));
    regressionCalibration = calibrateRegression(
      rows.map((i) => y.values[i]!),
      rows.map((i) => forest.oobPrediction[i]!),
      rows.map((i) => forest.oobVotes[i]!),
    );
    sigmas = Float64Array.from(rows, (i) => forest.oobVotes[i]!).sort();
  }
  return {
    kind: input.kind,
    nClasses: input.nClasses,
    use: input.use,
    forest: packForest(forest),
    columns,
    rows: f.rows,
    errors: f.errors,
    morgan: f.fingerprints[0]!,
    domain: tanimotoDomain(f.fingerprints[0]!),
    classCalibration,
    present,
    regressionCalibration,
    sigmas,
    oobError: forest.oobError,
  };
}

export interface ForestPredictInput {
  readonly model: TrainedForestModel;
  readonly smiles: readonly string[];
  /** The queries' features when computed before: then not computed again. */
  readonly features?: ModelFeatures;
  /** Regression intervals at this confidence (e.g. 0.8). */
  readonly confidenceLevel: number;
  /** Neighbours reported per prediction. */
  readonly neighbours: number;
}

/** A forest prediction (its similarities: Tanimoto on Morgan bits), with, for numbers, the trees' spread σ. */
export interface ForestQueryPrediction extends GlobalPrediction {
  readonly spread: number;
}

/**
 * A numeric prediction's confidence: the share of the calibration compounds whose out-of-bag
 * spread σ is larger than this prediction's (ties count half). The interval's width is
 * 2·q·(σ + β), so this ranks the predictions as their widths do: 1 the narrowest, 0 the widest.
 */
export function spreadConfidence(sigmas: Float64Array, sigma: number): number {
  if (sigmas.length === 0) return 0;
  let below = 0;
  let equal = 0;
  for (const s of sigmas) {
    if (s < sigma) below++;
    else if (s === sigma) equal++;
  }
  return (sigmas.length - below - equal + equal / 2) / sigmas.length;
}

export async function forestPredictJob(input: ForestPredictInput): Promise<{ readonly predictions: readonly ForestQueryPrediction[] }> {
  if (input.smiles.length === 0) return { predictions: [] };
  const t = input.model;
  const c = input.features ?? (await modelFeatures(input.smiles, forestFeatureSet(t.use)));
  const m = c.rows.length;
  const data = matrix(c, t.columns);
  const forest = unpackForest(t.forest);
  const K = t.nClasses;
  const proba = t.kind === "classification" && m > 0 ? forest.predictProba(data) : null;
  const values = t.kind === "regression" && m > 0 ? forest.predict(data) : null;
  const spread = t.kind === "regression" && m > 0 ? forest.predictSpread(data) : null;
  const intervals = values && spread ? predictionIntervals(t.regressionCalibration!, values, spread, 1 - input.confidenceLevel) : null;
  const nt = t.rows.length;
  const sim = tanimotoCross(c.fingerprints[0]!, t.morgan);
  const byInput = new Map<number, number>();
  c.rows.forEach((inputIndex, r) => byInput.set(inputIndex, r));
  const predictions = input.smiles.map((_, i): ForestQueryPrediction => {
    const r = byInput.get(i);
    if (r === undefined) return { ...unreadable(c.errors[i] ?? "no features"), spread: NaN };
    const row = sim.subarray(r * nt, (r + 1) * nt);
    let nearest = -Infinity;
    for (let j = 0; j < nt; j++) if (row[j]! > nearest) nearest = row[j]!;
    const order = input.neighbours > 0 ? Array.from({ length: nt }, (_, j) => j).sort((a, b) => row[b]! - row[a]! || a - b).slice(0, input.neighbours) : [];
    const common = { error: null, neighbours: order.map((j) => ({ row: j, similarity: row[j]! })), nearest, inside: nearest >= t.domain.threshold };
    if (proba) {
      const votes = proba.subarray(r * K, (r + 1) * K);
      let value = 0;
      for (let k = 1; k < K; k++) if (votes[k]! > votes[value]!) value = k;
      const p = Array.from(pValues(t.classCalibration!, nonconformity(votes, K)), (x, k) => (t.present[k] ? x : 0));
      return { ...common, value, confidence: classConfidence(p, value), pValues: p, interval: null, spread: NaN };
    }
    const sigma = spread![r]!;
    return { ...common, value: values![r]!, confidence: spreadConfidence(t.sigmas, sigma), pValues: null, interval: [intervals!.lower[r]!, intervals!.upper[r]!], spread: sigma };
  });
  return { predictions };
}

/** The forest's predictions for `model.predict` (global/entries.ts writes them). */
export function forestPredictor(d: ForestModelData): GlobalPredictor {
  return async (smiles, neighbours) => (await forestPredictJob({ model: d.trained, smiles, confidenceLevel: d.confidenceLevel, neighbours })).predictions;
}

export interface ForestFoldInput {
  /** Training instances: class index 1…k (as cross-validation numbers classes) or value. */
  readonly train: readonly { readonly smiles: string; readonly activity: number }[];
  /** Test compounds; for a numeric endpoint with their measured values, used only to score the predictions (their conformal p-values), never to train. */
  readonly test: readonly { readonly key: string; readonly smiles: string | null; readonly measured?: readonly number[] }[];
  readonly classes: readonly string[];
  readonly confidenceLevel: number;
  readonly numTrees: number;
  readonly use: ForestFeatures;
  /**
   * The features of the cross-validation's compounds, computed once (`model.features`), and
   * which of them each training instance and each test compound is (indices into `all`'s input).
   */
  readonly features?: { readonly all: ModelFeatures; readonly train: readonly number[]; readonly test: readonly number[] };
}

/**
 * `cv.fold.forest`: one fold of a cross-validation of the random forest (docs/cross-validation.md):
 * grown and calibrated on the training fold only, the test compounds predicted, in the shape of
 * the other fold jobs (global/fold.ts).
 */
export async function forestFoldJob(input: ForestFoldInput, ctx?: Pick<JobContext, "progress">): Promise<FoldOutput> {
  const kind = input.classes.length > 0 ? "classification" : "regression";
  const set = forestFeatureSet(input.use);
  const progress = ctx ? (f: number) => ctx.progress(f) : NO_PROGRESS;
  // progress: the features when not given 10 %, the trees 85 %, the rest (calibration, domain, predictions) 5 %
  const features = input.features ? pickFeatures(input.features.all, input.features.train) : await modelFeatures(input.train.map((t) => t.smiles), set, (f) => progress(0.1 * f));
  const train: ForestTrainInput = {
    features,
    y: input.train.map((t) => (kind === "classification" ? t.activity - 1 : t.activity)),
    kind,
    nClasses: input.classes.length,
    numTrees: input.numTrees,
    use: input.use,
    seed: FOREST_SEED,
  };
  const part = forestTrainJob({ ...train, trees: [0, input.numTrees] }, { progress: (f) => progress(0.1 + 0.85 * f) });
  const model = forestFinishJob({ ...train, parts: [part] });
  const readableAt = input.test.flatMap((t, j) => (t.smiles !== null ? [j] : []));
  const readable = readableAt.map((j) => input.test[j]!);
  const testFeatures = input.features ? { features: pickFeatures(input.features.all, readableAt.map((j) => input.features!.test[j]!)) } : {};
  const { predictions } = await forestPredictJob({ model, smiles: readable.map((t) => t.smiles!), confidenceLevel: input.confidenceLevel, neighbours: 0, ...testFeatures });
  const byKey = new Map(readable.map((t, i) => [t.key, predictions[i]!]));
  // scoring only: the p-value of each measured value against the fold forest's calibration (normalised by the trees' spread)
  const truthPValue = (p: ForestQueryPrediction, y: number): number => regressionPValue(model.regressionCalibration!, y, p.value, p.spread);
  return { features: forestFeatureCount(model.columns), predictions: globalFoldPredictions(input.test, byKey, kind === "classification", model.rows.length, truthPValue) };
}
