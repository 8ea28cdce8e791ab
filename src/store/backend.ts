/**
 * The store as the rest of the service uses it: everything outside `store/` holds a
 * `StoreBackend`, never a concrete store. Today's one implementation is the embedded store
 * (graph-store.ts `GraphStore`: Oxigraph in a thread of its own, made durable by the journal);
 * issue 19 adds one on an external SPARQL 1.1 store behind the same interface.
 *
 * The contract, as the embedded store keeps it:
 * - one graph per resource; a graph is served (`has`) only once the commit that wrote it is
 *   durable and applied; `graphsWithPrefix`/`has`/`graphSize` answer from memory, synchronously;
 * - `commit` is atomic over its operations (all or none after a crash) and resolves with the
 *   commit's number once it is durable;
 * - `stage` loads a new graph ahead of its commit (a large result written while it is computed);
 *   it is invisible until a commit names it in `preloaded`;
 * - `read` runs a named read function (resources/reads.ts) against the data;
 * - `capacity`/`withRoom`/`ensureRoom` bound what the store holds (507 when work cannot fit).
 */
import type { Body, BodyLocation, GraphOp } from "./journal.ts";

export type DumpFormat = "application/n-triples" | "application/n-quads" | "application/rdf+xml" | "application/ld+json";

/** A new graph being loaded ahead of its commit (`StoreBackend.stage`). */
export interface StagedGraph {
  readonly graph: string;
  /** Triples loaded so far. */
  readonly statements: number;
  /**
   * Whether the stage keeps its own durable copy of everything loaded (the SPARQL store's local
   * body file): a commit naming it in `preloaded` then never reads the put's body, so a caller
   * may drop each part once it is loaded and commit an empty body (a result larger than memory,
   * or than one buffer, can be written). The embedded store journals the put's body: false.
   */
  readonly keepsBody: boolean;
  /** Load N-Triples into the staged graph; loads run in order. */
  load(ntriples: Body): Promise<void>;
  /** Drop what was loaded; the stage can no longer be committed. */
  discard(): Promise<void>;
}

export interface CommitOptions {
  /** fsync before resolving (default true). Progress updates of tasks skip it. */
  readonly durable?: boolean;
  /**
   * Stages whose graphs already hold exactly the content of this commit's put operation for
   * them: those operations are made durable but not loaded again.
   */
  readonly preloaded?: readonly StagedGraph[];
}

/** How the store's data were recovered at start (logged by main.ts). */
export interface OpenInfo {
  readonly lastSeq: number;
  readonly recoveredMs: number;
  readonly tornTail?: string;
  readonly compacted: boolean;
  /** Why the start-up compaction was due but not done (e.g. the disk is full); nothing was lost. */
  readonly compactionFailed?: string;
  /** Why the journal could not be opened for writing at start-up (e.g. a read-only disk). */
  readonly notWritable?: string;
  /** SPARQL store: replaced graphs of interrupted commits whose previous content had no local copy, so were dropped (lost). */
  readonly replacesLost?: number;
}

/** The store's figures: triples loaded in memory since the last renewal, current, the most allowed, renewals so far. */
export interface StoreCapacity {
  readonly loaded: number;
  readonly live: number;
  readonly max: number;
  readonly renewals: number;
}

export interface StoreBackend {
  has(graph: string): boolean;
  graphsWithPrefix(prefix: string): string[];
  /** Triples of a graph's current content (0 when it does not exist). */
  graphSize(graph: string): number;
  /** Where a graph's current content lies as N-Triples in a local file, when it does (large graphs are served from there). */
  storedBody(graph: string): BodyLocation | undefined;
  /** One graph serialised (small graphs only: larger ones are refused with 406). */
  dump(graph: string, format: DumpFormat): Promise<string>;
  commit(ops: readonly GraphOp[], options?: CommitOptions): Promise<number>;
  stage(graph: string): StagedGraph;
  read<T>(module: URL, name: string, args: readonly unknown[]): Promise<T>;
  capacity(): StoreCapacity;
  /** Run `build`, which may refuse with `ensureRoom`; when making room (a renewal) would let it fit, run it again. */
  withRoom<T>(build: () => T | Promise<T>): Promise<T>;
  /** Throw 507 unless `n` more triples fit (`whole` = the work's total, for the message). */
  ensureRoom(n: number, whole?: number, what?: string): void;
  readonly openInfo: OpenInfo;
  close(): Promise<void>;
}
