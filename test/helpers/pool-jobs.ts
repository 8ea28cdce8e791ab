/**
 * A job module (src/tasks/job.ts `JobModule`) for test/unit/tasks/pool-inputs.test.ts and
 * bench/pool-inputs.ts: jobs that look at a large input's bytes (what kind of buffer the worker
 * got, their length and a checksum), exit their thread, or make a large output — to test and
 * measure how large inputs and outputs cross between the main thread and the workers.
 */
import type { JobContext } from "../../src/tasks/job.ts";

/** FNV-1a over the bytes: a checksum the test computes on the main thread too. */
export function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193) >>> 0;
  return h;
}

export const jobs = {
  /** What the worker got: the bytes' length, checksum and whether they are a SharedArrayBuffer's (and its size). */
  inspect(input: { bytes: Uint8Array; part?: { index: number } }): { length: number; sum: number; shared: boolean; bufferBytes: number } {
    const b = input.bytes.buffer;
    return { length: input.bytes.byteLength, sum: fnv1a(input.bytes), shared: b instanceof SharedArrayBuffer, bufferBytes: b.byteLength };
  },
  /** The bytes' length only (no pass over them: the transport's cost). */
  length(input: { bytes: Uint8Array }): number {
    return input.bytes.byteLength;
  },
  /** Ends its thread while it runs (as a crash would). */
  exit(): never {
    process.exit(1);
  },
  /** A large output made in the worker: `bytes` (a Uint8Array) or `objects` ({i, name} records) of about `mb` MB. */
  make(input: { kind: "bytes" | "objects"; mb: number }, ctx: JobContext): unknown {
    ctx.progress(0);
    if (input.kind === "bytes") return { bytes: new Uint8Array(input.mb * 1e6).fill(7) };
    const n = Math.round((input.mb * 1e6) / 24);
    return Array.from({ length: n }, (_, i) => ({ i, name: `c${i}` }));
  },
} as const;

export type PoolTestJobs = typeof jobs;
