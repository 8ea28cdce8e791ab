/**
 * A throw-away Redis server for the queue tests (src/tasks/queue-pool.ts): Debian's
 * `redis-server` (installed with apt-get when missing and root, test/helpers/debian.ts) on a free
 * port of 127.0.0.1, with a temporary working directory and no persistence (no RDB snapshots, no
 * append-only file). `stop()` ends it and removes the directory; a test process that exits
 * without calling it kills it too.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { ensureDebianBinary } from "./debian.ts";
import { freePort, freshDir, removeDir } from "./server.ts";

export interface TestRedis {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly proc: ChildProcess;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const p of running) p.kill("SIGKILL");
});

export async function startRedis(): Promise<TestRedis> {
  const bin = ensureDebianBinary("/usr/bin/redis-server", "redis-server");
  const dir = freshDir("qsargraph-redis-");
  const port = await freePort();
  // BullMQ asks for `maxmemory-policy noeviction` (an evicted job key would lose a job).
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no", "--maxmemory-policy", "noeviction", "--loglevel", "warning"];
  const proc = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
  running.add(proc);
  let out = "";
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => proc.on("exit", () => (running.delete(proc), resolve())));
  await waitForPort(port, proc, () => out);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    proc,
    async stop(): Promise<void> {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
      await exited;
      removeDir(dir);
    },
  };
}

/** Until the server answers PING on `port` (10 s at most). */
async function waitForPort(port: number, proc: ChildProcess, output: () => string): Promise<void> {
  const { connect } = await import("node:net");
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`redis-server exited (${proc.exitCode}):\n${output()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, "127.0.0.1");
      s.once("connect", () => s.write("PING\r\n"));
      s.once("data", (d) => (s.destroy(), resolve(d.toString().startsWith("+PONG"))));
      s.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port} in 10 s:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
