/**
 * lazar model resources ↔ quads (docs/lazar-method.md "Model and prediction resources"). The model
 * graph holds the OpenTox record and what prediction needs besides the training and feature
 * datasets (which it links to; a model is lazy: its "learning" is its training data):
 *
 *   <m> a ot:Model, ota:ClassificationLazySingleTarget | ota:RegressionLazySingleTarget ;
 *       dc:title "lazar model for <endpoint>" ; dc:date ; ot:algorithm <…/algorithm/lazar> ;
 *       ot:trainingDataset <d> ; ot:featureDataset <fd> ; ot:dependentVariables <endpoint> ;
 *       ot:predictedVariables <m/predicted/value>, <m/predicted/confidence> ;
 *       ot:parameters <m#param-{name}> … ;
 *       qg:predictionAlgorithm "…" ; qg:minSim x ; qg:minTrainPerformance x ; qg:featureKind
 *       "substructure"|"descriptor" ; qg:nrHits bool ; qg:version "…" .
 *   <m/predicted/value> a ot:Feature, ot:ModelPrediction ; dc:title "<endpoint title>" ;
 *       ot:hasSource <m> ; qg:predicts <endpoint> ; (ot:NominalFeature + ot:acceptValue | ot:NumericFeature) .
 *   <m/predicted/confidence> a ot:Feature, ot:NumericFeature, ot:ModelPrediction ;
 *       dc:title "<endpoint title> confidence" ; ot:hasSource <m> .
 */
import { DataFactory } from "n3";
import type { Quad } from "@rdfjs/types";
import * as ox from "oxigraph";
import { toNTriples } from "../store/ntriples.ts";
import { readCreator } from "./creator.ts";
import { bool, dateTime, dbl, dc, iri, NS, ot, rdf, str, type Vocab } from "../store/vocab.ts";

const { quad } = DataFactory;

/** Substructures or descriptors of a feature dataset (lazar), or features computed inside the model (the global models, kernel_svm and random_forest: no feature dataset). */
export type FeatureKind = "substructure" | "descriptor" | "fingerprints";

export interface ModelRecord {
  readonly uri: string;
  readonly title: string;
  readonly created: Date;
  readonly algorithm: string;
  readonly trainingDataset: string;
  readonly featureDataset: string;
  readonly endpoint: string;
  readonly endpointTitle: string;
  /** Accept values of a nominal endpoint in class order (1…k); empty for a numeric one. */
  readonly classes: readonly string[];
  readonly predictionAlgorithm: string;
  /** On the user's scale. */
  readonly minSim: number;
  readonly minTrainPerformance: number;
  readonly featureKind: FeatureKind;
  readonly nrHits: boolean;
  readonly version: string;
  readonly parameters: readonly (readonly [string, string])[];
  /** Training compounds with fingerprints / descriptor rows, and the number of features. */
  readonly trainingCompounds: number;
  readonly features: number;
}

export function predictedValueUri(model: string): string {
  return `${model}/predicted/value`;
}

export function predictedConfidenceUri(model: string): string {
  return `${model}/predicted/confidence`;
}

const OTA = NS.ota;

/** The predicted-variable features (also copied into every prediction dataset). */
export function predictedFeatureQuads(m: Pick<ModelRecord, "uri" | "endpoint" | "endpointTitle" | "classes">, v: Vocab): Quad[] {
  const value = iri(predictedValueUri(m.uri));
  const conf = iri(predictedConfidenceUri(m.uri));
  const model = iri(m.uri);
  const q: Quad[] = [
    quad(value, rdf.type, ot.Feature),
    quad(value, rdf.type, iri(`${NS.ot}ModelPrediction`)),
    quad(value, rdf.type, m.classes.length > 0 ? ot.NominalFeature : ot.NumericFeature),
    quad(value, dc.title, str(m.endpointTitle)),
    quad(value, ot.hasSource, model),
    quad(value, v.qg.predicts, iri(m.endpoint)),
    quad(conf, rdf.type, ot.Feature),
    quad(conf, rdf.type, ot.NumericFeature),
    quad(conf, rdf.type, iri(`${NS.ot}ModelPrediction`)),
    quad(conf, dc.title, str(`${m.endpointTitle} confidence`)),
    quad(conf, ot.hasSource, model),
  ];
  for (const c of m.classes) q.push(quad(value, ot.acceptValue, str(c)));
  return q;
}

