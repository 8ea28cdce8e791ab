/**
 * How many trees the random forest (prediction_algorithm=random_forest) needs: a 10-fold
 * cross-validation in which every fold grows the largest forest once, in parts
 * ([0, 50), [50, 100), [100, 200), [200, 500): a tree depends on its own seed only, learn/forest.ts),
 * and the forests of 50, 100, 200 and 500 trees are read off the first parts — the same forests
 * `num_trees=50 …500` builds. Each is calibrated and predicts its test fold as the service does
 * (algorithms/forest/job.ts: `forest.finish`, `forest.predict`); printed per forest size: accuracy
 * and AUC (the cross-validation's: validate/statistics.ts, confidence-signed scores) or RMSE and
 * R², the conformal error rate at the model's level (0.8 for numbers: values outside the
 * interval; classes: the true class's p-value ≤ 0.2), and the single-thread seconds the trees took.
 * Folds: the service's fold algorithm (validate/folds.ts, seed 1) over the SMILES of the rows.
 *
 *   nice -n 10 npx tsx bench/forest-trees.ts [kazius|epafhm|…] [--folds=10] [--max=500]
 */
import { forestFinishJob, forestPredictJob, forestTrainJob, type ForestTrainInput } from "../src/algorithms/forest/job.ts";
import { defaultForestFeatures, forestFeatureSet } from "../src/algorithms/forest/spec.ts";
import { modelFeatures, pickFeatures } from "../src/algorithms/global/features.ts";
import type { PackedForestPart } from "../src/learn/forest.ts";
import { assignFolds, classificationStatistics, regressionStatistics, type ClassificationInstance, type RegressionInstance } from "../src/validate/index.ts";
import { DATASETS, readDatasetRows } from "./quality-data.ts";

const name = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? "kazius";
const FOLDS = Number(process.argv.find((a) => a.startsWith("--folds="))?.slice(8) ?? 10);
const MAX = Number(process.argv.find((a) => a.startsWith("--max="))?.slice(6) ?? 500);
const SIZES = [50, 100, 200, 500].filter((t) => t <= MAX);
const spec = DATASETS[name];
if (!spec) throw new Error(`unknown data set ${name}`);
const classification = spec.positive !== undefined;
const rows = readDatasetRows(spec);
const classes = classification ? [...new Set(rows.map((r) => r.value))].sort() : [];
const use = defaultForestFeatures(classes);
console.log(`${name}: ${rows.length} rows, ${classification ? "classification" : "regression"}, features ${use}, ${FOLDS} folds, forests of ${SIZES.join(", ")} trees`);

const t0 = performance.now();
const all = await modelFeatures(rows.map((r) => r.smiles), forestFeatureSet(use));
console.log(`features: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const y = rows.map((r) => (classification ? classes.indexOf(r.value) : Number(r.value)));
const folds = assignFolds(rows.map((r) => r.smiles), { numFolds: FOLDS, seed: 1 });

const instances = SIZES.map((): (ClassificationInstance | RegressionInstance)[] => []);
const outside = SIZES.map(() => 0);
const seconds = SIZES.map(() => 0);
for (let k = 0; k < FOLDS; k++) {
  const train = rows.flatMap((_, i) => (folds.instanceFold[i] !== k ? [i] : []));
  const test = rows.flatMap((_, i) => (folds.instanceFold[i] === k ? [i] : []));
  const input: ForestTrainInput = { features: pickFeatures(all, train), y: train.map((i) => y[i]!), kind: classification ? "classification" : "regression", nClasses: classes.length, numTrees: SIZES.at(-1)!, use, seed: 1 };
  const testFeatures = pickFeatures(all, test);
  const parts: PackedForestPart[] = [];
  let from = 0;
  for (const [s, size] of SIZES.entries()) {
    const t = performance.now();
    parts.push(forestTrainJob({ ...input, trees: [from, size] }));
    seconds[s] += (performance.now() - t) / 1000;
    from = size;
    const model = forestFinishJob({ ...input, parts });
    const { predictions } = await forestPredictJob({ model, smiles: test.map((i) => rows[i]!.smiles), features: testFeatures, confidenceLevel: 0.8, neighbours: 0 });
    predictions.forEach((p, j) => {
      const i = test[j]!;
      if (p.error !== null) return;
      if (classification) {
        instances[s]!.push({ compound: rows[i]!.smiles, fold: k, measured: rows[i]!.value, predicted: classes[p.value]!, confidence: p.confidence });
        if (p.pValues![y[i]!]! <= 0.2) outside[s]!++;
      } else {
        instances[s]!.push({ compound: rows[i]!.smiles, fold: k, measured: y[i]!, predicted: p.value, confidence: p.confidence });
        if (!(y[i]! >= p.interval![0] && y[i]! <= p.interval![1])) outside[s]!++;
      }
    });
  }
  process.stderr.write(`fold ${k + 1}/${FOLDS}\r`);
}
for (const [s, size] of SIZES.entries()) {
  const n = instances[s]!.length;
  // the trees of a forest of `size`: every part up to it
  const time = seconds.slice(0, s + 1).reduce((a, b) => a + b, 0);
  if (classification) {
    const st = classificationStatistics(instances[s] as ClassificationInstance[], classes);
    console.log(`${String(size).padStart(4)} trees: accuracy ${st.accuracy.toFixed(3)}, AUC ${st.averageAreaUnderRoc.toFixed(3)}, conformal error at 0.2 ${(outside[s]! / n).toFixed(3)}, trees ${time.toFixed(0)} s`);
  } else {
    const st = regressionStatistics(instances[s] as RegressionInstance[]);
    console.log(`${String(size).padStart(4)} trees: RMSE ${st.rootMeanSquaredError.toFixed(3)}, R² ${st.rSquare.toFixed(3)}, outside the 0.8 interval ${(outside[s]! / n).toFixed(3)}, trees ${time.toFixed(0)} s`);
  }
}
