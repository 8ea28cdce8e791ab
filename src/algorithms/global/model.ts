/**
 * A global model's trained state on the main thread (the kernel model, the random forest): built
 * by the model's task and kept per model URI; after a restart, trained again from the training
 * dataset on first use with the model's own train function (training is deterministic, so it is
 * the same model). The model's graph stays its record (resources/model.ts).
 */
import { EntryOrder, readColumn } from "../../resources/entry-order.ts";
import type { ModelRecord } from "../../resources/model.ts";
import type { StoreBackend } from "../../store/backend.ts";
import type { Vocab } from "../../store/vocab.ts";
import { parseNumber } from "../../tabular/typing.ts";
import { DEFAULT_CONFIDENCE_LEVEL } from "./spec.ts";

/** What `model.predict` needs of a global model (plain data: it goes to the worker). */
export interface GlobalModelData<K extends string, T> {
  readonly kind: K;
  readonly uri: string;
  readonly endpoint: string;
  /** Accept values in class order (index 0, 1, …); empty for a numeric endpoint. */
  readonly classes: readonly string[];
  readonly confidenceLevel: number;
  /** Per training row: its compound and measured activity (class index or value). */
  readonly keys: readonly string[];
  readonly activities: Float64Array;
  /** The model as its jobs made it; `rows` maps its training rows to the training input's compounds. */
  readonly trained: T;
}

/** A model's training data: every measured value of its endpoint (one instance each), with the compound's SMILES and URI. */
export interface TrainingInput {
  readonly smiles: readonly string[];
  /** Per instance: the class index (0 … classes − 1) or the value. */
  readonly y: readonly number[];
  readonly keys: readonly string[];
  readonly kind: "classification" | "regression";
  /** The number of classes (0 for numbers). */
  readonly nClasses: number;
}

/** The training input of a model record, read in steps. */
export async function trainingInput(store: StoreBackend, m: Pick<ModelRecord, "trainingDataset" | "endpoint" | "classes">, v: Vocab): Promise<TrainingInput> {
  const smiles: string[] = [];
  const y: number[] = [];
  const keys: string[] = [];
  for (const r of await readColumn(new EntryOrder(store, v), m.trainingDataset, m.endpoint)) {
    const a = m.classes.length > 0 ? m.classes.indexOf(r.value) : parseNumber(r.value);
    const s = r.smiles ?? r.compoundSmiles;
    if (a === null || (m.classes.length > 0 && a < 0) || s === undefined) continue;
    smiles.push(s);
    y.push(a);
    keys.push(r.compound);
  }
  return { smiles, y, keys, kind: m.classes.length > 0 ? "classification" : "regression", nClasses: m.classes.length };
}

/** The confidence level a model record was built with (its `confidence_level` parameter). */
export function recordedConfidenceLevel(m: Pick<ModelRecord, "parameters">): number {
  const level = Number(m.parameters.find(([n]) => n === "confidence_level")?.[1] ?? DEFAULT_CONFIDENCE_LEVEL);
  return Number.isFinite(level) ? level : DEFAULT_CONFIDENCE_LEVEL;
}

/** The model's data from a trained model (its `rows`: training rows → instances of `input`). */
export function globalModelData<K extends string, T extends { readonly rows: Int32Array }>(kind: K, m: Pick<ModelRecord, "uri" | "endpoint" | "classes" | "parameters">, input: Pick<TrainingInput, "keys" | "y">, trained: T): GlobalModelData<K, T> {
  return {
    kind,
    uri: m.uri,
    endpoint: m.endpoint,
    classes: m.classes,
    confidenceLevel: recordedConfidenceLevel(m),
    keys: Array.from(trained.rows, (i) => input.keys[i]!),
    activities: Float64Array.from(trained.rows, (i) => input.y[i]!),
    trained,
  };
}

const cache = new Map<string, Promise<unknown>>();

/** Keep a model just built (its task's warm-up). */
export function keepGlobalModel(data: GlobalModelData<string, unknown>): void {
  cache.set(data.uri, Promise.resolve(data));
}

/** Drop a model (deleted). */
export function forgetGlobalModel(uri: string): void {
  cache.delete(uri);
}

/**
 * The model's data, cached per model URI; when not cached (after a restart), its training input
 * read from the store and `train` makes the data again. Concurrent first uses share one training;
 * a failed one is not kept.
 */
export function loadGlobalModel<D>(store: StoreBackend, m: ModelRecord, v: Vocab, train: (input: TrainingInput) => Promise<D>): Promise<D> {
  const hit = cache.get(m.uri);
  if (hit) return hit as Promise<D>;
  const data = (async () => train(await trainingInput(store, m, v)))();
  cache.set(m.uri, data);
  data.catch(() => {
    if (cache.get(m.uri) === data) cache.delete(m.uri);
  });
  return data;
}
