/**
 * A pool of `worker_threads` that runs CPU-heavy jobs off the event loop (DESIGN §1.2).
 *
 * A job is a kind (registered in jobs/index.ts) plus plain, structured-clone-safe input; it
 * reports progress in [0, 1] and returns plain output. Jobs wait for a free worker in one FIFO
 * queue per owner (a task), served round-robin, so that a small upload is not stuck behind the
 * hundred chunks of a large one.
 * Aborting a job's signal terminates the worker running it (the only way to stop synchronous
 * WASM code) and starts a fresh one in its place.
 */
import type { Worker } from "node:worker_threads";
import { spawnTsWorker } from "./spawn.ts";
import { Cancelled, fromReport, InternalError, type ErrorReport } from "../errors.ts";
import type { JobInput, JobKind, JobOutput } from "./jobs/index.ts";

export interface RunOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (fraction: number) => void;
  /** Called when a worker starts the job. */
  readonly onStart?: () => void;
  /** Jobs of different owners share the workers round-robin (default: one shared owner). */
  readonly owner?: string;
}

interface Pending {
  readonly id: number;
  readonly owner: string;
  readonly kind: JobKind;
  readonly input: unknown;
  readonly options: RunOptions;
  readonly resolve: (out: unknown) => void;
  readonly reject: (err: unknown) => void;
}

type FromWorker =
  | { readonly id: number; readonly type: "progress"; readonly value: number }
  | { readonly id: number; readonly type: "done"; readonly output: unknown }
  | { readonly id: number; readonly type: "error"; readonly report: ErrorReport };

interface Slot {
  worker: Worker;
  job: Pending | null;
}

const WORKER_URL = new URL("./worker.ts", import.meta.url);

export interface PoolOptions {
  /** Load and warm up RDKit when a worker starts (default true; the render pool needs no RDKit). */
  readonly rdkit?: boolean;
}

export class WorkerPool {
  private readonly slots: Slot[] = [];
  /** Waiting jobs per owner; the Map's order is the round-robin order. */
  private readonly queues = new Map<string, Pending[]>();
  private nextId = 1;
  private closed = false;

  constructor(
    readonly size: number,
    private readonly options: PoolOptions = {},
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.newSlot());
  }

  private newSlot(): Slot {
    const slot: Slot = { worker: spawnTsWorker(WORKER_URL, { workerData: { rdkit: this.options.rdkit !== false } }), job: null };
    this.attach(slot);
    return slot;
  }

  private attach(slot: Slot): void {
    slot.worker.on("message", (msg: FromWorker) => {
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      if (msg.type === "progress") {
        job.options.onProgress?.(msg.value);
        return;
      }
      slot.job = null;
      if (msg.type === "done") job.resolve(msg.output);
      else job.reject(fromReport(msg.report));
      this.dispatch();
    });
    slot.worker.on("error", (err) => {
      console.error("worker thread failed:", err);
      this.replace(slot, new InternalError("a worker thread failed"));
    });
    slot.worker.on("exit", () => {
      if (!this.closed && this.slots.includes(slot)) this.replace(slot, new InternalError("a worker thread exited"));
    });
  }

  /** Drop a slot's worker (terminating it) and fail its job with `err`. */
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

  run<K extends JobKind>(kind: K, input: JobInput<K>, options: RunOptions = {}): Promise<JobOutput<K>> {
    if (this.closed) return Promise.reject(new InternalError("worker pool is closed"));
    return new Promise<JobOutput<K>>((resolve, reject) => {
      const job: Pending = { id: this.nextId++, owner: options.owner ?? "", kind, input, options, resolve: resolve as (o: unknown) => void, reject };
      const { signal } = options;
      if (signal?.aborted) return reject(new Cancelled("cancelled"));
      signal?.addEventListener(
        "abort",
        () => {
          const q = this.queues.get(job.owner);
          const at = q?.indexOf(job) ?? -1;
          if (q && at >= 0) {
            q.splice(at, 1);
            if (q.length === 0) this.queues.delete(job.owner);
            reject(new Cancelled("cancelled"));
            return;
          }
          const slot = this.slots.find((s) => s.job === job);
          if (slot) this.replace(slot, new Cancelled("cancelled"));
        },
        { once: true },
      );
      const q = this.queues.get(job.owner);
      if (q) q.push(job);
      else this.queues.set(job.owner, [job]);
      this.dispatch();
    });
  }

  /** The next job round-robin over owners: the first owner's oldest job, then that owner goes last. */
  private next(): Pending | undefined {
    for (const [owner, q] of this.queues) {
      const job = q.shift();
      this.queues.delete(owner);
      if (q.length > 0) this.queues.set(owner, q);
      if (job) return job;
    }
    return undefined;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.job) continue;
      const job = this.next();
      if (!job) return;
      slot.job = job;
      job.options.onStart?.();
      slot.worker.postMessage({ id: job.id, kind: job.kind, input: job.input });
    }
  }

  /** Jobs waiting for a worker. */
  get queued(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const q of this.queues.values()) for (const job of q) job.reject(new Cancelled("server is shutting down"));
    this.queues.clear();
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
