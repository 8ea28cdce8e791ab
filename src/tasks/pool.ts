/**
 * A pool of `worker_threads` that runs CPU-heavy jobs off the event loop.
 *
 * A job is a kind (of the pool's job module, job.ts `JobModule`) plus plain, structured-clone-safe input; it
 * reports progress in [0, 1] and returns plain output. Jobs wait for a free worker in one FIFO
 * queue per owner (a task), served round-robin, so that a small upload is not stuck behind the
 * hundred chunks of a large one.
 * Aborting a job's signal terminates the worker running it (the only way to stop synchronous
 * WASM code) and starts a fresh one in its place; so does a job's time budget (`timeoutMs`,
 * counted once a worker runs it; used by request-time chemistry, with `maxWaitMs` for the wait),
 * which fails it with 503. Jobs go only to workers that said they are ready (started and
 * set up), so that a budget does not run while a worker starts. A worker whose job module asks
 * for it after a job (worker.ts; RDKit's memory grew past a threshold) is recycled: it is
 * replaced once it has answered, so that its memory is returned to the system (WebAssembly
 * memory never shrinks).
 */
import type { Worker } from "node:worker_threads";
import { moduleUrl, spawnWorker } from "../threads/spawn.ts";
import { Cancelled, fromReport, InternalError, ServiceUnavailable, type ErrorReport } from "../errors.ts";
import { FairQueue, watchWaiting } from "./fair-queue.ts";
import type { JobInput, JobKind, JobMap, JobOutput } from "./job.ts";

export interface RunOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (fraction: number) => void;
  /** Called when a worker starts the job. */
  readonly onStart?: () => void;
  /** Jobs of different owners share the workers round-robin (default: one shared owner). */
  readonly owner?: string;
  /**
   * Time budget of the job once a worker runs it, in ms: past it the worker is terminated and
   * replaced, and the job fails with ServiceUnavailable.
   */
  readonly timeoutMs?: number;
  /** Longest wait for a free worker, in ms: past it the job is dropped with ServiceUnavailable. */
  readonly maxWaitMs?: number;
}

interface Pending {
  /** The wait timer, then the run timer (RunOptions.maxWaitMs, timeoutMs). */
  timer?: NodeJS.Timeout;
  readonly id: number;
  readonly owner: string;
  readonly kind: string;
  readonly input: unknown;
  readonly options: RunOptions;
  readonly resolve: (out: unknown) => void;
  readonly reject: (err: unknown) => void;
}

/**
 * `ready`: the worker has loaded its job module and run its set-up; jobs go only to ready workers,
 * so that a job's budget does not run while a worker starts. `recycle`: the worker asks to be
 * replaced after this answer (worker.ts).
 */
type FromWorker =
  | { readonly id?: undefined; readonly type: "ready" }
  | { readonly id: number; readonly type: "progress"; readonly value: number }
  | { readonly id: number; readonly type: "done"; readonly output: unknown; readonly recycle?: boolean }
  | { readonly id: number; readonly type: "error"; readonly report: ErrorReport; readonly recycle?: boolean };

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Pending | null;
}

const WORKER_URL = moduleUrl("./worker.ts", import.meta.url);

export interface PoolOptions {
  /** The job module the workers import (a `file:` URL of a module that satisfies job.ts `JobModule`). */
  readonly module: URL;
  /** Passed to the module's `setUp` and `afterJob` in every worker (structured-clone-safe). */
  readonly setup?: unknown;
  /** How much lower than the main thread the workers run (threads/spawn.ts; default WORKER_NICE, for task jobs). */
  readonly nice?: number;
}

/**
 * What the task runner needs of a pool: `WorkerPool` (worker threads of this process) and
 * queue-pool.ts `QueuePool` (jobs on a Redis queue, run by `qsargraph worker` processes).
 */
export interface JobPool<J extends JobMap = JobMap> {
  run<K extends JobKind<J>>(kind: K, input: JobInput<J, K>, options?: RunOptions): Promise<JobOutput<J, K>>;
  /** Owner `owner` (a task) will run no more jobs: what the pool keeps for it may go (queue-pool.ts: its shared inputs). */
  release?(owner: string): void;
  close(): Promise<void>;
}

