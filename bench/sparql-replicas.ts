/**
 * What the SPARQL replica workers cost and how fast a replaced one is back: a data directory with
 * Kazius (fixtures/data/lazar/test/data/kazius.csv, 4069 rows) and its BBRC features (default
 * minimum frequency) is built once through the service; then the server is started on it with
 * SPARQL_WORKERS=1 and =2 and, for each,
 * - the time from process start to "listening" (the writer's recovery; the first worker loads
 *   meanwhile) and from there until every worker has loaded (the home page says "0 loading"),
 * - the server's resident memory once they have (VmRSS from /proc; the process includes the
 *   writer's store, the task pool and every replica),
 * - the reload time of a worker replaced after its client went away (a cross join aborted once
 *   it runs; from the worker's termination until the home page says "0 loading" again),
 * - a large result: the first 100,000 triples as SPARQL JSON (time, size) and the event-loop
 *   stalls over 100 ms the server logged meanwhile (QSARGRAPH_TIMING=1), next to those it logged
 *   in 10 s of doing nothing (on a busy machine the scheduler alone delays the loop).
 *
 *   nice -n 19 npx tsx bench/sparql-replicas.ts [data-dir]
 *
 * With a data dir that exists it is used as it is (and kept); one that does not is built and kept.
 */
import { existsSync, readFileSync } from "node:fs";
import { DATA, freshDir, get, postForm, removeDir, startServer, uploadDataset, waitForTask, type TestServer } from "../test/helpers/server.ts";
import { QG_NS } from "../src/store/vocab.ts";

const KAZIUS = `${DATA}lazar/test/data/kazius.csv`;
const given = process.argv[2];
const dir = given ?? freshDir("qsargraph-bench-sparql-");

function rssMb(pid: number): { rss: number; hwm: number } {
  const s = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string): number => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? NaN);
  return { rss: Math.round(kb("VmRSS") / 1024), hwm: Math.round(kb("VmHWM") / 1024) };
}

async function allLoaded(base: string): Promise<number> {
  const t0 = performance.now();
  while (!(await (await get(`${base}/`, "text/html")).text()).includes("0 loading the data")) await new Promise((res) => setTimeout(res, 20));
  return performance.now() - t0;
}

async function figure(base: string, name: string): Promise<number> {
  const nt = await (await get(`${base}/`, "application/n-triples")).text();
  return Number(new RegExp(`<${QG_NS}${name}> "(\\d+)"`).exec(nt)?.[1]);
}

const stalls = (srv: TestServer, from: number): string[] => srv.output().slice(from).split("\n").filter((l) => l.startsWith("event loop stalled"));

// 1. The data.
if (!given || !existsSync(given)) {
  const srv = await startServer({ dataDir: dir });
  const ds = await uploadDataset(srv.base, KAZIUS);
  const r = await postForm(`${srv.base}/algorithm/miner/bbrc`, { dataset_uri: ds });
  const done = await waitForTask((await r.text()).trim(), 1_800_000);
  if (done.status !== 200) throw new Error(`BBRC failed: ${done.body}`);
  console.log(`data: kazius ${ds}, BBRC features ${done.body}; ${await figure(srv.base, "triplesCurrent")} triples`);
  await srv.stop();
}

// 2. One and two workers.
for (const workers of [1, 2]) {
  const srv = await startServer({ dataDir: dir, env: { SPARQL_WORKERS: String(workers), SPARQL_TIMEOUT_MS: "60000", QSARGRAPH_TIMING: "1" } });
  const base = srv.base;
  const readyMs = Number(/ready in (\d+) ms/.exec(srv.output())?.[1]);
  const loadMs = await allLoaded(base);
  await new Promise((res) => setTimeout(res, 3000));
  const mem = rssMb(srv.proc.pid!);

  // Control: stalls the server logs while it does nothing (on a busy machine, the scheduler's).
  let logged = srv.output().length;
  await new Promise((res) => setTimeout(res, 10_000));
  const idleStalls = stalls(srv, logged);

  // Abort a cross join once it runs; the worker is terminated after the grace and reloads.
  const ac = new AbortController();
  const aborted = fetch(`${base}/sparql?query=${encodeURIComponent("SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }")}`, { signal: ac.signal }).catch(() => undefined);
  while (!(await (await get(`${base}/`, "text/html")).text()).includes("(1 running a query")) await new Promise((res) => setTimeout(res, 20));
  ac.abort();
  await aborted;
  const t0 = performance.now();
  while (!(await (await get(`${base}/`, "text/html")).text()).includes(", 1 loading the data")) await new Promise((res) => setTimeout(res, 20));
  const reloadMs = performance.now() - t0 + (await allLoaded(base));
  const restarts = await figure(base, "sparqlWorkerRestarts");

  logged = srv.output().length;
  const t1 = performance.now();
  const big = await fetch(`${base}/sparql?query=${encodeURIComponent("SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 100000")}`, { headers: { Accept: "application/sparql-results+json" } });
  const body = await big.text();
  const bigMs = performance.now() - t1;
  const rows = (JSON.parse(body) as { results: { bindings: unknown[] } }).results.bindings.length;
  const after = rssMb(srv.proc.pid!);
  console.log(
    `workers=${workers}: listening after ${(readyMs / 1000).toFixed(1)} s, all workers loaded ${(loadMs / 1000).toFixed(1)} s later; RSS ${mem.rss} MB (peak ${mem.hwm} MB); ` +
      `worker replaced after an aborted query back in ${(reloadMs / 1000).toFixed(1)} s (restarts ${restarts}); ` +
      `100,000-row JSON result: ${big.status}, ${rows} rows, ${(body.length / 1e6).toFixed(1)} MB in ${(bigMs / 1000).toFixed(2)} s, stalls > 100 ms: ${JSON.stringify(stalls(srv, logged).map((l) => Number(/\d+/.exec(l)![0])))} (in 10 s idle before: ${JSON.stringify(idleStalls.map((l) => Number(/\d+/.exec(l)![0])))}); RSS after ${after.rss} MB (peak ${after.hwm} MB)`,
  );
  await srv.stop();
}
if (!given) removeDir(dir);
