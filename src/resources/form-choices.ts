/**
 * What the forms of the pages offer to choose from (http/html/algorithm.ts, the cross-validation
 * and report forms): the newest datasets with their title, size and date, the features of the
 * uploaded ones (the endpoints a model or a miner can be asked for), and the newest
 * cross-validations. Each is one named read (resources/reads.ts) that reads only what a form
 * shows: a few triples per dataset found by direct lookups, never a dataset's entries, and the
 * features of a dataset by their `qg:index` numbers (an uploaded dataset has at most
 * MAX_UPLOAD_COLUMNS of them), so a store of thousands of datasets answers quickly.
 */
import * as ox from "oxigraph";
import { dc, NS, ot, rdf, xsd, type Vocab } from "../store/vocab.ts";

/** A dataset a form offers. */
export interface DatasetChoice {
  readonly uri: string;
  readonly title: string;
  /** dc:date (ISO), "" when the dataset has none. */
  readonly created: string;
  readonly compounds: number;
  /** Computed by the service (a feature dataset: ot:hasSource another resource, or a prediction), not uploaded. */
  readonly computed: boolean;
  /** The dataset's features (uploaded datasets only; the first `maxFeatures`), in their order. */
  readonly features: readonly { readonly uri: string; readonly title: string }[];
  /** How many features the dataset has (as it states). */
  readonly featureCount: number;
}

export interface DatasetChoices {
  /** The newest datasets (at most `limit`), newest first. */
  readonly datasets: readonly DatasetChoice[];
  /** How many datasets the service has. */
  readonly total: number;
}

const one = (store: ox.Store, s: string, p: string, g: ox.NamedNode): string | undefined => store.match(ox.namedNode(s), ox.namedNode(p), null, g)[0]?.object.value;

/** The dates of `uris` (dc:date of each dataset's own node; "" when none), by one lookup each. */
function dates(store: ox.Store, uris: readonly string[]): string[] {
  return uris.map((u) => one(store, u, dc.date.value, ox.namedNode(u)) ?? "");
}

/**
 * The `limit` newest of `uris` (datasets; ties and undated ones by URI), each with its title,
 * size, date, whether it was computed, and the first `maxFeatures` features of an uploaded one.
 */
export function readDatasetChoices(store: ox.Store, v: Vocab, uris: readonly string[], limit: number, maxFeatures: number): DatasetChoices {
  const created = dates(store, uris);
  const order = uris.map((_, i) => i).sort((a, b) => (created[a]! < created[b]! ? 1 : created[a]! > created[b]! ? -1 : uris[a]! < uris[b]! ? -1 : uris[a]! > uris[b]! ? 1 : 0));
  const datasets = order.slice(0, Math.max(0, limit)).map((i): DatasetChoice => {
    const uri = uris[i]!;
    const g = ox.namedNode(uri);
    // a computed dataset has an ot:hasSource (a resource); an upload has none (its file name is dc:source;
    // stores written before that held it as a literal ot:hasSource)
    const has = (p: string): ox.Term[] => store.match(ox.namedNode(uri), ox.namedNode(p), null, g).map((q) => q.object);
    const computed = has(v.qg.algorithm.value).length > 0 || has(v.qg.model.value).length > 0 || has(ot.hasSource.value).some((o) => o.termType === "NamedNode");
    const featureCount = Number(one(store, uri, v.qg.numberOfFeatures.value, g) ?? 0);
    return {
      uri,
      title: one(store, uri, dc.title.value, g) ?? "",
      created: created[i]!,
      compounds: Number(one(store, uri, v.qg.numberOfCompounds.value, g) ?? 0),
      computed,
      features: computed ? [] : readFirstFeatures(store, v, uri, Math.min(featureCount, maxFeatures)),
      featureCount,
    };
  });
  return { datasets, total: uris.length };
}

/** Features 0…n−1 of an uploaded dataset by their qg:index, with their titles. */
function readFirstFeatures(store: ox.Store, v: Vocab, uri: string, n: number): { uri: string; title: string }[] {
  const g = ox.namedNode(uri);
  const out: { uri: string; title: string }[] = [];
  const feature = ox.namedNode(ot.Feature.value);
  for (let k = 0; k < n; k++) {
    for (const q of store.match(null, ox.namedNode(v.qg.index.value), ox.literal(String(k), ox.namedNode(xsd.integer.value)), g)) {
      if (!store.has(ox.quad(q.subject, ox.namedNode(rdf.type.value), feature, g))) continue;
      out.push({ uri: q.subject.value, title: one(store, q.subject.value, dc.title.value, g) ?? "" });
    }
  }
  return out;
}

/** A cross-validation a form offers (the report form's checkboxes). */
export interface CrossValidationChoice {
  readonly uri: string;
  readonly title: string;
  readonly created: string;
  readonly dataset: string;
  readonly predictionAlgorithm: string;
  readonly algorithmParams: string;
  readonly numFolds: number;
}

/** The `limit` newest of `uris` (cross-validations), newest first, with what labels them. */
export function readCrossValidationChoices(store: ox.Store, v: Vocab, uris: readonly string[], limit: number): { readonly validations: readonly CrossValidationChoice[]; readonly total: number } {
  const created = dates(store, uris);
  const order = uris.map((_, i) => i).sort((a, b) => (created[a]! < created[b]! ? 1 : created[a]! > created[b]! ? -1 : uris[a]! < uris[b]! ? -1 : 1));
  const validations = order.slice(0, Math.max(0, limit)).map((i): CrossValidationChoice => {
    const uri = uris[i]!;
    const g = ox.namedNode(uri);
    return {
      uri,
      title: one(store, uri, dc.title.value, g) ?? "",
      created: created[i]!,
      dataset: one(store, uri, `${NS.ot}trainingDataset`, g) ?? "",
      predictionAlgorithm: one(store, uri, v.qg.predictionAlgorithm.value, g) ?? "",
      algorithmParams: one(store, uri, v.qg.algorithmParams.value, g) ?? "",
      numFolds: Number(one(store, uri, v.qg.numFolds.value, g) ?? 0),
    };
  });
  return { validations, total: uris.length };
}
