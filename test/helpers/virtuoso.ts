/**
 * Virtuoso Open Source (Debian's virtuoso-opensource, 7.2) started for a test: a temporary
 * directory holding a minimal virtuoso.ini and the database files, free ports for HTTP and ISQL,
 * `virtuoso-t +foreground` as a child process, and the grants that let the unauthenticated
 * `/sparql` endpoint run updates and `/sparql-graph-crud` (the Graph Store Protocol) write.
 * `stop()` kills it and removes the directory; so does this process's exit, however the tests went.
 * Installed with apt-get when missing and running as root (CI), like the other Debian programs.
 * Why each ini setting: docs/virtuoso.md.
 *
 *   const v = await startVirtuoso();
 *   await fetch(v.update, { method: "POST", body: new URLSearchParams({ update: "INSERT DATA {…}" }) });
 *   await v.stop();
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureDebianBinary } from "./debian.ts";
import { freePort, freshDir } from "./server.ts";

export const VIRTUOSO = "/usr/bin/virtuoso-t";
export const ISQL = "/usr/bin/isql-vt";

export interface VirtuosoOptions {
  /** `[SPARQL] ResultSetMaxRows`: the most rows (or triples) one result holds (default 100,000). */
  readonly resultSetMaxRows?: number;
  /** `[SPARQL] MaxQueryExecutionTime`, seconds (default 60). */
  readonly maxQueryExecutionTime?: number;
  /**
   * `[SPARQL] MaxQueryCostEstimationTime`, seconds: Virtuoso refuses up front a query it estimates
   * past it. Left out by default, as OpenLink advises for a real server and the README asks: the
   * estimate can be far off (a `GRAPH <g>` query with eight OPTIONALs over one small graph was
   * refused in CI, docs/virtuoso.md finding 12). The probes of that refusal set it (Debian's 400).
   */
  readonly maxQueryCostEstimationTime?: number;
  /**
   * `NumberOfBuffers` (8 KiB pages held in memory; default 10,000 = 80 MB, enough for tests);
   * `MaxDirtyBuffers` (default 6,000) is then set to three quarters of it. Virtuoso's own guide sizes it at about two
   * thirds of the memory it may use: a bench of tens of millions of triples wants a few GB.
   */
  readonly buffers?: number;
}

export interface Virtuoso {
  /** The SPARQL query endpoint (`http://127.0.0.1:<port>/sparql`). */
  readonly sparql: string;
  /** The SPARQL update endpoint (Virtuoso's is the query endpoint: POST `update=`). */
  readonly update: string;
  /** The Graph Store Protocol endpoint (`…/sparql-graph-crud`; the graph goes in `graph-uri=` or `graph=`). */
  readonly gsp: string;
  /** Wall time from spawning virtuoso-t until its HTTP endpoint answered a query, ms. */
  readonly startMs: number;
  /** The temporary directory (ini, database, log). */
  readonly dir: string;
  /** Runs SQL (one or more statements, each ending in `;`) as dba through isql-vt; its output. Rejects on an error. */
  isql(sql: string): Promise<string>;
  /** What virtuoso-t wrote to stdout and stderr. */
  output(): string;
  /** Whether virtuoso-t has exited. */
  exited(): boolean;
  /** Kills the server and removes the directory. */
  stop(): Promise<void>;
  /** Lets this process exit while the server runs (its exit still kills it and removes the directory): a server shared by a test file's servers (test/helpers/server.ts). */
  detach(): void;
}