/** A pool running the jobs of map `J` (the type of the module's `jobs`). */
export class WorkerPool<J extends JobMap = JobMap> implements JobPool<J> {
  private readonly slots: Slot[] = [];
  /** Waiting jobs per owner; the Map's order is the round-robin order. */
  private readonly waiting = new FairQueue<Pending>();
  private nextId = 1;
  private closed = false;
  /** Workers replaced because their job grew their memory past the threshold. */
  recycled = 0;

  constructor(
    readonly size: number,
    private readonly options: PoolOptions,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.newSlot());
  }

  private newSlot(): Slot {
    const workerData = { module: this.options.module.href, setup: this.options.setup };
    const slot: Slot = { worker: spawnWorker(WORKER_URL, { workerData }, this.options.nice), ready: false, job: null };
    this.attach(slot);
    return slot;
  }

  private attach(slot: Slot): void {
    slot.worker.on("message", (msg: FromWorker) => {
      if (msg.type === "ready") {
        slot.ready = true;
        this.dispatch();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      if (msg.type === "progress") {
        job.options.onProgress?.(msg.value);
        return;
      }
      slot.job = null;
      if (msg.type === "done") job.resolve(msg.output);
      else job.reject(fromReport(msg.report));
      if (msg.recycle) {
        this.recycled++;
        this.replace(slot, null);
      } else this.dispatch();
    });
    slot.worker.on("error", (err) => {
      console.error("worker thread failed:", err);
      this.replace(slot, new InternalError("a worker thread failed"));
    });
    slot.worker.on("exit", () => {
      if (!this.closed && this.slots.includes(slot)) this.replace(slot, new InternalError("a worker thread exited"));
    });
  }

  /** Drop a slot's worker (terminating it) and fail its job with `err` (if it has one). */
  private replace(slot: Slot, err: unknown): void {
    const idx = this.slots.indexOf(slot);
    if (idx < 0) return;
    const job = slot.job;
    slot.job = null;
    this.slots.splice(idx, 1);
    void slot.worker.terminate();
    if (!this.closed) this.slots.push(this.newSlot());
    job?.reject(err);
    this.dispatch();
  }

  /** Take a job out: from its queue (rejected with `err`), or off its worker (terminated and replaced). */
  private stop(job: Pending, err: unknown): void {
    if (this.waiting.remove(job)) {
      job.reject(err);
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot) this.replace(slot, err);
  }

  run<K extends JobKind<J>>(kind: K, input: JobInput<J, K>, options: RunOptions = {}): Promise<JobOutput<J, K>> {
    if (this.closed) return Promise.reject(new InternalError("worker pool is closed"));
    return new Promise<JobOutput<J, K>>((resolve, reject) => {
      const job: Pending = {
        id: this.nextId++,
        owner: options.owner ?? "",
        kind,
        input,
        options,
        resolve: (out) => (clearTimeout(job.timer), resolve(out as JobOutput<J, K>)),
        reject: (err) => (clearTimeout(job.timer), reject(err)),
      };
      if (!watchWaiting(job, kind, options, (err) => this.stop(job, err))) return;
      this.waiting.push(job);
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.job || !slot.ready) continue;
      const job = this.waiting.next();
      if (!job) return;
      slot.job = job;
      clearTimeout(job.timer);
      const budget = job.options.timeoutMs;
      if (budget !== undefined) {
        job.timer = setTimeout(() => this.stop(job, new ServiceUnavailable(`the job (${job.kind}) did not finish within its time budget of ${budget} ms; it was stopped`)), budget);
      }
      job.options.onStart?.();
      slot.worker.postMessage({ id: job.id, kind: job.kind, input: job.input });
    }
  }

  /** Jobs waiting for a worker. */
  get queued(): number {
    return this.waiting.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiting.rejectAll(new Cancelled("server is shutting down"));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
