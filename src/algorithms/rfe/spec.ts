/**
 * Feature selection by recursive feature elimination as an algorithm, as lazar's feature
 * selection service offered it (R caret's `rfe` with random forests; src/learn/rfe.ts says how
 * it is reproduced): `POST /algorithm/fs/rfe` (dataset_uri with the endpoint, prediction_feature,
 * feature_dataset_uri with the candidate features, del_missing, random_seed) → task → a feature
 * dataset with the selected features, their metadata copied from the input, and the values of
 * every compound. The selection (src/learn/rfe.ts: cleaning, k-NN imputation, random-forest
 * importance with bootstrap resampling, sizes 30–70 %) runs on worker threads.
 */
import { BadRequest } from "../../errors.ts";
import { type RfeEndpoint } from "../../learn/rfe.ts";
import type { AlgorithmSpec } from "../../resources/algorithm.ts";
import type { FeatureView } from "../../resources/dataset-read.ts";
import type { Params } from "../../resources/params.ts";
import { read } from "../../resources/reads.ts";
import type { Uris } from "../../resources/uris.ts";
import type { StoreBackend } from "../../store/backend.ts";
import { NS, type Vocab } from "../../store/vocab.ts";
import { endpoint } from "../mining/spec.ts";
import { requireDataset } from "../checks.ts";

export const RFE: AlgorithmSpec = {
  path: "fs/rfe",
  aliases: ["feature_selection/rfe"],
  title: "Recursive feature elimination",
  description:
    "Selects the most informative features for an endpoint: random-forest importance ranking with bootstrap resampling, candidate subset sizes from 30 % to 70 % of the features, the size with the best resampled performance wins (as caret's rfe, which the reference used).",
  types: [`${NS.ota}FeatureSelection`],
  parameters: [
    { name: "dataset_uri", description: "the dataset holding the endpoint", required: true, kind: { type: "dataset" } },
    { name: "prediction_feature", description: "the endpoint (optional when the dataset has one feature)", required: false, kind: { type: "feature" } },
    { name: "feature_dataset_uri", description: "the candidate features (numeric), e.g. descriptors", required: true, kind: { type: "dataset" } },
    { name: "del_missing", description: "true: drop compounds with a missing value; false: impute them from the 5 nearest compounds", required: false, default: "false", kind: { type: "boolean" } },
    { name: "random_seed", description: "seed of the resampling and the forests", required: false, default: "1", kind: { type: "integer", min: 0, max: 4294967295 } },
  ],
};

export interface RfeRequest {
  readonly title: string;
  readonly source: string;
  readonly featureDataset: string;
  readonly features: readonly FeatureView[];
  readonly compounds: readonly { readonly compound: string; readonly line: number }[];
  readonly columns: readonly Float64Array[];
  readonly endpoint: RfeEndpoint;
  /** Every compound of the feature dataset with its values (for the result). */
  readonly all: ReadonlyMap<string, Float64Array>;
  /** The feature dataset's compounds with their lines there (the result's entries). */
  readonly fdCompounds: readonly { readonly compound: string; readonly line: number }[];
  readonly parameters: readonly (readonly [string, string])[];
  readonly delMissing: boolean;
  readonly seed: number;
}

export async function rfeRequest(params: Params, store: StoreBackend, uris: Uris, v: Vocab): Promise<RfeRequest> {
  const datasetUri = params.string("dataset_uri")!;
  const fdUri = params.string("feature_dataset_uri")!;
  requireDataset(datasetUri, "dataset_uri", store, uris);
  requireDataset(fdUri, "feature_dataset_uri", store, uris);
  const [summary, fdSummary] = await Promise.all([read(store, v, "datasetSummary", datasetUri), read(store, v, "datasetSummary", fdUri)]);
  const target = endpoint(summary, params.string("prediction_feature"));
  const nominal = target.types.includes("NominalFeature");
  const features = fdSummary.features.filter((f) => f.types.includes("NumericFeature") && f.uri !== target.uri);
  if (features.length === 0) throw new BadRequest(`the feature dataset ${fdUri} has no numeric features`, { field: "feature_dataset_uri" });
  const [values, column, inDataset, fdCompounds] = await Promise.all([
    read(store, v, "featureValues", fdUri, features),
    read(store, v, "featureColumn", datasetUri, target.uri),
    read(store, v, "compoundsWithFirstLine", datasetUri),
    read(store, v, "compoundsWithFirstLine", fdUri),
  ]);
  // The endpoint's first value per compound, for the compounds the feature dataset describes.
  const y = new Map<string, string>();
  for (const r of column) if (!y.has(r.compound)) y.set(r.compound, r.value);
  const compounds = inDataset.filter((c) => y.has(c.compound) && values.has(c.compound));
  if (compounds.length < 10) {
    throw new BadRequest(`only ${compounds.length} compounds have both a value of ${target.uri} and features in ${fdUri}; feature selection needs at least 10`, { field: "feature_dataset_uri" });
  }
  const columns = features.map((_, j) => Float64Array.from(compounds, (c) => values.get(c.compound)![j]!));
  const labels = compounds.map((c) => y.get(c.compound)!);
  const rfeEndpoint: RfeEndpoint = nominal ? { kind: "classification", labels } : { kind: "regression", values: labels.map((x) => Number(x)) };
  return {
    title: `${summary.title}: features selected from ${fdSummary.title}`,
    source: fdUri,
    featureDataset: fdUri,
    features,
    compounds,
    columns,
    endpoint: rfeEndpoint,
    all: values,
    fdCompounds,
    parameters: [...params.written.filter(([n]) => n !== "prediction_feature"), ["prediction_feature", target.uri]],
    delMissing: params.boolean("del_missing") ?? false,
    seed: params.number("random_seed") ?? 1,
  };
}