/** The ini: database files in `dir`, small buffers (CI machines share 2 cores and a few GB). */
export function virtuosoIni(dir: string, ports: { http: number; isql: number }, o: VirtuosoOptions = {}): string {
  return `[Database]
DatabaseFile       = ${join(dir, "virtuoso.db")}
ErrorLogFile       = ${join(dir, "virtuoso.log")}
LockFile           = ${join(dir, "virtuoso.lck")}
TransactionFile    = ${join(dir, "virtuoso.trx")}
xa_persistent_file = ${join(dir, "virtuoso.pxa")}
ErrorLogLevel      = 7
FileExtend         = 200
MaxCheckpointRemap = 2000
Striping           = 0
TempStorage        = TempDatabase

[TempDatabase]
DatabaseFile       = ${join(dir, "virtuoso-temp.db")}
TransactionFile    = ${join(dir, "virtuoso-temp.trx")}
MaxCheckpointRemap = 2000
Striping           = 0

[Parameters]
ServerPort           = 127.0.0.1:${ports.isql}
DisableUnixSocket    = 1
DisableTcpSocket     = 0
MaxClientConnections = 10
CheckpointInterval   = 60
O_DIRECT             = 0
CaseMode             = 2
DirsAllowed          = ., ${dir}
NumberOfBuffers      = ${o.buffers ?? 10000}
MaxDirtyBuffers      = ${o.buffers === undefined ? 6000 : Math.round(o.buffers * 0.75)}
MaxQueryMem          = 256M
ThreadsPerQuery      = 2
AsyncQueueMaxThreads = 4
TransactionAfterImageLimit = 50000000

[HTTPServer]
ServerPort           = 127.0.0.1:${ports.http}
ServerRoot           = ${dir}
MaxClientConnections = 10
ServerThreads        = 10
MaxKeepAlives        = 10
KeepAliveTimeout     = 10
EnabledDavVSP        = 0
Charset              = UTF-8
EnabledGzipContent   = 0

[SPARQL]
ResultSetMaxRows           = ${o.resultSetMaxRows ?? 100_000}
MaxQueryExecutionTime      = ${o.maxQueryExecutionTime ?? 60}
${o.maxQueryCostEstimationTime === undefined ? "" : `MaxQueryCostEstimationTime = ${o.maxQueryCostEstimationTime}\n`}`;
}

const running = new Set<ChildProcess>();
const dirs = new Set<string>();
let hooked = false;

/** Whatever ends this process (a failed test, an uncaught error, a signal) ends the servers it started. */
function killAllOnExit(): void {
  if (hooked) return;
  hooked = true;
  const cleanUp = (): void => {
    for (const p of running) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  };
  process.on("exit", cleanUp);
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(sig, () => {
      cleanUp();
      process.kill(process.pid, sig);
    });
  }
}

export function isql(port: number, sql: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(ISQL, [`127.0.0.1:${port}`, "dba", "dba", "VERBOSE=OFF", "BANNER=OFF", `exec=${sql}`], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code !== 0 || /\*\*\* Error/.test(out)) reject(new Error(`isql ${JSON.stringify(sql)} failed (${code}):\n${out}`));
      else resolve(out);
    });
  });
}

/**
 * The environment variable naming a template database (`makeVirtuosoTemplate`): when it is set,
 * each Virtuoso starts on a copy of it instead of creating its database.
 */
export const TEMPLATE_ENV = "QSARGRAPH_TEST_VIRTUOSO_TEMPLATE";

/** The files of a database directory that a copy takes (not the ini, lock or log). */
function databaseFiles(dir: string): string[] {
  return readdirSync(dir).filter((f) => !["virtuoso.ini", "virtuoso.lck", "virtuoso.log"].includes(f));
}

/**
 * Makes a template database for this run's Virtuosos: one started empty, with the grants,
 * checkpointed and shut down cleanly. A Virtuoso started on a copy of it (a 50 MB file copy, tens
 * of ms) is online after about 2 s of CPU instead of 3.5 s, since it does not build its database
 * (docs/virtuoso.md "The test harness"); `npm run test:sparql` starts one per test file, sixty in
 * all. The caller sets TEMPLATE_ENV to the directory returned; it is removed when this process ends.
 */
