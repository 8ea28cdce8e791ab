/**
 * The graph store: Oxigraph in memory, one named graph per resource, made durable by the journal
 * and snapshots of disk.ts (DESIGN §1.1, §1.4; issue "Service foundation" §2).
 *
 * `commit(ops)` is the only way to change the store. It appends one journal record, fsyncs it
 * (unless `durable: false`, used for task progress), then applies the operations in memory.
 * Until a commit has been applied, the graphs it touches are *pending*: `has()` says no, so a
 * half-loaded graph is never served. Commits are applied strictly in journal order.
 */
import * as ox from "oxigraph";
import { closeSync, fdatasync, openSync, statSync, writeSync } from "node:fs";
import { promisify } from "node:util";
import { applyOp, applyOpSync } from "./apply.ts";
import { journalPath, pruneCovered, recover, writeSnapshot } from "./disk.ts";
import { encodeRecord, type GraphOp } from "./journal.ts";

const fdatasyncAsync = promisify(fdatasync);

export interface StoreOptions {
  /** Write a snapshot at start-up when the journals hold more than this many bytes. */
  readonly compactAboveBytes?: number;
}

export interface CommitOptions {
  /** fsync before resolving (default true). Progress updates of tasks skip it. */
  readonly durable?: boolean;
}

export type RecordListener = (seq: number, record: Buffer) => void;

export type DumpFormat = "application/n-triples" | "application/n-quads" | "application/rdf+xml" | "application/ld+json";

export interface OpenInfo {
  readonly lastSeq: number;
  readonly recoveredMs: number;
  readonly tornTail?: string;
  readonly compacted: boolean;
}

export class GraphStore {
  readonly ox: ox.Store = new ox.Store();
  private readonly graphSet = new Set<string>();
  private readonly pending = new Map<string, number>();
  private readonly listeners: RecordListener[] = [];
  private fd = -1;
  private seq = 0;
  private journalBytes = 0;
  private applyChain: Promise<void> = Promise.resolve();
  openInfo!: OpenInfo;

  private constructor(readonly dir: string) {}

  /** Recover the store from `dir` (created if missing). Synchronous: nothing is served yet. */
  static open(dir: string, options: StoreOptions = {}): GraphStore {
    const s = new GraphStore(dir);
    const t0 = performance.now();
    const rec = recover(dir, (r) => {
      for (const op of r.ops) {
        applyOpSync(s.ox, op, s.graphSet.has(op.graph));
        if ("delete" in op || op.ntriples.length === 0) s.graphSet.delete(op.graph);
        else s.graphSet.add(op.graph);
      }
    });
    s.seq = rec.lastSeq;
    s.journalBytes = rec.journalBytes;
    let compacted = false;
    if (rec.journalBytes > (options.compactAboveBytes ?? 64 * 1024 * 1024)) {
      s.compact();
      compacted = true;
    } else {
      const path = rec.activeJournal?.path ?? journalPath(dir, s.seq + 1);
      s.fd = openSync(path, "a");
    }
    s.openInfo = {
      lastSeq: s.seq,
      recoveredMs: performance.now() - t0,
      compacted,
      ...(rec.tornTail ? { tornTail: rec.tornTail } : {}),
    };
    return s;
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

  onRecord(listener: RecordListener): void {
    this.listeners.push(listener);
  }

  /**
   * Commit the operations atomically: after a crash either all of them are replayed or none.
   * Resolves with the commit's seq once it is on disk (if durable) and applied in memory.
   */
  async commit(ops: readonly GraphOp[], options: CommitOptions = {}): Promise<number> {
    if (ops.length === 0) return this.seq;
    if (this.fd < 0) throw new Error("store is closed");
    const seq = ++this.seq;
    const record = encodeRecord(seq, ops);
    let off = 0;
    while (off < record.length) off += writeSync(this.fd, record, off, record.length - off);
    this.journalBytes += record.length;
    for (const l of this.listeners) l(seq, record);
    for (const op of ops) this.pending.set(op.graph, (this.pending.get(op.graph) ?? 0) + 1);
    const synced = options.durable === false ? Promise.resolve() : fdatasyncAsync(this.fd);
    const applied = this.applyChain.then(async () => {
      await synced;
      for (const op of ops) {
        await applyOp(this.ox, op, this.graphSet.has(op.graph), pauseForIo);
        if ("delete" in op || op.ntriples.length === 0) this.graphSet.delete(op.graph);
        else this.graphSet.add(op.graph);
      }
    });
    this.applyChain = applied.catch(() => undefined).finally(() => {
      for (const op of ops) {
        const n = (this.pending.get(op.graph) ?? 1) - 1;
        if (n <= 0) this.pending.delete(op.graph);
        else this.pending.set(op.graph, n);
      }
    });
    await applied;
    await this.applyChain;
    return seq;
  }

  /** Serialise one graph with Oxigraph's writer. */
  dump(graph: string, format: DumpFormat): string {
    return this.ox.dump({ format, from_graph_name: ox.namedNode(graph) });
  }

  /** N-Triples of every graph, one at a time (a whole-store dump can exceed Node's string limit). */
  *eachGraph(): Generator<readonly [string, string]> {
    for (const g of [...this.graphSet].sort()) yield [g, this.dump(g, "application/n-triples")];
  }

  /**
   * Write a snapshot of the current state, start a new journal segment and remove what the
   * snapshot covers. Blocks while it dumps; used at start-up and by maintenance.
   */
  compact(): void {
    if (this.fd >= 0) closeSync(this.fd);
    writeSnapshot(this.dir, this.seq, this.eachGraph());
    this.fd = openSync(journalPath(this.dir, this.seq + 1), "a");
    pruneCovered(this.dir, this.seq);
    this.journalBytes = 0;
  }

  get journalSize(): number {
    return this.journalBytes;
  }

  /** Wait for every commit in flight, then close the journal. */
  async close(): Promise<void> {
    await this.applyChain;
    if (this.fd >= 0) {
      closeSync(this.fd);
      this.fd = -1;
    }
  }
}

function pauseForIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function fileSize(path: string): number {
  return statSync(path).size;
}
