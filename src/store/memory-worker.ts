/**
 * Entry of the store's own thread: it holds the writer's in-memory Oxigraph store, so that no
 * load, index growth or read of it runs on the main thread (memory-thread.ts is the other side
 * and describes the protocol). Messages are handled in arrival order; every one but `renew`
 * is synchronous, so a read that arrives between two slices of a load runs between them, and
 * sees everything whose `done` was answered before the read was sent.
 *
 *   {type:"open", id, dir}          load the data directory's current content (read-only replay,
 *                                   as a restart does); answered with its last commit seq
 *   {type:"clear", graphs}          drop graphs (the start of a put, or a delete)
 *   {type:"slice", graph|nquads, bytes}  load a slice of a body (whole lines; its own buffer)
 *   {type:"done", id}               answered once every write before it is applied
 *   {type:"read", id, module, name, args}  a named read of a reads module (GraphStore `read`)
 *   {type:"dump", id, graph, format}  one graph serialised by Oxigraph's writer
 *   {type:"stats", id}              quads in memory (garbage included) and Oxigraph instances not yet collected
 *   {type:"renew", id, ops}         build a new store from `ops` (the current content read from
 *                                   disk), reads still answered from the old one between its
 *                                   slices; then swap, drop the old one with its instance, and
 *                                   collect it (full collections from 2 s to 60 s after);
 *                                   answered with the triples loaded. Writes that arrive
 *                                   meanwhile wait for the swap.
 *
 * Answers: {type:"ok", id, value} or {type:"failed", id, message, fatal}. `fatal` = a WebAssembly
 * trap: the store may be inconsistent and the main thread replaces this thread.
 */
import { parentPort } from "node:worker_threads";
import * as ox from "oxigraph";
import { applyOpsSync, clearGraphs, currentOps, loadBytes, slices, track } from "./apply.ts";
import { recover } from "./disk.ts";
import { bodyOf, countStatements, type GraphOp } from "./journal.ts";
import { collectDropped, newOxigraphInstance, oxigraphInstancesAlive } from "./oxigraph-instance.ts";
import { checkPlain } from "./plain-data.ts";
import type { ReadsModule } from "./graph-store.ts";

export type ToMemory =
  | { readonly type: "open"; readonly id: number; readonly dir: string }
  | { readonly type: "clear"; readonly graphs: readonly string[] }
  | { readonly type: "slice"; readonly graph?: string; readonly bytes: Uint8Array }
  | { readonly type: "done"; readonly id: number }
  | { readonly type: "read"; readonly id: number; readonly module: string; readonly name: string; readonly args: readonly unknown[] }
  | { readonly type: "dump"; readonly id: number; readonly graph: string; readonly format: string }
  | { readonly type: "stats"; readonly id: number }
  | { readonly type: "renew"; readonly id: number; readonly ops: readonly GraphOp[] };

export interface MemoryStats {
  /** Quads in the store, replaced and deleted data included until a renewal. */
  readonly quads: number;
  /** Oxigraph instances of this thread not yet collected (1 but shortly after a renewal). */
  readonly instances: number;
}

export type FromMemory = { readonly type: "ok"; readonly id: number; readonly value: unknown } | { readonly type: "failed"; readonly id: number; readonly message: string; readonly fatal: boolean };

/** When, after a renewal, a full collection releases the old store's instance (graph-store.ts "Renewal"). */
const COLLECT_AFTER_RENEWAL_MS = [2_000, 5_000, 10_000, 15_000, 20_000, 30_000, 60_000];

const port = parentPort;
if (!port) throw new Error("memory-worker.ts must run in a worker thread");

/** An empty store in an Oxigraph instance of its own (oxigraph-instance.ts): its memory goes with it. */
function newStore(): ox.Store {
  return new (newOxigraphInstance().Store)();
}

let store = newStore();
let renewing = false;
let renewals = 0;
/** Writes that arrived during a renewal, applied after the swap. */
const held: ToMemory[] = [];
const modules = new Map<string, Promise<ReadsModule>>();

function answer(id: number, value: unknown, transfer: ArrayBuffer[] = []): void {
  port!.postMessage({ type: "ok", id, value } satisfies FromMemory, transfer);
}

