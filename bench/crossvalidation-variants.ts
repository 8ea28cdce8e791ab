/**
 * Why Kazius cross-validation accuracy is ≈ 0.75 and not the 0.84 aimed at: the same 10 folds
 * (validate/folds.ts, seed 1, unit = standard InChI) and the same BBRC features per training
 * fold as `POST /validation/crossvalidation` (algorithms/mining/job.ts `mine`, default 5 ‰), with
 * the prediction step varied in process:
 *
 * - lazar's weighted majority vote (learn/wmv.ts) over every training instance with
 *   weighted Tanimoto > min_sim (learn/similarity.ts) at min_sim 0.3 (the reference default), 0.5, 0.7;
 * - the same with unweighted Tanimoto (as lazar's 2013–2015 services computed it), with
 *   chi-square weights instead of fminer's
 *   1 − p (which is ≥ 0.95 for every significant pattern, so the weights hardly differ);
 * - the k most similar instances only (k-NN), and votes weighted by similarity^4 and ^10;
 * - RDKit Morgan fingerprints (radius 2, 2048 bits) with plain Tanimoto instead of BBRC
 *   features, as a reference point for structural read-across on this data;
 * - a neighbour vote on the geometric mean of the BBRC and the Morgan similarity;
 * - the accuracy of the reference method among predictions whose confidence (|Σ±s|/n)
 *   exceeds 0.025 (ToxCreate's suggested cut-off), 0.1, 0.15, 0.2, with coverage;
 * - with `--forest`: a global learner instead of neighbours, a random forest (learn/forest.ts,
 *   200 trees, seed 1) on the BBRC features of each training fold, on the Morgan bits, and on
 *   both. This asks whether *any* learner reaches 0.84 on these features (7 more minutes).
 *
 * The figures are recorded in docs/benchmarks.md. Usage:
 *   nice -n 19 npx tsx bench/crossvalidation-variants.ts [--forest]
 */
import { loadRDKit } from "../src/chem/rdkit.ts";
import { ForestData, trainForest } from "../src/learn/forest.ts";
import { encodeSmiles } from "../src/chem/labelled-graph.ts";
import { moleculeFromSmiles, QuerySet } from "../src/chem/smarts/index.ts";
import { mine } from "../src/algorithms/mining/job.ts";
import { assignFolds } from "../src/validate/folds.ts";
import { kaziusMiningInput } from "../test/helpers/data.ts";

const rdkit = await loadRDKit();
const { compounds, activity } = kaziusMiningInput();
const inchis = compounds.map((c) => encodeSmiles(rdkit, c.smiles)?.inchi ?? `unreadable-${c.id}`);
const folds = assignFolds(inchis, { numFolds: 10, seed: 1 });
const y = compounds.map((c) => activity.get(c.id)!);

interface Fold {
  /** Per test compound, similarities to every training instance under each similarity. */
  readonly sims: Map<string, Float64Array[]>;
  readonly trainY: Int8Array;
  readonly testY: Int8Array;
  readonly unreadable: number;
}

/** Weighted Tanimoto of two sorted feature lists: Σ w over shared / Σ w over the union. */
function tanimoto(a: Int32Array, b: Int32Array, w: Float64Array, sa: number, sb: number): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! === b[j]!) {
      shared += w[a[i]!]!;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  const union = sa + sb - shared;
  return union > 0 ? shared / union : 0;
}

function similarities(train: Int32Array[], test: Int32Array[], weights: Float64Array): Float64Array[] {
  const sum = (f: Int32Array): number => f.reduce((s, j) => s + weights[j]!, 0);
  const st = train.map(sum);
  return test.map((q) => {
    const sq = sum(q);
    return Float64Array.from(train, (t, r) => tanimoto(q, t, weights, sq, st[r]!));
  });
}

const morgan = compounds.map((c) => {
  const mol = rdkit.get_mol(c.smiles);
  if (mol === null) return null;
  const bits = mol.get_morgan_fp(JSON.stringify({ radius: 2, nBits: 2048 }));
  mol.delete();
  const on: number[] = [];
  for (let i = 0; i < bits.length; i++) if (bits[i] === "1") on.push(i);
  return Int32Array.from(on);
});

