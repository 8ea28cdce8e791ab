/**
 * Tests of src/tasks/queue-pool.ts and queue-worker.ts against a real Redis (test/helpers/redis.ts)
 * and real worker threads running test/helpers/queue-jobs.ts: a job's input and output keep their
 * structured-clone types (typed arrays, Maps, Dates) through Redis; progress and start reach the
 * caller; a job's error comes back as the same error with its line and field; a cancel stops a
 * running job by terminating its thread and drops a waiting one before it runs; the payload keys
 * are gone once jobs end; a new API process removes the jobs of the one before; a large value
 * that several jobs of a task carry is stored once (counted in Redis's keys and bytes), read once
 * by a worker, read again by a worker that lost it, and deleted when the task ends; a job's end
 * reaches the caller when the event connection is killed, and when no event arrives at all.
 * Expected values are the inputs themselves (an echo) and the errors the jobs throw.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { WorkerPool } from "../../../src/tasks/pool.ts";
import { QUEUE_NAME, QueuePool, redisOptions, SHARED_MIN_BYTES, WRITE_SLICE_BYTES } from "../../../src/tasks/queue-pool.ts";
import { JobQueueWorker } from "../../../src/tasks/queue-worker.ts";
import { BadRequest, Cancelled } from "../../../src/errors.ts";
import { startRedis, type TestRedis } from "../../helpers/redis.ts";
import type { QueueTestJobs } from "../../helpers/queue-jobs.ts";

const MODULE = new URL("../../helpers/queue-jobs.ts", import.meta.url);

describe("QueuePool + JobQueueWorker on a real Redis", () => {
  let redis: TestRedis;
  let local: WorkerPool<QueueTestJobs>;
  let worker: JobQueueWorker<QueueTestJobs>;
  let pool: QueuePool<QueueTestJobs>;
  const log: string[] = [];

  before(async () => {
    redis = await startRedis();
    local = new WorkerPool<QueueTestJobs>(1, { module: MODULE });
    pool = await QueuePool.open<QueueTestJobs>(redis.url, { slots: 1 });
    worker = await JobQueueWorker.start(redis.url, local, { log: (s) => log.push(s) });
  });

  after(async () => {
    await pool?.close();
    await worker?.close();
    await local?.close();
    await redis?.stop();
  });

  test("input and output keep their types (Float64Array, Int32Array, Map, Date, nested); progress and start are reported", async () => {
    const input = { f: Float64Array.from([0.1, -2.5, Number.NaN]), i: new Int32Array(70_000).fill(7), m: new Map<string, unknown>([["a", [1, "x"]]]), d: new Date("2026-01-02T03:04:05.678Z"), s: "ü€" };
    const progress: number[] = [];
    let started = 0;
    const out = (await pool.run("echo", input, { onProgress: (f) => progress.push(f), onStart: () => started++ })) as typeof input;
    assert.ok(out.f instanceof Float64Array && out.i instanceof Int32Array && out.m instanceof Map && out.d instanceof Date);
    assert.deepEqual(out, input);
    assert.equal(started, 1);
    assert.ok(progress.includes(0.5), `progress ${progress.join(", ")}`);
  });

  test("a job's error comes back as the same error class, with its line and field", async () => {
    await assert.rejects(pool.run("fail", { message: "no structure on line 3" }), (e: unknown) => e instanceof BadRequest && e.message === "no structure on line 3" && e.details.line === 3 && e.details.field === "smiles");
  });

  test("cancel: a running job's thread is terminated (it does not run on); a waiting one never runs; the next job runs", async () => {
    const ac = new AbortController();
    const t0 = performance.now();
    const running = pool.run("spin", { ms: 20_000 }, { signal: ac.signal, onStart: () => setTimeout(() => ac.abort(), 200) });
    // slots = 1: this one waits in the API process behind the first.
    const waiting = new AbortController();
    const queued = pool.run("spin", { ms: 20_000 }, { signal: waiting.signal });
    waiting.abort();
    await assert.rejects(queued, Cancelled);
    await assert.rejects(running, Cancelled);
    // The worker ends the job well before its 20 s, as cancelled.
    for (let i = 0; i < 100 && !log.some((l) => / spin: cancelled/.test(l)); i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(log.some((l) => / spin: cancelled in \d+ ms/.test(l)), log.join("\n"));
    assert.ok(performance.now() - t0 < 10_000);
    assert.equal(log.filter((l) => / spin: started/.test(l)).length, 1, "the waiting job never started");
    assert.deepEqual(await pool.run("echo", [1, 2]), [1, 2]);
  });

  test("no payload keys are left once the jobs have ended", async () => {
    const r = new Redis(redis.url);
    try {
      await new Promise((res) => setTimeout(res, 200));
      assert.deepEqual(await r.keys(`${QUEUE_NAME}:*`), []);
    } finally {
      r.disconnect();
    }
  });

  /** The shared-value keys on Redis now, with their sizes in bytes. */
  async function sharedKeys(): Promise<number[]> {
    const r = new Redis(redis.url);
    try {
      const found = await r.keys(`${QUEUE_NAME}:shared:*`);
      return Promise.all(found.map((k) => r.strlen(k)));
    } finally {
      r.disconnect();
    }
  }

  test("an upload's bytes given to three jobs of a task: stored on Redis once, as they are (never through v8.serialize), read once by the worker, deleted when the task ends", async () => {
    // more than one write slice: written as SET and APPEND
    const bytes = new Uint8Array(WRITE_SLICE_BYTES + 3 * SHARED_MIN_BYTES + 7).map((_, i) => i % 251);
    pool.stats.largestSerialized = 0;
    const reads = worker.cache.reads;
    for (let part = 0; part < 3; part++) {
      const out = (await pool.run("echo", { bytes, format: "csv", part: { index: part, count: 3 } }, { owner: "upload-task" })) as { bytes: Uint8Array; part: { index: number } };
      assert.ok(out.bytes instanceof Uint8Array);
      assert.deepEqual(out.bytes, bytes);
      assert.equal(out.part.index, part);
    }
    assert.deepEqual(await sharedKeys(), [bytes.byteLength], "one key holding the bytes");
    assert.equal(worker.cache.reads - reads, 1, "the worker read them once");
    // what went through v8.serialize is the rest of the input only
    assert.ok(pool.stats.largestSerialized < 1024, `largest serialized input ${pool.stats.largestSerialized} bytes`);
    pool.release("upload-task");
    for (let i = 0; i < 50 && (await sharedKeys()).length; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(await sharedKeys(), []);
  });

  test("a value that ten fold jobs of a task carry (nested, not bytes) is stored once, from the second job on; a worker that lost its cache reads it again", async () => {
    const data = { values: new Float64Array(20_000).map((_, i) => i / 3), names: Array.from({ length: 500 }, (_, i) => `feature ${i}`) };
    const before = { ...pool.stats };
    const reads = worker.cache.reads;
    const outs = await Promise.all(Array.from({ length: 10 }, (_, k) => pool.run("echo", { features: { data, fold: k }, test: [k] }, { owner: "cv-task" }))) as { features: { data: typeof data; fold: number }; test: number[] }[];
    outs.forEach((o, k) => {
      assert.deepEqual(o.features.data, data);
      assert.equal(o.features.fold, k);
      assert.deepEqual(o.test, [k]);
    });
    const size = (await sharedKeys())[0]!;
    assert.deepEqual(await sharedKeys(), [size], "one shared key");
    assert.ok(size >= data.values.byteLength);
    assert.equal(pool.stats.sharedStored - before.sharedStored, 1);
    // the first job carried it inline, the other nine name it: well under two copies in all
    assert.ok(pool.stats.envelopeBytes - before.envelopeBytes < 2 * size, `envelopes ${pool.stats.envelopeBytes - before.envelopeBytes} bytes`);
    assert.equal(worker.cache.reads - reads, 1);
    worker.cache.clear();
    const again = (await pool.run("echo", { features: { data, fold: 10 }, test: [10] }, { owner: "cv-task" })) as { features: { data: typeof data } };
    assert.deepEqual(again.features.data, data);
    assert.equal(worker.cache.reads - reads, 2, "read again after the cache was lost");
    pool.release("cv-task");
    for (let i = 0; i < 50 && (await sharedKeys()).length; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(await sharedKeys(), []);
  });

  test("the API's event connection killed (CLIENT KILL) while a job runs: the job's end still reaches the caller", async () => {
    const r = new Redis(redis.url);
    try {
      let started = false;
      const result = pool.run("spin", { ms: 1500 }, { onStart: () => (started = true) });
      for (let i = 0; i < 200 && !started; i++) await new Promise((res) => setTimeout(res, 20));
      assert.ok(started);
      // QueueEvents waits in XREAD BLOCK on the event stream: that connection
      const list = (await r.client("LIST")) as string;
      const ids = [...list.matchAll(/^id=(\d+) .*cmd=xread/gm)].map((m) => m[1]!);
      assert.ok(ids.length > 0, list);
      for (const id of ids) await r.client("KILL", "ID", id);
      assert.ok((await result) > 0, "the spin job's count");
    } finally {
      r.disconnect();
    }
  });

  test("no events at all (the event stream closed): completion, failure and start are learnt by polling the jobs' states; a failed job is removed once read", async () => {
    const polled = await QueuePool.open<QueueTestJobs>(redis.url, { slots: 1, reconcileMs: 100 });
    const q = new Queue(QUEUE_NAME, { connection: redisOptions(redis.url) });
    try {
      // the pool's private QueueEvents, closed: what a lost event connection looks like at its worst
      await (polled as unknown as { events: { close(): Promise<void> } }).events.close();
      let started = 0;
      const input = { values: Float64Array.from([1.5, 2.5]), tag: "polled" };
      assert.deepEqual(await polled.run("spin", { ms: 600 }, { onStart: () => started++ }).then((n) => n > 0), true);
      assert.equal(started, 1, "the start was seen by a poll");
      assert.deepEqual(await polled.run("echo", input), input);
      await assert.rejects(polled.run("fail", { message: "no structure on line 3" }), (e: unknown) => e instanceof BadRequest && e.message === "no structure on line 3");
      assert.equal(await q.getJobCountByTypes("failed", "completed", "active", "waiting"), 0);
    } finally {
      await q.close();
      await polled.close();
    }
  });

  test("a worker closed (SIGTERM) with a job running past its grace gives the job back: another worker runs it to the end", async () => {
    let starts = 0;
    const t0 = performance.now();
    const result = pool.run("spin", { ms: 1500 }, { onStart: () => starts++ });
    for (let i = 0; i < 200 && starts === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(starts, 1);
    await worker.close(100);
    assert.ok(log.some((l) => / spin: given back in \d+ ms/.test(l)), log.join("\n"));
    worker = await JobQueueWorker.start(redis.url, local, { log: (s) => log.push(s) });
    assert.ok((await result) > 0, "the spin job's count");
    assert.equal(starts, 2, "started on the first worker, then again on the second");
    assert.ok(performance.now() - t0 >= 1500);
  });

  test("a new API process removes the jobs an earlier one left on the queue", async () => {
    const q = new Queue(QUEUE_NAME, { connection: redisOptions(redis.url) });
    try {
      await worker.close(); // nobody takes jobs now
      await q.add("echo", { kind: "echo" }, { jobId: "left-over-1" });
      assert.equal(await q.getJobCountByTypes("waiting"), 1);
      const next = await QueuePool.open<QueueTestJobs>(redis.url, { slots: 1 });
      await next.close();
      assert.equal(await q.getJobCountByTypes("waiting", "active", "delayed", "prioritized"), 0);
    } finally {
      await q.close();
    }
  });
});
