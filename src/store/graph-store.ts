/**
 * The graph store: Oxigraph in memory, one named graph per resource, made durable by the journal
 * and snapshots of disk.ts (docs/ARCHITECTURE.md, "Store and durability"). Three collaborators
 * hold parts of its state: journal-writer.ts appends the records (seq order, fsync, cutting
 * back after a disk fault), capacity.ts counts the triples against `maxQuads`, and the
 * in-memory Oxigraph store itself lives in a thread of its own (memory-thread.ts: nothing of
 * it runs on the main thread, which posts loads and named reads and awaits them); the store
 * commits, stages, applies, renews and compacts.
 *
 * `commit(ops)` is the only way to change the store. It appends one journal record and fsyncs it
 * (unless `durable: false`, used for task progress) while it loads the operations that create
 * graphs in memory; those that replace or delete existing graphs wait until the record is on
 * disk. Until a commit is both on disk and applied, the graphs it touches are *pending*: `has()`
 * says no, so a half-loaded or not yet durable graph is never served. Records are written, and
 * commits applied, strictly in seq order.
 *
 * Disk faults. A record the disk does not take (full, read-only, quota, file-size limit, I/O
 * error; the write or its fsync) fails its commit with 507 and leaves nothing: the journal is
 * cut back to its last complete record, the graphs loaded ahead are dropped, and the next
 * commit tries again — the store recovers by itself when space returns (see `commit`).
 *
 * Capacity. Oxigraph runs as 32-bit WebAssembly: one store cannot use more than 4 GB, and a
 * load past that traps (`RuntimeError: unreachable`) and leaves the store unusable (its thread is
 * then replaced by one that reloads the data directory, memory-thread.ts "Faults"). Its memory
 * store also never frees what a replaced or dropped graph held. So the store counts the triples
 * it has loaded since it was opened (replaced and deleted ones included; a restart loads only
 * the current ones, see disk.ts `recover`) and refuses, with 507 Insufficient Storage and
 * before anything is journalled, a commit or stage load that would take it past `maxQuads`.
 * Small commits (task states, ≤ 1000 triples) may use a reserve (2 %) above it, so that a
 * task can still record that its result did not fit. Measured with oxigraph 0.5.11 on
 * descriptor-dataset graphs (3 triples per value, distinct values): the trap came at 10.7M
 * triples; the default capacity, 9M, keeps a margin for longer literals.
 *
 * Renewal. Freeing a whole Oxigraph store does return its memory for reuse, and a store in an
 * Oxigraph instance of its own returns it to the system (oxigraph-instance.ts: a WebAssembly
 * memory never shrinks, an instance dropped as a whole goes). So each in-memory store is created
 * in a new instance, and the store renews itself: it waits until no commit is being applied,
 * loads the current content from the journal on disk into a new store (as a restart would; the
 * journal is read and checked in a worker thread, current-worker.ts), swaps it in and drops the
 * old one (with its instance, released by full garbage collections 2 s to 60 s later: an idle
 * service would not collect it soon). It does so when work would not fit but the current data and the work would
 * (`makeRoom`), or earlier, once the store is past half its capacity with more garbage than
 * current data; and when the service is idle (no commit for `idleMs`, default 10 s) and at
 * least as much of what it loaded is garbage as is current, and at least `minIdleGarbage`
 * (100k) triples (`watchIdle`): after a burst of uploads and deletions the process goes back to
 * the size its current data needs.
 * Reads go on from the old store meanwhile (the new one is built in the store's thread between
 * them); commits wait; stage loads wait before they apply.
 * It is done only when old and new fit together (loaded + current ≤ `maxQuads`) and no stage
 * holds data (a stage's data is not on disk yet). Listeners (`onRenew`: the read replica)
 * renew their own copies. A renewal that fails is logged and changes nothing.
 */
import { mkdirSync } from "node:fs";
import type * as ox from "oxigraph";
import { InsufficientStorage, NotAcceptable, storageFailure } from "../errors.ts";
import { currentOps, fills, statementsPerGraph, track } from "./apply.ts";
import { Capacity } from "./capacity.ts";
import { journalPath, pruneCovered, recover, snapshotPath, writeSnapshot } from "./disk.ts";
import { bodyOf, bodyRanges, countStatements, graphsOf, type Body, type BodyLocation, type GraphOp } from "./journal.ts";
import { JournalWriter, type RecordListener } from "./journal-writer.ts";
import type { CommitOptions, DumpFormat, OpenInfo, StagedGraph, StoreBackend, StoreCapacity } from "./backend.ts";
import { moduleUrl, spawnWorker } from "../threads/spawn.ts";
import type { FromCurrentWorker } from "./current-worker.ts";
import { MemoryThread } from "./memory-thread.ts";