const withForest = process.argv.includes("--forest");
/** Forest votes counted over all folds, per feature set. */
const forest = new Map<string, { correct: number; instances: number }>();

/**
 * Train a 200-tree random forest on the training rows' binary features and count its correct
 * predictions of the test rows (rows: the training rows, then the test rows; each row lists its
 * feature columns).
 */
function forestFold(label: string, rows: ArrayLike<number>[], p: number, nTrain: number, labels: Int8Array): void {
  const n = rows.length;
  const x = new Float64Array(n * p);
  rows.forEach((on, i) => {
    for (let k = 0; k < on.length; k++) x[on[k]! * n + i] = 1;
  });
  const data = ForestData.fromColumnMajor(x, n, p);
  const rf = trainForest(data, { kind: "classification", classes: Int32Array.from(labels), nClasses: 2 }, { ntree: 200, seed: 1, rows: Int32Array.from({ length: nTrain }, (_, i) => i) });
  const predicted = rf.predict(data, Int32Array.from({ length: n - nTrain }, (_, i) => nTrain + i));
  const tally = forest.get(label) ?? { correct: 0, instances: 0 };
  predicted.forEach((c, q) => {
    if (c === labels[nTrain + q]) tally.correct++;
  });
  tally.instances += n - nTrain;
  forest.set(label, tally);
}

