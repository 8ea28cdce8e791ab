/**
 * The worker side of queue-pool.ts: a process (`qsargraph worker`) that takes jobs off the Redis
 * queue and runs them on a local `WorkerPool` (worker threads, as the API process does), as many
 * at a time as the pool has threads. It is only a bridge: the input is read from its Redis key
 * and deserialized, progress goes to `job.updateProgress`, the output is serialized into its own
 * key, and an error goes back as the job's failure reason (its ErrorReport, so that the API
 * process raises the same error as in-process).
 *
 * Shared values of an input (queue-pool.ts Envelope: stored once per task) are read from their
 * keys and kept in a SharedCache of SHARED_CACHE_BYTES, the most recently used first: the next
 * job of the same task finds them there; a worker that lost them (restarted, or they were pushed
 * out) reads them again.
 *
 * A cancel (the `<prefix>:cancel` channel, or the flag key set before it) aborts the local run,
 * which terminates the thread (pool.ts), and the job fails as cancelled. `close()` (SIGTERM)
 * takes no more jobs and lets the running ones finish for `graceMs`; jobs still running then
 * are stopped and given back to the queue (moved to waiting), to run on another worker.
 *
 * A worker killed outright (SIGKILL, a lost machine) stops renewing its jobs' locks; after
 * LOCK_MS another worker's stalled-job check puts them back on the queue, once
 * (`maxStalledCount: 1`); a second stall fails the job.
 */
import { hostname } from "node:os";
import { deserialize, serialize } from "node:v8";
import { Worker as QueueWorker, WaitingError, type Job } from "bullmq";
import { toReport, toServiceError } from "../errors.ts";
import type { JobKind, JobMap } from "./job.ts";
import type { WorkerPool } from "./pool.ts";
import { type Envelope, keys, QUEUE_NAME, type QueuedJob, redactUrl, redisConnection, redisOptions, REPORT_MARK, type SharedRef } from "./queue-pool.ts";

/** A job's lock lasts this long unless its worker renews it (every half of it): how soon a dead worker's job is retried. */
export const LOCK_MS = 10_000;
/** How often a worker looks for jobs whose lock has expired. */
export const STALLED_CHECK_MS = 5_000;

/** The bytes of shared values a worker keeps (the last one read is kept whatever its size). */
export const SHARED_CACHE_BYTES = 512 * 1024 * 1024;

/** Shared input values by id, least recently used first; `reads` counts the values read from Redis. */
export class SharedCache {
  private readonly entries = new Map<string, { value: unknown; bytes: number }>();
  private bytes = 0;
  reads = 0;

  constructor(private readonly maxBytes = SHARED_CACHE_BYTES) {}

  async get(ref: SharedRef, read: (id: string) => Promise<Buffer | null>): Promise<unknown> {
    const hit = this.entries.get(ref.id);
    if (hit) {
      this.entries.delete(ref.id);
      this.entries.set(ref.id, hit);
      return hit.value;
    }
    const bytes = await read(ref.id);
    if (!bytes) throw new Error(`a shared input of the job (${ref.path.join(".")}) is missing from the queue: its task has ended, or it expired`);
    this.reads++;
    // a view of the whole of its buffer (a thread that is given a view is sent all of its buffer)
    const value = ref.raw ? (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes)) : deserialize(bytes);
    this.entries.set(ref.id, { value, bytes: bytes.byteLength });
    this.bytes += bytes.byteLength;
    for (const [id, e] of this.entries) {
      if (this.bytes <= this.maxBytes || id === ref.id) break;
      this.entries.delete(id);
      this.bytes -= e.bytes;
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}

export interface QueueWorkerOptions {
  /** After close(), how long running jobs may go on before they are given back (ms). */
  readonly graceMs?: number;
  /** One line per job (default console.log). */
  readonly log?: (line: string) => void;
}

interface Running {
  readonly ac: AbortController;
  giveBack: boolean;
}

export class JobQueueWorker<J extends JobMap> {
  private readonly running = new Map<string, Running>();
  private closing = false;
  /** The shared input values this worker holds. */
  readonly cache = new SharedCache();

  private constructor(
    private readonly worker: QueueWorker<QueuedJob>,
    private readonly redis: ReturnType<typeof redisConnection>,
    private readonly sub: ReturnType<typeof redisConnection>,
    private readonly options: QueueWorkerOptions,
  ) {}

