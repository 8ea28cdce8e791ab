/**
 * Starting a worker thread, from the sources or from the compiled service.
 *
 * The service runs either from its TypeScript sources through tsx (tests, `npx tsx src/main.ts`)
 * or compiled to JavaScript (`npm run build` → dist/, run by plain `node dist/main.js`: `npm
 * start`, the Docker image). The sources name a worker's entry as a `.ts` file beside them
 * (`moduleUrl("./worker.ts", import.meta.url)`); in the compiled service that is the `.js` file
 * beside the compiled module (tsc rewrites import specifiers, not the strings of a `new URL`).
 * One predicate, `isTypeScript`, decides both: the entry's extension follows the calling
 * module's, and a `.ts` entry is loaded through tsx while a `.js` one is imported by plain node
 * (no tsx, no esbuild compilation in the worker).
 *
 * A `.ts` entry: on Node 20 a worker given `execArgv: ["--import", "tsx"]` still fails on it
 * ("Unknown file extension .ts"): the loader hooks are not applied to the worker's entry module.
 * So the worker starts from a short JavaScript bootstrap (`eval`) that loads the entry with
 * tsx's `tsImport`, which also compiles everything the entry imports. A `.js` entry is loaded by
 * the same bootstrap with a plain `import()` (tsx is not even resolved: it is a development
 * dependency, absent from the production install). The `--test*` flags of node's test runner
 * are not passed on (a worker is not a test file). Used by the SPARQL read replica, the worker
 * pools (tasks/pool.ts; RFE's resamples are pool jobs) and the store's reader for a renewal.
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

/** Whether a module (a URL or path) is TypeScript source, loaded through tsx; else JavaScript that plain node imports (the compiled service). */
export function isTypeScript(module: URL | string): boolean {
  const path = typeof module === "string" ? new URL(module, "file:///").pathname : module.pathname;
  return /\.[cm]?ts$/.test(path);
}

/**
 * The URL of the module `specifier`, written as in the sources (`"./worker.ts"`), relative to the
 * calling module `base` (its `import.meta.url`): the `.ts` file when the caller is TypeScript
 * source, the compiled `.js` file beside it otherwise.
 */
export function moduleUrl(specifier: string, base: string): URL {
  const url = new URL(specifier, base);
  if (!isTypeScript(base) && isTypeScript(url)) url.pathname = url.pathname.replace(/\.([cm]?)ts$/, ".$1js");
  return url;
}

export function workerExecArgv(): string[] {
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

/**
 * `new Worker(entry)` for an entry module (a `file:` URL: a `.ts` source compiled by tsx, or a
 * compiled `.js` file imported as it is), at a priority `nice` below the main thread's.
 */
export function spawnWorker(entry: URL, options: Omit<WorkerOptions, "execArgv" | "eval"> = {}, nice = WORKER_NICE): Worker {
  const load = isTypeScript(entry)
    ? `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then((tsx) => tsx.tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(import.meta.url)}))`
    : `import(${JSON.stringify(entry.href)})`;
  const bootstrap = `${lowerPriority(nice)}.then(() => ${load});`;
  return new Worker(bootstrap, { ...options, eval: true, execArgv: workerExecArgv() });
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
