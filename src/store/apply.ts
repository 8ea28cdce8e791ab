/**
 * Applying committed graph operations to an in-memory Oxigraph store — shared by the store's
 * thread (memory-worker.ts), recovery and the SPARQL read replica, so that all of them hold the
 * same graphs.
 *
 * Loads go through Oxigraph's parsers (text loading stays linear; quads built with Oxigraph's own
 * term functions do not), in slices of ~512 KB: measured on MuV's 1.8M-quad dataset graph, one
 * `load` call took 12.8 s, 2 MB slices with `lenient` + `no_transaction` 4.9 s (≈200 ms a slice),
 * and its 93k compound graphs as one N-Quads call 28 s against 2.2 s in slices. Small slices also
 * let the store's thread answer reads between them (memory-thread.ts posts them). The data is our own, validated when
 * it was written, hence `lenient` and `no_transaction`; visibility is controlled by the caller.
 * Graphs are cleared with SPARQL `DROP` (a 32k-quad graph: 9 ms, against ≈700 ms deleting quad
 * by quad).
 */
import * as ox from "oxigraph";
import { bodyOf, bytesOf, graphsOf, type Body, type GraphOp } from "./journal.ts";

const SLICE_BYTES = 512 * 1024;
/** Graphs dropped per SPARQL update. */
const DROP_BATCH = 500;

/** IRIs written into an update: our own graph names, checked to hold nothing that could escape. */
function iriRef(iri: string): string {
  if (/[<>"{}|\\^`\s]/.test(iri)) throw new Error(`not a valid graph IRI: ${iri}`);
  return `<${iri}>`;
}

export function clearGraphs(store: ox.Store, graphs: readonly string[]): void {
  if (graphs.length === 0) return;
  store.update(graphs.map((g) => `DROP SILENT GRAPH ${iriRef(g)}`).join(" ;\n"));
}

/**
 * Cut a body into slices of whole lines (views, no copies) of about `size()` bytes each
 * (SLICE_BYTES by default; asked again before each slice).
 */
export function* slices(body: Body, size: () => number = () => SLICE_BYTES): Generator<Uint8Array> {
  const bytes = bytesOf(body);
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(bytes.length, start + size());
    if (end < bytes.length) {
      const nl = bytes.indexOf(10, end);
      end = nl < 0 ? bytes.length : nl + 1;
    }
    yield bytes.subarray(start, end);
    start = end;
  }
}

/** True when the operation leaves its graph(s) with content. */
export function fills(op: GraphOp): boolean {
  return bodyOf(op).length > 0;
}

export function loadBytes(store: ox.Store, op: GraphOp, bytes: Uint8Array): void {
  if ("graphs" in op) store.load(bytes, { format: "application/n-quads", lenient: true, no_transaction: true });
  else if (!("delete" in op)) store.load(bytes, { format: "application/n-triples", to_graph_name: ox.namedNode(op.graph), lenient: true, no_transaction: true });
}

/** Clear graphs, DROP_BATCH per update. */
function dropGraphs(store: ox.Store, graphs: readonly string[]): void {
  for (let i = 0; i < graphs.length; i += DROP_BATCH) clearGraphs(store, graphs.slice(i, i + DROP_BATCH));
}

/** Apply one operation: clear those of its graphs that may hold data (`exists`), load its body in slices. */
export function applyOpSync(store: ox.Store, op: GraphOp, exists: (g: string) => boolean): void {
  dropGraphs(store, graphsOf(op).filter(exists));
  if (fills(op)) for (const s of slices(bodyOf(op))) loadBytes(store, op, s);
}

/** Record in `graphs` which graphs exist after an operation. */
export function track(graphs: Set<string>, op: GraphOp): void {
  const present = fills(op);
  for (const g of graphsOf(op)) {
    if (present) graphs.add(g);
    else graphs.delete(g);
  }
}

/** Apply a record's operations synchronously, keeping `graphs` (the graphs that exist) up to date. */
export function applyOpsSync(store: ox.Store, graphs: Set<string>, ops: readonly GraphOp[]): void {
  const exists = (g: string): boolean => graphs.has(g);
  for (const op of ops) {
    applyOpSync(store, op, exists);
    track(graphs, op);
  }
}

/**
 * Visit the statements of an N-Quads body as this service writes it (one statement per line,
 * its graph an IRI at the end of the line): `visit(graph, start, end)` with the line's byte
 * range. Consecutive lines of one graph are compared as bytes, not decoded again.
 */
function forEachQuadLine(bytes: Buffer, visit: (graph: string, start: number, end: number) => void): void {
  let prevStart = -1;
  let prevEnd = -1;
  let prevName = "";
  for (let start = 0; start < bytes.length; ) {
    let end = bytes.indexOf(10, start);
    if (end < 0) end = bytes.length;
    const close = bytes.lastIndexOf(62, end); // '>' of the graph IRI
    const open = close > start ? bytes.lastIndexOf(60, close) : -1; // its '<'
    if (open >= start) {
      if (prevStart < 0 || close - open !== prevEnd - prevStart || bytes.compare(bytes, prevStart, prevEnd, open, close) !== 0) {
        prevName = bytes.toString("utf8", open + 1, close);
      }
      prevStart = open;
      prevEnd = close;
      visit(prevName, start, end);
    }
    start = end + 1;
  }
}

/** A body as a Buffer (a view, not a copy, of a byte body), for Buffer's search methods. */
function bufferOf(body: Body): Buffer {
  const b = bytesOf(body);
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

/** Statements per graph of an N-Quads body. */
export function statementsPerGraph(nquads: Body): Map<string, number> {
  const out = new Map<string, number>();
  forEachQuadLine(bufferOf(nquads), (g) => out.set(g, (out.get(g) ?? 0) + 1));
  return out;
}

/**
 * The part of a record's operations that is still current at the end of a replay: `last(i, g)`
 * says whether operation i is the last one that writes graph g (disk.ts `recover`). An
 * operation none of whose graphs is current is dropped; a several-graph N-Quads put keeps only
 * the lines of its current graphs (a whole-store snapshot is one such put).
 */
export function currentOps(ops: readonly GraphOp[], last: (op: number, graph: string) => boolean): GraphOp[] {
  const out: GraphOp[] = [];
  ops.forEach((op, i) => {
    const graphs = graphsOf(op);
    const keep = graphs.filter((g) => last(i, g));
    if (keep.length === graphs.length) out.push(op);
    else if (keep.length > 0 && "graphs" in op) {
      const wanted = new Set(keep);
      const bytes = bufferOf(op.nquads);
      const parts: Buffer[] = [];
      forEachQuadLine(bytes, (g, start, end) => {
        if (wanted.has(g)) parts.push(bytes.subarray(start, Math.min(end + 1, bytes.length)));
      });
      out.push({ graphs: keep, nquads: Buffer.concat(parts) });
    }
  });
  return out;
}

/**
 * Run `fn` on a temporary Oxigraph store and free it right after. A temporary store lives in the
 * same WebAssembly memory as the main one (one module instance per thread), and an unfreed one
 * holds its memory until the garbage collector finalises it.
 */
export function withTemporaryStore<T>(fn: (s: ox.Store) => T, quads?: Iterable<ox.Quad>): T {
  const s = quads === undefined ? new ox.Store() : new ox.Store([...quads]);
  try {
    return fn(s);
  } finally {
    (s as unknown as { free(): void }).free();
  }
}
