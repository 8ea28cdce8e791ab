/**
 * The SPARQL backend's reads (SparqlStore `read`): the named reads of resources/reads.ts run
 * unchanged in read threads of their own (sparql-read-worker.ts), against an object with the
 * part of `ox.Store`'s API they use whose calls are synchronous remote calls. This side:
 *
 * - keeps the threads (default 2, so that one slow read does not hold the others), spawned at the
 *   first read; a read goes to an idle thread, or waits in a queue (first come, first served);
 * - sends each thread the ready graphs: the whole set when it starts, then each change
 *   (`ready`, `gone`) as it happens, on the same port as the reads, so a thread sees every change
 *   made before a read was sent and none made after. With each ready graph goes the location of
 *   that version's local copy (body-cache.ts) when there is one, also when the copy comes later
 *   (fetched into the cache): a thread loads a small graph from it, as written, without the store;
 * - does the HTTP of the threads' calls: a thread posts a query and blocks; this side POSTs it
 *   to the query endpoint and hands the JSON text back on the thread's answer port, then wakes it (Atomics.notify on a shared flag). A store that does not
 *   answer, answers an error, cuts the result (`X-SPARQL-MaxRows`) or ran out of time (Virtuoso's
 *   `X-SQL-State: S1TAT`) makes the call throw in the thread, with the reason;
 * - bounds each read in time: past `timeoutMs` the read fails with a clear error (the thread
 *   gives up itself at the deadline, counted from when it starts the read — not while it starts up
 *   or loads the reads module; one that does not give up is replaced a second later).
 *
 * docs/virtuoso.md "How the SPARQL backend reads" has the whole design.
 */
import { MessageChannel, type MessagePort, type Worker } from "node:worker_threads";
import { moduleUrl, REQUEST_NICE, spawnWorker } from "../threads/spawn.ts";
import type { BodyLocation } from "./journal.ts";
import type { FromReadThread, GraphChange, HttpAnswer, HttpRequest, ReadStats, ReadThreadData, ToReadThread } from "./sparql-read-worker.ts";
import { nextTurn } from "../threads/turns.ts";

export interface SparqlReadsOptions {
  /** Read threads (default 2). */
  readonly threads?: number;
  /** Time limit of one read, ms (default 30 s). */
  readonly timeoutMs?: number;
  /** The store's most rows per SELECT answer (Virtuoso's ResultSetMaxRows; default 10,000, Virtuoso's default). */
  readonly maxRows?: number;
  /** Graphs of at most this many triples are fetched whole and answered locally (default 5,000). */
  readonly cacheGraphTriples?: number;
  /** Most triples cached per thread (default 100,000). */
  readonly cacheTriples?: number;
  /** `Authorization` header of the queries (SparqlStore's `authorization`). */
  readonly authorization?: string;
}

const WORKER_URL = moduleUrl("./sparql-read-worker.ts", import.meta.url);
/** How long after its deadline a thread still running a read is replaced. */
const GRACE_MS = 1_000;
/** How long a thread may take to start a read it was given (spawning, loading the reads module on a busy machine). */
const START_MS = 60_000;

/**
 * Changes of the ready graphs sent to the threads per message. A commit of 93,000 graphs sent one
 * message per graph and thread: about a second of the event loop. Batches go one per turn, and
 * no read starts while changes wait (a read sees every change made before it was asked for).
 */
const CHANGES_PER_MESSAGE = 2_000;

interface Job {
  readonly id: number;
  readonly module: string;
  readonly name: string;
  readonly args: readonly unknown[];
  readonly resolve: (v: unknown) => void;
  readonly reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  flag: Int32Array;
  answers: MessagePort;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

/**
 * A Map of the ready graphs that tells `onChange` of every change: SparqlStore's graph list,
 * so that the read threads follow it without the commit code naming them.
 */
export class ReadyGraphs<E extends { readonly triples: number }> extends Map<string, E> {
  private onChange: ((graph: string, entry: E | undefined) => void) | undefined;
  listen(onChange: (graph: string, entry: E | undefined) => void): void {
    this.onChange = onChange;
  }
  override set(graph: string, entry: E): this {
    super.set(graph, entry);
    this.onChange?.(graph, entry);
    return this;
  }
  override delete(graph: string): boolean {
    const had = super.delete(graph);
    if (had) this.onChange?.(graph, undefined);
    return had;
  }
  override clear(): void {
    const graphs = [...this.keys()];
    super.clear();
    for (const g of graphs) this.onChange?.(g, undefined);
  }
}

export class SparqlReads {
  private readonly ready = new Map<string, { triples: number; version: number; at: BodyLocation | undefined }>();
  private version = 0;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed = false;
  /** Changes not yet sent to the threads, in order; `flushing` while they are being sent. */
  private outbox: GraphChange[] = [];
  private flushing = false;
  readonly threads: number;
  readonly timeoutMs: number;
  readonly maxRows: number;
  private readonly cacheGraphTriples: number;
  private readonly cacheTriples: number;
  private readonly authorization: string | undefined;
  /** The figures of the last read that ended (remote and local calls; the cache of its thread). */
  lastStats: ReadStats | undefined;

