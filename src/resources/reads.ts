/**
 * Every read of the in-memory store that the service makes outside the store, by name: the
 * functions run where the store lives (StoreBackend `read`), and only their plain-data results
 * come back (store/plain-data.ts). Each entry takes the store and the vocabulary of the
 * service's base URL, then its own arguments; callers use `read(store, vocab, name, …args)`,
 * which TypeScript checks against the entry.
 *
 * The functions themselves stay where they belong (dataset-read.ts, model.ts, …) and stay
 * synchronous functions of an `ox.Store`: their unit tests call them directly. An entry that
 * answers for a list (`datasetRows`, `compounds`, `tasks`, …) reads all of it at once, so a
 * caller that needs many makes one read, not one per item; the reads done in steps
 * (entry-order.ts, the CSV export) make one read per step, so that no step holds the store long.
 * Arguments cross to the store as copies: pass a part of a typed array as a copy (`slice`), not a
 * view (`subarray`), which would carry its whole buffer.
 */
import type * as ox from "oxigraph";
import type { StoreBackend } from "../store/backend.ts";
import { Vocab } from "../store/vocab.ts";
import { moduleUrl } from "../threads/spawn.ts";
import { readCreator } from "./creator.ts";
import {
  compoundsWithFirstLine,
  describeInGraph,
  entryLinesIn,
  entryRefsOn,
  maxEntryLine,
  readColumnOn,
  readCompound,
  readCompoundsOn,
  readDatasetInfo,
  readDatasetSummary,
  readEntryTable,
  readEntryValues,
  readFeatureColumn,
  readFeatureOf,
  readFeaturePage,
  readFeatureTitles,
  readFeatureValues,
  statedEntries,
  type Columns,
  type EntryRef,
  type FeatureView,
} from "./dataset-read.ts";
import { readMinedEndpoint } from "./feature-explain.ts";
import { readCrossValidationChoices, readDatasetChoices } from "./form-choices.ts";
import { modelsUsing, readModel, readStoredPredictions } from "./model.ts";
import { readTask } from "./task.ts";
import { readPredictionDetail, readPredictionEntries, readPredictionHeader, readStructures } from "./prediction-read.ts";
import { readModelValidations } from "./model-validations.ts";
import type { ModelRecord } from "./model.ts";
import { readReportValidations, readStoredCrossValidation } from "./validation.ts";
import { readCompoundOccurrences, readDatasetRows, readModelRows, readModelsOf, readPredictionsOf, readValidationRows, readValidationsOf } from "./listings.ts";
import { compoundsByKey, compoundsByName, compoundStructures } from "./compound-lookup.ts";

