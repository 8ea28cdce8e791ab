/**
 * The global kernel model as a choice of `POST /algorithm/qsar` (`prediction_algorithm=kernel_svm`;
 * learn/kernel-model.ts, algorithms/kernel/job.ts, docs/benchmarks.md "Quality"): checks what
 * lazar's spec hands over (the dataset, the endpoint and its classes) and the parameters that
 * apply, and refuses those that do not (global/spec.ts: lazar's configure its features and
 * neighbours; the forest's its trees).
 */
import type { Params } from "../../resources/params.ts";
import { checkGlobalRequest, DEFAULT_CONFIDENCE_LEVEL, GLOBAL_MAX_COMPOUNDS, GLOBAL_MIN_COMPOUNDS, KERNEL_SVM, LAZAR_ONLY, RANDOM_FOREST } from "../global/spec.ts";

export { KERNEL_SVM };
/** The SVM's cost and ε, chosen by cross-validation (docs/benchmarks.md "Quality"). */
export const KERNEL_COST = { classification: 2, regression: 10 } as const;
export const KERNEL_EPSILON = 0.1;
/** Seed of the calibration folds. */
export const KERNEL_SEED = 1;

/** The fewest training compounds the kernel model is built from (its calibration folds need them). */
export const KERNEL_MIN_COMPOUNDS = GLOBAL_MIN_COMPOUNDS;

export interface KernelSettings {
  readonly confidenceLevel: number;
}

/** The kernel model's settings from a request, or a 400 naming the parameter that does not apply. */
export function kernelSettings(params: Params, raw: ReadonlyMap<string, readonly string[]>, classes: readonly string[], trainingCompounds: number): KernelSettings {
  checkGlobalRequest(raw, KERNEL_SVM, "the kernel model (the default)", classes, trainingCompounds);
  return { confidenceLevel: params.number("confidence_level") ?? DEFAULT_CONFIDENCE_LEVEL };
}

/**
 * The model a request without `prediction_algorithm` gets (README "Models"): lazar's read-across
 * (undefined) when it configures lazar (a parameter of LAZAR_ONLY); else the kernel model, or the
 * random forest for more training compounds than the kernel model is built from.
 */
export function defaultGlobalModel(raw: ReadonlyMap<string, readonly string[]>, trainingCompounds: number): typeof KERNEL_SVM | typeof RANDOM_FOREST | undefined {
  if (LAZAR_ONLY.some((n) => raw.has(n))) return undefined;
  return trainingCompounds > GLOBAL_MAX_COMPOUNDS[KERNEL_SVM]! ? RANDOM_FOREST : KERNEL_SVM;
}
