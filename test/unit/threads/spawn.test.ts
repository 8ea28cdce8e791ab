/**
 * Worker threads run at a lower priority than the thread that starts them (src/threads/spawn.ts).
 * Each worker reads its own nice value from /proc/thread-self/stat (proc(5)), independently of
 * the code under test, and the expected value is the caller's own (read the same way) plus the
 * amount asked for, capped at 19.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { describe, it } from "node:test";
import { once } from "node:events";
import { lowerHelperThreads, REQUEST_NICE, spawnTsWorker, WORKER_NICE } from "../../../src/threads/spawn.ts";

const ENTRY = new URL("../../helpers/nice-worker.ts", import.meta.url);

/** The nice value of a thread of this process, from proc(5) (field 19), read here independently of the code under test. */
function niceOf(path: string): number {
  const stat = readFileSync(`${path}/stat`, "latin1");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
}

function ownNice(): number {
  return niceOf("/proc/thread-self");
}

/** Every thread of this process: tid → nice (a thread that ends while it is read is left out). */
function threads(): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of readdirSync("/proc/self/task")) {
    try {
      out.set(Number(t), niceOf(`/proc/self/task/${t}`));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

async function workerNice(nice?: number): Promise<number> {
  const w = nice === undefined ? spawnTsWorker(ENTRY) : spawnTsWorker(ENTRY, {}, nice);
  try {
    const [value] = (await once(w, "message")) as [number];
    return value;
  } finally {
    await w.terminate();
  }
}

describe("spawnTsWorker priority", () => {
  it("lowers a worker thread's priority by WORKER_NICE by default, by the amount given otherwise, and not at all for 0", async () => {
    const main = ownNice();
    assert.equal(await workerNice(), Math.min(19, main + WORKER_NICE));
    assert.equal(await workerNice(REQUEST_NICE), Math.min(19, main + REQUEST_NICE));
    assert.equal(await workerNice(0), main);
    assert.equal(ownNice(), main, "the caller's own priority is unchanged");
  });
});

describe("lowerHelperThreads", () => {
  it("lowers every other thread still at the main thread's priority (V8's and libuv's helpers) and leaves the main thread and the workers that lowered themselves", async () => {
    const w = spawnTsWorker(ENTRY, {}, 7);
    const [workerValue] = (await once(w, "message")) as [number];
    try {
      const main = ownNice();
      assert.equal(workerValue, Math.min(19, main + 7));
      const mainTid = Number(readlinkSync("/proc/thread-self").split("/").pop());
      const before = threads();
      const helpers = [...before].filter(([tid, nice]) => tid !== mainTid && nice === main).map(([tid]) => tid);
      assert.ok(helpers.length >= 4, `V8's platform threads at least: ${helpers.length}`);
      const lowered = lowerHelperThreads(2);
      const after = threads();
      assert.equal(after.get(mainTid), main, "the main thread is unchanged");
      for (const tid of helpers) if (after.has(tid)) assert.equal(after.get(tid), Math.min(19, main + 2), `helper ${tid}`);
      for (const [tid, nice] of before) if (tid !== mainTid && nice !== main && after.has(tid)) assert.equal(after.get(tid), nice, `thread ${tid} kept its own priority`);
      // (A helper thread started in between is lowered too, so the count may be larger.)
      assert.ok(lowered >= helpers.filter((t) => after.has(t)).length, `${lowered} lowered`);
      assert.equal(lowerHelperThreads(0), 0, "0: nothing is changed");
    } finally {
      await w.terminate();
    }
  });
});
