/**
 * Issue 19's "done when" for workers anywhere, on Kazius (4069 rows): the default 10-fold
 * cross-validation (BBRC + weighted majority vote, as bench/crossvalidation.ts) run
 *
 *   1. in-process: a server without a queue (2 worker threads) — the reference;
 *   2. through a local Redis: one API process with QUEUE_URL (2 jobs on Redis at a time) and two
 *      `qsargraph worker` processes of one thread each;
 *   3. the same, with one worker SIGKILLed after the run's first fold job has completed, while
 *      it runs another fold job: its job is retried on the other worker once its lock expires.
 *
 * Runs 2 and 3 must give the same folds (which compound in which fold: the predictions' qg:fold,
 * by compound path, for every compound) and the same statistics (every qg: literal of the
 * cross-validation resource except qg:runtimeMs) as run 1, and the same predictions (predicted
 * value and confidence of every compound); the bench exits 1 otherwise. Printed: wall times,
 * fold jobs per worker, retries (jobs started on more than one worker).
 *
 *   npx tsx bench/queue-kazius.ts [--seed N]
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { freshDir, get, KAZIUS, postForm, removeDir, startServer, uploadDataset, waitForTask, type TestServer } from "../test/helpers/server.ts";
import { startRedis } from "../test/helpers/redis.ts";
import { endOf, runningJob, startWorker, type QueueWorkerProcess } from "../test/helpers/queue-workers.ts";
import { QG_NS } from "../src/store/vocab.ts";

const { values } = parseArgs({ options: { seed: { type: "string", default: "1" } } });
const SEED = values.seed;

interface CvResult {
  /** compound path → fold */
  readonly folds: Map<string, string>;
  /** qg:<name> → lexical value (literals of the CV resource, but runtimeMs) */
  readonly stats: Map<string, string>;
  /** compound path → "predicted|confidence" */
  readonly predictions: Map<string, string>;
  readonly seconds: number;
}

