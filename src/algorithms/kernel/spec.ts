/**
 * The global kernel model as a choice of `POST /algorithm/qsar` (`prediction_algorithm=kernel_svm`;
 * learn/kernel-model.ts, algorithms/kernel/job.ts, docs/benchmarks.md "Quality"): checks what
 * lazar's spec hands over (the dataset, the endpoint and its classes) and the parameters that
 * apply, and refuses those that do not (they configure lazar's features and neighbours).
 */
import { BadRequest } from "../../errors.ts";
import type { Params } from "../../resources/params.ts";

export const KERNEL_SVM = "kernel_svm";
export const DEFAULT_CONFIDENCE_LEVEL = 0.8;
/** The SVM's cost and ε, chosen by cross-validation (docs/benchmarks.md "Quality"). */
export const KERNEL_COST = { classification: 2, regression: 10 } as const;
export const KERNEL_EPSILON = 0.1;
/** Seed of the calibration folds. */
export const KERNEL_SEED = 1;

/** The fewest training compounds the kernel model is built from (its calibration folds need them). */
export const KERNEL_MIN_COMPOUNDS = 10;

/** Parameters of /algorithm/qsar that configure lazar only. */
export const LAZAR_ONLY = ["feature_dataset_uri", "feature_generation_uri", "min_sim", "min_train_performance", "nr_hits", "min_frequency", "max_visited", "feature_type", "backbone", "min_chisq_significance", "pc_type", "lib"];

export interface KernelSettings {
  readonly confidenceLevel: number;
}

/** The kernel model's settings from a request, or a 400 naming the parameter that does not apply. */
export function kernelSettings(params: Params, raw: ReadonlyMap<string, readonly string[]>, classes: readonly string[], trainingCompounds: number): KernelSettings {
  const wrong = LAZAR_ONLY.find((n) => raw.has(n));
  if (wrong !== undefined) throw new BadRequest(`parameter '${wrong}' configures lazar's features or neighbours; prediction_algorithm=kernel_svm computes its own fingerprints and descriptors and uses every training compound`, { field: wrong });
  if (classes.length === 1) throw new BadRequest("the endpoint has a single class: there is nothing to predict", { field: "prediction_feature" });
  if (trainingCompounds < KERNEL_MIN_COMPOUNDS) {
    throw new BadRequest(
      `the dataset has ${trainingCompounds} compounds with a value of the endpoint; the kernel model (the default) needs at least ${KERNEL_MIN_COMPOUNDS}. For fewer, give lazar's features yourself (feature_dataset_uri) or add compounds`,
      { field: "dataset_uri" },
    );
  }
  return { confidenceLevel: params.number("confidence_level") ?? DEFAULT_CONFIDENCE_LEVEL };
}

/**
 * Whether a request without `prediction_algorithm` gets the kernel model (the default, README
 * "Models"): yes, unless it configures lazar (a parameter of LAZAR_ONLY).
 */
export function kernelIsDefault(raw: ReadonlyMap<string, readonly string[]>): boolean {
  return !LAZAR_ONLY.some((n) => raw.has(n));
}
