/**
 * The lazar learning core (src/learn) on real data; prints measured figures, asserts nothing.
 *
 * 1. Kazius/Bursi (fixtures/data/lazar/test/data/kazius.csv, 4069 compounds), BBRC at minimum
 *    frequency 20, pValue fingerprints: per query, weighted Tanimoto against every training row +
 *    neighbours (> 0.3) + weighted majority vote — p50/p99 ms over 400 queries (training
 *    compounds queried without their identity, so they are predicted, not looked up). SMARTS
 *    matching of the model's patterns on the query (QuerySet, another module) is timed apart.
 * 2. Local SVM classification on a few Kazius queries (hits × pValue fingerprints, full tuning).
 * 3. SVM libraries on real local problems: hamster (BBRC min_frequency 8, every compound) and 6
 *    Kazius queries (hundreds of neighbours), each predicted leave-one-out from its neighbours
 *    with one RBF fit (C = 1, σ from sigest) by libsvm-js (precomputed kernel) and by ml-svm
 *    (binary SMO, kernel computed inside); time per fit and LOO accuracy of both, then the full
 *    tuned local SVM of src/learn.
 * Usage: nice -n 19 npx tsx bench/learn.ts [queries]
 */
import { createRequire } from "node:module";
import { loadRDKit, type RDKit } from "../src/chem/rdkit.ts";
import { mineBbrc, type InputCompound } from "../src/mining/index.ts";
import { chisqCdf1 } from "../src/mining/stats.ts";
import { QuerySet } from "../src/chem/smarts/index.ts";
import { FingerprintMatrix, weightedFingerprint, instancesOf, createLazarModel, loadLibsvm, localSvm, KernelSvm, type SparseFingerprint, type LazarModel } from "../src/learn/index.ts";
import { DATA, readSmilesCsv } from "../test/helpers/data.ts";

const nQueries = Number(process.argv[2] ?? 400);


function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
}

interface Built {
  readonly matrix: FingerprintMatrix;
  readonly hitsMatrix: FingerprintMatrix;
  readonly weights: number[];
  readonly activities: number[];
  readonly smarts: string[];
  readonly graphs: ReturnType<typeof mineBbrc>["compounds"]["graphs"];
  readonly classes: string[];
}

function build(rdkit: RDKit, rows: { smiles: string; value: string }[], minfreq: number): Built {
  const classes = [...new Set(rows.map((r) => r.value))].sort();
  const compounds: InputCompound[] = rows.map((r, i) => ({ id: i + 1, smiles: r.smiles }));
  const activity = new Map(rows.map((r, i) => [i + 1, classes.indexOf(r.value) + 1]));
  const run = mineBbrc(rdkit, compounds, activity, { minfreq });
  const weights = run.patterns.map((p) => Math.round(chisqCdf1(p.stat) * 1e4) / 1e4);
  const smarts = run.patterns.map((p) => p.smarts);
  const occ: { feature: number; hits: number }[][] = run.compounds.ids.map(() => []);
  run.patterns.forEach((p, f) => {
    for (const t of p.tids) occ[t]!.push({ feature: f, hits: 1 });
  });
  const counter = new QuerySet(smarts);
  const hitOcc = run.compounds.graphs.map((g, t) => {
    const c = counter.countAll(g);
    return occ[t]!.map((o) => ({ feature: o.feature, hits: Math.max(1, c[o.feature]!) }));
  });
  return {
    matrix: new FingerprintMatrix(weights.length, occ.map((o) => weightedFingerprint(o, weights, false))),
    hitsMatrix: new FingerprintMatrix(weights.length, hitOcc.map((o) => weightedFingerprint(o, weights, true))),
    weights,
    activities: run.compounds.activities,
    smarts,
    graphs: run.compounds.graphs,
    classes,
  };
}

const rdkit = await loadRDKit();

