/**
 * The SPARQL read replicas (SPARQL 1.1 Protocol, query only; queries, like any computation, run off
 * the main thread): a small pool of worker threads (replica-worker.ts), each holding its own
 * Oxigraph copy of the graphs, because Oxigraph's `query()` runs synchronously: a large query would
 * block the event loop, and it can only be stopped by terminating its thread.
 *
 * - Consistency: the replica subscribes to `GraphStore.onRecord`, which fires right after a
 *   commit's record is appended to the journal, and posts where it lies (file, offset, length) to
 *   every worker, in order; each reads it from the journal (no copy through the main thread). A
 *   worker handles its messages in order, so a query sent after a commit resolved sees it,
 *   whichever worker runs it. A worker started later loads the data directory, which holds the
 *   record already (records posted to it while it loads are skipped when it read them from disk).
 * - Fairness: a query runs on the first free worker, FIFO; one worker runs one query at a time.
 *   A query that cannot start within the time limit (every worker busy or reloading) fails with
 *   503 `ServiceUnavailable`; at most MAX_QUEUED wait (more → 503 at once). A running query has
 *   the time limit too, counted from the moment its worker starts it: then the worker is
 *   terminated, the query fails with 503 `QueryTimeout`, and a new worker reloads the data
 *   directory in the background while the others serve. So no query waits for another longer
 *   than the time limit.
 * - Cancellation: `query()` takes an AbortSignal (the HTTP route aborts it when the client
 *   disconnects); the query fails with `Cancelled` at once. A waiting query is dropped from the
 *   queue and never runs. A running one has its worker terminated and replaced, as at the time
 *   limit, unless it ends within CANCEL_GRACE_MS: a replacement costs a reload of the data, which
 *   a query about to end (a quick one whose client just went away) should not cost.
 * - Renewal: when the writer's store renews its memory (GraphStore `onRenew`), every worker is
 *   replaced so that its copy sheds the replaced and deleted data too — one at a time, each when
 *   it is idle and (with more than one worker) another worker is ready, so queries go on.
 * - A worker that crashes, or reports a seq gap, is replaced the same way; a query it was running
 *   when it crashed fails with 500 (it is not retried: it may be what crashed it), one that was
 *   waiting behind a gap is re-run. A worker that cannot load the data is retried with a growing
 *   delay; when no worker is loaded or loading, the waiting queries fail with 503.
 */
import type { Worker } from "node:worker_threads";
import { Cancelled, fromReport, InternalError, QueryTimeout, ServiceUnavailable } from "../errors.ts";
import { moduleUrl, REQUEST_NICE, spawnWorker } from "../threads/spawn.ts";
import type { GraphStore, RecordLocation } from "./graph-store.ts";
import type { FromReplica, ReplicaWorkerData, ToReplica } from "./replica-worker.ts";
import type { QueryRequest } from "./sparql-exec.ts";
import type { SparqlEndpoint, SparqlEndpointFigures } from "./sparql-endpoint.ts";

const WORKER_URL = moduleUrl("./replica-worker.ts", import.meta.url);
export const MAX_QUEUED = 64;
/** How long a running query whose client went away may still end before its worker is terminated. */
export const CANCEL_GRACE_MS = 500;

export interface ReplicaOptions {
  /**
   * The data directory to load and follow; none: each worker holds an empty store, on which the
   * SPARQL proxy (sparql-proxy.ts) checks queries and writes an external store's results.
   */
  readonly dataDir?: string;
  /** Time limit of one query, in ms: to start (waiting for a worker) and to run. */
  readonly timeoutMs: number;
  /** Largest SELECT result (solutions) or CONSTRUCT/DESCRIBE result (triples). */
  readonly maxResults: number;
  /** Worker threads, each with its own copy of the data (default 1). */
  readonly workers?: number;
}

/** The protocol's dataset parameters (`default-graph-uri`, `named-graph-uri`). */
export interface QueryDataset {
  readonly defaultGraphs?: readonly string[];
  readonly namedGraphs?: readonly string[];
}