function fail(id: number, err: unknown): void {
  const fatal = err instanceof WebAssembly.RuntimeError;
  port!.postMessage({ type: "failed", id, message: err instanceof Error ? err.message : String(err), fatal } satisfies FromMemory);
}

function write(msg: ToMemory): void {
  if (msg.type === "clear") clearGraphs(store, msg.graphs);
  else if (msg.type === "slice") {
    const op: GraphOp = msg.graph === undefined ? { graphs: [], nquads: msg.bytes } : { graph: msg.graph, ntriples: msg.bytes };
    loadBytes(store, op, msg.bytes);
  } else if (msg.type === "done") answer(msg.id, null);
}

/** Reads modules loaded so far (a read of a loaded module runs at once, between two messages). */
const loaded = new Map<string, ReadsModule>();

function read(msg: Extract<ToMemory, { type: "read" }>): void {
  const mod = loaded.get(msg.module);
  if (!mod) {
    let m = modules.get(msg.module);
    if (!m) modules.set(msg.module, (m = import(msg.module) as Promise<ReadsModule>));
    m.then((x) => {
      loaded.set(msg.module, x);
      read(msg);
    }).catch((err: unknown) => fail(msg.id, err));
    return;
  }
  const value = mod.run(store, msg.name, msg.args);
  checkPlain(value, `read ${msg.name}`);
  answer(msg.id, value);
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function renew(msg: Extract<ToMemory, { type: "renew" }>): Promise<void> {
  renewing = true;
  try {
    const fresh = newStore();
    const graphs = new Set<string>();
    let count = 0;
    for (const op of msg.ops) {
      const existing = ("graphs" in op ? op.graphs : [op.graph]).filter((g) => graphs.has(g));
      if (existing.length > 0) clearGraphs(fresh, existing);
      for (const s of slices(bodyOf(op))) {
        loadBytes(fresh, op, s);
        await turn(); // reads go on from the old store between slices
      }
      track(graphs, op);
      count += countStatements(bodyOf(op));
    }
    // The old store is dropped, not freed (graph-store.ts "Renewal").
    store = fresh;
    renewals++;
    answer(msg.id, count);
    const renewal = renewals;
    for (const ms of COLLECT_AFTER_RENEWAL_MS) {
      setTimeout(() => {
        if (renewals !== renewal) return;
        const took = collectDropped();
        if (process.env.QSARGRAPH_TIMING) console.error(`store: full garbage collection ${ms / 1000} s after the renewal in ${Math.round(took)} ms (Oxigraph instances not yet finalised: ${oxigraphInstancesAlive()})`);
      }, ms).unref();
    }
  } finally {
    renewing = false;
    for (const w of held.splice(0)) handle(w);
  }
}

function handle(msg: ToMemory): void {
  const id = "id" in msg ? msg.id : -1;
  try {
    switch (msg.type) {
      case "open": {
        const graphs = new Set<string>();
        const { lastSeq } = recover(msg.dir, (r, last) => applyOpsSync(store, graphs, currentOps(r.ops, last)), true);
        answer(msg.id, lastSeq);
        return;
      }
      case "read":
        read(msg);
        return;
      case "dump":
        answer(msg.id, store.dump({ format: msg.format as "application/n-triples", from_graph_name: ox.namedNode(msg.graph) }));
        return;
      case "stats":
        answer(msg.id, { quads: store.size, instances: oxigraphInstancesAlive() } satisfies MemoryStats);
        return;
      case "renew":
        if (renewing) throw new Error("a renewal is under way");
        renew(msg).catch((err: unknown) => fail(msg.id, err));
        return;
      default:
        if (renewing) held.push(msg);
        else write(msg);
    }
  } catch (err) {
    if (id >= 0) fail(id, err);
    else {
      // A write without an answer of its own: the next `done` reports it.
      pendingFailure ??= err;
    }
  }
}

/** A failed write, reported by the next `done` (and the writes between are skipped). */
let pendingFailure: unknown;

port.on("message", (msg: ToMemory) => {
  if (pendingFailure !== undefined && (msg.type === "clear" || msg.type === "slice" || msg.type === "done")) {
    if (msg.type === "done") {
      const err = pendingFailure;
      pendingFailure = undefined;
      fail(msg.id, err);
    }
    return;
  }
  handle(msg);
});
