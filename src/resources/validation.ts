/**
 * A cross-validation's graph: its parameters, its pooled statistics, its coverage curve and (a
 * conformal model) its calibration, and every prediction (compound, fold, measured, predicted,
 * confidence; a conformal model's p-values or interval) ↔ the result the report shows,
 * recomputed from the stored predictions when read (validate/ computes the statistics); and a
 * report's graph ↔ the cross-validations it shows.
 *
 *   <cv> qg:prediction <cv#p{i}> ; qg:confidenceLevel 0.8 (conformal regression) .
 *   <cv#p{i}> ot:compound <c> ; qg:fold f ; qg:measuredActivity v ; qg:predictedValue v ; qg:confidence x ;
 *             qg:pValue <cv#p{i}c{k}> (classes: one node per class, qg:forClass "class" ; qg:confidence p) ;
 *             qg:intervalLower a ; qg:intervalUpper b ; qg:truthPValue p (numbers: the p-value of the measured value) .
 *   <cv> qg:coverageOrder "confidence" ; qg:coveragePoint <cv#coverage{k}> .
 *   <cv#coverage{k}> qg:coverage 0.1 ; qg:numPredicted n ; qg:actualCoverage x ;
 *             qg:confidenceThreshold t (or qg:intervalWidthThreshold w) ; qg:accuracy a (or qg:rootMeanSquaredError r) .
 *   <cv> qg:conformalInstances n ; qg:calibrationPoint <cv#calibration{k}> ; qg:meanIntervalWidth w ; qg:intervalErrorRate r .
 *   <cv#calibration{k}> qg:significance ε ; qg:numErrors e ; qg:errorRate r ; qg:meanSetSize s ; qg:singleClassRate r ; qg:emptySetRate r .
 *
 * An unbounded interval is written with the xsd:double values "-INF" and "INF".
 */
import { DataFactory } from "n3";
import type { Quad } from "@rdfjs/types";
import * as ox from "oxigraph";
import { toNTriples } from "../store/ntriples.ts";
import { bool, dateTime, dbl, dc, int, iri, NS, ot, rdf, str, xsd, type Vocab } from "../store/vocab.ts";
import { crossValidationResult, type CrossValidationResult, type PredictionInstance } from "../validate/index.ts";

const { quad, literal } = DataFactory;

/** An xsd:double, infinities as "INF" and "-INF" (String(Infinity) is not an xsd:double). */
function double(x: number): Quad["object"] {
  return Number.isFinite(x) ? dbl(x) : literal(x > 0 ? "INF" : "-INF", xsd.double);
}

/** An xsd:double's lexical form → number ("INF", "-INF" and "NaN" included). */
function parseDouble(s: string): number {
  return s === "INF" || s === "+INF" ? Infinity : s === "-INF" ? -Infinity : Number(s);
}

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
  /** The confidence level of a conformal regressor's intervals (kernel_svm on a numeric endpoint). */
  readonly confidenceLevel?: number;
  /** The prediction algorithm the parameters chose (given or the default). */
  readonly predictionAlgorithm?: string;
}

/** A prediction as stored: every instance has a measured value. */
export type StoredPrediction = PredictionInstance<string | number> & { readonly measured: string | number };

