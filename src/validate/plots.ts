/**
 * The cross-validation report's plots as server-side SVG (docs/cross-validation.md "The report";
 * the reference drew them with gnuplot): ROC curves, accuracy versus confidence (cumulative),
 * predicted versus measured with the identity line (coloured by fold), and error (RMSE, cumulative)
 * versus confidence. Each function returns a standalone `<svg>` string; see svg.ts for the frame.
 */
import { accuracyByConfidence, rmseByConfidence, rocCurve, type ConfidencePoint, type RocPoint } from "./curves.ts";
import type { ClassificationInstance, RegressionInstance } from "./statistics.ts";
import { paddedDomain, PALETTE, renderChart, type Series } from "./svg.ts";

export interface RocSeries {
  readonly label: string;
  readonly points: readonly RocPoint[];
}

/** ROC curves (one line per class) and the chance diagonal. */
export function rocPlot(curves: readonly RocSeries[], title = "ROC curve"): string {
  const series: Series[] = curves.map((c, k) => ({
    label: c.label,
    kind: "line",
    color: PALETTE[k % PALETTE.length]!,
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
