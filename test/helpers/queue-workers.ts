/**
 * `qsargraph worker` processes (src/main.ts `worker`, src/tasks/queue-worker.ts) for the queue
 * tests and benches, started from the entry test/helpers/server.ts starts the service from, and
 * what their output says: each job's `job <id> <kind>: started` and `job <id> <kind>: <outcome> in
 * <ms> ms` lines.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { ROOT, serviceArgs } from "./server.ts";

/** A job that a worker's output shows started and not (yet) ended: `job <id> <kind>: started`. */
export const runningJob = (kinds: string): RegExp => new RegExp(`job (\\S+) (${kinds}): started\\n(?![\\s\\S]*job \\1 )`);
/** The end line of job `id`: group 1 is the outcome (done, failed, cancelled, given). */
export const endOf = (id: string): RegExp => new RegExp(`job ${id} \\S+: (?!started)(\\w+)`);

export interface QueueWorkerProcess {
  readonly proc: ChildProcess;
  output(): string;
  /** Resolves when the output matches `re` (rejects after `ms`, or when the process exits). */
  waitFor(re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** `qsargraph worker` (the service's entry, server.ts SERVICE_MAIN, with `worker`) on the queue at `queueUrl` with `threads` worker threads (default 1). */
export async function startWorker(queueUrl: string, threads = 1): Promise<QueueWorkerProcess> {
  const proc = spawn(process.execPath, [...serviceArgs(), "worker"], {
    cwd: ROOT,
    env: { ...process.env, QUEUE_URL: queueUrl, WORKERS: String(threads) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => proc.on("exit", () => resolve()));
  const w: QueueWorkerProcess = {
    proc,
    output: () => out,
    async waitFor(re, ms = 120_000) {
      const t0 = Date.now();
      for (;;) {
        const m = out.match(re);
        if (m) return m;
        if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`worker exited (${proc.exitCode ?? proc.signalCode}):\n${out}`);
        if (Date.now() - t0 > ms) throw new Error(`worker output did not match ${re} in ${ms} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async kill(signal = "SIGTERM") {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      await exited;
    },
  };
  await w.waitFor(/taking jobs from/, 60_000);
  return w;
}
