/**
 * Reading a prediction dataset back for its page (http/html/prediction.ts): what a model's
 * prediction stores (docs/lazar-method.md "Model and prediction resources"; the entries of
 * algorithms/lazar/job.ts and algorithms/global/entries.ts):
 *
 *   <pd> qg:model <m> ; ot:dependentVariables <endpoint> ; ot:parameters [compound_uri | dataset_uri] .
 *   <pd#e{line}> ot:compound <c> ; qg:line ; ot:values [<m/predicted/value> v], [<m/predicted/confidence> x],
 *       [<endpoint> measured]… ; qg:measured ; qg:reason ; qg:numberOfNeighbours ;
 *       qg:nearestSimilarity ; qg:insideDomain ; qg:domainThreshold ; qg:domainNote ;
 *       qg:pValue [qg:forClass ; qg:confidence] ; qg:intervalLower ; qg:intervalUpper ; qg:confidenceLevel ;
 *       qg:neighbour [ot:compound ; qg:similarity ; qg:measuredActivity] ; qg:matchedFeature <f> .
 *
 * Each function reads only what one page shows (a page of entries, one entry's neighbours), and
 * runs where the store lives (a named read of reads.ts).
 */
import * as ox from "oxigraph";
import { dc, NS, ot, type Vocab } from "../store/vocab.ts";
import { predictedConfidenceUri, predictedValueUri } from "./model.ts";
import { entryRefsOn, readCompound, type CompoundView } from "./dataset-read.ts";

/** What a prediction dataset says of itself (null: the dataset is no model's prediction). */
export interface PredictionHeader {
  readonly uri: string;
  readonly title: string;
  readonly created: string;
  readonly model: string;
  readonly endpoint: string;
  readonly endpointTitle: string;
  /** What was predicted: ["compound_uri", c] or ["dataset_uri", d]. */
  readonly parameter: readonly [string, string];
  readonly entries: number;
}

function objects(store: ox.Store, s: string, p: string, g: ox.NamedNode): string[] {
  return store.match(ox.namedNode(s), ox.namedNode(p), null, g).map((q) => q.object.value);
}

export function readPredictionHeader(store: ox.Store, uri: string, v: Vocab): PredictionHeader | null {
  const g = ox.namedNode(uri);
  const model = objects(store, uri, v.qg.model.value, g)[0];
  if (model === undefined) return null;
  const endpoint = objects(store, uri, `${NS.ot}dependentVariables`, g)[0] ?? "";
  const param = objects(store, uri, ot.parameters.value, g)[0];
  return {
    uri,
    title: objects(store, uri, dc.title.value, g)[0] ?? "",
    created: objects(store, uri, dc.date.value, g)[0] ?? "",
    model,
    endpoint,
    endpointTitle: endpoint === "" ? "" : (objects(store, endpoint, dc.title.value, g)[0] ?? ""),
    parameter: param === undefined ? ["", ""] : [objects(store, param, dc.title.value, g)[0] ?? "", objects(store, param, ot.paramValue.value, g)[0] ?? ""],
    entries: Number(objects(store, uri, v.qg.numberOfEntries.value, g)[0] ?? 0),
  };
}

/** One training compound a prediction was read across from. */
export interface NeighbourView {
  readonly compound: string;
  readonly smiles?: string;
  readonly similarity: number;
  readonly measured: string;
}

/** A substructure of a lazar model's feature dataset found in the query. */
export interface FragmentView {
  readonly uri: string;
  readonly smarts: string;
  readonly support?: number;
  /** "class=count" per class (classification endpoints). */
  readonly classCounts: readonly string[];
}

/** One entry of a prediction dataset, as its page shows it. */
export interface PredictionEntryView {
  readonly line: number;
  readonly compound: string;
  readonly structure: CompoundView | null;
  /** The predicted value (a class or a number as written), if any. */
  readonly predicted?: string;
  readonly confidence?: number;
  /** The query is a training compound: its measured values (then nothing is predicted). */
  readonly measured: readonly string[];
  readonly reason?: string;
  readonly neighbours?: number;
  readonly nearestSimilarity?: number;
  readonly insideDomain?: boolean;
  readonly domainThreshold?: number;
  readonly domainNote?: string;
  /** Classes: each class's conformal p-value, in the order of the class names. */
  readonly pValues: readonly (readonly [string, number])[];
  readonly interval?: readonly [number, number];
  readonly confidenceLevel?: number;
}

/** The detail of one entry: its neighbours (most similar first) and the model's fragments found in it. */
export interface PredictionDetail {
  readonly neighbours: readonly NeighbourView[];
  readonly fragments: readonly FragmentView[];
}

