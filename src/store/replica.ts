/**
 * The SPARQL read replica (DESIGN §1.2 "compute never blocks the server"; SPARQL 1.1 Protocol,
 * query only): a worker thread (replica-worker.ts) holding its own Oxigraph copy of the graphs,
 * because Oxigraph's `query()` runs synchronously and a large query would block the event loop.
 *
 * - Consistency: the replica subscribes to `GraphStore.onRecord`, which fires right after a
 *   commit's record is appended to the journal, and posts where it lies (file, offset, length) to
 *   the worker in order; the worker reads it from the journal (no copy through the main thread).
 *   The worker handles messages in order, so a query sent after a commit resolved sees it.
 * - Queries run one at a time, FIFO (at most MAX_QUEUED wait; more → 503). Each has a time limit
 *   counted from the moment the worker starts it: when it is reached the worker is terminated
 *   (the only way to stop synchronous WASM), the query fails with 503 `QueryTimeout` naming the
 *   limit, and a new worker reloads the data directory. Records committed meanwhile are posted
 *   to the new worker at once and wait in its message port until it has loaded (it skips those
 *   it already read from disk); queries wait in the queue until it is ready.
 * - When the writer's store renews its memory (GraphStore `onRenew`), the worker is replaced the
 *   same way as soon as no query runs, so that its copy sheds the replaced and deleted data too.
 * - A worker that crashes, or reports a seq gap, is replaced the same way; a query it was running
 *   when it crashed fails with 500 (it is not retried: it may be what crashed it), one that was
 *   waiting behind a gap is re-run on the new worker. A worker that cannot load the data is
 *   retried with a growing delay, and the queries waiting meanwhile fail with 503.
 */
import type { Worker } from "node:worker_threads";
import { fromReport, InternalError, QueryTimeout, ServiceUnavailable } from "../errors.ts";
import { spawnTsWorker } from "../tasks/spawn.ts";
import type { GraphStore, RecordLocation } from "./graph-store.ts";
import type { FromReplica, ReplicaWorkerData, ToReplica } from "./replica-worker.ts";
import type { QueryRequest, QueryResult } from "./sparql-exec.ts";

const WORKER_URL = new URL("./replica-worker.ts", import.meta.url);
const MAX_QUEUED = 64;

export interface ReplicaOptions {
  readonly dataDir: string;
  /** Time limit of one query, in ms. */
  readonly timeoutMs: number;
  /** Largest SELECT result (solutions) or CONSTRUCT/DESCRIBE result (triples). */
  readonly maxResults: number;
}

/** The protocol's dataset parameters (`default-graph-uri`, `named-graph-uri`). */
export interface QueryDataset {
  readonly defaultGraphs?: readonly string[];
  readonly namedGraphs?: readonly string[];
}

interface Job {
  readonly id: number;
  readonly request: QueryRequest;
  readonly resolve: (r: QueryResult) => void;
  readonly reject: (e: unknown) => void;
}

export class SparqlReplica {
  private worker: Worker | null = null;
  private ready = false;
  private readonly queue: Job[] = [];
  private current: Job | null = null;
  private timer: NodeJS.Timeout | undefined;
  private respawnTimer: NodeJS.Timeout | undefined;
  private starting: { resolve: () => void; reject: (e: Error) => void } | undefined;
  private closed = false;
  private nextId = 1;
  private loadFailures = 0;
  private restarts = 0;
  private renewals = 0;
  /** A renewal waits for the running query to end. */
  private renewPending = false;
  private seq = 0;
  private readyPromise: Promise<void> = Promise.resolve();

  private constructor(private readonly opts: ReplicaOptions) {}

  /**
   * Start the worker now (it loads the data directory read-only, in parallel with whatever the
   * main thread does meanwhile, e.g. the writer's own recovery); `follow` must be called before
   * the first commit. Queries sent before the replica is loaded wait for it.
   */
  static create(opts: ReplicaOptions): SparqlReplica {
    const r = new SparqlReplica(opts);
    r.readyPromise = new Promise<void>((resolve, reject) => {
      r.starting = { resolve, reject };
    });
    r.readyPromise.catch(() => undefined);
    r.spawn();
    return r;
  }

  /** Forward every commit of `store` to the worker. */
  follow(store: GraphStore): void {
    store.onRecord((seq, at) => this.forward(seq, at));
    store.onRenew(() => this.renew());
  }

  /** Replace the worker (it reloads only the current data) as soon as no query runs. */
  renew(): void {
    if (this.closed) return;
    this.renewPending = true;
    this.dispatch();
  }

  /** How many times the worker was replaced to shed replaced and deleted data. */
  get renewalCount(): number {
    return this.renewals;
  }

  /** Resolves once the first worker has loaded the data dir. */
  get loaded(): Promise<void> {
    return this.readyPromise;
  }

  /** Start the worker and follow `store`'s commits; resolves once the data dir is loaded. */
  static async start(store: GraphStore, opts: ReplicaOptions): Promise<SparqlReplica> {
    const r = SparqlReplica.create(opts);
    r.follow(store);
    await r.loaded;
    return r;
  }

