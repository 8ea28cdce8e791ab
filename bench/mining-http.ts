/**
 * BBRC on Kazius through HTTP (the event loop must stay free meanwhile): upload kazius.csv,
 * POST /algorithm/miner/bbrc with the default parameters, poll the task every 50 ms
 * (text/uri-list) and report, per run: the time from POST to the result being visible to the
 * polling client, the task's own startedAt → finishedAt, the lag from finishedAt to visibility,
 * the size of the result (triples, from the service description's qg:triplesCurrent before and
 * after), and the CPU time the server process used (all its threads, from /proc; less sensitive
 * to a busy machine than the wall times), and the server's event-loop stalls over 100 ms
 * (QSARGRAPH_TIMING=1) during the run, with the main thread's CPU time in each.
 *
 *   npx tsx bench/mining-http.ts [runs]
 */
import { readFileSync } from "node:fs";

/** CPU seconds (user + system) a process has used, all threads (proc(5) fields 14 and 15, ticks of 10 ms). */
function processCpuS(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
}
import { DATA, get, postForm, removeDir, startServer, uploadFile, waitForTask } from "../test/helpers/server.ts";

const RUNS = Number(process.argv[2] ?? 3);
const srv = await startServer({ env: { QSARGRAPH_TIMING: "1" } });
try {
  const up = await uploadFile(srv.base, readFileSync(`${DATA}lazar/test/data/kazius.csv`), "kazius.csv");
  const dataset = (await waitForTask((await up.text()).trim(), 600_000)).body;
  // Let the workers warm up as a running service has.
  await new Promise((r) => setTimeout(r, 3000));
  const triples = async (): Promise<number> => Number(/triplesCurrent> "(\d+)"/.exec(await (await get(`${srv.base}/`, "application/n-triples")).text())?.[1]);
  console.log(`kazius BBRC through HTTP, ${new Date().toISOString()}, node ${process.version}`);
  console.log("run  POST→visible s  started→finished s  finished→visible s  server CPU s  result triples  stalls > 100 ms (wall/main-thread CPU ms)");
  for (let run = 1; run <= RUNS; run++) {
    const before = await triples();
    const mark = srv.output().length;
    const cpu0 = processCpuS(srv.proc.pid!);
    const t0 = performance.now();
    const r = await postForm(`${srv.base}/algorithm/miner/bbrc`, { dataset_uri: dataset });
    const task = (await r.text()).trim();
    let visibleAt = 0;
    for (;;) {
      const p = await get(task, "text/uri-list");
      const body = (await p.text()).trim();
      if (body !== task) {
        visibleAt = Date.now();
        if (p.status !== 200) throw new Error(`task failed: ${body}`);
        break;
      }
      await new Promise((res) => setTimeout(res, 50));
    }
    const wall = (performance.now() - t0) / 1000;
    const cpu = processCpuS(srv.proc.pid!) - cpu0;
    const nt = await (await get(task, "application/n-triples")).text();
    const at = (p: string): number => Date.parse(new RegExp(`${p}> "([^"]+)"`).exec(nt)?.[1] ?? "");
    const started = at("startedAt") || at("http://purl.org/dc/terms/date");
    const finished = at("finishedAt");
    // Stalls with the main thread's CPU time in them: on a machine with more busy threads than
    // cores, a stall with little CPU is the thread waiting for a core, not work holding the loop.
    const stalls = [...srv.output().slice(mark).matchAll(/event loop stalled (\d+) ms[^\n]*?(?:main thread CPU (\d+) ms)?\)/g)].map((m) => `${m[1]}${m[2] !== undefined ? `/${m[2]}` : ""}`);
    const after = await triples();
    if (process.env.VERBOSE) console.log(srv.output().slice(mark).split("\n").filter((l) => /TMP-TIMING|stalled/.test(l)).join("\n"));
    console.log(`${String(run).padStart(3)}  ${wall.toFixed(2).padStart(13)}  ${((finished - started) / 1000).toFixed(2).padStart(18)}  ${((visibleAt - finished) / 1000).toFixed(2).padStart(18)}  ${cpu.toFixed(1).padStart(12)}  ${String(after - before).padStart(14)}  ${stalls.length ? stalls.join(" ") : "none"}`);
  }
} finally {
  await srv.stop();
  removeDir(srv.dataDir);
}
