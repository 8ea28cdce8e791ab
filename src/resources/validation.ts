/**
 * A cross-validation's graph: its parameters, its pooled statistics and every prediction
 * (compound, fold, measured, predicted, confidence) ↔ the result the report shows, recomputed
 * from the stored predictions when read (validate/ computes the statistics); and a report's
 * graph ↔ the cross-validations it shows.
 */
import { DataFactory } from "n3";
import type { Quad } from "@rdfjs/types";
import * as ox from "oxigraph";
import { toNTriples } from "../store/ntriples.ts";
import { bool, dateTime, dbl, dc, int, iri, NS, ot, rdf, str, type Vocab } from "../store/vocab.ts";
import { crossValidationResult, type CrossValidationResult, type PredictionInstance } from "../validate/index.ts";

const { quad } = DataFactory;

/** What a cross-validation was asked to do (stored with it). */
export interface CrossValidationParameters {
  readonly title?: string;
  readonly algorithmUri: string;
  readonly datasetUri: string;
  readonly endpoint: string;
  readonly algorithmParams: string;
  readonly numFolds: number;
  readonly seed: number;
  readonly stratified: boolean;
  /** The endpoint's classes in order (empty: a numeric endpoint). */
  readonly classes: readonly string[];
}

/** A prediction as stored: every instance has a measured value. */
export type StoredPrediction = PredictionInstance<string | number> & { readonly measured: string | number };

/** The result of a cross-validation with these parameters and predictions (statistics pooled and per fold). */
export function crossValidationResultOf(r: CrossValidationParameters, uri: string, predictions: readonly PredictionInstance<string | number>[], runtimeMs: number): CrossValidationResult {
  const base = {
    uri,
    parameters: { algorithmUri: r.algorithmUri, datasetUri: r.datasetUri, predictionFeature: r.endpoint, algorithmParams: r.algorithmParams, numFolds: r.numFolds, randomSeed: r.seed, stratified: r.stratified },
    runtimeMs,
  };
  return r.classes.length > 0
    ? crossValidationResult(base, { type: "classification", classes: r.classes, predictions: predictions as PredictionInstance<string>[] })
    : crossValidationResult(base, { type: "regression", predictions: predictions as PredictionInstance<number>[] });
}

/** The graph of cross-validation `uri`: parameters, pooled statistics, predictions. */
export function crossValidationNTriples(uri: string, p: CrossValidationParameters & { readonly title: string }, predictions: readonly StoredPrediction[], result: CrossValidationResult, runtimeMs: number, v: Vocab): string {
  const s = iri(uri);
  const q: Quad[] = [
    quad(s, rdf.type, iri(`${NS.ot}Validation`)),
    quad(s, rdf.type, v.qg.CrossValidation),
    quad(s, dc.title, str(p.title)),
    quad(s, dc.date, dateTime(new Date())),
    quad(s, iri(`${NS.ot}algorithm`), iri(p.algorithmUri)),
    quad(s, iri(`${NS.ot}trainingDataset`), iri(p.datasetUri)),
    quad(s, iri(`${NS.ot}dependentVariables`), iri(p.endpoint)),
    quad(s, v.qg.algorithmParams, str(p.algorithmParams)),
    quad(s, v.qg.numFolds, int(p.numFolds)),
    quad(s, v.qg.randomSeed, int(p.seed)),
    quad(s, v.qg.stratified, bool(p.stratified)),
    quad(s, v.qg.runtimeMs, int(runtimeMs)),
  ];
  p.classes.forEach((c, i) => q.push(quad(s, v.qg.classValue, str(`${i + 1}\t${c}`))));
  q.push(...statisticsQuads(uri, result, v));
  predictions.forEach((x, i) => {
    const n = iri(`${uri}#p${i}`);
    const val = (y: string | number): Quad["object"] => (typeof y === "number" ? dbl(y) : str(y));
    q.push(quad(s, v.qg.prediction, n), quad(n, ot.compound, iri(x.compound)), quad(n, v.qg.fold, int(x.fold + 1)), quad(n, v.qg.measuredActivity, val(x.measured)));
    if (x.predicted !== null) q.push(quad(n, v.qg.predictedValue, val(x.predicted)), quad(n, v.qg.confidence, dbl(x.confidence ?? 0)));
  });
  return toNTriples(q);
}

