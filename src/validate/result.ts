/**
 * The plain cross-validation result (docs/cross-validation.md "The request" and "Instances and
 * pooling"): parameters, every prediction, the pooled statistics and the statistics per fold. The
 * HTTP layer fills it (from a finished run, or back from the graph) and hands it to report.ts;
 * `crossValidationResult` computes the statistics from the predictions.
 */
import { classificationCalibration, classificationCoverage, regressionCalibration, regressionCoverage, type ConformalCalibration, type Coverage } from "./conformal.ts";
import {
  classificationCrossValidation,
  regressionCrossValidation,
  type ClassificationInstance,
  type ClassificationStatistics,
  type FoldStatistics,
  type RegressionInstance,
  type RegressionStatistics,
} from "./statistics.ts";

export interface CrossValidationParameters {
  readonly algorithmUri: string;
  readonly datasetUri: string;
  readonly predictionFeature: string;
  /** The model-creation parameters as given (`name=value;name=value`). */
  readonly algorithmParams: string;
  readonly numFolds: number;
  readonly randomSeed: number;
  readonly stratified: boolean;
  /** The confidence level of a conformal regressor's intervals (kernel_svm on a numeric endpoint). */
  readonly confidenceLevel?: number;
  /** The prediction algorithm the model parameters chose (given or the default); absent in cross-validations stored before it was recorded. */
  readonly predictionAlgorithm?: string;
}

export interface CrossValidationBase {
  /** URI of the cross-validation resource. */
  readonly uri: string;
  readonly parameters: CrossValidationParameters;
  /** Optional per-fold resource URIs (index = fold). */
  readonly foldUris?: readonly string[];
  /** Wall time of the whole cross-validation, ms. */
  readonly runtimeMs?: number;
  /** ISO date of creation. */
  readonly created?: string;
}

export interface ClassificationResult extends CrossValidationBase {
  readonly type: "classification";
  /** Class labels (accept values of the prediction feature), in display order. */
  readonly classes: readonly string[];
  readonly predictions: readonly ClassificationInstance[];
  readonly pooled: ClassificationStatistics;
  readonly folds: readonly FoldStatistics<ClassificationStatistics>[];
  /** Accuracy versus coverage (conformal.ts). */
  readonly coverage: Coverage;
  /** Observed error rate versus significance; null when the predictions carry no p-values. */
  readonly calibration: ConformalCalibration | null;
}

export interface RegressionResult extends CrossValidationBase {
  readonly type: "regression";
  readonly predictions: readonly RegressionInstance[];
  readonly pooled: RegressionStatistics;
  readonly folds: readonly FoldStatistics<RegressionStatistics>[];
  /** RMSE versus coverage (conformal.ts). */
  readonly coverage: Coverage;
  /** Observed error rate versus significance; null when the predictions carry no p-values. */
  readonly calibration: ConformalCalibration | null;
}

export type CrossValidationResult = ClassificationResult | RegressionResult;

export type CrossValidationInput =
  | {
      readonly type: "classification";
      readonly classes: readonly string[];
      readonly predictions: readonly ClassificationInstance[];
    }
  | { readonly type: "regression"; readonly predictions: readonly RegressionInstance[] };

/** Computes pooled and per-fold statistics and assembles the result. */
export function crossValidationResult(
  base: CrossValidationBase,
  input: CrossValidationInput,
): CrossValidationResult {
  const k = base.parameters.numFolds;
  if (input.type === "classification") {
    const s = classificationCrossValidation(input.predictions, input.classes, k);
    return {
      ...base,
      type: "classification",
      classes: s.pooled.classes,
      predictions: input.predictions,
      ...s,
      coverage: classificationCoverage(input.predictions),
      calibration: classificationCalibration(input.predictions, input.classes),
    };
  }
  const s = regressionCrossValidation(input.predictions, k);
  return {
    ...base,
    type: "regression",
    predictions: input.predictions,
    ...s,
    coverage: regressionCoverage(input.predictions),
    calibration: regressionCalibration(input.predictions, base.parameters.confidenceLevel),
  };
}
