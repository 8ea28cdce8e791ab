/**
 * Worker-side job of feature selection: one bootstrap resample of RFE (learn/rfe.ts
 * `runResample`) on the prepared problem, which comes as its column-major matrix.
 */
import { ForestData, type ForestTarget } from "../../learn/forest.ts";
import { runResample, type ResampleResult } from "../../learn/rfe.ts";

export interface RfeResampleInput {
  /** The prepared matrix, column-major (n rows × p columns). */
  readonly x: Float64Array;
  readonly n: number;
  readonly p: number;
  readonly target: ForestTarget;
  readonly sizes: readonly number[];
  readonly seed: number;
  readonly rankTrees: number;
  readonly ntree: number;
  /** Which resample (its random draws follow from seed and b alone). */
  readonly b: number;
}

export function rfeResampleJob(input: RfeResampleInput): ResampleResult {
  const problem = { data: ForestData.fromColumnMajor(input.x, input.n, input.p), target: input.target, sizes: input.sizes };
  return runResample(problem, input.b, input.seed, input.rankTrees, input.ntree);
}