  constructor(
    private readonly endpoint: string,
    o: SparqlReadsOptions = {},
  ) {
    this.threads = Math.max(1, o.threads ?? 2);
    this.timeoutMs = o.timeoutMs ?? 30_000;
    this.maxRows = o.maxRows ?? 10_000;
    this.cacheGraphTriples = o.cacheGraphTriples ?? 5_000;
    this.cacheTriples = o.cacheTriples ?? 100_000;
    this.authorization = o.authorization;
  }

  /**
   * A graph became ready (`triples` = its size; `at` = this version's local copy, if any) or
   * stopped being so (undefined).
   */
  changed(graph: string, triples: number | undefined, at?: BodyLocation): void {
    let msg: GraphChange;
    if (triples === undefined) {
      if (!this.ready.delete(graph)) return;
      msg = { type: "gone", graph };
    } else {
      const version = ++this.version;
      // Only the graphs a thread may load whole need their copy's location (the message stays small for the others).
      const kept = at && triples <= this.cacheGraphTriples ? at : undefined;
      this.ready.set(graph, { triples, version, at: kept });
      msg = { type: "ready", graph, triples, version, ...(kept ? { at: kept } : {}) };
    }
    this.send(msg);
  }

  /**
   * The ready graph's current version now has a local copy at `at` (fetched into the cache after
   * it became ready). The caller makes sure `at` is the current version's.
   */
  located(graph: string, at: BodyLocation): void {
    const r = this.ready.get(graph);
    if (!r || r.at || r.triples > this.cacheGraphTriples) return;
    r.at = at;
    this.send({ type: "ready", graph, triples: r.triples, version: r.version, at });
  }

  /** Queue a change for the threads; sent once the current task's code has run (with the changes it made), in batches. */
  private send(change: GraphChange): void {
    this.outbox.push(change);
    if (this.flushing) return;
    this.flushing = true;
    queueMicrotask(() => void this.flush());
  }

  private async flush(): Promise<void> {
    try {
      while (this.outbox.length > 0) {
        const changes = this.outbox.length <= CHANGES_PER_MESSAGE ? this.outbox : this.outbox.slice(0, CHANGES_PER_MESSAGE);
        this.outbox = changes === this.outbox ? [] : this.outbox.slice(CHANGES_PER_MESSAGE);
        const msg: ToReadThread = { type: "changes", changes };
        for (const s of this.slots) s.worker.postMessage(msg);
        if (this.outbox.length > 0) await nextTurn();
      }
    } finally {
      // Never left holding the reads (a thread that missed changes is replaced with the whole set when it fails).
      this.flushing = false;
      this.dispatch();
    }
  }