function statisticsQuads(cv: string, r: CrossValidationResult, v: Vocab): Quad[] {
  const s = iri(cv);
  const q: Quad[] = [];
  for (const [k, x] of Object.entries(r.pooled)) {
    if (typeof x === "number" && Number.isFinite(x)) q.push(quad(s, iri(`${v.qgNs}${k}`), dbl(x)));
  }
  return q;
}

/** What a cross-validation's graph holds: its parameters, its stored predictions and its run time. */
export interface StoredCrossValidation {
  readonly parameters: CrossValidationParameters;
  readonly predictions: PredictionInstance<string | number>[];
  readonly runtimeMs: number;
}

/** A cross-validation's parameters and predictions from its graph (null when not a cross-validation); `crossValidationOf` makes the result. */
export function readStoredCrossValidation(store: ox.Store, uri: string, v: Vocab): StoredCrossValidation | null {
  const g = ox.namedNode(uri);
  const one = (p: string): string | undefined => store.match(ox.namedNode(uri), ox.namedNode(p), null, g)[0]?.object.value;
  if (one(v.qg.numFolds.value) === undefined) return null;
  const classes = store
    .match(ox.namedNode(uri), ox.namedNode(v.qg.classValue.value), null, g)
    .map((q) => q.object.value.split("\t") as [string, string])
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .map(([, c]) => c);
  const rows = store.query(
    `SELECT ?p ?c ?f ?m ?x ?conf WHERE { GRAPH <${uri}> { <${uri}> <${v.qg.prediction.value}> ?p . ?p <${ot.compound.value}> ?c ; <${v.qg.fold.value}> ?f ; <${v.qg.measuredActivity.value}> ?m . OPTIONAL { ?p <${v.qg.predictedValue.value}> ?x ; <${v.qg.confidence.value}> ?conf } } }`,
  ) as Map<string, ox.Term>[];
  const order = (p: string): number => Number(p.slice(p.lastIndexOf("#p") + 2));
  rows.sort((a, b) => order(a.get("p")!.value) - order(b.get("p")!.value));
  const numeric = classes.length === 0;
  const predictions = rows.map((r) => ({
    compound: r.get("c")!.value,
    fold: Number(r.get("f")!.value) - 1,
    measured: numeric ? Number(r.get("m")!.value) : r.get("m")!.value,
    predicted: r.get("x") === undefined ? null : numeric ? Number(r.get("x")!.value) : r.get("x")!.value,
    confidence: r.get("conf") === undefined ? null : Number(r.get("conf")!.value),
  }));
  return {
    parameters: {
      algorithmUri: one(`${NS.ot}algorithm`) ?? "",
      datasetUri: one(`${NS.ot}trainingDataset`) ?? "",
      endpoint: one(`${NS.ot}dependentVariables`) ?? "",
      algorithmParams: one(v.qg.algorithmParams.value) ?? "",
      numFolds: Number(one(v.qg.numFolds.value)),
      seed: Number(one(v.qg.randomSeed.value)),
      stratified: one(v.qg.stratified.value) === "true",
      classes,
    },
    predictions,
    runtimeMs: Number(one(v.qg.runtimeMs.value) ?? 0),
  };
}

/** The cross-validation result of what its graph holds, recomputed from the stored predictions (statistics pooled and per fold). */
export function crossValidationOf(uri: string, stored: StoredCrossValidation): CrossValidationResult {
  return crossValidationResultOf(stored.parameters, uri, stored.predictions, stored.runtimeMs);
}

/** The graph of report `uri`: the cross-validations it shows. */
export function reportNTriples(uri: string, validations: readonly string[], v: Vocab): string {
  const s = iri(uri);
  return toNTriples([quad(s, rdf.type, v.qg.Report), quad(s, dc.title, str("Cross-validation report")), quad(s, dc.date, dateTime(new Date())), ...validations.map((u) => quad(s, v.qg.validation, iri(u)))]);
}

/** The cross-validations report `uri` shows, in URI order (some may have been deleted since). */
export function readReportValidations(store: ox.Store, uri: string, v: Vocab): string[] {
  const g = ox.namedNode(uri);
  return store
    .match(g, ox.namedNode(v.qg.validation.value), null, g)
    .map((q) => q.object.value)
    .sort();
}
