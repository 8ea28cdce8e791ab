/**
 * Task jobs on a Redis queue (src/tasks/queue-pool.ts, README "Workers on other machines"): one
 * API process started with QUEUE_URL runs no task jobs itself; two `qsargraph worker` processes
 * (src/main.ts `worker`, one thread each) take them. The expected folds and statistics are not
 * a published figure but the same cross-validation (same seed) run in-process by a server
 * without a queue: jobs are deterministic given their input, so the queue must change nothing.
 * BBRC mining and CDK descriptors likewise (their feature datasets as CSV, with the servers' base
 * URLs and dataset ids taken out).
 * Hamster (85 compounds), not Kazius: a 10-fold Kazius CV takes minutes per run on the test
 * machine's 2 cores, and this file runs it three times.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { DATA, get, HAMSTER, postForm, runTask, startServer, taskState, uploadDataset, uploadFile, waitForTask, freshDir, removeDir, type TestServer } from "../helpers/server.ts";
import { crossValidationResult } from "../helpers/predictions.ts";
import { withServer } from "../helpers/use-server.ts";
import { startRedis, type TestRedis } from "../helpers/redis.ts";
import { endOf, runningJob, startWorker, type QueueWorkerProcess } from "../helpers/queue-workers.ts";


/** Compound URIs carry the base URL: compare folds by the compound's path. */
function byPath(folds: Map<string, string>): Map<string, string> {
  return new Map([...folds].map(([c, f]) => [new URL(c).pathname, f]));
}

const CV = { random_seed: "7", algorithm_params: "prediction_algorithm=weighted_majority_vote" };
const MINING = { min_frequency: "2" };
const DESCRIPTORS = { pc_type: "constitutional,electronic", lib: "cdk" };

/** A dataset as CSV, with the server's base and the dataset ids (random) taken out, for comparing two servers' results. */
async function datasetCsv(base: string, dataset: string): Promise<string> {
  const csv = await (await get(dataset, "text/csv")).text();
  return csv.replaceAll(base, "BASE").replace(/\/dataset\/[\w-]+/g, "/dataset/ID");
}

