/**
 * The data behind the report's plots (docs/cross-validation.md "The report"): ROC curves on the
 * signed score conf·(±1) of the AUC (statistics.ts) and cumulative confidence curves, which, like
 * the 2012 validation service's, order the predictions by confidence from the highest, merge
 * near-equal confidences, and give the metric of the predictions down to each confidence.
 *
 * ROC: instances (measured and predicted) sorted by the signed score conf·(±1) descending;
 * instances with equal scores form one step, so a tie between a positive and a negative is a
 * diagonal segment and the trapezoidal area under the points equals the Wilcoxon–Mann–Whitney
 * AUC with ties counted ½ (statistics.ts).
 *
 * Confidence curves: confidences equal after rounding to 6 decimals are merged (our reading of
 * "near-identical"); one point per merged group, at the smallest confidence in the group, with
 * the metric over every prediction whose rounded confidence is ≥ that group's.
 */
import { signedScore, type ClassificationInstance, type RegressionInstance } from "./statistics.ts";

export interface RocPoint {
  readonly fpr: number;
  readonly tpr: number;
}

/** ROC curve of class c, from (0,0) to (1,1); empty when the class has no positives or no negatives. */
export function rocCurve(instances: readonly ClassificationInstance[], c: string): RocPoint[] {
  const pts: { score: number; pos: boolean }[] = [];
  for (const i of instances) {
    if (i.measured === null || i.predicted === null) continue;
    pts.push({ score: signedScore(i.predicted, i.confidence ?? 0, c), pos: i.measured === c });
  }
  const p = pts.filter((x) => x.pos).length;
  const q = pts.length - p;
  if (p === 0 || q === 0) return [];
  pts.sort((a, b) => b.score - a.score);
  const out: RocPoint[] = [{ fpr: 0, tpr: 0 }];
  let tp = 0;
  let fp = 0;
  for (let s = 0; s < pts.length; ) {
    let e = s;
    while (e < pts.length && pts[e]!.score === pts[s]!.score) (pts[e]!.pos ? tp++ : fp++), e++;
    out.push({ fpr: fp / q, tpr: tp / p });
    s = e;
  }
  return out;
}

/** Trapezoidal area under a ROC curve. */
export function trapezoidArea(points: readonly RocPoint[]): number {
  let a = 0;
  for (let k = 1; k < points.length; k++) {
    a += ((points[k]!.fpr - points[k - 1]!.fpr) * (points[k]!.tpr + points[k - 1]!.tpr)) / 2;
  }
  return a;
}

export interface ConfidencePoint {
  /** The smallest confidence among the top-k predictions. */
  readonly confidence: number;
  /** k: number of predictions with at least this confidence. */
  readonly n: number;
  /** The metric over those k predictions. */
  readonly value: number;
}

function cumulative<T extends { confidence: number }>(
  items: T[],
  init: () => { add(item: T): void; value(k: number): number },
): ConfidencePoint[] {
  const key = (c: number): number => Math.round(c * 1e6);
  items.sort((a, b) => key(b.confidence) - key(a.confidence) || b.confidence - a.confidence);
  const acc = init();
  const out: ConfidencePoint[] = [];
  for (let s = 0; s < items.length; ) {
    let e = s;
    while (e < items.length && key(items[e]!.confidence) === key(items[s]!.confidence)) acc.add(items[e++]!);
    out.push({ confidence: items[e - 1]!.confidence, n: e, value: acc.value(e) });
    s = e;
  }
  return out;
}

/** Accuracy of the top-k predictions against the k-th confidence. */
export function accuracyByConfidence(instances: readonly ClassificationInstance[]): ConfidencePoint[] {
  const items = instances.flatMap((i) =>
    i.measured === null || i.predicted === null ? [] : [{ confidence: i.confidence ?? 0, ok: i.measured === i.predicted }],
  );
  return cumulative(items, () => {
    let correct = 0;
    return { add: (x) => void (x.ok && correct++), value: (k) => correct / k };
  });
}

/** RMSE of the top-k predictions against the k-th confidence. */
export function rmseByConfidence(instances: readonly RegressionInstance[]): ConfidencePoint[] {
  const items = instances.flatMap((i) =>
    i.measured === null || i.predicted === null ? [] : [{ confidence: i.confidence ?? 0, e: i.predicted - i.measured }],
  );
  return cumulative(items, () => {
    let sse = 0;
    return { add: (x) => void (sse += x.e * x.e), value: (k) => Math.sqrt(sse / k) };
  });
}
