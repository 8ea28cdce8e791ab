/**
 * libsvm (WebAssembly build `libsvm-js`) behind a small typed interface: C-SVC and ε-SVR on a
 * precomputed kernel. The local SVMs compute one Gram matrix per prediction and train every
 * resample and cost value on sub-blocks of it, so the kernel is evaluated once, not once per fit.
 *
 * Why libsvm-js and not `ml-svm` (measured, see docs in the learn report and bench/learn.ts):
 * ml-svm is binary-only, has no regression and no precomputed kernel; libsvm-js has C-SVC, ε-SVR
 * and precomputed kernels and was faster on the same local problems. Its memory lives in the
 * WASM heap and is not garbage-collected: every trained model is freed here after use.
 */

import { createRequire } from "node:module";

interface LibsvmModel {
  train(samples: readonly ArrayLike<number>[], labels: readonly number[]): void;
  predictOne(sample: ArrayLike<number>): number;
  serializeModel(): string;
  free(): void;
}

interface LibsvmClass {
  new (options: Record<string, string | number | boolean>): LibsvmModel;
  readonly SVM_TYPES: { readonly C_SVC: string; readonly EPSILON_SVR: string };
  readonly KERNEL_TYPES: { readonly PRECOMPUTED: string };
}

/** The loaded library (one per thread; loading compiles the WASM module once). */
export interface Libsvm {
  readonly SVM: LibsvmClass;
}

let loading: Promise<Libsvm> | null = null;

/** Loads libsvm-js once per thread. */
export function loadLibsvm(): Promise<Libsvm> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url);
    // Emscripten binds console.warn when the module is evaluated and, under Node, reports that
    // streaming compilation (fetch of a file path) failed before it falls back to reading the
    // file: drop those two expected lines, pass anything else on.
    const warn = console.warn;
    console.warn = (...args: unknown[]): void => {
      const text = String(args[0]);
      if (text.startsWith("wasm streaming compile failed") || text.startsWith("falling back to ArrayBuffer")) return;
      warn.apply(console, args);
    };
    try {
      const SVM = await (require("libsvm-js") as Promise<LibsvmClass>);
      return { SVM };
    } finally {
      console.warn = warn;
    }
  })();
  return loading;
}

export type SvmKind = "classification" | "regression";

export interface KernelSvmOptions {
  readonly kind: SvmKind;
  /** Cost C. */
  readonly cost: number;
  /** ε of ε-SVR (on the scale of the labels given). Default 0.1. */
  readonly epsilon?: number;
}

/** libsvm's precomputed-kernel instances for rows `subset` of an n × n Gram matrix (row-major): serial number, then the kernel row. */
function precomputedSamples(gram: ArrayLike<number>, n: number, subset: Int32Array): Float64Array[] {
  const m = subset.length;
  const samples: Float64Array[] = [];
  for (let a = 0; a < m; a++) {
    const r = new Float64Array(m + 1);
    r[0] = a + 1; // libsvm's serial number of a precomputed-kernel instance (1-based)
    const base = subset[a]! * n;
    for (let b = 0; b < m; b++) r[b + 1] = gram[base + subset[b]!]!;
    samples.push(r);
  }
  return samples;
}

/** A model trained on rows `subset` of a precomputed n×n Gram matrix (row-major). */
export class KernelSvm {
  private readonly model: LibsvmModel;
  private readonly subset: Int32Array;
  private readonly row: Float64Array;

  constructor(lib: Libsvm, gram: Float64Array, n: number, subset: Int32Array, labels: readonly number[], options: KernelSvmOptions) {
    const m = subset.length;
    const samples = precomputedSamples(gram, n, subset);
    this.model = new lib.SVM({
      type: options.kind === "classification" ? lib.SVM.SVM_TYPES.C_SVC : lib.SVM.SVM_TYPES.EPSILON_SVR,
      kernel: lib.SVM.KERNEL_TYPES.PRECOMPUTED,
      cost: options.cost,
      epsilon: options.epsilon ?? 0.1,
      quiet: true,
    });
    this.subset = subset;
    this.row = new Float64Array(m + 1);
    try {
      this.model.train(samples, labels);
    } catch (e) {
      this.model.free();
      throw e;
    }
  }

