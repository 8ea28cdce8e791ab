/**
 * The writer's in-memory store, in a thread of its own (memory-worker.ts is the thread).
 *
 * Why. Oxigraph's in-memory indexes grow by doubling: the load that crosses a threshold rehashes
 * everything loaded before, so its time grows with the store, not with the load (measured on
 * the main thread: a 5,000-triple slice took 168 ms at 460k triples in the store, 345 ms at
 * 920k). No slicing on the main thread removes that, and it stalled every request behind it.
 * Here the main thread only posts work and awaits answers: loads, index growth, reads and
 * serialisations of the store cost it nothing but copying the slices it posts.
 *
 * Protocol (the thread handles messages in order; see memory-worker.ts):
 * - a put or delete is `clear` of the graphs that may hold data, then the body in `slice`s of
 *   whole lines (each copied into a buffer of its own and transferred: posting a view would
 *   copy the whole buffer behind it), then `done`, whose answer says all of it is applied;
 * - reads (`read`, `dump`, `stats`) are answered at once, between slices of a load under way,
 *   and see every write whose `done` was answered before they were posted;
 * - `renew` builds a new store from the current content read from disk while reads go on from
 *   the old one.
 *
 * Faults. A WebAssembly trap in the thread leaves its store suspect: the answer says so
 * (`fatal`), and so does the thread's death; either way every call waiting fails, and the
 * thread is replaced by a new one that loads the data directory as a restart would (`onLost`
 * tells the store, which drops what it had loaded ahead and was not on disk).
 */
import type { Worker } from "node:worker_threads";
import { moduleUrl, REQUEST_NICE, spawnWorker } from "../threads/spawn.ts";
import { fills, slices } from "./apply.ts";
import { bodyOf, type GraphOp } from "./journal.ts";
import type { FromMemory, MemoryStats, ToMemory } from "./memory-worker.ts";

const WORKER_URL = moduleUrl("./memory-worker.ts", import.meta.url);
/**
 * Bytes of a load posted before waiting for the thread to apply them: a read posted meanwhile
 * waits for at most this much loading (plus the slice under way), and the main thread copies no
 * more than this per turn of its event loop.
 */
const POST_BYTES_AHEAD = 1024 * 1024;
/**
 * Bytes per slice posted: a read waits for the slice under way (512 KB slices took 100–550 ms
 * each on a busy machine, measured on the main thread before), while much smaller ones load
 * slower per byte.
 */
const POST_SLICE_BYTES = 128 * 1024;
/** Graphs cleared per message. */
const DROP_GRAPHS = 500;

export class MemoryThreadLost extends Error {}

export class MemoryThread {
  private worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private closed = false;
  /** The thread is being replaced: calls wait for the new one. */
  private replacing: Promise<void> | undefined;

  private constructor(
    private readonly dir: string,
    private readonly onLost: (why: string) => void,
  ) {
    this.worker = this.spawn();
  }

  /** Start the thread and load the data directory's current content into it; resolves with the last commit seq it loaded. */
  static async start(dir: string, onLost: (why: string) => void): Promise<{ thread: MemoryThread; lastSeq: number }> {
    const t = new MemoryThread(dir, onLost);
    const lastSeq = await t.call<number>({ type: "open", id: 0, dir });
    return { thread: t, lastSeq };
  }

  private spawn(): Worker {
    const w = spawnWorker(WORKER_URL, {}, REQUEST_NICE);
    w.on("message", (m: FromMemory) => {
      const p = this.waiting.get(m.id);
      if (!p) return;
      this.waiting.delete(m.id);
      if (this.waiting.size === 0) w.unref(); // an idle store does not keep the process alive
      if (m.type === "ok") p.resolve(m.value);
      else {
        p.reject(new Error(m.message));
        if (m.fatal) void this.replace(`a WebAssembly trap in the store's thread: ${m.message}`);
      }
    });
    w.on("error", (err) => void this.replace(`the store's thread failed: ${err.message}`));
    w.on("exit", (code) => {
      if (!this.closed && w === this.worker) void this.replace(`the store's thread exited with code ${code}`);
    });
    w.unref();
    return w;
  }

