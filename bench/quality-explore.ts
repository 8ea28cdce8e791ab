/**
 * Issue 16: which features and learner beat the notebook (RDKit Morgan r2/2048 + a 500-tree
 * scikit-learn forest: Kazius accuracy 0.838, AUC 0.908; EPAFHM RMSE 0.725 with RDKit 2D
 * descriptors added) on the service's own cross-validation folds.
 *
 * Folds: validate/folds.ts `assignFolds`, 10 folds, seed 1, not stratified (the service's
 * default), unit = standard InChI (as bench/crossvalidation-variants.ts builds them).
 *
 * Every variant predicts every compound once (out of fold). Fingerprints are properties of a
 * compound alone, so each is computed once per data set; a Tanimoto matrix over all compounds
 * is computed once and its fold blocks are used by the kNN vote and the SVM (no label enters
 * either). Times are wall seconds on one thread: the time of the features a variant uses, of
 * its Tanimoto matrix (if any), of its model (ForestData + training + prediction, all folds);
 * an ensemble counts each of its parts once. Printed per variant: accuracy (score ≥ 0.5 →
 * active, SVM: decision value ≥ 0), AUC (validate/statistics.ts wilcoxonAuc on the score) for
 * classification; RMSE and R² = 1 − SSE/SST for regression.
 *
 * Learners: the k-nearest-neighbour vote (Tanimoto, votes weighted by similarity^p; the score is
 * the weighted share of actives, resp. the weighted mean); our random forest (learn/forest.ts,
 * vote share as probability); libsvm's C-SVC / ε-SVR (libsvm-js, as learn/svm.ts loads it) on a
 * precomputed kernel: one fingerprint's Tanimoto matrix, or the mean of several (`a+b+…`; a mean
 * of kernels is a kernel), optionally with `rbfdesc` = exp(−γ‖a−b‖²) on RDKit's 43 2D descriptors
 * standardised (clipped at ±5 sd), γ = 1/columns. libsvm-js has no decision-value call, so the
 * decision value Σ coef·K(x, sv) − ρ is computed from the serialised model (SV lines
 * "coef 0:serial"). Ensembles average the parts' scores (SVM decision values through 1/(1+e^(−2d))).
 *
 * Plans: `explore` (fingerprints by kNN, SVM cost and fingerprints, forests, ensembles),
 * `kernels` (classification: SVMs on mean kernels), `tune` (regression: forests on descriptors,
 * SVR on mean kernels with the RBF descriptor kernel, CDK descriptors), `final` (the recommended
 * settings and baselines, for the second data sets and other fold seeds).
 *
 * Usage:
 *   nice -n 19 npx tsx bench/quality-explore.ts kazius|hansen|epafhm|loael|daphnia [--plan=explore|kernels|tune|final] [--seed=1] [--only=substr,…]
 */
import { createRequire } from "node:module";
import { loadRDKit, type RDKit, type RDKitMol } from "../src/chem/rdkit.ts";
import { encodeSmiles } from "../src/chem/labelled-graph.ts";
import { assignFolds } from "../src/validate/folds.ts";
import { wilcoxonAuc } from "../src/validate/statistics.ts";
import { ForestData, trainForest } from "../src/learn/forest.ts";
import { loadLibsvm } from "../src/learn/svm.ts";
import { computeDescriptors } from "../src/chem/descriptors/index.ts";
import { DATASETS, readDataset } from "./quality-data.ts";

/** Fold seed (`--seed=`; the service's default and the issue's figures: 1). */
const SEED = Number(process.argv.find((a) => a.startsWith("--seed="))?.slice(7) ?? 1);
/** `--fold-scale`: the RBF kernel's descriptor standardisation from each training fold (default: all compounds, no labels). */
const FOLD_SCALE = process.argv.includes("--fold-scale");
// ---------------------------------------------------------------------------------------------
// costs: every piece of work is timed once under a key; a variant's time is the sum over the
// keys it used

