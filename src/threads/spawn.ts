/**
 * Starting a worker thread whose entry is a TypeScript file, run through tsx like the main thread.
 *
 * On Node 20 a worker given `execArgv: ["--import", "tsx"]` still fails on its `.ts` entry
 * ("Unknown file extension .ts"): the loader hooks are not applied to the worker's entry module.
 * So the worker starts from a two-line JavaScript bootstrap (`eval`) that loads the entry with
 * tsx's `tsImport`, which also compiles everything the entry imports. The `--test*` flags of
 * node's test runner are not passed on (a worker is not a test file). Used by the SPARQL read
 * replica, the worker pools (tasks/pool.ts; RFE's resamples are pool jobs) and the store's reader
 * for a renewal.
 *
 * Priority. Every worker thread sets its own scheduling priority (Linux: a thread's nice value
 * is its own, set with setpriority on its thread id from /proc/thread-self) to the main thread's
 * plus `nice` (default WORKER_NICE) before it loads anything — relative to the main thread, not
 * to its own, so that lowering the helper threads (`lowerHelperThreads`) before or after a
 * worker starts gives the same result. The main thread, which answers every request, then gets
 * a core first when the workers keep both busy: on the 2-core machine, with four busy workers,
 * it otherwise waited for a core for up to a second (an event-loop "stall" in which it used
 * little CPU, bench/availability.ts). Where a thread's priority cannot be changed (not Linux, or
 * already at the lowest) it runs as it is.
 */
import { readdirSync, readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { Worker, type WorkerOptions } from "node:worker_threads";

const TSX_API = import.meta.resolve("tsx/esm/api");

export function tsWorkerExecArgv(): string[] {
  return process.execArgv.filter((a) => !a.startsWith("--test"));
}

/** How much lower than the main thread a worker thread runs by default (nice value; 19 is the lowest): task jobs. */
export const WORKER_NICE = 10;
/** Workers that answer a waiting request (structures, renders, SPARQL): below the main thread, above task jobs. */
export const REQUEST_NICE = 5;

/** The worker's first lines: lower this thread's priority by `nice` (see the module comment). */
function lowerPriority(nice: number): string {
  if (nice <= 0) return "Promise.resolve()";
  return `Promise.all([import("node:os"), import("node:fs")]).then(([os, fs]) => {
    try {
      const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
      if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, Math.min(19, os.getPriority(process.pid) + ${nice}));
    } catch {}
  })`;
}

/** `new Worker(entry)` for a `.ts` entry file (a `file:` URL), compiled by tsx, at a priority `nice` below the main thread's. */
export function spawnTsWorker(entry: URL, options: Omit<WorkerOptions, "execArgv" | "eval"> = {}, nice = WORKER_NICE): Worker {
  const load = `import(${JSON.stringify(TSX_API)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(import.meta.url)}))`;
  const bootstrap = `${lowerPriority(nice)}.then(() => ${load});`;
  return new Worker(bootstrap, { ...options, eval: true, execArgv: tsWorkerExecArgv() });
}

/**
 * Lower the priority of this process's helper threads by `nice`: every thread other than the
 * calling (main) thread that still runs at the main thread's priority — V8's platform threads
 * (garbage collection and compilation for every isolate, the workers' included) and libuv's
 * thread pool. Worker threads lower themselves at their start and are left as they are. Linux
 * only (/proc/self/task); elsewhere, or where a priority cannot be changed, nothing happens.
 * Returns how many threads were lowered.
 */
export function lowerHelperThreads(nice: number): number {
  if (nice <= 0) return 0;
  let lowered = 0;
  try {
    const main = Number(readlinkSync("/proc/thread-self").split("/").pop());
    const base = getPriority(main);
    for (const name of readdirSync("/proc/self/task")) {
      const tid = Number(name);
      if (!Number.isInteger(tid) || tid === main) continue;
      try {
        if (getPriority(tid) !== base) continue;
        setPriority(tid, Math.min(19, base + nice));
        lowered++;
      } catch {
        // the thread ended meanwhile, or its priority cannot be changed
      }
    }
  } catch {
    return lowered;
  }
  return lowered;
}
