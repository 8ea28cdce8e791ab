/**
 * How large job inputs and outputs cross between the main thread and the in-process pool's worker
 * threads (src/tasks/pool.ts), measured as the longest event-loop stall of the main thread
 * (perf_hooks.monitorEventLoopDelay, 10 ms resolution) while they cross.
 *
 * Inputs: three jobs of one task carrying the same upload bytes (as dataset.prepare, .header and
 * the .build parts do), one at a time, for the MUV upload (fixtures/data/moleculenet/muv.csv, 6.7 MB)
 * and a 200 MB upload; each a fresh Uint8Array (a new upload), the first job's time included.
 * Outputs: one job returning a 200 MB Uint8Array (moved: worker.ts transfers it) and one returning
 * ~50 MB of small records (deserialised on receipt, on the main thread).
 * Then a real job's output: dataset.prepare of muv.csv (the service's job module, no RDKit), whose
 * output (cells and rows per chunk, the table's summary) is deserialised here on receipt; printed
 * with its v8.serialize size and the time v8.deserialize takes for it on this thread.
 * Each case runs `--rounds` times (default 3); printed: the median and the range.
 *
 *   npx tsx bench/pool-inputs.ts [--rounds N]
 */
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { deserialize, serialize } from "node:v8";
import { DATA } from "../test/helpers/data.ts";
import { servicePool } from "../src/algorithms/jobs.ts";
import { prepareUpload } from "../src/algorithms/upload/job.ts";
import { WorkerPool } from "../src/tasks/pool.ts";
import type { PoolTestJobs } from "../test/helpers/pool-jobs.ts";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "3" } } });
const ROUNDS = Number(values.rounds);
const pool = new WorkerPool<PoolTestJobs>(1, { module: new URL("../test/helpers/pool-jobs.ts", import.meta.url) });

/** The longest stall (ms) and the wall time (ms) of `work`. */
async function stall(work: () => Promise<unknown>): Promise<{ maxMs: number; ms: number }> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const t0 = performance.now();
  await work();
  const ms = performance.now() - t0;
  // one more turn, so that a stall at the very end is recorded
  await new Promise((r) => setTimeout(r, 20));
  h.disable();
  return { maxMs: Math.max(0, h.max / 1e6 - 10), ms };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]): string => `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;

async function rounds(name: string, make: () => unknown, work: (x: unknown) => Promise<unknown>): Promise<void> {
  const stalls: number[] = [];
  const walls: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const x = make();
    await new Promise((res) => setTimeout(res, 200));
    const s = await stall(() => work(x));
    stalls.push(s.maxMs);
    walls.push(s.ms);
  }
  console.log(`${name}: longest stall ${fmt(stalls)}; wall ${fmt(walls)}`);
}

try {
  await pool.run("length", { bytes: new Uint8Array(10) }); // the worker started
  const muv = readFileSync(`${DATA}moleculenet/muv.csv`);
  const big = new Uint8Array(200 * 1024 * 1024).map((_, i) => 32 + (i % 90));
  const three = async (bytes: Uint8Array, owner: string): Promise<void> => {
    for (let index = 0; index < 3; index++) await pool.run("length", { bytes, format: "csv", part: { index, count: 3 } } as never, { owner });
  };
  let n = 0;
  await rounds(`input: muv.csv (${(muv.byteLength / 1e6).toFixed(1)} MB), three jobs`, () => Uint8Array.from(muv), (b) => three(b as Uint8Array, `t${n++}`));
  await rounds(`input: 200 MB, three jobs`, () => big.slice(), (b) => three(b as Uint8Array, `t${n++}`));
  await rounds("output: a 200 MB Uint8Array", () => null, () => pool.run("make", { kind: "bytes", mb: 200 }));
  await rounds("output: ~50 MB of records (2.1M {i, name})", () => null, () => pool.run("make", { kind: "objects", mb: 50 }));
  const service = servicePool(1, { rdkit: false });
  try {
    await service.run("dataset.prepare", { bytes: new TextEncoder().encode("smiles,y\nCCO,1\n"), format: "csv" });
    await rounds("output: dataset.prepare of muv.csv (a real job)", () => Uint8Array.from(muv), (b) => service.run("dataset.prepare", { bytes: b as Uint8Array, format: "csv" }));
  } finally {
    await service.close();
  }
  const out = serialize(prepareUpload({ bytes: muv, format: "csv" }));
  const times = Array.from({ length: ROUNDS }, () => {
    const t0 = performance.now();
    deserialize(out);
    return performance.now() - t0;
  });
  console.log(`  its output: ${(out.length / 1e6).toFixed(1)} MB serialised; v8.deserialize on this thread ${fmt(times)}`);
} finally {
  await pool.close();
}
