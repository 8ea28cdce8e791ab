/**
 * Worker thread of `rfeParallel` (rfe-parallel.ts): runs the bootstrap resamples it is given on
 * the prepared problem and posts each result. Entry module, started by spawnTsWorker.
 */
import { parentPort, workerData } from "node:worker_threads";
import { ForestData, type ForestTarget } from "../../learn/forest.ts";
import { runResample } from "../../learn/rfe.ts";

export interface RfeWorkerData {
  readonly x: Float64Array;
  readonly n: number;
  readonly p: number;
  readonly target: ForestTarget;
  readonly sizes: readonly number[];
  readonly seed: number;
  readonly rankTrees: number;
  readonly ntree: number;
  readonly resamples: readonly number[];
}

export type RfeWorkerMessage =
  | { readonly type: "result"; readonly b: number; readonly importance: Float64Array; readonly perf: ({ main: number; secondary: number } | null)[] }
  | { readonly type: "error"; readonly message: string };

const input = workerData as RfeWorkerData;
const port = parentPort!;
try {
  const problem = { data: ForestData.fromColumnMajor(input.x, input.n, input.p), target: input.target, sizes: input.sizes };
  for (const b of input.resamples) {
    const r = runResample(problem, b, input.seed, input.rankTrees, input.ntree);
    port.postMessage({ type: "result", b, importance: r.importance, perf: r.perf } satisfies RfeWorkerMessage);
  }
} catch (e) {
  port.postMessage({ type: "error", message: e instanceof Error ? e.message : String(e) } satisfies RfeWorkerMessage);
}
