/**
 * The cross-validation task (main thread): folds assigned, one pool job per fold (`cv.fold`
 * mines in the training fold; `cv.fold.stored` uses a feature dataset's values), the pooled
 * result stored as a cross-validation graph (resources/validation.ts).
 */
import { absoluteFrequency } from "../../resources/params.ts";
import { type Vocab } from "../../store/vocab.ts";
import { assignFolds } from "../../validate/index.ts";
import type { FoldInput, FoldOutput, FoldPrediction } from "./job.ts";
import { KERNEL_FEATURES, type ModelFeatures } from "../global/features.ts";
import { forestFeatureSet } from "../forest/spec.ts";
import type { Operation } from "../jobs.ts";
import type { CrossValidationParameters, StoredPrediction } from "../../resources/validation.ts";
import type { CrossValidationRequest } from "./spec.ts";

export function crossValidationOperation(request: CrossValidationRequest, cvUri: string, v: Vocab): Operation {
  return async (ctx) => {
    const t0 = Date.now();
    const features = request.features;
    const folds = assignFolds(request.instances.map((i) => i.compound), { numFolds: request.numFolds, seed: request.seed, stratified: request.stratified }, request.instances.map((i) => i.label));
    const foldOf = (i: number): number => folds.instanceFold[i]!;
    // a global model's features (the kernel model's, the forest's): once for every compound of
    // the cross-validation (the first share of the progress), each fold picking its rows
    // (algorithms/global/features.ts pickFeatures)
    const global = request.features.kind === "kernel" ? KERNEL_FEATURES : request.features.kind === "forest" ? forestFeatureSet(request.features.settings.features) : undefined;
    // the share of the features (Kazius: kernel ≈ 9 s of 76 s; forest ≈ 3 s of ≈ 240 s)
    const FEATURE_SHARE = request.features.kind === "kernel" ? 0.1 : request.features.kind === "forest" ? 0.02 : 0;
    let kernelFeatures: { all: ModelFeatures; index: Map<string, number> } | undefined;
    if (global) {
      const index = new Map<string, number>();
      const smiles: string[] = [];
      for (const x of request.instances) if (x.smiles !== null && !index.has(x.smiles)) index.set(x.smiles, smiles.push(x.smiles) - 1);
      kernelFeatures = { all: await ctx.run("model.features", { smiles, set: global }, (f) => ctx.progress(0.95 * FEATURE_SHARE * f)), index };
    }
    const done = new Array<number>(request.numFolds).fill(0);
    const outputs = await Promise.all(
      Array.from({ length: request.numFolds }, async (_, k) => {
        const testKeys = new Map<string, string | null>();
        request.instances.forEach((x, i) => foldOf(i) === k && !testKeys.has(x.compound) && testKeys.set(x.compound, x.smiles));
        const onProgress = (f: number): void => {
          done[k] = f;
          ctx.progress(0.95 * (FEATURE_SHARE + ((1 - FEATURE_SHARE) * done.reduce((a, b) => a + b, 0)) / request.numFolds));
        };
        let out: FoldOutput;
        if (features.kind === "stored") {
          out = await ctx.run("cv.fold.stored", { data: features.data, test: [...testKeys.keys()] }, onProgress);
        } else if (features.kind === "kernel" || features.kind === "forest") {
          const train = request.instances.flatMap((x, i) => (foldOf(i) !== k && x.smiles !== null ? [{ smiles: x.smiles, activity: x.activity }] : []));
          // a numeric endpoint's test values go along to score the predictions (their conformal p-values), not to train
          const measured = new Map<string, number[]>();
          if (request.classes.length === 0) request.instances.forEach((x, i) => foldOf(i) === k && measured.set(x.compound, [...(measured.get(x.compound) ?? []), x.activity]));
          const test = [...testKeys].map(([key, smiles]) => ({ key, smiles, ...(measured.has(key) ? { measured: measured.get(key)! } : {}) }));
          const { all, index } = kernelFeatures!;
          const at = (smiles: string | null): number => (smiles === null ? -1 : index.get(smiles)!);
          const picked = { all, train: train.map((t) => at(t.smiles)), test: test.map((t) => at(t.smiles)) };
          out =
            features.kind === "kernel"
              ? await ctx.run("cv.fold.kernel", { train, test, classes: request.classes, confidenceLevel: features.confidenceLevel, features: picked }, onProgress)
              : await ctx.run("cv.fold.forest", { train, test, classes: request.classes, confidenceLevel: features.settings.confidenceLevel, numTrees: features.settings.numTrees, use: features.settings.features, features: picked }, onProgress);
        } else {
          out = await ctx.run("cv.fold", foldInput(request, features, (i) => foldOf(i) !== k, testKeys), onProgress);
        }
        done[k] = 1;
        return out;
      }),
    );
    const byKey = new Map<string, FoldPrediction>();
    outputs.forEach((o) => o.predictions.forEach((p) => byKey.set(p.key, p)));
    const label = (x: number | null): string | number | null => (x === null ? null : request.classes.length > 0 ? (request.classes[Math.round(x) - 1] ?? null) : x);
    const nth = new Map<string, number>(); // a compound's instances so far: the index of its next measured value
    const predictions = request.instances.map((x, i): StoredPrediction => {
      const p = byKey.get(x.compound);
      const predicted = p ? label(p.value) : null;
      const own = { compound: x.compound, fold: foldOf(i), measured: request.classes.length > 0 ? x.label : x.activity, predicted, confidence: predicted === null ? null : (p?.confidence ?? null) };
      if (!p || predicted === null) return own;
      const j = nth.get(x.compound) ?? 0;
      nth.set(x.compound, j + 1);
      const truth = p.truthPValues?.[j];
      return { ...own, ...(p.pValues ? { pValues: p.pValues } : {}), ...(p.interval ? { interval: p.interval } : {}), ...(truth === undefined ? {} : { truthPValue: truth }) };
    });
    const runtimeMs = Date.now() - t0;
    // the statistics and the graph (≈ 50 000 triples for Kazius) are computed in a worker, off the main thread
    const level = features.kind === "kernel" ? features.confidenceLevel : features.kind === "forest" ? features.settings.confidenceLevel : undefined;
    const parameters = { ...crossValidationParameters(request), ...(level !== undefined && request.classes.length === 0 ? { confidenceLevel: level } : {}) };
    const { ntriples } = await ctx.run("cv.graph", { uri: cvUri, base: v.base, parameters, predictions, runtimeMs });
    return { ops: [{ graph: cvUri, ntriples }], resultUri: cvUri };
  };
}