/** The dataset and what else a request asks of a query (sparql-exec.ts QueryRequest). */
export type QueryOptions = QueryDataset & Pick<QueryRequest, "prefixes" | "table" | "remote" | "remoteLexicalForms">;

/** A query's serialised result; the bytes were transferred from the worker, not copied. */
export interface ReplicaResult {
  readonly contentType: string;
  readonly body: Buffer;
}

/** What the replicas do now and have done since start (service description, tests): the endpoint's figures (sparql-endpoint.ts) and the replicas' own. */
export interface ReplicaFigures extends SparqlEndpointFigures {
  /** Workers loaded (idle or running a query). */
  readonly ready: number;
  /** Workers replaced to shed replaced and deleted data (store renewals). */
  readonly renewals: number;
}

interface Job {
  readonly id: number;
  readonly request: QueryRequest;
  readonly resolve: (r: ReplicaResult) => void;
  readonly reject: (e: unknown) => void;
  /** Pending while the job waits for a worker: the time limit to start. */
  waitTimer?: NodeJS.Timeout;
  /** The slot running it. */
  slot?: Slot;
  done: boolean;
  /** Removes the abort listener. */
  release?: () => void;
}

type SlotState = "loading" | "ready" | "retrying";

interface Slot {
  readonly index: number;
  worker: Worker | null;
  state: SlotState;
  job: Job | null;
  /** The running job's time limit. */
  timer?: NodeJS.Timeout;
  /** The running job's client went away: terminate the worker unless the job ends first. */
  graceTimer?: NodeJS.Timeout;
  retryTimer?: NodeJS.Timeout;
  loadFailures: number;
  /** Loaded before the writer's last renewal: to be replaced. */
  stale: boolean;
  /** Last commit seq the worker loaded from disk. */
  seq: number;
  /** A worker of this slot has loaded the data once. */
  loadedOnce: boolean;
  /** When the current worker was started (performance.now()); 0 before the first. */
  spawnedAt: number;
}

export class SparqlReplica implements SparqlEndpoint {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private closed = false;
  private nextId = 1;
  private startedCount = 0;
  private restarts = 0;
  private timeouts = 0;
  private cancelled = 0;
  private renewals = 0;
  /** The slot replaced for a renewal and still loading (renewals go one slot at a time). */
  private renewing: Slot | null = null;
  private starting: { resolve: () => void; reject: (e: Error) => void } | undefined;
  private readyPromise: Promise<void> = Promise.resolve();

  private constructor(private readonly opts: ReplicaOptions) {
    const n = opts.workers ?? 1;
    if (!Number.isInteger(n) || n < 1) throw new Error(`SPARQL workers must be a positive integer, got ${n}`);
    this.slots = Array.from({ length: n }, (_, index) => ({ index, worker: null, state: "loading", job: null, loadFailures: 0, stale: false, seq: 0, loadedOnce: false, spawnedAt: 0 }));
  }

  /**
   * Start the first worker now (it loads the data directory read-only, in parallel with whatever
   * the main thread does meanwhile, e.g. the writer's own recovery), and each further one when
   * the one before has loaded, so that start-up loads at most two copies at once (on two cores,
   * a third would slow the writer's recovery). `follow` must be called before the first commit.
   * Queries sent before a worker is loaded wait for one (within the time limit).
   */
  static create(opts: ReplicaOptions): SparqlReplica {
    const r = new SparqlReplica(opts);
    r.readyPromise = new Promise<void>((resolve, reject) => {
      r.starting = { resolve, reject };
    });
    r.readyPromise.catch(() => undefined);
    r.spawn(r.slots[0]!);
    return r;
  }

  /** Start the workers and follow `store`'s commits; resolves once every worker has loaded. */
  static async start(store: GraphStore, opts: ReplicaOptions): Promise<SparqlReplica> {
    const r = SparqlReplica.create(opts);
    r.follow(store);
    await r.loaded;
    return r;
  }