const cost = new Map<string, number>();
function timed<T>(key: string, f: () => T): T {
  const t = performance.now();
  const r = f();
  cost.set(key, (cost.get(key) ?? 0) + (performance.now() - t) / 1000);
  return r;
}

// ---------------------------------------------------------------------------------------------
// features

interface Fingerprint {
  readonly nBits: number;
  /** Words per compound. */
  readonly W: number;
  /** Packed bits, compound-major: words[i·W + w]. */
  readonly words: Uint32Array;
  readonly ones: Int32Array;
}

const FP_MAKERS: Record<string, (m: RDKitMol) => Uint8Array> = {};
type AnyMol = RDKitMol & Record<string, (d?: string) => Uint8Array>;
for (const r of [1, 2, 3]) for (const b of [1024, 2048, 4096]) FP_MAKERS[`morgan${r}_${b}`] = (m) => (m as AnyMol).get_morgan_fp_as_uint8array!(JSON.stringify({ radius: r, nBits: b }));
FP_MAKERS["fmorgan2_2048"] = (m) => (m as AnyMol).get_morgan_fp_as_uint8array!(JSON.stringify({ radius: 2, nBits: 2048, useFeatures: true }));
FP_MAKERS["morgan2_8192"] = (m) => (m as AnyMol).get_morgan_fp_as_uint8array!(JSON.stringify({ radius: 2, nBits: 8192 }));
FP_MAKERS["maccs"] = (m) => (m as AnyMol).get_maccs_fp_as_uint8array!();
FP_MAKERS["ap_2048"] = (m) => (m as AnyMol).get_atom_pair_fp_as_uint8array!(JSON.stringify({ nBits: 2048 }));
FP_MAKERS["tt_2048"] = (m) => (m as AnyMol).get_topological_torsion_fp_as_uint8array!(JSON.stringify({ nBits: 2048 }));
FP_MAKERS["rdk_2048"] = (m) => (m as AnyMol).get_rdkit_fp_as_uint8array!(JSON.stringify({ nBits: 2048 }));

