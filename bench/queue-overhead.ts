/**
 * What a job costs to go through the Redis queue (src/tasks/queue-pool.ts) rather than to a
 * worker thread of the same process (src/tasks/pool.ts): the same jobs, one at a time, both
 * ways, on this machine (Redis, the API side and the worker process's bridge all local; a job
 * of test/helpers/queue-jobs.ts that echoes its input, so the time is the transport's).
 * Printed: milliseconds per job, median and p90, for a small input and a 1 MiB typed array.
 *
 * Then large inputs (an upload's bytes, which several jobs of an upload task carry): the time
 * v8.serialize takes for them on the main thread (what every job carrying them cost before
 * queue-pool.ts shared them), and, putting three jobs of one task that carry them on the queue,
 * the longest event-loop stall of this (the API) process (perf_hooks.monitorEventLoopDelay),
 * the bytes written to Redis and the largest v8.serialize output made — for the MUV upload
 * (fixtures/data/moleculenet/muv.csv, 93k rows, 6.7 MB) and a 200 MB upload; the same jobs on a
 * worker thread of this process for comparison (postMessage clones the bytes on this thread).
 *
 * Last, the inputs of a Kazius cross-validation's fold jobs (the default, cv.fold: BBRC mined in
 * each training fold), built by the service's own foldInput from kazius.csv with RDKit's InChIs
 * and InChIKey compound URIs: v8.serialize time and bytes of each.
 *
 *   npx tsx bench/queue-overhead.ts [--jobs N]
 */
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { spawn } from "node:child_process";
import { parseArgs } from "node:util";
import { serialize } from "node:v8";
import { DATA, KAZIUS, readSmilesCsv } from "../test/helpers/data.ts";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { assignFolds } from "../src/validate/index.ts";
import { foldInput } from "../src/algorithms/crossvalidation/operation.ts";
import { WorkerPool } from "../src/tasks/pool.ts";
import { QueuePool } from "../src/tasks/queue-pool.ts";
import { JobQueueWorker } from "../src/tasks/queue-worker.ts";
import { startRedis } from "../test/helpers/redis.ts";
import type { QueueTestJobs } from "../test/helpers/queue-jobs.ts";

const { values } = parseArgs({ options: { jobs: { type: "string", default: "200" }, "worker-of": { type: "string" } } });
const N = Number(values.jobs);
const MODULE = new URL("../test/helpers/queue-jobs.ts", import.meta.url);

