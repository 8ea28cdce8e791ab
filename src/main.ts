/**
 * Start qsargraph from the command line: flags / env → config → createApp → listen.
 * `npm start` (= `tsx src/main.ts`); see src/config.ts for the options.
 */
import { createApp } from "./app.ts";
import { loadConfig } from "./config.ts";

async function main(): Promise<void> {
  const config = loadConfig();
  const t0 = performance.now();
  const app = await createApp(config);
  // Before the "listening" line, which tells a supervisor (and the tests) that the start is done.
  console.log(`access: ${app.access.summary}`);
  const server = await app.listen();
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : config.port;
  const info = app.deps.store.openInfo;
  console.log(
    `qsargraph listening on ${config.host}:${port} as ${config.baseUrl} (data ${config.dataDir}, ${config.workers} workers; ` +
      `store recovered ${info.lastSeq} commits in ${Math.round(info.recoveredMs)} ms${info.tornTail ? `; torn journal tail truncated: ${info.tornTail}` : ""}; ready in ${Math.round(performance.now() - t0)} ms)`,
  );
  const stop = (): void => {
    void app.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  if (process.env.QSARGRAPH_TIMING) watchEventLoop();
}

/**
 * With QSARGRAPH_TIMING=1, log every stall of the event loop over 100 ms: a timer due every 10 ms
 * that fires late by more than that means one piece of work held the main thread (a bug).
 */
function watchEventLoop(): void {
  const TICK = 10;
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const stall = now - last - TICK;
    if (stall > 100) console.log(`event loop stalled ${Math.round(stall)} ms (until ${new Date().toISOString()})`);
    last = now;
  }, TICK).unref();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
