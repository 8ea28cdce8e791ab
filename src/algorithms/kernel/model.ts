/**
 * A kernel model's trained state on the main thread (algorithms/kernel/job.ts makes it): built
 * by the model's task and kept per model URI; after a restart, trained again from the training
 * dataset on first use (the SVM and its calibration are deterministic, so it is the same model).
 * The model's graph stays its record (resources/model.ts).
 */
import { EntryOrder, readColumn } from "../../resources/entry-order.ts";
import type { ModelRecord } from "../../resources/model.ts";
import type { GraphStore } from "../../store/graph-store.ts";
import type { Vocab } from "../../store/vocab.ts";
import { parseNumber } from "../../tabular/typing.ts";
import type { KernelTrainInput, TrainedKernelModel } from "./job.ts";
import { DEFAULT_CONFIDENCE_LEVEL, KERNEL_COST, KERNEL_EPSILON, KERNEL_SEED } from "./spec.ts";

/** What `model.predict` needs of a kernel model (plain data: it goes to the worker). */
export interface KernelModelData {
  readonly kind: "kernel";
  readonly uri: string;
  readonly endpoint: string;
  /** Accept values in class order (index 0, 1); empty for a numeric endpoint. */
  readonly classes: readonly string[];
  readonly confidenceLevel: number;
  /** Per training row: its compound and measured activity (class index or value). */
  readonly keys: readonly string[];
  readonly activities: Float64Array;
  readonly trained: TrainedKernelModel;
}

export type TrainKernel = (input: KernelTrainInput) => Promise<TrainedKernelModel>;

const cache = new Map<string, Promise<KernelModelData>>();

export function forgetKernelModel(uri: string): void {
  cache.delete(uri);
}

/** The training input of a model record: every measured value of its endpoint (one instance each), with the compound's SMILES. */
export async function kernelTrainingInput(store: GraphStore, m: Pick<ModelRecord, "trainingDataset" | "endpoint" | "classes">, v: Vocab): Promise<{ input: KernelTrainInput; keys: string[] }> {
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
  const kind = m.classes.length > 0 ? "classification" : "regression";
  return { input: { smiles, y, kind, nClasses: m.classes.length, cost: KERNEL_COST[kind], epsilon: KERNEL_EPSILON, seed: KERNEL_SEED }, keys };
}

/** The model's data from a trained model and its training input. */
export function kernelModelData(m: Pick<ModelRecord, "uri" | "endpoint" | "classes" | "parameters">, keys: readonly string[], y: readonly number[], trained: TrainedKernelModel): KernelModelData {
  const level = Number(m.parameters.find(([n]) => n === "confidence_level")?.[1] ?? DEFAULT_CONFIDENCE_LEVEL);
  return {
    kind: "kernel",
    uri: m.uri,
    endpoint: m.endpoint,
    classes: m.classes,
    confidenceLevel: Number.isFinite(level) ? level : DEFAULT_CONFIDENCE_LEVEL,
    keys: Array.from(trained.rows, (i) => keys[i]!),
    activities: Float64Array.from(trained.rows, (i) => y[i]!),
    trained,
  };
}

/** Keep a model just built (its task's warm-up). */
export function keepKernelModel(data: KernelModelData): void {
  cache.set(data.uri, Promise.resolve(data));
}

/** The model's data, cached per model URI; trained again with `train` when not cached (after a restart). */
export function loadKernelModel(store: GraphStore, m: ModelRecord, v: Vocab, train: TrainKernel): Promise<KernelModelData> {
  const hit = cache.get(m.uri);
  if (hit) return hit;
  const data = (async () => {
    const { input, keys } = await kernelTrainingInput(store, m, v);
    return kernelModelData(m, keys, input.y, await train(input));
  })();
  cache.set(m.uri, data);
  data.catch(() => {
    if (cache.get(m.uri) === data) cache.delete(m.uri);
  });
  return data;
}
