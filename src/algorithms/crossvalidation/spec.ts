/**
 * Cross-validation of the lazar algorithm (issue "Cross-validation"; spec lazar.md §6):
 * `POST /validation/crossvalidation` checks the model parameters as `/algorithm/qsar` would, then
 * a task assigns folds by unique compound (src/validate/folds.ts: seeded, documented), runs one
 * pool job per fold and stores the cross-validation. Features: mined inside each training fold
 * (BBRC or LAST, the default: the test fold never influences them), or read from a
 * `feature_dataset_uri` (descriptors, or substructures mined before — then on every compound,
 * test folds included, which makes the estimate optimistic). Descriptors computed on the fly
 * are not offered: they do not depend on the endpoint, so compute them once
 * (`POST <dataset>/pc`) and pass that feature dataset. The result:
 *
 *   <cv> a ot:Validation, qg:CrossValidation ; dc:date ; ot:algorithm <…/qsar> ;
 *        ot:trainingDataset <d> ; ot:dependentVariables <endpoint> ; qg:algorithmParams "…" ;
 *        qg:numFolds k ; qg:randomSeed s ; qg:stratified b ; qg:classValue "1\tfalse" … ;
 *        qg:<statistic> x (pooled: accuracy, averageAreaUnderRoc, rootMeanSquaredError, …) ;
 *        qg:prediction <cv#p{i}> .
 *   <cv#p{i}> ot:compound <c> ; qg:fold f ; qg:measuredActivity "v" ; qg:predictedValue "v"? ; qg:confidence x? .
 *
 * Every prediction is kept; the full statistics and the report are computed from them on demand.
 */
import { DataFactory } from "n3";
import type { Quad } from "@rdfjs/types";
import * as ox from "oxigraph";
import { BadRequest } from "../../errors.ts";
import type { AlgorithmSpec } from "../../resources/algorithm.ts";
import { EntryOrder, readColumn } from "../../resources/entry-order.ts";
import { absoluteFrequency, parseParams, type Params } from "../../resources/params.ts";
import type { Uris } from "../../resources/uris.ts";
import type { GraphStore } from "../../store/graph-store.ts";
import { toNTriples } from "../../store/ntriples.ts";
import { bool, dateTime, dbl, dc, int, iri, NS, ot, rdf, str, type Vocab } from "../../store/vocab.ts";
import { assignFolds, crossValidationResult, FoldError, type CrossValidationResult, type PredictionInstance } from "../../validate/index.ts";
import type { FoldInput, FoldOutput } from "./job.ts";
import { buildModelData, type ModelData } from "../lazar/model-data.ts";
import { LAZAR, modelRequest } from "../lazar/spec.ts";
import type { Operation } from "../jobs.ts";

const { quad } = DataFactory;

export const CROSSVALIDATION: AlgorithmSpec = {
  path: "validation/crossvalidation",
  aliases: [],
  title: "Cross-validation",
  description: "k-fold cross-validation of the lazar algorithm: folds by unique compound, features mined inside each training fold (or read from a feature_dataset_uri in algorithm_params), statistics pooled over all folds.",
  types: [],
  parameters: [
    { name: "algorithm_uri", description: "the algorithm to validate: /algorithm/qsar (or /algorithm/lazar)", required: true, kind: { type: "feature" } },
    { name: "dataset_uri", description: "the dataset (a dataset of this service)", required: true, kind: { type: "dataset" } },
    { name: "prediction_feature", description: "the endpoint (optional when the dataset has one feature)", required: false, kind: { type: "feature" } },
    { name: "algorithm_params", description: "the model parameters as name=value;name=value (e.g. min_frequency=8;prediction_algorithm=weighted_majority_vote)", required: false, default: "", kind: { type: "text" } },
    { name: "num_folds", description: "number of folds", required: false, default: "10", kind: { type: "integer", min: 2, max: 100 } },
    { name: "random_seed", description: "seed of the fold assignment (src/validate/folds.ts documents the algorithm)", required: false, default: "1", kind: { type: "integer", min: 0, max: 4294967295 } },
    { name: "stratified", description: "false, or true: folds keep the class proportions (numeric endpoints: value-sorted blocks)", required: false, default: "false", kind: { type: "enum", values: ["false", "true"] } },
  ],
};

