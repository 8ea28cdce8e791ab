/**
 * A lazar model's learning core: similarity → neighbours → local prediction
 * (docs/lazar-method.md). Pure: plain typed arrays in, plain objects out; the model/HTTP
 * layer builds the fingerprints (feature matching) or descriptor rows and turns results into
 * resources.
 *
 * Parameters as lazar's: `min_sim` 0.3 for substructures; for descriptors 0.7 on the user's
 * scale, compared with the cosine as 2·min_sim − 1 (so 0.4). Confidences of cosine models are
 * mapped back with (c + 1)/2 (as lazar did after its 4.0 release). One quirk of lazar fixed: an
 * unpredicted query always has confidence 0 (lazar reported the mean similarity for a censored
 * SVM classification). As lazar: a query in the training set gets its measured value(s) and no
 * prediction; a query without neighbours gets no value (here with the reason "outside the
 * applicability domain"; there is no other domain test).
 */

import type { SparseFingerprint } from "./fingerprint.ts";
import { FingerprintMatrix } from "./fingerprint.ts";
import { DescriptorSpace } from "./descriptor-space.ts";
import { TanimotoIndex } from "./similarity.ts";
import { findNeighbours, TrainingLookup, type Neighbour, type TrainingInstances } from "./neighbours.ts";
import { weightedMajorityVote } from "./wmv.ts";
import { weightedAverage } from "./average.ts";
import { localSvm, type LocalSvmOptions, type LocalSvmResult } from "./local-svm.ts";
import { loadLibsvm, type Libsvm } from "./svm.ts";

export const PREDICTION_ALGORITHMS = ["weighted_majority_vote", "local_svm_classification", "local_svm_regression", "weighted_average"] as const;
export type PredictionAlgorithm = (typeof PREDICTION_ALGORITHMS)[number];

/** Default `min_sim` on the user's scale (lazar's defaults). */
export const DEFAULT_MIN_SIM = { substructure: 0.3, descriptor: 0.7 } as const;
export const DEFAULT_MIN_TRAIN_PERFORMANCE = 0.1;

/** An invalid parameter combination (the HTTP layer answers 400 with the message). */
export class LazarParameterError extends Error {
  override readonly name = "LazarParameterError";
}

/** Default algorithm: weighted majority vote for nominal endpoints, local SVM regression for numeric ones. */
export function defaultAlgorithm(nClasses: number): PredictionAlgorithm {
  return nClasses > 0 ? "weighted_majority_vote" : "local_svm_regression";
}

/**
 * Whether substructure fingerprints carry hits × pValue (true) or pValue (false): lazar's
 * `nr_hits`, false only for the weighted majority vote of a classification model.
 */
export function usesHits(algorithm: PredictionAlgorithm, nClasses: number): boolean {
  return !(algorithm === "weighted_majority_vote" && nClasses > 0);
}

/** The threshold compared with raw similarities: min_sim, or 2·min_sim − 1 for cosine models. */
export function similarityThreshold(minSim: number, kind: "substructure" | "descriptor"): number {
  return kind === "descriptor" ? 2 * minSim - 1 : minSim;
}

/** Checks an algorithm against the endpoint type; throws LazarParameterError saying why. */
export function checkAlgorithm(algorithm: string, nClasses: number): PredictionAlgorithm {
  if (!(PREDICTION_ALGORITHMS as readonly string[]).includes(algorithm)) {
    throw new LazarParameterError(`unknown prediction_algorithm "${algorithm}" (expected one of ${PREDICTION_ALGORITHMS.join(", ")})`);
  }
  const a = algorithm as PredictionAlgorithm;
  const nominal = nClasses > 0;
  if ((a === "weighted_majority_vote" || a === "local_svm_classification") && !nominal) {
    throw new LazarParameterError(`prediction_algorithm ${a} needs a nominal endpoint; this one is numeric (use local_svm_regression or weighted_average)`);
  }
  if ((a === "local_svm_regression" || a === "weighted_average") && nominal) {
    throw new LazarParameterError(`prediction_algorithm ${a} needs a numeric endpoint; this one is nominal (use weighted_majority_vote or local_svm_classification)`);
  }
  if (nominal && nClasses < 2) throw new LazarParameterError("a nominal endpoint needs at least two classes");
  return a;
}