  /** Fail every waiting call, then start a new thread that loads the data directory (see "Faults"). */
  private replace(why: string): Promise<void> {
    if (this.closed || this.replacing) return this.replacing ?? Promise.resolve();
    console.error(`${why}; the store's thread is replaced and reloads the data directory`);
    const old = this.worker;
    for (const p of this.waiting.values()) p.reject(new MemoryThreadLost(why));
    this.waiting.clear();
    this.replacing = (async () => {
      await old.terminate().catch(() => undefined);
      this.worker = this.spawn();
      this.onLost(why);
      await this.post<number>({ type: "open", id: 0, dir: this.dir });
    })()
      .catch((err: unknown) => console.error(`the store's thread could not be replaced: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        this.replacing = undefined;
      });
    return this.replacing;
  }

  private post<T>(msg: ToMemory & { id: number }, transfer: ArrayBuffer[] = []): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.ref();
      this.worker.postMessage({ ...msg, id }, transfer);
    });
  }

  private async call<T>(msg: ToMemory & { id: number }, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.closed) throw new Error("store is closed");
    while (this.replacing) await this.replacing;
    return this.post<T>(msg, transfer);
  }

  /**
   * Apply one operation: clear `existing` (its graphs that may hold data), load its body. With
   * `stop`, loading ends early (rejecting) when it returns an error (a commit whose record the
   * disk refused). Resolves once the thread has applied all of it.
   */
  async apply(op: GraphOp, existing: readonly string[], stop?: () => Error | undefined): Promise<void> {
    while (this.replacing) await this.replacing;
    if (this.closed) throw new Error("store is closed");
    const w = this.worker;
    // DROP_GRAPHS per update: one update of 90k DROPs (an upload's compounds) takes long in one piece.
    for (let i = 0; i < existing.length; i += DROP_GRAPHS) w.postMessage({ type: "clear", graphs: existing.slice(i, i + DROP_GRAPHS) } satisfies ToMemory);
    if (fills(op)) {
      const graph = "graphs" in op ? undefined : op.graph;
      let posted = 0;
      for (const view of slices(bodyOf(op), () => POST_SLICE_BYTES)) {
        const own = new Uint8Array(view); // a copy of its own, transferred (and detached here by that)
        posted += own.length;
        w.postMessage({ type: "slice", ...(graph === undefined ? {} : { graph }), bytes: own } satisfies ToMemory, [own.buffer as ArrayBuffer]);
        if (posted >= POST_BYTES_AHEAD) {
          // Wait until the thread has applied them: at most this much is queued ahead of a read.
          posted = 0;
          await this.post<null>({ type: "done", id: 0 });
          const err = stop?.();
          if (err) throw err;
          if (w !== this.worker) throw new MemoryThreadLost("the store's thread was replaced during a load");
        }
      }
    }
    if (w !== this.worker) throw new MemoryThreadLost("the store's thread was replaced during a load");
    await this.post<null>({ type: "done", id: 0 });
  }

  /** Clear graphs. */
  async drop(graphs: readonly string[]): Promise<void> {
    if (graphs.length === 0) return;
    await this.apply({ graphs, nquads: "" }, graphs);
  }

  read<T>(module: string, name: string, args: readonly unknown[]): Promise<T> {
    return this.call<T>({ type: "read", id: 0, module, name, args });
  }

  dump(graph: string, format: string): Promise<string> {
    return this.call<string>({ type: "dump", id: 0, graph, format });
  }

  /** Quads in memory (garbage included) and the thread's Oxigraph instances. */
  stats(): Promise<MemoryStats> {
    return this.call<MemoryStats>({ type: "stats", id: 0 });
  }

  /** Replace the store by one holding `ops` (the current content); resolves with the triples loaded. The bodies' buffers are moved to the thread. */
  renew(ops: readonly GraphOp[]): Promise<number> {
    const moved: ArrayBuffer[] = [];
    for (const op of ops) {
      const b = bodyOf(op);
      if (typeof b !== "string" && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && !moved.includes(b.buffer as ArrayBuffer)) moved.push(b.buffer as ArrayBuffer);
    }
    return this.call<number>({ type: "renew", id: 0, ops }, moved);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.waiting.values()) p.reject(new Error("store is closed"));
    this.waiting.clear();
    await this.worker.terminate();
  }
}
