/**
 * Entry point of a pool worker thread: receives `{id, kind, input}`, runs the registered job and
 * answers with progress messages and one `done` or `error` message (see pool.ts).
 *
 * After every job the thread's RDKit is checked (a tiny parse; a broken instance is dropped, so
 * the next job gets a fresh one), and when the job left RDKit's WebAssembly memory larger than
 * the pool's threshold (`workerData.recycleWasmBytes`, default RECYCLE_WASM_BYTES in
 * chem/limits.ts) the answer asks the pool to replace this worker: that memory never shrinks,
 * and ending the thread is what returns it.
 */
import { parentPort, workerData } from "node:worker_threads";
import { toReport, toServiceError } from "../errors.ts";
import { jobs, type JobContext, type JobKind } from "../jobs.ts";
import { checkRDKit, loadRDKit, wasmMemoryBytes } from "../chem/rdkit.ts";
import { warmUp } from "../chem/warmup.ts";

interface Incoming {
  readonly id: number;
  readonly kind: JobKind;
  readonly input: unknown;
}

const options = workerData as { recycleWasmBytes: number; rdkit: boolean };
const recycleWasmBytes = options.recycleWasmBytes;

const port = parentPort;
if (!port) throw new Error("worker.ts must run in a worker thread");

// Start and warm up RDKit now, not in the first job that needs it (see chem/warmup.ts), unless
// the pool runs no chemistry (the render pool); then tell the pool that jobs may come (a job's
// time budget starts when it is handed over).
if (options.rdkit) {
  void loadRDKit()
    .then((rdkit) => warmUp(rdkit))
    .catch(() => undefined)
    .finally(() => port.postMessage({ type: "ready" }));
} else port.postMessage({ type: "ready" });

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
      (output) => port.postMessage({ id: msg.id, type: "done", output, ...afterJob(msg.kind) }, transferables(output)),
      (err: unknown) => {
        if (!(err instanceof Error && "status" in err)) console.error(`job ${msg.kind} failed:`, err);
        port.postMessage({ id: msg.id, type: "error", report: toReport(toServiceError(err)), ...afterJob(msg.kind) });
      },
    );
});

/** The toolkit check after a job; `recycle` when its memory grew past the threshold. */
function afterJob(kind: JobKind): { recycle?: true } {
  if (!checkRDKit()) console.error(`job ${kind} left RDKit unusable; it was replaced`);
  const bytes = wasmMemoryBytes();
  if (bytes <= recycleWasmBytes) return {};
  console.error(`job ${kind} grew RDKit's memory to ${Math.round(bytes / 2 ** 20)} MiB; the worker is replaced to return it`);
  return { recycle: true };
}

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