// 1. Kazius, WMV.
let kazius: Built | null = null;
{
  const rows = readSmilesCsv(`${DATA}lazar/test/data/kazius.csv`);
  const t0 = performance.now();
  const b = build(rdkit, rows, 20);
  kazius = b;
  const nnz = b.matrix.idx.length;
  console.log(`kazius: ${b.activities.length} compounds, ${b.weights.length} BBRC features (minfreq 20), ${(nnz / b.activities.length).toFixed(1)} features/compound, built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const model = await createLazarModel({ features: b.matrix, instances: instancesOf(b.activities.map((a) => [a])), nClasses: 2 });
  const qs = new QuerySet(b.smarts);
  const step = Math.max(1, Math.floor(b.activities.length / nQueries));
  const learn: number[] = [];
  const match: number[] = [];
  let correct = 0;
  let predicted = 0;
  let neighbours = 0;
  for (let pass = 0; pass < 2; pass++) {
    for (let t = 0; t < b.activities.length; t += step) {
      const m0 = performance.now();
      const hits = qs.matching(b.graphs[t]!);
      const fp = weightedFingerprint(hits.map((f) => ({ feature: f, hits: 1 })), b.weights, false);
      const m1 = performance.now();
      const p = model.predict({ fingerprint: fp });
      const m2 = performance.now();
      if (pass === 0) continue; // warm-up
      match.push(m1 - m0);
      learn.push(m2 - m1);
      if (p.status === "predicted") {
        predicted++;
        neighbours += p.neighbours.length;
        if (p.value === b.activities[t]) correct++;
      }
    }
  }
  console.log(`  learn core (similarities + neighbours + WMV), ${learn.length} queries: p50 ${pct(learn, 0.5).toFixed(2)} ms, p99 ${pct(learn, 0.99).toFixed(2)} ms; mean ${(neighbours / Math.max(1, predicted)).toFixed(0)} neighbours`);
  console.log(`  feature matching (QuerySet, not src/learn): p50 ${pct(match, 0.5).toFixed(2)} ms, p99 ${pct(match, 0.99).toFixed(2)} ms`);
  console.log(`  (queries are training compounds, self included: resubstitution accuracy ${(correct / predicted).toFixed(3)}, ${predicted}/${learn.length} predicted)`);

  // 2. Local SVM classification on a few Kazius queries.
  const svmModel = await createLazarModel({ features: b.hitsMatrix, instances: instancesOf(b.activities.map((a) => [a])), nClasses: 2, algorithm: "local_svm_classification" });
  const svmTimes: string[] = [];
  for (let t = 0; t < b.activities.length && svmTimes.length < 4; t += Math.floor(b.activities.length / 4)) {
    const fp: SparseFingerprint = b.hitsMatrix.row(t);
    const s0 = performance.now();
    const p = svmModel.predict({ fingerprint: fp });
    svmTimes.push(`${p.status === "measured" ? 0 : p.neighbours.length} nb → ${(performance.now() - s0).toFixed(0)} ms`);
  }
  console.log(`  local SVM classification (10 resamples × 8 C + final fit): ${svmTimes.join("; ")}`);
}

/** One RBF fit per query (C = 1, σ from sigest) by libsvm-js and ml-svm, plus src/learn's tuned localSvm; neighbours exclude the query. */
async function compareLibs(b: Built, queries: number[]): Promise<string[]> {
  const lib = await loadLibsvm();
  const require = createRequire(import.meta.url);
  const MlSvm = require("ml-svm") as new (o: Record<string, unknown>) => { train(x: number[][], y: number[]): void; predictOne(x: number[]): number };
  const model: LazarModel = await createLazarModel({ features: b.hitsMatrix, instances: instancesOf(b.activities.map((a) => [a])), nClasses: 2, algorithm: "local_svm_classification" });
  let tLib = 0;
  let tMl = 0;
  let okLib = 0;
  let okMl = 0;
  let fits = 0;
  let nbTotal = 0;
  let tFull = 0;
  let okFull = 0;
  let nFull = 0;
  for (const t of queries) {
    const nb = model.neighbours({ fingerprint: b.hitsMatrix.row(t) }).filter((x) => x.row !== t);
    const y = nb.map((x) => x.activity);
    if (nb.length < 4 || new Set(y).size < 2) continue;
    // Dense standardised rows over the features present.
    const cols = [...new Set(nb.flatMap((x) => [...b.hitsMatrix.row(x.row).idx]))];
    const dense = (r: number): number[] => {
      const d = b.hitsMatrix.dense(r);
      return cols.map((c) => d[c]!);
    };
    const X = nb.map((x) => dense(x.row));
    const q = dense(t);
    const mu = cols.map((_, j) => X.reduce((s, r) => s + r[j]!, 0) / X.length);
    const sd = cols.map((_, j) => Math.sqrt(X.reduce((s, r) => s + (r[j]! - mu[j]!) ** 2, 0) / Math.max(1, X.length - 1)) || 1);
    const Z = X.map((r) => r.map((v, j) => (v - mu[j]!) / sd[j]!));
    const zq = q.map((v, j) => (v - mu[j]!) / sd[j]!);
    const d2 = (a: number[], c: number[]): number => a.reduce((s, v, j) => s + (v - c[j]!) ** 2, 0);
    const dists: number[] = [];
    for (let i = 0; i < Z.length; i++) for (let j = i + 1; j < Z.length; j++) if (d2(Z[i]!, Z[j]!) > 0) dists.push(d2(Z[i]!, Z[j]!));
    dists.sort((a, c) => a - c);
    const qtl = (p: number): number => dists[Math.floor(p * (dists.length - 1))]!;
    const gamma = (1 / qtl(0.9) + 1 / qtl(0.1)) / 2;
    const m = Z.length;
    const l0 = performance.now();
    const gram = new Float64Array(m * m);
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) gram[i * m + j] = Math.exp(-gamma * d2(Z[i]!, Z[j]!));
    const svm = new KernelSvm(lib, gram, m, Int32Array.from({ length: m }, (_, i) => i), y, { kind: "classification", cost: 1 });
    const pl = svm.predict((j) => Math.exp(-gamma * d2(zq, Z[j]!)));
    svm.free();
    tLib += performance.now() - l0;
    const m0 = performance.now();
    const ml = new MlSvm({ C: 1, kernel: "rbf", kernelOptions: { sigma: Math.sqrt(1 / (2 * gamma)) }, random: (() => { let s = 1; return () => ((s = (s * 16807) % 2147483647) / 2147483647); })() });
    ml.train(Z, y.map((v) => (v === 2 ? 1 : -1)));
    const pm = ml.predictOne(zq) === 1 ? 2 : 1;
    tMl += performance.now() - m0;
    fits++;
    nbTotal += nb.length;
    if (pl === b.activities[t]) okLib++;
    if (pm === b.activities[t]) okMl++;
    const f0 = performance.now();
    const full = localSvm(lib, Float64Array.from(X.flat()), y, q, { kind: "classification" });
    tFull += performance.now() - f0;
    if (full.value !== null) {
      nFull++;
      if (full.value === b.activities[t]) okFull++;
    }
  }
  return [
    `${fits} local problems (mean ${(nbTotal / Math.max(1, fits)).toFixed(0)} neighbours), one RBF fit each (C = 1):`,
    `  libsvm-js (precomputed kernel): ${(tLib / fits).toFixed(2)} ms/fit, LOO accuracy ${(okLib / fits).toFixed(3)}`,
    `  ml-svm (SMO):                   ${(tMl / fits).toFixed(2)} ms/fit, LOO accuracy ${(okMl / fits).toFixed(3)}`,
    `  src/learn localSvm with tuning (≤ 81 fits): ${(tFull / fits).toFixed(1)} ms/prediction, ${nFull} predicted, LOO accuracy ${(okFull / Math.max(1, nFull)).toFixed(3)}`,
  ];
}

// 3. SVM libraries on real local problems.
{
  const rows = readSmilesCsv(`${DATA}lazar/test/data/hamster_carcinogenicity.csv`);
  const b = build(rdkit, rows, 8);
  console.log(`hamster (${b.activities.length} compounds, ${b.weights.length} BBRC features at minfreq 8), leave-one-out:`);
  for (const line of await compareLibs(b, [...b.activities.keys()])) console.log(`  ${line}`);
  if (kazius) {
    const qs = [0, 1, 2, 3, 4, 5].map((k) => Math.floor((k * kazius.activities.length) / 6) + 17);
    console.log("kazius, 6 queries (hits × pValue), leave-one-out:");
    for (const line of await compareLibs(kazius, qs)) console.log(`  ${line}`);
  }
}