export function modelNTriples(m: ModelRecord, v: Vocab): string {
  const s = iri(m.uri);
  const q: Quad[] = [
    quad(s, rdf.type, ot.Model),
    quad(s, rdf.type, iri(`${OTA}${m.classes.length > 0 ? "Classification" : "Regression"}${m.featureKind === "fingerprints" ? "Eager" : "Lazy"}SingleTarget`)),
    quad(s, dc.title, str(m.title)),
    quad(s, dc.date, dateTime(m.created)),
    quad(s, iri(`${NS.ot}algorithm`), iri(m.algorithm)),
    quad(s, iri(`${NS.ot}trainingDataset`), iri(m.trainingDataset)),
    quad(s, iri(`${NS.ot}dependentVariables`), iri(m.endpoint)),
    quad(s, iri(`${NS.ot}predictedVariables`), iri(predictedValueUri(m.uri))),
    quad(s, iri(`${NS.ot}predictedVariables`), iri(predictedConfidenceUri(m.uri))),
    quad(s, v.qg.predictionAlgorithm, str(m.predictionAlgorithm)),
    quad(s, v.qg.minSim, dbl(m.minSim)),
    quad(s, v.qg.minTrainPerformance, dbl(m.minTrainPerformance)),
    quad(s, v.qg.featureKind, str(m.featureKind)),
    quad(s, v.qg.nrHits, bool(m.nrHits)),
    quad(s, v.qg.version, str(m.version)),
    quad(s, v.qg.endpointTitle, str(m.endpointTitle)),
    quad(s, v.qg.numberOfCompounds, DataFactory.literal(String(m.trainingCompounds), iri(`${NS.xsd}integer`))),
    quad(s, v.qg.numberOfFeatures, DataFactory.literal(String(m.features), iri(`${NS.xsd}integer`))),
  ];
  if (m.featureDataset !== "") q.push(quad(s, iri(`${NS.ot}featureDataset`), iri(m.featureDataset)));
  m.classes.forEach((c, i) => q.push(quad(s, v.qg.classValue, str(`${i + 1}\t${c}`))));
  for (const [name, value] of m.parameters) {
    const p = iri(`${m.uri}#param-${encodeURIComponent(name)}`);
    q.push(quad(s, ot.parameters, p), quad(p, rdf.type, ot.Parameter), quad(p, dc.title, str(name)), quad(p, ot.paramValue, str(value)));
  }
  q.push(...predictedFeatureQuads(m, v));
  return toNTriples(q);
}

/** The model record from its graph (null when the graph is not a model). */
export function readModel(store: ox.Store, uri: string, v: Vocab): ModelRecord | null {
  const g = ox.namedNode(uri);
  const props = new Map<string, string[]>();
  for (const q of store.match(ox.namedNode(uri), null, null, g)) {
    const l = props.get(q.predicate.value) ?? [];
    l.push(q.object.value);
    props.set(q.predicate.value, l);
  }
  if (!(props.get(rdf.type.value) ?? []).includes(ot.Model.value)) return null;
  const one = (p: string): string => props.get(p)?.[0] ?? "";
  const parameters = (props.get(ot.parameters.value) ?? [])
    .map((p) => {
      const title = store.match(ox.namedNode(p), ox.namedNode(dc.title.value), null, g)[0]?.object.value ?? "";
      const value = store.match(ox.namedNode(p), ox.namedNode(ot.paramValue.value), null, g)[0]?.object.value ?? "";
      return [title, value] as const;
    })
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const classes = (props.get(v.qg.classValue.value) ?? [])
    .map((x) => x.split("\t") as [string, string])
    .sort((a, b) => Number(a[0]) - Number(b[0]))
    .map(([, c]) => c);
  return {
    uri,
    title: one(dc.title.value),
    created: new Date(one(dc.date.value)),
    algorithm: one(`${NS.ot}algorithm`),
    trainingDataset: one(`${NS.ot}trainingDataset`),
    featureDataset: one(`${NS.ot}featureDataset`),
    endpoint: one(`${NS.ot}dependentVariables`),
    endpointTitle: one(v.qg.endpointTitle.value),
    classes,
    predictionAlgorithm: one(v.qg.predictionAlgorithm.value),
    minSim: Number(one(v.qg.minSim.value)),
    minTrainPerformance: Number(one(v.qg.minTrainPerformance.value)),
    featureKind: (["descriptor", "fingerprints"] as const).find((k) => k === one(v.qg.featureKind.value)) ?? "substructure",
    nrHits: one(v.qg.nrHits.value) === "true",
    version: one(v.qg.version.value),
    parameters,
    trainingCompounds: Number(one(v.qg.numberOfCompounds.value) || 0),
    features: Number(one(v.qg.numberOfFeatures.value) || 0),
  };
}

/** The models whose training or feature dataset `dataset` is, in URI order. */
export function modelsUsing(store: ox.Store, dataset: string): string[] {
  const rows = store.query(`SELECT DISTINCT ?m WHERE { GRAPH ?m { ?m <${NS.ot}trainingDataset>|<${NS.ot}featureDataset> <${dataset}> } } ORDER BY ?m`) as Map<string, { value: string }>[];
  return rows.map((r) => r.get("m")!.value);
}

/**
 * The prediction datasets of model `model` for compound `compound` made for `creator` (the
 * token's name, or none), in the store's order: found through the compound's URI as the value of
 * a dataset's `compound_uri` parameter (an object-index lookup), then checked: a dataset of this
 * model, whose parameter is that one, of the same creator. Whether one may be served (not
 * pending) is the caller's to check (lazar/predict.ts storedPrediction).
 */
export function readStoredPredictions(store: ox.Store, model: string, compound: string, creator: string | undefined, v: Vocab): string[] {
  const title = ox.namedNode(dc.title.value);
  const modelOf = ox.namedNode(v.qg.model.value);
  const out: string[] = [];
  for (const q of store.match(null, ox.namedNode(ot.paramValue.value), ox.literal(compound), null)) {
    const graph = q.graph;
    if (graph.termType !== "NamedNode") continue;
    if (store.match(graph, modelOf, ox.namedNode(model), graph).length === 0) continue;
    if (store.match(q.subject, title, ox.literal("compound_uri"), graph).length === 0) continue;
    if (readCreator(store, graph.value, v) !== creator) continue;
    out.push(graph.value);
  }
  return out;
}
