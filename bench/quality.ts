/**
 * Quality of the default global model, built from the service's own modules: features as the
 * kernel model's jobs compute them (algorithms/kernel/job.ts `defaultModelFeatures`: Morgan
 * r2/2048, atom pairs, RDKit paths, MACCS, RDKit's 2D descriptors), kernels (learn/kernels.ts: the mean of the four Tanimoto kernels and
 * an RBF on the descriptors standardised on each training fold), the SVM with its conformal
 * calibration (learn/kernel-model.ts), on the service's folds (validate/folds.ts, 10, seed 1,
 * unit = standard InChI). Every compound is predicted once, by the model of the fold it is not in.
 *
 * Printed: classification accuracy (the SVM's decision) and AUC (on the decision value), and the
 * conformal validity — the observed error rate of the prediction sets at significance 0.1 and
 * 0.2 (goal: within ±0.03 of it), the mean set size and the share of single-class sets;
 * regression RMSE and R², and the share of measured values outside the intervals at confidence
 * 0.9 and 0.8 (goal: within ±0.03 of 0.1 and 0.2) with their mean width; and the wall time of
 * features, kernels and the ten folds (one thread).
 *
 *   nice -n 19 npx tsx bench/quality.ts [kazius|epafhm|hansen|loael|daphnia …] [--seed=N]
 */
import { loadRDKit } from "../src/chem/rdkit.ts";
import { encodeSmiles } from "../src/chem/labelled-graph.ts";
import { defaultModelFeatures } from "../src/algorithms/kernel/job.ts";
import { fitStandardiser, meanKernel, rbfCross, standardise, tanimotoGram, type BitRows } from "../src/learn/kernels.ts";
import { predictKernelModel, trainKernelModel } from "../src/learn/kernel-model.ts";
import { predictionSet } from "../src/learn/conformal.ts";
import { loadLibsvm } from "../src/learn/svm.ts";
import { assignFolds } from "../src/validate/folds.ts";
import { wilcoxonAuc } from "../src/validate/statistics.ts";
import { DATASETS, readDataset } from "./quality-data.ts";

const SEED = Number(process.argv.find((a) => a.startsWith("--seed="))?.slice(7) ?? 1);
const names = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const which = names.length > 0 ? names : ["kazius", "epafhm"];
const rdkit = await loadRDKit();
const lib = await loadLibsvm();

/** The default model's settings (docs/benchmarks.md "Quality"). */
const COST = { classification: 2, regression: 10 } as const;
const EPSILON = 0.1;

