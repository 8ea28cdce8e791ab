/**
 * The substructure miners' descriptions (BBRC, LAST-PM: parameters and defaults as fminer's), the
 * request check (before the 202) and the training data's read (in the task, from the store in
 * steps); operation.ts mines in a worker (job.ts) and commits the feature dataset with the task's
 * completion.
 */
import { BadRequest } from "../../errors.ts";
import { absoluteFrequency, type Params } from "../../resources/params.ts";
import { ALGORITHM_TYPES, type AlgorithmSpec, type ParamSpec } from "../../resources/algorithm.ts";
import type { DatasetSummary, FeatureView } from "../../resources/dataset-read.ts";
import { EntryOrder, readColumn } from "../../resources/entry-order.ts";
import { read } from "../../resources/reads.ts";
import type { Uris } from "../../resources/uris.ts";
import type { StoreBackend } from "../../store/backend.ts";
import type { Vocab } from "../../store/vocab.ts";
import { parseNumber } from "../../tabular/typing.ts";
import type { MinerOptions, MiningInput, MiningRow } from "./job.ts";
import { requireDataset } from "../checks.ts";

const COMMON = [
  { name: "dataset_uri", description: "the training dataset (a dataset of this service)", required: true, kind: { type: "dataset" } },
  {
    name: "prediction_feature",
    description: "the endpoint: a feature of the dataset, nominal with 2–5 classes (classification) or numeric only (regression); may be left out when the dataset has one feature",
    required: false,
    kind: { type: "feature" },
  },
  {
    name: "nr_hits",
    description: "true: a feature's value is the number of times the pattern occurs in the compound (embeddings, counted as fminer counts them); false: 1 where it occurs",
    required: false,
    default: "false",
    kind: { type: "boolean" },
  },
] as const;

/** The miners' minimum support, with each miner's default (lazar's: BBRC 5 ‰, LAST-PM 80 ‰). */
function minFrequency(defaultValue: string): ParamSpec {
  return {
    name: "min_frequency",
    description: "minimum support: a count of training compounds, or <n>pc (per cent) / <n>pm (per mil) of them (then at least 2)",
    required: false,
    default: defaultValue,
    kind: { type: "frequency" },
  };
}

/**
 * The most patterns a search may visit (mining/budget.ts). The heaviest run measured with fminer
 * itself, every significant tree of Kazius (4,069 compounds) at minimum support 20 with
 * backbone=false (fminer finds 214,143 such trees), visits 235,244 patterns here; the default
 * leaves it twice that. Regression trees of ~1,000 compounds pass it (LOAEL at support
 * 4: over a million) and stop with a 400 instead of running for hours.
 */
export const DEFAULT_MAX_VISITED = 500_000;

const MAX_VISITED: ParamSpec = {
  name: "max_visited",
  description: `the most patterns the search may visit (frequent candidates, significant or not); a search that would visit more stops with an error saying which parameter to change`,
  required: false,
  default: String(DEFAULT_MAX_VISITED),
  kind: { type: "integer", min: 1, max: 100_000_000 },
};

export const BBRC: AlgorithmSpec = {
  path: "miner/bbrc",
  aliases: ["fminer/bbrc", "fminer"],
  title: "BBRC",
  description:
    "Backbone refinement class representatives: class-correlated paths and trees (Maunz, Helma, Kramer 2009), as fminer computes them. Each significant pattern becomes an ot:Substructure feature with its SMARTS, p-value and effect.",
  types: [ALGORITHM_TYPES.patternMiningSupervised, ALGORITHM_TYPES.substructure],
  parameters: [
    ...COMMON,
    minFrequency("5pm"),
    MAX_VISITED,
    { name: "feature_type", description: "trees (paths and trees) or paths only", required: false, default: "trees", kind: { type: "enum", values: ["trees", "paths"] } },
    { name: "backbone", description: "true: one representative per backbone refinement class; false: every significant pattern", required: false, default: "true", kind: { type: "boolean" } },
    {
      name: "min_chisq_significance",
      description: "significance level 0–1 of the chi-square test (df = 1); default: 95 % for df = classes − 1",
      required: false,
      kind: { type: "number", min: 0, max: 1 },
    },
  ],
};

export const LAST: AlgorithmSpec = {
  path: "miner/last",
  aliases: ["fminer/last"],
  title: "LAST-PM",
  description:
    "Latent structure pattern mining (Maunz, Helma, Cramer, Kramer 2010): class-correlated trees merged into weighted latent structures, written as SMARTS with atom alternatives and optional branches, as liblast and lazar's last-utils compute them. Each latent structure becomes an ot:Substructure feature; its occurrences come from matching the SMARTS on the training compounds.",
  types: [ALGORITHM_TYPES.patternMiningSupervised, ALGORITHM_TYPES.substructure],
  parameters: [
    ...COMMON,
    minFrequency("80pm"),
    MAX_VISITED,
  ],
};

export const MINERS: readonly AlgorithmSpec[] = [BBRC, LAST];

/** The miner's input as the task gives it to the worker (the dataset's URI and date are the task's). */
export type MiningTaskInput = MinerOptions & Omit<MiningInput, "dataset" | "miner" | "options"> & { readonly dataset: Omit<MiningInput["dataset"], "created" | "uri"> };

/**
 * A miner run as checked when it is asked for: the parameters, and the endpoint as the dataset
 * describes it. The training data are read by `miningInput`, in the task: a large dataset's
 * column is many reads of the store (93,000 rows: 187 over HTTP on an external store, minutes on a
 * busy one), too long to keep a client waiting for its 202.
 */
