/**
 * Worker threads run at a lower priority than the thread that starts them (src/threads/spawn.ts).
 * Each worker reads its own nice value from /proc/thread-self/stat (proc(5)), independently of
 * the code under test, and the expected value is the caller's own (read the same way) plus the
 * amount asked for, capped at 19.
 *
 * Worker loading: a `.ts` entry is loaded through tsx, a `.js` entry (the compiled service's) by
 * plain node. Each worker posts its own `import.meta.url`: a module that tsx's `tsImport` loaded
 * carries tsx's `?tsx-namespace=` query (tsx isolates what tsImport loads under it), one that
 * node imported itself is exactly the file's URL.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { describe, it } from "node:test";
import { once } from "node:events";
import { isTypeScript, lowerHelperThreads, moduleUrl, REQUEST_NICE, spawnWorker, WORKER_NICE } from "../../../src/threads/spawn.ts";

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

interface Posted {
  readonly nice: number;
  readonly url: string;
}

async function workerPost(entry: URL, nice?: number): Promise<Posted> {
  const w = nice === undefined ? spawnWorker(entry) : spawnWorker(entry, {}, nice);
  try {
    const [value] = (await once(w, "message")) as [Posted];
    return value;
  } finally {
    await w.terminate();
  }
}

async function workerNice(nice?: number): Promise<number> {
  return (await workerPost(ENTRY, nice)).nice;
}

describe("spawnWorker priority", () => {
  it("lowers a worker thread's priority by WORKER_NICE by default, by the amount given otherwise, and not at all for 0", async () => {
    const main = ownNice();
    assert.equal(await workerNice(), Math.min(19, main + WORKER_NICE));
    assert.equal(await workerNice(REQUEST_NICE), Math.min(19, main + REQUEST_NICE));
    assert.equal(await workerNice(0), main);
    assert.equal(ownNice(), main, "the caller's own priority is unchanged");
  });
});

describe("worker loading: sources (.ts, through tsx) or compiled (.js, plain node)", () => {
  it("isTypeScript: .ts, .mts and .cts files (URL or path) are sources; .js, .mjs and .cjs are not", () => {
    for (const m of ["file:///a/b/worker.ts", "/a/b/worker.mts", "src/x.cts", new URL("file:///a/main.ts")]) assert.equal(isTypeScript(m), true, String(m));
    for (const m of ["file:///a/b/worker.js", "/a/b/worker.mjs", "dist/x.cjs", new URL("file:///a/main.js"), "file:///a/ts", "file:///a/b.ts.js"]) assert.equal(isTypeScript(m), false, String(m));
  });

  it("moduleUrl: a module named as in the sources is the .ts file beside a .ts caller and the .js file beside a compiled .js caller", () => {
    assert.equal(moduleUrl("./worker.ts", "file:///app/src/tasks/pool.ts").href, "file:///app/src/tasks/worker.ts");
    assert.equal(moduleUrl("./worker.ts", "file:///app/dist/tasks/pool.js").href, "file:///app/dist/tasks/worker.js");
    assert.equal(moduleUrl("../store/current-worker.mts", "file:///app/dist/tasks/pool.js").href, "file:///app/dist/store/current-worker.mjs");
    // Not a module: left as it is.
    assert.equal(moduleUrl("../../ontology/x.ttl", "file:///app/dist/http/a.js").href, "file:///app/ontology/x.ttl");
  });

  it("a .js entry is imported by plain node (its own URL, no tsx namespace), a .ts entry through tsx; both lowered to the same priority", async () => {
    const main = ownNice();
    const jsEntry = moduleUrl("../../helpers/nice-worker.ts", new URL("spawn.test.js", import.meta.url).href);
    assert.ok(jsEntry.pathname.endsWith("/test/helpers/nice-worker.js"), jsEntry.href);
    const js = await workerPost(jsEntry, REQUEST_NICE);
    assert.equal(js.url, jsEntry.href);
    assert.equal(js.nice, Math.min(19, main + REQUEST_NICE));
    const ts = await workerPost(ENTRY, REQUEST_NICE);
    assert.ok(ts.url.startsWith(`${ENTRY.href}?tsx-namespace=`), ts.url);
    assert.equal(ts.nice, Math.min(19, main + REQUEST_NICE));
  });
});

describe("lowerHelperThreads", () => {
  it("lowers every other thread still at the main thread's priority (V8's and libuv's helpers) and leaves the main thread and the workers that lowered themselves", async () => {
    const w = spawnWorker(ENTRY, {}, 7);
    const [{ nice: workerValue }] = (await once(w, "message")) as [Posted];
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