/** The parameters a cross-validation's graph records, without the request's instances and features. */
function crossValidationParameters(r: CrossValidationRequest): CrossValidationParameters & { readonly title: string } {
  return { title: r.title, algorithmUri: r.algorithmUri, datasetUri: r.datasetUri, endpoint: r.endpoint, algorithmParams: r.algorithmParams, predictionAlgorithm: r.predictionAlgorithm, numFolds: r.numFolds, seed: r.seed, stratified: r.stratified, classes: r.classes };
}

/**
 * The input of fold job `cv.fold`: the training instances (those `inTraining` says, with a
 * structure), the miner's settings with the minimum frequency computed for that many rows (a
 * per-mil or per-cent frequency is relative to the training fold), and the test compounds.
 */
export function foldInput(
  request: CrossValidationRequest,
  features: Extract<CrossValidationRequest["features"], { kind: "mined" }>,
  inTraining: (instance: number) => boolean,
  test: ReadonlyMap<string, string | null>,
): FoldInput {
  const train = request.instances.flatMap((x, i) => (inTraining(i) && x.smiles !== null ? [{ key: x.compound, smiles: x.smiles, ...(x.inchi !== undefined ? { inchi: x.inchi } : {}), activity: x.activity }] : []));
  const minfreq = absoluteFrequency(features.frequency, train.length);
  return {
    ...features.fold,
    miner: { ...features.fold.miner, options: { ...features.fold.miner.options, minfreq } } as FoldInput["miner"],
    train,
    test: [...test].map(([key, smiles]) => ({ key, smiles })),
  };
}