  /** Connect to the queue at `url` and start taking jobs for `pool` (concurrency: `pool.size`). */
  static async start<J extends JobMap>(url: string, pool: WorkerPool<J>, options: QueueWorkerOptions = {}): Promise<JobQueueWorker<J>> {
    const redis = redisConnection(url);
    const sub = redisConnection(url);
    const log = options.log ?? ((s: string) => console.log(s));
    let self: JobQueueWorker<J> | undefined;
    const worker = new QueueWorker<QueuedJob>(QUEUE_NAME, (job, token) => self!.process(job, token, pool, log), {
      connection: redisOptions(url),
      concurrency: pool.size,
      lockDuration: LOCK_MS,
      stalledInterval: STALLED_CHECK_MS,
      maxStalledCount: 1,
      autorun: false,
      name: `${hostname()}:${process.pid}`,
    });
    self = new JobQueueWorker<J>(worker, redis, sub, options);
    worker.on("error", (err) => console.error(`queue worker: ${err.message}`));
    try {
      await worker.waitUntilReady();
      await sub.subscribe(keys.cancelChannel);
    } catch (err) {
      await Promise.allSettled([worker.close(true), redis.quit(), sub.quit()]);
      throw new Error(`the job queue at ${redactUrl(url)} is not usable: ${(err as Error).message}`);
    }
    sub.on("message", (_channel: string, id: string) => self!.running.get(id)?.ac.abort());
    void worker.run();
    return self;
  }

  private async process(job: Job<QueuedJob>, token: string | undefined, pool: WorkerPool<J>, log: (s: string) => void): Promise<string> {
    const id = job.id!;
    const { kind, timeoutMs } = job.data;
    const t0 = performance.now();
    const r: Running = { ac: new AbortController(), giveBack: false };
    this.running.set(id, r);
    let outcome = "failed";
    log(`job ${id} ${kind}: started`);
    try {
      if (await this.redis.exists(keys.cancelFlag(id))) r.ac.abort();
      const bytes = await this.redis.getBuffer(keys.input(id));
      if (!bytes) throw new Error(`the input of job ${id} (${kind}) is missing from the queue`);
      const input = await this.input(deserialize(bytes) as Envelope);
      let lastProgress = Promise.resolve();
      const output = await pool.run(kind as JobKind<J>, input as never, {
        signal: r.ac.signal,
        onProgress: (f) => {
          lastProgress = job.updateProgress(f).catch(() => undefined);
        },
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      });
      await lastProgress;
      await this.redis.set(keys.output(id), serialize(output), "EX", 24 * 3600);
      outcome = "done";
      return "ok";
    } catch (err) {
      if (r.giveBack && token) {
        await job.moveToWait(token);
        outcome = "given back";
        throw new WaitingError();
      }
      if (r.ac.signal.aborted) outcome = "cancelled";
      throw new Error(REPORT_MARK + JSON.stringify(toReport(toServiceError(err))));
    } finally {
      this.running.delete(id);
      log(`job ${id} ${kind}: ${outcome} in ${Math.round(performance.now() - t0)} ms`);
    }
  }

  /** The job's input: the envelope's, with its shared values put back. */
  private async input(envelope: Envelope): Promise<unknown> {
    for (const ref of envelope.shared) {
      const value = await this.cache.get(ref, (id) => this.redis.getBuffer(keys.shared(id)));
      let at = envelope.input as Record<string, unknown>;
      for (const k of ref.path.slice(0, -1)) at = at[k] as Record<string, unknown>;
      at[ref.path[ref.path.length - 1]!] = value;
    }
    return envelope.input;
  }

  /** Jobs running now. */
  get busy(): number {
    return this.running.size;
  }

  /** Take no more jobs; let the running ones finish for `graceMs` (default: the option's, else 30 s), then give them back. */
  async close(graceMs?: number): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const grace = graceMs ?? this.options.graceMs ?? 30_000;
    const closed = this.worker.close();
    const timer = setTimeout(() => {
      for (const r of this.running.values()) {
        r.giveBack = true;
        r.ac.abort();
      }
    }, grace);
    await closed;
    clearTimeout(timer);
    await Promise.allSettled([this.redis.quit(), this.sub.quit()]);
  }
}
