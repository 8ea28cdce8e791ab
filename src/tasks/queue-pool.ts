/**
 * Task jobs on a Redis queue (BullMQ), run by `qsargraph worker` processes on this or other
 * machines (queue-worker.ts), with the same `run` as pool.ts `WorkerPool`: progress, cancel,
 * time budgets and per-task fairness behave as in-process.
 *
 * Fairness stays here: jobs wait in one FIFO per owner (a task), served round-robin as pool.ts
 * does, and at most `slots` of them are on Redis at a time (by default the workers' total
 * threads), so that a large task does not fill the queue ahead of a small one.
 *
 * Payloads: a job's input and output are structured-clone data (typed arrays, Maps, Dates), so
 * they travel as `v8.serialize` bytes, each in a Redis key of its own (`<prefix>:in:<id>`,
 * `<prefix>:out:<id>`); the BullMQ job itself holds only `{kind, timeoutMs}`. The input stays
 * until the job has ended, so that a retry finds it; both keys are deleted once the result is read.
 *
 * Large inputs go to Redis once per task, not once per job (an upload's bytes go to every job
 * that parses a part of them; a stored feature dataset to every fold of a cross-validation): a
 * value of the input (a field of it, or of a plain object in it, SHARED_DEPTH levels down) is
 * stored in a key of its own, `<prefix>:shared:<n>`, and the job's input names it (Envelope) when
 * it is a Uint8Array of SHARED_MIN_BYTES or more — stored as it is, never through v8.serialize on
 * this thread, and in slices of WRITE_SLICE_BYTES — or a value that an earlier job of the same
 * task carried already (by identity) and whose serialisation is that large (jobs without an owner
 * share nothing). Workers keep the shared values they read (queue-worker.ts SharedCache), so a
 * worker reads each once per task unless it lost it. The task's shared keys are deleted when the
 * task ends (`release`, called by runner.ts) and expire after SHARED_TTL_S.
 *
 * Events come back through BullMQ's QueueEvents stream: `active` (onStart), `progress`
 * (onProgress), `completed` and `failed`. A cancel (the signal) removes a job still waiting;
 * a running one is told to stop on the `<prefix>:cancel` channel (and by a `<prefix>:cancel:<id>`
 * key, for a worker that takes the job just after the message), and its worker terminates the
 * thread that runs it, as pool.ts does. A worker that dies mid-job leaves the job's lock to
 * expire: BullMQ's stalled-job check of another worker puts it back on the queue once
 * (`maxStalledCount: 1`, queue-worker.ts); a second stall fails it, and the task with an error
 * that names the job kind.
 *
 * Events can be lost (the event connection dropped while a job ended, Redis restarted): every
 * `reconcileMs` the state of each job on Redis is read (`reconcile`) and a job found completed
 * (its output key written: completed jobs are removed from the queue), failed (failed jobs stay
 * an hour for this, and are removed once read), or running without its start or last progress
 * seen is handled as its event would have been; a job that is neither on the queue nor done, at
 * two polls in a row, fails its task ("no longer on the queue").
 *
 * Jobs of an earlier API process are removed when this one starts (their tasks are marked
 * "interrupted by restart" anyway, runner.ts `recover`).
 */
import { randomBytes } from "node:crypto";
import { deserialize, serialize } from "node:v8";
import { Queue, QueueEvents, type ConnectionOptions } from "bullmq";
import { Redis } from "ioredis";
import { Cancelled, fromReport, InternalError, ServiceUnavailable, type ErrorReport } from "../errors.ts";
import { FairQueue, watchWaiting } from "./fair-queue.ts";
import type { JobInput, JobKind, JobMap, JobOutput } from "./job.ts";
import type { JobPool, RunOptions } from "./pool.ts";

/** The BullMQ queue's name (and the prefix of the payload keys): one queue per Redis database. */
export const QUEUE_NAME = "qsargraph-jobs";
/** What a failed job's reason starts with when it carries the job's ErrorReport (queue-worker.ts). */
export const REPORT_MARK = "qsargraph-report:";

/** The keys and channel both sides use. */
export const keys = {
  input: (id: string) => `${QUEUE_NAME}:in:${id}`,
  output: (id: string) => `${QUEUE_NAME}:out:${id}`,
  cancelFlag: (id: string) => `${QUEUE_NAME}:cancel:${id}`,
  cancelChannel: `${QUEUE_NAME}:cancel`,
  shared: (id: string) => `${QUEUE_NAME}:shared:${id}`,
} as const;

