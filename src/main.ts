/**
 * Start qsargraph from the command line: flags / env → config → createApp → listen.
 * `npm start` runs the compiled service (`npm run build`, then `node dist/main.js`); `npx tsx
 * src/main.ts` runs the sources. See src/config.ts for the options.
 *
 * `main.ts worker --queue redis://… [--workers N]` (also `qsargraph worker …`, bin/qsargraph.js)
 * runs a job worker instead: N worker threads taking task jobs off the Redis queue of an API
 * process started with the same `--queue` (tasks/queue-worker.ts).
 */
import "./v8-flags.ts";
import { readFileSync } from "node:fs";
import { createApp } from "./app.ts";
import { servicePool } from "./algorithms/jobs.ts";
import { JobQueueWorker } from "./tasks/queue-worker.ts";
import { redactUrl } from "./tasks/queue-pool.ts";
import { loadConfig } from "./config.ts";
import { lowerHelperThreads, REQUEST_NICE } from "./threads/spawn.ts";

async function main(): Promise<void> {
  if (process.argv[2] === "worker") return worker(process.argv.slice(3));
  const config = loadConfig();
  const t0 = performance.now();
  const app = await createApp(config);
  // Before the "listening" line, which tells a supervisor (and the tests) that the start is done.
  console.log(`access: ${app.access.summary}`);
  const server = await app.listen();
  // V8's and libuv's helper threads below the main thread, as request-time workers are
  // (threads/spawn.ts): with both cores busy the main thread, which answers every request, gets
  // a core first (bench/availability.ts, docs/benchmarks.md).
  lowerHelperThreads(REQUEST_NICE);
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : config.port;
  const info = app.deps.store.openInfo;
  // The external store by its endpoints (they hold no credentials: config.ts refuses them there).
  const sc = config.sparqlStore;
  const store = sc
    ? `store: external SPARQL store (query ${sc.query}, update ${sc.update}, Graph Store Protocol ${sc.gsp} with ?${sc.gspParam}=), ` +
      `catalog at commit ${info.lastSeq}, ${app.deps.store.graphsWithPrefix("").length} graphs, read in ${Math.round(info.recoveredMs)} ms${info.tornTail ? `; ${info.tornTail}` : ""}`
    : `store recovered ${info.lastSeq} commits in ${Math.round(info.recoveredMs)} ms${info.tornTail ? `; torn journal tail truncated: ${info.tornTail}` : ""}`;
  console.log(`qsargraph listening on ${config.host}:${port} as ${config.baseUrl} (data ${config.dataDir}, ${config.workers} workers; ${store}; ready in ${Math.round(performance.now() - t0)} ms)`);
  const stop = (): void => {
    void app.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  if (process.env.QSARGRAPH_TIMING) watchEventLoop();
}

/**
 * A job worker: `--queue` (QUEUE_URL) is required, `--workers` (WORKERS) threads; the service's
 * other options are accepted and ignored. SIGTERM/SIGINT: no more jobs, running ones finish
 * (or are given back to the queue after 30 s), then exit.
 */
async function worker(argv: readonly string[]): Promise<void> {
  const config = loadConfig(argv);
  if (!config.queueUrl) throw new Error("qsargraph worker needs --queue redis://… (or QUEUE_URL): the queue of the API process");
  const pool = servicePool(config.workers);
  const w = await JobQueueWorker.start(config.queueUrl, pool);
  lowerHelperThreads(REQUEST_NICE);
  console.log(`qsargraph worker taking jobs from ${redactUrl(config.queueUrl)} with ${config.workers} threads`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    console.log(`qsargraph worker stopping (${w.busy} jobs running)`);
    void w
      .close()
      .then(() => pool.close())
      .then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

/**
 * With QSARGRAPH_TIMING=1, log every stall of the event loop over 100 ms: a timer due every 10 ms
 * that fires late by more than that means one piece of work held the main thread (a bug) — or,
 * on a machine with more busy threads than cores, that the thread waited for a core. The line
 * gives the CPU time the main thread used meanwhile (Linux: /proc/thread-self/stat, 10 ms
 * resolution) to tell the two apart. Every 30 s it also logs the process's memory (rss) beside the
 * main thread's heap and buffers, to tell where a growth is.
 */
function watchEventLoop(): void {
  const TICK = 10;
  /** The thread's CPU time is read every CPU_EVERY ticks (a read costs a system call) and after a stall. */
  const CPU_EVERY = 5;
  let last = performance.now();
  let ticks = 0;
  let lastCpu = threadCpuMs();
  setInterval(() => {
    const now = performance.now();
    const stall = now - last - TICK;
    last = now;
    if (stall <= 100 && ++ticks % CPU_EVERY !== 0) return;
    const cpu = threadCpuMs();
    // (The CPU time covers the stall and up to CPU_EVERY ticks before it.)
    if (stall > 100) console.log(`event loop stalled ${Math.round(stall)} ms (until ${new Date().toISOString()}${cpu !== undefined && lastCpu !== undefined ? `; main thread CPU ${cpu - lastCpu} ms` : ""})`);
    lastCpu = cpu;
  }, TICK).unref();
  // Memory every 30 s: the whole process (worker threads included) against this thread's heap and
  // the buffers it holds — where a growth is.
  setInterval(() => {
    const m = process.memoryUsage();
    const mb = (x: number): number => Math.round(x / 2 ** 20);
    console.log(`memory: rss ${mb(m.rss)} MB; main thread heap ${mb(m.heapUsed)} MB, external ${mb(m.external)} MB (array buffers ${mb(m.arrayBuffers)} MB)`);
  }, 30_000).unref();
}

/** CPU time (user + system) of the calling thread in ms, where Linux's /proc tells it. */
function threadCpuMs(): number | undefined {
  try {
    const stat = readFileSync("/proc/thread-self/stat", "latin1");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of proc(5) (utime, stime), counted from field 3 here, in clock ticks of 10 ms.
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return undefined;
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