  /** Prediction for an instance whose kernel values with all n rows are `k(j)`. */
  predict(k: (j: number) => number): number {
    const r = this.row;
    r[0] = 0;
    for (let b = 0; b < this.subset.length; b++) r[b + 1] = k(this.subset[b]!);
    return this.model.predictOne(r);
  }

  free(): void {
    this.model.free();
  }
}

/**
 * A trained SVM as plain arrays, kept outside libsvm's WebAssembly memory (which is freed right
 * after training): f(x) = Σ_k coef[k]·K(x, row sv[k]) − rho, `sv` indexing the rows of the Gram
 * matrix it was trained on. Classification (two classes): f(x) > 0 means `labels[0]`, else
 * `labels[1]`, as libsvm decides; f is the decision value (its distance from the boundary in the
 * kernel's space, a score for ranking and for conformal calibration). Regression: f(x) is the
 * prediction. Plain data: it crosses threads and can be stored.
 */
export interface SvmModel {
  readonly kind: SvmKind;
  readonly sv: Int32Array;
  readonly coef: Float64Array;
  readonly rho: number;
  /** Classification: the two labels, the one f > 0 means first. */
  readonly labels: readonly number[];
}

/**
 * Train on rows `subset` of a precomputed n × n Gram matrix (row-major) with `labels` per subset
 * row; classification needs exactly two distinct labels. libsvm's model is read back from its
 * own serialisation (support vectors "coef 0:serial", rho, label order) and freed.
 */
export function trainSvm(lib: Libsvm, gram: ArrayLike<number>, n: number, subset: Int32Array, labels: readonly number[], options: KernelSvmOptions): SvmModel {
  if (options.kind === "classification" && new Set(labels).size !== 2) throw new RangeError(`trainSvm: classification needs two classes, got ${new Set(labels).size}`);
  const samples = precomputedSamples(gram, n, subset);
  const model = new lib.SVM({
    type: options.kind === "classification" ? lib.SVM.SVM_TYPES.C_SVC : lib.SVM.SVM_TYPES.EPSILON_SVR,
    kernel: lib.SVM.KERNEL_TYPES.PRECOMPUTED,
    cost: options.cost,
    epsilon: options.epsilon ?? 0.1,
    quiet: true,
  });
  let text: string;
  try {
    model.train(samples, labels);
    text = model.serializeModel();
  } finally {
    model.free();
  }
  return parseModel(text, options.kind, subset);
}

/** libsvm's text model → SvmModel; `subset` maps its 1-based serial numbers back to Gram rows. */
function parseModel(text: string, kind: SvmKind, subset: Int32Array): SvmModel {
  let rho = NaN;
  let labels: number[] = [];
  const sv: number[] = [];
  const coef: number[] = [];
  let inSv = false;
  for (const line of text.split("\n")) {
    const l = line.trim();
    if (inSv) {
      if (l === "") continue;
      const m = /^(\S+)\s+0:(\d+)/.exec(l);
      if (!m) throw new Error(`libsvm model: unexpected support vector line "${l.slice(0, 40)}"`);
      coef.push(Number(m[1]));
      sv.push(subset[Number(m[2]) - 1]!);
    } else if (l.startsWith("rho ")) rho = Number(l.slice(4).trim().split(/\s+/)[0]);
    else if (l.startsWith("label ")) labels = l.slice(6).trim().split(/\s+/).map(Number);
    else if (l === "SV") inSv = true;
  }
  if (!Number.isFinite(rho)) throw new Error("libsvm model: no rho");
  return { kind, sv: Int32Array.from(sv), coef: Float64Array.from(coef), rho, labels: kind === "classification" ? labels : [] };
}

/** f(x) of an instance whose kernel value with Gram row j is `k(j)` (see SvmModel). */
export function decisionValue(model: SvmModel, k: (row: number) => number): number {
  let f = -model.rho;
  for (let i = 0; i < model.sv.length; i++) f += model.coef[i]! * k(model.sv[i]!);
  return f;
}