  /**
   * Forward every commit of `store` to the workers, and renew them when the store renews (near
   * its capacity, or when the service is idle and more of what was loaded is garbage than
   * current: graph-store.ts "Renewal"). Each copy keeps the memory of every triple it loaded
   * (Oxigraph frees nothing, and a WebAssembly memory never shrinks): 50 clients uploading and
   * deleting for 30 s grew each copy from 20 to 90 MB for 134k triples loaded, 51k of them still
   * current. A replaced worker's thread ends, and its memory with it.
   */
  follow(store: GraphStore): void {
    store.onRecord((seq, at) => this.forward(seq, at));
    store.onRenew(() => {
      console.error("SPARQL replicas reload the current data, as the store renewed");
      this.renew();
    });
  }

  /** Replace every loaded worker (each reloads only the current data), one at a time. */
  renew(): void {
    if (this.closed) return;
    // A worker loading now reads the current data already.
    for (const s of this.slots) if (s.state === "ready") s.stale = true;
    this.dispatch();
  }

  /** Resolves once every worker has loaded the data dir for the first time. */
  get loaded(): Promise<void> {
    return this.readyPromise;
  }

  get figures(): ReplicaFigures {
    const count = (p: (s: Slot) => boolean): number => this.slots.filter(p).length;
    return {
      kind: "replica",
      workers: this.slots.length,
      ready: count((s) => s.state === "ready"),
      busy: count((s) => s.job !== null),
      loading: count((s) => s.state !== "ready"),
      queued: this.queue.length,
      started: this.startedCount,
      restarts: this.restarts,
      timeouts: this.timeouts,
      cancelled: this.cancelled,
      renewals: this.renewals,
    };
  }

  /** How many times a worker was replaced because of a query (time limit, client gone, crash, gap). */
  get restartCount(): number {
    return this.restarts;
  }

  /** How many workers were replaced to shed replaced and deleted data. */
  get renewalCount(): number {
    return this.renewals;
  }

  /** Seq of the last commit the most recently loaded worker read from disk. */
  get loadedSeq(): number {
    return Math.max(...this.slots.map((s) => s.seq));
  }

