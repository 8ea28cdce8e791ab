/**
 * Physico-chemical descriptors as algorithms, under the routes and parameters of lazar's "pc"
 * service (categories `pc_type`, libraries `lib`; the catalogue is src/chem/descriptors/):
 * `POST /algorithm/pc/AllDescriptors` (dataset_uri, pc_type, lib) and
 * `POST /dataset/{id}/pc` → task → feature dataset; `POST /compound/{InChI}/pc` → a one-compound
 * feature dataset, answered directly (the work runs in the pool, not on the main thread).
 *
 * Features: one per value name of the selected pc_types and libs (registry order), named as
 * lazar named them (`khs.sCH3` → `khs_sCH3`), `ot:NumericFeature`, title = value name,
 * `dc:description` "<descriptor> [<pc_type>, <lib>]", `ot:hasSource` = the input dataset (or
 * compound), `dc:creator` = the algorithm. One entry per compound (its first row's line); a value
 * that cannot be computed is absent.
 */
import { DESCRIPTORS, featureName, LIBS, PC_TYPES, type Lib, type PcType } from "../../chem/descriptors/index.ts";
import { BadRequest } from "../../errors.ts";
import { ALGORITHM_TYPES, type AlgorithmSpec, type ParamSpec } from "../../resources/algorithm.ts";
import { EntryOrder, readCompoundsInOrder } from "../../resources/entry-order.ts";
import { type ComputedFeature } from "../../resources/feature-dataset.ts";
import type { Params } from "../../resources/params.ts";
import { read } from "../../resources/reads.ts";
import type { StoreBackend } from "../../store/backend.ts";
import type { Vocab } from "../../store/vocab.ts";


const SELECTION: readonly ParamSpec[] = [
  {
    name: "pc_type",
    description: `descriptor categories, one or a comma-separated list of ${PC_TYPES.join(", ")}`,
    required: false,
    default: PC_TYPES.join(","),
    kind: { type: "list", values: PC_TYPES },
  },
  {
    name: "lib",
    description: "descriptor libraries, one or a comma-separated list: cdk (the CDK-compatible set lazar exposed, computed by qsargraph) and rdkit (RDKit's own descriptors)",
    required: false,
    default: "cdk",
    kind: { type: "list", values: LIBS },
  },
];

export const ALL_DESCRIPTORS: AlgorithmSpec = {
  path: "pc/AllDescriptors",
  aliases: [],
  title: "AllDescriptors",
  description: "Physico-chemical descriptors of every compound of a dataset, by category (pc_type) and library (lib); the result is a feature dataset with one numeric feature per descriptor value.",
  types: [ALGORITHM_TYPES.descriptorCalculation],
  parameters: [{ name: "dataset_uri", description: "the dataset whose compounds are described (a dataset of this service)", required: true, kind: { type: "dataset" } }, ...SELECTION],
};

/** `POST /dataset/{id}/pc` and `POST /compound/{InChI}/pc`: the resource is in the path. */
export const PC_OF_RESOURCE: AlgorithmSpec = {
  path: "pc",
  aliases: [],
  title: "Physico-chemical descriptors",
  description: "Descriptors of the dataset or compound in the path.",
  types: [ALGORITHM_TYPES.descriptorCalculation],
  parameters: SELECTION,
};

export interface DescriptorRequest {
  readonly rows: readonly { readonly line: number; readonly compound: string; readonly smiles: string }[];
  readonly pcTypes: readonly PcType[];
  readonly libs: readonly Lib[];
  readonly title: string;
  readonly source: string;
  readonly algorithm: string;
  readonly parameters: readonly (readonly [string, string])[];
}

/** The selected descriptors' value names (features) with their descriptions, in registry order. */
export function selectedFeatures(pcTypes: readonly PcType[], libs: readonly Lib[]): { values: string[]; features: ComputedFeature[] } {
  const values: string[] = [];
  const features: ComputedFeature[] = [];
  for (const d of DESCRIPTORS) {
    if (!pcTypes.includes(d.pcType) || !libs.includes(d.lib)) continue;
    for (const v of d.values) {
      values.push(v);
      features.push({ name: featureName(v), title: v, description: `${d.id} [${d.pcType}, ${d.lib}]`, numeric: true, types: [], properties: [] });
    }
  }
  return { values, features };
}

function selection(params: Params): { pcTypes: PcType[]; libs: Lib[] } {
  return { pcTypes: [...(params.list("pc_type") ?? PC_TYPES)] as PcType[], libs: [...(params.list("lib") ?? ["cdk"])] as Lib[] };
}

/** A dataset's compounds with a SMILES to describe (the compound's own; none for InChI-only ones). */
export async function datasetDescriptorRequest(datasetUri: string, params: Params, algorithm: string, store: StoreBackend, v: Vocab): Promise<DescriptorRequest> {
  const summary = await read(store, v, "datasetInfo", datasetUri);
  const rows = (await readCompoundsInOrder(new EntryOrder(store, v), datasetUri)).map((c) => ({ compound: c.compound, line: c.line, smiles: c.smiles ?? "" }));
  if (rows.length === 0) throw new BadRequest(`the dataset ${datasetUri} has no compounds`, { field: "dataset_uri" });
  const chosen = selection(params);
  // Refuse at once what cannot fit (InsufficientStorage, 507), not after minutes of computing:
  // each value is 3 triples in the OpenTox shape (an ot:values link, its feature, its value).
  const { values } = selectedFeatures(chosen.pcTypes, chosen.libs);
  const estimate = rows.length * values.length * 3;
  store.ensureRoom(estimate, estimate, `the descriptors of ${rows.length} compounds (${values.length} values each: up to ${estimate} triples)`);
  return { rows, ...chosen, title: `Descriptors of ${summary.title}`, source: datasetUri, algorithm, parameters: params.written };
}

/** One compound (its SMILES known to the service). */
export function compoundDescriptorRequest(compound: string, smiles: string, params: Params, algorithm: string): DescriptorRequest {
  return { rows: [{ line: 1, compound, smiles }], ...selection(params), title: `Descriptors of ${smiles}`, source: compound, algorithm, parameters: params.written };
}
