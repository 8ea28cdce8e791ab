/**
 * Worker threads run at a lower priority than the thread that starts them (src/threads/spawn.ts).
 * Each worker reads its own nice value from /proc/thread-self/stat (proc(5)), independently of
 * the code under test, and the expected value is the caller's own (read the same way) plus the
 * amount asked for, capped at 19.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { once } from "node:events";
import { REQUEST_NICE, spawnTsWorker, WORKER_NICE } from "../../../src/threads/spawn.ts";

const ENTRY = new URL("../../helpers/nice-worker.ts", import.meta.url);

function ownNice(): number {
  const stat = readFileSync("/proc/thread-self/stat", "latin1");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
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
