/**
 * Entry of a short-lived worker thread that reads the current content of a data directory (the
 * operations a restart would load: disk.ts `recover` read-only, apply.ts `currentOps`) and
 * posts it back once, for a renewal of the writer's in-memory store (graph-store.ts "Renewal").
 * Reading and checking the journal is done here because it is synchronous: with a 1 GB record
 * of a deleted dataset in the journal it held the main thread for 4.3 s.
 *
 * Each body is copied into a buffer of its own and moved (transferred) to the main thread: a
 * view into a journal file would take the whole file with it.
 */
import { parentPort, workerData } from "node:worker_threads";
import { currentOps } from "./apply.ts";
import { recover } from "./disk.ts";
import type { GraphOp } from "./journal.ts";

export type FromCurrentWorker = { readonly ops: GraphOp[]; readonly lastSeq: number } | { readonly error: string };

const port = parentPort;
if (!port) throw new Error("current-worker.ts must run in a worker thread");
try {
  const ops: GraphOp[] = [];
  const moved: ArrayBuffer[] = [];
  const own = (body: string | Uint8Array): string | Uint8Array => {
    if (typeof body === "string") return body;
    const copy = new Uint8Array(body); // a copy (a Buffer's slice() would be a view)
    moved.push(copy.buffer as ArrayBuffer);
    return copy;
  };
  const { lastSeq } = recover(
    (workerData as { dir: string }).dir,
    (r, last) => {
      for (const op of currentOps(r.ops, last)) {
        if ("ntriples" in op) ops.push({ graph: op.graph, ntriples: own(op.ntriples) });
        else if ("nquads" in op) ops.push({ graphs: op.graphs, nquads: own(op.nquads) });
        else ops.push(op);
      }
    },
    true,
  );
  port.postMessage({ ops, lastSeq } satisfies FromCurrentWorker, moved);
} catch (err) {
  port.postMessage({ error: err instanceof Error ? err.message : String(err) } satisfies FromCurrentWorker);
}