const data: Fold[] = [];
const t0 = performance.now();
for (let f = 0; f < 10; f++) {
  const trainIdx: number[] = [];
  const testIdx: number[] = [];
  compounds.forEach((_, i) => (folds.instanceFold[i] === f ? testIdx : trainIdx).push(i));
  const rows = trainIdx.map((i, j) => ({ id: j + 1, smiles: compounds[i]!.smiles, inchi: inchis[i]!, activity: y[i]! + 1 }));
  const minfreq = Math.max(2, Math.floor((5 * rows.length) / 1000));
  const run = mine(rdkit, { miner: "bbrc", options: { minfreq }, rows, classes: ["0", "1"] });
  const seen = new Set<string>();
  const found = run.found.filter((p) => !seen.has(p.smarts) && (seen.add(p.smarts), true));
  const rowOfTid = run.compounds.ids.map((id) => id - 1);
  const trainFeat: number[][] = trainIdx.map(() => []);
  found.forEach((p, j) => {
    for (let q = 0; q < p.tids.length; q++) trainFeat[rowOfTid[p.tids[q]!]!]!.push(j);
  });
  const set = new QuerySet(found.map((p) => p.smarts));
  const readable = testIdx.filter((i) => moleculeFromSmiles(rdkit, compounds[i]!.smiles) !== null && morgan[i] !== null);
  const testFeat = readable.map((i) => {
    const counts = set.countAll(moleculeFromSmiles(rdkit, compounds[i]!.smiles)!, 1);
    const on: number[] = [];
    for (let j = 0; j < counts.length; j++) if (counts[j]! > 0) on.push(j);
    return Int32Array.from(on);
  });
  const train = trainFeat.map((l) => Int32Array.from(l.sort((a, b) => a - b)));
  const sims = new Map<string, Float64Array[]>();
  sims.set("pValue", similarities(train, testFeat, Float64Array.from(found, (p) => p.pValue)));
  sims.set("unweighted", similarities(train, testFeat, new Float64Array(found.length).fill(1)));
  sims.set("chi-square", similarities(train, testFeat, Float64Array.from(found, (p) => p.stat)));
  const trainMorgan = trainIdx.map((i) => morgan[i] ?? new Int32Array(0));
  const testMorgan = readable.map((i) => morgan[i]!);
  sims.set("Morgan", similarities(trainMorgan, testMorgan, new Float64Array(2048).fill(1)));
  const bbrcMorgan = (a: Int32Array[], b: Int32Array[]): Int32Array[] => a.map((f, i) => Int32Array.from([...f, ...b[i]!.map((j) => found.length + j)]));
  const geometric = sims.get("pValue")!.map((row, q) => row.map((s, r) => Math.sqrt(s * sims.get("Morgan")![q]![r]!)));
  sims.set("BBRC × Morgan", geometric);
  if (withForest) {
    const labels = Int8Array.from([...trainIdx, ...readable], (i) => y[i]!);
    forestFold("random forest, BBRC features", [...train, ...testFeat], found.length, train.length, labels);
    forestFold("random forest, Morgan bits", [...trainMorgan, ...testMorgan], 2048, train.length, labels);
    forestFold("random forest, BBRC features and Morgan bits", [...bbrcMorgan(train, trainMorgan), ...bbrcMorgan(testFeat, testMorgan)], found.length + 2048, train.length, labels);
  }
  data.push({ sims, trainY: Int8Array.from(trainIdx, (i) => y[i]!), testY: Int8Array.from(readable, (i) => y[i]!), unreadable: testIdx.length - readable.length });
  console.error(`fold ${f + 1}: ${found.length} BBRC features (min frequency ${minfreq}), ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

interface Variant {
  readonly label: string;
  readonly sim: string;
  readonly minSim: number;
  readonly k?: number;
  readonly power?: number;
  readonly minConfidence?: number;
}

function evaluate(v: Variant): string {
  let correct = 0;
  let predicted = 0;
  let instances = 0;
  for (const f of data) {
    instances += f.testY.length + f.unreadable;
    f.sims.get(v.sim)!.forEach((sim, q) => {
      let chosen: number[] = [];
      for (let r = 0; r < sim.length; r++) if (sim[r]! > v.minSim) chosen.push(r);
      if (v.k !== undefined) chosen = chosen.sort((a, b) => sim[b]! - sim[a]!).slice(0, v.k);
      if (chosen.length === 0) return;
      let vote = 0;
      for (const r of chosen) vote += (f.trainY[r] === 1 ? 1 : -1) * sim[r]! ** (v.power ?? 1);
      const confidence = Math.abs(vote) / chosen.length;
      if (v.minConfidence !== undefined && !(confidence > v.minConfidence)) return;
      predicted++;
      if ((vote >= 0 ? 1 : 0) === f.testY[q]) correct++;
    });
  }
  return `${v.label.padEnd(58)} accuracy ${(correct / predicted).toFixed(3)}  predicted ${predicted} of ${instances} (${((100 * predicted) / instances).toFixed(0)} %)`;
}

const variants: Variant[] = [
  { label: "reference: WMV, weighted Tanimoto (1 − p), min_sim 0.3", sim: "pValue", minSim: 0.3 },
  { label: "WMV, min_sim 0.5", sim: "pValue", minSim: 0.5 },
  { label: "WMV, min_sim 0.7", sim: "pValue", minSim: 0.7 },
  { label: "WMV, unweighted Tanimoto, min_sim 0.3", sim: "unweighted", minSim: 0.3 },
  { label: "WMV, chi-square weights, min_sim 0.3", sim: "chi-square", minSim: 0.3 },
  { label: "k-NN k = 1", sim: "pValue", minSim: 0, k: 1 },
  { label: "k-NN k = 5", sim: "pValue", minSim: 0, k: 5 },
  { label: "k-NN k = 10", sim: "pValue", minSim: 0, k: 10 },
  { label: "WMV, votes weighted by similarity^4", sim: "pValue", minSim: 0.3, power: 4 },
  { label: "WMV, votes weighted by similarity^10", sim: "pValue", minSim: 0.3, power: 10 },
  { label: "Morgan r2 Tanimoto, WMV, min_sim 0.3", sim: "Morgan", minSim: 0.3 },
  { label: "Morgan r2 Tanimoto, WMV similarity^4", sim: "Morgan", minSim: 0.3, power: 4 },
  { label: "√(BBRC sim. × Morgan sim.), 20 most similar, sim.^4", sim: "BBRC × Morgan", minSim: 0, k: 20, power: 4 },
  ...[0.025, 0.1, 0.15, 0.2].map((c) => ({ label: `reference, confidence > ${c}`, sim: "pValue", minSim: 0.3, minConfidence: c })),
];
console.log(`Kazius (${compounds.length} rows), 10 folds, seed 1; ${new Date().toISOString()}`);
for (const v of variants) console.log(evaluate(v));
for (const [label, { correct, instances }] of forest) {
  const all = data.reduce((s, f) => s + f.testY.length + f.unreadable, 0);
  console.log(`${label.padEnd(58)} accuracy ${(correct / instances).toFixed(3)}  predicted ${instances} of ${all} (${((100 * instances) / all).toFixed(0)} %)`);
}
