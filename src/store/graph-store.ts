/**
 * The graph store: Oxigraph in memory, one named graph per resource, made durable by the journal
 * and snapshots of disk.ts (DESIGN §1.1, §1.4; issue "Service foundation" §2).
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
 * load past that traps (`RuntimeError: unreachable`) and leaves the store unusable. Its memory
 * store also never frees what a replaced or dropped graph held. So the store counts the triples
 * it has loaded since it was opened (replaced and deleted ones included; a restart loads only
 * the current ones, see disk.ts `recover`) and refuses, with 507 Insufficient Storage and
 * before anything is journalled, a commit or stage load that would take it past `maxQuads`.
 * Small commits (task states, ≤ SMALL_COMMIT triples) may use a reserve above it, so that a
 * task can still record that its result did not fit. Measured with oxigraph 0.5.11 on
 * descriptor-dataset graphs (3 triples per value, distinct values): the trap came at 10.7M
 * triples; the default capacity, 9M, keeps a margin for longer literals.
 *
 * Renewal. Freeing a whole Oxigraph store does return its memory for reuse. So when work would
 * not fit but the current data and the work would (`makeRoom`) — or earlier, once the store is
 * past half its capacity with more garbage than current data — the store renews itself in
 * memory: it waits until no commit is being applied, loads the current content from the
 * journal on disk into a new store (as a restart would; the journal is read and checked in a
 * worker thread, current-worker.ts), swaps it in and frees the old one.
 * Reads go on from the old store meanwhile; commits wait; stage loads wait before they apply.
 * It is done only when old and new fit together (loaded + current ≤ `maxQuads`) and no stage
 * holds data (a stage's data is not on disk yet). Listeners (`onRenew`: the read replica)
 * renew their own copies. A renewal that fails is logged and changes nothing.
 */
import * as ox from "oxigraph";
import { closeSync, fdatasync, ftruncate, openSync, writev } from "node:fs";
import { promisify } from "node:util";
import { InsufficientStorage, NotAcceptable, storageFailure } from "../errors.ts";
import { applyOp, applyOpsSync, clearGraphs, currentOps, dropGraphs, fills, statementsPerGraph, track } from "./apply.ts";
import { journalPath, pruneCovered, recover, snapshotPath, writeSnapshot } from "./disk.ts";
import { bodyOf, bodyRanges, encodeRecordAsync, graphsOf, type Body, type BodyLocation, type GraphOp } from "./journal.ts";
import { spawnTsWorker } from "../threads/spawn.ts";
import type { FromCurrentWorker } from "./current-worker.ts";

const fdatasyncAsync = promisify(fdatasync);
const ftruncateAsync = promisify(ftruncate);
const writevAsync = promisify(writev);

/** Where a committed record lies in the journal (the read replica reads it from there). */
export interface RecordLocation {
  readonly path: string;
  readonly offset: number;
  readonly length: number;
}

export interface StoreOptions {
  /**
   * Write a snapshot at start-up when the journals hold at least this many bytes of superseded
   * data (graphs replaced or deleted since the last snapshot). Default 64 MiB.
   */
  readonly compactAboveBytes?: number;
  /** Most triples the in-memory store may load before a restart (see the capacity note above). */
  readonly maxQuads?: number;
  /** Largest graph `dump` writes on the main thread (default 20,000). */
  readonly maxDumpTriples?: number;
}

export const DEFAULT_MAX_QUADS = 9_000_000;
/**
 * Largest graph `dump` writes, by default: Oxigraph's writer runs synchronously (≈ 500k
 * triples per CPU second measured, so ≈ 40 ms here); larger graphs are read from disk
 * (`storedBody`).
 */
const MAX_DUMP_TRIPLES = 20_000;
/** A commit of at most this many triples may use the reserve above `maxQuads`. */
const SMALL_COMMIT = 1000;
/** The reserve for small commits, as a share of `maxQuads`. */
const RESERVE = 0.02;

