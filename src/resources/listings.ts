/**
 * What the collections' pages show of each member (title, date, size and a few facts), and what
 * the dataset and compound pages list of related resources (the models and cross-validations of a
 * dataset; the datasets and predictions a compound is in). Each function answers for a whole list
 * at once (one named read of resources/reads.ts per page), reading only the few triples it shows
 * by their subject and predicate (index lookups): a dataset's `ot:dataEntry` links are never
 * read, so a list of large datasets costs what a list of small ones does.
 */
import * as ox from "oxigraph";
import { dc, NS, ot, rdfs, type Vocab } from "../store/vocab.ts";

/** The first object of (subject, predicate) in graph `graph` (default: the subject's own graph). */
function one(store: ox.Store, subject: string, predicate: string, graph = subject): string | undefined {
  return store.match(ox.namedNode(subject), ox.namedNode(predicate), null, ox.namedNode(graph))[0]?.object.value;
}

function num(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/** What kind of dataset: an upload, a computed feature dataset (descriptors, miners, RFE), or a model's predictions. */
export type DatasetKind = "upload" | "computed" | "prediction";

export interface DatasetRow {
  readonly uri: string;
  readonly title: string;
  readonly created?: string;
  readonly compounds?: number;
  readonly entries?: number;
  readonly features?: number;
  readonly kind: DatasetKind;
  /** A computed dataset's source dataset, a prediction's model. */
  readonly from?: string;
}

/** The list rows of datasets (null for a URI that is not a dataset, e.g. deleted meanwhile). */
export function readDatasetRows(store: ox.Store, uris: readonly string[], v: Vocab): (DatasetRow | null)[] {
  return uris.map((uri) => {
    const title = one(store, uri, dc.title.value);
    const model = one(store, uri, v.qg.model.value);
    if (title === undefined && model === undefined && !store.has(ox.quad(ox.namedNode(uri), ox.namedNode(`${NS.rdf}type`), ox.namedNode(ot.Dataset.value), ox.namedNode(uri)))) return null;
    const algorithm = one(store, uri, v.qg.algorithm.value);
    const kind: DatasetKind = model !== undefined ? "prediction" : algorithm !== undefined ? "computed" : "upload";
    const from = model ?? (algorithm !== undefined ? one(store, uri, ot.hasSource.value) : undefined);
    const created = one(store, uri, dc.date.value);
    const compounds = num(one(store, uri, v.qg.numberOfCompounds.value));
    const entries = num(one(store, uri, v.qg.numberOfEntries.value));
    const features = num(one(store, uri, v.qg.numberOfFeatures.value));
    return {
      uri,
      title: title ?? "",
      kind,
      ...(created !== undefined ? { created } : {}),
      ...(compounds !== undefined ? { compounds } : {}),
      ...(entries !== undefined ? { entries } : {}),
      ...(features !== undefined ? { features } : {}),
      ...(from !== undefined ? { from } : {}),
    };
  });
}

export interface ModelRow {
  readonly uri: string;
  readonly title: string;
  readonly created?: string;
  readonly trainingCompounds?: number;
  readonly trainingDataset: string;
  /** The prediction algorithm (`kernel_svm`, `weighted_majority_vote`, …). */
  readonly algorithm: string;
  readonly endpoint: string;
  readonly endpointTitle: string;
  /** A classification model's classes (empty: regression). */
  readonly classification: boolean;
}

/** The list rows of models (null for a URI that is not a model). */
export function readModelRows(store: ox.Store, uris: readonly string[], v: Vocab): (ModelRow | null)[] {
  return uris.map((uri) => {
    const algorithm = one(store, uri, v.qg.predictionAlgorithm.value);
    if (algorithm === undefined) return null;
    const created = one(store, uri, dc.date.value);
    const n = num(one(store, uri, v.qg.numberOfCompounds.value));
    return {
      uri,
      title: one(store, uri, dc.title.value) ?? "",
      ...(created !== undefined ? { created } : {}),
      ...(n !== undefined ? { trainingCompounds: n } : {}),
      trainingDataset: one(store, uri, `${NS.ot}trainingDataset`) ?? "",
      algorithm,
      endpoint: one(store, uri, `${NS.ot}dependentVariables`) ?? "",
      endpointTitle: one(store, uri, v.qg.endpointTitle.value) ?? "",
      classification: one(store, uri, v.qg.classValue.value) !== undefined,
    };
  });
}

export interface ValidationRow {
  readonly uri: string;
  readonly kind: "crossvalidation" | "report";
  readonly title: string;
  readonly created?: string;
  /** A cross-validation's dataset, prediction algorithm, folds, and pooled figures as stored. */
  readonly dataset?: string;
  readonly algorithm?: string;
  readonly folds?: number;
  readonly instances?: number;
  readonly predicted?: number;
  readonly accuracy?: number;
  readonly rmse?: number;
  /** A report's cross-validations. */
  readonly validations?: readonly string[];
}

/** The list rows of cross-validations and reports (null for a URI that is neither). */
export function readValidationRows(store: ox.Store, uris: readonly string[], v: Vocab): (ValidationRow | null)[] {
  const stat = (uri: string, k: string): number | undefined => num(one(store, uri, `${v.qgNs}${k}`));
  return uris.map((uri): ValidationRow | null => {
    const title = one(store, uri, dc.title.value) ?? "";
    const created = one(store, uri, dc.date.value);
    const date = created !== undefined ? { created } : {};
    const folds = num(one(store, uri, v.qg.numFolds.value));
    if (folds !== undefined) {
      const fields = {
        dataset: one(store, uri, `${NS.ot}trainingDataset`),
        algorithm: one(store, uri, v.qg.predictionAlgorithm.value) ?? one(store, uri, `${NS.ot}algorithm`),
        instances: stat(uri, "numInstances"),
        predicted: stat(uri, "numPredicted"),
        accuracy: stat(uri, "accuracy"),
        rmse: stat(uri, "rootMeanSquaredError"),
      };
      const defined = Object.fromEntries(Object.entries(fields).filter(([, x]) => x !== undefined));
      return { uri, kind: "crossvalidation", title, ...date, folds, ...defined };
    }
    if (!store.has(ox.quad(ox.namedNode(uri), ox.namedNode(`${NS.rdf}type`), ox.namedNode(v.qg.Report.value), ox.namedNode(uri)))) return null;
    const validations = store.match(ox.namedNode(uri), ox.namedNode(v.qg.validation.value), null, ox.namedNode(uri)).map((q) => q.object.value).sort();
    return { uri, kind: "report", title, ...date, validations };
  });
}

/** Graphs whose node says `<g> <predicate> <object>` (an object-index lookup), in URI order. */
function graphsWith(store: ox.Store, predicate: string, object: string): string[] {
  const out = new Set<string>();
  for (const q of store.match(null, ox.namedNode(predicate), ox.namedNode(object), null)) {
    if (q.graph.termType === "NamedNode" && q.subject.value === q.graph.value) out.add(q.graph.value);
  }
  return [...out].sort();
}

/** The models trained on dataset `dataset` (its training dataset), as list rows. */
export function readModelsOf(store: ox.Store, dataset: string, v: Vocab): ModelRow[] {
  return readModelRows(store, graphsWith(store, `${NS.ot}trainingDataset`, dataset), v).filter((r): r is ModelRow => r !== null);
}

/** The cross-validations of dataset `dataset`, as list rows. */
export function readValidationsOf(store: ox.Store, dataset: string, v: Vocab): ValidationRow[] {
  return readValidationRows(store, graphsWith(store, `${NS.ot}trainingDataset`, dataset), v).filter((r): r is ValidationRow => r !== null && r.kind === "crossvalidation");
}

/** The prediction datasets made from dataset `dataset` (POST /model/{id} with `dataset_uri`), as list rows. */
export function readPredictionsOf(store: ox.Store, dataset: string, v: Vocab): DatasetRow[] {
  const graphs = new Set<string>();
  for (const q of store.match(null, ox.namedNode(ot.paramValue.value), ox.literal(dataset), null)) {
    if (q.graph.termType === "NamedNode" && one(store, q.graph.value, v.qg.model.value) !== undefined) graphs.add(q.graph.value);
  }
  return readDatasetRows(store, [...graphs].sort(), v).filter((r): r is DatasetRow => r !== null);
}

/** One dataset a compound is in: its rows' values by feature title (measured values), or a prediction's. */
export interface CompoundOccurrence {
  readonly dataset: DatasetRow;
  /** Lines of the compound's rows. */
  readonly lines: readonly number[];
  /** Feature title → the values of the compound's rows (at most MAX_OCCURRENCE_VALUES features). */
  readonly values: readonly (readonly [string, readonly string[]])[];
  /** Features with values not shown (past the first MAX_OCCURRENCE_VALUES columns: a computed dataset's hundreds). */
  readonly moreValues: number;
  /** Names the dataset gives the compound (rdfs:label, from a name column). */
  readonly names: readonly string[];
}

/** Values a compound page shows of one dataset at most (a descriptor dataset has hundreds). */
export const MAX_OCCURRENCE_VALUES = 12;
/** Datasets a compound page lists at most. */
export const MAX_OCCURRENCES = 100;

/**
 * The datasets compound `compound` is in (entries whose `ot:compound` it is: an object-index
 * lookup), each with the values of its rows (at most MAX_OCCURRENCE_VALUES features) and the
 * names it gives the compound; at most MAX_OCCURRENCES datasets, uploads first, then the others,
 * each group newest first. `total` counts them all.
 */
export function readCompoundOccurrences(store: ox.Store, compound: string, v: Vocab): { occurrences: CompoundOccurrence[]; total: number } {
  const byGraph = new Map<string, string[]>();
  const datasets = `${v.base}/dataset/`;
  for (const q of store.match(null, ox.namedNode(ot.compound.value), ox.namedNode(compound), null)) {
    // datasets only: a cross-validation's predictions name their compounds too
    if (q.graph.termType !== "NamedNode" || q.subject.termType !== "NamedNode" || !q.graph.value.startsWith(datasets)) continue;
    const l = byGraph.get(q.graph.value) ?? [];
    l.push(q.subject.value);
    byGraph.set(q.graph.value, l);
  }
  const rows = readDatasetRows(store, [...byGraph.keys()], v).filter((r): r is DatasetRow => r !== null);
  const rank = (r: DatasetRow): number => (r.kind === "upload" ? 0 : r.kind === "prediction" ? 1 : 2);
  rows.sort((a, b) => rank(a) - rank(b) || (b.created ?? "").localeCompare(a.created ?? "") || a.uri.localeCompare(b.uri));
  const occurrences = rows.slice(0, MAX_OCCURRENCES).map((dataset): CompoundOccurrence => {
    const g = ox.namedNode(dataset.uri);
    // the compound's rows in line order
    const entries = byGraph
      .get(dataset.uri)!
      .map((e) => ({ e, line: num(one(store, e, v.qg.line.value, dataset.uri)) }))
      .sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
    const lines = entries.flatMap((x) => (x.line === undefined ? [] : [x.line]));
    const values = new Map<string, string[]>();
    for (const { e } of entries) {
      for (const vq of store.match(ox.namedNode(e), ox.namedNode(ot.values.value), null, g)) {
        const node = vq.object as ox.NamedNode;
        const feature = store.match(node, ox.namedNode(ot.feature.value), null, g)[0]?.object.value;
        const value = store.match(node, ox.namedNode(ot.value.value), null, g)[0]?.object.value;
        if (feature === undefined || value === undefined) continue;
        const l = values.get(feature) ?? [];
        l.push(value);
        values.set(feature, l);
      }
    }
    // the first columns in the dataset's order
    const ordered = [...values].map(([f, xs]) => ({ f, xs, index: num(one(store, f, v.qg.index.value, dataset.uri)) ?? Infinity })).sort((a, b) => a.index - b.index);
    const titled = ordered.slice(0, MAX_OCCURRENCE_VALUES).map((x) => [one(store, x.f, dc.title.value, dataset.uri) ?? x.f, x.xs] as const);
    const more = ordered.length - titled.length;
    const names = store.match(ox.namedNode(compound), ox.namedNode(rdfs.label.value), null, g).map((q) => q.object.value);
    return { dataset, lines, values: titled, moreValues: more, names };
  });
  return { occurrences, total: rows.length };
}
