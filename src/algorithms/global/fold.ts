/**
 * A global model's predictions of a cross-validation fold's test compounds in the shape of every
 * fold job's output (crossvalidation/job.ts FoldPrediction): the kernel model's and the random
 * forest's fold jobs train on the training fold only, predict the test compounds, and answer
 * through this one mapping.
 */
import type { FoldPrediction } from "../crossvalidation/job.ts";
import type { GlobalPrediction } from "./entries.ts";

/**
 * Per test compound its prediction (`byKey`; none, or one with an error: not predicted, with the
 * reason): the class index counted from 1 as the cross-validation numbers classes, or the value;
 * the model's confidence; all `trainingRows` as its neighbours (a global model uses every one);
 * and the conformal output: the p-value of every class, or the interval and, for each measured
 * value the test compound carries (`measured`: given to score the finished prediction, never to
 * train), its conformal p-value by the model's own `truthPValue`.
 */
export function globalFoldPredictions<P extends GlobalPrediction>(
  test: readonly { readonly key: string; readonly measured?: readonly number[] }[],
  byKey: ReadonlyMap<string, P>,
  classification: boolean,
  trainingRows: number,
  truthPValue: (p: P, measured: number) => number,
): FoldPrediction[] {
  return test.map((t) => {
    const p = byKey.get(t.key);
    if (!p || p.error !== null) return { key: t.key, value: null, confidence: 0, neighbours: 0, reason: "the structure could not be read" };
    const base = { key: t.key, value: classification ? p.value + 1 : p.value, confidence: p.confidence, neighbours: trainingRows };
    if (p.pValues) return { ...base, pValues: p.pValues };
    if (!p.interval) return base;
    return { ...base, interval: p.interval, truthPValues: (t.measured ?? []).map((y) => truthPValue(p, y)) };
  });
}
