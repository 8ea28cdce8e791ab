/**
 * The random forest as a choice of `POST /algorithm/qsar` (`prediction_algorithm=random_forest`;
 * learn/forest.ts, algorithms/forest/job.ts, docs/conformal.md): checks what lazar's spec hands
 * over (the dataset, the endpoint and its classes) as the kernel model does (global/spec.ts), and
 * reads its own parameters: the number of trees and the features.
 */
import type { ParamSpec } from "../../resources/algorithm.ts";
import type { ModelRecord } from "../../resources/model.ts";
import type { Params } from "../../resources/params.ts";
import type { FeatureSet } from "../global/features.ts";
import { checkGlobalRequest, DEFAULT_CONFIDENCE_LEVEL, RANDOM_FOREST } from "../global/spec.ts";

export { RANDOM_FOREST };

/**
 * Trees unless `num_trees` says. Measured by 10-fold cross-validation (bench/forest-trees.ts,
 * docs/benchmarks.md "Quality"): Kazius accuracy / AUC 0.843 / 0.905 with 100 trees, 0.844 / 0.907
 * with 200, 0.845 / 0.907 with 500 at 2.6 times the time of 200; EPAFHM's RMSE is the same
 * (0.75) from 50 trees on. 200: the last step that still gained something on the slower set.
 */
export const DEFAULT_NUM_TREES = 200;
export const MIN_TREES = 10;
export const MAX_TREES = 1000;
/** Seed of the forest (its bootstrap samples and feature draws). */
export const FOREST_SEED = 1;

/** What the forest is grown on: Morgan bits (radius 2, 2048 bits), RDKit's 43 2D descriptors, or both. */
export const FOREST_FEATURES = ["morgan", "morgan+descriptors", "descriptors"] as const;
export type ForestFeatures = (typeof FOREST_FEATURES)[number];

/** The default features: Morgan bits for classes, Morgan bits and descriptors for numbers (as the reference notebook did). */
export function defaultForestFeatures(classes: readonly string[]): ForestFeatures {
  return classes.length > 0 ? "morgan" : "morgan+descriptors";
}

/** The Morgan fingerprint of the forest's features and of its neighbours and domain (Tanimoto). */
export const FOREST_MORGAN = { kind: "morgan", radius: 2, bits: 2048 } as const;

/**
 * The features the forest's jobs compute: always the Morgan bits (the neighbours and the domain
 * are Tanimoto on them, whatever the trees are grown on), and the descriptors when used.
 */
export function forestFeatureSet(features: ForestFeatures): FeatureSet {
  return { fingerprints: [FOREST_MORGAN], descriptors: features !== "morgan" };
}

/** The forest's parameters of /algorithm/qsar (with lazar's and the kernel model's in its spec). */
export const FOREST_PARAMETERS: readonly ParamSpec[] = [
  {
    name: "num_trees",
    description: `random_forest: the number of trees (more: a little more accurate, proportionally slower)`,
    required: false,
    default: String(DEFAULT_NUM_TREES),
    kind: { type: "integer", min: MIN_TREES, max: MAX_TREES },
  },
  {
    name: "features",
    description:
      "random_forest: what the trees are grown on, computed by the model: morgan (Morgan fingerprint bits, radius 2, 2048 bits; the default for classes), morgan+descriptors (and RDKit's 43 2D descriptors; the default for numbers) or descriptors",
    required: false,
    kind: { type: "enum", values: FOREST_FEATURES },
  },
];

export interface ForestSettings {
  readonly confidenceLevel: number;
  readonly numTrees: number;
  readonly features: ForestFeatures;
}

/** The forest's settings from a request, or a 400 naming the parameter that does not apply. */
export function forestSettings(params: Params, raw: ReadonlyMap<string, readonly string[]>, classes: readonly string[], trainingCompounds: number): ForestSettings {
  checkGlobalRequest(raw, RANDOM_FOREST, "the random forest", classes, trainingCompounds);
  return {
    confidenceLevel: params.number("confidence_level") ?? DEFAULT_CONFIDENCE_LEVEL,
    numTrees: params.number("num_trees") ?? DEFAULT_NUM_TREES,
    features: (params.string("features") as ForestFeatures | undefined) ?? defaultForestFeatures(classes),
  };
}

/** The settings a model record was built with (its parameters, as `forestSettings` wrote them). */
export function recordedForestSettings(m: Pick<ModelRecord, "parameters" | "classes">): ForestSettings {
  const get = (name: string): string | undefined => m.parameters.find(([n]) => n === name)?.[1];
  const trees = Number(get("num_trees"));
  const level = Number(get("confidence_level"));
  const features = FOREST_FEATURES.find((f) => f === get("features"));
  return {
    confidenceLevel: Number.isFinite(level) ? level : DEFAULT_CONFIDENCE_LEVEL,
    numTrees: Number.isInteger(trees) && trees >= MIN_TREES && trees <= MAX_TREES ? trees : DEFAULT_NUM_TREES,
    features: features ?? defaultForestFeatures(m.classes),
  };
}

/** The parameters a forest model records: its settings, every one written out. */
export function forestParameters(s: ForestSettings): [string, string][] {
  return [
    ["confidence_level", String(s.confidenceLevel)],
    ["num_trees", String(s.numTrees)],
    ["features", s.features],
  ];
}