export interface LazarModelInput {
  /** Substructure fingerprints (weighted Tanimoto) or descriptor rows (cosine), one row per training compound. */
  readonly features: FingerprintMatrix | DescriptorSpace;
  readonly instances: TrainingInstances;
  /** Identity (e.g. InChI) of each training row, for training-set queries. */
  readonly keys?: readonly (string | null | undefined)[];
  /** Number of classes (value_map size); 0 = numeric endpoint. */
  readonly nClasses: number;
  readonly algorithm?: PredictionAlgorithm;
  /** On the user's scale (default 0.3 substructures, 0.7 descriptors). */
  readonly minSim?: number;
  readonly minTrainPerformance?: number;
  /** Further local SVM settings (grid, resamples, seed). */
  readonly svm?: Omit<LocalSvmOptions, "kind" | "minTrainPerformance">;
  /** libsvm (needed by the local SVMs; `createLazarModel` loads it). */
  readonly libsvm?: Libsvm;
}

export interface LazarQuery {
  /** Identity of the query compound (same scheme as `keys`). */
  readonly key?: string | null;
  /** Substructure models: the query's fingerprint (same value scheme as the training rows). */
  readonly fingerprint?: SparseFingerprint;
  /** Descriptor models: the query's descriptor values (NaN = missing), in the model's column order. */
  readonly descriptors?: ArrayLike<number>;
}

export type LazarPrediction =
  | {
      readonly status: "measured";
      /** The training row and its measured activities (class indices or values). */
      readonly row: number;
      readonly measured: readonly number[];
    }
  | {
      readonly status: "predicted";
      /** Class index (1-based) or value. */
      readonly value: number;
      readonly confidence: number;
      readonly neighbours: readonly Neighbour[];
      readonly svm?: LocalSvmResult;
    }
  | {
      readonly status: "unpredicted";
      readonly reason: string;
      readonly confidence: 0;
      readonly neighbours: readonly Neighbour[];
      readonly svm?: LocalSvmResult;
    };

export const OUTSIDE_DOMAIN = "outside the applicability domain: no training compound with similarity above min_sim";

export class LazarModel {
  readonly kind: "substructure" | "descriptor";
  readonly algorithm: PredictionAlgorithm;
  readonly nClasses: number;
  /** min_sim on the user's scale and the raw threshold actually compared. */
  readonly minSim: number;
  readonly threshold: number;
  readonly minTrainPerformance: number;
  private readonly input: LazarModelInput;
  private readonly tanimoto: TanimotoIndex | null;
  private readonly lookup: TrainingLookup;
  private readonly sims: Float64Array<ArrayBufferLike>;

  constructor(input: LazarModelInput) {
    this.input = input;
    this.kind = input.features instanceof FingerprintMatrix ? "substructure" : "descriptor";
    this.nClasses = input.nClasses;
    this.algorithm = checkAlgorithm(input.algorithm ?? defaultAlgorithm(input.nClasses), input.nClasses);
    this.minSim = input.minSim ?? DEFAULT_MIN_SIM[this.kind];
    if (!Number.isFinite(this.minSim) || this.minSim < 0 || this.minSim > 1) throw new LazarParameterError(`min_sim must be a number in [0, 1], got ${input.minSim}`);
    this.threshold = similarityThreshold(this.minSim, this.kind);
    this.minTrainPerformance = input.minTrainPerformance ?? DEFAULT_MIN_TRAIN_PERFORMANCE;
    if (this.algorithm.startsWith("local_svm") && input.libsvm === undefined) throw new LazarParameterError("local SVM models need libsvm (use createLazarModel)");
    const rows = input.features instanceof FingerprintMatrix ? input.features.rows : input.features.nRows;
    for (const r of input.instances.row) if (r < 0 || r >= rows) throw new RangeError(`instance row ${r} outside 0..${rows - 1}`);
    if (input.keys && input.keys.length !== rows) throw new RangeError(`${input.keys.length} keys for ${rows} training rows`);
    this.tanimoto = input.features instanceof FingerprintMatrix ? new TanimotoIndex(input.features) : null;
    this.lookup = new TrainingLookup(input.keys ?? []);
    this.sims = new Float64Array(rows);
  }

  /** Similarity of the query to every training row (raw scale). */
  similarities(query: LazarQuery): Float64Array {
    if (this.tanimoto) {
      if (!query.fingerprint) throw new LazarParameterError("a substructure model needs the query's fingerprint");
      return this.tanimoto.similarities(query.fingerprint, this.sims);
    }
    if (!query.descriptors) throw new LazarParameterError("a descriptor model needs the query's descriptor values");
    return (this.input.features as DescriptorSpace).similarities(query.descriptors, this.sims);
  }

