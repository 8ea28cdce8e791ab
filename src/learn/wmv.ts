/**
 * Weighted majority vote (docs/lazar-method.md "Prediction"), as lazar computed it (opentox-ruby
 * 4.0.0, lib/algorithm.rb `Neighbors` and lib/utils.rb `get_confidence`).
 *
 * Two classes: S = Σ (+s_i for class 2, −s_i for class 1); prediction = class 2 when S ≥ 0
 * (ties → class 2, the larger accept value), else class 1; confidence = |S| / n.
 * More classes: prediction = round(Σ a_i·s_i / Σ s_i) (ordinal weighted mean of class indices),
 * confidence = Σ s_i / n. No neighbour: no prediction, confidence 0.
 */

import type { Neighbour } from "./neighbours.ts";

export interface VoteResult {
  /** Class index (1-based), null without neighbours. */
  readonly value: number | null;
  readonly confidence: number;
}

export function weightedMajorityVote(neighbours: readonly Pick<Neighbour, "similarity" | "activity">[], nClasses: number): VoteResult {
  const n = neighbours.length;
  if (n === 0) return { value: null, confidence: 0 };
  if (nClasses === 2) {
    let s = 0;
    for (const nb of neighbours) {
      if (nb.activity === 2) s += nb.similarity;
      else if (nb.activity === 1) s -= nb.similarity;
      else throw new RangeError(`class index ${nb.activity} outside 1..2`);
    }
    return { value: s >= 0 ? 2 : 1, confidence: Math.abs(s) / n };
  }
  let num = 0;
  let den = 0;
  for (const nb of neighbours) {
    num += nb.activity * nb.similarity;
    den += nb.similarity;
  }
  if (!(den > 0)) return { value: null, confidence: 0 };
  const value = Math.min(nClasses, Math.max(1, Math.round(num / den)));
  return { value, confidence: den / n };
}