export async function makeVirtuosoTemplate(): Promise<string> {
  const v = await startVirtuoso();
  try {
    await v.isql("checkpoint;");
    // isql loses its connection as the server goes down
    await v.isql("shutdown;").catch(() => undefined);
    const deadline = Date.now() + 60_000;
    while (!v.exited()) {
      if (Date.now() > deadline) throw new Error(`the template Virtuoso did not shut down in 60 s:\n${v.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const template = freshDir("qsargraph-virtuoso-template-");
    // removed when this process ends, as the servers' directories are
    dirs.add(template);
    for (const f of databaseFiles(v.dir)) cpSync(join(v.dir, f), join(template, f));
    return template;
  } finally {
    await v.stop();
  }
}

/** Starts a Virtuoso with an empty database (on a copy of TEMPLATE_ENV's, when it is set); about 2–4 s here (docs/virtuoso.md). */
export async function startVirtuoso(o: VirtuosoOptions = {}): Promise<Virtuoso> {
  ensureDebianBinary(VIRTUOSO, "virtuoso-opensource");
  ensureDebianBinary(ISQL, "virtuoso-opensource");
  killAllOnExit();
  const dir = freshDir("qsargraph-virtuoso-");
  dirs.add(dir);
  const template = process.env[TEMPLATE_ENV];
  const copied = template !== undefined && existsSync(join(template, "virtuoso.db"));
  if (copied) for (const f of databaseFiles(template)) cpSync(join(template, f), join(dir, f));
  const ports = { http: await freePort(), isql: await freePort() };
  const ini = join(dir, "virtuoso.ini");
  writeFileSync(ini, virtuosoIni(dir, ports, o));
  const base = `http://127.0.0.1:${ports.http}`;
  const t0 = performance.now();
  const proc = spawn(VIRTUOSO, ["+configfile", ini, "+foreground"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  running.add(proc);
  let out = "";
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => proc.on("exit", () => resolve()));
  const stop = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill("SIGKILL");
      await exited;
    }
    running.delete(proc);
    rmSync(dir, { recursive: true, force: true });
    dirs.delete(dir);
  };
  try {
    // Online once the HTTP port answers a query (the ISQL port opens at the same moment).
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`virtuoso-t exited (${proc.exitCode ?? proc.signalCode}) before it was online`);
      try {
        const r = await fetch(`${base}/sparql?query=${encodeURIComponent("ASK {}")}`, { signal: AbortSignal.timeout(2000) });
        await r.arrayBuffer();
        if (r.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error("virtuoso-t was not online in 60 s");
      await new Promise((r) => setTimeout(r, 100));
    }
    const startMs = performance.now() - t0;
    // The /sparql endpoints run as SQL user "SPARQL" (web user "nobody"): SPARQL_UPDATE lets it
    // run updates, and default graph permissions 7 (read, write, list) let it write any graph.
    // A copy of the template has them already.
    if (!copied) await isql(ports.isql, `grant SPARQL_UPDATE to "SPARQL"; DB.DBA.RDF_DEFAULT_USER_PERMS_SET ('nobody', 7);`);
    return {
      sparql: `${base}/sparql`,
      update: `${base}/sparql`,
      gsp: `${base}/sparql-graph-crud`,
      startMs,
      dir,
      isql: (sql) => isql(ports.isql, sql),
      output: () => out,
      exited: () => proc.exitCode !== null || proc.signalCode !== null,
      stop,
      detach: () => {
        proc.unref();
        for (const s of [proc.stdout, proc.stderr] as ({ unref?: () => void } | null)[]) s?.unref?.();
      },
    };
  } catch (e) {
    await stop();
    throw new Error(`${(e as Error).message}\n${out}`);
  }
}

/** The version virtuoso-t reports (e.g. "7.2.5.3229-pthreads"), installing it first when missing and root. */
export function virtuosoVersion(): string {
  const r = spawnSync(ensureDebianBinary(VIRTUOSO, "virtuoso-opensource"), ["-?"], { encoding: "utf8" });
  return /Version\s+(\S+)/.exec(`${r.stdout}${r.stderr}`)?.[1] ?? "unknown";
}