/** Triples (lines) of an N-Triples or N-Quads body: every statement is one line. */
export function countStatements(body: Body): number {
  if (body.length === 0) return 0;
  let n = 0;
  if (typeof body === "string") {
    for (let i = body.indexOf("\n"); i >= 0; i = body.indexOf("\n", i + 1)) n++;
    return body.endsWith("\n") ? n : n + 1;
  }
  for (let i = body.indexOf(10); i >= 0; i = body.indexOf(10, i + 1)) n++;
  return body[body.length - 1] === 10 ? n : n + 1;
}

export interface CommitOptions {
  /** fsync before resolving (default true). Progress updates of tasks skip it. */
  readonly durable?: boolean;
  /**
   * Stages whose graphs already hold exactly the content of this commit's put operation for
   * them (see `stage`): those operations are journalled but not loaded again.
   */
  readonly preloaded?: readonly Stage[];
}

/**
 * A new graph loaded ahead of its commit, while the operation that makes it is still computing
 * (`GraphStore.stage`). It is never served: it is not one of the store's graphs until a commit
 * with `preloaded: [stage]` journals a put of exactly the loaded content. `discard()` drops it.
 */
export class Stage {
  private chain: Promise<void> = Promise.resolve();
  private state: "open" | "committing" | "done" = "open";
  /** Triples loaded (or being loaded) so far. */
  private loadedStatements = 0;
  /** Set once a load starts writing into the store's memory (renewal would lose it). */
  touched = false;

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
      await applyOp(this.store.ox, { graph: this.graph, ntriples }, () => false, pauseForIo);
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
    clearGraphs(this.store.ox, [this.graph]);
    this.release(this.graph);
  }
}

export type RecordListener = (seq: number, at: RecordLocation) => void;

export type DumpFormat = "application/n-triples" | "application/n-quads" | "application/rdf+xml" | "application/ld+json";

export interface OpenInfo {
  readonly lastSeq: number;
  readonly recoveredMs: number;
  readonly tornTail?: string;
  readonly compacted: boolean;
  /** Why the start-up compaction was due but not done (e.g. the disk is full); nothing was lost. */
  readonly compactionFailed?: string;
  /** Why the journal could not be opened for writing at start-up (e.g. a read-only disk). */
  readonly notWritable?: string;
}

/** A commit on its way to the journal (see `commit`). */
interface Ticket {
  readonly seq: number;
  /** What it changes, for messages: "the change to <graph> and n other graphs". */
  readonly what: string;
  /** Set when the commit cannot be kept: its record, or one written before it, did not reach the disk. */
  failure?: InsufficientStorage;
}

/** Where the write of a record went. */
interface Written {
  readonly fd: number;
  readonly at: RecordLocation;
}