  read<T>(module: URL, name: string, args: readonly unknown[]): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`read ${name}: the store is closed`));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: ++this.nextId, module: module.href, name, args, resolve: resolve as (v: unknown) => void, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const j of this.queue.splice(0)) j.reject(new Error(`read ${j.name}: the store is closed`));
    await Promise.all(
      this.slots.splice(0).map((s) => {
        if (s.timer) clearTimeout(s.timer);
        s.job?.reject(new Error(`read ${s.job.name}: the store is closed`));
        s.answers.close();
        return s.worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    // Changes first: a read asked for after them must see them.
    if (this.flushing || this.closed || this.queue.length === 0) return;
    while (this.slots.length < this.threads) this.slots.push(this.spawn());
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.job) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      // Until the thread starts the read (a new thread, or the first read's module loading) it has
      // START_MS; from then on the read's own time limit (armed on "started").
      slot.timer = setTimeout(() => this.replace(slot, new Error(`read ${job.name}: the read thread did not start it within ${START_MS / 1000} s`)), START_MS);
      slot.worker.postMessage({ type: "read", id: job.id, module: job.module, name: job.name, args: job.args, timeoutMs: this.timeoutMs } satisfies ToReadThread);
    }
  }

  /** A new read thread, in `slot` when given (replacing its thread). */
  private spawn(slot?: Slot): Slot {
    const flag = new SharedArrayBuffer(4);
    const { port1, port2 } = new MessageChannel();
    const data: ReadThreadData = {
      flag,
      answers: port1,
      ready: [...this.ready].map(([g, r]) => [g, r.triples, r.version, r.at] as const),
      maxRows: this.maxRows,
      cacheGraphTriples: this.cacheGraphTriples,
      cacheTriples: this.cacheTriples,
    };
    const worker = spawnWorker(WORKER_URL, { workerData: data, transferList: [port1] }, REQUEST_NICE);
    worker.unref();
    const fresh = { worker, flag: new Int32Array(flag), answers: port2 };
    if (slot) Object.assign(slot, fresh);
    const s: Slot = slot ?? { ...fresh, job: null, timer: null };
    this.listen(s);
    return s;
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
  }

  /** The slot's read fails with `err`; the thread is replaced by a new one with the current ready set. */
  private replace(slot: Slot, err: Error): void {
    const job = slot.job;
    this.finish(slot);
    const old = slot.worker;
    slot.answers.close();
    if (!this.closed) this.spawn(slot);
    void old.terminate();
    job?.reject(err);
    this.dispatch();
  }

  private listen(slot: Slot): void {
    const worker = slot.worker;
    worker.on("message", (m: FromReadThread) => {
      if (slot.worker !== worker) return;
      if (m.type === "http") {
        void this.http(slot, worker, m);
        return;
      }
      const job = slot.job;
      if (!job || job.id !== m.id) return;
      if (m.type === "started") {
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = setTimeout(() => this.replace(slot, new Error(`read ${job.name} took longer than ${this.timeoutMs / 1000} s on the SPARQL store and was stopped`)), this.timeoutMs + GRACE_MS);
        return;
      }
      this.lastStats = m.stats;
      this.finish(slot);
      if (m.type === "ok") job.resolve(m.value);
      else job.reject(new Error(`read ${job.name} on the SPARQL store failed: ${m.message}`));
      this.dispatch();
    });
    worker.on("error", (err) => {
      if (slot.worker === worker) this.replace(slot, new Error(`the read thread failed: ${err.message}`));
    });
    worker.on("exit", (code) => {
      if (slot.worker === worker && !this.closed) this.replace(slot, new Error(`the read thread ended (exit code ${code})`));
    });
  }

  /** One query of a read thread over HTTP; the answer goes to the thread's port, then the thread is woken. */
  private async http(slot: Slot, worker: Worker, req: HttpRequest): Promise<void> {
    let answer: HttpAnswer;
    try {
      const r = await fetch(this.endpoint, {
        method: "POST",
        headers: { accept: "application/sparql-results+json", "content-type": "application/x-www-form-urlencoded", ...(this.authorization ? { authorization: this.authorization } : {}) },
        body: new URLSearchParams({ query: req.query }),
        signal: AbortSignal.timeout(Math.max(1, req.timeoutMs)),
      });
      const text = await r.text();
      if (!r.ok) answer = { call: req.call, ok: false, message: `the SPARQL store answered ${r.status}: ${text.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim().slice(0, 300)}` };
      else if (r.headers.get("x-sql-state") === "S1TAT") answer = { call: req.call, ok: false, message: `the SPARQL store ran out of time and answered an incomplete result (${r.headers.get("x-sql-message") ?? "S1TAT"})` };
      else answer = { call: req.call, ok: true, text, truncated: r.headers.has("x-sparql-maxrows") };
    } catch (e) {
      const cause = (e as Error).cause as Error | undefined;
      answer = { call: req.call, ok: false, message: `the SPARQL store did not answer (${cause?.message ?? (e as Error).message})` };
    }
    if (slot.worker !== worker) return; // the thread was replaced meanwhile
    slot.answers.postMessage(answer);
    Atomics.store(slot.flag, 0, 1);
    Atomics.notify(slot.flag, 0);
  }
}
