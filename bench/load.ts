/**
 * 50 concurrent clients for 60 s: uploads (each polled to its end and deleted), predictions,
 * task and home-page polls, SPARQL queries and compound depictions, all against one server
 * (test/helpers/load.ts describes the mix). Prints the answers by kind and status, the errors
 * (every request is valid: anything but the expected answer or a documented 503 is an error),
 * p50/p99 latency per kind, and the server's resident memory (process with all its threads,
 * from /proc) after a warm-up, at its peak during the load, and 15 s and 35 s after the load
 * (the store renews its memory after 10 s without a commit, and the SPARQL replicas with it:
 * graph-store.ts "Renewal"), with the largest memory mappings at the start and at the end.
 *
 * Every request says `Accept-Encoding: gzip` (or what --accept-encoding= names, e.g. identity):
 * stated, not left to Node's fetch, whose default differs by scheme and version (over http
 * "gzip, deflate", over https "br, gzip, deflate"), so that runs on different Node versions
 * compress alike. gzip is what browsers and curl --compressed get; the client decompresses on
 * the same cores as the server, which costs this process CPU the server then lacks
 * (docs/benchmarks.md "50 clients after issue 18's HTTP layer": identity against gzip).
 *
 *   nice -n 19 npx tsx bench/load.ts [clients=50] [seconds=60] [--accept-encoding=gzip] [NAME=value …]
 */
import { readFileSync } from "node:fs";
import { DATA, freshDir, removeDir, startServer, uploadDataset, uriList } from "../test/helpers/server.ts";
import { runLoad, type LoadResult } from "../test/helpers/load.ts";

const args = process.argv.slice(2);
const positional = args.filter((a) => !a.includes("="));
const clients = Number(positional[0] ?? 50);
const seconds = Number(positional[1] ?? 60);
const acceptEncoding = args.find((a) => a.startsWith("--accept-encoding="))?.slice("--accept-encoding=".length) ?? "gzip";
/** NAME=value arguments: extra environment of the server (e.g. SPARQL_WORKERS=1), to see what holds memory. */
const extraEnv = Object.fromEntries(args.filter((a) => a.includes("=") && !a.startsWith("--")).map((a) => [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]));

/** The store's figures from the service description: triples loaded (held in memory) and current. */
async function storeFigures(base: string): Promise<string> {
  const nt = await (await fetch(`${base}/`, { headers: { Accept: "application/n-triples" } })).text();
  const get = (name: string): string => new RegExp(`#${name}> "(\\d+)"`).exec(nt)?.[1] ?? "?";
  return `triples loaded ${get("triplesLoaded")}, current ${get("triplesCurrent")}, renewals ${get("storeRenewals")}`;
}

function rssMb(pid: number): number {
  const s = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? NaN) / 1024;
}

/**
 * Where the resident memory is, from /proc/<pid>/smaps: the mappings holding 16 MB or more
 * (resident MB / mapping MB), largest first, and the rest together.
 */
function memoryMap(pid: number): string {
  const maps: { size: number; rss: number; name: string }[] = [];
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (m) maps.push({ size: (parseInt(m[2]!, 16) - parseInt(m[1]!, 16)) / 2 ** 20, rss: 0, name: m[3]! });
    const r = /^Rss:\s+(\d+) kB/.exec(line);
    if (r && maps.length) maps[maps.length - 1]!.rss = Number(r[1]) / 1024;
  }
  const big = maps.filter((m) => m.rss >= 16).sort((a, b) => b.rss - a.rss);
  const rest = maps.filter((m) => m.rss < 16).reduce((s, m) => s + m.rss, 0);
  return `${big.map((m) => `${m.rss.toFixed(0)}/${m.size.toFixed(0)}${m.name ? ` ${m.name}` : ""}`).join(", ")}; the rest ${rest.toFixed(0)} MB`;
}

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
}

function report(label: string, r: LoadResult): void {
  console.log(`${label}: ${r.requests} requests, ${r.errors.length} errors, ${r.unavailable} answered 503`);
  console.log(`  answers: ${[...r.answers].sort().map(([k, n]) => `${k} ×${n}`).join(", ")}`);
  for (const [kind, ls] of r.latencies) console.log(`  ${kind.padEnd(8)} p50 ${quantile(ls, 0.5).toFixed(0).padStart(5)} ms  p99 ${quantile(ls, 0.99).toFixed(0).padStart(6)} ms  max ${Math.max(...ls).toFixed(0).padStart(6)} ms  (${ls.length})`);
  for (const e of r.errors.slice(0, 10)) console.log(`  error: ${e}`);
}

const dir = freshDir("qsargraph-bench-");
const srv = await startServer({ dataDir: `${dir}/data`, env: { QSARGRAPH_TIMING: "1", ...extraEnv } });
try {
  const hamster = await uploadDataset(srv.base, `${DATA}lazar/test/data/hamster_carcinogenicity.csv`);
  const r = await fetch(`${srv.base}/algorithm/lazar`, { method: "POST", body: new URLSearchParams({ dataset_uri: hamster, min_frequency: "8" }), headers: { Accept: "text/uri-list" } });
  const task = (await r.text()).trim();
  let model = task;
  while (model === task) {
    await new Promise((res) => setTimeout(res, 200));
    model = (await (await fetch(task, { headers: { Accept: "text/uri-list" } })).text()).trim();
  }
  const setup = { base: srv.base, model, compounds: await uriList(hamster), task, headers: { "Accept-Encoding": acceptEncoding } };
  console.log(`Accept-Encoding: ${acceptEncoding}`);
  report("warm-up (10 s)", await runLoad(setup, clients, 10));
  await new Promise((res) => setTimeout(res, 15_000));
  const before = rssMb(srv.proc.pid!);
  const beforeMap = memoryMap(srv.proc.pid!);
  console.log(`store before the load: ${await storeFigures(srv.base)}`);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(srv.proc.pid!))), 500);
  const logged = srv.output().length;
  const result = await runLoad(setup, clients, seconds);
  clearInterval(sampler);
  report(`${clients} clients for ${seconds} s`, result);
  await new Promise((res) => setTimeout(res, 15_000));
  const after = rssMb(srv.proc.pid!);
  // The store and the SPARQL replicas renew once the service has been idle for 10 s (store/graph-store.ts): later.
  await new Promise((res) => setTimeout(res, 20_000));
  const later = rssMb(srv.proc.pid!);
  const laterMap = memoryMap(srv.proc.pid!);
  for (const l of srv.output().slice(logged).split("\n")) if (l.startsWith("store renewed") || l.startsWith("store: full garbage") || l.startsWith("SPARQL replicas reload")) console.log(`server: ${l}`);
  console.log(`store after the load: ${await storeFigures(srv.base)}`);
  const stalls = srv.output().slice(logged).split("\n").map((l) => /^event loop stalled (\d+) ms/.exec(l)?.[1]).filter(Boolean).map(Number);
  console.log(`server RSS: ${before.toFixed(0)} MB after the warm-up, peak ${peak.toFixed(0)} MB, ${after.toFixed(0)} MB 15 s after the load (${(((after - before) / before) * 100).toFixed(1)} %), ${later.toFixed(0)} MB 35 s after (${(((later - before) / before) * 100).toFixed(1)} %)`);
  console.log(`  after the warm-up: ${beforeMap}\n  35 s after the load: ${laterMap}`);
  console.log(`event-loop stalls over 100 ms during the load: ${stalls.length}, longest ${Math.max(0, ...stalls)} ms`);
} finally {
  await srv.stop();
  removeDir(dir);
}
