/**
 * Entry point of a pool worker thread: imports the pool's job module (`workerData.module`, see
 * job.ts `JobModule`), runs its set-up, says it is ready, then receives `{id, kind, input}`,
 * runs the job and answers with progress messages and one `done` or `error` message (see
 * pool.ts). After every job the module's `afterJob` may ask the pool to replace this worker
 * (algorithms/jobs.ts: when RDKit's WebAssembly memory grew past a threshold, as that memory
 * never shrinks and ending the thread is what returns it).
 */
import { parentPort, workerData } from "node:worker_threads";
import { toReport, toServiceError } from "../errors.ts";
import type { JobContext, JobModule } from "./job.ts";

interface Incoming {
  readonly id: number;
  readonly kind: string;
  readonly input: unknown;
}

const options = workerData as { module: string; setup: unknown };

const port = parentPort;
if (!port) throw new Error("worker.ts must run in a worker thread");

const loaded: Promise<JobModule> = import(options.module).then((m: JobModule) => m);
// Jobs are sent only after "ready": a job's time budget starts when it is handed over, not while
// the thread loads its module and sets up. A set-up that fails is the job's problem, not the thread's.
void loaded
  .then((m) => m.setUp?.(options.setup))
  .catch((err: unknown) => console.error("worker set-up failed:", err))
  .finally(() => port.postMessage({ type: "ready" }));

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
  const failed = (err: unknown): void => port.postMessage({ id: msg.id, type: "error", report: toReport(toServiceError(err)) });
  loaded.then((m) => {
    const after = (): { recycle?: true } => m.afterJob?.(msg.kind, options.setup) ?? {};
    const job = m.jobs[msg.kind] as ((input: unknown, ctx: JobContext) => unknown) | undefined;
    Promise.resolve()
      .then(() => {
        if (!job) throw new Error(`no job of kind ${msg.kind}`);
        return job(msg.input, ctx);
      })
      .then(
        (output) => port.postMessage({ id: msg.id, type: "done", output, ...after() }, transferables(output)),
        (err: unknown) => {
          if (!(err instanceof Error && "status" in err)) console.error(`job ${msg.kind} failed:`, err);
          port.postMessage({ id: msg.id, type: "error", report: toReport(toServiceError(err)), ...after() });
        },
      );
  }, failed);
});

/**
 * Large typed arrays of an output (bytes, the fingerprints' Int32Arrays) that own their whole
 * buffer: moved to the main thread, not copied — so a job must not return an array it keeps.
 */
function transferables(value: unknown, depth = 0, out: ArrayBuffer[] = []): ArrayBuffer[] {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const b = value.buffer;
    if (b instanceof ArrayBuffer && value.byteOffset === 0 && value.byteLength === b.byteLength && b.byteLength >= 64 * 1024 && !out.includes(b)) out.push(b);
  } else if (depth < 3 && value !== null && typeof value === "object") {
    for (const v of Array.isArray(value) ? value : Object.values(value)) transferables(v, depth + 1, out);
  }
  return out;
}
