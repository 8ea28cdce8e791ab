/**
 * What a lazar model needs to predict, gathered from its graphs (model, training dataset, feature
 * dataset) into plain typed arrays that a worker job can take (docs/lazar-method.md "Training data"
 * and "Features"): training compounds (those the feature dataset has values for), their activities
 * (one instance per measured value; class index 1…k or number), and either weighted substructure
 * fingerprints (value = pValue, or hits × pValue when the model uses hits) with the SMARTS to match
 * on queries, or descriptor rows with the value names and pc_types/libs to compute on queries.
 *
 * A cache derived from the graph, which stays the record: never edited on its own, cached per
 * model URI in memory and rebuilt after a restart on first use.
 */
import type { Lib, PcType } from "../../chem/descriptors/index.ts";
import { PC_TYPES, LIBS } from "../../chem/descriptors/index.ts";
import { EntryOrder, readColumn } from "../../resources/entry-order.ts";
import { read } from "../../resources/reads.ts";
import type { ModelRecord } from "../../resources/model.ts";
import type { StoreBackend } from "../../store/backend.ts";
import type { Vocab } from "../../store/vocab.ts";
import { parseNumber } from "../../tabular/typing.ts";
import { fingerprintOf } from "./featurise.ts";

export interface ModelData {
  readonly uri: string;
  readonly kind: "substructure" | "descriptor";
  readonly predictionAlgorithm: string;
  readonly classes: readonly string[];
  readonly minSim: number;
  readonly minTrainPerformance: number;
  readonly nrHits: boolean;
  readonly endpoint: string;
  /** Training compound URIs, one per row. */
  readonly keys: readonly string[];
  /** Instance i belongs to row instRow[i] with activity instActivity[i]. */
  readonly instRow: Int32Array;
  readonly instActivity: Float64Array;
  /** The feature dataset's features, in column order. */
  readonly featureUris: readonly string[];
  /** Substructure models: SMARTS and weights (pValue) per feature; training fingerprints as CSR. */
  readonly smarts: readonly string[];
  readonly weights: Float64Array;
  readonly offsets: Int32Array;
  readonly idx: Int32Array;
  readonly val: Float64Array;
  /** Descriptor models: value names per column, what to compute, and row-major training values (NaN = missing). */
  readonly columns: readonly string[];
  readonly pcTypes: readonly PcType[];
  readonly libs: readonly Lib[];
  readonly rows: Float64Array;
}

const cache = new Map<string, Promise<ModelData>>();

export function forgetModel(uri: string): void {
  cache.delete(uri);
}

/**
 * "<descriptor> [<pc_type>, <lib>]": the dc:description of a descriptor feature, from which a
 * model reads which categories and libraries to compute for a query, as lazar did.
 */
const PC_DESCRIPTION = /\[(\w+), (\w+)\]$/;

/** What `buildModelData` reads from a model record (a cross-validation passes its own). */
export type ModelDataSource = Pick<
  ModelRecord,
  "uri" | "featureDataset" | "featureKind" | "trainingDataset" | "endpoint" | "classes" | "predictionAlgorithm" | "minSim" | "minTrainPerformance" | "nrHits"
>;

/** A model's data, cached per model URI (the promise, so that concurrent first uses build it once). */
export function loadModelData(store: StoreBackend, m: ModelRecord, v: Vocab): Promise<ModelData> {
  const hit = cache.get(m.uri);
  if (hit) return hit;
  const data = buildModelData(store, m, v);
  cache.set(m.uri, data);
  data.catch(() => {
    if (cache.get(m.uri) === data) cache.delete(m.uri);
  });
  return data;
}

/** Values read per step of the feature dataset's entries (≈ 10–20 ms each). */
const VALUES_PER_STEP = 5000;

/**
 * Read the training data and features (not cached), in steps with a pause between them: the
 * features in their order, the feature dataset's values entry block by entry block (in line
 * order; the first value per compound and feature), the training activities (resources/
 * entry-order.ts `readColumn`). In one piece, a Kazius BBRC model's first prediction held the
 * event loop for 7–9 s (4.5 s of CPU).
 */
