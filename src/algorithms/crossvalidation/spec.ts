/**
 * Cross-validation of the lazar algorithm (docs/cross-validation.md: parameters, folds,
 * pooled statistics):
 * `POST /validation/crossvalidation` checks the model parameters as `/algorithm/qsar` would, then
 * a task assigns folds by unique compound (src/validate/folds.ts: seeded, documented), runs one
 * pool job per fold and stores the cross-validation. Features: mined inside each training fold
 * (BBRC or LAST, the default: the test fold never influences them), or read from a
 * `feature_dataset_uri` (descriptors, or substructures mined before — then on every compound,
 * test folds included, which makes the estimate optimistic). Descriptors computed on the fly
 * are not offered: they do not depend on the endpoint, so compute them once
 * (`POST <dataset>/pc`) and pass that feature dataset. The result:
 *
 *   <cv> a ot:Validation, qg:CrossValidation ; dc:date ; ot:algorithm <…/qsar> ;
 *        ot:trainingDataset <d> ; ot:dependentVariables <endpoint> ; qg:algorithmParams "…" ;
 *        qg:numFolds k ; qg:randomSeed s ; qg:stratified b ; qg:classValue "1\tfalse" … ;
 *        qg:<statistic> x (pooled: accuracy, averageAreaUnderRoc, rootMeanSquaredError, …) ;
 *        qg:prediction <cv#p{i}> .
 *   <cv#p{i}> ot:compound <c> ; qg:fold f ; qg:measuredActivity "v" ; qg:predictedValue "v"? ; qg:confidence x? .
 *
 * Every prediction is kept; the full statistics and the report are computed from them on demand.
 */
import { DataFactory } from "n3";
import { BadRequest } from "../../errors.ts";
import type { AlgorithmSpec } from "../../resources/algorithm.ts";
import { EntryOrder, readColumn } from "../../resources/entry-order.ts";
import { parseParams, type Params } from "../../resources/params.ts";
import type { Uris } from "../../resources/uris.ts";
import type { StoreBackend } from "../../store/backend.ts";
import { dc, ot, type Vocab } from "../../store/vocab.ts";
import { assignFolds, FoldError } from "../../validate/index.ts";
import type { FoldInput } from "./job.ts";
import { buildModelData, type ModelData } from "../lazar/model-data.ts";
import { LAZAR, modelRequest } from "../lazar/spec.ts";
import type { CrossValidationParameters } from "../../resources/validation.ts";
import type { ForestSettings } from "../forest/spec.ts";

const { quad } = DataFactory;

export const CROSSVALIDATION: AlgorithmSpec = {
  path: "validation/crossvalidation",
  aliases: [],
  title: "Cross-validation",
  description: "k-fold cross-validation of the lazar algorithm: folds by unique compound, features mined inside each training fold (or read from a feature_dataset_uri in algorithm_params), statistics pooled over all folds.",
  types: [],
  parameters: [
    { name: "algorithm_uri", description: "the algorithm to validate: /algorithm/qsar (or /algorithm/lazar)", required: true, kind: { type: "feature" } },
    { name: "dataset_uri", description: "the dataset (a dataset of this service)", required: true, kind: { type: "dataset" } },
    { name: "prediction_feature", description: "the endpoint (optional when the dataset has one feature)", required: false, kind: { type: "feature" } },
    { name: "algorithm_params", description: "the model parameters as name=value;name=value (e.g. min_frequency=8;prediction_algorithm=weighted_majority_vote)", required: false, default: "", kind: { type: "text" } },
    { name: "num_folds", description: "number of folds", required: false, default: "10", kind: { type: "integer", min: 2, max: 100 } },
    { name: "random_seed", description: "seed of the fold assignment (src/validate/folds.ts documents the algorithm)", required: false, default: "1", kind: { type: "integer", min: 0, max: 4294967295 } },
    { name: "stratified", description: "false, or true: folds keep the class proportions (numeric endpoints: value-sorted blocks)", required: false, default: "false", kind: { type: "enum", values: ["false", "true"] } },
  ],
};

export interface CrossValidationRequest extends CrossValidationParameters {
  readonly title: string;
  /** Per measured value: the compound, the structure as its row draws it, the compound's InChI. */
  readonly instances: readonly { readonly compound: string; readonly smiles: string | null; readonly inchi?: string; readonly activity: number; readonly label: string }[];
  /** Features: mined per training fold (settings; per-mil minimum frequency recomputed per fold), or stored. */
  readonly features:
    | { readonly kind: "mined"; readonly fold: Omit<FoldInput, "train" | "test">; readonly frequency: { readonly absolute: number } | { readonly perMil: number } }
    | { readonly kind: "stored"; readonly data: ModelData }
    | { readonly kind: "kernel"; readonly confidenceLevel: number }
    | { readonly kind: "forest"; readonly settings: ForestSettings };
}

