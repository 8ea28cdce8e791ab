/**
 * What every global learner's job test checks on the same four hamster queries (the first and
 * the 41st training compound, an unreadable SMILES, aniline): a training compound finds itself
 * first at similarity 1 and lies inside the domain, the neighbours come most similar first, an
 * unreadable query says why and has no p-values, and a new compound gets one p-value in (0, 1]
 * per class and a class. Expected values are properties of the method, not outputs of it: a
 * compound's Tanimoto similarity with itself is 1; conformal p-values of an n-compound
 * calibration set lie in [1/(n+1), 1].
 */
import assert from "node:assert/strict";
import type { GlobalPrediction } from "../../src/algorithms/global/entries.ts";
import { HAMSTER, readSmilesCsv } from "./data.ts";

const hamster = readSmilesCsv(HAMSTER);

/** The queries, in the order `checkHamsterQueries` reads their predictions. */
export const HAMSTER_QUERIES: readonly string[] = [hamster[0]!.smiles, hamster[40]!.smiles, "C1CC1(", "c1ccccc1N"];

/** The checks above; returns aniline's prediction for the learner's own. */
export function checkHamsterQueries<P extends GlobalPrediction>(model: { readonly rows: ArrayLike<number> & { indexOf(n: number): number }; readonly domain: { readonly threshold: number } }, predictions: readonly P[]): P {
  assert.equal(predictions.length, HAMSTER_QUERIES.length);
  for (const i of [0, 1]) {
    const p = predictions[i]!;
    assert.equal(p.error, null);
    assert.equal(p.neighbours[0]!.row, model.rows.indexOf(i === 0 ? 0 : 40), "its own training row first");
    assert.ok(Math.abs(p.neighbours[0]!.similarity - 1) < 1e-6, `similarity with itself ${p.neighbours[0]!.similarity}`);
    assert.ok(p.neighbours[1]!.similarity <= p.neighbours[0]!.similarity, "most similar first");
    assert.ok(p.inside && p.nearest === p.neighbours[0]!.similarity, "a training compound is inside the domain");
  }
  assert.ok(model.domain.threshold > 0 && model.domain.threshold < 1, `domain threshold ${model.domain.threshold}`);
  assert.match(predictions[2]!.error ?? "", /./, "an unreadable query gets its reason");
  assert.equal(predictions[2]!.pValues, null);
  const aniline = predictions[3]!;
  assert.equal(aniline.pValues!.length, 2);
  for (const p of aniline.pValues!) assert.ok(p > 0 && p <= 1, `p-value ${p}`);
  assert.ok(aniline.value === 0 || aniline.value === 1);
  return aniline;
}
