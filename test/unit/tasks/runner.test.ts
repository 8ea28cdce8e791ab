/**
 * The task runner's bounds (src/tasks/runner.ts): the queue of unfinished tasks and the time
 * budget of a task. A real GraphStore on a temporary data directory; the operations here are
 * main-thread functions that wait on promises the test controls (no pool jobs: the pool has no
 * workers), so every state is reached on purpose, not by timing.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Cancelled, ServiceUnavailable } from "../../../src/errors.ts";
import { isFinished, taskQuads, type TaskState } from "../../../src/resources/task.ts";
import { Uris } from "../../../src/resources/uris.ts";
import { GraphStore } from "../../../src/store/graph-store.ts";
import { Vocab } from "../../../src/store/vocab.ts";
import { servicePool, type Jobs } from "../../../src/algorithms/jobs.ts";
import { duration, TaskRunner, type Operation, type TaskLimits } from "../../../src/tasks/runner.ts";

const BASE = "http://localhost:8080";
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function withRunner(limits: TaskLimits, fn: (r: TaskRunner, store: GraphStore) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "qsargraph-runner-"));
  dirs.push(dir);
  const store = await GraphStore.open(dir);
  const pool = servicePool(0);
  const runner = new TaskRunner<Jobs>(store, pool, new Uris(BASE), new Vocab(BASE), limits);
  try {
    await fn(runner, store);
  } finally {
    await runner.idle();
    await pool.close();
    await store.close();
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function finished(r: TaskRunner, t: TaskState): Promise<TaskState> {
  return new Promise((resolve) => {
    const check = (s: TaskState): void => {
      if (!isFinished(s.status)) return;
      r.events.off(t.id, check);
      resolve(s);
    };
    r.events.on(t.id, check);
    check(t);
  });
}

const waitFor = (gate: Promise<void>, graph = "urn:x"): Operation => async () => {
  await gate;
  return { ops: [{ graph, ntriples: `<${graph}> <urn:p> "done" .\n` }], resultUri: graph };
};

test("queue: at most maxPending unfinished tasks; one more is a 503 with Retry-After and creates nothing", async () => {
  await withRunner({ maxPending: 2, timeLimitMs: 60_000 }, async (r) => {
    const gate = deferred();
    const a = await r.submit("a", "test", waitFor(gate.promise, "urn:a"));
    await r.submit("b", "test", waitFor(gate.promise, "urn:b"));
    await assert.rejects(
      r.submit("c", "test", waitFor(gate.promise, "urn:c")),
      (e: unknown) => {
        assert.ok(e instanceof ServiceUnavailable, String(e));
        assert.match(e.message, /2 unfinished tasks.*MAX_PENDING_TASKS = 2.*--max-pending-tasks.*nothing was created/);
        // Nothing has progressed: the soonest end is a budget's end, at most 60 s away.
        const s = e.details.retryAfter!;
        assert.ok(Number.isInteger(s) && s >= 1 && s <= 60, `Retry-After ${s}`);
        return true;
      },
    );
    assert.equal(r.list().length, 2, "no third task");
    gate.resolve();
    await finished(r, a);
    await r.idle();
    assert.equal(r.pending, 0);
    const c = await r.submit("c", "test", waitFor(Promise.resolve(), "urn:c"));
    assert.equal((await finished(r, c)).status, "Completed");
  });
});

test("queue: concurrent submits cannot pass the bound together", async () => {
  await withRunner({ maxPending: 2, timeLimitMs: 60_000 }, async (r) => {
    const gate = deferred();
    const results = await Promise.allSettled([1, 2, 3, 4].map((i) => r.submit(`t${i}`, "test", waitFor(gate.promise, `urn:t${i}`))));
    assert.deepEqual(results.map((x) => x.status).sort(), ["fulfilled", "fulfilled", "rejected", "rejected"]);
    assert.equal(r.list().length, 2);
    gate.resolve();
  });
});

test("budget: an operation that ignores the abort ends Error naming the budget; what it staged is discarded, nothing is stored", async () => {
  await withRunner({ maxPending: 4, timeLimitMs: 300 }, async (r, store) => {
    const gate = deferred();
    const op: Operation = async () => {
      const stage = store.stage("urn:staged");
      await stage.load(`<urn:s> <urn:p> "1" .\n<urn:s> <urn:p> "2" .\n`);
      await gate.promise; // never reacts to the signal
      return { ops: [{ graph: "urn:staged", ntriples: `<urn:s> <urn:p> "1" .\n<urn:s> <urn:p> "2" .\n` }], resultUri: "urn:staged", preloaded: [stage] };
    };
    const t = await r.submit("slow", "test", op);
    const end = await finished(r, t);
    assert.equal(end.status, "Error");
    assert.equal(end.error?.code, "TaskTimeLimit");
    assert.equal(end.error?.status, 503);
    assert.match(end.error!.message, /time budget of 0 s \(TASK_TIME_LIMIT_S = 0, option --task-time-limit-s\).*nothing of it was stored/);
    assert.equal(end.resultUri, undefined);
    assert.equal(store.has("urn:staged"), false);
    // The abandoned operation finishes later: its staged graph is dropped, never published.
    // The triples the in-memory store holds in the staged graph (dump reads it whether or not it is published).
    const staged = async (): Promise<number> => (await store.dump("urn:staged", "application/n-triples")).split("\n").filter(Boolean).length;
    assert.equal(await staged(), 2, "loaded while the task ran");
    gate.resolve();
    for (let i = 0; i < 100 && (await staged()) > 0; i++) await new Promise((res) => setTimeout(res, 20));
    assert.equal(await staged(), 0, "no quads of the staged graph remain");
    assert.equal(store.has("urn:staged"), false);
    // The new state is durable in the task graph.
    assert.ok((await store.dump(t.uri, "application/n-triples")).includes("TaskTimeLimit"));
  });
});

test("budget: an operation that stops on the abort ends Error (not Cancelled); a cancel is still Cancelled", async () => {
  await withRunner({ maxPending: 4, timeLimitMs: 200 }, async (r) => {
    const aware: Operation = (ctx) =>
      new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(new Cancelled("cancelled")), { once: true }));
    const t = await r.submit("aware", "test", aware);
    const end = await finished(r, t);
    assert.deepEqual([end.status, end.error?.code], ["Error", "TaskTimeLimit"]);
  });
  await withRunner({ maxPending: 4, timeLimitMs: 60_000 }, async (r) => {
    const t = await r.submit("cancelled", "test", waitFor(new Promise(() => undefined)));
    assert.equal(await r.cancel(t.id), true);
    const end = r.get(t.id)!;
    assert.equal(end.status, "Cancelled");
    // a cancelled task says so in an error report of its own (issue 18 point 7), not the budget's
    assert.deepEqual([end.error?.status, end.error?.code], [503, "Cancelled"]);
    assert.match(end.error?.message ?? "", /was cancelled \(DELETE\) before it finished; nothing of it was stored/);
  });
});

test("a task shows its budget: qg:timeLimitSeconds and qg:deadline = creation + budget", async () => {
  await withRunner({ maxPending: 4, timeLimitMs: 90_000 }, async (r) => {
    const t = await r.submit("quick", "test", waitFor(Promise.resolve()));
    const v = new Vocab(BASE);
    const q = taskQuads(t, v);
    const one = (p: string): string | undefined => q.find((x) => x.predicate.value === p)?.object.value;
    assert.equal(one(v.qg.timeLimitSeconds.value), "90");
    assert.equal(new Date(one(v.qg.deadline.value)!).getTime(), t.createdAt.getTime() + 90_000);
  });
  assert.equal(duration(3_600_000), "1 h");
  assert.equal(duration(125_000), "2 min 5 s");
  assert.equal(duration(1000), "1 s");
});

test("warm: runs after the result is committed (it can read it) and before the task reports Completed; a failing warm-up leaves the result and Completed", async () => {
  await withRunner({ maxPending: 4, timeLimitMs: 60_000 }, async (r, store) => {
    const gate = deferred();
    let sawResult: boolean | undefined;
    let statusDuring: string | undefined;
    let t!: TaskState;
    const op: Operation = async () => ({
      ops: [{ graph: "urn:w", ntriples: `<urn:w> <urn:p> "done" .\n` }],
      resultUri: "urn:w",
      warm: async () => {
        sawResult = store.has("urn:w");
        statusDuring = t.status;
        await gate.promise;
      },
    });
    t = await r.submit("w", "test", op);
    for (let i = 0; i < 200 && sawResult === undefined; i++) await new Promise((res) => setTimeout(res, 5));
    assert.equal(sawResult, true, "the result is committed when the warm-up runs");
    assert.notEqual(statusDuring, "Completed", "not Completed while warming");
    assert.notEqual(t.status, "Completed");
    gate.resolve();
    const done = await finished(r, t);
    assert.equal(done.status, "Completed");
    assert.equal(done.resultUri, "urn:w");

    const failing: Operation = async () => ({ ops: [{ graph: "urn:f", ntriples: `<urn:f> <urn:p> "x" .\n` }], resultUri: "urn:f", warm: async () => Promise.reject(new Error("cache could not be filled")) });
    const f = await finished(r, await r.submit("f", "test", failing));
    assert.equal(f.status, "Completed");
    assert.equal(store.has("urn:f"), true);
  });
});
