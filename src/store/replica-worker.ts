/**
 * Entry of the SPARQL read replica's worker thread (see replica.ts for the protocol's other side).
 *
 * At start it builds its own Oxigraph store by replaying the data directory read-only (the same
 * `recover` + `applyOpsSync` as the writer; nothing on disk is touched), posts `ready` with the
 * last commit seq it loaded, then handles messages strictly in order:
 *
 *   {type:"record", seq, path, offset, length}
 *                                  a journal record the writer appended, read from the file and
 *                                  applied unless seq ≤ the last one loaded (records posted while
 *                                  loading are on disk too); a record that cannot be read (its
 *                                  segment was compacted away meanwhile) is a gap: reload
 *   {type:"query", id, request}    answered with `started`, then `result` (the serialised result as
 *                                  UTF-8 bytes whose buffer is transferred, so the main thread
 *                                  neither copies nor builds it) or `error` (an ErrorReport)
 *
 * A seq gap (seq > last + 1) means a commit was lost between disk and messages: the worker logs
 * it, posts `gap`, and ignores everything after, so the main thread replaces it. A WASM trap
 * during a query may leave the store inconsistent: the worker posts `fatal` and is replaced too.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import * as ox from "oxigraph";
import { toReport, toServiceError, type ErrorReport } from "../errors.ts";
import { applyOpsSync, currentOps } from "./apply.ts";
import { recover } from "./disk.ts";
import { decodeRecord, type DecodedRecord } from "./journal.ts";
import { executeQuery, type QueryRequest } from "./sparql-exec.ts";

export interface ReplicaWorkerData {
  /** None: an empty store (the SPARQL proxy's checks and result writing, sparql-proxy.ts). */
  readonly dataDir?: string;
  readonly maxResults: number;
}

export type ToReplica =
  | { readonly type: "record"; readonly seq: number; readonly path: string; readonly offset: number; readonly length: number }
  | { readonly type: "query"; readonly id: number; readonly request: QueryRequest };

export type FromReplica =
  | { readonly type: "ready"; readonly seq: number; readonly ms: number }
  | { readonly type: "load-error"; readonly message: string }
  | { readonly type: "gap"; readonly expected: number; readonly got: number }
  | { readonly type: "started"; readonly id: number }
  | { readonly type: "result"; readonly id: number; readonly contentType: string; readonly body: Uint8Array }
  | { readonly type: "error"; readonly id: number; readonly report: ErrorReport }
  | { readonly type: "fatal"; readonly id: number; readonly message: string };

const port = parentPort;
if (!port) throw new Error("replica-worker.ts must run in a worker thread");
const { dataDir, maxResults } = workerData as ReplicaWorkerData;

const store = new ox.Store();
const graphs = new Set<string>();
let lastSeq = 0;
let broken = false;

function apply(r: DecodedRecord): void {
  applyOpsSync(store, graphs, r.ops);
}

function readRecord(path: string, offset: number, length: number): Buffer | null {
  try {
    const fd = openSync(path, "r");
    try {
      const buf = Buffer.allocUnsafe(length);
      let got = 0;
      while (got < length) {
        const n = readSync(fd, buf, got, length - got, offset + got);
        if (n === 0) return null;
        got += n;
      }
      return buf;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

function onRecord(seq: number, path: string, offset: number, length: number): void {
  if (seq <= lastSeq) return;
  if (seq !== lastSeq + 1) {
    console.error(`SPARQL replica: commit ${seq} arrived after ${lastSeq}; commits are missing, restarting the replica`);
    broken = true;
    port!.postMessage({ type: "gap", expected: lastSeq + 1, got: seq } satisfies FromReplica);
    return;
  }
  const record = readRecord(path, offset, length);
  if (!record) {
    console.error(`SPARQL replica: commit ${seq} could not be read from ${path}; restarting the replica`);
    broken = true;
    port!.postMessage({ type: "gap", expected: seq, got: seq } satisfies FromReplica);
    return;
  }
  const rec = decodeRecord(record);
  apply(rec);
  lastSeq = seq;
}

function onQuery(id: number, request: QueryRequest): void {
  port!.postMessage({ type: "started", id } satisfies FromReplica);
  try {
    const { contentType, body } = executeQuery(store, request, maxResults);
    // TextEncoder gives a buffer of its own (Buffer.from may slice a shared pool): safe to transfer.
    const bytes = new TextEncoder().encode(body);
    port!.postMessage({ type: "result", id, contentType, body: bytes } satisfies FromReplica, [bytes.buffer]);
  } catch (err) {
    if (err instanceof WebAssembly.RuntimeError) {
      broken = true;
      port!.postMessage({ type: "fatal", id, message: err.message } satisfies FromReplica);
      return;
    }
    if (!(err instanceof Error && "status" in err)) console.error("SPARQL replica: query failed:", err);
    port!.postMessage({ type: "error", id, report: toReport(toServiceError(err)) } satisfies FromReplica);
  }
}

const t0 = performance.now();
try {
  // What is written again later is not loaded (apply.ts currentOps).
  if (dataDir !== undefined) lastSeq = recover(dataDir, (r, last) => applyOpsSync(store, graphs, currentOps(r.ops, last)), true).lastSeq;
} catch (err) {
  broken = true;
  port.postMessage({ type: "load-error", message: err instanceof Error ? err.message : String(err) } satisfies FromReplica);
}

if (!broken) {
  port.on("message", (msg: ToReplica) => {
    if (broken) return;
    if (msg.type === "record") onRecord(msg.seq, msg.path, msg.offset, msg.length);
    else onQuery(msg.id, msg.request);
  });
  port.postMessage({ type: "ready", seq: lastSeq, ms: performance.now() - t0 } satisfies FromReplica);
}
