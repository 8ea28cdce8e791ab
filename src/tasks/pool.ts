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
 *
 * Large bytes in an input go to the workers once, not once per job. postMessage copies (structured
 * clone) what it sends on the calling thread — this, the main one: three jobs of a task carrying
 * a 200 MB upload held its event loop 0.15–0.4 s (docs/benchmarks.md, "Large inputs to the worker
 * threads"). So a Uint8Array of SHARED_MIN_BYTES or more in an input (a field of it, or of a plain
 * object or array in it, SHARED_DEPTH levels down) is copied once into a SharedArrayBuffer, in
 * slices of COPY_SLICE_BYTES, one event-loop turn each, and the job carries that copy: posting a
 * view on shared memory copies nothing, and every later job given the same Uint8Array (by
 * identity: an upload's bytes go to dataset.prepare, .header and each .build part) gets the same
 * copy. The copy lives as long as the Uint8Array it was made of (a WeakMap) or, for a task's
 * jobs, until the task is released (`release`, runner.ts, at its end), so a job run again
 * after its thread died still has its input — which moving the buffer (a transfer list) would not
 * give. Bytes on a SharedArrayBuffer already go as they are. So: a caller must not change bytes it
 * has given to a job, and a job must not write to its input's bytes (other jobs see the same memory).
 * A job with such bytes joins its task's queue once they are copied (a job without them, run
 * meanwhile, may go first). Outputs: worker.ts moves large typed arrays (transfer list); other values are deserialised
 * here on receipt.
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
  /** Stops watching the job's signal (fair-queue.ts watchWaiting). */
  unwatch?: () => void;
  readonly id: number;
  readonly owner: string;
  readonly kind: string;
  /** The caller's input, then (once its large bytes are in shared memory) what is posted. */
  input: unknown;
  /** Its large bytes are being copied into shared memory: not queued yet. */
  preparing?: boolean;
  /** Resolved or rejected. */
  settled?: boolean;
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

/** A Uint8Array of an input this large or larger goes to the workers in shared memory, copied once (module comment). */
export const SHARED_MIN_BYTES = 64 * 1024;
/** How deep in an input such bytes are looked for (1: the input's own fields), as queue-pool.ts. */
const SHARED_DEPTH = 2;
/** The copy into shared memory is made in slices of this many bytes, one event-loop turn each. */
const COPY_SLICE_BYTES = 8 * 1024 * 1024;

/** What the pool did with large inputs. */
export interface PoolStats {
  /** Uint8Arrays copied into shared memory, and their bytes. */
  sharedCopies: number;
  sharedBytes: number;
}

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
  /** Owner `owner` (a task) will run no more jobs: what the pool keeps for it may go (its shared inputs: the copies in shared memory here, the Redis keys of queue-pool.ts). */
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
  /** Each large Uint8Array of an input (by identity) → its copy in shared memory (module comment). */
  private readonly sharedCopies = new WeakMap<Uint8Array, Promise<Uint8Array>>();
  /** The Uint8Arrays of each owner's (task's) inputs that were copied: forgotten at `release`. */
  private readonly ownerBytes = new Map<string, Set<Uint8Array>>();
  readonly stats: PoolStats = { sharedCopies: 0, sharedBytes: 0 };

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
    if (job.preparing || this.waiting.remove(job)) {
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
        resolve: (out) => ((job.settled = true), clearTimeout(job.timer), job.unwatch?.(), resolve(out as JobOutput<J, K>)),
        reject: (err) => ((job.settled = true), clearTimeout(job.timer), job.unwatch?.(), reject(err)),
      };
      if (!watchWaiting(job, kind, options, (err) => this.stop(job, err))) return;
      const large = largeBytes(input, 0, []);
      if (large.length === 0) {
        this.waiting.push(job);
        this.dispatch();
        return;
      }
      if (job.owner !== "") {
        let set = this.ownerBytes.get(job.owner);
        if (!set) this.ownerBytes.set(job.owner, (set = new Set()));
        for (const b of large) set.add(b);
      }
      job.preparing = true;
      this.shareBytes(input, 0).then(
        (posted) => {
          job.preparing = false;
          if (job.settled) return; // cancelled or out of wait time meanwhile
          if (this.closed) return job.reject(new Cancelled("server is shutting down"));
          job.input = posted;
          this.waiting.push(job);
          this.dispatch();
        },
        (err: unknown) => ((job.preparing = false), job.reject(err)),
      );
    });
  }

  /** `value` with each large Uint8Array (largeBytes) replaced by its copy in shared memory; plain objects and arrays copied shallowly on the way. */
  private async shareBytes(value: unknown, depth: number): Promise<unknown> {
    if (isLargeBytes(value)) return this.sharedCopy(value);
    if (depth >= SHARED_DEPTH || largeBytes(value, depth, []).length === 0) return value;
    if (Array.isArray(value)) return Promise.all(value.map((v) => this.shareBytes(v, depth + 1)));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as object)) out[k] = await this.shareBytes(v, depth + 1);
    return out;
  }

  /**
   * The copy of `bytes` in shared memory: made once (in slices, one event-loop turn each), then
   * the same for every job, until the Uint8Array is collected or every task that used it was
   * released (jobs of no task: until it is collected).
   */
  private sharedCopy(bytes: Uint8Array): Promise<Uint8Array> {
    let copy = this.sharedCopies.get(bytes);
    if (!copy) {
      copy = (async () => {
        const out = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
        for (let at = 0; at < bytes.byteLength; at += COPY_SLICE_BYTES) {
          if (at > 0) await new Promise((r) => setImmediate(r));
          out.set(bytes.subarray(at, at + COPY_SLICE_BYTES), at);
        }
        this.stats.sharedCopies++;
        this.stats.sharedBytes += bytes.byteLength;
        return out;
      })();
      this.sharedCopies.set(bytes, copy);
      // a failed copy (no memory for it) fails its jobs; a later job tries again
      copy.catch(() => this.sharedCopies.get(bytes) === copy && this.sharedCopies.delete(bytes));
    }
    return copy;
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

  /** Task `owner` runs no more jobs: the shared copies of its bytes are forgotten unless another task still uses them. */
  release(owner: string): void {
    const set = this.ownerBytes.get(owner);
    if (!set) return;
    this.ownerBytes.delete(owner);
    const inUse = new Set<Uint8Array>();
    for (const other of this.ownerBytes.values()) for (const b of other) inUse.add(b);
    for (const b of set) if (!inUse.has(b)) this.sharedCopies.delete(b);
  }

  /** Jobs waiting for a worker (not those whose bytes are still being copied). */
  get queued(): number {
    return this.waiting.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiting.rejectAll(new Cancelled("server is shutting down"));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}

/** A Uint8Array of SHARED_MIN_BYTES or more not on shared memory already. */
function isLargeBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array && value.byteLength >= SHARED_MIN_BYTES && !(value.buffer instanceof SharedArrayBuffer);
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The large Uint8Arrays (isLargeBytes) `value` is or holds in a field of it or of a plain object or array in it, SHARED_DEPTH levels down, added to `out`. */
function largeBytes(value: unknown, depth: number, out: Uint8Array[]): Uint8Array[] {
  if (isLargeBytes(value)) out.push(value);
  else if (depth < SHARED_DEPTH && value !== null && typeof value === "object" && (Array.isArray(value) || isPlainObject(value))) {
    for (const v of Object.values(value)) largeBytes(v, depth + 1, out);
  }
  return out;
}