describe("task jobs on a Redis queue, run by two worker processes", () => {
  let redis: TestRedis;
  let api: TestServer;
  let workers: QueueWorkerProcess[] = [];
  let dataDir = "";
  let hamster = "";
  let reference: Awaited<ReturnType<typeof crossValidationResult>>;

  let referenceMined = "";
  let referenceDescriptors = "";

  before(async () => {
    // The reference first, in-process (no queue), so that the two servers do not share the cores.
    reference = await withServer({ upload: { hamster: HAMSTER } }, async (srv) => {
      const cv = await runTask(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: srv.datasets.hamster, ...CV });
      referenceMined = await datasetCsv(srv.base, await runTask(`${srv.base}/algorithm/miner/bbrc`, { dataset_uri: srv.datasets.hamster, ...MINING }));
      referenceDescriptors = await datasetCsv(srv.base, await runTask(`${srv.base}/algorithm/pc/AllDescriptors`, { dataset_uri: srv.datasets.hamster, ...DESCRIPTORS }));
      return crossValidationResult(cv);
    });
    redis = await startRedis();
    dataDir = freshDir();
    // WORKERS: jobs on the queue at a time (the two workers' threads).
    api = await startServer({ dataDir, env: { QUEUE_URL: redis.url, WORKERS: "2" } });
    workers = await Promise.all([startWorker(redis.url), startWorker(redis.url)]);
    hamster = await uploadDataset(api.base, HAMSTER);
  });

  after(async () => {
    // QUEUE_TEST_LOG=<file>: the workers' and the API's output, for looking into a run.
    if (process.env.QUEUE_TEST_LOG) writeFileSync(process.env.QUEUE_TEST_LOG, `${workers.map((w) => w.output()).join("\n----\n")}\n----API\n${api?.output()}`);
    await Promise.allSettled(workers.map((w) => w.kill("SIGKILL")));
    await api?.stop();
    await redis?.stop();
    if (dataDir) removeDir(dataDir);
  });

  const cvParams = (): Record<string, string> => ({ algorithm_uri: `${api.base}/algorithm/qsar`, dataset_uri: hamster, ...CV });

  test("the upload's jobs ran on the workers, not in the API process", () => {
    const ran = workers.map((w) => [...w.output().matchAll(/job \S+ (dataset\.\w+): done/g)].length);
    assert.ok(ran[0]! + ran[1]! > 0, `dataset jobs done by the workers: ${ran.join(", ")}`);
  });

  test("a 10-fold CV through the queue: the same folds and statistics as in-process (same seed), fold jobs on both workers", async () => {
    const before = workers.map((w) => [...w.output().matchAll(/job \S+ cv\.\S+: done/g)].length);
    const { stats, folds } = await crossValidationResult(await runTask(`${api.base}/validation/crossvalidation`, cvParams()));
    assert.equal(folds.size, 85);
    assert.deepEqual(byPath(folds), byPath(reference.folds));
    assert.deepEqual(stats, reference.stats);
    const ran = workers.map((w, i) => [...w.output().matchAll(/job \S+ cv\.\S+: done/g)].length - before[i]!);
    assert.ok(ran.every((n) => n > 0), `CV jobs per worker: ${ran.join(", ")}`);
  });

  test("SIGKILL of a worker running a fold job: the job is retried on the other worker, and the CV completes with the same statistics", async () => {
    const r = await postForm(`${api.base}/validation/crossvalidation`, cvParams());
    assert.equal(r.status, 202);
    const task = (await r.text()).trim();
    const killed = await killMidJob(task);
    const survivor = workers[1 - killed.i]!;
    const done = await waitForTask(task, 300_000);
    assert.equal(done.status, 200, done.body);
    // The killed job ran again to the end on the other worker (after its lock expired).
    assert.equal(survivor.output().match(endOf(killed.id))?.[1], "done", survivor.output());
    const { stats, folds } = await crossValidationResult(done.body);
    assert.deepEqual(byPath(folds), byPath(reference.folds));
    assert.deepEqual(stats, reference.stats);
    workers[killed.i] = await startWorker(redis.url);
  });

  test("BBRC mining and descriptors through the queue: the same feature datasets as in-process", async () => {
    const before = workers.map((w) => w.output().length);
    const mined = await datasetCsv(api.base, await runTask(`${api.base}/algorithm/miner/bbrc`, { dataset_uri: hamster, ...MINING }));
    const descriptors = await datasetCsv(api.base, await runTask(`${api.base}/algorithm/pc/AllDescriptors`, { dataset_uri: hamster, ...DESCRIPTORS }));
    assert.ok(mined.split("\n").length > 80 && referenceMined.split("\n")[0]!.split(",").length > 10, referenceMined.slice(0, 500));
    assert.equal(mined, referenceMined);
    assert.equal(descriptors, referenceDescriptors);
    const ran = workers.map((w, i) => w.output().slice(before[i]));
    assert.match(ran.join("\n"), /job \S+ mine\S*: done/);
    assert.match(ran.join("\n"), /job \S+ descriptors\.chunk: done/);
  });

  // muv.csv (93k rows; tasks.test.ts cancels it in-process): its preparation runs for many seconds.
  test("DELETE on a running upload stops its job on the worker (the thread is terminated, not waited for)", async () => {
    const r = await uploadFile(api.base, readFileSync(`${DATA}moleculenet/muv.csv`), "muv.csv");
    assert.equal(r.status, 202);
    const task = (await r.text()).trim();
    const started = await Promise.race(workers.map((w, i) => w.waitFor(runningJob("dataset\\.\\S+")).then((m) => ({ i, id: m[1]! }))));
    const w = workers[started.i]!;
    await new Promise((res) => setTimeout(res, 1000));
    assert.doesNotMatch(w.output(), endOf(started.id), "the job runs for more than a second");
    const del = await fetch(task, { method: "DELETE", headers: { Accept: "text/uri-list" } });
    assert.equal(del.status, 200, await del.text());
    assert.equal((await taskState(task)).status, "Cancelled");
    const m = await w.waitFor(endOf(started.id), 10_000);
    assert.equal(m[1], "cancelled", w.output());
  });

  test("a job whose worker dies twice fails its task with an error naming the job kind (not lost, not retried forever)", async () => {
    const r = await uploadFile(api.base, readFileSync(`${DATA}moleculenet/muv.csv`), "muv.csv");
    assert.equal(r.status, 202);
    const task = (await r.text()).trim();
    const first = await Promise.race(workers.map((w, i) => w.waitFor(runningJob("dataset\\.\\S+")).then((m) => ({ i, id: m[1]! }))));
    await workers[first.i]!.kill("SIGKILL");
    // Its lock expires (10 s) and the other worker's stalled-job check hands it over: killed again.
    const other = workers[1 - first.i]!;
    await other.waitFor(new RegExp(`job ${first.id} \\S+: started`), 60_000);
    await other.kill("SIGKILL");
    // No worker is left to notice the second stall: a new one does, and fails the job.
    workers = [await startWorker(redis.url), await startWorker(redis.url)];
    const done = await waitForTask(task, 120_000);
    assert.equal(done.status, 500, done.body);
    assert.match(done.body, /a worker process stopped while running the job \(dataset\.prepare\), twice/);
    // The new workers never ran it.
    for (const w of workers) assert.doesNotMatch(w.output(), new RegExp(`job ${first.id} `));
  });

  /**
   * Kill a worker in the middle of one of `task`'s jobs. Fold jobs take 20–300 ms here, so a job
   * seen running may have ended by the time the signal arrives: the worker is first frozen
   * (SIGSTOP: it can neither finish the job nor renew its lock), and killed only if its output
   * then still shows the job unfinished; otherwise it goes on and the next job is tried.
   */
  async function killMidJob(task: string): Promise<{ i: number; id: string }> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const hit = await Promise.race(workers.map((w, i) => w.waitFor(runningJob("cv\\.\\S+"), 60_000).then((m) => ({ i, id: m[1]! }))));
      const w = workers[hit.i]!;
      w.proc.kill("SIGSTOP");
      await new Promise((r) => setTimeout(r, 300));
      if (!endOf(hit.id).test(w.output())) {
        await w.kill("SIGKILL");
        return hit;
      }
      w.proc.kill("SIGCONT");
      assert.equal((await taskState(task)).status, "Running", "the CV ended before a worker could be caught in a job");
    }
    throw new Error("no worker caught in the middle of a job in 50 tries");
  }
});