export class GraphStore {
  private oxStore: ox.Store = new ox.Store();
  private readonly graphSet = new Set<string>();
  private readonly pending = new Map<string, number>();
  /** Open stages (not yet committed) by graph. */
  private readonly staged = new Map<string, Stage>();
  private readonly renewListeners: (() => void)[] = [];
  /** The renewal under way (`makeRoom`), if any. */
  private renewing: Promise<void> | undefined;
  private renewals = 0;
  private readonly listeners: RecordListener[] = [];
  private closed = false;
  /** The active journal segment, open for appending (-1: not open yet, e.g. the disk was read-only at start-up). */
  private fd = -1;
  private journalFile = "";
  /** Bytes of the active journal segment written so far (complete records, unless `cutTo` is set). */
  private fileOffset = 0;
  /**
   * Set when the journal must be truncated back to this length before the next append: a record
   * whose write or fsync failed (or a torn tail a read-only disk kept at start-up) lies beyond it.
   */
  private cutTo: number | undefined;
  /** Why the last truncation failed. */
  private cutError: unknown;
  /** The truncation queued after the last failure (commits that failed wait for it before they answer). */
  private cutting: Promise<void> = Promise.resolve();
  /** Records are written strictly in seq order through this chain (and truncations between them). */
  private writeChain: Promise<void> = Promise.resolve();
  /** Each record's outcome (written, synced, kept), decided in seq order. */
  private outcomeChain: Promise<void> = Promise.resolve();
  /** Commits whose outcome is not decided yet. */
  private readonly inFlight = new Set<Ticket>();
  /** Commits that failed to reach the disk since the last one that did (for the log). */
  private failures = 0;
  private seq = 0;
  /** Approximate journal bytes of each graph's current content, and of superseded content. */
  private readonly sizes = new Map<string, number>();
  private garbage = 0;
  /** Triples loaded into `ox` since it was created (or reserved for a load under way). */
  private loaded = 0;
  /** Triples of each graph's current content. */
  private readonly quads = new Map<string, number>();
  private liveQuads = 0;
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
    this.maxDumpTriples = options.maxDumpTriples ?? MAX_DUMP_TRIPLES;
  }

  /** Recover the store from `dir` (created if missing). Synchronous: nothing is served yet. */
  static open(dir: string, options: StoreOptions = {}): GraphStore {
    const s = new GraphStore(dir, options);
    const t0 = performance.now();
    const current: GraphOp[] = [];
    const rec = recover(dir, (r, last, locate) => {
      s.noteBodies(r.ops, locate);
      const load = currentOps(r.ops, last);
      applyOpsSync(s.ox, s.graphSet, load);
      // Each body's lines are counted once: an operation loaded whole has the count `account` uses.
      const counted = new Map<GraphOp, number>();
      for (const op of r.ops) {
        const n = countStatements(bodyOf(op));
        counted.set(op, n);
        s.account(op, n);
      }
      for (const op of load) s.loaded += counted.get(op) ?? countStatements(bodyOf(op));
      current.push(...load);
    });
    s.seq = rec.lastSeq;
    s.journalFile = rec.activeJournal?.path ?? journalPath(dir, s.seq + 1);
    s.fileOffset = rec.activeJournal?.validBytes ?? 0;
    if (rec.tornTailKept) {
      s.cutTo = s.fileOffset;
      console.error(`store: the torn tail of ${rec.tornTailKept}; it is cut before the next write`);
    }
    let compacted = false;
    let compactionFailed: string | undefined;
    if (rec.journalBytes > 0 && s.garbage >= (options.compactAboveBytes ?? 64 * 1024 * 1024)) {
      // A full disk must not stop the start: the journal stays as it is, and the next start tries again.
      try {
        s.compactNow(current);
        compacted = true;
      } catch (err) {
        compactionFailed = errorText(err);
        console.error(`store: start-up compaction not done, the journal is kept as it is: ${compactionFailed}`);
      }
    }
    const notWritable = s.fd < 0 ? s.openJournal() : undefined;
    s.openInfo = {
      lastSeq: s.seq,
      recoveredMs: performance.now() - t0,
      compacted,
      ...(rec.tornTail ? { tornTail: rec.tornTail } : {}),
      ...(compactionFailed ? { compactionFailed } : {}),
      ...(notWritable ? { notWritable } : {}),
    };
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
      this.liveQuads -= this.quads.get(g) ?? 0;
      if (body.length > 0) {
        const n = perGraph === null ? whole : (perGraph.get(g) ?? 0);
        this.sizes.set(g, body.length / graphs.length);
        this.quads.set(g, n);
        this.liveQuads += n;
      } else {
        this.sizes.delete(g);
        this.quads.delete(g);
      }
    }
  }

  /** The in-memory store (a new one after each renewal: read it through this getter, never keep it across an await). */
  get ox(): ox.Store {
    return this.oxStore;
  }

  /** Triples loaded since the store was opened (or last renewed), those of the current graphs, the capacity, and how often it renewed. */
  capacity(): { loaded: number; live: number; max: number; renewals: number } {
    return { loaded: this.loaded, live: this.liveQuads, max: this.maxQuads, renewals: this.renewals };
  }

  private limitFor(n: number): number {
    return n <= SMALL_COMMIT ? this.maxQuads * (1 + RESERVE) : this.maxQuads;
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
    const renewal = this.renew();
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
   * Renew before `n` more triples are loaded: when they would not fit, or already when the store
   * is past half its capacity and more of what it has loaded is garbage than current (so that
   * renewal is still safe then: old + new must fit together, which a store near its capacity
   * rarely allows). Only when the current data and the `n` fit, and no stage holds data.
   */
  private renewalWouldHelp(n: number): boolean {
    const limit = this.limitFor(n);
    const refused = this.loaded + n > limit;
    // (With commits in flight `loaded` counts triples not applied yet, so garbage is unknown.)
    const worthIt = this.pending.size === 0 && this.loaded + n > this.maxQuads / 2 && this.loaded - this.liveQuads > this.liveQuads;
    // A renewal reloads the journal from disk: not while it may end in a record that failed.
    if (this.cutTo !== undefined) return false;
    if (!refused && !worthIt) return false;
    if (this.liveQuads + n > limit || this.loaded + this.liveQuads > this.maxQuads) return false;
    return !this.stageHoldsData();
  }

  /** Some open stage has put data into the in-memory store (data not on disk yet). */
  private stageHoldsData(): boolean {
    for (const st of this.staged.values()) if (st.touched) return true;
    return false;
  }

  private async renew(): Promise<void> {
    for (;;) {
      const chain = this.applyChain;
      await chain;
      if (chain === this.applyChain) break;
    }
    // Stages that started applying meanwhile hold data the journal does not have; and with every
    // commit applied the counts are exact: old and new must still fit together.
    if (this.stageHoldsData() || this.loaded + this.liveQuads > this.maxQuads) return;
    const t0 = performance.now();
    const before = this.loaded;
    const seq = this.seq;
    const { ops: read, lastSeq } = await readCurrentOps(this.dir);
    // Nothing was committed meanwhile (commits wait), so the journal holds exactly this state.
    if (lastSeq !== seq) throw new Error(`store renewal read the journal up to commit ${lastSeq}, expected ${seq}`);
    const fresh = new ox.Store();
    const graphs = new Set<string>();
    let count = 0;
    try {
      for (const op of read) {
        await applyOp(fresh, op, (g) => graphs.has(g), pauseForIo);
        track(graphs, op);
        count += countStatements(bodyOf(op));
      }
    } catch (err) {
      (fresh as unknown as { free(): void }).free();
      throw err;
    }
    const old = this.oxStore;
    this.oxStore = fresh;
    (old as unknown as { free(): void }).free();
    // Stage loads reserved meanwhile (they apply after this) stay counted.
    this.loaded = count + (this.loaded - before);
    this.renewals++;
    console.error(`store renewed in memory: ${before} triples loaded before, ${count} current reloaded in ${Math.round(performance.now() - t0)} ms`);
    for (const l of this.renewListeners) l();
  }

  /**
   * Throw InsufficientStorage when `n` more triples would take the store past its capacity.
   * `whole` = the triples of the whole result these belong to (a stage's loads so far + n;
   * an estimate of a result not computed yet), for the advice: restart, or ask for less.
   * `what` names the result in the message.
   */
  ensureRoom(n: number, whole = n, what = `${n} more triples`): void {
    if (this.loaded + n <= this.limitFor(n)) return;
    const live = this.liveQuads;
    throw new InsufficientStorage(
      `the store cannot take ${what}: its in-memory store holds at most ${this.maxQuads} triples (MAX_QUADS) and has loaded ${this.loaded} since the service started or last renewed its memory, ${live} of them current data` +
        (live + whole <= this.maxQuads
          ? "; replaced and deleted data keeps its memory (Oxigraph does not free it), and the store could not renew its memory now (work in progress holds data, or the current data is too large to reload beside the old), so restart the service and try again"
          : `; the result (${whole} triples) is more than the store can hold even after a restart: ask for less (fewer compounds or descriptor types), or delete data and try again`),
      { extra: { triplesNeeded: n } },
    );
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
    this.ensureRoom(n, whole);
    this.loaded += n;
  }

  /** Seq of the last commit written to the journal. */
  get lastSeq(): number {
    return this.seq;
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
    this.listeners.push(listener);
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
  async commit(ops: readonly GraphOp[], options: CommitOptions = {}): Promise<number> {
    if (ops.length === 0) return this.seq;
    if (this.closed) throw new Error("store is closed");
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
    const ticket: Ticket = { seq: ++this.seq, what: describeChange(touched) };
    const seq = ticket.seq;
    this.inFlight.add(ticket);
    for (const g of touched) this.pending.set(g, (this.pending.get(g) ?? 0) + 1);
    // Hash the bodies now (large ones off the main thread), write in seq order, then fsync.
    const encoded = encodeRecordAsync(seq, ops);
    encoded.catch(() => undefined); // handled where the write awaits it
    const written = this.writeChain.then(() => this.write(ticket, encoded));
    this.writeChain = written.then(
      () => undefined,
      () => undefined,
    );
    const outcome = this.decide(ticket, written, options.durable !== false);
    // Load into memory while the record is written and synced — but only the operations on
    // graphs that do not exist yet, which a failure undoes by dropping them; replacing or
    // deleting an existing graph waits until the record is on disk. The graphs stay pending
    // (never served) until both are done.
    const applied = this.applyChain.then(async () => {
      const early = this.newGraphOps(ops);
      const pause = (): Promise<void> => (ticket.failure ? Promise.reject(ticket.failure) : pauseForIo());
      /** Graphs created (and counted) ahead of the outcome. */
      const created: string[] = [];
      try {
        for (let i = 0; i < ops.length; i++) {
          const op = ops[i]!;
          if (!early[i]) continue;
          if (!preloaded.has(op)) await applyOp(this.ox, op, () => false, pause);
          track(this.graphSet, op);
          this.account(op, statements[i]!);
          created.push(...graphsOf(op));
        }
        await outcome;
      } catch (err) {
        if (!ticket.failure) throw err; // not the disk (e.g. a trap): the graphs stay hidden, as the journal has them
        await outcome.catch(() => undefined); // the journal is cut back before the client hears of it
        this.forget(created);
        await dropGraphs(this.ox, ops.flatMap((op, i) => (early[i] && !preloaded.has(op) ? graphsOf(op) : [])), pauseForIo);
        for (const st of options.preloaded ?? []) await st.discard();
        this.unpend(touched);
        throw ticket.failure;
      }
      const exists = (g: string): boolean => this.graphSet.has(g);
      for (let i = 0; i < ops.length; i++) {
        const op = ops[i]!;
        if (early[i]) continue;
        await applyOp(this.ox, op, exists, pauseForIo);
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
      this.liveQuads -= this.quads.get(g) ?? 0;
      this.quads.delete(g);
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

  /** Append a ticket's record (a link of the write chain). */
  private async write(ticket: Ticket, encoded: Promise<Uint8Array[]>): Promise<Written> {
    if (ticket.failure) throw ticket.failure;
    const parts = await encoded;
    try {
      // What a failed write left goes first; a journal that could not be opened is opened now.
      await this.cut();
      if (this.cutTo !== undefined) throw this.cutError;
      if (this.fd < 0) this.fd = openSync(this.journalFile, "a");
    } catch (err) {
      this.fail(ticket, err, undefined);
      throw ticket.failure;
    }
    if (ticket.failure) throw ticket.failure;
    const offset = this.fileOffset;
    const length = parts.reduce((a, p) => a + p.length, 0);
    try {
      await writeAll(this.fd, parts);
    } catch (err) {
      this.fail(ticket, err, offset);
      throw ticket.failure;
    }
    this.fileOffset = offset + length;
    return { fd: this.fd, at: { path: this.journalFile, offset, length } };
  }

  /**
   * Decide a ticket's outcome, in seq order: its record is written, synced if durable (one fsync
   * at a time, so that each reports the errors of the pages it covers), and no record before it
   * failed. Only then is it posted to the listeners (the read replica), so that they never see
   * a record that is cut back later.
   */
  private decide(ticket: Ticket, written: Promise<Written>, durable: boolean): Promise<Written> {
    const before = this.outcomeChain;
    const outcome = (async (): Promise<Written> => {
      let w: Written | undefined;
      try {
        w = await written;
        await before;
        if (ticket.failure) throw ticket.failure;
        if (durable) await fdatasyncAsync(w.fd);
      } catch (err) {
        this.fail(ticket, err, w?.at.offset);
        await this.cutting;
        if (w && this.cutTo !== undefined) {
          // Written whole but not synced, and it could not be cut off either (the disk turned
          // read-only after an I/O error): the kernel may still hand it to a restart.
          const f = ticket.failure!;
          ticket.failure = new InsufficientStorage(
            `${f.message}. Its record could not be removed from the journal either (${errorText(this.cutError)}): a restart before the disk is writable again may find the change stored`,
            f.details,
          );
        }
        throw ticket.failure;
      } finally {
        this.inFlight.delete(ticket);
      }
      if (this.failures > 0) {
        console.error(`store: the journal is written again (after ${this.failures} commits that could not be written)`);
        this.failures = 0;
      }
      for (const l of this.listeners) l(ticket.seq, w.at);
      return w;
    })();
    this.outcomeChain = outcome.then(() => undefined, () => undefined);
    return outcome;
  }

  /**
   * A ticket's record did not reach the disk (`offset`: where it was being written, if it was):
   * it and every commit after it fail with 507, their seqs are given out again, and the journal
   * is cut back to where the record began.
   */
  private fail(ticket: Ticket, err: unknown, offset: number | undefined): void {
    if (ticket.failure) return;
    ticket.failure = storageFailure(err, ticket.what, this.journalFile, this.dir);
    if (this.failures++ === 0) console.error(`store: ${ticket.failure.message}`);
    for (const t of this.inFlight) if (t.seq > ticket.seq && !t.failure) t.failure = storageFailure(err, t.what, this.journalFile, this.dir);
    this.seq = Math.min(this.seq, ticket.seq - 1);
    if (offset !== undefined) {
      this.cutTo = Math.min(this.cutTo ?? offset, offset);
      this.cutting = this.writeChain = this.writeChain.then(() => this.cut());
    }
  }

  /** Truncate the journal back to `cutTo` (a link of the write chain); on failure it stays due. */
  private async cut(): Promise<void> {
    const to = this.cutTo;
    if (to === undefined) return;
    try {
      if (this.fd < 0) this.fd = openSync(this.journalFile, "a");
      await ftruncateAsync(this.fd, to);
      await fdatasyncAsync(this.fd);
      this.fileOffset = to;
      if (this.cutTo === to) this.cutTo = undefined;
    } catch (err) {
      this.cutError = err;
      console.error(`store: could not truncate ${this.journalFile} back to ${to} bytes (retried before the next write): ${errorText(err)}`);
    }
  }

  /** Open the active journal segment for appending; when it cannot be, say why (and stay read-only until a commit opens it). */
  private openJournal(): string | undefined {
    try {
      this.fd = openSync(this.journalFile, "a");
      return undefined;
    } catch (err) {
      this.fd = -1;
      const why = storageFailure(err, "new commits", this.journalFile, this.dir).message;
      console.error(`store: ${why}`);
      return why;
    }
  }

  /** Triples of a graph's current content (0 when it does not exist). */
  graphSize(graph: string): number {
    return this.quads.get(graph) ?? 0;
  }

  /**
   * Where the graph's current content lies on disk as N-Triples (the body of the put that wrote
   * it; the file only grows, so the range stays valid), or undefined for a graph written by a
   * several-graph put (a compound of an upload) or not stored. Reading it costs the main thread
   * nothing: representations of large graphs are rendered from there in a worker (http/render-pool.ts).
   */
  storedBody(graph: string): BodyLocation | undefined {
    return this.bodies.get(graph);
  }

  /**
   * Serialise one graph with Oxigraph's writer, synchronously on this thread: only for graphs of
   * at most `maxDumpTriples` (≈ 40 ms); larger ones are refused (406) — they are read from disk
   * (`storedBody`) instead. (The writer also builds the whole text inside the store's
   * WebAssembly memory: a 7.8M-triple dataset trapped it once, leaving the store unusable.)
   */
  dump(graph: string, format: DumpFormat): string {
    const n = this.graphSize(graph);
    if (n > this.maxDumpTriples) {
      throw new NotAcceptable(
        ["text/csv", "text/html", "text/uri-list"],
        format,
        `this resource has ${n} triples; RDF is written for at most ${this.maxDumpTriples} from memory: ask for text/csv or the HTML pages, or query it with SPARQL and LIMIT`,
      );
    }
    return this.ox.dump({ format, from_graph_name: ox.namedNode(graph) });
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
    if (this.cutTo !== undefined) await (this.writeChain = this.writeChain.then(() => this.cut()));
    if (this.cutTo !== undefined) throw storageFailure(this.cutError, `a snapshot of commit ${this.seq}`, this.journalFile, this.dir);
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
    try {
      writeSnapshot(this.dir, this.seq, ops.filter(fills), (op, at) => located.push([op, at]));
    } catch (err) {
      throw storageFailure(err, `a snapshot of commit ${this.seq}`, snapshotPath(this.dir, this.seq), this.dir);
    }
    // The snapshot holds every commit: new ones go to a new segment (opened now, or by the next
    // commit if it cannot be created now), and what the snapshot covers is removed.
    if (this.fd >= 0) closeSync(this.fd);
    // Every current body now lies in the snapshot; the journal segments it covers are removed.
    this.bodies.clear();
    for (const [op, at] of located) this.noteBodies([op], () => at);
    this.fd = -1;
    this.journalFile = journalPath(this.dir, this.seq + 1);
    this.fileOffset = 0;
    this.cutTo = undefined;
    this.openJournal();
    try {
      pruneCovered(this.dir, this.seq);
    } catch (err) {
      // Left behind, they are skipped by recovery (their commits are in the snapshot).
      console.error(`store: could not remove the files snapshot ${this.seq} covers: ${errorText(err)}`);
    }
    this.garbage = 0;
  }

  /** Wait for every commit in flight, then close the journal. */
  async close(): Promise<void> {
    this.closed = true;
    await this.applyChain;
    await this.writeChain;
    if (this.fd >= 0) {
      closeSync(this.fd);
      this.fd = -1;
    }
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

/** Write every buffer, in order, with as few system calls as the kernel allows. */
async function writeAll(fd: number, parts: Uint8Array[]): Promise<void> {
  let rest = parts.filter((p) => p.length > 0);
  while (rest.length > 0) {
    let n = (await writevAsync(fd, rest)).bytesWritten;
    const next: Uint8Array[] = [];
    for (const p of rest) {
      if (n >= p.length) n -= p.length;
      else {
        next.push(n > 0 ? p.subarray(n) : p);
        n = 0;
      }
    }
    rest = next;
  }
}

const CURRENT_WORKER = new URL("./current-worker.ts", import.meta.url);

/** The current operations of a data directory, read and checked in a worker thread (current-worker.ts). */
function readCurrentOps(dir: string): Promise<{ ops: GraphOp[]; lastSeq: number }> {
  return new Promise((resolve, reject) => {
    const w = spawnTsWorker(CURRENT_WORKER, { workerData: { dir } });
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

function pauseForIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