/** A value of this many bytes or more goes to Redis once per task (see above). */
export const SHARED_MIN_BYTES = 64 * 1024;
/** A shared value is written in commands of at most this many bytes (SET, then APPEND). */
export const WRITE_SLICE_BYTES = 4 * 1024 * 1024;
/** How deep in the input shared values are looked for (1: the input's own fields). */
export const SHARED_DEPTH = 3;
/** A shared value's key expires after this long (seconds), if its task's end did not delete it. */
export const SHARED_TTL_S = 24 * 3600;

/** A value of the input stored in `keys.shared(id)`, to be put back at `path`; `raw`: the bytes are a Uint8Array as stored, else v8.serialize bytes. */
export interface SharedRef {
  readonly path: readonly string[];
  readonly id: string;
  readonly raw: boolean;
}

/** What `keys.input(id)` holds (v8.serialize): the input without its shared values, and where they go. */
export interface Envelope {
  readonly input: unknown;
  readonly shared: readonly SharedRef[];
}

/** The shared values of one task (owner). */
interface OwnerShared {
  /** By identity: the value's key (once stored), or null for a repeated value too small to share. */
  readonly refs: Map<object, Promise<{ id: string; raw: boolean } | null>>;
  /** Values seen once (a second job with the same value shares it). */
  readonly seen: WeakSet<object>;
  readonly ids: Set<string>;
}

/** What this process put on Redis (for tests and benches). */
export interface QueueStats {
  /** Shared values stored, and their bytes. */
  sharedStored: number;
  sharedBytes: number;
  /** The largest v8.serialize output this process made for an input (envelope or shared value). */
  largestSerialized: number;
  /** Bytes of all input envelopes. */
  envelopeBytes: number;
}

/** What the BullMQ job carries (the input is in `keys.input(id)`). */
export interface QueuedJob {
  readonly kind: string;
  readonly timeoutMs?: number;
}

interface Pending {
  timer?: NodeJS.Timeout;
  /** Stops watching the job's signal (fair-queue.ts watchWaiting). */
  unwatch?: () => void;
  /** Set once the job is on Redis. */
  id?: string;
  /** The job was added to the BullMQ queue; its start was seen; its last progress; polls that found it nowhere. */
  added?: boolean;
  started?: boolean;
  progress?: number;
  missing?: number;
  readonly owner: string;
  readonly kind: string;
  readonly input: unknown;
  readonly options: RunOptions;
  readonly resolve: (out: unknown) => void;
  readonly reject: (err: unknown) => void;
}

export interface QueuePoolOptions {
  /** Jobs on Redis at a time (the rest wait here, per task). */
  readonly slots: number;
  /** How often the states of the jobs on Redis are read, for events that were lost (ms; default RECONCILE_MS). */
  readonly reconcileMs?: number;
}

/** See QueuePoolOptions.reconcileMs. */
export const RECONCILE_MS = 3_000;
/** A failed job stays on the queue this long (s), so that a poll can read its reason if its event was lost. */
const KEEP_FAILED_S = 3600;

/**
 * BullMQ's connection options for `url`: given as options (not a client), its Queue, QueueEvents
 * and Worker make their own connections and close them with themselves.
 * `maxRetriesPerRequest: null`: BullMQ's blocking commands must wait across reconnects.
 */
export function redisOptions(url: string): ConnectionOptions {
  return { url, maxRetriesPerRequest: null };
}

/** A client of its own (payload keys, cancel messages). */
export function redisConnection(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null });
}

export class QueuePool<J extends JobMap = JobMap> implements JobPool<J> {
  private readonly waiting = new FairQueue<Pending>();
  /** Jobs on Redis, by job id. */
  private readonly onRedis = new Map<string, Pending>();
  /** Job ids of this process: `<run>-<n>`. */
  private readonly run_ = randomBytes(6).toString("hex");
  private nextId = 1;
  private nextShared = 1;
  private closed = false;
  private readonly shared = new Map<string, OwnerShared>();
  readonly stats: QueueStats = { sharedStored: 0, sharedBytes: 0, largestSerialized: 0, envelopeBytes: 0 };

