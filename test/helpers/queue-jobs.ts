/**
 * A tiny job module (src/tasks/job.ts `JobModule`) for test/unit/tasks/queue-pool.test.ts: jobs
 * that echo their input, fail with a located error, or run until they are stopped — to test the
 * queue's transport (payload types, progress, errors, cancellation) without chemistry.
 */
import { BadRequest } from "../../src/errors.ts";
import type { JobContext } from "../../src/tasks/job.ts";

export const jobs = {
  /** Returns its input; reports progress 0.5 first. */
  echo(input: unknown, ctx: JobContext): unknown {
    ctx.progress(0.5);
    return input;
  },
  /** The byte length of its input's bytes (a large input, a small output). */
  length(input: { bytes: Uint8Array }): number {
    return input.bytes.byteLength;
  },
  /** Fails as a bad line 3 of field "smiles". */
  fail(input: { message: string }): never {
    throw new BadRequest(input.message, { line: 3, field: "smiles" });
  },
  /** Spins for `ms` (synchronous: only terminating the thread stops it early). */
  spin(input: { ms: number }): number {
    const end = Date.now() + input.ms;
    let n = 0;
    while (Date.now() < end) n++;
    return n;
  },
} as const;

export type QueueTestJobs = typeof jobs;
