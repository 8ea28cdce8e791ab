/**
 * Tests of src/tasks/queue-worker.ts's SharedCache (the shared input values a worker keeps): a
 * value read once is served from the cache; past its byte budget the least recently used values
 * go, the one just read stays whatever its size; a missing key is a clear error. The reader here
 * is a Map of serialized values, counted — the expected values are the ones put in.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { serialize } from "node:v8";
import { SharedCache } from "../../../src/tasks/queue-worker.ts";

function store(values: Record<string, unknown>): { read: (id: string) => Promise<Buffer | null>; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    read: (id) => {
      reads.push(id);
      return Promise.resolve(id in values ? serialize(values[id]) : null);
    },
  };
}

test("SharedCache: read once, then served from the cache; least recently used values go past the budget; the last one read stays", async () => {
  const values = { a: new Float64Array(100), b: new Float64Array(100), c: new Float64Array(300) };
  const s = store(values);
  const cache = new SharedCache(2000); // a and b fit (≈ 800 bytes each), c alone does not
  const ref = (id: string) => ({ id, path: ["x"], raw: false });
  assert.deepEqual(await cache.get(ref("a"), s.read), values.a);
  assert.deepEqual(await cache.get(ref("b"), s.read), values.b);
  assert.deepEqual(await cache.get(ref("a"), s.read), values.a);
  assert.deepEqual(s.reads, ["a", "b"]);
  await cache.get(ref("c"), s.read); // 2400 bytes: a and b go, c stays
  await cache.get(ref("c"), s.read);
  await cache.get(ref("b"), s.read);
  assert.deepEqual(s.reads, ["a", "b", "c", "b"]);
  assert.equal(cache.reads, 4);
});

test("SharedCache: raw bytes come back as a Uint8Array of their own buffer; a missing value names its place in the input", async () => {
  const cache = new SharedCache();
  const backing = Buffer.from("xxhello worldxx");
  const out = (await cache.get({ id: "r", path: ["bytes"], raw: true }, () => Promise.resolve(backing.subarray(2, 13)))) as Uint8Array;
  assert.ok(out instanceof Uint8Array);
  assert.equal(Buffer.from(out).toString(), "hello world");
  assert.equal(out.buffer.byteLength, 11, "not a view of a larger buffer");
  await assert.rejects(cache.get({ id: "gone", path: ["features", "data"], raw: false }, () => Promise.resolve(null)), /a shared input of the job \(features\.data\) is missing from the queue/);
});
