/**
 * The ceiling on the external store (issue 19): the 93,127-compound MoleculeNet MUV set
 * (fixtures/data/moleculenet/muv.csv) uploaded to a service running `--store sparql` on a
 * Virtuoso started for the bench (test/helpers/virtuoso.ts, database in a temporary folder),
 * then one descriptor type computed for all of it (`POST /dataset/{id}/pc`, lib cdk, pc_type
 * topological by default: 175 values per compound), BBRC mined on one of its endpoints
 * (MUV-466 by default; its labelled rows only, the others are empty), and the stored data
 * queried with SPARQL through the service's endpoint.
 *
 * Printed: the triples stored after each step (the service's figure, the sum of its graphs'
 * sizes), each step's wall time, the service process's peak resident memory (VmHWM, which
 * includes its worker threads), the longest event-loop stall it logged (QSARGRAPH_TIMING=1: it
 * logs every stall over 100 ms), and the latency of a client polling the running task (or, between
 * tasks, the home page) every 100 ms with `Accept: text/uri-list` throughout: median, p99, max.
 *
 *   npx tsx bench/scale.ts [compounds=93127] [--pc-type topological] [--endpoint MUV-466] [--skip-mining] [--upload-only]
 *   (--upload-only: the upload and the SPARQL count only, a few minutes: the upload's stalls)
 *   (SERVICE_LOG=path: the service's whole output is written there at the end)
 *
 * Needs Debian's virtuoso-opensource (installed when missing and root). Takes tens of minutes.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { DATA, freshDir, removeDir, startServer, uploadFile, type TestServer } from "../test/helpers/server.ts";
import { startVirtuoso } from "../test/helpers/virtuoso.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { "pc-type": { type: "string", default: "topological" }, endpoint: { type: "string", default: "MUV-466" }, "skip-mining": { type: "boolean", default: false }, "upload-only": { type: "boolean", default: false } },
});
const n = Number(positionals[0] ?? 93127);
const pcType = values["pc-type"]!;
const endpoint = values.endpoint!;

// The first n rows of MUV, all columns (17 sparse binary endpoints, mol_id, smiles).
const lines = readFileSync(`${DATA}moleculenet/muv.csv`, "utf8").split(/\r?\n/).filter(Boolean);
const dir = freshDir("qsargraph-scale-");
const csv = `${dir}/muv-${n}.csv`;
writeFileSync(csv, lines.slice(0, n + 1).join("\n") + "\n");

function memory(pid: number): { rss: number; hwm: number } {
  const s = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string): number => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
}

const percentile = (xs: number[], p: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

/** Polls `target()` every 100 ms with Accept: text/uri-list, recording each answer's latency, until stopped. */
function poller(target: () => string): { latencies: number[]; errors: string[]; stop: () => Promise<void> } {
  const latencies: number[] = [];
  const errors: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      try {
        const r = await fetch(target(), { headers: { Accept: "text/uri-list" } });
        await r.arrayBuffer();
        latencies.push(performance.now() - t);
        if (r.status >= 500) errors.push(`${r.status} from ${target()}`);
      } catch (err) {
        errors.push(String(err));
      }
      await new Promise((res) => setTimeout(res, 100));
    }
  })();
  return {
    latencies,
    errors,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

const v = await startVirtuoso({ buffers: 340_000, resultSetMaxRows: 100_000, maxQueryExecutionTime: 300 });
let srv: TestServer | undefined;
let current = "";
const report: string[] = [];
const log = (line: string): void => {
  console.log(line);
  report.push(line);
};
let polls: ReturnType<typeof poller> | undefined;
let peak = 0;
let sampler: NodeJS.Timeout | undefined;
/** The latencies, memory and stalls so far (also printed when a step fails). */
const summary = async (): Promise<void> => {
  clearInterval(sampler);
  if (!srv || !polls) return;
  await polls.stop();
  // SERVICE_LOG=path keeps the service's whole output (its stalls and [timing] lines) for a closer look.
  if (process.env.SERVICE_LOG) writeFileSync(process.env.SERVICE_LOG, srv.output());
  // Each stall with the main thread's CPU time in it: at least half of it = the service's own work;
  // less = the thread waited (for a core, the disk, a lock) — the machine's share.
  const stallList = [...srv.output().matchAll(/event loop stalled (\d+) ms \(until ([^;]+); main thread CPU (\d+) ms\)/g)].map((m) => ({ ms: Number(m[1]), at: m[2]!, cpu: Number(m[3]) }));
  const stalls = stallList.map((x) => x.ms);
  const own = stallList.filter((x) => 2 * x.cpu >= x.ms);
  const l = polls.latencies;
  log(`poll latency over ${l.length} polls: median ${percentile(l, 50).toFixed(1)} ms, p99 ${percentile(l, 99).toFixed(1)} ms, max ${Math.max(...l).toFixed(0)} ms; errors ${polls.errors.length}${polls.errors.length ? ` (${polls.errors.slice(0, 3).join("; ")})` : ""}`);
  log(`service peak RSS (VmHWM) ${(Math.max(peak, memory(srv.proc.pid!).hwm) / 1024).toFixed(2)} GB; event-loop stalls over 100 ms: ${stalls.length}, longest ${stalls.length ? Math.max(...stalls) : 0} ms`);
  log(`  of which the main thread was on CPU at least half the time: ${own.length}, longest ${own.length ? Math.max(...own.map((x) => x.ms)) : 0} ms`);
  for (const x of [...own].sort((a, b) => b.ms - a.ms).slice(0, 8)) log(`    ${x.ms} ms (CPU ${x.cpu} ms) until ${x.at}`);
};
try {
  srv = await startServer({
    dataDir: `${dir}/data`,
    env: {
      QSARGRAPH_TIMING: "1",
      STORE: "sparql",
      SPARQL_QUERY_URL: v.sparql,
      SPARQL_UPDATE_URL: v.update,
      SPARQL_GSP_URL: v.gsp,
      SPARQL_GSP_PARAM: "graph-uri",
      TASK_TIME_LIMIT_S: "14400",
    },
  });
  const base = srv.base;
  current = `${base}/`;
  polls = poller(() => current);
  sampler = setInterval(() => {
    try {
      peak = Math.max(peak, memory(srv!.proc.pid!).hwm);
    } catch {
      /* the process is gone: reported by the step that fails */
    }
  }, 500);
  const triples = async (): Promise<number> => {
    const nt = await (await fetch(`${base}/`, { headers: { Accept: "application/n-triples" } })).text();
    return Number(/#triplesCurrent> "(\d+)"/.exec(nt)?.[1] ?? NaN);
  };
  /** POST a task, poll it (the poller follows it), return its result URI and wall seconds. */
  const task = async (url: string, params: Record<string, string>): Promise<{ result: string; s: number }> => {
    const t0 = performance.now();
    return follow(await fetch(url, { method: "POST", body: new URLSearchParams(params), headers: { Accept: "text/uri-list" } }), url, t0);
  };
  /** Follow the task of a 202 answer to its end (no time limit of its own: the service's task budget applies). */
  const follow = async (r: Response, what: string, t0: number): Promise<{ result: string; s: number }> => {
    const uri = (await r.text()).trim();
    if (r.status !== 202) throw new Error(`POST ${what} answered ${r.status}: ${uri}`);
    current = uri;
    for (;;) {
      const p = await fetch(uri, { headers: { Accept: "text/uri-list" } });
      const body = (await p.text()).trim();
      if (body !== uri) {
        current = `${base}/`;
        if (p.status !== 200) throw new Error(`task ${uri} ended ${p.status}: ${await (await fetch(uri, { headers: { Accept: "text/plain" } })).text()}`);
        return { result: body, s: (performance.now() - t0) / 1000 };
      }
      await new Promise((res) => setTimeout(res, 1000));
    }
  };
  /** Bytes on disk under `dir` (du), in GB. */
  const diskGb = (path: string): string => {
    const r = spawnSync("du", ["-sb", path], { encoding: "utf8" });
    return (Number(r.stdout.split(/\s/)[0]) / 1e9).toFixed(2);
  };
  const step = (name: string, s: number, t: number): void =>
    log(
      `${name.padEnd(34)} ${s.toFixed(1).padStart(8)} s   triples stored ${t.toLocaleString("en")}   service RSS ${(memory(srv!.proc.pid!).rss / 1024).toFixed(2)} GB   disk: Virtuoso ${diskGb(v.dir)} GB, local body cache ${diskGb(`${dir}/data/bodies`)} GB`,
    );

  log(`scale bench, ${new Date().toISOString()}, node ${process.version}, ${n} MUV compounds, Virtuoso started in ${(v.startMs / 1000).toFixed(1)} s`);
  let t0 = performance.now();
  const up = await follow(await uploadFile(base, readFileSync(csv), `muv-${n}.csv`), "/dataset", t0);
  const dataset = up.result;
  step(`upload (${n} rows)`, up.s, await triples());

  const pc = values["upload-only"] ? undefined : await task(`${dataset}/pc`, { lib: "cdk", pc_type: pcType });
  if (pc) step(`descriptors (cdk ${pcType})`, pc.s, await triples());

  if (pc && !values["skip-mining"]) {
    const features = await (await fetch(`${dataset}/features`, { headers: { Accept: "text/uri-list" } })).text();
    const feature = features.split("\n").find((f) => decodeURIComponent(f).endsWith(endpoint) || f.includes(encodeURIComponent(endpoint)));
    if (!feature) throw new Error(`no feature ${endpoint} in ${dataset}`);
    const mined = await task(`${base}/algorithm/miner/bbrc`, { dataset_uri: dataset, prediction_feature: feature.trim() });
    step(`BBRC on ${endpoint}`, mined.s, await triples());
  }

  // SPARQL through the service: a count over everything, and one page of the descriptor values.
  for (const [name, q] of [
    ["SPARQL: count all triples", "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }"],
    ...(pc ? [["SPARQL: 100 values of one feature", `SELECT ?c ?v WHERE { GRAPH <${pc.result}> { ?e <http://www.opentox.org/api/1.1#values> ?fv . ?fv <http://www.opentox.org/api/1.1#value> ?v } } LIMIT 100`] as const] : []),
  ] as const) {
    t0 = performance.now();
    const r = await fetch(`${base}/sparql`, { method: "POST", body: new URLSearchParams({ query: q }), headers: { Accept: "application/sparql-results+json" } });
    const body = await r.text();
    log(`${name.padEnd(34)} ${((performance.now() - t0) / 1000).toFixed(1).padStart(8)} s   status ${r.status}   ${body.length < 300 ? body.replace(/\s+/g, " ") : `${body.length} bytes`}`);
  }

  await summary();
} catch (err) {
  // What the service logged before the failure (its own account of what went wrong).
  console.error(`service output (last 60 lines):\n${srv?.output().split("\n").slice(-60).join("\n")}`);
  await summary().catch(() => undefined);
  throw err;
} finally {
  await srv?.stop();
  await v.stop();
  removeDir(dir);
}
