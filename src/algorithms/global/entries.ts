/**
 * `model.predict` for a global model (the kernel model, the random forest; lazar/job.ts hands it
 * over): the prediction dataset's entries, in the shape of lazar's (docs/lazar-method.md "Model
 * and prediction resources") and with the conformal output (docs/conformal.md):
 *
 *   <e> qg:pValue <e/p{c}> ; <e/p{c}> qg:forClass "<class>" ; qg:confidence p .   (classes)
 *   <e> qg:intervalLower a ; qg:intervalUpper b ; qg:confidenceLevel 0.8 .         (numbers)
 *   <e> qg:nearestSimilarity s ; qg:insideDomain b ; qg:domainThreshold t ; qg:domainNote "…"? ;
 *       qg:numberOfNeighbours n ; qg:neighbour <e/n{k}> … (single compounds: the five most similar
 *       training compounds, with their similarity and measured value) .
 *
 * The confidence value is the model's (`GlobalPrediction.confidence`): for classes 1 − the largest
 * p-value of the other classes (how surely the other classes are ruled out); for numbers a value
 * that ranks the predictions as their intervals' widths do. A training compound is answered with
 * its measured values, as lazar does; a query whose structure cannot be read gets `qg:reason`.
 */
import { DataFactory } from "n3";
import type { Quad } from "@rdfjs/types";
import { startEntry } from "../entries.ts";
import { predictedConfidenceUri, predictedValueUri } from "../../resources/model.ts";
import { toNTriples } from "../../store/ntriples.ts";
import { bool, dbl, int, iri, ot, str, Vocab, xsd } from "../../store/vocab.ts";
import type { JobContext } from "../../tasks/job.ts";
import type { PredictInput, PredictOutput, PredictSummary } from "../lazar/job.ts";
import { domainNote, type Domain } from "./domain.ts";
import type { GlobalModelData } from "./model.ts";

const { quad, literal } = DataFactory;

/** One query's prediction by a global model: what its entry says. */
export interface GlobalPrediction {
  /** Why the query could not be predicted (its structure), or null. */
  readonly error: string | null;
  /** The class index, or the value. */
  readonly value: number;
  /** The prediction's confidence (see the module comment). */
  readonly confidence: number;
  /** Classes: the conformal p-value of each class index. */
  readonly pValues: readonly number[] | null;
  /** Numbers: the interval at the model's confidence level (±Infinity when too few calibration compounds). */
  readonly interval: readonly [number, number] | null;
  /** The most similar training rows, most similar first, with their similarity (the model's own). */
  readonly neighbours: readonly { readonly row: number; readonly similarity: number }[];
  /** The similarity of the most similar training compound (NaN when unreadable). */
  readonly nearest: number;
  /** Whether `nearest` reaches the model's domain threshold. */
  readonly inside: boolean;
}

/** A query that cannot be predicted: its structure could not be read (`error` says why). */
export function unreadable(error: string): GlobalPrediction {
  return { error, value: NaN, confidence: 0, pValues: null, interval: null, neighbours: [], nearest: NaN, inside: false };
}

/** The conformal confidence of a class prediction: 1 − the largest p-value of the other classes (a class whose p-value is at most ε is ruled out at significance ε). */
export function classConfidence(pValues: readonly number[], predicted: number): number {
  return 1 - Math.max(0, ...pValues.filter((_, c) => c !== predicted));
}

/** The predictions of a global model for `smiles`, with `neighbours` nearest training rows each. */
export type GlobalPredictor = (smiles: readonly string[], neighbours: number) => Promise<readonly GlobalPrediction[]>;

export async function globalEntries(
  input: Omit<PredictInput, "model">,
  d: GlobalModelData<string, { readonly domain: Domain }>,
  predict: GlobalPredictor,
  ctx: JobContext,
): Promise<PredictOutput> {
  const v = new Vocab(input.base);
  const valueF = iri(predictedValueUri(d.uri));
  const confF = iri(predictedConfidenceUri(d.uri));
  const label = (x: number): Quad["object"] => (d.classes.length > 0 ? str(d.classes[x] ?? String(x)) : literal(String(x), xsd.double));
  const text = (x: number): string => (d.classes.length > 0 ? (d.classes[x] ?? String(x)) : String(x));
  const measured = new Map<string, number[]>();
  d.keys.forEach((k, r) => measured.set(k, [...(measured.get(k) ?? []), d.activities[r]!]));
  const toPredict = input.queries.filter((q) => q.smiles !== null && !measured.has(q.compound));
  const predictions = await predict(toPredict.map((q) => q.smiles!), input.verbose ? 5 : 0);
  const predicted = new Map(toPredict.map((q, i) => [q.line, predictions[i]!]));
  const domain = d.trained.domain;
  const q: Quad[] = [];
  const summary: PredictSummary[] = [];
  input.queries.forEach((query, i) => {
    const { entry: e, value } = startEntry(q, input.datasetUri, query, v);
    const known = measured.get(query.compound);
    const p = predicted.get(query.line);
    if (known) {
      q.push(quad(e, v.qg.measured, bool(true)));
      for (const a of known) value(iri(d.endpoint), label(a));
      summary.push({ compound: query.compound, status: "measured", value: known.map(text).join(", "), neighbours: 0 });
    } else if (!p || p.error !== null) {
      const reason = "the query's structure could not be read";
      q.push(quad(e, v.qg.reason, str(reason)));
      value(confF, dbl(0));
      summary.push({ compound: query.compound, status: "unreadable", neighbours: 0, reason });
    } else {
      if (p.pValues) {
        p.pValues.forEach((pv, c) => {
          const node = iri(`${input.datasetUri}#e${query.line}p${c}`);
          q.push(quad(e, v.qg.pValue, node), quad(node, v.qg.forClass, str(d.classes[c] ?? String(c))), quad(node, v.qg.confidence, dbl(pv)));
        });
      } else {
        const [lo, hi] = p.interval!;
        if (Number.isFinite(lo) && Number.isFinite(hi)) q.push(quad(e, v.qg.intervalLower, dbl(lo)), quad(e, v.qg.intervalUpper, dbl(hi)));
        q.push(quad(e, v.qg.confidenceLevel, dbl(d.confidenceLevel)));
      }
      value(valueF, label(p.value));
      value(confF, dbl(p.confidence));
      q.push(quad(e, v.qg.nearestSimilarity, dbl(p.nearest)), quad(e, v.qg.insideDomain, bool(p.inside)), quad(e, v.qg.domainThreshold, dbl(domain.threshold)));
      if (!p.inside) q.push(quad(e, v.qg.domainNote, str(domainNote(p.nearest, domain))));
      q.push(quad(e, v.qg.numberOfNeighbours, int(d.keys.length)));
      p.neighbours.forEach((nb, n) => {
        const node = iri(`${input.datasetUri}#e${query.line}n${n}`);
        q.push(quad(e, v.qg.neighbour, node), quad(node, ot.compound, iri(d.keys[nb.row]!)), quad(node, v.qg.similarity, dbl(nb.similarity)), quad(node, v.qg.measuredActivity, label(d.activities[nb.row]!)));
      });
      summary.push({ compound: query.compound, status: "predicted", value: text(p.value), confidence: p.confidence, neighbours: d.keys.length });
    }
    if (i % 10 === 0) ctx.progress(i / input.queries.length);
  });
  return { entries: new TextEncoder().encode(toNTriples(q)), summary };
}
