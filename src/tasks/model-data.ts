/**
 * What a lazar model needs to predict, gathered from its graphs (model, training dataset,
 * feature dataset) into plain typed arrays that a worker job can take (spec lazar.md §3.3):
 * training compounds (those the feature dataset has values for), their activities (one instance
 * per measured value; class index 1…k or number), and either weighted substructure fingerprints
 * (value = pValue, or hits × pValue when the model uses hits) with the SMARTS to match on
 * queries, or descriptor rows with the value names and pc_types/libs to compute on queries.
 *
 * Derived from the graph and never edited on its own (DESIGN §1.1): cached per model URI in
 * memory and rebuilt after a restart on first use.
 */
import * as ox from "oxigraph";
import type { Lib, PcType } from "../chem/descriptors/index.ts";
import { PC_TYPES, LIBS } from "../chem/descriptors/index.ts";
import { readDatasetSummary, readFeatureColumn } from "../resources/dataset-read.ts";
import type { ModelRecord } from "../resources/model.ts";
import type { GraphStore } from "../store/graph-store.ts";
import { ot, type Vocab } from "../store/vocab.ts";
import { parseNumber } from "../tabular/typing.ts";

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

const cache = new Map<string, ModelData>();

export function forgetModel(uri: string): void {
  cache.delete(uri);
}

/** "<descriptor> [<pc_type>, <lib>]" (the descriptor features' dc:description, spec lazar.md §4.4). */
const PC_DESCRIPTION = /\[(\w+), (\w+)\]$/;

/** What `buildModelData` reads from a model record (a cross-validation passes its own). */
export type ModelDataSource = Pick<
  ModelRecord,
  "uri" | "featureDataset" | "featureKind" | "trainingDataset" | "endpoint" | "classes" | "predictionAlgorithm" | "minSim" | "minTrainPerformance" | "nrHits"
>;

/** A model's data, cached per model URI. */
export function loadModelData(store: GraphStore, m: ModelRecord, v: Vocab): ModelData {
  const hit = cache.get(m.uri);
  if (hit) return hit;
  const data = buildModelData(store, m, v);
  cache.set(m.uri, data);
  return data;
}

/** Read the training data and features (not cached). */
export function buildModelData(store: GraphStore, m: ModelDataSource, v: Vocab): ModelData {
  const summary = readDatasetSummary(store.ox, m.featureDataset, v);
  const features = summary.features;
  const column = new Map(features.map((f, j) => [f.uri, j]));
  // Feature values per compound (first value per compound and feature).
  const values = new Map<string, Map<number, number>>();
  const rows = store.ox.query(
    `SELECT ?c ?f ?x WHERE { GRAPH <${m.featureDataset}> { ?e <${ot.compound.value}> ?c ; <${ot.values.value}> ?v . ?v <${ot.feature.value}> ?f ; <${ot.value.value}> ?x } }`,
  ) as Map<string, ox.Term>[];
  for (const r of rows) {
    const j = column.get(r.get("f")!.value);
    const x = parseNumber(r.get("x")!.value);
    if (j === undefined || x === null) continue;
    const c = r.get("c")!.value;
    let map = values.get(c);
    if (!map) values.set(c, (map = new Map()));
    if (!map.has(j)) map.set(j, x);
  }
  // Training activities per compound, in line order; compounds without features are dropped.
  const keys: string[] = [];
  const rowOf = new Map<string, number>();
  const instRow: number[] = [];
  const instActivity: number[] = [];
  const hasFeatures = (c: string): boolean => m.featureKind === "descriptor" ? values.has(c) : values.has(c) || compoundInFeatureDataset(store, m.featureDataset, c);
  for (const r of readFeatureColumn(store.ox, m.trainingDataset, m.endpoint, v)) {
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
      const map = values.get(c) ?? new Map<number, number>();
      for (const j of [...map.keys()].sort((a, b) => a - b)) {
        const w = weights[j]!;
        const x = m.nrHits ? map.get(j)! * w : w;
        if (x > 0) {
          idx.push(j);
          val.push(x);
        }
      }
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

/** A substructure feature dataset lists every source compound, even those with no pattern. */
function compoundInFeatureDataset(store: GraphStore, fd: string, compound: string): boolean {
  return store.ox.match(null, ox.namedNode(ot.compound.value), ox.namedNode(compound), ox.namedNode(fd)).length > 0;
}
