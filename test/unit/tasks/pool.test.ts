/**
 * Tests of src/tasks/pool.ts with real worker threads: a job's time budget (counted from when a
 * ready worker takes it; past it the worker is stopped and replaced), the bound on waiting for a
 * worker (only the waiting job is dropped) and the replacement of a worker whose RDKit memory
 * grew past the pool's threshold. Reference InChI: ethanol, PubChem CID 702.
 */
import { EventEmitter } from "node:events";
import { test } from "node:test";
import assert from "node:assert/strict";
import type { WorkerPool } from "../../../src/tasks/pool.ts";
import { servicePool, type Jobs } from "../../../src/algorithms/jobs.ts";
import { ServiceUnavailable } from "../../../src/errors.ts";

const ETHANOL = "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3";
/** A slow job within the limits: drawing a 299-atom methyl comb at 4096 × 4096 (seconds; limits.ts). */
const SLOW = { smiles: "C" + "C(C)".repeat(149), width: 4096, height: 4096 };

async function ethanol(pool: WorkerPool<Jobs>): Promise<string | undefined> {
  const r = await pool.run("chem.identify", { cell: "CCO" });
  return r.ok ? r.value.inchi : undefined;
}

test("time budgets: counted once a ready worker runs the job; past it 503 and a new worker; a wait bound drops only the waiting job", async () => {
  const pool = servicePool(1);
  try {
    // Submitted while the worker starts (seconds: tsx, RDKit, warm-up): the budget is not spent waiting.
    const first = await pool.run("chem.identify", { cell: "CCO" }, { timeoutMs: 1000 });
    assert.equal(first.ok && first.value.inchi, ETHANOL);
    let started = false;
    await assert.rejects(
      pool.run("chem.depict", SLOW, { timeoutMs: 100, onStart: () => (started = true) }),
      (e: unknown) => e instanceof ServiceUnavailable && /chem\.depict.*time budget of 100 ms/.test(e.message),
    );
    assert.equal(started, true);
    assert.equal(await ethanol(pool), ETHANOL); // on the new worker
    // A job waiting behind a slow one: dropped when its budget ends, the slow one finishes.
    const running = pool.run("chem.depict", SLOW);
    let waited = false;
    await assert.rejects(
      pool.run("chem.identify", { cell: "CCO" }, { maxWaitMs: 50, timeoutMs: 60_000, onStart: () => (waited = true) }),
      (e: unknown) => e instanceof ServiceUnavailable && /no worker was free .* within 50 ms/.test(e.message),
    );
    assert.equal(waited, false);
    assert.match((await running) ?? "", /<\/svg>/);
    assert.equal(pool.recycled, 0); // normal jobs stay under the memory threshold
  } finally {
    await pool.close();
  }
});

test("a worker whose RDKit memory passed the threshold is replaced after answering", async () => {
  const pool = servicePool(1, { recycleWasmBytes: 1 }); // every job that loaded RDKit passes it
  try {
    assert.equal(await ethanol(pool), ETHANOL);
    assert.equal(pool.recycled, 1);
    assert.equal(await ethanol(pool), ETHANOL);
    assert.equal(pool.recycled, 2);
  } finally {
    await pool.close();
  }
});

test("a finished job leaves no listener on its task's signal (a listener held each job's output until the task ended)", async () => {
  const pool = servicePool(1);
  const task = new AbortController();
  try {
    for (let i = 0; i < 20; i++) assert.equal((await pool.run("chem.identify", { cell: "CCO" }, { signal: task.signal })).ok, true);
    await assert.rejects(pool.run("chem.depict", SLOW, { signal: task.signal, timeoutMs: 50 }), ServiceUnavailable);
    assert.equal(EventEmitter.getEventListeners(task.signal, "abort").length, 0, "listeners left on the task's signal after 21 settled jobs");
    // and a running job is still cancelled by it
    const running = pool.run("chem.depict", SLOW, { signal: task.signal });
    await new Promise((r) => setTimeout(r, 50));
    task.abort();
    await assert.rejects(running, /cancelled/);
  } finally {
    await pool.close();
  }
});
