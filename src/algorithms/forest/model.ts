/**
 * A random forest's trained state on the main thread (global/model.ts keeps it per model URI and
 * trains it again after a restart with `trainForest`), and how a forest is trained on the task
 * pool: its features (`model.features`), its trees in two parts at once (`forest.train`: a
 * tree depends on its own seed only, so the parts join into the forest grown in one piece), then
 * `forest.finish` (the parts joined, the calibration, the domain).
 */
import type { ModelRecord } from "../../resources/model.ts";
import type { RunJob } from "../jobs.ts";
import { globalModelData, type GlobalModelData, type TrainingInput } from "../global/model.ts";
import type { ForestTrainInput, TrainedForestModel } from "./job.ts";
import { FOREST_SEED, forestFeatureSet, type ForestSettings } from "./spec.ts";

/** What `model.predict` needs of a forest (plain data: it goes to the worker). */
export type ForestModelData = GlobalModelData<"forest", TrainedForestModel>;

/**
 * Below this many compounds × trees the forest is grown in one part: the second part's copy of
 * the features and its own column matrix cost more than it saves (hamster's 85 compounds ×
 * 200 trees grow in well under a second).
 */
const ONE_PART_BELOW = 20_000;

/**
 * Shares of a training's time: the features, the trees, the finish (Kazius, 4069 compounds, Morgan
 * bits, 200 trees in two parts on two cores: ≈ 3 s, 20–50 s by the machine's load, ≈ 2 s).
 */
const SHARES = { features: 0.1, trees: 0.85, finish: 0.05 } as const;

/** Train a forest on `input` with `settings`, running its jobs with `run` (the task pool); `progress` in [0, 1]. */
export async function trainForestOnPool(run: RunJob, input: TrainingInput, settings: Pick<ForestSettings, "numTrees" | "features">, progress: (f: number) => void = () => undefined): Promise<TrainedForestModel> {
  const features = await run("model.features", { smiles: input.smiles, set: forestFeatureSet(settings.features) }, (f) => progress(SHARES.features * f));
  const train: ForestTrainInput = { features, y: input.y, kind: input.kind, nClasses: input.nClasses, numTrees: settings.numTrees, use: settings.features, seed: FOREST_SEED };
  const T = settings.numTrees;
  const ranges: [number, number][] = features.rows.length * T < ONE_PART_BELOW ? [[0, T]] : [[0, Math.floor(T / 2)], [Math.floor(T / 2), T]];
  const done = ranges.map(() => 0);
  const parts = await Promise.all(
    ranges.map((trees, k) =>
      run("forest.train", { ...train, trees }, (f) => {
        done[k] = f * (trees[1] - trees[0]);
        progress(SHARES.features + (SHARES.trees * done.reduce((a, b) => a + b, 0)) / T);
      }),
    ),
  );
  const trained = await run("forest.finish", { ...train, parts });
  progress(1);
  return trained;
}

/** Train model `m` on its training input (its settings as `settings`), and its data. */
export async function trainForest(run: RunJob, m: Pick<ModelRecord, "uri" | "endpoint" | "classes" | "parameters">, input: TrainingInput, settings: Pick<ForestSettings, "numTrees" | "features">, progress?: (f: number) => void): Promise<ForestModelData> {
  return globalModelData("forest", m, input, await trainForestOnPool(run, input, settings, progress));
}