export interface CrossValidationRequest {
  readonly title: string;
  readonly datasetUri: string;
  readonly endpoint: string;
  readonly algorithmUri: string;
  readonly algorithmParams: string;
  readonly numFolds: number;
  readonly seed: number;
  readonly stratified: boolean;
  readonly classes: readonly string[];
  /** One per measured value: compound, SMILES (row spelling), activity (class 1…k or value). */
  /** Per measured value: the compound, the structure as its row draws it, the compound's InChI. */
  readonly instances: readonly { readonly compound: string; readonly smiles: string | null; readonly inchi?: string; readonly activity: number; readonly label: string }[];
  /** Features: mined per training fold (settings; per-mil minimum frequency recomputed per fold), or stored. */
  readonly features:
    | { readonly kind: "mined"; readonly fold: Omit<FoldInput, "train" | "test">; readonly frequency: { readonly absolute: number } | { readonly perMil: number } }
    | { readonly kind: "stored"; readonly data: ModelData };
}

/** `name=value;name=value` → raw parameters (a name may not repeat). */
export function parseAlgorithmParams(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of text.split(";").map((x) => x.trim()).filter(Boolean)) {
    const eq = part.indexOf("=");
    if (eq <= 0) throw new BadRequest(`parameter 'algorithm_params': '${part}' is not name=value`, { field: "algorithm_params" });
    const name = part.slice(0, eq).trim();
    out.set(name, [...(out.get(name) ?? []), part.slice(eq + 1).trim()]);
  }
  return out;
}

export async function crossValidationRequest(params: Params, rawAlgorithmParams: string, store: GraphStore, uris: Uris, v: Vocab): Promise<CrossValidationRequest> {
  const algorithmUri = params.string("algorithm_uri")!;
  if (![`${uris.algorithms()}/qsar`, `${uris.algorithms()}/lazar`].includes(algorithmUri)) {
    throw new BadRequest(`parameter 'algorithm_uri': ${algorithmUri} cannot be cross-validated here; use ${uris.algorithms()}/qsar`, { field: "algorithm_uri" });
  }
  const raw = parseAlgorithmParams(rawAlgorithmParams);
  for (const n of ["dataset_uri", "prediction_feature"]) {
    if (raw.has(n)) throw new BadRequest(`algorithm_params must not contain ${n}: it is a parameter of the cross-validation itself`, { field: "algorithm_params" });
  }
  const datasetUri = params.string("dataset_uri")!;
  raw.set("dataset_uri", [datasetUri]);
  const pf = params.string("prediction_feature");
  if (pf !== undefined) raw.set("prediction_feature", [pf]);
  const modelParams = parseParams(LAZAR, raw);
  const m = await modelRequest(modelParams, raw, store, uris, v);
  if (m.generator.kind === "descriptors") {
    throw new BadRequest(
      `descriptors computed on the fly are not cross-validated: they do not depend on the endpoint, so compute them once (POST ${datasetUri}/pc) and give the result as feature_dataset_uri in algorithm_params`,
      { field: "algorithm_params" },
    );
  }
  const classes = m.record.classes;
  const instances: CrossValidationRequest["instances"][number][] = [];
  for (const r of await readColumn(new EntryOrder(store, v), datasetUri, m.record.endpoint)) {
    const activity = classes.length > 0 ? classes.indexOf(r.value) + 1 : Number(r.value);
    if (!Number.isFinite(activity) || activity === 0) continue;
    instances.push({ compound: r.compound, smiles: r.smiles ?? r.compoundSmiles ?? null, ...(r.inchi !== undefined ? { inchi: r.inchi } : {}), activity, label: r.value });
  }
  const seed = params.number("random_seed")!;
  const numFolds = params.number("num_folds")!;
  const stratified = params.string("stratified") === "true";
  try {
    assignFolds(instances.map((i) => i.compound), { numFolds, seed, stratified }, instances.map((i) => i.label));
  } catch (e) {
    if (e instanceof FoldError) throw new BadRequest(`cannot make the folds: ${e.message}`, { field: "num_folds" });
    throw e;
  }
  const common = {
    title: `Cross-validation of ${m.title}`,
    datasetUri,
    endpoint: m.record.endpoint,
    algorithmUri,
    algorithmParams: rawAlgorithmParams,
    numFolds,
    seed,
    stratified,
    classes,
    instances,
  };
  if (m.generator.kind === "stored") {
    const data = await buildModelData(store, { ...m.record, uri: `${datasetUri}#crossvalidation`, featureDataset: m.generator.uri }, v);
    return { ...common, features: { kind: "stored", data } };
  }
  const miner = m.generator.request.input;
  return {
    ...common,
    features: {
      kind: "mined",
      frequency: modelParams.frequency("min_frequency") ?? (miner.miner === "last" ? { perMil: 80 } : { perMil: 5 }),
      fold: {
        miner: { miner: miner.miner, options: miner.options } as FoldInput["miner"],
        classes,
        algorithm: m.record.predictionAlgorithm as FoldInput["algorithm"],
        minSim: m.record.minSim,
        minTrainPerformance: m.record.minTrainPerformance,
        nrHits: m.record.nrHits,
      },
    },
  };
}