export type { RecordListener, RecordLocation } from "./journal-writer.ts";
export { countStatements } from "./journal.ts";

export interface StoreOptions {
  /**
   * Write a snapshot at start-up when the journals hold at least this many bytes of superseded
   * data (graphs replaced or deleted since the last snapshot). Default 64 MiB.
   */
  readonly compactAboveBytes?: number;
  /** Most triples the in-memory store may load before a restart (see the capacity note above). */
  readonly maxQuads?: number;
  /** Largest graph `dump` writes from memory (default 20,000). */
  readonly maxDumpTriples?: number;
  /** Renewal while idle (see "Renewal" above): how long without a commit counts as idle (default IDLE_MS). */
  readonly idleMs?: number;
  /** …and the least garbage (triples loaded but no longer current) worth it (default MIN_IDLE_GARBAGE). */
  readonly minIdleGarbage?: number;
}

/** No commit for this long: the service is idle (for returning the memory of garbage, see "Renewal"). */
export const IDLE_MS = 10_000;
/** Garbage (replaced and deleted triples still in memory) below which a renewal while idle is not worth it. */
export const MIN_IDLE_GARBAGE = 100_000;

export const DEFAULT_MAX_QUADS = 9_000_000;
/**
 * Largest graph `dump` writes, by default: Oxigraph's writer runs synchronously (≈ 500k
 * triples per CPU second measured, so ≈ 40 ms here); larger graphs are read from disk
 * (`storedBody`).
 */
const MAX_DUMP_TRIPLES = 20_000;


/**
 * A new graph loaded ahead of its commit, while the operation that makes it is still computing
 * (`GraphStore.stage`). It is never served: it is not one of the store's graphs until a commit
 * with `preloaded: [stage]` journals a put of exactly the loaded content. `discard()` drops it.
 */
export class Stage implements StagedGraph {
  private chain: Promise<void> = Promise.resolve();
  private state: "open" | "committing" | "done" = "open";
  /** Triples loaded (or being loaded) so far. */
  private loadedStatements = 0;
  /** Set once a load starts writing into the store's memory (renewal would lose it). */
  touched = false;
  /** Why what was loaded is gone (the store's thread was replaced): the commit fails. */
  private lostWhy: string | undefined;
  /** The commit journals the put's body (StagedGraph.keepsBody). */
  readonly keepsBody = false;

  constructor(
    private readonly store: GraphStore,
    readonly graph: string,
    private readonly release: (graph: string) => void,
  ) {}

