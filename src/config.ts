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
  /** Where the graphs live: `embedded` (Oxigraph in this process, made durable by the journal in DATA_DIR) or `sparql` (an external SPARQL 1.1 store). */
  readonly store: "embedded" | "sparql";
  /** With `store: "sparql"`: the external store's endpoints and how to reach them; undefined otherwise. */
  readonly sparqlStore: SparqlStoreConfig | undefined;
}

/** The external SPARQL 1.1 store of `--store sparql` (README "External SPARQL store"). */
export interface SparqlStoreConfig {
  /** SPARQL 1.1 query endpoint. */
  readonly query: string;
  /** SPARQL 1.1 update endpoint. */
  readonly update: string;
  /** SPARQL 1.1 Graph Store Protocol endpoint. */
  readonly gsp: string;
  /** The GSP parameter naming the graph: `graph` (SPARQL 1.1 GSP, the default) or `graph-uri` (Virtuoso). */
  readonly gspParam: "graph" | "graph-uri";
  /** HTTP basic-auth credentials (SPARQL_USER / SPARQL_PASSWORD, from the environment only); never logged. */
  readonly user: string | undefined;
  readonly password: string | undefined;
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
  "--store": "STORE",
  "--sparql-query": "SPARQL_QUERY_URL",
  "--sparql-update": "SPARQL_UPDATE_URL",
  "--sparql-gsp": "SPARQL_GSP_URL",
  "--sparql-gsp-param": "SPARQL_GSP_PARAM",
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

/** An endpoint URL: absolute http(s), without credentials (those come from SPARQL_USER / SPARQL_PASSWORD) or a fragment. */
function endpointUrl(name: string, raw: string | undefined): string {
  if (raw === undefined || raw === "") throw new Error(`--store sparql needs ${name} (the external store's endpoint URL)`);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`${name} must be an absolute http(s) URL, got '${raw}'`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error(`${name} must be an http(s) URL, got '${u.protocol}' in '${raw}'`);
  if (u.username !== "" || u.password !== "") throw new Error(`${name} must not hold credentials: give them in SPARQL_USER and SPARQL_PASSWORD`);
  if (u.hash !== "") throw new Error(`${name} must not have a fragment, got '${raw}'`);
  return raw;
}

function sparqlStoreConfig(vals: Record<string, string | undefined>): SparqlStoreConfig {
  const param = vals.SPARQL_GSP_PARAM || "graph";
  if (param !== "graph" && param !== "graph-uri") throw new Error(`SPARQL_GSP_PARAM must be 'graph' (SPARQL 1.1 Graph Store Protocol) or 'graph-uri' (Virtuoso), got '${param}'`);
  const user = vals.SPARQL_USER || undefined;
  const password = vals.SPARQL_PASSWORD || undefined;
  if ((user === undefined) !== (password === undefined)) throw new Error("give both SPARQL_USER and SPARQL_PASSWORD, or neither");
  if (user?.includes(":")) throw new Error("SPARQL_USER must not contain ':' (HTTP basic authentication)");
  return {
    query: endpointUrl("SPARQL_QUERY_URL (--sparql-query)", vals.SPARQL_QUERY_URL),
    update: endpointUrl("SPARQL_UPDATE_URL (--sparql-update)", vals.SPARQL_UPDATE_URL),
    gsp: endpointUrl("SPARQL_GSP_URL (--sparql-gsp)", vals.SPARQL_GSP_URL),
    gspParam: param,
    user,
    password,
  };
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
  const store = vals.STORE || "embedded";
  if (store !== "embedded" && store !== "sparql") throw new Error(`STORE (--store) must be 'embedded' or 'sparql', got '${store}'`);
  const sparqlStore = store === "sparql" ? sparqlStoreConfig(vals) : undefined;
  if (store === "embedded") {
    const given = ["SPARQL_QUERY_URL", "SPARQL_UPDATE_URL", "SPARQL_GSP_URL"].filter((k) => vals[k]);
    if (given.length > 0) throw new Error(`${given.join(", ")} given, but the store is the embedded one: add --store sparql (STORE=sparql)`);
  }
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
    store,
    sparqlStore,
  };
}