  /**
   * Run one query; `format` is a media type of SOLUTION_FORMATS or GRAPH_FORMATS, or TABLE_FORMAT (the HTML page's rows). When `signal`
   * aborts (the client went away), the query is dropped or stopped and fails with `Cancelled`.
   */
  query(query: string, format: string, dataset: QueryOptions = {}, signal?: AbortSignal): Promise<ReplicaResult> {
    if (this.closed) return Promise.reject(new ServiceUnavailable("the SPARQL endpoint is shut down"));
    if (signal?.aborted) return Promise.reject(this.cancelledError());
    if (this.queue.length >= MAX_QUEUED) {
      return Promise.reject(new ServiceUnavailable(`too many SPARQL queries are waiting (${MAX_QUEUED}); try again later`));
    }
    return new Promise<ReplicaResult>((resolve, reject) => {
      const request: QueryRequest = { query, format, ...dataset };
      const job: Job = { id: this.nextId++, request, resolve, reject, done: false };
      if (signal) {
        const onAbort = (): void => this.cancel(job);
        signal.addEventListener("abort", onAbort, { once: true });
        job.release = () => signal.removeEventListener("abort", onAbort);
      }
      this.enqueue(job, false);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const err = new ServiceUnavailable("the SPARQL endpoint is shutting down");
    this.starting?.reject(err);
    this.starting = undefined;
    for (const job of this.queue.splice(0)) this.settle(job, err);
    const exits: Promise<number>[] = [];
    for (const s of this.slots) {
      clearTimeout(s.timer);
      clearTimeout(s.graceTimer);
      clearTimeout(s.retryTimer);
      if (s.job) this.settle(s.job, err);
      s.job = null;
      if (s.worker) exits.push(s.worker.terminate());
      s.worker = null;
    }
    await Promise.all(exits);
  }

  private cancelledError(): Cancelled {
    return new Cancelled("the client closed the connection; the query was stopped");
  }

  /** Settle a job once: clear its timers and abort listener, resolve or reject it. */
  private settle(job: Job, error: unknown, result?: ReplicaResult): void {
    if (job.done) return;
    job.done = true;
    clearTimeout(job.waitTimer);
    job.release?.();
    if (error === undefined) job.resolve(result!);
    else job.reject(error);
  }

  /** Put a job in the queue (at the front when it is re-run) with its time limit to start. */
  private enqueue(job: Job, front: boolean): void {
    job.slot = undefined;
    if (front) this.queue.unshift(job);
    else this.queue.push(job);
    clearTimeout(job.waitTimer);
    job.waitTimer = setTimeout(() => {
      if (!this.unqueue(job)) return;
      this.timeouts++;
      const f = this.figures;
      this.settle(
        job,
        new ServiceUnavailable(
          `no SPARQL worker became free within the time limit of ${this.opts.timeoutMs} ms (${f.workers} workers: ${f.busy} running a query, ${f.loading} loading the data); try again later`,
        ),
      );
    }, this.opts.timeoutMs);
  }

  private unqueue(job: Job): boolean {
    const i = this.queue.indexOf(job);
    if (i < 0) return false;
    this.queue.splice(i, 1);
    return true;
  }

  /** The client went away: drop the job if it waits, stop its worker if it runs on. */
  private cancel(job: Job): void {
    if (job.done || this.closed) return;
    this.cancelled++;
    const slot = job.slot;
    if (slot && slot.job === job) {
      slot.graceTimer = setTimeout(() => {
        if (slot.job !== job) return;
        slot.job = null;
        this.replace(slot, "restart");
        this.dispatch();
      }, CANCEL_GRACE_MS);
    } else this.unqueue(job);
    this.settle(job, this.cancelledError());
  }

  private forward(seq: number, at: RecordLocation): void {
    if (this.closed) return;
    // A slot without a worker (a retry is pending) reads this record from disk when it starts.
    for (const s of this.slots) s.worker?.postMessage({ type: "record", seq, ...at } satisfies ToReplica);
  }

  private spawn(slot: Slot): void {
    const data: ReplicaWorkerData = { dataDir: this.opts.dataDir, maxResults: this.opts.maxResults };
    const w = spawnWorker(WORKER_URL, { workerData: data }, REQUEST_NICE);
    slot.worker = w;
    slot.state = "loading";
    slot.stale = false;
    slot.spawnedAt = performance.now();
    w.on("message", (m: FromReplica) => {
      if (slot.worker === w) this.onMessage(slot, m);
    });
    w.on("error", (err: Error) => {
      if (slot.worker === w) this.onFailure(slot, `SPARQL replica worker ${slot.index} failed: ${err.message}`);
    });
    w.on("exit", (code: number) => {
      if (slot.worker === w && !this.closed) this.onFailure(slot, `SPARQL replica worker ${slot.index} exited with code ${code}`);
    });
  }

  /**
   * Terminate the slot's worker and start a new one (after `delayMs`, for a load that failed).
   * The slot's job, if any, must have been taken off it by the caller.
   */
  private replace(slot: Slot, why: "restart" | "renewal" | "retry", delayMs = 0): void {
    clearTimeout(slot.timer);
    clearTimeout(slot.graceTimer);
    clearTimeout(slot.retryTimer);
    const old = slot.worker;
    slot.worker = null;
    slot.state = "loading";
    if (old) void old.terminate();
    if (this.closed) return;
    if (why === "restart") this.restarts++;
    else if (why === "renewal") this.renewals++;
    if (this.renewing === slot && why !== "renewal") this.renewing = null;
    if (delayMs === 0) this.spawn(slot);
    else {
      slot.state = "retrying";
      slot.retryTimer = setTimeout(() => this.closed || this.spawn(slot), delayMs);
    }
  }

  private onMessage(slot: Slot, m: FromReplica): void {
    switch (m.type) {
      case "ready":
        if (slot.loadedOnce) console.log(`SPARQL replica worker ${slot.index} replaced: loaded ${m.seq} commits in ${Math.round(performance.now() - slot.spawnedAt)} ms (${Math.round(m.ms)} ms reading the data)`);
        slot.state = "ready";
        slot.seq = m.seq;
        slot.loadFailures = 0;
        if (!slot.loadedOnce) {
          slot.loadedOnce = true;
          const next = this.slots.find((s) => s.spawnedAt === 0);
          if (next) this.spawn(next);
        }
        if (this.renewing === slot) this.renewing = null;
        if (this.starting && this.slots.every((s) => s.loadedOnce)) {
          this.starting.resolve();
          this.starting = undefined;
        }
        this.dispatch();
        return;
      case "load-error":
        this.onFailure(slot, `SPARQL replica worker ${slot.index} could not load ${this.opts.dataDir ?? "(no data)"}: ${m.message}`);
        return;
      case "gap": {
        // The worker logged it; the query it ignored is re-run.
        const job = slot.job;
        slot.job = null;
        this.replace(slot, "restart");
        if (job && !job.done) this.enqueue(job, true);
        this.dispatch();
        return;
      }
      case "started":
        if (slot.job?.id !== m.id) return;
        this.startedCount++;
        this.armTimer(slot, slot.job);
        return;
      case "result":
      case "error": {
        const job = slot.job;
        if (!job || job.id !== m.id) return;
        clearTimeout(slot.timer);
        clearTimeout(slot.graceTimer);
        slot.job = null;
        if (m.type === "result") this.settle(job, undefined, { contentType: m.contentType, body: Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength) });
        else this.settle(job, fromReport(m.report));
        this.dispatch();
        return;
      }
      case "fatal": {
        console.error(`SPARQL replica: a query crashed worker ${slot.index} (${m.message}); replacing it`);
        const job = slot.job?.id === m.id ? slot.job : null;
        slot.job = null;
        this.replace(slot, "restart");
        if (job) this.settle(job, new InternalError("the query crashed the SPARQL engine"));
        this.dispatch();
        return;
      }
    }
  }

  private armTimer(slot: Slot, job: Job): void {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => {
      if (slot.job !== job) return;
      slot.job = null;
      if (!job.done) this.timeouts++; // else its client went away within the grace
      this.replace(slot, "restart");
      this.settle(job, new QueryTimeout(`the query ran longer than the time limit of ${this.opts.timeoutMs} ms and was stopped; narrow it or add LIMIT`, { field: "query" }));
      this.dispatch();
    }, this.opts.timeoutMs);
  }