  /** Load N-Triples into the staged graph (in slices, yielding between them); loads run in order. */
  load(ntriples: Body): Promise<void> {
    if (this.state !== "open") return Promise.reject(new Error(`stage of ${this.graph} is closed`));
    const n = countStatements(ntriples);
    const next = this.chain.then(async () => {
      // Before the first load the stage holds nothing, so the store may renew to make room.
      if (!this.touched) await this.store.makeRoom(n);
      this.store.reserve(n, this.loadedStatements + n);
      this.loadedStatements += n;
      // Checked right before the data goes in: a renewal started later sees `touched` and stops.
      while (this.store.renewalUnderWay) await this.store.renewed();
      this.touched = true;
      await this.store.memory.apply({ graph: this.graph, ntriples }, []);
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Triples loaded into the stage (counted against the store's capacity as they were loaded). */
  get statements(): number {
    return this.loadedStatements;
  }

  /** Wait for every load, then hand the graph to a commit. */
  async seal(): Promise<void> {
    if (this.state !== "open") throw new Error(`stage of ${this.graph} is already committed or discarded`);
    this.state = "committing";
    await this.chain;
    if (this.lostWhy) throw new Error(`what was loaded of ${this.graph} was lost (${this.lostWhy}); nothing of it was stored`);
  }

  /** What was loaded is gone (see `lostWhy`). */
  lose(why: string): void {
    this.lostWhy = why;
  }

  /** The commit that published the graph is done: it is an ordinary graph now. */
  committed(): void {
    this.state = "done";
    this.release(this.graph);
  }

  /** Drop what was loaded (no effect after a successful commit). */
  async discard(): Promise<void> {
    if (this.state === "done") return;
    this.state = "done";
    await this.chain;
    await this.store.memory.drop([this.graph]);
    this.release(this.graph);
  }
}



export class GraphStore implements StoreBackend {
  /** The in-memory store, in its own thread (memory-thread.ts); set by `open`. */
  private mem!: MemoryThread;
  private readonly graphSet = new Set<string>();
  private readonly pending = new Map<string, number>();
  /** Open stages (not yet committed) by graph. */
  private readonly staged = new Map<string, Stage>();
  private readonly renewListeners: (() => void)[] = [];
  /** The renewal under way (`makeRoom`), if any. */
  private renewing: Promise<void> | undefined;
  private renewals = 0;
  private closed = false;
  /** When the last commit was made (for the renewal while idle, `watchIdle`). */
  private lastCommitAt = performance.now();
  private idleTimer: NodeJS.Timeout | undefined;
  /** Appends the records, in seq order, and cuts back what a disk fault left. */
  private readonly journal: JournalWriter;
  /** Triples loaded into `ox` and those of the current graphs, against `maxQuads`. */
  private readonly cap: Capacity;
  /** Approximate journal bytes of each graph's current content, and of superseded content. */
  private readonly sizes = new Map<string, number>();
  private garbage = 0;
  readonly maxQuads: number;
  private readonly maxDumpTriples: number;
  private applyChain: Promise<void> = Promise.resolve();
  /**
   * Where each graph's current content lies on disk as N-Triples: the body of its last one-graph
   * put, in a journal segment or the snapshot (graphs of several-graph puts have none).
   */
  private readonly bodies = new Map<string, BodyLocation>();
  openInfo!: OpenInfo;

  private constructor(
    readonly dir: string,
    options: StoreOptions,
  ) {
    this.maxQuads = options.maxQuads ?? DEFAULT_MAX_QUADS;
    this.cap = new Capacity(this.maxQuads);
    this.journal = new JournalWriter(dir);
    this.maxDumpTriples = options.maxDumpTriples ?? MAX_DUMP_TRIPLES;
  }

  /**
   * Recover the store from `dir` (created if missing): this thread reads the journal for its
   * bookkeeping (graphs, sizes, where each body lies), compacts if due, then the store's thread
   * loads the current content (memory-thread.ts). Nothing is served before it resolves.
   */
  static async open(dir: string, options: StoreOptions = {}): Promise<GraphStore> {
    const s = new GraphStore(dir, options);
    const t0 = performance.now();
    const current: GraphOp[] = [];
    // The store's thread loads the directory (read-only) while this thread reads it for the
    // bookkeeping: a restart takes the longer of the two, not both.
    mkdirSync(dir, { recursive: true }); // (the thread reads it read-only: it must exist)
    const started = MemoryThread.start(dir, (why) => s.lost(why));
    started.catch(() => undefined); // awaited below; not unhandled meanwhile
    const stopThread = (): Promise<void> => started.then((t) => t.thread.close(), () => undefined);
    let rec: ReturnType<typeof recover>;
    try {
      rec = recover(dir, (r, last, locate) => {
        s.noteBodies(r.ops, locate);
        const load = currentOps(r.ops, last);
        for (const op of load) track(s.graphSet, op);
        // Each body's lines are counted once: an operation loaded whole has the count `account` uses.
        const counted = new Map<GraphOp, number>();
        for (const op of r.ops) {
          const n = countStatements(bodyOf(op));
          counted.set(op, n);
          s.account(op, n);
        }
        for (const op of load) s.cap.loaded += counted.get(op) ?? countStatements(bodyOf(op));
        current.push(...load);
      });
    } catch (err) {
      await stopThread();
      throw err;
    }
    s.journal.resume(rec.lastSeq, rec.activeJournal?.path ?? journalPath(dir, rec.lastSeq + 1), rec.activeJournal?.validBytes ?? 0, rec.tornTailKept);
    let compacted = false;
    let compactionFailed: string | undefined;
    if (rec.journalBytes > 0 && s.garbage >= (options.compactAboveBytes ?? 64 * 1024 * 1024)) {
      // A full disk must not stop the start: the journal stays as it is, and the next start tries again.
      try {
        // The snapshot replaces journal segments the store's thread may still be reading.
        await started.catch(() => undefined);
        s.compactNow(current);
        compacted = true;
      } catch (err) {
        compactionFailed = errorText(err);
        console.error(`store: start-up compaction not done, the journal is kept as it is: ${compactionFailed}`);
      }
    }
    const notWritable = s.journal.isOpen ? undefined : s.journal.open();
    const { thread, lastSeq } = await started;
    s.mem = thread;
    if (lastSeq !== s.journal.lastSeq) {
      await thread.close();
      throw new Error(`the store's thread loaded ${dir} up to commit ${lastSeq}, this thread read it up to ${s.journal.lastSeq}`);
    }
    s.openInfo = {
      lastSeq: s.journal.lastSeq,
      recoveredMs: performance.now() - t0,
      compacted,
      ...(rec.tornTail ? { tornTail: rec.tornTail } : {}),
      ...(compactionFailed ? { compactionFailed } : {}),
      ...(notWritable ? { notWritable } : {}),
    };
    s.watchIdle(options.idleMs ?? IDLE_MS, options.minIdleGarbage ?? MIN_IDLE_GARBAGE);
    return s;
  }

  /** Record where the bodies of committed operations lie on disk (`locate`), in commit order. */
  private noteBodies(ops: readonly GraphOp[], locate: (op: GraphOp, i: number) => BodyLocation | undefined): void {
    ops.forEach((op, i) => {
      const at = "ntriples" in op && op.ntriples.length > 0 ? locate(op, i) : undefined;
      for (const g of graphsOf(op)) {
        if (at) this.bodies.set(g, at);
        else this.bodies.delete(g);
      }
    });
  }

  /**
   * Keep the size accounting that decides when compaction pays, and the triple counts of the
   * current graphs. `statements` = the body's triples (countStatements).
   */
  private account(op: GraphOp, statements: number): void {
    const graphs = graphsOf(op);
    const body = bodyOf(op);
    const perGraph = "graphs" in op && graphs.length > 1 ? statementsPerGraph(op.nquads) : null;
    const whole = perGraph === null ? statements : 0;
    for (const g of graphs) {
      this.garbage += this.sizes.get(g) ?? 0;
      if (body.length > 0) {
        this.sizes.set(g, body.length / graphs.length);
        this.cap.setGraph(g, perGraph === null ? whole : (perGraph.get(g) ?? 0));
      } else {
        this.sizes.delete(g);
        this.cap.setGraph(g, undefined);
      }
    }
  }

  /** The in-memory store's thread (loads and reads go there; memory-thread.ts). */
  get memory(): MemoryThread {
    return this.mem;
  }

  /**
   * The store's thread was lost (a trap, or it died) and replaced by one that loaded the data
   * directory: what open stages had loaded ahead is gone, so they fail at their commit.
   */
  private lost(why: string): void {
    for (const st of this.staged.values()) if (st.touched) st.lose(why);
  }

  /** Quads in the in-memory store, replaced and deleted data included until a renewal (for tests and figures). */
  async quadsInMemory(): Promise<number> {
    return (await this.mem.stats()).quads;
  }

  /**
   * Run the read `name` of a reads module (a module exporting `run(store, name, args)`, such as
   * resources/reads.ts) against the in-memory store, and resolve with its result, which must be
   * plain data (store/plain-data.ts): the store is meant to be read where it lives, and what
   * comes back crosses to the caller as a copy. Reads see every commit that resolved before
   * they were asked for; whether a graph may be served is `has()`'s to say, as before.
   */
  async read<T>(module: URL, name: string, args: readonly unknown[]): Promise<T> {
    return this.mem.read<T>(module.href, name, args);
  }

  /** Triples loaded since the store was opened (or last renewed), those of the current graphs, the capacity, and how often it renewed. */
  capacity(): StoreCapacity {
    return { loaded: this.cap.loaded, live: this.cap.live, max: this.maxQuads, renewals: this.renewals };
  }

  /** Called after each renewal of the in-memory store. */
  onRenew(listener: () => void): void {
    this.renewListeners.push(listener);
  }

  get renewalUnderWay(): boolean {
    return this.renewing !== undefined;
  }

  /** Resolves when no renewal is under way. */
  async renewed(): Promise<void> {
    while (this.renewing) await this.renewing.catch(() => undefined);
  }

  /**
   * Make room for `n` more triples if renewing the in-memory store would (see "Renewal" above);
   * resolves when it has, or at once when there is room already or renewal cannot help (the
   * caller's `reserve`/`ensureRoom` then decides).
   */
  async makeRoom(n: number): Promise<void> {
    await this.renewed();
    if (!this.renewalWouldHelp(n)) return;
    await this.runRenewal("room");
  }

  private async runRenewal(why: "room" | "idle"): Promise<void> {
    const renewal = this.renew(why);
    this.renewing = renewal;
    try {
      await renewal;
    } catch (err) {
      // The old store is untouched: the caller goes on (or is refused) as without a renewal.
      console.error(`store renewal failed, the store goes on as it was: ${errorText(err)}`);
    } finally {
      this.renewing = undefined;
    }
  }

  /**
   * Renew once the service is idle (no commit for `idleMs`) and at least as much of what the
   * store has loaded is garbage as is current (and at least `minGarbage` triples): the memory of
   * the garbage goes back to the system (see "Renewal"), and the read replica's copies, which
   * follow renewals, shed theirs. Checked every few seconds; never while a commit is pending, a
   * stage holds data, or the journal may end in a failed record.
   */
  private watchIdle(idleMs: number, minGarbage: number): void {
    const check = (): void => {
      if (this.closed || this.renewing || performance.now() - this.lastCommitAt < idleMs) return;
      if (this.journal.cutPending || this.pending.size > 0 || this.stageHoldsData()) return;
      const { loaded, live } = this.cap;
      if (loaded - live < Math.max(minGarbage, live) || !this.cap.renewalFits()) return;
      void this.runRenewal("idle");
    };
    this.idleTimer = setInterval(check, Math.max(50, Math.min(idleMs, 5_000)));
    this.idleTimer.unref();
  }

  /**
   * Renew before `n` more triples are loaded: when they would not fit, or already when the store
   * is past half its capacity and more of what it has loaded is garbage than current (so that
   * renewal is still safe then: old + new must fit together, which a store near its capacity
   * rarely allows). Only when the current data and the `n` fit, and no stage holds data
   * (the arithmetic: `Capacity.renewalWouldHelp`).
   */
  private renewalWouldHelp(n: number): boolean {
    // A renewal reloads the journal from disk: not while it may end in a record that failed.
    if (this.journal.cutPending) return false;
    if (!this.cap.renewalWouldHelp(n, this.pending.size === 0)) return false;
    return !this.stageHoldsData();
  }

  /** Some open stage has put data into the in-memory store (data not on disk yet). */
  private stageHoldsData(): boolean {
    for (const st of this.staged.values()) if (st.touched) return true;
    return false;
  }

  private async renew(why: "room" | "idle"): Promise<void> {
    for (;;) {
      const chain = this.applyChain;
      await chain;
      if (chain === this.applyChain) break;
    }
    // Stages that started applying meanwhile hold data the journal does not have; and with every
    // commit applied the counts are exact: old and new must still fit together.
    if (this.stageHoldsData() || !this.cap.renewalFits()) return;
    const t0 = performance.now();
    const before = this.cap.loaded;
    const seq = this.journal.lastSeq;
    const { ops: read, lastSeq } = await readCurrentOps(this.dir);
    // Nothing was committed meanwhile (commits wait), so the journal holds exactly this state.
    if (lastSeq !== seq) throw new Error(`store renewal read the journal up to commit ${lastSeq}, expected ${seq}`);
    // The store's thread loads it into a new store and drops the old one: its instance goes as
    // a whole once nothing refers to it (oxigraph-instance.ts), while `free()` walks every
    // triple (2.0 s for 1.5M, measured) and returns the memory only to the instance. A load that
    // fails leaves the old store in place.
    const count = await this.mem.renew(read);
    // Stage loads reserved meanwhile (they apply after this) stay counted.
    this.cap.renewed(count, before);
    this.renewals++;
    console.error(`store renewed in memory${why === "idle" ? " while idle" : ""}: ${before} triples loaded before, ${count} current reloaded in ${Math.round(performance.now() - t0)} ms`);
    for (const l of this.renewListeners) l();
  }

  /**
   * Throw InsufficientStorage when `n` more triples would take the store past its capacity.
   * `whole` = the triples of the whole result these belong to (a stage's loads so far + n;
   * an estimate of a result not computed yet), for the advice: restart, or ask for less.
   * `what` names the result in the message.
   */
  ensureRoom(n: number, whole = n, what?: string): void {
    this.cap.ensureRoom(n, whole, what);
  }

  /**
   * Run `build`, which may refuse with `ensureRoom`; when it does and renewing the in-memory
   * store makes the room (`makeRoom`), run it again (it refuses again if it still cannot fit).
   */
  async withRoom<T>(build: () => T | Promise<T>): Promise<T> {
    try {
      return await build();
    } catch (err) {
      const n = err instanceof InsufficientStorage ? err.details.extra?.triplesNeeded : undefined;
      if (typeof n !== "number") throw err;
      await this.makeRoom(n);
      return await build();
    }
  }

  /** Count `n` triples about to be loaded, or throw as `ensureRoom` (nothing loaded, nothing journalled). */
  reserve(n: number, whole = n): void {
    this.cap.reserve(n, whole);
  }

  /** Seq of the last commit written to the journal. */
  get lastSeq(): number {
    return this.journal.lastSeq;
  }

  /** True when the graph exists and no commit touching it is still being applied. */
  has(graph: string): boolean {
    return this.graphSet.has(graph) && !this.pending.has(graph);
  }

  /** Visible graphs whose IRI starts with `prefix`. */
  graphsWithPrefix(prefix: string): string[] {
    const out: string[] = [];
    for (const g of this.graphSet) if (g.startsWith(prefix) && !this.pending.has(g)) out.push(g);
    return out;
  }

  allGraphs(): IterableIterator<string> {
    return this.graphSet.values();
  }

  /**
   * Start loading a graph that does not exist yet ahead of the commit that will create it (a
   * large dataset loads while its structures are still being parsed). Only new graphs can be
   * staged, and only by one stage at a time.
   */
  stage(graph: string): Stage {
    if (this.graphSet.has(graph) || this.pending.has(graph) || this.staged.has(graph)) throw new Error(`cannot stage ${graph}: it exists or is being written`);
    const st = new Stage(this, graph, (g) => this.staged.delete(g));
    this.staged.set(graph, st);
    return st;
  }

  onRecord(listener: RecordListener): void {
    this.journal.onRecord(listener);
  }

  /**
   * Commit the operations atomically: after a crash either all of them are replayed or none.
   * Resolves with the commit's seq once it is on disk (if durable) and applied in memory.
   *
   * When the record cannot be written or synced (a full or read-only disk, a quota, a file-size
   * limit, an I/O error) the commit fails with 507 (errors.ts `storageFailure`) and leaves nothing
   * behind: the journal is truncated back to the end of the last complete record (if that fails
   * too, it is retried before the next write, which waits for it), commits queued behind it fail
   * the same way (their seqs are given out again), what was loaded ahead in memory is dropped,
   * and its stages are discarded. The next commit tries the disk again: the store recovers by
   * itself when space returns.
   */
  async commit(ops: readonly GraphOp[], options: CommitOptions & { readonly preloaded?: readonly Stage[] } = {}): Promise<number> {
    if (ops.length === 0) return this.journal.lastSeq;
    if (this.closed) throw new Error("store is closed");
    this.lastCommitAt = performance.now();
    /** Preloaded puts, with the triples their stage counted as it loaded them. */
    const preloaded = new Map<GraphOp, number>();
    for (const st of options.preloaded ?? []) {
      const op = ops.find((o) => "ntriples" in o && o.graph === st.graph);
      if (!op || !this.staged.has(st.graph)) throw new Error(`commit: no put of staged graph ${st.graph}`);
      await st.seal();
      preloaded.set(op, st.statements);
    }
    // Capacity: count the triples to load (a preloaded put is in memory and counted already, so
    // its body — the largest, up to a GB — is not scanned again here).
    const statements = ops.map((op) => preloaded.get(op) ?? countStatements(bodyOf(op)));
    let adding = 0;
    ops.forEach((op, i) => {
      if (!preloaded.has(op)) adding += statements[i]!;
    });
    // Without a renewal to wait for or to start, a commit is queued synchronously (so calls
    // get their seqs in call order). Checked right before it is queued (no await from there
    // on): a renewal started later waits for it to be applied, then reloads it from the journal.
    if (preloaded.size === 0 && this.renewalWouldHelp(adding)) await this.makeRoom(adding);
    while (this.renewing) await this.renewed();
    if (this.closed) throw new Error("store is closed");
    this.reserve(adding);
    const touched = ops.flatMap(graphsOf);
    // Hash the bodies now (large ones off the main thread), write in seq order, then fsync.
    const { ticket, outcome } = this.journal.append(ops, describeChange(touched), options.durable !== false);
    const seq = ticket.seq;
    for (const g of touched) this.pending.set(g, (this.pending.get(g) ?? 0) + 1);
    // Load into memory while the record is written and synced — but only the operations on
    // graphs that do not exist yet, which a failure undoes by dropping them; replacing or
    // deleting an existing graph waits until the record is on disk. The graphs stay pending
    // (never served) until both are done.
    const applied = this.applyChain.then(async () => {
      const early = this.newGraphOps(ops);
      /** Graphs created (and counted) ahead of the outcome. */
      const created: string[] = [];
      try {
        for (let i = 0; i < ops.length; i++) {
          const op = ops[i]!;
          if (!early[i]) continue;
          if (!preloaded.has(op)) await this.mem.apply(op, [], () => ticket.failure);
          track(this.graphSet, op);
          this.account(op, statements[i]!);
          created.push(...graphsOf(op));
        }
        await outcome;
      } catch (err) {
        if (!ticket.failure) throw err; // not the disk (e.g. a trap): the graphs stay hidden, as the journal has them
        await outcome.catch(() => undefined); // the journal is cut back before the client hears of it
        this.forget(created);
        await this.mem.drop(ops.flatMap((op, i) => (early[i] && !preloaded.has(op) ? graphsOf(op) : [])));
        for (const st of options.preloaded ?? []) await st.discard();
        this.unpend(touched);
        throw ticket.failure;
      }
      const exists = (g: string): boolean => this.graphSet.has(g);
      for (let i = 0; i < ops.length; i++) {
        const op = ops[i]!;
        if (early[i]) continue;
        await this.mem.apply(op, graphsOf(op).filter(exists));
        track(this.graphSet, op);
        this.account(op, statements[i]!);
      }
      // Where the bodies lie in the journal, noted in commit order (this chain's order).
      const { at } = await outcome;
      const ranges = bodyRanges(ops, at.length);
      this.noteBodies(ops, (_, i) => {
        const r = ranges[i];
        return r ? { path: at.path, offset: at.offset + r[0], length: r[1] } : undefined;
      });
      for (const st of options.preloaded ?? []) st.committed();
      this.unpend(touched);
    });
    this.applyChain = applied.catch(() => undefined);
    await applied;
    return seq;
  }

  /**
   * Which operations only create graphs (none of their graphs exists or is written by an
   * earlier operation of the commit): those may be loaded before the record is on disk.
   */
  private newGraphOps(ops: readonly GraphOp[]): boolean[] {
    const seen = new Set<string>();
    return ops.map((op) => {
      const graphs = graphsOf(op);
      const created = graphs.every((g) => !this.graphSet.has(g) && !seen.has(g));
      for (const g of graphs) seen.add(g);
      return created;
    });
  }

  /** Undo the bookkeeping of graphs a failed commit created (`track` and `account` of new graphs). */
  private forget(graphs: readonly string[]): void {
    for (const g of graphs) {
      this.graphSet.delete(g);
      this.cap.setGraph(g, undefined);
      this.sizes.delete(g);
    }
  }

  private unpend(graphs: readonly string[]): void {
    for (const g of graphs) {
      const n = (this.pending.get(g) ?? 1) - 1;
      if (n <= 0) this.pending.delete(g);
      else this.pending.set(g, n);
    }
  }

  /** Triples of a graph's current content (0 when it does not exist). */
  graphSize(graph: string): number {
    return this.cap.graphTriples(graph);
  }

  /**
   * Where the graph's current content lies on disk as N-Triples (the body of the put that wrote
   * it; the file only grows, so the range stays valid), or undefined for a graph written by a
   * several-graph put (a compound of an upload) or not stored. Reading it costs the main thread
   * nothing: representations of large graphs are rendered from there in a worker (http/render-rdf.ts).
   */
  storedBody(graph: string): BodyLocation | undefined {
    return this.bodies.get(graph);
  }

  /**
   * Serialise one graph with Oxigraph's writer, in the store's thread: only for graphs of
   * at most `maxDumpTriples` (≈ 40 ms); larger ones are refused (406) — they are read from disk
   * (`storedBody`) instead. (The writer also builds the whole text inside the store's
   * WebAssembly memory: a 7.8M-triple dataset trapped it once, leaving the store unusable.)
   */
  async dump(graph: string, format: DumpFormat): Promise<string> {
    const n = this.graphSize(graph);
    if (n > this.maxDumpTriples) {
      throw new NotAcceptable(
        ["text/csv", "text/html", "text/uri-list"],
        format,
        `this resource has ${n} triples; RDF is written for at most ${this.maxDumpTriples} from memory: ask for text/csv or the HTML pages, or query it with SPARQL and LIMIT`,
      );
    }
    return await this.mem.dump(graph, format);
  }

  /**
   * Write a snapshot of the current state, start a new journal segment and remove what the
   * snapshot covers. Waits until no commit is being applied (the snapshot must hold every
   * journalled commit), then blocks while it dumps.
   */
  async compact(): Promise<void> {
    for (;;) {
      const chain = this.applyChain;
      await chain;
      if (chain === this.applyChain) break; // no commit started meanwhile: nothing can interleave now
    }
    // The snapshot is read from the journal on disk: it must end at the last complete record.
    await this.journal.cutBeforeSnapshot();
    this.compactNow();
  }

  /**
   * Write the snapshot from the journal on disk, not from memory: the current content of every
   * graph is the body of its last put (disk.ts `recover`, apply.ts `currentOps`). Dumping the
   * in-memory store instead would build every graph's text inside its WebAssembly memory (a
   * trap risk for large graphs) and would need Node strings over their 512 MiB limit.
   * `current` = those operations when the caller has them already (open).
   * When the snapshot cannot be written (507) nothing changes: the journal stays as it is.
   */
  private compactNow(current?: readonly GraphOp[]): void {
    let ops = current;
    if (ops === undefined) {
      const read: GraphOp[] = [];
      recover(this.dir, (r, last) => read.push(...currentOps(r.ops, last)), true);
      ops = read;
    }
    /** Where each current body lies in the snapshot (applied once it is complete). */
    const located: [GraphOp, BodyLocation][] = [];
    const seq = this.journal.lastSeq;
    try {
      writeSnapshot(this.dir, seq, ops.filter(fills), (op, at) => located.push([op, at]));
    } catch (err) {
      throw storageFailure(err, `a snapshot of commit ${seq}`, snapshotPath(this.dir, seq), this.dir);
    }
    // The snapshot holds every commit: new ones go to a new segment (opened now, or by the next
    // commit if it cannot be created now), and what the snapshot covers is removed.
    this.journal.startSegment();
    // Every current body now lies in the snapshot; the journal segments it covers are removed.
    this.bodies.clear();
    for (const [op, at] of located) this.noteBodies([op], () => at);
    try {
      pruneCovered(this.dir, seq);
    } catch (err) {
      // Left behind, they are skipped by recovery (their commits are in the snapshot).
      console.error(`store: could not remove the files snapshot ${seq} covers: ${errorText(err)}`);
    }
    this.garbage = 0;
  }

  /** Wait for every commit in flight, then close the journal. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.idleTimer);
    await this.applyChain;
    await this.journal.close();
    await this.mem?.close();
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** "the change to <g>" (and how many other graphs), for the messages of failed commits. */
function describeChange(graphs: readonly string[]): string {
  const others = graphs.length - 1;
  return `the change to <${graphs[0]}>${others > 0 ? ` and ${others} other graph${others > 1 ? "s" : ""}` : ""}`;
}

const CURRENT_WORKER = moduleUrl("./current-worker.ts", import.meta.url);

/** The current operations of a data directory, read and checked in a worker thread (current-worker.ts). */
function readCurrentOps(dir: string): Promise<{ ops: GraphOp[]; lastSeq: number }> {
  return new Promise((resolve, reject) => {
    const w = spawnWorker(CURRENT_WORKER, { workerData: { dir } });
    let answered = false;
    w.once("message", (m: FromCurrentWorker) => {
      answered = true;
      void w.terminate();
      if ("error" in m) reject(new Error(`reading the current data of ${dir}: ${m.error}`));
      else resolve(m);
    });
    w.once("error", (err) => {
      answered = true;
      reject(err);
    });
    w.once("exit", (code) => {
      if (!answered) reject(new Error(`the worker reading ${dir} exited with code ${code}`));
    });
  });
}

/** A module of reads of the store (see `GraphStore.read`). */
export interface ReadsModule {
  run(store: ox.Store, name: string, args: readonly unknown[]): unknown;
}