for (const name of which) {
  const spec = DATASETS[name];
  if (!spec) throw new Error(`unknown data set ${name}; known: ${Object.keys(DATASETS).join(", ")}`);
  const classification = spec.positive !== undefined;
  const kind = classification ? "classification" : "regression";
  const { smiles, y } = readDataset(spec);
  const t0 = performance.now();
  // features as the model's jobs compute them (in job-sized steps)
  const c = await defaultModelFeatures(smiles);
  const keep = c.rows;
  const n = keep.length;
  const fps: BitRows[] = c.fingerprints;
  const p = c.columns;
  const desc = c.descriptors;
  const tFeatures = (performance.now() - t0) / 1000;
  const yk = Float64Array.from(keep, (i) => y[i]!);
  const inchis = Array.from(keep, (i) => encodeSmiles(rdkit, smiles[i]!)?.inchi ?? `unreadable-${i}`);
  const fold = assignFolds(inchis, { numFolds: 10, seed: SEED }).instanceFold;
  const t1 = performance.now();
  const tanimoto = meanKernel(fps.map(tanimotoGram));
  const tKernels = (performance.now() - t1) / 1000;
  const t2 = performance.now();
  const decision = new Float64Array(n);
  const cover = { s10: 0, s20: 0, size10: 0, size20: 0, single20: 0, width10: 0, width20: 0 };
  for (let f = 0; f < 10; f++) {
    const train = Int32Array.from({ length: n }, (_, i) => i).filter((i) => fold[i] !== f);
    const test = Int32Array.from({ length: n }, (_, i) => i).filter((i) => fold[i] === f);
    // the descriptor RBF standardised on this fold's training rows only, then the mean with the four Tanimoto kernels (weight 4:1 of five kernels)
    const st = fitStandardiser(Float64Array.from(Array.from(train).flatMap((i) => Array.from(desc.subarray(i * p, (i + 1) * p)))), train.length, p);
    const z = standardise(st, desc, n);
    const q = st.used.length;
    const rbf = rbfCross(z, n, z, n, q);
    const gram = new Float32Array(n * n);
    for (let i = 0; i < gram.length; i++) gram[i] = (4 * tanimoto[i]! + rbf[i]!) / 5;
    const model = trainKernelModel(lib, gram, n, train, Float64Array.from(train, (i) => yk[i]!), { kind, cost: COST[kind], epsilon: EPSILON, seed: SEED });
    for (const t of test) {
      const k = (j: number): number => gram[t * n + j]!;
      const pr = predictKernelModel(model, k, train, 0.9);
      const pr8 = classification ? pr : predictKernelModel(model, k, train, 0.8);
      if (classification) {
        decision[t] = model.svm.labels[0] === 1 ? pr.decision : -pr.decision;
        const truth = yk[t]!;
        const s10 = predictionSet(pr.pValues!, 0.1);
        const s20 = predictionSet(pr.pValues!, 0.2);
        if (!s10.includes(truth)) cover.s10++;
        if (!s20.includes(truth)) cover.s20++;
        cover.size10 += s10.length;
        cover.size20 += s20.length;
        if (s20.length === 1) cover.single20++;
      } else {
        decision[t] = pr.value;
        const [a, b] = pr.interval!;
        const [c, d] = pr8.interval!;
        if (yk[t]! < a || yk[t]! > b) cover.s10++;
        if (yk[t]! < c || yk[t]! > d) cover.s20++;
        cover.width10 += b - a;
        cover.width20 += d - c;
      }
    }
  }
  const tFolds = (performance.now() - t2) / 1000;
  const fmt = (x: number, d = 3): string => x.toFixed(d);
  console.log(`${name}: ${n} compounds (${smiles.length - n} unreadable), folds seed ${SEED}; features ${fmt(tFeatures, 1)} s, kernels ${fmt(tKernels, 1)} s, 10 folds ${fmt(tFolds, 1)} s, total ${fmt(tFeatures + tKernels + tFolds, 1)} s`);
  if (classification) {
    let correct = 0;
    for (let i = 0; i < n; i++) if ((decision[i]! > 0 ? 1 : 0) === yk[i]) correct++;
    const auc = wilcoxonAuc(Array.from(decision), Array.from(yk, (v) => v === 1));
    console.log(`  accuracy ${fmt(correct / n)}  AUC ${fmt(auc)}`);
    console.log(`  conformal: error rate at significance 0.1 ${fmt(cover.s10 / n)} (mean set size ${fmt(cover.size10 / n, 2)}), at 0.2 ${fmt(cover.s20 / n)} (mean set size ${fmt(cover.size20 / n, 2)}, single-class sets ${fmt(cover.single20 / n)})`);
  } else {
    let sse = 0;
    let mean = 0;
    for (let i = 0; i < n; i++) mean += yk[i]! / n;
    let sst = 0;
    for (let i = 0; i < n; i++) {
      sse += (decision[i]! - yk[i]!) ** 2;
      sst += (yk[i]! - mean) ** 2;
    }
    console.log(`  RMSE ${fmt(Math.sqrt(sse / n))}  R² ${fmt(1 - sse / sst)}`);
    console.log(`  conformal: outside the interval at confidence 0.9 ${fmt(cover.s10 / n)} (mean width ${fmt(cover.width10 / n, 2)}), at 0.8 ${fmt(cover.s20 / n)} (mean width ${fmt(cover.width20 / n, 2)})`);
  }
}