const READS = {
  // Datasets (dataset-read.ts)
  datasetInfo: (s: ox.Store, v: Vocab, uri: string) => readDatasetInfo(s, uri, v),
  datasetSummary: (s: ox.Store, v: Vocab, uri: string) => readDatasetSummary(s, uri, v),
  featurePage: (s: ox.Store, v: Vocab, uri: string, offset: number, limit: number, total: number) => readFeaturePage(s, uri, v, offset, limit, total),
  featureTitles: (s: ox.Store, v: Vocab, uri: string, offset: number, limit: number, total: number) => readFeatureTitles(s, uri, v, offset, limit, total),
  /** The first of `candidates` that is a feature of dataset `uri`, or null. */
  featureOf: (s: ox.Store, v: Vocab, uri: string, candidates: readonly string[]) => {
    for (const f of candidates) {
      const found = readFeatureOf(s, uri, f, v);
      if (found) return found;
    }
    return null;
  },
  /** N-Triples of the triples about `subject` in `graph`. */
  describeInGraph: (s: ox.Store, _v: Vocab, subject: string, graph: string) => describeInGraph(s, subject, graph),
  compound: (s: ox.Store, v: Vocab, uri: string) => readCompound(s, uri, v),
  compounds: (s: ox.Store, v: Vocab, uris: readonly string[]) => uris.map((uri) => readCompound(s, uri, v)),
  entryValues: (s: ox.Store, _v: Vocab, uri: string, refs: readonly EntryRef[], columns?: Columns) => readEntryValues(s, uri, refs, columns),
  entryTable: (s: ox.Store, v: Vocab, uri: string, lines: Int32Array, columns?: Columns, withCompounds?: boolean) => readEntryTable(s, uri, v, lines, columns, withCompounds),
  featureColumn: (s: ox.Store, v: Vocab, uri: string, feature: string) => readFeatureColumn(s, uri, feature, v),
  featureValues: (s: ox.Store, _v: Vocab, uri: string, features: readonly FeatureView[]) => readFeatureValues(s, uri, features),
  compoundsWithFirstLine: (s: ox.Store, v: Vocab, uri: string) => compoundsWithFirstLine(s, uri, v),
  /** The endpoint a mined feature dataset was computed for (feature-explain.ts), or null. */
  minedEndpoint: (s: ox.Store, v: Vocab, uri: string) => readMinedEndpoint(s, uri, v),
  // The steps of entry-order.ts (their queries are in dataset-read.ts)
  statedEntries: (s: ox.Store, v: Vocab, uri: string) => statedEntries(s, uri, v),
  maxEntryLine: (s: ox.Store, v: Vocab, uri: string) => maxEntryLine(s, uri, v),
  entryLinesIn: (s: ox.Store, v: Vocab, uri: string, from: number, count: number) => entryLinesIn(s, uri, v, from, count),
  entryRefsOn: (s: ox.Store, v: Vocab, uri: string, lines: Int32Array) => entryRefsOn(s, uri, v, lines),
  columnOn: (s: ox.Store, v: Vocab, uri: string, feature: string, lines: string) => readColumnOn(s, uri, v, feature, lines),
  compoundsOn: (s: ox.Store, v: Vocab, uri: string, lines: string) => readCompoundsOn(s, uri, v, lines),
  // Models (model.ts), creators (creator.ts), tasks (task.ts), validations (validation.ts)
  model: (s: ox.Store, v: Vocab, uri: string) => readModel(s, uri, v),
  modelsUsing: (s: ox.Store, _v: Vocab, dataset: string) => modelsUsing(s, dataset),
  storedPredictions: (s: ox.Store, v: Vocab, model: string, compound: string, creator: string | undefined) => readStoredPredictions(s, model, compound, creator, v),
  creator: (s: ox.Store, v: Vocab, uri: string) => readCreator(s, uri, v),
  tasks: (s: ox.Store, v: Vocab, uris: readonly string[]) => uris.map((uri) => readTask(s, uri, v)),
  crossValidation: (s: ox.Store, v: Vocab, uri: string) => readStoredCrossValidation(s, uri, v),
  crossValidations: (s: ox.Store, v: Vocab, uris: readonly string[]) => uris.map((uri) => readStoredCrossValidation(s, uri, v)),
  reportValidations: (s: ox.Store, v: Vocab, uri: string) => readReportValidations(s, uri, v),
  // What the pages list (listings.ts): the collections' rows, a dataset's models, validations and predictions, a compound's datasets
  datasetRows: (s: ox.Store, v: Vocab, uris: readonly string[]) => readDatasetRows(s, uris, v),
  modelRows: (s: ox.Store, v: Vocab, uris: readonly string[]) => readModelRows(s, uris, v),
  validationRows: (s: ox.Store, v: Vocab, uris: readonly string[]) => readValidationRows(s, uris, v),
  /** A dataset's models, cross-validations and prediction datasets, in one read. */
  datasetRelated: (s: ox.Store, v: Vocab, dataset: string) => ({ models: readModelsOf(s, dataset, v), validations: readValidationsOf(s, dataset, v), predictions: readPredictionsOf(s, dataset, v) }),
  compoundOccurrences: (s: ox.Store, v: Vocab, compound: string) => readCompoundOccurrences(s, compound, v),
  // Finding compounds (compound-lookup.ts; compound-query.ts resolves a query with them)
  compoundsByKey: (s: ox.Store, v: Vocab, key: string) => compoundsByKey(s, key, v),
  compoundsByName: (s: ox.Store, v: Vocab, names: readonly string[]) => compoundsByName(s, names, v),
  compoundStructures: (s: ox.Store, v: Vocab) => compoundStructures(s, v),
  // What the forms offer (form-choices.ts): the newest datasets with their features, the newest cross-validations
  datasetChoices: (s: ox.Store, v: Vocab, uris: readonly string[], limit: number, maxFeatures: number) => readDatasetChoices(s, v, uris, limit, maxFeatures),
  crossValidationChoices: (s: ox.Store, v: Vocab, uris: readonly string[], limit: number) => readCrossValidationChoices(s, v, uris, limit),
  // Prediction pages (prediction-read.ts) and a model's validations (model-validations.ts)
  predictionHeader: (s: ox.Store, v: Vocab, uri: string) => readPredictionHeader(s, uri, v),
  predictionEntries: (s: ox.Store, v: Vocab, uri: string, lines: Int32Array | readonly number[], model: string, endpoint: string) => readPredictionEntries(s, uri, v, lines, model, endpoint),
  predictionDetail: (s: ox.Store, v: Vocab, uri: string, line: number) => readPredictionDetail(s, uri, v, line),
  structures: (s: ox.Store, v: Vocab, compounds: readonly string[]) => readStructures(s, compounds, v),
  modelValidations: (s: ox.Store, v: Vocab, m: Pick<ModelRecord, "trainingDataset" | "endpoint" | "predictionAlgorithm" | "parameters">) => readModelValidations(s, m, v),
} satisfies Record<string, (s: ox.Store, v: Vocab, ...args: never[]) => unknown>;

type Reads = typeof READS;
export type ReadName = keyof Reads;
type ArgsOf<F> = F extends (s: ox.Store, v: Vocab, ...args: infer A) => unknown ? A : never;
/** The arguments of read `K` after the store and the vocabulary. */
export type ReadArgs<K extends ReadName> = ArgsOf<Reads[K]>;

/** The names of every read (for tests: each one exists and answers plain data). */
export const READ_NAMES = Object.keys(READS) as ReadName[];

const MODULE = moduleUrl("./reads.ts", import.meta.url);

/** Read `name` with `args` from the store (see the module comment). */
export function read<K extends ReadName>(store: StoreBackend, vocab: Vocab, name: K, ...args: ReadArgs<K>): Promise<ReturnType<Reads[K]>> {
  return store.read(MODULE, name, [vocab.base, ...args]);
}

const vocabs = new Map<string, Vocab>();

/** The reads module's entry (StoreBackend `ReadsModule`): args = [base URL, …the read's own]. */
export function run(store: ox.Store, name: string, args: readonly unknown[]): unknown {
  const fn = Object.hasOwn(READS, name) ? (READS as Record<string, (s: ox.Store, v: Vocab, ...a: unknown[]) => unknown>)[name] : undefined;
  if (!fn) throw new Error(`no store read named ${name}`);
  const [base, ...rest] = args as [string, ...unknown[]];
  let v = vocabs.get(base);
  if (!v) vocabs.set(base, (v = new Vocab(base)));
  return fn(store, v, ...rest);
}
