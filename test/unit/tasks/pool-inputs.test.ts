/**
 * Tests of how src/tasks/pool.ts hands large bytes to its worker threads (real threads, the job
 * module test/helpers/pool-jobs.ts): a Uint8Array of SHARED_MIN_BYTES or more is copied once into
 * a SharedArrayBuffer and every job given it gets that copy — intact, and after a thread died —
 * while small bytes go as they did (cloned). Reference checksums: FNV-1a (pool-jobs.ts `fnv1a`,
 * offset basis 0x811c9dc5, prime 0x01000193 as published by Fowler/Noll/Vo) computed here on the
 * main thread over the caller's bytes; the known value of FNV-1a-32("a") = 0xe40c292c checks it.
 */
import { readFileSync } from "node:fs";
import { test } from "node:test";
import assert from "node:assert/strict";
import { SHARED_MIN_BYTES, WorkerPool } from "../../../src/tasks/pool.ts";
import { InternalError } from "../../../src/errors.ts";
import { prepareUpload } from "../../../src/algorithms/upload/job.ts";
import { KAZIUS, readSmilesCsv } from "../../helpers/data.ts";
import { fnv1a, type PoolTestJobs } from "../../helpers/pool-jobs.ts";

const MODULE = new URL("../../helpers/pool-jobs.ts", import.meta.url);

/** `n` bytes that differ along the array (so that a shifted or partial copy changes the checksum). */
function bytesOf(n: number, seed: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed + (i >>> 8)) & 0xff;
  return b;
}

test("fnv1a matches the published FNV-1a-32 value of \"a\"", () => {
  assert.equal(fnv1a(new TextEncoder().encode("a")), 0xe40c292c);
});

test("large bytes: one shared copy reaches several jobs, on several threads, intact", async () => {
  const pool = new WorkerPool<PoolTestJobs>(2, { module: MODULE });
  try {
    const n = 3 * 1024 * 1024 + 17; // not a multiple of a copy slice
    const bytes = bytesOf(n, 5);
    const sum = fnv1a(bytes);
    const parts = await Promise.all(Array.from({ length: 5 }, (_, index) => pool.run("inspect", { bytes, part: { index } }, { owner: "task-a" })));
    for (const p of parts) assert.deepEqual(p, { length: n, sum, shared: true, bufferBytes: n });
    // copied once for the five jobs; a job of another task given the same array gets the same copy
    assert.deepEqual(pool.stats, { sharedCopies: 1, sharedBytes: n });
    assert.deepEqual(await pool.run("inspect", { bytes }, { owner: "task-b" }), { length: n, sum, shared: true, bufferBytes: n });
    assert.deepEqual(pool.stats, { sharedCopies: 1, sharedBytes: n });
    // a view on part of a buffer: only its bytes are copied
    const view = bytesOf(n, 9).subarray(1000, 1000 + SHARED_MIN_BYTES);
    assert.deepEqual(await pool.run("inspect", { bytes: view }), { length: SHARED_MIN_BYTES, sum: fnv1a(view), shared: true, bufferBytes: SHARED_MIN_BYTES });
    assert.deepEqual(pool.stats, { sharedCopies: 2, sharedBytes: n + SHARED_MIN_BYTES });
    // small bytes are cloned as before; bytes already on shared memory go as they are
    const small = bytesOf(SHARED_MIN_BYTES - 1, 1);
    assert.deepEqual(await pool.run("inspect", { bytes: small }), { length: small.length, sum: fnv1a(small), shared: false, bufferBytes: small.length });
    const onShared = new Uint8Array(new SharedArrayBuffer(SHARED_MIN_BYTES * 2));
    onShared.set(bytesOf(onShared.length, 3));
    assert.deepEqual(await pool.run("inspect", { bytes: onShared }), { length: onShared.length, sum: fnv1a(onShared), shared: true, bufferBytes: onShared.length });
    assert.deepEqual(pool.stats, { sharedCopies: 2, sharedBytes: n + SHARED_MIN_BYTES });
    // the end of task a leaves the copy to task b; the end of task b too forgets it: a later job copies again
    pool.release("task-a");
    assert.equal((await pool.run("inspect", { bytes }, { owner: "task-b" })).sum, sum);
    assert.equal(pool.stats.sharedCopies, 2);
    pool.release("task-b");
    assert.deepEqual(await pool.run("inspect", { bytes }, { owner: "task-c" }), { length: n, sum, shared: true, bufferBytes: n });
    assert.equal(pool.stats.sharedCopies, 3);
    // the caller's bytes are left as they were (not moved away)
    assert.equal(bytes.byteLength, n);
    assert.equal(fnv1a(bytes), sum);
  } finally {
    await pool.close();
  }
});

test("a job run again after its thread died gets its large input intact", async () => {
  const pool = new WorkerPool<PoolTestJobs>(1, { module: MODULE });
  try {
    const bytes = bytesOf(SHARED_MIN_BYTES * 16, 7);
    const sum = fnv1a(bytes);
    assert.equal((await pool.run("inspect", { bytes }, { owner: "t" })).sum, sum);
    await assert.rejects(pool.run("exit", { bytes } as never, { owner: "t" }), (e: unknown) => e instanceof InternalError && /worker thread exited/.test(e.message));
    // on the replacement thread, the same bytes, not copied again
    assert.deepEqual(await pool.run("inspect", { bytes }, { owner: "t" }), { length: bytes.length, sum, shared: true, bufferBytes: bytes.length });
    assert.deepEqual(pool.stats, { sharedCopies: 1, sharedBytes: bytes.length });
  } finally {
    await pool.close();
  }
});

test("a job cancelled while its bytes are copied is not run", async () => {
  const pool = new WorkerPool<PoolTestJobs>(1, { module: MODULE });
  try {
    const controller = new AbortController();
    const bytes = bytesOf(20 * 1024 * 1024, 2); // more than one copy slice: the copy spans turns
    let started = false;
    const job = pool.run("inspect", { bytes }, { signal: controller.signal, onStart: () => (started = true) });
    controller.abort();
    await assert.rejects(job, /cancelled/);
    assert.equal((await pool.run("length", { bytes: new Uint8Array(4) })), 4);
    assert.equal(started, false);
  } finally {
    await pool.close();
  }
});

test("the upload's parse gives the same result on shared bytes as on the caller's (kazius.csv)", () => {
  const bytes = readFileSync(KAZIUS);
  assert.ok(bytes.byteLength >= SHARED_MIN_BYTES); // it goes to the workers shared
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  shared.set(bytes);
  const a = prepareUpload({ bytes, format: "csv" });
  assert.equal(a.count, new Set(readSmilesCsv(KAZIUS).map((r) => r.smiles)).size); // its distinct SMILES cells, read by the tests' own CSV reader
  assert.deepEqual(prepareUpload({ bytes: shared, format: "csv" }), a);
});
