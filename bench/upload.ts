/**
 * Upload benchmark: wall time and the server's peak RSS for uploading kazius.csv (4069 rows)
 * and MoleculeNet muv.csv (93,127 rows) over HTTP, Kazius' SD file cas_4337.sdf (4337 records)
 * alone on a fresh server, and the restart time with the two CSVs stored
 * (process start → listening, and → first dataset served). Each figure is the median of RUNS
 * runs (default 3), each on a fresh data directory. After the server listens it gets SETTLE_MS
 * (3 s) to start its workers and warm RDKit up, as a running service has; the first upload of a
 * cold server is printed separately (kazius, no settling).
 *
 *   npx tsx bench/upload.ts [runs]
 *
 * Goals: Kazius ≤ 2 s, MUV ≤ 30 s, restart ≤ 10 s, cas_4337.sdf ≤ 5 s.
 */
import { readFileSync } from "node:fs";
import { availableParallelism, cpus, totalmem } from "node:os";
import { DATA, removeDir, startServer, uploadFile, waitForTask, type TestServer } from "../test/helpers/server.ts";

const RUNS = Number(process.argv[2] ?? 3);
const SETTLE_MS = 3000;
const FILES = [
  ["kazius.csv", `${DATA}lazar/test/data/kazius.csv`],
  ["muv.csv", `${DATA}moleculenet/muv.csv`],
] as const;

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function timedUpload(srv: TestServer, path: string, name: string): Promise<{ ms: number; dataset: string }> {
  const bytes = readFileSync(path);
  const t0 = performance.now();
  const r = await uploadFile(srv.base, bytes, name);
  const task = (await r.text()).trim();
  const done = await waitForTask(task, 600_000);
  const ms = performance.now() - t0;
  if (done.status !== 200) throw new Error(`${name}: task failed ${done.status} ${done.body}`);
  return { ms, dataset: done.body };
}

const SDF: readonly [string, string] = ["cas_4337.sdf", `${DATA}lazar/data/parts/cas_4337.sdf`];
const results: Record<string, number[]> = { "kazius.csv": [], "muv.csv": [], rssKazius: [], rssBoth: [], restartListen: [], restartServe: [], cold: [], sdf: [] };

for (let run = 1; run <= RUNS; run++) {
  const cold = await startServer();
  const first = await timedUpload(cold, FILES[0][1], FILES[0][0]);
  results.cold!.push(first.ms);
  console.log(`run ${run}: kazius.csv on a cold server (upload right after it listens) ${(first.ms / 1000).toFixed(2)} s`);
  await cold.stop();
  removeDir(cold.dataDir);

  const sd = await startServer();
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const sdf = await timedUpload(sd, SDF[1], SDF[0]);
  results.sdf!.push(sdf.ms);
  console.log(`run ${run}: cas_4337.sdf on a fresh server ${(sdf.ms / 1000).toFixed(2)} s`);
  await sd.stop();
  removeDir(sd.dataDir);

  let srv = await startServer();
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const datasets: string[] = [];
  for (const [name, path] of FILES) {
    const { ms, dataset } = await timedUpload(srv, path, name);
    datasets.push(dataset);
    results[name]!.push(ms);
    results[name === "kazius.csv" ? "rssKazius" : "rssBoth"]!.push(peakRssMb(srv.proc.pid!));
    console.log(`run ${run}: ${name} uploaded in ${(ms / 1000).toFixed(2)} s, server peak RSS ${peakRssMb(srv.proc.pid!).toFixed(0)} MB`);
  }
  await srv.stop();
  const t0 = performance.now();
  srv = await startServer({ dataDir: srv.dataDir, port: Number(new URL(srv.base).port) });
  const listen = performance.now() - t0;
  for (const d of datasets) {
    const url = d;
    const r = await fetch(url, { headers: { Accept: "text/uri-list" } });
    if (r.status !== 200) throw new Error(`after restart ${url} answered ${r.status}`);
    await r.arrayBuffer();
  }
  const serve = performance.now() - t0;
  results.restartListen!.push(listen);
  results.restartServe!.push(serve);
  console.log(`run ${run}: restart to listening ${(listen / 1000).toFixed(2)} s, to both datasets served ${(serve / 1000).toFixed(2)} s`);
  await srv.stop();
  removeDir(srv.dataDir);
}

console.log(`\nmachine: ${cpus()[0]?.model ?? "?"}, ${availableParallelism()} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; node ${process.version}; ${RUNS} runs, medians:`);
console.log(`kazius.csv (4069 rows)   upload ${(median(results["kazius.csv"]!) / 1000).toFixed(2)} s   peak RSS ${median(results.rssKazius!).toFixed(0)} MB   (cold server: ${(median(results.cold!) / 1000).toFixed(2)} s)`);
console.log(`muv.csv (93,127 rows)    upload ${(median(results["muv.csv"]!) / 1000).toFixed(2)} s   peak RSS ${median(results.rssBoth!).toFixed(0)} MB (both stored)`);
console.log(`restart with both        listening ${(median(results.restartListen!) / 1000).toFixed(2)} s   both served ${(median(results.restartServe!) / 1000).toFixed(2)} s`);
console.log(`cas_4337.sdf (4337 recs) upload ${(median(results.sdf!) / 1000).toFixed(2)} s on a fresh server`);