export interface MiningRequest {
  readonly title: string;
  readonly params: Params;
  readonly datasetUri: string;
  readonly endpoint: FeatureView;
  /** The endpoint's classes in order (none for a numeric endpoint). */
  readonly classes: readonly string[];
  /** The miner and its options but the minimum support, which depends on the training data. */
  readonly miner: MinerOptions;
  readonly nrHits: boolean;
  readonly dataset: { readonly base: string; readonly title: string; readonly algorithm: string };
}

/** Feature URIs for a message: all of a few, the first ten of many. */
function listed(features: readonly FeatureView[]): string {
  const shown = features.slice(0, 10).map((f) => f.uri).join(", ");
  return features.length > 10 ? `${shown}, … (${features.length} in all)` : shown;
}

export function endpoint(summary: DatasetSummary, given: string | undefined): FeatureView {
  if (given === undefined) {
    if (summary.features.length === 1) return summary.features[0]!;
    throw new BadRequest(`parameter 'prediction_feature' is required: the dataset has ${summary.features.length} features (${listed(summary.features)})`, { field: "prediction_feature" });
  }
  const f = summary.features.find((x) => x.uri === given);
  if (!f) throw new BadRequest(`parameter 'prediction_feature': ${given} is not a feature of ${summary.uri}; its features are ${listed(summary.features)}`, { field: "prediction_feature" });
  return f;
}

/** Check a miner request against the dataset's description (main thread, before the task; the dataset must exist). */
export async function miningRequest(spec: AlgorithmSpec, params: Params, store: StoreBackend, uris: Uris, v: Vocab): Promise<MiningRequest> {
  const datasetUri = params.string("dataset_uri")!;
  requireDataset(datasetUri, "dataset_uri", store, uris);
  const summary = await read(store, v, "datasetSummary", datasetUri);
  const feature = endpoint(summary, params.string("prediction_feature"));
  const nominal = feature.types.includes("NominalFeature");
  const numeric = feature.types.includes("NumericFeature");
  const classes = nominal ? feature.acceptValues : [];
  if (nominal && (classes.length < 2 || classes.length > 5)) {
    throw new BadRequest(`the endpoint ${feature.uri} has ${classes.length} class${classes.length === 1 ? "" : "es"} (${classes.join(", ")}); the miners take 2–5 classes or a numeric endpoint`, { field: "prediction_feature" });
  }
  if (!nominal && !numeric) throw new BadRequest(`the endpoint ${feature.uri} has no values`, { field: "prediction_feature" });
  const sig = params.number("min_chisq_significance");
  const maxVisited = params.number("max_visited")!;
  const miner: MinerOptions =
    spec === LAST
      ? { miner: "last", options: { maxVisited, regression: !nominal } }
      : {
          miner: "bbrc",
          options: {
            maxVisited,
            type: params.string("feature_type") === "paths" ? 1 : 2,
            backbone: params.boolean("backbone") ?? true,
            regression: !nominal,
            ...(sig !== undefined ? { chisqSig: sig } : {}),
          },
        };
  const title = `${spec.title} features of ${summary.title}`;
  return {
    title,
    params,
    datasetUri,
    endpoint: feature,
    classes,
    miner,
    nrHits: params.boolean("nr_hits") ?? false,
    dataset: { base: v.base, title, algorithm: `${uris.algorithms()}/${spec.path}` },
  };
}

/**
 * The miner's input: the training column read from the store in steps (resources/entry-order.ts
 * `readColumn`), in the task. A dataset with fewer than two usable rows is a BadRequest (the
 * task fails with it).
 */
export async function miningInput(request: MiningRequest, store: StoreBackend, v: Vocab): Promise<MiningTaskInput> {
  const { classes, endpoint: feature, datasetUri } = request;
  const nominal = classes.length > 0;
  const column = await readColumn(new EntryOrder(store, v), datasetUri, feature.uri);
  const rows: MiningRow[] = [];
  const entries: { line: number; compound: string; id: number }[] = [];
  const inEntries = new Set<string>();
  let withoutSmiles = 0;
  for (const r of column) {
    // the structure as this row draws it (fminer's encoding depends on the spelling)
    const s = r.smiles ?? r.compoundSmiles;
    if (!s) {
      withoutSmiles++;
      continue;
    }
    const activity = nominal ? classes.indexOf(r.value) + 1 : parseNumber(r.value);
    if (activity === null || activity === 0) continue;
    const id = rows.length + 1;
    rows.push({ id, smiles: s, ...(r.inchi !== undefined ? { inchi: r.inchi } : {}), activity });
    if (!inEntries.has(r.compound)) {
      inEntries.add(r.compound);
      entries.push({ line: r.line, compound: r.compound, id });
    }
  }
  if (rows.length < 2) {
    throw new BadRequest(
      `the dataset has ${rows.length} usable training compound${rows.length === 1 ? "" : "s"} for ${feature.uri}` + (withoutSmiles > 0 ? ` (${withoutSmiles} given only as InChI, which the miners cannot read yet)` : ""),
      { field: "dataset_uri" },
    );
  }
  const minfreq = absoluteFrequency(request.params.frequency("min_frequency")!, rows.length);
  const miner = { ...request.miner, options: { ...request.miner.options, minfreq } } as MinerOptions;
  return {
    ...miner,
    rows,
    classes,
    entries,
    nrHits: request.nrHits,
    dataset: {
      ...request.dataset,
      source: datasetUri,
      parameters: [...request.params.written.filter(([n]) => n !== "prediction_feature"), ["prediction_feature", feature.uri], ["absolute_min_frequency", String(minfreq)]],
    },
  };
}
