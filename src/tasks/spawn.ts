/**
 * Starting a worker thread whose entry is a TypeScript file, run through tsx like the main thread.
 *
 * On Node 20 a worker given `execArgv: ["--import", "tsx"]` still fails on its `.ts` entry
 * ("Unknown file extension .ts"): the loader hooks are not applied to the worker's entry module.
 * So the worker starts from a two-line JavaScript bootstrap (`eval`) that loads the entry with
 * tsx's `tsImport`, which also compiles everything the entry imports. The `--test*` flags of
 * node's test runner are not passed on (a worker is not a test file). Used by the SPARQL read
 * replica and (to be switched) the task pool.
 */
import { Worker, type WorkerOptions } from "node:worker_threads";

const TSX_API = import.meta.resolve("tsx/esm/api");

export function tsWorkerExecArgv(): string[] {
  return process.execArgv.filter((a) => !a.startsWith("--test"));
}

/** `new Worker(entry)` for a `.ts` entry file (a `file:` URL), compiled by tsx. */
export function spawnTsWorker(entry: URL, options: Omit<WorkerOptions, "execArgv" | "eval"> = {}): Worker {
  const bootstrap = `import(${JSON.stringify(TSX_API)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(import.meta.url)}));`;
  return new Worker(bootstrap, { ...options, eval: true, execArgv: tsWorkerExecArgv() });
}
