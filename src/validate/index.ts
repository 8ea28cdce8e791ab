/**
 * The validation core: folds, statistics, plot data, SVG plots and the HTML
 * report of cross-validations. Pure modules: nothing here imports http, store or resources.
 */
export { assignFolds, shuffleInPlace, FoldError, type FoldAssignment, type FoldOptions } from "./folds.ts";
export {
  classificationStatistics,
  regressionStatistics,
  classificationCrossValidation,
  regressionCrossValidation,
  wilcoxonAuc,
  signedScore,
  classList,
  compareCodePoints,
  ratio,
  type PredictionInstance,
  type ClassificationInstance,
  type RegressionInstance,
  type CountStatistics,
  type ConfusionCell,
  type ClassValueStatistics,
  type ClassificationStatistics,
  type RegressionStatistics,
  type ValidationStatistics,
  type FoldStatistics,
} from "./statistics.ts";
export {
  classificationCoverage,
  regressionCoverage,
  classificationCalibration,
  regressionCalibration,
  calibrationAt,
  COVERAGE_LEVELS,
  CALIBRATION_SIGNIFICANCES,
  type Coverage,
  type CoveragePoint,
  type CalibrationPoint,
  type ConformalCalibration,
} from "./conformal.ts";
export { rocCurve, trapezoidArea, accuracyByConfidence, rmseByConfidence, type RocPoint, type ConfidencePoint } from "./curves.ts";
export {
  rocPlot,
  rocClasses,
  classificationRocPlot,
  confidencePlot,
  accuracyConfidencePlot,
  errorConfidencePlot,
  scatterPlot,
  coveragePlot,
  calibrationPlot,
  TRUE_CLASS,
  type RocSeries,
  type PlotLine,
} from "./plots.ts";
export { algorithmName, comparisonLabel, comparabilityProblems, crossValidationComparisonBody, crossValidationComparisonPage } from "./compare.ts";
export { xmlEscape, renderChart, niceTicks, type Chart, type Series } from "./svg.ts";
export {
  crossValidationResult,
  type CrossValidationParameters,
  type CrossValidationBase,
  type CrossValidationInput,
  type CrossValidationResult,
  type ClassificationResult,
  type RegressionResult,
} from "./result.ts";
export {
  crossValidationReportBody,
  crossValidationReportDocument,
  type PredictionsShown,
  depictionUri,
  isSafeUri,
  REPORT_STYLE,
  REPORT_TITLE,
} from "./report.ts";
