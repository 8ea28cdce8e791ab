/**
 * `rfe` with its bootstrap resamples spread over worker threads (the machine's cores): the
 * cleaning, imputation and final selection run here, resample b runs in worker b mod threads.
 * Every resample draws from its own seed, so the result equals `rfe`'s for the same options,
 * whatever the number of threads.
 */
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { spawnTsWorker } from "../../threads/spawn.ts";
import { assembleRfe, prepareRfe, rfe, RFE_DEFAULTS, RfeInputError, type ResampleResult, type RfeEndpoint, type RfeOptions, type RfeResult } from "../../learn/rfe.ts";
import type { RfeWorkerData, RfeWorkerMessage } from "./worker.ts";

export interface RfeParallelOptions extends RfeOptions {
  /** Worker threads (default: available parallelism, at most the number of resamples); 1 = in this thread. */
  readonly threads?: number;
  /** Aborting terminates the workers and rejects. */
  readonly signal?: AbortSignal;
}

const WORKER_URL = new URL("./worker.ts", import.meta.url);

export async function rfeParallel(
  columns: readonly ArrayLike<number | null | undefined>[],
  endpoint: RfeEndpoint,
  options: RfeParallelOptions = {},
): Promise<RfeResult> {
  const B = options.resamples ?? RFE_DEFAULTS.resamples;
  if (!(B >= 1)) throw new RfeInputError("resamples must be at least 1");
  const threads = Math.max(1, Math.min(options.threads ?? availableParallelism(), B));
  if (threads === 1) return rfe(columns, endpoint, options);
  options.signal?.throwIfAborted();
  const prep = prepareRfe(columns, endpoint, options);
  const { data, target, sizes } = prep.problem;
  const results: (ResampleResult | undefined)[] = new Array(B);
  const workers: Worker[] = [];
  let done = 0;
  let onAbort: (() => void) | null = null;
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (e: unknown): void => reject(e instanceof Error ? e : new Error(String(e)));
      onAbort = (): void => fail(options.signal?.reason ?? new Error("aborted"));
      options.signal?.addEventListener("abort", onAbort, { once: true });
      for (let w = 0; w < threads; w++) {
        const mine: number[] = [];
        for (let b = w; b < B; b += threads) mine.push(b);
        const workerData: RfeWorkerData = {
          x: data.x,
          n: data.n,
          p: data.p,
          target,
          sizes,
          seed: options.seed ?? RFE_DEFAULTS.seed,
          rankTrees: options.rankTrees ?? RFE_DEFAULTS.rankTrees,
          ntree: options.ntree ?? RFE_DEFAULTS.ntree,
          resamples: mine,
        };
        const worker = spawnTsWorker(WORKER_URL, { workerData });
        workers.push(worker);
        let left = mine.length;
        worker.on("message", (msg: RfeWorkerMessage) => {
          if (msg.type === "error") return fail(new Error(`rfe worker: ${msg.message}`));
          results[msg.b] = { importance: msg.importance, perf: msg.perf };
          left--;
          done++;
          options.onProgress?.(done / B);
          if (done === B) resolve();
        });
        worker.on("error", fail);
        worker.on("exit", (code) => {
          if (left > 0) fail(new Error(`rfe worker stopped (exit code ${code}) with ${left} resamples left`));
        });
      }
    });
  } finally {
    if (onAbort !== null) options.signal?.removeEventListener("abort", onAbort);
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return assembleRfe(prep, results as ResampleResult[], columns.length, options.includeAll === true);
}