/** The result of a cross-validation with these parameters and predictions (statistics pooled and per fold). */
export function crossValidationResultOf(r: CrossValidationParameters, uri: string, predictions: readonly PredictionInstance<string | number>[], runtimeMs: number): CrossValidationResult {
  const base = {
    uri,
    parameters: {
      algorithmUri: r.algorithmUri,
      datasetUri: r.datasetUri,
      predictionFeature: r.endpoint,
      algorithmParams: r.algorithmParams,
      numFolds: r.numFolds,
      randomSeed: r.seed,
      stratified: r.stratified,
      ...(r.confidenceLevel === undefined ? {} : { confidenceLevel: r.confidenceLevel }),
      ...(r.predictionAlgorithm === undefined ? {} : { predictionAlgorithm: r.predictionAlgorithm }),
    },
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
  if (p.confidenceLevel !== undefined) q.push(quad(s, v.qg.confidenceLevel, dbl(p.confidenceLevel)));
  if (p.predictionAlgorithm !== undefined) q.push(quad(s, v.qg.predictionAlgorithm, str(p.predictionAlgorithm)));
  q.push(...statisticsQuads(uri, result, v));
  predictions.forEach((x, i) => {
    const n = iri(`${uri}#p${i}`);
    const val = (y: string | number): Quad["object"] => (typeof y === "number" ? dbl(y) : str(y));
    q.push(quad(s, v.qg.prediction, n), quad(n, ot.compound, iri(x.compound)), quad(n, v.qg.fold, int(x.fold + 1)), quad(n, v.qg.measuredActivity, val(x.measured)));
    if (x.predicted !== null) q.push(quad(n, v.qg.predictedValue, val(x.predicted)), quad(n, v.qg.confidence, dbl(x.confidence ?? 0)));
    x.pValues?.forEach((pv, c) => {
      const node = iri(`${uri}#p${i}c${c}`);
      q.push(quad(n, v.qg.pValue, node), quad(node, v.qg.forClass, str(p.classes[c] ?? String(c))), quad(node, v.qg.confidence, dbl(pv)));
    });
    if (x.interval) q.push(quad(n, v.qg.intervalLower, double(x.interval[0])), quad(n, v.qg.intervalUpper, double(x.interval[1])));
    if (x.truthPValue !== undefined) q.push(quad(n, v.qg.truthPValue, dbl(x.truthPValue)));
  });
  return toNTriples(q);
}

/** A finite number as an xsd:double object, or nothing. */
function finite(s: Quad["subject"], p: Quad["predicate"], x: number | undefined): Quad[] {
  return x !== undefined && Number.isFinite(x) ? [quad(s, p, dbl(x))] : [];
}

function statisticsQuads(cv: string, r: CrossValidationResult, v: Vocab): Quad[] {
  const s = iri(cv);
  const q: Quad[] = [];
  const stat = (k: string) => iri(`${v.qgNs}${k}`);
  for (const [k, x] of Object.entries(r.pooled)) {
    if (typeof x === "number" && Number.isFinite(x)) q.push(quad(s, stat(k), dbl(x)));
  }
  // accuracy / RMSE versus coverage (validate/conformal.ts)
  const c = r.coverage;
  q.push(quad(s, v.qg.coverageOrder, str(c.order)));
  c.points.forEach((p, k) => {
    const node = iri(`${cv}#coverage${k + 1}`);
    q.push(quad(s, v.qg.coveragePoint, node), quad(node, v.qg.coverage, dbl(p.coverage)), quad(node, stat("numPredicted"), int(p.n)), quad(node, v.qg.actualCoverage, dbl(p.actualCoverage)));
    q.push(...finite(node, c.order === "confidence" ? v.qg.confidenceThreshold : v.qg.intervalWidthThreshold, p.threshold), ...finite(node, stat(c.metric === "accuracy" ? "accuracy" : "rootMeanSquaredError"), p.value));
  });
  // the conformal calibration
  const cal = r.calibration;
  if (cal) {
    q.push(quad(s, v.qg.conformalInstances, int(cal.n)), ...finite(s, v.qg.meanIntervalWidth, cal.meanIntervalWidth), ...finite(s, v.qg.intervalErrorRate, cal.intervalErrorRate));
    cal.points.forEach((p, k) => {
      const node = iri(`${cv}#calibration${k + 1}`);
      q.push(quad(s, v.qg.calibrationPoint, node), quad(node, v.qg.significance, dbl(p.significance)), quad(node, v.qg.numErrors, int(p.errors)), ...finite(node, v.qg.errorRate, p.errorRate));
      q.push(...finite(node, v.qg.meanSetSize, p.meanSetSize), ...finite(node, v.qg.singleClassRate, p.singleClassRate), ...finite(node, v.qg.emptySetRate, p.emptySetRate));
    });
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
  const conformal = readConformal(store, g, classes, v);
  const predictions = rows.map((r): PredictionInstance<string | number> => {
    const p = r.get("p")!.value;
    const pValues = conformal.pValues.get(p);
    const lo = conformal.lower.get(p);
    const hi = conformal.upper.get(p);
    const truth = conformal.truth.get(p);
    return {
      compound: r.get("c")!.value,
      fold: Number(r.get("f")!.value) - 1,
      measured: numeric ? Number(r.get("m")!.value) : r.get("m")!.value,
      predicted: r.get("x") === undefined ? null : numeric ? Number(r.get("x")!.value) : r.get("x")!.value,
      confidence: r.get("conf") === undefined ? null : Number(r.get("conf")!.value),
      ...(pValues && pValues.every((x) => !Number.isNaN(x)) ? { pValues } : {}),
      ...(lo !== undefined && hi !== undefined ? { interval: [lo, hi] as const } : {}),
      ...(truth !== undefined ? { truthPValue: truth } : {}),
    };
  });
  const level = one(v.qg.confidenceLevel.value);
  const algorithm = one(v.qg.predictionAlgorithm.value);
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
      ...(level === undefined ? {} : { confidenceLevel: Number(level) }),
      ...(algorithm === undefined ? {} : { predictionAlgorithm: algorithm }),
    },
    predictions,
    runtimeMs: Number(one(v.qg.runtimeMs.value) ?? 0),
  };
}

/** The conformal output of the predictions of graph `g`, by prediction node: p-values in class order, interval bounds, p-values of the measured values. */
function readConformal(store: ox.Store, g: ox.NamedNode, classes: readonly string[], v: Vocab): { pValues: Map<string, number[]>; lower: Map<string, number>; upper: Map<string, number>; truth: Map<string, number> } {
  const byObject = (p: string): Map<string, number> => new Map(store.match(null, ox.namedNode(p), null, g).map((q) => [q.subject.value, parseDouble(q.object.value)]));
  const pValues = new Map<string, number[]>();
  const nodes = store.match(null, ox.namedNode(v.qg.pValue.value), null, g);
  if (nodes.length > 0) {
    const forClass = new Map(store.match(null, ox.namedNode(v.qg.forClass.value), null, g).map((q) => [q.subject.value, classes.indexOf(q.object.value)]));
    const value = byObject(v.qg.confidence.value);
    for (const q of nodes) {
      const k = forClass.get(q.object.value) ?? -1;
      const x = value.get(q.object.value);
      if (k < 0 || x === undefined) continue;
      let row = pValues.get(q.subject.value);
      if (!row) pValues.set(q.subject.value, (row = new Array<number>(classes.length).fill(NaN)));
      row[k] = x;
    }
  }
  return { pValues, lower: byObject(v.qg.intervalLower.value), upper: byObject(v.qg.intervalUpper.value), truth: byObject(v.qg.truthPValue.value) };
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