  neighbours(query: LazarQuery): Neighbour[] {
    return findNeighbours(this.similarities(query), this.input.instances, this.threshold);
  }

  predict(query: LazarQuery): LazarPrediction {
    const row = this.lookup.rowOf(query.key);
    if (row >= 0) return { status: "measured", row, measured: TrainingLookup.measured(row, this.input.instances) };
    const neighbours = this.neighbours(query);
    if (neighbours.length === 0) return { status: "unpredicted", reason: OUTSIDE_DOMAIN, confidence: 0, neighbours };
    const conf = (c: number): number => (this.kind === "descriptor" ? (c + 1) / 2 : c);
    switch (this.algorithm) {
      case "weighted_majority_vote": {
        const r = weightedMajorityVote(neighbours, this.nClasses);
        if (r.value === null) return { status: "unpredicted", reason: "no vote", confidence: 0, neighbours };
        return { status: "predicted", value: r.value, confidence: conf(r.confidence), neighbours };
      }
      case "weighted_average": {
        const r = weightedAverage(neighbours);
        if (r.value === null) return { status: "unpredicted", reason: "the neighbours' similarities sum to zero", confidence: 0, neighbours };
        return { status: "predicted", value: r.value, confidence: conf(r.confidence), neighbours };
      }
      default: {
        const { x, q } = this.svmRows(neighbours, query);
        const y = Float64Array.from(neighbours, (nb) => nb.activity);
        const r = localSvm(this.input.libsvm!, x, y, q, {
          ...this.input.svm,
          kind: this.algorithm === "local_svm_classification" ? "classification" : "regression",
          minTrainPerformance: this.minTrainPerformance,
        });
        let mean = 0;
        for (const nb of neighbours) mean += nb.similarity;
        mean /= neighbours.length;
        if (r.value === null) return { status: "unpredicted", reason: r.note ?? "local SVM failed", confidence: 0, neighbours, svm: r };
        return { status: "predicted", value: r.value, confidence: conf(mean), neighbours, svm: r };
      }
    }
  }

  /**
   * The local SVM's matrix: neighbour rows × columns. Substructures: the dense fingerprint values
   * over the features present in a neighbour or the query; descriptors: the original values.
   */
  private svmRows(neighbours: readonly Neighbour[], query: LazarQuery): { x: Float64Array; q: Float64Array } {
    const f = this.input.features;
    if (f instanceof FingerprintMatrix) {
      const fp = query.fingerprint!;
      const col = new Map<number, number>();
      const addCol = (feature: number): void => {
        if (!col.has(feature)) col.set(feature, col.size);
      };
      for (const nb of neighbours) for (let k = f.offsets[nb.row]!; k < f.offsets[nb.row + 1]!; k++) addCol(f.idx[k]!);
      for (const feature of fp.idx) if (feature >= 0 && feature < f.nFeatures) addCol(feature);
      const m = col.size;
      const x = new Float64Array(neighbours.length * m);
      neighbours.forEach((nb, i) => {
        for (let k = f.offsets[nb.row]!; k < f.offsets[nb.row + 1]!; k++) x[i * m + col.get(f.idx[k]!)!] = f.val[k]!;
      });
      const q = new Float64Array(m);
      fp.idx.forEach((feature, k) => {
        const c = col.get(feature);
        if (c !== undefined) q[c] = fp.val[k]!;
      });
      return { x, q };
    }
    const m = f.nColumns;
    const x = new Float64Array(neighbours.length * m);
    neighbours.forEach((nb, i) => x.set(f.raw(nb.row), i * m));
    const q = Float64Array.from({ length: m }, (_, j) => {
      const v = query.descriptors![j]!;
      return Number.isFinite(v) ? v : NaN;
    });
    return { x, q };
  }
}

/** Builds a model, loading libsvm first when the algorithm needs it. */
export async function createLazarModel(input: LazarModelInput): Promise<LazarModel> {
  const algorithm = input.algorithm ?? defaultAlgorithm(input.nClasses);
  const libsvm = input.libsvm ?? (algorithm.startsWith("local_svm") ? await loadLibsvm() : undefined);
  return new LazarModel(libsvm ? { ...input, libsvm } : input);
}