  private onFailure(slot: Slot, message: string): void {
    if (this.closed) return;
    const wasLoading = slot.state !== "ready";
    if (this.starting && !slot.loadedOnce) {
      // At start-up a worker that cannot load means the data directory cannot be read.
      const start = this.starting;
      this.starting = undefined;
      void this.close().catch(() => undefined);
      start.reject(new Error(message));
      return;
    }
    console.error(message);
    const job = slot.job;
    slot.job = null;
    if (wasLoading) slot.loadFailures++;
    this.replace(slot, wasLoading ? "retry" : "restart", wasLoading ? Math.min(30_000, 500 * 2 ** slot.loadFailures) : 0);
    if (job) this.settle(job, new InternalError("the SPARQL engine failed while running the query"));
    // With no worker loaded and none loading afresh, nothing will serve the queue soon.
    if (this.slots.every((s) => s.state === "retrying")) {
      for (const q of this.queue.splice(0)) this.settle(q, new ServiceUnavailable("the SPARQL endpoint is not available: its replicas cannot load the data"));
    }
    this.dispatch();
  }

  /** Replace the next stale worker, if it is idle and the others can serve meanwhile. */
  private advanceRenewal(): void {
    if (this.renewing) return;
    const stale = this.slots.find((s) => s.stale && s.state === "ready" && s.job === null);
    if (!stale) return;
    const othersServe = this.slots.length === 1 || this.slots.some((s) => s !== stale && s.state === "ready");
    if (!othersServe) return;
    this.renewing = stale;
    this.replace(stale, "renewal");
  }

  private dispatch(): void {
    if (this.closed) return;
    this.advanceRenewal();
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.state === "ready" && s.job === null && s.worker !== null);
      if (!slot) return;
      const job = this.queue.shift()!;
      clearTimeout(job.waitTimer);
      job.slot = slot;
      slot.job = job;
      slot.worker!.postMessage({ type: "query", id: job.id, request: job.request } satisfies ToReplica);
    }
  }
}
