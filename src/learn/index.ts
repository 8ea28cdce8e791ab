/**
 * The learning core of lazar models (docs/lazar-method.md): fingerprints, similarities, neighbours,
 * weighted majority vote, weighted average, local SVMs and the model that ties them together.
 * Pure modules: nothing here imports http, store or resources.
 */
export { FingerprintMatrix, weightedFingerprint, fingerprintSum, type SparseFingerprint, type FeatureHits } from "./fingerprint.ts";
export { weightedTanimoto, gauss, TanimotoIndex, DescriptorSpace, cosine, COSINE_COMPONENTS, type DescriptorProjection } from "./similarity.ts";
export { findNeighbours, instancesOf, TrainingLookup, type Neighbour, type TrainingInstances } from "./neighbours.ts";
export { weightedMajorityVote, type VoteResult } from "./wmv.ts";
export { weightedAverage, type AverageResult } from "./average.ts";
export { localSvm, partitions, DEFAULT_COSTS, type LocalSvmOptions, type LocalSvmResult } from "./local-svm.ts";
export { loadLibsvm, KernelSvm, type Libsvm, type SvmKind, type KernelSvmOptions } from "./svm.ts";
export {
  LazarModel,
  createLazarModel,
  checkAlgorithm,
  defaultAlgorithm,
  usesHits,
  similarityThreshold,
  LazarParameterError,
  PREDICTION_ALGORITHMS,
  DEFAULT_MIN_SIM,
  DEFAULT_MIN_TRAIN_PERFORMANCE,
  OUTSIDE_DOMAIN,
  type PredictionAlgorithm,
  type LazarModelInput,
  type LazarQuery,
  type LazarPrediction,
} from "./lazar.ts";