function statisticsQuads(cv: string, r: CrossValidationResult, v: Vocab): Quad[] {
  const s = iri(cv);
  const q: Quad[] = [];
  for (const [k, x] of Object.entries(r.pooled)) {
    if (typeof x === "number" && Number.isFinite(x)) q.push(quad(s, iri(`${v.qgNs}${k}`), dbl(x)));
  }
  return q;
}

export function crossValidationOperation(request: CrossValidationRequest, cvUri: string, v: Vocab): Operation {
  return async (ctx) => {
    const t0 = Date.now();
    const folds = assignFolds(request.instances.map((i) => i.compound), { numFolds: request.numFolds, seed: request.seed, stratified: request.stratified }, request.instances.map((i) => i.label));
    const foldOf = (i: number): number => folds.instanceFold[i]!;
    const done = new Array<number>(request.numFolds).fill(0);
    const outputs = await Promise.all(
      Array.from({ length: request.numFolds }, async (_, k) => {
        const testKeys = new Map<string, string | null>();
        request.instances.forEach((x, i) => foldOf(i) === k && !testKeys.has(x.compound) && testKeys.set(x.compound, x.smiles));
        const onProgress = (f: number): void => {
          done[k] = f;
          ctx.progress((0.95 * done.reduce((a, b) => a + b, 0)) / request.numFolds);
        };
        const features = request.features;
        let out: FoldOutput;
        if (features.kind === "stored") {
          out = await ctx.run("cv.fold.stored", { data: features.data, test: [...testKeys.keys()] }, onProgress);
        } else {
          const train = request.instances.flatMap((x, i) => (foldOf(i) !== k && x.smiles !== null ? [{ key: x.compound, smiles: x.smiles, ...(x.inchi !== undefined ? { inchi: x.inchi } : {}), activity: x.activity }] : []));
          const minfreq = absoluteFrequency(features.frequency, train.length);
          const input: FoldInput = {
            ...features.fold,
            miner: { ...features.fold.miner, options: { ...features.fold.miner.options, minfreq } } as FoldInput["miner"],
            train,
            test: [...testKeys].map(([key, smiles]) => ({ key, smiles })),
          };
          out = await ctx.run("cv.fold", input, onProgress);
        }
        done[k] = 1;
        return out;
      }),
    );
    const byKey = new Map<string, { value: number | null; confidence: number }>();
    outputs.forEach((o) => o.predictions.forEach((p) => byKey.set(p.key, { value: p.value, confidence: p.confidence })));
    const label = (x: number | null): string | number | null => (x === null ? null : request.classes.length > 0 ? (request.classes[Math.round(x) - 1] ?? null) : x);
    const predictions = request.instances.map((x, i) => {
      const p = byKey.get(x.compound);
      const predicted = p ? label(p.value) : null;
      return { compound: x.compound, fold: foldOf(i), measured: request.classes.length > 0 ? x.label : x.activity, predicted, confidence: predicted === null ? null : (p?.confidence ?? null) };
    });
    const result = resultOf(request, cvUri, predictions, Date.now() - t0);
    const s = iri(cvUri);
    const q: Quad[] = [
      quad(s, rdf.type, iri(`${NS.ot}Validation`)),
      quad(s, rdf.type, v.qg.CrossValidation),
      quad(s, dc.title, str(request.title)),
      quad(s, dc.date, dateTime(new Date())),
      quad(s, iri(`${NS.ot}algorithm`), iri(request.algorithmUri)),
      quad(s, iri(`${NS.ot}trainingDataset`), iri(request.datasetUri)),
      quad(s, iri(`${NS.ot}dependentVariables`), iri(request.endpoint)),
      quad(s, v.qg.algorithmParams, str(request.algorithmParams)),
      quad(s, v.qg.numFolds, int(request.numFolds)),
      quad(s, v.qg.randomSeed, int(request.seed)),
      quad(s, v.qg.stratified, bool(request.stratified)),
      quad(s, v.qg.runtimeMs, int(Date.now() - t0)),
    ];
    request.classes.forEach((c, i) => q.push(quad(s, v.qg.classValue, str(`${i + 1}\t${c}`))));
    q.push(...statisticsQuads(cvUri, result, v));
    predictions.forEach((p, i) => {
      const n = iri(`${cvUri}#p${i}`);
      const val = (x: string | number): Quad["object"] => (typeof x === "number" ? dbl(x) : str(x));
      q.push(quad(s, v.qg.prediction, n), quad(n, ot.compound, iri(p.compound)), quad(n, v.qg.fold, int(p.fold + 1)), quad(n, v.qg.measuredActivity, val(p.measured)));
      if (p.predicted !== null) q.push(quad(n, v.qg.predictedValue, val(p.predicted)), quad(n, v.qg.confidence, dbl(p.confidence ?? 0)));
    });
    return { ops: [{ graph: cvUri, ntriples: toNTriples(q) }], resultUri: cvUri };
  };
}

