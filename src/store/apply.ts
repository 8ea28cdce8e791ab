/**
 * Applying committed graph operations to an in-memory Oxigraph store — shared by the writer
 * (main thread), recovery and the SPARQL read replica, so that all of them hold the same graphs.
 *
 * Loads go through Oxigraph's N-Triples parser (text loading stays linear; quads built with
 * Oxigraph's own term functions do not), in slices of ~2 MB so that a large commit can yield
 * to the event loop between slices. The data is our own, already validated when it was written,
 * hence `lenient` and `no_transaction`; visibility is controlled by the caller.
 */
import * as ox from "oxigraph";
import type { GraphOp } from "./journal.ts";

const SLICE_BYTES = 2 * 1024 * 1024;

export function clearGraph(store: ox.Store, graph: string): void {
  const g = ox.namedNode(graph);
  const quads = store.match(null, null, null, g);
  for (const q of quads) store.delete(q);
}

function loadSlice(store: ox.Store, g: ox.NamedNode, text: string): void {
  store.load(text, { format: "application/n-triples", to_graph_name: g, lenient: true, no_transaction: true });
}

/** Cut N-Triples text into slices of whole lines of about SLICE_BYTES characters. */
export function* slices(ntriples: string): Generator<string> {
  let start = 0;
  while (start < ntriples.length) {
    let end = Math.min(ntriples.length, start + SLICE_BYTES);
    if (end < ntriples.length) {
      const nl = ntriples.indexOf("\n", end);
      end = nl < 0 ? ntriples.length : nl + 1;
    }
    yield ntriples.slice(start, end);
    start = end;
  }
}

/**
 * Apply one operation. `exists` says whether the graph may already hold quads (a fresh graph need
 * not be cleared). With `pause`, large bodies are loaded slice by slice with a pause in between.
 */
export async function applyOp(store: ox.Store, op: GraphOp, exists: boolean, pause?: () => Promise<void>): Promise<void> {
  if (exists) clearGraph(store, op.graph);
  if ("delete" in op || op.ntriples.length === 0) return;
  const g = ox.namedNode(op.graph);
  if (!pause || op.ntriples.length <= SLICE_BYTES) {
    loadSlice(store, g, op.ntriples);
    return;
  }
  for (const s of slices(op.ntriples)) {
    loadSlice(store, g, s);
    await pause();
  }
}

/** Synchronous variant for recovery (nothing else runs yet). */
export function applyOpSync(store: ox.Store, op: GraphOp, exists: boolean): void {
  if (exists) clearGraph(store, op.graph);
  if ("delete" in op || op.ntriples.length === 0) return;
  loadSlice(store, ox.namedNode(op.graph), op.ntriples);
}