function entryOf(store: ox.Store, g: ox.NamedNode, ref: { entry: string; line: number; compound: string }, model: string, endpoint: string, v: Vocab): PredictionEntryView {
  const p = new Map<string, string[]>();
  for (const q of store.match(ox.namedNode(ref.entry), null, null, g)) p.set(q.predicate.value, [...(p.get(q.predicate.value) ?? []), q.object.value]);
  const one = (t: { value: string }): string | undefined => p.get(t.value)?.[0];
  const num = (t: { value: string }): number | undefined => {
    const x = one(t);
    return x === undefined ? undefined : Number(x);
  };
  const byFeature = new Map<string, string[]>();
  for (const vn of p.get(ot.values.value) ?? []) {
    const f = objects(store, vn, ot.feature.value, g)[0];
    const x = objects(store, vn, ot.value.value, g)[0];
    if (f !== undefined && x !== undefined) byFeature.set(f, [...(byFeature.get(f) ?? []), x]);
  }
  const pValues = (p.get(v.qg.pValue.value) ?? [])
    .map((n) => [objects(store, n, v.qg.forClass.value, g)[0] ?? "", Number(objects(store, n, v.qg.confidence.value, g)[0])] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const lo = num(v.qg.intervalLower);
  const hi = num(v.qg.intervalUpper);
  const inside = one(v.qg.insideDomain);
  const predicted = byFeature.get(predictedValueUri(model))?.[0];
  const confidence = byFeature.get(predictedConfidenceUri(model))?.[0];
  const optional = {
    predicted,
    confidence: confidence === undefined ? undefined : Number(confidence),
    reason: one(v.qg.reason),
    neighbours: num(v.qg.numberOfNeighbours),
    nearestSimilarity: num(v.qg.nearestSimilarity),
    insideDomain: inside === undefined ? undefined : inside === "true",
    domainThreshold: num(v.qg.domainThreshold),
    domainNote: one(v.qg.domainNote),
    interval: lo !== undefined && hi !== undefined ? ([lo, hi] as const) : undefined,
    confidenceLevel: num(v.qg.confidenceLevel),
  };
  return {
    line: ref.line,
    compound: ref.compound,
    structure: readCompound(store, ref.compound, v),
    measured: one(v.qg.measured) === "true" ? (byFeature.get(endpoint) ?? []) : [],
    pValues,
    ...Object.fromEntries(Object.entries(optional).filter(([, x]) => x !== undefined)),
  };
}

/** The entries of prediction dataset `uri` on `lines` (a page), in line order. */
export function readPredictionEntries(store: ox.Store, uri: string, v: Vocab, lines: Int32Array | readonly number[], model: string, endpoint: string): PredictionEntryView[] {
  const g = ox.namedNode(uri);
  return entryRefsOn(store, uri, v, lines).map((ref) => entryOf(store, g, ref, model, endpoint, v));
}

/**
 * The neighbours of the entry on `line` (every one, most similar first; a lazar model may have
 * hundreds: the page shows a page of them) and the fragments it matched, with their SMARTS from
 * the feature datasets that define them.
 */
export function readPredictionDetail(store: ox.Store, uri: string, v: Vocab, line: number): PredictionDetail {
  const g = ox.namedNode(uri);
  const entry = entryRefsOn(store, uri, v, [line])[0]?.entry;
  if (entry === undefined) return { neighbours: [], fragments: [] };
  const neighbours = objects(store, entry, v.qg.neighbour.value, g)
    .map((n): NeighbourView => {
      const compound = objects(store, n, ot.compound.value, g)[0] ?? "";
      return { compound, similarity: Number(objects(store, n, v.qg.similarity.value, g)[0]), measured: objects(store, n, v.qg.measuredActivity.value, g)[0] ?? "" };
    })
    .sort((a, b) => b.similarity - a.similarity || (a.compound < b.compound ? -1 : a.compound > b.compound ? 1 : 0));
  const fragments = objects(store, entry, v.qg.matchedFeature.value, g).map((f): FragmentView => {
    // A feature URI is <feature dataset>/feature/<name>: its description lives in that graph.
    const fg = ox.namedNode(f.slice(0, f.indexOf("/feature/")));
    const smarts = objects(store, f, `${NS.ot}smarts`, fg)[0] ?? objects(store, f, dc.title.value, fg)[0] ?? "";
    const support = objects(store, f, v.qg.support.value, fg)[0];
    return { uri: f, smarts, ...(support !== undefined ? { support: Number(support) } : {}), classCounts: objects(store, f, v.qg.classCount.value, fg).sort() };
  });
  fragments.sort((a, b) => (b.support ?? 0) - (a.support ?? 0) || (a.smarts < b.smarts ? -1 : a.smarts > b.smarts ? 1 : 0));
  return { neighbours, fragments };
}

/** The structures of some compounds (a page of neighbours), as their graphs give them (null: not stored). */
export function readStructures(store: ox.Store, compounds: readonly string[], v: Vocab): (CompoundView | null)[] {
  return compounds.map((c) => readCompound(store, c, v));
}