function resultOf(r: Pick<CrossValidationRequest, "algorithmUri" | "datasetUri" | "endpoint" | "algorithmParams" | "numFolds" | "seed" | "stratified" | "classes">, uri: string, predictions: readonly PredictionInstance<string | number>[], runtimeMs: number): CrossValidationResult {
  const base = {
    uri,
    parameters: { algorithmUri: r.algorithmUri, datasetUri: r.datasetUri, predictionFeature: r.endpoint, algorithmParams: r.algorithmParams, numFolds: r.numFolds, randomSeed: r.seed, stratified: r.stratified },
    runtimeMs,
  };
  return r.classes.length > 0
    ? crossValidationResult(base, { type: "classification", classes: r.classes, predictions: predictions as PredictionInstance<string>[] })
    : crossValidationResult(base, { type: "regression", predictions: predictions as PredictionInstance<number>[] });
}

/** The cross-validation result, recomputed from the stored predictions (null when not a cross-validation). */
export function readCrossValidation(store: GraphStore, uri: string, v: Vocab): CrossValidationResult | null {
  const g = ox.namedNode(uri);
  const one = (p: string): string | undefined => store.ox.match(ox.namedNode(uri), ox.namedNode(p), null, g)[0]?.object.value;
  if (one(v.qg.numFolds.value) === undefined) return null;
  const classes = store.ox
    .match(ox.namedNode(uri), ox.namedNode(v.qg.classValue.value), null, g)
    .map((q) => q.object.value.split("\t") as [string, string])
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .map(([, c]) => c);
  const rows = store.ox.query(
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
  return resultOf(
    {
      algorithmUri: one(`${NS.ot}algorithm`) ?? "",
      datasetUri: one(`${NS.ot}trainingDataset`) ?? "",
      endpoint: one(`${NS.ot}dependentVariables`) ?? "",
      algorithmParams: one(v.qg.algorithmParams.value) ?? "",
      numFolds: Number(one(v.qg.numFolds.value)),
      seed: Number(one(v.qg.randomSeed.value)),
      stratified: one(v.qg.stratified.value) === "true",
      classes,
    },
    uri,
    predictions,
    Number(one(v.qg.runtimeMs.value) ?? 0),
  );
}