export async function buildModelData(store: StoreBackend, m: ModelDataSource, v: Vocab): Promise<ModelData> {
  const fd = m.featureDataset;
  const order = new EntryOrder(store, v);
  const pause = (): Promise<void> => order.pauseFor(fd);
  const features = await order.features(fd, (offset, count, total) => read(store, v, "featurePage", fd, offset, count, total));
  const column = new Map(features.map((f, j) => [f.uri, j]));
  // Feature values per compound (first value per compound and feature), and every compound the
  // feature dataset has an entry for (a substructure feature dataset lists compounds without patterns too).
  const values = new Map<string, Map<number, number>>();
  const listed = new Set<string>();
  const lines = await order.lines(fd);
  const perEntry = Math.max(1, store.graphSize(fd) / 3 / Math.max(1, lines.length));
  const step = Math.max(1, Math.floor(VALUES_PER_STEP / perEntry));
  for (let i = 0; i < lines.length; i += step) {
    if (i > 0) await pause();
    const { entries } = await read(store, v, "entryTable", fd, lines.slice(i, i + step));
    for (const e of entries) {
      listed.add(e.compound);
      for (const [f, vs] of e.values) {
        const j = column.get(f);
        const x = parseNumber(vs[0] ?? "");
        if (j === undefined || x === null) continue;
        let map = values.get(e.compound);
        if (!map) values.set(e.compound, (map = new Map()));
        if (!map.has(j)) map.set(j, x);
      }
    }
  }
  // Training activities per compound, in line order; compounds without features are dropped.
  const keys: string[] = [];
  const rowOf = new Map<string, number>();
  const instRow: number[] = [];
  const instActivity: number[] = [];
  const hasFeatures = (c: string): boolean => values.has(c) || (m.featureKind !== "descriptor" && listed.has(c));
  for (const r of await readColumn(order, m.trainingDataset, m.endpoint)) {
    const a = m.classes.length > 0 ? m.classes.indexOf(r.value) + 1 : parseNumber(r.value);
    if (a === null || a === 0) continue;
    let row = rowOf.get(r.compound);
    if (row === undefined) {
      if (!hasFeatures(r.compound)) continue;
      row = keys.length;
      rowOf.set(r.compound, row);
      keys.push(r.compound);
    }
    instRow.push(row);
    instActivity.push(a);
  }
  const base = {
    uri: m.uri,
    predictionAlgorithm: m.predictionAlgorithm,
    classes: m.classes,
    minSim: m.minSim,
    minTrainPerformance: m.minTrainPerformance,
    nrHits: m.nrHits,
    endpoint: m.endpoint,
    keys,
    instRow: Int32Array.from(instRow),
    instActivity: Float64Array.from(instActivity),
    featureUris: features.map((f) => f.uri),
  };
  let data: ModelData;
  if (m.featureKind === "substructure") {
    const prop = (f: (typeof features)[number], label: string): string => f.properties.find(([k]) => k === label)?.[1] ?? "";
    const weights = Float64Array.from(features, (f) => Number(prop(f, "p-value")) || 0);
    const offsets = new Int32Array(keys.length + 1);
    const idx: number[] = [];
    const val: number[] = [];
    keys.forEach((c, r) => {
      // The stored values are the hits (1, or the count with nr_hits; lazar/featurise.ts).
      const fp = fingerprintOf([...(values.get(c) ?? [])].map(([feature, hits]) => ({ feature, hits })), weights, m.nrHits);
      idx.push(...fp.idx);
      val.push(...fp.val);
      offsets[r + 1] = idx.length;
    });
    data = {
      ...base,
      kind: "substructure",
      smarts: features.map((f) => prop(f, "SMARTS")),
      weights,
      offsets,
      idx: Int32Array.from(idx),
      val: Float64Array.from(val),
      columns: [],
      pcTypes: [],
      libs: [],
      rows: new Float64Array(0),
    };
  } else {
    const pcTypes = new Set<PcType>();
    const libs = new Set<Lib>();
    for (const f of features) {
      const mm = PC_DESCRIPTION.exec(f.description);
      if (mm && (PC_TYPES as readonly string[]).includes(mm[1]!) && (LIBS as readonly string[]).includes(mm[2]!)) {
        pcTypes.add(mm[1] as PcType);
        libs.add(mm[2] as Lib);
      }
    }
    const n = features.length;
    const dense = new Float64Array(keys.length * n).fill(NaN);
    keys.forEach((c, r) => {
      for (const [j, x] of values.get(c) ?? []) dense[r * n + j] = x;
    });
    data = {
      ...base,
      kind: "descriptor",
      smarts: [],
      weights: new Float64Array(0),
      offsets: new Int32Array(0),
      idx: new Int32Array(0),
      val: new Float64Array(0),
      columns: features.map((f) => f.title),
      pcTypes: [...pcTypes],
      libs: [...libs],
      rows: dense,
    };
  }
  return data;
}