  private constructor(
    private readonly redis: Redis,
    private readonly queue: Queue,
    private readonly events: QueueEvents,
    private readonly options: QueuePoolOptions,
  ) {
    events.on("active", ({ jobId }) => {
      const job = this.onRedis.get(jobId);
      if (job) this.started(job, true);
    });
    events.on("progress", ({ jobId, data }) => {
      const job = this.onRedis.get(jobId);
      if (job && typeof data === "number") this.progressed(job, data);
    });
    events.on("completed", ({ jobId }) => void this.finished(jobId, undefined));
    events.on("failed", ({ jobId, failedReason }) => void this.finished(jobId, failedReason ?? "failed"));
    this.poll = setInterval(() => void this.reconcile(), options.reconcileMs ?? RECONCILE_MS);
    this.poll.unref();
  }

  private readonly poll: NodeJS.Timeout;
  private reconciling = false;

  /** A worker took the job: its `active` event (again, for a job given back or retried), or a poll that found it running and no event had said so. */
  private started(job: Pending, event = false): void {
    if (job.started && !event) return;
    job.started = true;
    clearTimeout(job.timer);
    const budget = job.options.timeoutMs;
    // The worker enforces the budget (it terminates the thread); this one is the backstop for a lost worker.
    if (budget !== undefined) job.timer = setTimeout(() => this.stop(job, new ServiceUnavailable(`the job (${job.kind}) did not finish within its time budget of ${budget} ms; it was stopped`)), budget + 5_000);
    job.options.onStart?.();
  }

  private progressed(job: Pending, fraction: number): void {
    if (job.progress === fraction) return;
    job.progress = fraction;
    job.options.onProgress?.(fraction);
  }

  /** Each job on Redis as its state says, for the events that did not arrive (see above). */
  async reconcile(): Promise<void> {
    if (this.reconciling || this.closed) return;
    this.reconciling = true;
    try {
      for (const [id, job] of [...this.onRedis]) {
        if (!job.added || this.onRedis.get(id) !== job) continue;
        const state = await this.queue.getJobState(id);
        if (this.onRedis.get(id) !== job) continue; // its event came meanwhile
        if (state === "completed" || (state === "unknown" && (await this.redis.exists(keys.output(id))))) {
          void this.finished(id, undefined);
        } else if (state === "failed") {
          const failed = await this.queue.getJob(id);
          void this.finished(id, failed?.failedReason || "failed");
        } else if (state === "unknown") {
          job.missing = (job.missing ?? 0) + 1;
          if (job.missing >= 2) this.stop(job, new InternalError(`the job (${job.kind}) is no longer on the queue (was Redis restarted or emptied?); the task was stopped`));
        } else if (state === "waiting") {
          job.started = false; // given back, or retried after its worker died: its next start is news
        } else if (state === "active") {
          this.started(job);
          const progress = (await this.queue.getJob(id))?.progress;
          if (typeof progress === "number" && this.onRedis.get(id) === job) this.progressed(job, progress);
        }
      }
    } catch (err) {
      console.error(`queue: could not read the jobs' states: ${(err as Error).message}`);
    } finally {
      this.reconciling = false;
    }
  }

  /**
   * Connect to the queue at `url` (`redis://…`), remove the jobs an earlier API process left, and
   * start listening for job events before any job is added (the event stream is read from "now").
   */
  static async open<J extends JobMap>(url: string, options: QueuePoolOptions): Promise<QueuePool<J>> {
    const redis = redisConnection(url);
    const queue = new Queue(QUEUE_NAME, { connection: redisOptions(url) });
    const events = new QueueEvents(QUEUE_NAME, { connection: redisOptions(url) });
    try {
      await queue.waitUntilReady();
      await events.waitUntilReady();
      const left = await queue.getJobCountByTypes("waiting", "active", "delayed", "prioritized");
      await queue.obliterate({ force: true });
      await queue.resume();
      const stale = await scanKeys(redis, `${QUEUE_NAME}:*`);
      if (stale.length) await redis.del(...stale);
      if (left) console.log(`queue: removed ${left} jobs of an earlier run from ${QUEUE_NAME}`);
    } catch (err) {
      await Promise.allSettled([events.close(), queue.close(), redis.quit()]);
      throw new Error(`the job queue at ${redactUrl(url)} is not usable: ${(err as Error).message}`);
    }
    return new QueuePool<J>(redis, queue, events, options);
  }