// `--worker-of <redis url>`: this process is only a worker bridge (for the large inputs, so that
// the stall measured is the API process's alone); it ends with its parent.
if (values["worker-of"]) {
  const threads = new WorkerPool<QueueTestJobs>(1, { module: MODULE });
  await JobQueueWorker.start(values["worker-of"], threads, { log: () => undefined });
  console.log("worker ready");
  process.stdin.resume();
  process.stdin.on("end", () => process.exit(0));
  await new Promise(() => undefined);
}

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
  // the large inputs go to a worker in a process of its own
  await worker.close();
  const child = spawn(process.execPath, ["--import", "tsx", new URL(import.meta.url).pathname, "--worker-of", redis.url], { stdio: ["pipe", "pipe", "inherit"] });
  await new Promise<void>((resolve) => child.stdout!.on("data", (d: Buffer) => d.toString().includes("worker ready") && resolve()));
  const uploads: [string, Uint8Array][] = [
    ["MUV upload (muv.csv, 93k rows)", readFileSync(`${DATA}moleculenet/muv.csv`)],
    ["200 MB upload", new Uint8Array(200 * 1024 * 1024).map((_, i) => 32 + (i % 90))],
  ];
  /** Three jobs of one task carrying `bytes`, one at a time: the longest event-loop stall (ms) and the wall time. */
  const stall = async (run: (input: unknown, owner: string) => Promise<unknown>, bytes: Uint8Array, owner: string): Promise<{ maxMs: number; ms: number }> => {
    const h = monitorEventLoopDelay({ resolution: 5 });
    h.enable();
    const t0 = performance.now();
    for (let index = 0; index < 3; index++) await run({ bytes, format: "csv", part: { index, count: 3 } }, owner);
    const ms = performance.now() - t0;
    h.disable();
    return { maxMs: h.max / 1e6, ms };
  };
  for (const [name, bytes] of uploads) {
    const mb = (bytes.byteLength / 1e6).toFixed(1);
    const t0 = performance.now();
    const s = serialize({ bytes, format: "csv" });
    const serializeMs = performance.now() - t0;
    await local.run("length", { bytes: bytes.subarray(0, 10) }); // warm
    const a = await stall((i) => local.run("length", i as never), bytes, "");
    queue.stats.largestSerialized = 0;
    const before = queue.stats.sharedBytes + queue.stats.envelopeBytes;
    const b = await stall((i, owner) => queue.run("length", i as never, { owner }), bytes, `bench-${name}`);
    const written = queue.stats.sharedBytes + queue.stats.envelopeBytes - before;
    queue.release(`bench-${name}`);
    console.log(
      `${name} (${mb} MB): v8.serialize on the main thread ${serializeMs.toFixed(1)} ms (${(s.length / 1e6).toFixed(1)} MB) per job carrying it. ` +
        `Three jobs of a task carrying it — in-process: ${a.ms.toFixed(0)} ms, longest stall ${a.maxMs.toFixed(1)} ms; ` +
        `through Redis (a worker process): ${b.ms.toFixed(0)} ms, longest stall of this process ${b.maxMs.toFixed(1)} ms, ${(written / 1e6).toFixed(1)} MB written to Redis, largest v8.serialize output ${queue.stats.largestSerialized} bytes`,
    );
  }
  child.stdin!.end();

  const rdkit = await loadRDKit();
  const instances = readSmilesCsv(KAZIUS).map((r) => {
    const mol = rdkit.get_mol(r.smiles);
    const inchi = mol?.get_inchi() ?? "";
    mol?.delete();
    return { compound: `http://127.0.0.1:8080/compound/${rdkit.get_inchikey_for_inchi(inchi)}`, smiles: r.smiles, inchi, activity: Number(r.value), label: r.value };
  });
  const folds = assignFolds(instances.map((x) => x.compound), { numFolds: 10, seed: 1, stratified: true }, instances.map((x) => x.label));
  const features = {
    kind: "mined" as const,
    frequency: { perMil: 5 },
    fold: { miner: { miner: "bbrc", options: {} }, classes: ["0", "1"], algorithm: "weighted_majority_vote", minSim: 0.3, minTrainPerformance: 0.1, nrHits: false },
  };
  const request = { instances, features } as unknown as Parameters<typeof foldInput>[0];
  const sizes: number[] = [];
  const times: number[] = [];
  for (let k = 0; k < 10; k++) {
    const test = new Map<string, string | null>();
    instances.forEach((x, i) => folds.instanceFold[i] === k && test.set(x.compound, x.smiles));
    const input = foldInput(request, features as never, (i) => folds.instanceFold[i] !== k, test);
    const t0 = performance.now();
    sizes.push(serialize(input).length);
    times.push(performance.now() - t0);
  }
  console.log(
    `Kazius 10-fold CV, cv.fold inputs: ${(sizes.reduce((a, b) => a + b) / 1e6).toFixed(1)} MB in all, ${(Math.max(...sizes) / 1e6).toFixed(2)} MB the largest; ` +
      `v8.serialize ${Math.max(...times).toFixed(1)} ms the longest, ${times.reduce((a, b) => a + b).toFixed(1)} ms in all (each fold's training set is its own: nothing shared)`,
  );
} finally {
  await queue.close();
  await worker.close();
  await Promise.all([local.close(), remoteThreads.close()]);
  await redis.stop();
}
