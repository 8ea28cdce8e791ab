/**
 * The features of the global models (the kernel model, the random forest), computed by the model
 * itself from the compounds' structures (chem/jobs.ts `featuresJob`, in its 1000-compound steps):
 * fingerprints packed as bit rows (learn/kernels.ts) and RDKit's 2D descriptors as a row-major
 * matrix. A compound whose structure cannot be read has no features and its reason.
 *
 * `model.features` computes them once for a whole cross-validation; each fold picks its rows
 * (`pickFeatures`), the same as computing them for the fold alone.
 */
import { featuresJob, type FeaturesOutput } from "../../chem/jobs.ts";
import { DEFAULT_MODEL_FEATURES, type FingerprintSpec } from "../../chem/fingerprints.ts";
import { packBits, type BitRows } from "../../learn/kernels.ts";
import type { JobContext } from "../../tasks/job.ts";

/** Compounds per features step (the features job's own limit). */
const FEATURE_STEP = 1000;

/** Which features a model computes: fingerprints (in this order) and whether RDKit's 2D descriptors. */
export interface FeatureSet {
  readonly fingerprints: readonly FingerprintSpec[];
  readonly descriptors: boolean;
}

/** The kernel model's: Morgan r2/2048, atom pairs, RDKit paths, MACCS, and the descriptors. */
export const KERNEL_FEATURES: FeatureSet = { fingerprints: DEFAULT_MODEL_FEATURES.fingerprints, descriptors: true };

/** Progress of a job part: told the share done of its own work. */
export type Progress = (fraction: number) => void;
export const NO_PROGRESS: Progress = () => undefined;

/**
 * A model's features of a list of compounds (plain data): those that have them (`rows`: input
 * indices), every fingerprint of the set packed (one BitRows per fingerprint, a row per entry of
 * `rows`), the descriptor rows (rows × columns; NaN where RDKit gave no value; columns 0 without
 * descriptors), and per input compound why it has none (or null).
 */
export interface ModelFeatures {
  readonly rows: Int32Array;
  readonly errors: readonly (string | null)[];
  readonly fingerprints: readonly BitRows[];
  readonly descriptors: Float64Array;
  readonly columns: number;
}

/** The features of `smiles` in steps (`progress` after each; at least one step, so that an empty list has the set's shape). */
export async function modelFeatures(smiles: readonly string[], set: FeatureSet = KERNEL_FEATURES, progress: Progress = NO_PROGRESS): Promise<ModelFeatures> {
  const steps: FeaturesOutput[] = [];
  for (let i = 0; i === 0 || i < smiles.length; i += FEATURE_STEP) {
    steps.push(await featuresJob({ smiles: smiles.slice(i, i + FEATURE_STEP), fingerprints: [...set.fingerprints], descriptors: set.descriptors }));
    progress(Math.min(1, (i + FEATURE_STEP) / Math.max(1, smiles.length)));
  }
  return collect(steps);
}

/** `model.features`: the features of `smiles` (the kernel model's set unless `set` says), once for a whole cross-validation (its folds pick their rows: `pickFeatures`). */
export async function modelFeaturesJob(input: { readonly smiles: readonly string[]; readonly set?: FeatureSet }, ctx?: Pick<JobContext, "progress">): Promise<ModelFeatures> {
  return modelFeatures(input.smiles, input.set ?? KERNEL_FEATURES, ctx ? (f) => ctx.progress(f) : NO_PROGRESS);
}

/** The features of the input compounds `pick` (indices into the input `f` was computed for), as if computed for those alone, in that order. */
export function pickFeatures(f: ModelFeatures, pick: readonly number[]): ModelFeatures {
  const rowOf = new Map<number, number>();
  f.rows.forEach((input, r) => rowOf.set(input, r));
  const rows: number[] = [];
  const sel: number[] = [];
  pick.forEach((i, k) => {
    const r = rowOf.get(i);
    if (r === undefined) return;
    rows.push(k);
    sel.push(r);
  });
  const fingerprints = f.fingerprints.map((b): BitRows => {
    const data = new Uint32Array(sel.length * b.words);
    sel.forEach((r, k) => data.set(b.data.subarray(r * b.words, (r + 1) * b.words), k * b.words));
    return { n: sel.length, words: b.words, data, ones: Int32Array.from(sel, (r) => b.ones[r]!) };
  });
  const descriptors = new Float64Array(sel.length * f.columns);
  sel.forEach((r, k) => descriptors.set(f.descriptors.subarray(r * f.columns, (r + 1) * f.columns), k * f.columns));
  return { rows: Int32Array.from(rows), errors: pick.map((i) => f.errors[i] ?? "no features"), fingerprints, descriptors, columns: f.columns };
}

/** The compounds of `steps` that have their features (input indices), their fingerprints packed and their descriptor rows. */
function collect(steps: readonly FeaturesOutput[]): ModelFeatures {
  const errors = steps.flatMap((s) => s.errors);
  const rows = Int32Array.from(errors.flatMap((e, i) => (e === null ? [i] : [])));
  const nfp = steps[0]!.fingerprints.length;
  const fingerprints: BitRows[] = [];
  for (let f = 0; f < nfp; f++) {
    const offsets = [0];
    const idx: number[] = [];
    for (const s of steps) {
      const fp = s.fingerprints[f]!;
      for (let i = 0; i < s.errors.length; i++) {
        if (s.errors[i] !== null) continue;
        for (let k = fp.offsets[i]!; k < fp.offsets[i + 1]!; k++) idx.push(fp.idx[k]!);
        offsets.push(idx.length);
      }
    }
    fingerprints.push(packBits(Int32Array.from(offsets), Int32Array.from(idx), steps[0]!.fingerprints[f]!.space));
  }
  const columns = steps[0]!.descriptors?.names.length ?? 0;
  const descriptors = new Float64Array(rows.length * columns);
  let r = 0;
  for (const s of steps) {
    const v = s.descriptors?.values;
    for (let i = 0; i < s.errors.length; i++) if (s.errors[i] === null && v) descriptors.set(v.subarray(i * columns, (i + 1) * columns), columns * r++);
  }
  return { rows, errors, fingerprints, descriptors, columns };
}
