/**
 * What the in-process pool (pool.ts) and the Redis queue pool (queue-pool.ts) share: jobs wait in
 * one FIFO per owner (a task) and are taken round-robin over owners — the first owner's oldest
 * job, then that owner goes last — so that a task with many jobs does not hold back a small one;
 * and a waiting job is stopped by its cancel signal or its wait budget.
 */
import { Cancelled, ServiceUnavailable } from "../errors.ts";
import type { RunOptions } from "./pool.ts";

export interface Waiting {
  readonly owner: string;
  timer?: NodeJS.Timeout;
  /** Stop watching the job's signal (set by watchWaiting; called when the job settles). */
  unwatch?: () => void;
  reject(err: unknown): void;
}

export class FairQueue<P extends Waiting> {
  private readonly queues = new Map<string, P[]>();

  push(job: P): void {
    const q = this.queues.get(job.owner);
    if (q) q.push(job);
    else this.queues.set(job.owner, [job]);
  }

  next(): P | undefined {
    for (const [owner, q] of this.queues) {
      const job = q.shift();
      this.queues.delete(owner);
      if (q.length > 0) this.queues.set(owner, q);
      if (job) return job;
    }
    return undefined;
  }

  /** Take `job` out if it is waiting here; whether it was. */
  remove(job: P): boolean {
    const q = this.queues.get(job.owner);
    const at = q?.indexOf(job) ?? -1;
    if (!q || at < 0) return false;
    q.splice(at, 1);
    if (q.length === 0) this.queues.delete(job.owner);
    return true;
  }

  get size(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  /** Reject every waiting job with `err` and forget them. */
  rejectAll(err: unknown): void {
    for (const q of this.queues.values()) for (const job of q) job.reject(err);
    this.queues.clear();
  }
}

/**
 * Stop `job` (with `stop`) when its signal aborts or when it has waited `maxWaitMs` for a worker;
 * false (and the job rejected) when the signal had aborted already. The job must call
 * `job.unwatch()` when it settles: a task's signal lives as long as the task, and a listener left
 * on it holds the job — and through its promise, its output — until the task ends (the MUV
 * descriptors on the SPARQL store: 7 GB of chunk outputs held this way).
 */
export function watchWaiting(job: Waiting, kind: string, options: RunOptions, stop: (err: unknown) => void): boolean {
  const { signal } = options;
  if (signal?.aborted) {
    job.reject(new Cancelled("cancelled"));
    return false;
  }
  if (signal) {
    const onAbort = (): void => stop(new Cancelled("cancelled"));
    signal.addEventListener("abort", onAbort, { once: true });
    job.unwatch = () => signal.removeEventListener("abort", onAbort);
  }
  const wait = options.maxWaitMs;
  if (wait !== undefined) {
    job.timer = setTimeout(() => stop(new ServiceUnavailable(`no worker was free for the job (${kind}) within ${wait} ms; try again later`)), wait);
  }
  return true;
}
