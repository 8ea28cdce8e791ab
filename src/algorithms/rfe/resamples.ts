/**
 * `rfe` (learn/rfe.ts) with its bootstrap resamples run as pool jobs (`rfe.resample`, job.ts),
 * so that they share the service's workers with every other task: the cleaning, imputation and
 * final selection run here, each resample in whichever worker is free. Every resample draws from
 * its own seed, so the result equals `rfe`'s for the same options, whatever the number of workers.
 */
import { assembleRfe, prepareRfe, RFE_DEFAULTS, RfeInputError, type ResampleResult, type RfeEndpoint, type RfeOptions, type RfeResult } from "../../learn/rfe.ts";
import type { RfeResampleInput } from "./job.ts";

export interface RfeResamplesOptions extends RfeOptions {
  /** Aborting rejects with the signal's reason (the jobs are stopped by whoever runs them). */
  readonly signal?: AbortSignal;
}

/** Runs one resample (a pool job). */
export type RunResample = (input: RfeResampleInput) => Promise<ResampleResult>;

export async function rfeOnResamples(columns: readonly ArrayLike<number | null | undefined>[], endpoint: RfeEndpoint, options: RfeResamplesOptions, run: RunResample): Promise<RfeResult> {
  const B = options.resamples ?? RFE_DEFAULTS.resamples;
  if (!(B >= 1)) throw new RfeInputError("resamples must be at least 1");
  const signal = options.signal;
  signal?.throwIfAborted();
  const prep = prepareRfe(columns, endpoint, options);
  const { data, target, sizes } = prep.problem;
  const common = { x: data.x, n: data.n, p: data.p, target, sizes, seed: options.seed ?? RFE_DEFAULTS.seed, rankTrees: options.rankTrees ?? RFE_DEFAULTS.rankTrees, ntree: options.ntree ?? RFE_DEFAULTS.ntree };
  let done = 0;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = (): void => reject(signal?.reason instanceof Error ? signal.reason : new Error("aborted"));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  const all = Promise.all(
    Array.from({ length: B }, async (_, b) => {
      const r = await run({ ...common, b });
      options.onProgress?.(++done / B);
      return r;
    }),
  );
  try {
    const results = await Promise.race([all, aborted]);
    return assembleRfe(prep, results, columns.length, options.includeAll === true);
  } finally {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    all.catch(() => undefined);
    aborted.catch(() => undefined);
  }
}
