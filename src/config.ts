/**
 * Configuration from command-line flags and environment variables (flags win). README
 * "Configuration" lists every option with its default and what it bounds; this file is the one
 * place they are read.
 *
 * Value flags take `--flag value` or `--flag=value`; switch flags (`--open`, `--private-reads`)
 * take no value on the command line and `1`/`true`/`yes` (or `0`/`false`/`no`) in the environment.
 */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { DEFAULT_MAX_QUADS } from "./store/graph-store.ts";

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly baseUrl: string;
  readonly dataDir: string;
  readonly workers: number;
  readonly maxUploadBytes: number;
  readonly sparqlTimeoutMs: number;
  readonly sparqlMaxResults: number;
  /** Worker threads holding a SPARQL replica each (queries run in parallel, one per worker). */
  readonly sparqlWorkers: number;
  readonly maxQuads: number;
  /** Largest number of data rows an upload may have (413 above, before any work starts). */
  readonly maxUploadRows: number;
  /** Largest number of columns an upload may have (413 above). */
  readonly maxUploadColumns: number;
  /** Largest number of triples an upload may produce (estimated from rows × columns before work starts). */
  readonly maxUploadTriples: number;
  /** Time budget of one task, in ms: a task still running after it ends with an error. */
  readonly taskTimeLimitMs: number;
  /** Unfinished tasks (queued + running) the service holds; more → 503 with Retry-After. */
  readonly maxPendingTasks: number;
  /** Path of a file of API tokens (see README "Access control"); unset = no file. */
  readonly tokensFile: string | undefined;
  /** API tokens given inline (`QSARGRAPH_TOKENS`, same syntax as the file's lines, separated by `;` or newlines). */
  readonly tokens: string | undefined;
  /** Serve a non-loopback interface without tokens (everyone may write and delete). */
  readonly open: boolean;
  /** With tokens: reads need a token too. */
  readonly privateReads: boolean;
  /**
   * `redis://…`: task jobs go on this Redis queue and `qsargraph worker` processes run them
   * (tasks/queue-pool.ts); `workers` is then how many are on the queue at a time. Unset: worker threads of this process.
   */
  readonly queueUrl: string | undefined;
}

/** Flags that take a value, and the environment variable each one sets. */
const FLAGS: Record<string, string> = {
  "--port": "PORT",
  "--host": "HOST",
  "--base-url": "BASE_URL",
  "--data-dir": "DATA_DIR",
  "--workers": "WORKERS",
  "--max-upload-mb": "MAX_UPLOAD_MB",
  "--sparql-timeout-ms": "SPARQL_TIMEOUT_MS",
  "--sparql-max-results": "SPARQL_MAX_RESULTS",
  "--sparql-workers": "SPARQL_WORKERS",
  "--max-quads": "MAX_QUADS",
  "--max-upload-rows": "MAX_UPLOAD_ROWS",
  "--max-upload-columns": "MAX_UPLOAD_COLUMNS",
  "--max-upload-triples": "MAX_UPLOAD_TRIPLES",
  "--task-time-limit-s": "TASK_TIME_LIMIT_S",
  "--max-pending-tasks": "MAX_PENDING_TASKS",
  "--tokens-file": "TOKENS_FILE",
  "--queue": "QUEUE_URL",
};

/** Switches: present on the command line = true. */
const SWITCHES: Record<string, string> = {
  "--open": "OPEN",
  "--private-reads": "PRIVATE_READS",
};

function positiveInt(name: string, raw: string | undefined, dflt: number, allowZero = false): number {
  if (raw === undefined || raw === "") return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1)) throw new Error(`${name} must be a positive integer, got '${raw}'`);
  return n;
}

function flag(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === "") return false;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got '${raw}'`);
}

export function loadConfig(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): Config {
  const vals: Record<string, string | undefined> = { ...env };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i]!.split("=", 2) as [string, string | undefined];
    const sw = SWITCHES[name];
    if (sw) {
      vals[sw] = inline ?? "true";
      continue;
    }
    const key = FLAGS[name];
    if (!key) throw new Error(`unknown option ${name}; options: ${[...Object.keys(FLAGS), ...Object.keys(SWITCHES)].join(", ")}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`option ${name} needs a value`);
    vals[key] = value;
  }
  const port = positiveInt("PORT", vals.PORT, 8080, true);
  const baseUrl = (vals.BASE_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) throw new Error(`BASE_URL must be an http(s) URL, got '${baseUrl}'`);
  const queueUrl = vals.QUEUE_URL || undefined;
  if (queueUrl !== undefined && !/^rediss?:\/\/[^\s/]+/.test(queueUrl)) throw new Error(`QUEUE_URL must be a redis:// or rediss:// URL, got '${queueUrl}'`);
  const maxQuads = positiveInt("MAX_QUADS", vals.MAX_QUADS, DEFAULT_MAX_QUADS);
  return {
    port,
    host: vals.HOST || "127.0.0.1",
    baseUrl,
    dataDir: resolve(vals.DATA_DIR || "./data"),
    workers: positiveInt("WORKERS", vals.WORKERS, availableParallelism()),
    maxUploadBytes: positiveInt("MAX_UPLOAD_MB", vals.MAX_UPLOAD_MB, 200) * 1024 * 1024,
    sparqlTimeoutMs: positiveInt("SPARQL_TIMEOUT_MS", vals.SPARQL_TIMEOUT_MS, 10_000),
    sparqlMaxResults: positiveInt("SPARQL_MAX_RESULTS", vals.SPARQL_MAX_RESULTS, 100_000),
    sparqlWorkers: positiveInt("SPARQL_WORKERS", vals.SPARQL_WORKERS, 2),
    maxQuads,
    maxUploadRows: positiveInt("MAX_UPLOAD_ROWS", vals.MAX_UPLOAD_ROWS, 200_000),
    maxUploadColumns: positiveInt("MAX_UPLOAD_COLUMNS", vals.MAX_UPLOAD_COLUMNS, 5_000),
    // A third of the store: one upload never takes the store near its capacity.
    maxUploadTriples: positiveInt("MAX_UPLOAD_TRIPLES", vals.MAX_UPLOAD_TRIPLES, Math.floor(maxQuads / 3)),
    taskTimeLimitMs: positiveInt("TASK_TIME_LIMIT_S", vals.TASK_TIME_LIMIT_S, 3600) * 1000,
    maxPendingTasks: positiveInt("MAX_PENDING_TASKS", vals.MAX_PENDING_TASKS, 32),
    tokensFile: vals.TOKENS_FILE || undefined,
    tokens: vals.QSARGRAPH_TOKENS || undefined,
    open: flag("OPEN", vals.OPEN),
    privateReads: flag("PRIVATE_READS", vals.PRIVATE_READS),
    queueUrl,
  };
}
