/**
 * Entry of a short-lived worker thread that serialises one graph from its body in the SPARQL
 * backend's local cache (body-cache.ts) with Oxigraph's writer, as the embedded store's thread
 * dumps it (sparql-store.ts `dump`): loading and dumping 20,000 triples took 0.5–1.5 s here
 * (a loaded 2-core machine), far too long for the main thread.
 */
import { parentPort, workerData } from "node:worker_threads";
import { readFileSync } from "node:fs";
import { dumpBody } from "./dump-body.ts";

export interface DumpJob {
  readonly path: string;
  readonly offset: number;
  readonly length: number;
  readonly graph: string;
  readonly format: string;
}
export type FromDumpWorker = { readonly text: string } | { readonly error: string };

const port = parentPort;
if (!port) throw new Error("dump-worker.ts must run in a worker thread");
try {
  const job = workerData as DumpJob;
  const bytes = job.length === 0 ? new Uint8Array(0) : readFileSync(job.path).subarray(job.offset, job.offset + job.length);
  port.postMessage({ text: dumpBody(bytes, job.graph, job.format) } satisfies FromDumpWorker);
} catch (err) {
  port.postMessage({ error: err instanceof Error ? err.message : String(err) } satisfies FromDumpWorker);
}
