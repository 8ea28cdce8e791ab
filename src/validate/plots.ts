/**
 * The cross-validation report's plots as server-side SVG (docs/cross-validation.md "The report";
 * the reference drew them with gnuplot): ROC curves, accuracy versus confidence (cumulative),
 * predicted versus measured with the identity line (coloured by fold), and error (RMSE, cumulative)
 * versus confidence; accuracy or RMSE versus coverage and the conformal calibration (observed
 * error rate versus significance, with the diagonal a valid predictor follows), each with one
 * line per cross-validation, so that a comparison report overlays several. Each function returns
 * a standalone `<svg>` string; see svg.ts for the frame.
 */
import { accuracyByConfidence, rmseByConfidence, rocCurve, type ConfidencePoint, type RocPoint } from "./curves.ts";
import type { ConformalCalibration, Coverage } from "./conformal.ts";
import type { ClassificationInstance, RegressionInstance } from "./statistics.ts";
import { paddedDomain, PALETTE, renderChart, type Series } from "./svg.ts";

export interface RocSeries {
  readonly label: string;
  readonly points: readonly RocPoint[];
  /** Its colour (default: the palette's, by position). */
  readonly color?: string;
}

/** ROC curves (one line per class) and the chance diagonal. */
export function rocPlot(curves: readonly RocSeries[], title = "ROC curve", o: { readonly legend?: boolean } = {}): string {
  const series: Series[] = curves.map((c, k) => ({
    label: c.label,
    kind: "line",
    color: c.color ?? PALETTE[k % PALETTE.length]!,
    points: c.points.map((p) => [p.fpr, p.tpr] as const),
  }));
  series.push({ label: "chance", kind: "line", color: "#999999", dashed: true, hideInLegend: true, points: [[0, 0], [1, 1]] });
  return renderChart({
    title,
    xLabel: "false positive rate",
    yLabel: "true positive rate",
    x: [0, 1],
    y: [0, 1],
    series,
    emptyText: "no ROC curve (a class without instances)",
    ...(o.legend ? { legend: true } : {}),
  });
}

/**
 * Labels taken as the "positive" class of a binary endpoint, whose ROC curve the report shows
 * (our own list; lazar's report likewise chose the class that matched a pattern of "true" labels).
 */
export const TRUE_CLASS = /^(true|active|positive|yes|1|mutagen(ic)?|carcinogen(ic)?|toxic)$/i;

/**
 * The classes whose ROC curves the report shows: for two classes the one matching
 * {@link TRUE_CLASS} if exactly one does, else every class (one-vs-rest; the reference drew
 * binary endpoints only).
 */
export function rocClasses(classes: readonly string[]): string[] {
  if (classes.length === 2) {
    const t = classes.filter((c) => TRUE_CLASS.test(c));
    if (t.length === 1) return t;
  }
  return [...classes];
}

/** ROC plot of a classification cross-validation. */
export function classificationRocPlot(instances: readonly ClassificationInstance[], classes: readonly string[]): string {
  return rocPlot(rocClasses(classes).map((c) => ({ label: c, points: rocCurve(instances, c) })));
}

/** A cumulative metric against the confidence threshold (confidence decreasing to the right). */
export function confidencePlot(
  curve: readonly ConfidencePoint[],
  o: { readonly title: string; readonly yLabel: string; readonly y?: readonly [number, number] },
): string {
  const pts = curve.map((p) => [p.confidence, p.value] as const);
  const xs = paddedDomain(curve.map((p) => p.confidence), [0, 1]);
  const x: [number, number] = [Math.max(0, Math.min(xs[0], 0)), Math.max(1, xs[1])];
  return renderChart({
    title: o.title,
    xLabel: "confidence threshold (predictions with at least this confidence)",
    yLabel: o.yLabel,
    x,
    y: o.y ?? paddedDomain(curve.map((p) => p.value), [0, 1]),
    series: [
      { label: o.yLabel, kind: "line", color: PALETTE[0]!, points: pts },
      { label: o.yLabel, kind: "points", color: PALETTE[0]!, points: pts, hideInLegend: true },
    ],
    emptyText: "no predictions",
  });
}

/** Accuracy of the predictions with at least a given confidence. */
export function accuracyConfidencePlot(instances: readonly ClassificationInstance[]): string {
  return confidencePlot(accuracyByConfidence(instances), { title: "Accuracy versus confidence", yLabel: "accuracy", y: [0, 1] });
}

