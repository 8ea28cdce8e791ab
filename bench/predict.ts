/**
 * Prediction speed of a lazar model over HTTP (goal: single-compound p50 ≤ 50 ms): a Kazius
 * BBRC model (kazius.csv, 4069 rows, default 5 ‰ → min frequency 20, weighted majority vote);
 * then
 *   - the first prediction right after the model was built (goal: ≤ 1 s), printed on its own;
 *   - single compounds: POST <model> compound_uri=… for the compounds of EPAFHM.csv (617), one
 *     at a time, wall time per request (a query that is a Kazius training compound is answered
 *     as measured). Run 1 predicts (201); in later runs the same requests are answered with the
 *     stored predictions (200), printed as lookups;
 *   - a dataset: POST <model> dataset_uri=<EPAFHM> as a task, compounds per second.
 * Prints medians of several runs where it says so.
 *
 *   npx tsx bench/predict.ts [runs]
 */
import { readFileSync } from "node:fs";
import { DATA, removeDir, startServer, uploadDataset, waitForTask } from "../test/helpers/server.ts";

const runs = Number(process.argv[2] ?? 3);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const srv = await startServer();
try {
  const kazius = await uploadDataset(srv.base, `${DATA}lazar/test/data/kazius.csv`);
  let t0 = performance.now();
  const r = await fetch(`${srv.base}/algorithm/lazar`, { method: "POST", body: new URLSearchParams({ dataset_uri: kazius }), headers: { Accept: "text/uri-list" } });
  const model = (await waitForTask((await r.text()).trim(), 600_000)).body;
  console.log(`model built in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${model}`);
  const epa = await uploadDataset(srv.base, `${DATA}lazar/test/data/EPAFHM.csv`);
  const compounds = (await (await fetch(epa, { headers: { Accept: "text/uri-list" } })).text()).split(/\r?\n/).filter(Boolean);
  {
    // The first prediction after the build (the model's data is read and, in a worker, built).
    const t = performance.now();
    const p = await fetch(model, { method: "POST", body: new URLSearchParams({ compound_uri: compounds[0]! }), headers: { Accept: "text/uri-list" } });
    await p.text();
    if (p.status !== 201) throw new Error(`prediction answered ${p.status}`);
    console.log(`first prediction after the build: ${(performance.now() - t).toFixed(0)} ms`);
  }
  const p50s: number[] = [];
  const p99s: number[] = [];
  const rates: number[] = [];
  for (let run = 1; run <= runs; run++) {
    const ms: number[] = [];
    for (const [i, c] of compounds.entries()) {
      const t = performance.now();
      const p = await fetch(model, { method: "POST", body: new URLSearchParams({ compound_uri: c }), headers: { Accept: "text/uri-list" } });
      await p.text();
      // run 1 predicts (the first compound was predicted above: a lookup), later runs look up
      if (p.status !== (run === 1 && i > 0 ? 201 : 200)) throw new Error(`prediction ${i} of run ${run} answered ${p.status}`);
      if (i > 0) ms.push(performance.now() - t);
    }
    p50s.push(pct(ms, 50));
    p99s.push(pct(ms, 99));
    t0 = performance.now();
    const d = await fetch(model, { method: "POST", body: new URLSearchParams({ dataset_uri: epa }), headers: { Accept: "text/uri-list" } });
    await waitForTask((await d.text()).trim(), 600_000);
    const rate = compounds.length / ((performance.now() - t0) / 1000);
    rates.push(rate);
    console.log(`run ${run}: single compound ${run === 1 ? "(predicted)" : "(stored, looked up)"} p50 ${pct(ms, 50).toFixed(1)} ms, p99 ${pct(ms, 99).toFixed(1)} ms (${ms.length} requests); dataset of ${compounds.length}: ${rate.toFixed(0)} compounds/s`);
  }
  const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1] ?? "?";
  console.log(`\nmachine: ${cpu}, node ${process.version}; ${runs} runs, medians:`);
  console.log(`single compound predicted (Kazius BBRC model, EPAFHM queries, run 1)  p50 ${p50s[0]!.toFixed(1)} ms   p99 ${p99s[0]!.toFixed(1)} ms`);
  if (runs > 1) console.log(`single compound asked again (stored prediction, median of runs 2–${runs})  p50 ${median(p50s.slice(1)).toFixed(1)} ms   p99 ${median(p99s.slice(1)).toFixed(1)} ms`);
  console.log(`dataset prediction (EPAFHM, ${compounds.length} compounds)         ${median(rates).toFixed(0)} compounds/s`);
} finally {
  await srv.stop();
  removeDir(srv.dataDir);
}