function popcount(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

class Prepared {
  readonly n: number;
  readonly fold: Int32Array;
  readonly unreadable: number;
  private readonly fps = new Map<string, Fingerprint>();
  private readonly sims = new Map<string, Float32Array>();
  private readonly descs = new Map<string, Float64Array[]>();

  constructor(
    private readonly rdkit: RDKit,
    readonly smiles: string[],
    readonly y: Float64Array,
    readonly classification: boolean,
  ) {
    this.n = smiles.length;
    const inchis = timed("folds", () => smiles.map((s, i) => encodeSmiles(rdkit, s)?.inchi ?? `unreadable-${i}`));
    this.unreadable = inchis.filter((s) => s.startsWith("unreadable-")).length;
    this.fold = timed("folds", () => assignFolds(inchis, { numFolds: 10, seed: SEED }).instanceFold);
  }

  private withMol<T>(f: (m: RDKitMol | null, i: number) => T): T[] {
    return this.smiles.map((s, i) => {
      const m = this.rdkit.get_mol(s);
      try {
        return f(m, i);
      } finally {
        m?.delete();
      }
    });
  }

  fp(name: string): Fingerprint {
    let fp = this.fps.get(name);
    if (fp !== undefined) return fp;
    fp = timed(`fp:${name}`, () => {
      const raw = this.withMol((m) => (m === null ? null : FP_MAKERS[name]!(m).slice()));
      const bytes = raw.find((r) => r !== null)!.length;
      const nBits = bytes * 8;
      const W = Math.ceil(bytes / 4);
      const words = new Uint32Array(this.n * W);
      const ones = new Int32Array(this.n);
      raw.forEach((r, i) => {
        if (r === null) return;
        for (let b = 0; b < r.length; b++) words[i * W + (b >> 2)]! |= r[b]! << (8 * (b & 3));
        let c = 0;
        for (let w = 0; w < W; w++) c += popcount(words[i * W + w]!);
        ones[i] = c;
      });
      return { nBits, W, words, ones };
    });
    this.fps.set(name, fp);
    return fp;
  }

  /** RDKit's 43 2D descriptors (`desc`) or the service's CDK 2D descriptors (`cdk`); non-finite or missing → 0. */
  descriptors(kind: "desc" | "cdk" = "desc"): Float64Array[] {
    let rows = this.descs.get(kind);
    if (rows !== undefined) return rows;
    rows = timed(`fp:${kind}`, () => {
      const maps: (Map<string, number> | null)[] =
        kind === "desc"
          ? this.withMol((m) => (m === null ? null : new Map(Object.entries(JSON.parse(m.get_descriptors()) as Record<string, number>))))
          : this.smiles.map((s) => computeDescriptors(this.rdkit, s, { lib: "cdk", threeD: false }));
      const keys = [...new Set(maps.flatMap((m) => (m === null ? [] : [...m.keys()])))];
      return maps.map((m) => Float64Array.from(keys, (k) => {
        const v = m?.get(k);
        return v !== undefined && Number.isFinite(v) ? v : 0;
      }));
    });
    this.descs.set(kind, rows);
    return rows;
  }

  /** exp(−γ‖a − b‖²) on descriptors standardised over all compounds (no labels), γ = 1/columns. */
  rbf(kind: "desc" | "cdk", statRows?: Int32Array): Float32Array {
    const rows = this.descriptors(kind);
    return timed(`sim:rbf${kind}`, () => {
      const n = this.n;
      const p = rows[0]!.length;
      const z = rows.map((r) => Float64Array.from(r));
      const stat = statRows ?? Int32Array.from(z.keys());
      const ns = stat.length;
      let used = 0;
      for (let j = 0; j < p; j++) {
        let m = 0;
        for (const i of stat) m += z[i]![j]! / ns;
        let v = 0;
        for (const i of stat) v += (z[i]![j]! - m) ** 2 / ns;
        const sd = Math.sqrt(v);
        if (sd > 0) used++;
        // clip at ±5 sd: a few extreme values would otherwise make every kernel value ≈ 0
        for (const r of z) r[j] = sd > 0 ? Math.max(-5, Math.min(5, (r[j]! - m) / sd)) : 0;
      }
      const gamma = 1 / used;
      const out = new Float32Array(n * n);
      for (let i = 0; i < n; i++) {
        out[i * n + i] = 1;
        for (let k = i + 1; k < n; k++) {
          let dd = 0;
          const a = z[i]!;
          const b = z[k]!;
          for (let j = 0; j < p; j++) dd += (a[j]! - b[j]!) ** 2;
          const t = Math.exp(-gamma * dd);
          out[i * n + k] = t;
          out[k * n + i] = t;
        }
      }
      return out;
    });
  }

  /** Tanimoto over all compound pairs, n×n row-major. */
  tanimoto(name: string): Float32Array {
    let s = this.sims.get(name);
    if (s !== undefined) return s;
    if (name.includes("+")) {
      // the mean of the parts' Tanimoto matrices (a sum of kernels is a kernel)
      const parts = name.split("+").map((p) => this.tanimoto(p));
      s = timed(`sim:${name}`, () => {
        const out = new Float32Array(this.n * this.n);
        for (const p of parts) for (let i = 0; i < out.length; i++) out[i] += p[i]! / parts.length;
        return out;
      });
      this.sims.set(name, s);
      return s;
    }
    if (name === "rbfdesc" || name === "rbfcdk") {
      s = this.rbf(name === "rbfdesc" ? "desc" : "cdk");
      this.sims.set(name, s);
      return s;
    }
    const { W, words, ones } = this.fp(name);
    s = timed(`sim:${name}`, () => {
      const n = this.n;
      const out = new Float32Array(n * n);
      for (let i = 0; i < n; i++) {
        out[i * n + i] = 1;
        const bi = i * W;
        for (let j = i + 1; j < n; j++) {
          const bj = j * W;
          let c = 0;
          for (let w = 0; w < W; w++) c += popcount(words[bi + w]! & words[bj + w]!);
          const u = ones[i]! + ones[j]! - c;
          const t = u > 0 ? c / u : 0;
          out[i * n + j] = t;
          out[j * n + i] = t;
        }
      }
      return out;
    });
    this.sims.set(name, s);
    return s;
  }

  trainTest(f: number): { train: Int32Array; test: Int32Array } {
    const train: number[] = [];
    const test: number[] = [];
    for (let i = 0; i < this.n; i++) (this.fold[i] === f ? test : train).push(i);
    return { train: Int32Array.from(train), test: Int32Array.from(test) };
  }
}

// ---------------------------------------------------------------------------------------------
// learners; each returns the out-of-fold score of every compound (classification: a probability
// of the positive class or an SVM decision value; regression: the predicted value)

interface Result {
  readonly label: string;
  readonly score: Float64Array;
  /** Cost keys used. */
  readonly keys: Set<string>;
  /** Score is an SVM decision value (threshold 0, not 0.5). */
  readonly margin?: boolean;
}

function knn(d: Prepared, fpName: string, k: number, power: number): Result {
  const S = d.tanimoto(fpName);
  const label = `kNN ${fpName} k=${k} sim^${power}`;
  const key = `model:${label}`;
  const score = new Float64Array(d.n);
  timed(key, () => {
    const n = d.n;
    for (let f = 0; f < 10; f++) {
      const { train, test } = d.trainTest(f);
      const topS = new Float64Array(k);
      const topR = new Int32Array(k);
      for (const q of test) {
        // the k most similar, by insertion into a sorted list (descending)
        let len = 0;
        const row = q * n;
        for (let a = 0; a < train.length; a++) {
          const s = S[row + train[a]!]!;
          if (len === k && s <= topS[k - 1]!) continue;
          let j = len < k ? len++ : k - 1;
          while (j > 0 && topS[j - 1]! < s) {
            topS[j] = topS[j - 1]!;
            topR[j] = topR[j - 1]!;
            j--;
          }
          topS[j] = s;
          topR[j] = train[a]!;
        }
        let sw = 0;
        let sy = 0;
        for (let t = 0; t < len; t++) {
          const w = Math.max(topS[t]!, 1e-6) ** power;
          sw += w;
          sy += w * d.y[topR[t]!]!;
        }
        score[q] = sy / sw;
      }
    }
  });
  return { label, score, keys: new Set([...simKeys(fpName), key]) };
}

/** The cost keys of a (possibly combined) Tanimoto matrix. */
function simKeys(name: string): string[] {
  const parts = name.split("+");
  return [...parts.flatMap((p) => [p.startsWith("rbf") ? `fp:${p.slice(3)}` : `fp:${p}`, `sim:${p}`]), ...(parts.length > 1 ? [`sim:${name}`] : [])];
}

interface ForestFeatures {
  readonly fps: readonly string[];
  readonly desc: boolean;
  readonly cdk?: boolean;
}

const forestData = new Map<string, ForestData>();
function forestInput(d: Prepared, ff: ForestFeatures): { data: ForestData; key: string; keys: string[] } {
  const name = [...ff.fps, ...(ff.desc ? ["desc"] : []), ...(ff.cdk ? ["cdk"] : [])].join("+");
  const key = `data:${name}`;
  const keys = [...ff.fps.map((f) => `fp:${f}`), ...(ff.desc ? ["fp:desc"] : []), ...(ff.cdk ? ["fp:cdk"] : []), key];
  let data = forestData.get(name);
  if (data !== undefined) return { data, key: name, keys };
  const fps = ff.fps.map((f) => d.fp(f));
  const desc = ff.desc || ff.cdk ? [...(ff.desc ? [d.descriptors("desc")] : []), ...(ff.cdk ? [d.descriptors("cdk")] : [])].reduce((a, b) => a.map((r, i) => Float64Array.from([...r, ...b[i]!]))) : null;
  data = timed(key, () => {
    const n = d.n;
    const cols: Float64Array[] = [];
    for (const fp of fps) {
      for (let b = 0; b < fp.nBits; b++) {
        const w = b >> 5;
        const m = 1 << (b & 31);
        const col = new Float64Array(n);
        let on = 0;
        for (let i = 0; i < n; i++) if ((fp.words[i * fp.W + w]! & m) !== 0) (col[i] = 1), on++;
        if (on > 0 && on < n) cols.push(col); // constant columns dropped: they only waste draws
      }
    }
    if (desc !== null) {
      for (let j = 0; j < desc[0]!.length; j++) {
        const col = Float64Array.from(desc, (r) => r[j]!);
        if (col.some((v) => v !== col[0])) cols.push(col);
      }
    }
    const x = new Float64Array(n * cols.length);
    cols.forEach((c, j) => x.set(c, j * n));
    return ForestData.fromColumnMajor(x, n, cols.length);
  });
  forestData.set(name, data);
  return { data, key: name, keys };
}

function forest(d: Prepared, ff: ForestFeatures, ntree: number, mtryFactor = 1, nodesize?: number): Result {
  const { data, key: name, keys } = forestInput(d, ff);
  const q = data.p;
  const base = d.classification ? Math.floor(Math.sqrt(q)) : Math.max(1, Math.floor(q / 3));
  const mtry = Math.max(1, Math.round(base * mtryFactor));
  const label = `RF ${name} ${ntree} trees mtry=${mtry}${nodesize !== undefined ? ` nodesize=${nodesize}` : ""}`;
  const key = `model:${label}`;
  const score = new Float64Array(d.n);
  timed(key, () => {
    for (let f = 0; f < 10; f++) {
      const { train, test } = d.trainTest(f);
      const target = d.classification
        ? { kind: "classification" as const, classes: Int32Array.from(d.y), nClasses: 2 }
        : { kind: "regression" as const, values: d.y };
      const rf = trainForest(data, target, { ntree, mtry, seed: 1, rows: train, ...(nodesize !== undefined ? { nodesize } : {}) });
      if (d.classification) {
        const p = rf.predictProba(data, test);
        test.forEach((r, i) => (score[r] = p[2 * i + 1]!));
      } else {
        const p = rf.predict(data, test);
        test.forEach((r, i) => (score[r] = p[i]!));
      }
    }
  });
  return { label, score, keys: new Set([...keys, key]) };
}

interface SvmModel {
  rho: number;
  sv: { index: number; coef: number }[];
  /** Decision value > 0 means this label. */
  firstLabel: number;
}

/** libsvm's serialised model (precomputed kernel): SV lines are "coef 0:serial". */
function parseSvm(text: string): SvmModel {
  const lines = text.split("\n");
  let rho = 0;
  let firstLabel = 1;
  const sv: { index: number; coef: number }[] = [];
  let inSv = false;
  for (const l of lines) {
    if (inSv) {
      const m = /^(\S+)\s+0:(\d+)/.exec(l.trim());
      if (m) sv.push({ coef: Number(m[1]), index: Number(m[2]) - 1 });
    } else if (l.startsWith("rho ")) rho = Number(l.slice(4));
    else if (l.startsWith("label ")) firstLabel = Number(l.split(" ")[1]);
    else if (l.trim() === "SV") inSv = true;
  }
  return { rho, sv, firstLabel };
}

async function svm(d: Prepared, fpName: string, cost_: number, epsilon = 0.1): Promise<Result> {
  const lib = await loadLibsvm();
  const S0 = d.tanimoto(fpName);
  const label = `SVM Tanimoto ${fpName} C=${cost_}${d.classification ? "" : ` eps=${epsilon}`}${FOLD_SCALE && fpName.includes("rbfdesc") ? " (fold-scaled)" : ""}`;
  const key = `model:${label}`;
  const score = new Float64Array(d.n);
  const SVM = lib.SVM as unknown as new (o: Record<string, unknown>) => {
    train(s: ArrayLike<number>[], l: number[]): void;
    serializeModel(): string;
    free(): void;
  };
  timed(key, () => {
    const n = d.n;
    for (let f = 0; f < 10; f++) {
      const { train, test } = d.trainTest(f);
      const m = train.length;
      let S = S0;
      if (FOLD_SCALE && fpName.includes("rbfdesc")) {
        // descriptors standardised with the training fold's mean and sd only
        const parts = fpName.split("+");
        const foldRbf = d.rbf("desc", train);
        const whole = d.tanimoto("rbfdesc");
        S = Float32Array.from(S0, (v, i) => v + (foldRbf[i]! - whole[i]!) / parts.length);
      }
      const samples: Float64Array[] = [];
      for (let a = 0; a < m; a++) {
        const r = new Float64Array(m + 1);
        r[0] = a + 1;
        const base = train[a]! * n;
        for (let b = 0; b < m; b++) r[b + 1] = S[base + train[b]!]!;
        samples.push(r);
      }
      const model = new SVM({
        type: d.classification ? lib.SVM.SVM_TYPES.C_SVC : lib.SVM.SVM_TYPES.EPSILON_SVR,
        kernel: lib.SVM.KERNEL_TYPES.PRECOMPUTED,
        cost: cost_,
        epsilon,
        cacheSize: 500,
        quiet: true,
      });
      model.train(samples, Array.from(train, (i) => d.y[i]!));
      const parsed = parseSvm(model.serializeModel());
      model.free();
      const sign = d.classification && parsed.firstLabel !== 1 ? -1 : 1;
      for (const q of test) {
        let s = -parsed.rho;
        for (const { index, coef } of parsed.sv) s += coef * S[q * n + train[index]!]!;
        score[q] = sign * s;
      }
    }
  });
  return { label, score, keys: new Set([...simKeys(fpName), key]), margin: d.classification };
}

/** Mean of the parts' scores (SVM decision values first through the logistic 1/(1+e^(−2d))). */
function ensemble(d: Prepared, parts: Result[], label?: string): Result {
  const score = new Float64Array(d.n);
  for (const p of parts) {
    for (let i = 0; i < d.n; i++) score[i] += (p.margin ? 1 / (1 + Math.exp(-2 * p.score[i]!)) : p.score[i]!) / parts.length;
  }
  const keys = new Set<string>();
  for (const p of parts) for (const k of p.keys) keys.add(k);
  return { label: label ?? `mean of [${parts.map((p) => p.label).join("] + [")}]`, score, keys };
}

// ---------------------------------------------------------------------------------------------
// report

function seconds(keys: Set<string>): number {
  let s = 0;
  for (const k of keys) s += cost.get(k) ?? 0;
  return s;
}

function report(d: Prepared, r: Result): string {
  const t = seconds(r.keys);
  const feat = [...r.keys].filter((k) => k.startsWith("fp:") || k.startsWith("sim:")).reduce((s, k) => s + (cost.get(k) ?? 0), 0);
  if (d.classification) {
    let correct = 0;
    const thr = r.margin ? 0 : 0.5;
    for (let i = 0; i < d.n; i++) if ((r.score[i]! >= thr ? 1 : 0) === d.y[i]) correct++;
    const auc = wilcoxonAuc(Array.from(r.score), Array.from(d.y, (v) => v === 1));
    return `${r.label.padEnd(70)} acc ${(correct / d.n).toFixed(3)}  AUC ${auc.toFixed(3)}  ${t.toFixed(1).padStart(6)} s (features+kernel ${feat.toFixed(1)} s)`;
  }
  let sse = 0;
  let mean = 0;
  for (let i = 0; i < d.n; i++) mean += d.y[i]! / d.n;
  let sst = 0;
  for (let i = 0; i < d.n; i++) {
    sse += (r.score[i]! - d.y[i]!) ** 2;
    sst += (d.y[i]! - mean) ** 2;
  }
  return `${r.label.padEnd(70)} RMSE ${Math.sqrt(sse / d.n).toFixed(3)}  R² ${(1 - sse / sst).toFixed(3)}  ${t.toFixed(1).padStart(6)} s (features+kernel ${feat.toFixed(1)} s)`;
}

// ---------------------------------------------------------------------------------------------

const which = process.argv[2] ?? "kazius";
const spec = DATASETS[which];
if (spec === undefined) throw new Error(`unknown data set ${which}; one of ${Object.keys(DATASETS).join(", ")}`);
const only = (process.argv.find((a) => a.startsWith("--only="))?.slice(7) ?? "").split(",").filter((s) => s);
const plan = process.argv.find((a) => a.startsWith("--plan="))?.slice(7) ?? "explore";

const rdkit = await loadRDKit();
const { smiles, y } = readDataset(spec);
const d = new Prepared(rdkit, smiles, y, spec.positive !== undefined);
console.log(
  `${which}: ${d.n} rows, ${d.unreadable} without InChI, ${d.classification ? `${y.reduce((s, v) => s + v, 0)} positive` : "regression"}; 10 folds seed ${SEED}; ${new Date().toISOString()}`,
);
const results = new Map<string, Result>();
function show(r: Result): Result {
  results.set(r.label, r);
  console.log(report(d, r));
  return r;
}
const want = (tag: string): boolean => only.length === 0 || only.some((o) => tag.includes(o));

if (d.classification) {
  if (plan === "explore") {
    // fingerprints, by kNN (cheap) first
    for (const fp of ["morgan2_2048", "morgan1_2048", "morgan3_2048", "morgan2_1024", "morgan2_4096", "fmorgan2_2048", "ap_2048", "tt_2048", "rdk_2048", "maccs"]) {
      if (want(`knn:${fp}`)) show(knn(d, fp, 10, 4));
    }
    if (want("knn-k")) for (const [k, p] of [[5, 1], [20, 4], [20, 10], [50, 10]] as const) show(knn(d, "morgan2_2048", k, p));
    if (want("svm")) for (const c of [0.5, 1, 2, 5]) show(await svm(d, "morgan2_2048", c));
    if (want("svm-fp")) for (const fp of ["morgan3_2048", "ap_2048", "rdk_2048", "tt_2048"]) show(await svm(d, fp, 1));
    if (want("rf")) {
      show(forest(d, { fps: ["morgan2_2048"], desc: false }, 200));
      show(forest(d, { fps: ["morgan2_2048", "maccs"], desc: false }, 200));
      show(forest(d, { fps: ["morgan2_2048", "maccs"], desc: true }, 200));
    }
    if (want("ens")) {
      const parts = [...results.values()];
      const pick = (s: string): Result | undefined => parts.find((p) => p.label.startsWith(s));
      const sv = pick("SVM Tanimoto morgan2_2048 C=1");
      const kn = pick("kNN morgan2_2048 k=10 sim^4");
      const rf = pick("RF morgan2_2048+maccs+desc");
      const svAp = pick("SVM Tanimoto ap_2048");
      const svRdk = pick("SVM Tanimoto rdk_2048");
      if (sv && kn) show(ensemble(d, [sv, kn]));
      if (sv && rf) show(ensemble(d, [sv, rf]));
      if (sv && rf && kn) show(ensemble(d, [sv, rf, kn]));
      if (sv && svAp && svRdk) show(ensemble(d, [sv, svAp, svRdk]));
      if (sv && svAp && svRdk && rf) show(ensemble(d, [sv, svAp, svRdk, rf]));
    }
  }
  if (plan === "kernels") {
    for (const fp of ["maccs", "morgan2_2048+maccs", "morgan2_2048+rdk_2048", "morgan2_2048+ap_2048+rdk_2048", "morgan2_2048+ap_2048+rdk_2048+maccs", "morgan1_2048+morgan2_2048+morgan3_2048", "morgan2_2048+rdk_2048+maccs"]) {
      if (want(`svm:${fp}`)) for (const c of [1, 2]) show(await svm(d, fp, c));
    }
    const pick = (s: string): Result | undefined => [...results.values()].find((p) => p.label.startsWith(s));
    const a = pick("SVM Tanimoto morgan2_2048+ap_2048+rdk_2048+maccs C=1");
    if (a && want("ens")) show(ensemble(d, [a, knn(d, "morgan2_2048", 10, 4)]));
  }
} else if (plan === "explore") {
  for (const fp of ["morgan2_2048", "morgan1_2048", "morgan3_2048", "ap_2048", "rdk_2048", "maccs"]) if (want(`knn:${fp}`)) show(knn(d, fp, 10, 4));
  if (want("rf")) {
    show(forest(d, { fps: ["morgan2_2048"], desc: false }, 500));
    show(forest(d, { fps: [], desc: true }, 500));
    show(forest(d, { fps: ["morgan2_2048"], desc: true }, 500));
    show(forest(d, { fps: ["morgan2_2048", "maccs"], desc: true }, 500));
  }
  if (want("svm")) for (const c of [1, 10]) for (const fp of ["morgan2_2048", "ap_2048", "rdk_2048"]) show(await svm(d, fp, c));
  if (want("ens")) {
    const parts = [...results.values()];
    const pick = (s: string): Result | undefined => parts.find((p) => p.label.startsWith(s));
    const rf = pick("RF morgan2_2048+maccs+desc") ?? pick("RF morgan2_2048+desc");
    const sv = pick("SVM Tanimoto morgan2_2048 C=10");
    const svAp = pick("SVM Tanimoto ap_2048 C=10");
    if (rf && sv) show(ensemble(d, [rf, sv]));
    if (rf && sv && svAp) show(ensemble(d, [rf, sv, svAp]));
  }
}
if (!d.classification && plan === "tune") {
  const rfDesc = show(forest(d, { fps: [], desc: true }, 500));
  if (want("cdk")) {
    show(forest(d, { fps: [], desc: false, cdk: true }, 500));
    show(forest(d, { fps: [], desc: true, cdk: true }, 500));
  }
  if (want("rf")) {
    show(forest(d, { fps: ["maccs"], desc: true }, 500));
    show(forest(d, { fps: [], desc: true }, 500, 2));
    show(forest(d, { fps: ["morgan2_2048", "maccs"], desc: true }, 500, 0.2));
  }
  for (const k of ["rbfdesc", "ap_2048+rbfdesc", "morgan2_2048+ap_2048+rbfdesc", "morgan2_2048+ap_2048+rdk_2048+maccs+rbfdesc", "ap_2048+maccs+rbfdesc"]) {
    if (want(`svm:${k}`)) for (const c of [3, 10, 30]) show(await svm(d, k, c));
  }
  if (want("svmcdk")) for (const k of ["rbfcdk", "ap_2048+rbfcdk", "ap_2048+rbfdesc+rbfcdk"]) for (const c of [3, 10, 30]) show(await svm(d, k, c));
  const pick = (s: string): Result | undefined => [...results.values()].find((p) => p.label.startsWith(s));
  for (const s of ["SVM Tanimoto ap_2048+rbfdesc C=10", "SVM Tanimoto morgan2_2048+ap_2048+rbfdesc C=10", "SVM Tanimoto ap_2048+rbfcdk C=10"]) {
    const sv = pick(s);
    if (sv) show(ensemble(d, [rfDesc, sv]));
  }
}
const FOUR = "morgan2_2048+ap_2048+rdk_2048+maccs";
if (plan === "final" && d.classification) {
  show(knn(d, "morgan2_2048", 10, 4));
  show(await svm(d, "morgan2_2048", 1));
  for (const c of [1, 2, 4]) show(await svm(d, FOUR, c));
  if (want("desc")) show(await svm(d, `${FOUR}+rbfdesc`, 2));
  if (want("rf")) show(forest(d, { fps: ["morgan2_2048"], desc: false }, 200));
}
if (plan === "final" && !d.classification) {
  show(knn(d, "morgan2_2048", 10, 4));
  show(forest(d, { fps: [], desc: true }, 500));
  show(forest(d, { fps: ["morgan2_2048", "maccs"], desc: true }, 500, 0.2));
  show(await svm(d, "morgan2_2048", 10));
  show(await svm(d, FOUR, 10));
  for (const c of [3, 10]) show(await svm(d, `${FOUR}+rbfdesc`, c));
}
console.log("costs (s):", [...cost].map(([k, v]) => `${k} ${v.toFixed(1)}`).join("; "));