/** RMSE of the predictions with at least a given confidence. */
export function errorConfidencePlot(instances: readonly RegressionInstance[]): string {
  const curve = rmseByConfidence(instances);
  const hi = Math.max(0, ...curve.map((p) => p.value));
  return confidencePlot(curve, { title: "RMSE versus confidence", yLabel: "RMSE", y: [0, hi > 0 ? hi * 1.05 : 1] });
}

/** Predicted versus measured values, one colour per fold, with the identity line. */
export function scatterPlot(instances: readonly RegressionInstance[], numFolds: number): string {
  const pairs = instances.filter((i) => i.measured !== null && i.predicted !== null);
  const d = paddedDomain(pairs.flatMap((i) => [i.measured!, i.predicted!]), [0, 1]);
  const series: Series[] = [];
  for (let f = 0; f < numFolds; f++) {
    series.push({
      label: `fold ${f + 1}`,
      kind: "points",
      color: PALETTE[f % PALETTE.length]!,
      points: pairs.filter((i) => i.fold === f).map((i) => [i.measured!, i.predicted!] as const),
    });
  }
  series.push({ label: "identity", kind: "line", color: "#999999", dashed: true, hideInLegend: true, points: [[d[0], d[0]], [d[1], d[1]]] });
  return renderChart({
    title: "Predicted versus measured",
    xLabel: "measured",
    yLabel: "predicted",
    x: d,
    y: d,
    series,
    emptyText: "no predictions",
    height: 420,
  });
}

/** One line of an overlaid plot: its legend label and colour (default: the palette's, by position). */
export interface PlotLine {
  readonly label: string;
  readonly color?: string;
}

/** A line and its points (a legend entry), in its colour or the palette's k-th. */
function lineWithPoints(line: PlotLine, k: number, pts: readonly (readonly [number, number])[]): Series[] {
  const color = line.color ?? PALETTE[k % PALETTE.length]!;
  const label = line.label;
  return [
    { label, kind: "line", color, points: pts },
    { label, kind: "points", color, points: pts, hideInLegend: true },
  ];
}

/**
 * Accuracy (or RMSE) of the most confident predictions against the share of all instances they
 * cover, one line per cross-validation (all of one metric: accuracy or RMSE).
 */
export function coveragePlot(series: readonly (PlotLine & { readonly coverage: Coverage })[], o: { readonly legend?: boolean } = {}): string {
  const rmse = series.some((s) => s.coverage.metric === "rmse");
  const all = series.flatMap((s) => s.coverage.points.map((p) => p.value));
  const hi = Math.max(0, ...all);
  return renderChart({
    title: rmse ? "RMSE versus coverage" : "Accuracy versus coverage",
    xLabel: "coverage (share of all instances, most confident first)",
    yLabel: rmse ? "RMSE" : "accuracy",
    x: [0, 1],
    y: rmse ? [0, hi > 0 ? hi * 1.05 : 1] : [0, 1],
    series: series.flatMap((s, k) => lineWithPoints(s, k, s.coverage.points.map((p) => [p.actualCoverage, p.value] as const))),
    emptyText: "no predictions",
    ...(o.legend ? { legend: true } : {}),
  });
}

/**
 * The conformal calibration: the observed error rate against the significance ε, one line per
 * cross-validation, and the diagonal (error rate = ε) that a valid predictor stays on or below.
 */
export function calibrationPlot(series: readonly (PlotLine & { readonly calibration: ConformalCalibration })[], o: { readonly legend?: boolean } = {}): string {
  const top = Math.max(0, ...series.flatMap((s) => s.calibration.points.map((p) => p.errorRate)));
  const y: [number, number] = [0, Math.max(0.55, Math.min(1, top * 1.05))];
  const lines = series.flatMap((s, k) => lineWithPoints(s, k, s.calibration.points.map((p) => [p.significance, p.errorRate] as const)));
  lines.push({ label: "error rate = significance", kind: "line", color: "#999999", dashed: true, hideInLegend: true, points: [[0, 0], [0.55, 0.55]] });
  return renderChart({
    title: "Conformal calibration",
    xLabel: "significance ε (accepted error rate)",
    yLabel: "observed error rate",
    x: [0, 0.55],
    y,
    series: lines,
    emptyText: "no conformal predictions",
    ...(o.legend ? { legend: true } : {}),
  });
}