  run<K extends JobKind<J>>(kind: K, input: JobInput<J, K>, options: RunOptions = {}): Promise<JobOutput<J, K>> {
    if (this.closed) return Promise.reject(new InternalError("job queue is closed"));
    return new Promise<JobOutput<J, K>>((resolve, reject) => {
      const job: Pending = {
        owner: options.owner ?? "",
        kind,
        input,
        options,
        resolve: (out) => (clearTimeout(job.timer), job.unwatch?.(), resolve(out as JobOutput<J, K>)),
        reject: (err) => (clearTimeout(job.timer), job.unwatch?.(), reject(err)),
      };
      if (!watchWaiting(job, kind, options, (err) => this.stop(job, err))) return;
      this.waiting.push(job);
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (!this.closed && this.onRedis.size < this.options.slots) {
      const job = this.waiting.next();
      if (!job) return;
      const id = `${this.run_}-${this.nextId++}`;
      job.id = id;
      this.onRedis.set(id, job);
      this.submit(job, id).catch((err: unknown) => {
        if (this.onRedis.get(id) !== job) return;
        this.onRedis.delete(id);
        job.reject(new InternalError(`the job (${job.kind}) could not be put on the queue: ${(err as Error).message}`));
        this.dispatch();
      });
    }
  }

  private async submit(job: Pending, id: string): Promise<void> {
    const envelope = await this.envelope(job);
    const bytes = this.serialize(envelope);
    this.stats.envelopeBytes += bytes.length;
    await this.redis.set(keys.input(id), bytes);
    // Cancelled while the input was written: nothing is on the queue yet.
    if (this.onRedis.get(id) !== job) {
      await this.redis.del(keys.input(id));
      return;
    }
    const data: QueuedJob = { kind: job.kind, ...(job.options.timeoutMs !== undefined ? { timeoutMs: job.options.timeoutMs } : {}) };
    await this.queue.add(job.kind, data, { jobId: id, attempts: 1, removeOnComplete: true, removeOnFail: { age: KEEP_FAILED_S } });
    job.added = true;
  }

  /** The job's input as an Envelope: its shared values stored (once per task) and named. */
  private async envelope(job: Pending): Promise<Envelope> {
    // a job of no task: nothing ends it, so nothing of it is kept
    if (job.owner === "") return { input: job.input, shared: [] };
    let owner = this.shared.get(job.owner);
    if (!owner) this.shared.set(job.owner, (owner = { refs: new Map(), seen: new WeakSet(), ids: new Set() }));
    const state = owner;
    const shared: SharedRef[] = [];
    const walk = async (value: unknown, path: string[]): Promise<unknown> => {
      if (value === null || typeof value !== "object") return value;
      if (path.length > 0) {
        const ref = await this.share(state, value);
        if (ref) {
          shared.push({ path, ...ref });
          return null;
        }
      }
      if (path.length < SHARED_DEPTH && isPlainObject(value)) {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(value)) out[k] = await walk(v, [...path, k]);
        return out;
      }
      return value;
    };
    const input = await walk(job.input, []);
    return { input, shared };
  }

  /** `value`'s shared key, stored now if it is to be shared and is not yet; undefined: it goes inline. */
  private async share(state: OwnerShared, value: object): Promise<{ id: string; raw: boolean } | undefined> {
    const known = state.refs.get(value);
    if (known) return (await known) ?? undefined;
    const raw = value instanceof Uint8Array && value.byteLength >= SHARED_MIN_BYTES;
    if (!raw && !state.seen.has(value)) {
      state.seen.add(value);
      return undefined;
    }
    const stored = (async () => {
      const bytes = raw ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : this.serialize(value);
      if (bytes.length < SHARED_MIN_BYTES) return null;
      const id = `${this.run_}-${this.nextShared++}`;
      state.ids.add(id);
      // in slices: one command copies its arguments into one buffer, on this thread
      await this.redis.set(keys.shared(id), bytes.subarray(0, WRITE_SLICE_BYTES), "EX", SHARED_TTL_S);
      for (let at = WRITE_SLICE_BYTES; at < bytes.length; at += WRITE_SLICE_BYTES) await this.redis.append(keys.shared(id), bytes.subarray(at, at + WRITE_SLICE_BYTES));
      this.stats.sharedStored++;
      this.stats.sharedBytes += bytes.length;
      return { id, raw };
    })();
    state.refs.set(value, stored);
    return (await stored) ?? undefined;
  }

  private serialize(value: unknown): Buffer {
    const bytes = serialize(value);
    if (bytes.length > this.stats.largestSerialized) this.stats.largestSerialized = bytes.length;
    return bytes;
  }

  /** Task `owner` has ended: its shared values are deleted from Redis. */
  release(owner: string): void {
    const state = this.shared.get(owner);
    if (!state) return;
    this.shared.delete(owner);
    if (state.ids.size) void this.redis.del(...[...state.ids].map(keys.shared)).catch(() => undefined);
  }

  /** A job ended on Redis: read its output (or error) and free its keys. */
  private async finished(id: string, failedReason: string | undefined): Promise<void> {
    // another process's job (tests run two on one queue): its keys are its own
    if (!id.startsWith(`${this.run_}-`)) return;
    const job = this.onRedis.get(id);
    try {
      if (!job) return;
      this.onRedis.delete(id);
      if (failedReason === undefined) {
        const bytes = await this.redis.getBuffer(keys.output(id));
        if (!bytes) job.reject(new InternalError(`the result of the job (${job.kind}) is missing from the queue`));
        else job.resolve(deserialize(bytes));
      } else job.reject(failure(job.kind, failedReason));
    } catch (err) {
      job?.reject(new InternalError(`the result of the job (${job.kind}) could not be read: ${(err as Error).message}`));
    } finally {
      // a failed job stays on the queue for a poll (KEEP_FAILED_S): read now
      if (failedReason !== undefined) await this.queue.remove(id).catch(() => 0);
      await this.redis.del(keys.input(id), keys.output(id), keys.cancelFlag(id)).catch(() => undefined);
      this.dispatch();
    }
  }

  /** Take a job out: from its local queue, or off Redis (removed while waiting, else its worker told to stop). */
  private stop(job: Pending, err: unknown): void {
    if (this.waiting.remove(job)) {
      job.reject(err);
      return;
    }
    const id = job.id;
    if (id === undefined || this.onRedis.get(id) !== job) return;
    this.onRedis.delete(id);
    job.reject(err);
    this.dispatch();
    void this.cancelRemote(id);
  }

  private async cancelRemote(id: string): Promise<void> {
    try {
      // The flag first: a worker that takes the job after this finds it before it starts.
      await this.redis.set(keys.cancelFlag(id), "1", "EX", 3600);
      const removed = await this.queue.remove(id).catch(() => 0);
      if (!removed) await this.redis.publish(keys.cancelChannel, id);
      if (removed) await this.redis.del(keys.input(id), keys.cancelFlag(id));
    } catch (err) {
      console.error(`queue: could not cancel job ${id}: ${(err as Error).message}`);
    }
  }

  /** Jobs waiting here for a place on Redis. */
  get queued(): number {
    return this.waiting.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poll);
    this.waiting.rejectAll(new Cancelled("server is shutting down"));
    const ids = [...this.onRedis.keys()];
    for (const job of this.onRedis.values()) job.reject(new Cancelled("server is shutting down"));
    this.onRedis.clear();
    await Promise.allSettled(ids.map((id) => this.cancelRemote(id)));
    const shared = [...this.shared.values()].flatMap((s) => [...s.ids].map(keys.shared));
    this.shared.clear();
    if (shared.length) await this.redis.del(...shared).catch(() => undefined);
    await Promise.allSettled([this.events.close(), this.queue.close()]);
    await this.redis.quit().catch(() => undefined);
  }
}

/** The error of a failed job: its own report (queue-worker.ts), or the queue's reason. */
function failure(kind: string, reason: string): Error {
  if (reason.startsWith(REPORT_MARK)) {
    try {
      return fromReport(JSON.parse(reason.slice(REPORT_MARK.length)) as ErrorReport);
    } catch {
      // fall through: not a report after all
    }
  }
  if (/stalled/i.test(reason)) return new InternalError(`a worker process stopped while running the job (${kind}), twice; the task was stopped`);
  return new InternalError(`the job (${kind}) failed on the queue: ${reason}`);
}

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

async function scanKeys(redis: Redis, pattern: string): Promise<string[]> {
  const out: string[] = [];
  let cursor = "0";
  do {
    const [next, found] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    cursor = next;
    out.push(...found);
  } while (cursor !== "0");
  return out;
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
}