/** `name=value;name=value` → raw parameters (a name may not repeat). */
export function parseAlgorithmParams(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of text.split(";").map((x) => x.trim()).filter(Boolean)) {
    const eq = part.indexOf("=");
    if (eq <= 0) throw new BadRequest(`parameter 'algorithm_params': '${part}' is not name=value`, { field: "algorithm_params" });
    const name = part.slice(0, eq).trim();
    out.set(name, [...(out.get(name) ?? []), part.slice(eq + 1).trim()]);
  }
  return out;
}

export async function crossValidationRequest(params: Params, rawAlgorithmParams: string, store: StoreBackend, uris: Uris, v: Vocab): Promise<CrossValidationRequest> {
  const algorithmUri = params.string("algorithm_uri")!;
  if (![`${uris.algorithms()}/qsar`, `${uris.algorithms()}/lazar`].includes(algorithmUri)) {
    throw new BadRequest(`parameter 'algorithm_uri': ${algorithmUri} cannot be cross-validated here; use ${uris.algorithms()}/qsar`, { field: "algorithm_uri" });
  }
  const raw = parseAlgorithmParams(rawAlgorithmParams);
  for (const n of ["dataset_uri", "prediction_feature"]) {
    if (raw.has(n)) throw new BadRequest(`algorithm_params must not contain ${n}: it is a parameter of the cross-validation itself`, { field: "algorithm_params" });
  }
  const datasetUri = params.string("dataset_uri")!;
  raw.set("dataset_uri", [datasetUri]);
  const pf = params.string("prediction_feature");
  if (pf !== undefined) raw.set("prediction_feature", [pf]);
  const modelParams = parseParams(LAZAR, raw);
  const m = await modelRequest(modelParams, raw, store, uris, v);
  if (m.generator.kind === "descriptors") {
    throw new BadRequest(
      `descriptors computed on the fly are not cross-validated: they do not depend on the endpoint, so compute them once (POST ${datasetUri}/pc) and give the result as feature_dataset_uri in algorithm_params`,
      { field: "algorithm_params" },
    );
  }
  const classes = m.record.classes;
  const instances: CrossValidationRequest["instances"][number][] = [];
  for (const r of await readColumn(new EntryOrder(store, v), datasetUri, m.record.endpoint)) {
    const activity = classes.length > 0 ? classes.indexOf(r.value) + 1 : Number(r.value);
    if (!Number.isFinite(activity) || activity === 0) continue;
    instances.push({ compound: r.compound, smiles: r.smiles ?? r.compoundSmiles ?? null, ...(r.inchi !== undefined ? { inchi: r.inchi } : {}), activity, label: r.value });
  }
  const seed = params.number("random_seed")!;
  const numFolds = params.number("num_folds")!;
  const stratified = params.string("stratified") === "true";
  try {
    assignFolds(instances.map((i) => i.compound), { numFolds, seed, stratified }, instances.map((i) => i.label));
  } catch (e) {
    if (e instanceof FoldError) throw new BadRequest(`cannot make the folds: ${e.message}`, { field: "num_folds" });
    throw e;
  }
  const common = {
    title: `Cross-validation of ${m.title}`,
    datasetUri,
    endpoint: m.record.endpoint,
    algorithmUri,
    algorithmParams: rawAlgorithmParams,
    predictionAlgorithm: m.record.predictionAlgorithm,
    numFolds,
    seed,
    stratified,
    classes,
    instances,
  };
  if (m.generator.kind === "kernel") return { ...common, features: { kind: "kernel", confidenceLevel: m.generator.settings.confidenceLevel } };
  if (m.generator.kind === "forest") return { ...common, features: { kind: "forest", settings: m.generator.settings } };
  if (m.generator.kind === "stored") {
    const data = await buildModelData(store, { ...m.record, uri: `${datasetUri}#crossvalidation`, featureDataset: m.generator.uri }, v);
    return { ...common, features: { kind: "stored", data } };
  }
  const miner = m.generator.request.miner;
  return {
    ...common,
    features: {
      kind: "mined",
      frequency: modelParams.frequency("min_frequency") ?? (miner.miner === "last" ? { perMil: 80 } : { perMil: 5 }),
      fold: {
        miner: { miner: miner.miner, options: miner.options } as FoldInput["miner"],
        classes,
        algorithm: m.record.predictionAlgorithm as FoldInput["algorithm"],
        minSim: m.record.minSim,
        minTrainPerformance: m.record.minTrainPerformance,
        nrHits: m.record.nrHits,
      },
    },
  };
}
