/**
 * Similarity-weighted average of the neighbours' activities: Σ s_i·y_i / Σ s_i (not in the 2012
 * lazar services, which regressed only with the local SVM; lazar's later library versions fell
 * back to it when the SVM could not run). Confidence = mean similarity, as for the local SVMs.
 * No neighbour (or Σ s_i ≤ 0): no prediction, confidence 0. docs/lazar-method.md "Prediction".
 */

import type { Neighbour } from "./neighbours.ts";

export interface AverageResult {
  readonly value: number | null;
  readonly confidence: number;
}

export function weightedAverage(neighbours: readonly Pick<Neighbour, "similarity" | "activity">[]): AverageResult {
  let num = 0;
  let den = 0;
  for (const nb of neighbours) {
    num += nb.similarity * nb.activity;
    den += nb.similarity;
  }
  if (neighbours.length === 0 || !(den > 0)) return { value: null, confidence: 0 };
  return { value: num / den, confidence: den / neighbours.length };
}
