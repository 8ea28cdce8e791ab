/**
 * Availability under heavy work: while one heavy piece of work runs, a client polls GET / and a
 * task every 100 ms (each on its own fixed 100 ms schedule, keep-alive, as a polling client
 * does) and times every answer. Printed per scenario: the heavy work's own duration and
 * outcome, the p50 / p99 / max latency of the polls, failed polls, and the longest event-loop
 * stall the server logged (QSARGRAPH_TIMING=1: every stall over 100 ms). Goal: p99 ≤ 100 ms,
 * max ≤ 500 ms.
 *
 * Scenarios (each alone, then all at once):
 *   bbrc      BBRC mining of kazius.csv (4069 compounds) through POST /algorithm/miner/bbrc
 *   jsonld    GET as application/ld+json of hamster's all-descriptor feature dataset (85 × all)
 *   pc1000    all descriptors (every pc_type, lib cdk) of the first 1,000 compounds of kazius.csv
 *   sparql    an expensive SPARQL query (a join over every triple) that runs into the time limit
 *   all       the four at once
 *
 *   nice -n 19 npx tsx bench/availability.ts [--runs N] [--verbose] [scenario …]
 *
 * --verbose prints every stall line the server logged, and its store renewals (with the main thread's CPU time during a stall:
 * close to the stall = work on the main thread; far below = the thread waited for a core).
 *
 * With several runs, each figure is printed per run and as the median over the runs.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { DATA, freshDir, removeDir, startServer, uploadDataset, type TestServer } from "../test/helpers/server.ts";

const args = process.argv.slice(2);
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 1;
/** --verbose: print every stall line the server logged. */
const verbose = args.includes("--verbose");
const SCENARIOS = ["bbrc", "jsonld", "pc1000", "sparql", "all"] as const;
type Scenario = (typeof SCENARIOS)[number];
const chosen = args.filter((a, i) => !a.startsWith("--") && !(runsAt >= 0 && i === runsAt + 1)) as Scenario[];
for (const s of chosen) if (!SCENARIOS.includes(s)) throw new Error(`unknown scenario ${s}; known: ${SCENARIOS.join(", ")}`);
const scenarios: readonly Scenario[] = chosen.length > 0 ? chosen : SCENARIOS;

const dir = freshDir("qsargraph-bench-");
const kaziusPath = `${DATA}lazar/test/data/kazius.csv`;
const kazius1000 = `${dir}/kazius-1000.csv`;
writeFileSync(kazius1000, readFileSync(kaziusPath, "utf8").split(/\r?\n/).slice(0, 1001).join("\n") + "\n");