const esc = (s: string): string => s.replace(/[/.?#]/g, "\\$&");

/** The CV resource's N-Triples, read as folds, statistics and predictions. */
async function readCv(cv: string, seconds: number): Promise<CvResult> {
  const nt = await (await get(cv, "application/n-triples")).text();
  const stats = new Map<string, string>();
  for (const m of nt.matchAll(new RegExp(`^<${esc(cv)}> <${esc(QG_NS)}(\\w+)> ("[^"]*"(?:\\^\\^<[^>]+>)?) \\.$`, "gm"))) {
    if (m[1] === "runtimeMs") continue;
    stats.set(m[1]!, stats.has(m[1]!) ? `${stats.get(m[1]!)} ${m[2]}` : m[2]!);
  }
  const node = new Map<string, { compound?: string; fold?: string; predicted?: string; confidence?: string }>();
  const at = (n: string) => node.get(n) ?? (node.set(n, {}), node.get(n)!);
  for (const m of nt.matchAll(/^<[^>]+#(p\d+)> <([^>]+)> (\S+|"[^"]*"\S*) \.$/gm)) {
    const p = at(m[1]!);
    const pred = m[2]!;
    if (pred.endsWith("#compound")) p.compound = new URL(m[3]!.slice(1, -1)).pathname;
    else if (pred === `${QG_NS}fold`) p.fold = m[3];
    else if (pred === `${QG_NS}predictedValue`) p.predicted = m[3];
    else if (pred === `${QG_NS}confidence`) p.confidence = m[3];
  }
  const folds = new Map<string, string>();
  const predictions = new Map<string, string>();
  for (const p of node.values()) {
    if (!p.compound) continue;
    folds.set(p.compound, p.fold!);
    predictions.set(p.compound, `${p.predicted ?? "-"}|${p.confidence ?? "-"}`);
  }
  return { folds, stats, predictions, seconds };
}

async function startCv(srv: TestServer, dataset: string): Promise<{ task: string; t0: number }> {
  const t0 = performance.now();
  const r = await postForm(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: dataset, random_seed: SEED });
  if (r.status !== 202) throw new Error(`POST /validation/crossvalidation: ${r.status} ${await r.text()}`);
  return { task: (await r.text()).trim(), t0 };
}

async function finishCv({ task, t0 }: { task: string; t0: number }): Promise<CvResult> {
  const done = await waitForTask(task, 3_600_000);
  const seconds = (performance.now() - t0) / 1000;
  if (done.status !== 200) throw new Error(`the cross-validation failed (${done.status}): ${done.body}`);
  return readCv(done.body.trim(), seconds);
}

/** Differences of `b` from `a`, at most a few, as lines. */
function differences(what: string, a: Map<string, string>, b: Map<string, string>): string[] {
  const out: string[] = [];
  for (const k of new Set([...a.keys(), ...b.keys()])) if (a.get(k) !== b.get(k)) out.push(`  ${what} ${k}: ${a.get(k) ?? "(none)"} ≠ ${b.get(k) ?? "(none)"}`);
  return out;
}

let failed = false;
function compare(name: string, ref: CvResult, r: CvResult): void {
  const diff = [...differences("fold of", ref.folds, r.folds), ...differences("statistic", ref.stats, r.stats), ...differences("prediction of", ref.predictions, r.predictions)];
  const same = diff.length === 0 && ref.folds.size > 0 && ref.stats.size > 0;
  if (!same) failed = true;
  console.log(
    `${name}: ${same ? "IDENTICAL to in-process" : `DIFFERENT from in-process (${diff.length} differences)`} — ${r.folds.size} compounds' folds, ${r.stats.size} statistics, ${r.predictions.size} predictions compared`,
  );
  for (const line of diff.slice(0, 20)) console.log(line);
}

/** Per worker: fold jobs (cv.fold) that ended `done` in `text`, and the ids of the jobs it started. */
function foldJobs(text: string): { done: number; started: Set<string> } {
  return {
    done: [...text.matchAll(/job \S+ cv\.fold\S*: done/g)].length,
    started: new Set([...text.matchAll(/job (\S+) cv\.fold\S*: started/g)].map((m) => m[1]!)),
  };
}

function jobFigures(outputs: string[]): string {
  const per = outputs.map(foldJobs);
  const seen = new Map<string, number>();
  for (const p of per) for (const id of p.started) seen.set(id, (seen.get(id) ?? 0) + 1);
  const retried = [...seen.values()].filter((n) => n > 1).length;
  return `fold jobs done per worker: ${per.map((p) => p.done).join(", ")}; retried on another worker: ${retried}`;
}

/** The machine's load (other processes share the 2 cores: the times depend on it). */
const load = (): string => `load average ${loadavg().map((x) => x.toFixed(1)).join(" ")}`;

const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1] ?? "?";
const cores = readFileSync("/proc/cpuinfo", "utf8").match(/^processor/gm)?.length ?? 0;
console.log(`kazius.csv, 10-fold CV (BBRC + weighted majority vote), seed ${SEED}; ${cpu}, ${cores} cores, node ${process.version}; ${new Date().toISOString()}`);

// 1. in-process
let reference: CvResult;
{
  const srv = await startServer();
  try {
    const t0 = performance.now();
    const kazius = await uploadDataset(srv.base, KAZIUS);
    console.log(`in-process: upload ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    reference = await finishCv(await startCv(srv, kazius));
    console.log(`run 1, in-process (2 worker threads): ${reference.seconds.toFixed(1)} s; accuracy ${Number(/"([^"]+)"/.exec(reference.stats.get("accuracy") ?? "")?.[1]).toFixed(3)}; ${load()}`);
  } finally {
    await srv.stop();
    removeDir(srv.dataDir);
  }
}

// 2 and 3: through Redis
const redis = await startRedis();
const dataDir = freshDir();
let api: TestServer | undefined;
let workers: QueueWorkerProcess[] = [];
try {
  api = await startServer({ dataDir, env: { QUEUE_URL: redis.url, WORKERS: "2" } });
  workers = await Promise.all([startWorker(redis.url), startWorker(redis.url)]);
  let t0 = performance.now();
  const kazius = await uploadDataset(api.base, KAZIUS);
  console.log(`queue: upload ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  let mark = workers.map((w) => w.output().length);
  const queued = await finishCv(await startCv(api, kazius));
  console.log(`run 2, two workers of one thread: ${queued.seconds.toFixed(1)} s; ${jobFigures(workers.map((w, i) => w.output().slice(mark[i])))}; ${load()}`);
  compare("run 2", reference, queued);

  mark = workers.map((w) => w.output().length);
  const run = await startCv(api, kazius);
  const since = (i: number): string => workers[i]!.output().slice(mark[i]);
  // the run's first fold job completes (on either worker)…
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (workers.some((_, i) => /job \S+ cv\.fold\S*: done/.test(since(i)))) (clearInterval(timer), resolve());
      else if (workers.some((w) => w.proc.exitCode !== null)) (clearInterval(timer), reject(new Error("a worker exited")));
    }, 20);
  });
  // …then the worker that is running a fold job now (fold jobs of Kazius take seconds) is killed
  const running = workers.map((_, i) => since(i).match(runningJob("cv\\.fold\\S*")));
  const victim = running.findIndex((m) => m !== null);
  if (victim < 0) throw new Error("no worker is running a fold job after the first one completed");
  const killedJob = running[victim]![1]!;
  const killedAt = performance.now();
  await workers[victim]!.kill("SIGKILL");
  if (endOf(killedJob).test(since(victim))) throw new Error(`job ${killedJob} ended before its worker was killed: not a kill mid-job`);
  console.log(`run 3: worker ${victim + 1} SIGKILLed ${((killedAt - run.t0) / 1000).toFixed(1)} s into the run, while running job ${killedJob}`);
  const killed = await finishCv(run);
  const outputs = workers.map((_, i) => since(i));
  const survivor = 1 - victim;
  const rerun = outputs[survivor]!.match(endOf(killedJob))?.[1];
  console.log(`run 3, one worker killed: ${killed.seconds.toFixed(1)} s; ${jobFigures(outputs)}; the killed job on the other worker: ${rerun ?? "never ran"}; ${load()}`);
  if (rerun !== "done") failed = true;
  compare("run 3", reference, killed);
} finally {
  await Promise.allSettled(workers.map((w) => w.kill("SIGKILL")));
  await api?.stop();
  await redis.stop();
  removeDir(dataDir);
}
if (failed) {
  console.log("FAILED: the queue changed the result, or the killed job was not retried");
  process.exit(1);
}
console.log("OK: the same folds, statistics and predictions in-process, through the queue, and with a worker killed mid-run");
