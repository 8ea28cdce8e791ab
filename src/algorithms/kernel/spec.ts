/**
 * The global kernel model as a choice of `POST /algorithm/qsar` (`prediction_algorithm=kernel_svm`;
 * learn/kernel-model.ts, algorithms/kernel/job.ts, docs/benchmarks.md "Quality"): checks what
 * lazar's spec hands over (the dataset, the endpoint and its classes) and the parameters that
 * apply, and refuses those that do not (global/spec.ts: lazar's configure its features and
 * neighbours; the forest's its trees).
 */
import type { Params } from "../../resources/params.ts";
import { checkGlobalRequest, DEFAULT_CONFIDENCE_LEVEL, GLOBAL_MIN_COMPOUNDS, KERNEL_SVM, LAZAR_ONLY } from "../global/spec.ts";

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
 * Whether a request without `prediction_algorithm` gets the kernel model (the default, README
 * "Models"): yes, unless it configures lazar (a parameter of LAZAR_ONLY).
 */
export function kernelIsDefault(raw: ReadonlyMap<string, readonly string[]>): boolean {
  return !LAZAR_ONLY.some((n) => raw.has(n));
}