const sleep = (ms: number): Promise<void> => new Promise((res) => setTimeout(res, ms));

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function median(xs: readonly number[]): number {
  const s = [...xs].filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

/** Poll `url` every 100 ms (fixed schedule; a late answer starts the next one at once) until stopped. */
function poller(url: string, accept: string): { stop: () => Promise<{ latencies: number[]; failures: number }> } {
  const latencies: number[] = [];
  let failures = 0;
  let running = true;
  const loop = (async () => {
    let next = performance.now();
    while (running) {
      const t = performance.now();
      try {
        const r = await fetch(url, { headers: { Accept: accept } });
        await r.arrayBuffer();
        if (r.status >= 500) failures++;
        latencies.push(performance.now() - t);
      } catch {
        failures++;
      }
      next += 100;
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      else next = performance.now();
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { latencies, failures };
    },
  };
}

/** POST a form; the task URI of its 202. */
async function startTask(url: string, params: Record<string, string>): Promise<string> {
  const r = await fetch(url, { method: "POST", body: new URLSearchParams(params), headers: { Accept: "text/uri-list" } });
  const body = (await r.text()).trim();
  if (r.status !== 202) throw new Error(`POST ${url} answered ${r.status}: ${body}`);
  return body;
}

/** Wait for a task (polled every 250 ms, apart from the measured pollers); its final status line. */
async function finish(task: string): Promise<string> {
  for (;;) {
    const r = await fetch(task, { headers: { Accept: "text/uri-list" } });
    const body = (await r.text()).trim();
    if (body !== task) return r.status === 200 ? "completed" : `ended ${r.status}`;
    await sleep(250);
  }
}

interface Setup {
  readonly kazius: string;
  readonly descriptors: string;
  readonly kazius1000: string;
  readonly lastTask: string;
}

async function setup(srv: TestServer): Promise<Setup> {
  const kazius = await uploadDataset(srv.base, kaziusPath);
  const hamster = await uploadDataset(srv.base, `${DATA}lazar/test/data/hamster_carcinogenicity.csv`);
  const task = await startTask(`${hamster}/pc`, { lib: "cdk" });
  if ((await finish(task)) !== "completed") throw new Error(`hamster descriptors: ${await (await fetch(task, { headers: { Accept: "text/plain" } })).text()}`);
  const descriptors = (await (await fetch(task, { headers: { Accept: "text/uri-list" } })).text()).trim();
  const k1000 = await uploadDataset(srv.base, kazius1000);
  return { kazius, descriptors, kazius1000: k1000, lastTask: task };
}

/** Start one scenario's heavy work; resolves with its outcome when it is done. */
function heavy(srv: TestServer, s: Exclude<Scenario, "all">, d: Setup, tasks: string[]): Promise<string> {
  switch (s) {
    case "bbrc":
      return startTask(`${srv.base}/algorithm/miner/bbrc`, { dataset_uri: d.kazius }).then((t) => (tasks.push(t), finish(t)));
    case "pc1000":
      return startTask(`${d.kazius1000}/pc`, { lib: "cdk" }).then((t) => (tasks.push(t), finish(t)));
    case "jsonld":
      return fetch(d.descriptors, { headers: { Accept: "application/ld+json" } }).then(async (r) => `${r.status}, ${((await r.arrayBuffer()).byteLength / 1e6).toFixed(1)} MB`);
    case "sparql": {
      const q = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?p ?e . ?e ?q ?f }";
      return fetch(`${srv.base}/sparql?query=${encodeURIComponent(q)}`, { headers: { Accept: "application/sparql-results+json" } }).then(async (r) => `${r.status}${r.status === 200 ? "" : `: ${(await r.text()).slice(0, 80)}`}`);
    }
  }
}

interface Figures {
  readonly seconds: number;
  readonly outcome: string;
  readonly home: number[];
  readonly task: number[];
  readonly failures: number;
  readonly stall: number;
  /** The main thread's CPU time during the longest stall (NaN where /proc does not tell). */
  readonly stallCpu: number;
}

async function scenario(srv: TestServer, s: Scenario, d: Setup): Promise<Figures> {
  const logged = srv.output().length;
  const tasks: string[] = [];
  const t0 = performance.now();
  const parts = s === "all" ? (["bbrc", "jsonld", "pc1000", "sparql"] as const) : ([s] as const);
  const work = Promise.all(parts.map((p) => heavy(srv, p, d, tasks)));
  // The task polled: the scenario's own task once it exists, else the last one of the setup.
  await sleep(50);
  const home = poller(`${srv.base}/`, "text/html");
  const task = poller(tasks[0] ?? d.lastTask, "text/uri-list");
  const outcome = (await work).join("; ");
  const seconds = (performance.now() - t0) / 1000;
  const [h, t] = await Promise.all([home.stop(), task.stop()]);
  const logLines = srv.output().slice(logged).split("\n");
  const lines = logLines.filter((l) => l.startsWith("event loop stalled"));
  // The store's renewals too: one may run during a scenario (graph-store.ts "Renewal").
  if (verbose) for (const l of logLines.filter((l) => l.startsWith("event loop stalled") || l.startsWith("store renewed"))) console.log(`    ${l}`);
  const stalls = lines.map((l) => {
    const m = /^event loop stalled (\d+) ms.*?(?:main thread CPU (\d+) ms)?\)$/.exec(l);
    return { ms: Number(m?.[1] ?? 0), cpu: m?.[2] === undefined ? NaN : Number(m[2]) };
  });
  const longest = stalls.reduce((a, b) => (b.ms > a.ms ? b : a), { ms: 0, cpu: NaN });
  return { seconds, outcome, home: h.latencies, task: t.latencies, failures: h.failures + t.failures, stall: longest.ms, stallCpu: longest.cpu };
}

type Summary = { seconds: number; p50: number; p99: number; max: number; failures: number; stall: number; stallCpu: number; polls: number; outcome?: string };

function line(label: string, f: Summary): string {
  const cpu = Number.isNaN(f.stallCpu) ? "" : ` (CPU ${f.stallCpu.toFixed(0)} ms)`;
  return `${label.padEnd(16)} ${f.seconds.toFixed(1).padStart(6)} s  polls ${String(f.polls).padStart(4)}  p50 ${f.p50.toFixed(0).padStart(4)} ms  p99 ${f.p99.toFixed(0).padStart(5)} ms  max ${f.max.toFixed(0).padStart(5)} ms  failed ${f.failures}  longest stall ${f.stall.toFixed(0)} ms${cpu}${f.outcome ? `  (${f.outcome})` : ""}`;
}

const results = new Map<Scenario, ReturnType<typeof summary>[]>();
function summary(f: Figures): Summary & { outcome: string } {
  const all = [...f.home, ...f.task].sort((a, b) => a - b);
  return { seconds: f.seconds, p50: quantile(all, 0.5), p99: quantile(all, 0.99), max: all.at(-1) ?? NaN, failures: f.failures, stall: f.stall, stallCpu: f.stallCpu, polls: all.length, outcome: f.outcome };
}

for (let run = 1; run <= runs; run++) {
  const srv = await startServer({ dataDir: `${dir}/data-${run}`, env: { QSARGRAPH_TIMING: "1" } });
  try {
    const t0 = performance.now();
    const d = await setup(srv);
    console.log(`run ${run}: set-up (kazius, hamster + its descriptors, kazius 1000) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    for (const s of scenarios) {
      const f = summary(await scenario(srv, s, d));
      results.set(s, [...(results.get(s) ?? []), f]);
      console.log(line(`  ${s}`, f));
    }
  } finally {
    await srv.stop();
  }
}
if (runs > 1) {
  console.log(`medians over ${runs} runs:`);
  for (const [s, fs] of results) {
    const m = (k: Exclude<keyof Summary, "outcome">): number => median(fs.map((f) => f[k]));
    console.log(line(`  ${s}`, { seconds: m("seconds"), p50: m("p50"), p99: m("p99"), max: m("max"), failures: m("failures"), stall: m("stall"), stallCpu: m("stallCpu"), polls: m("polls") }));
  }
}
removeDir(dir);
