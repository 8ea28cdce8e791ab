/**
 * Entry point of a pool worker thread: receives `{id, kind, input}`, runs the registered job and
 * answers with progress messages and one `done` or `error` message (see pool.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import { toReport, toServiceError } from "../errors.ts";
import { jobs, type JobContext, type JobKind } from "./jobs/index.ts";
import { loadRDKit } from "../chem/rdkit.ts";
import { warmUp } from "../chem/warmup.ts";

interface Incoming {
  readonly id: number;
  readonly kind: JobKind;
  readonly input: unknown;
}

// Start and warm up RDKit now, not in the first job that needs it (see chem/warmup.ts), unless
// the pool runs no chemistry (the render pool).
if ((workerData as { rdkit?: boolean } | undefined)?.rdkit !== false) {
  void loadRDKit()
    .then((rdkit) => warmUp(rdkit))
    .catch(() => undefined);
}

const port = parentPort;
if (!port) throw new Error("worker.ts must run in a worker thread");

port.on("message", (msg: Incoming) => {
  let last = -1;
  const ctx: JobContext = {
    progress(fraction: number): void {
      const v = Math.max(0, Math.min(1, fraction));
      if (v - last >= 0.01 || v === 1) {
        last = v;
        port.postMessage({ id: msg.id, type: "progress", value: v });
      }
    },
  };
  const job = jobs[msg.kind] as (input: unknown, ctx: JobContext) => Promise<unknown> | unknown;
  Promise.resolve()
    .then(() => job(msg.input, ctx))
    .then(
      (output) => port.postMessage({ id: msg.id, type: "done", output }, transferables(output)),
      (err: unknown) => {
        if (!(err instanceof Error && "status" in err)) console.error(`job ${msg.kind} failed:`, err);
        port.postMessage({ id: msg.id, type: "error", report: toReport(toServiceError(err)) });
      },
    );
});

/** Large byte arrays of an output that own their whole buffer: moved to the main thread, not copied. */
function transferables(value: unknown, depth = 0, out: ArrayBuffer[] = []): ArrayBuffer[] {
  if (value instanceof Uint8Array) {
    const b = value.buffer;
    if (b instanceof ArrayBuffer && value.byteOffset === 0 && value.byteLength === b.byteLength && b.byteLength >= 64 * 1024 && !out.includes(b)) out.push(b);
  } else if (depth < 3 && value !== null && typeof value === "object") {
    for (const v of Array.isArray(value) ? value : Object.values(value)) transferables(v, depth + 1, out);
  }
  return out;
}