  /** Run one query; `format` is a media type of SOLUTION_FORMATS or GRAPH_FORMATS. */
  query(query: string, format: string, dataset: QueryDataset = {}): Promise<QueryResult> {
    if (this.closed) return Promise.reject(new ServiceUnavailable("the SPARQL endpoint is shut down"));
    if (this.queue.length >= MAX_QUEUED) {
      return Promise.reject(new ServiceUnavailable(`too many SPARQL queries are waiting (${MAX_QUEUED}); try again later`));
    }
    return new Promise<QueryResult>((resolve, reject) => {
      const request: QueryRequest = { query, format, ...dataset };
      this.queue.push({ id: this.nextId++, request, resolve, reject });
      this.dispatch();
    });
  }

  /** How many times a worker was replaced (timeouts, crashes, gaps). */
  get restartCount(): number {
    return this.restarts;
  }

  /** Seq of the last commit the current worker loaded from disk. */
  get loadedSeq(): number {
    return this.seq;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.respawnTimer);
    const err = new ServiceUnavailable("the SPARQL endpoint is shutting down");
    this.starting?.reject(err);
    this.current?.reject(err);
    this.current = null;
    for (const job of this.queue.splice(0)) job.reject(err);
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private forward(seq: number, at: RecordLocation): void {
    // With no worker (a respawn is pending) the next one reads this record from disk.
    if (this.closed || !this.worker) return;
    this.worker.postMessage({ type: "record", seq, ...at } satisfies ToReplica);
  }

  private spawn(): void {
    const data: ReplicaWorkerData = { dataDir: this.opts.dataDir, maxResults: this.opts.maxResults };
    const w = spawnTsWorker(WORKER_URL, { workerData: data });
    this.worker = w;
    this.ready = false;
    w.on("message", (m: FromReplica) => {
      if (this.worker === w) this.onMessage(m);
    });
    w.on("error", (err: Error) => {
      if (this.worker === w) this.onFailure(`the SPARQL replica worker failed: ${err.message}`);
    });
    w.on("exit", (code: number) => {
      if (this.worker === w && !this.closed) this.onFailure(`the SPARQL replica worker exited with code ${code}`);
    });
  }

  /** Terminate the current worker (if any) and start a new one, now or after `delayMs`. */
  private restart(delayMs = 0, count = true): void {
    clearTimeout(this.timer);
    const old = this.worker;
    this.worker = null;
    this.ready = false;
    if (old) void old.terminate();
    if (this.closed) return;
    if (count) this.restarts++;
    if (delayMs === 0) this.spawn();
    else this.respawnTimer = setTimeout(() => this.closed || this.spawn(), delayMs);
  }

  private onMessage(m: FromReplica): void {
    switch (m.type) {
      case "ready":
        this.ready = true;
        this.seq = m.seq;
        this.loadFailures = 0;
        this.starting?.resolve();
        this.starting = undefined;
        this.dispatch();
        return;
      case "load-error":
        this.onFailure(`the SPARQL replica could not load ${this.opts.dataDir}: ${m.message}`);
        return;
      case "gap": {
        // The worker logged it; the query it ignored is re-run on the new worker.
        if (this.current) this.queue.unshift(this.current);
        this.current = null;
        this.restart();
        return;
      }
      case "started":
        if (this.current?.id === m.id) this.armTimer(this.current);
        return;
      case "result":
      case "error": {
        const job = this.finish(m.id);
        if (!job) return;
        if (m.type === "result") job.resolve({ contentType: m.contentType, body: m.body });
        else job.reject(fromReport(m.report));
        this.dispatch();
        return;
      }
      case "fatal": {
        console.error(`SPARQL replica: a query crashed the worker (${m.message}); restarting it`);
        const job = this.finish(m.id);
        this.restart();
        job?.reject(new InternalError("the query crashed the SPARQL engine"));
        return;
      }
    }
  }

  private finish(id: number): Job | undefined {
    const job = this.current;
    if (!job || job.id !== id) return undefined;
    clearTimeout(this.timer);
    this.current = null;
    return job;
  }

  private armTimer(job: Job): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.current !== job) return;
      this.current = null;
      this.restart();
      job.reject(new QueryTimeout(`the query ran longer than the time limit of ${this.opts.timeoutMs} ms and was stopped; narrow it or add LIMIT`, { field: "query" }));
    }, this.opts.timeoutMs);
  }

  private onFailure(message: string): void {
    if (this.starting) {
      const start = this.starting;
      this.starting = undefined;
      void this.close().catch(() => undefined);
      start.reject(new Error(message));
      return;
    }
    console.error(message);
    const job = this.current;
    this.current = null;
    const wasLoading = !this.ready;
    if (wasLoading) {
      this.loadFailures++;
      for (const q of this.queue.splice(0)) q.reject(new ServiceUnavailable("the SPARQL endpoint is not available: its replica cannot load the data"));
    }
    this.restart(wasLoading ? Math.min(30_000, 500 * 2 ** this.loadFailures) : 0);
    job?.reject(new InternalError("the SPARQL engine failed while running the query"));
  }

  private dispatch(): void {
    if (!this.ready || this.current || this.closed || !this.worker) return;
    if (this.renewPending) {
      this.renewPending = false;
      this.renewals++;
      this.restart(0, false);
      return;
    }
    const job = this.queue.shift();
    if (!job) return;
    this.current = job;
    this.worker.postMessage({ type: "query", id: job.id, request: job.request } satisfies ToReplica);
  }
}
