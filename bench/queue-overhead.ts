/**
 * What a job costs to go through the Redis queue (src/tasks/queue-pool.ts) rather than to a
 * worker thread of the same process (src/tasks/pool.ts): the same jobs, one at a time, both
 * ways, on this machine (Redis, the API side and the worker process's bridge all local; a job
 * of test/helpers/queue-jobs.ts that echoes its input, so the time is the transport's).
 * Printed: milliseconds per job, median and p90, for a small input and a 1 MiB typed array.
 *
 *   npx tsx bench/queue-overhead.ts [--jobs N]
 */
import { parseArgs } from "node:util";
import { WorkerPool } from "../src/tasks/pool.ts";
import { QueuePool } from "../src/tasks/queue-pool.ts";
import { JobQueueWorker } from "../src/tasks/queue-worker.ts";
import { startRedis } from "../test/helpers/redis.ts";
import type { QueueTestJobs } from "../test/helpers/queue-jobs.ts";

const { values } = parseArgs({ options: { jobs: { type: "string", default: "200" } } });
const N = Number(values.jobs);
const MODULE = new URL("../test/helpers/queue-jobs.ts", import.meta.url);

type Run = (input: unknown) => Promise<unknown>;

async function time(run: Run, input: unknown, n: number): Promise<{ median: number; p90: number }> {
  for (let i = 0; i < 5; i++) await run(input); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await run(input);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(n / 2)]!, p90: ms[Math.floor(n * 0.9)]! };
}

const small = { kind: "tiny", values: [1, 2, 3] };
const large = { values: new Float64Array(131_072).fill(0.5) }; // 1 MiB
const inputs: [string, unknown, number][] = [
  ["small input", small, N],
  ["1 MiB Float64Array", large, Math.max(20, Math.floor(N / 4))],
];

const local = new WorkerPool<QueueTestJobs>(1, { module: MODULE });
const redis = await startRedis();
const remoteThreads = new WorkerPool<QueueTestJobs>(1, { module: MODULE });
const queue = await QueuePool.open<QueueTestJobs>(redis.url, { slots: 1 });
const worker = await JobQueueWorker.start(redis.url, remoteThreads, { log: () => undefined });
try {
  const fmt = (x: { median: number; p90: number }): string => `${x.median.toFixed(2)} ms (p90 ${x.p90.toFixed(2)})`;
  for (const [name, input, n] of inputs) {
    const a = await time((i) => local.run("echo", i), input, n);
    const b = await time((i) => queue.run("echo", i), input, n);
    console.log(`${name}, ${n} jobs one at a time: in-process ${fmt(a)}; through Redis ${fmt(b)}; overhead ${(b.median - a.median).toFixed(2)} ms per job`);
  }
} finally {
  await queue.close();
  await worker.close();
  await Promise.all([local.close(), remoteThreads.close()]);
  await redis.stop();
}
