/**
 * Configuration from command-line flags and environment variables (flags win):
 *
 *   --port / PORT                 (8080)   port to listen on
 *   --host / HOST                 (0.0.0.0) interface to bind
 *   --base-url / BASE_URL         (http://localhost:<port>) the URI prefix of every resource
 *   --data-dir / DATA_DIR         (./data) journal and snapshots of the graph store
 *   --workers / WORKERS           (number of cores) worker threads for tasks
 *   --max-upload-mb / MAX_UPLOAD_MB (200) largest accepted upload, in MiB
 *   --sparql-timeout-ms / SPARQL_TIMEOUT_MS (10000) time limit of a SPARQL query
 *   --sparql-max-results / SPARQL_MAX_RESULTS (100000) rows/triples limit of a SPARQL result
 *   --max-quads / MAX_QUADS       (9000000) triples the in-memory store may load before a restart
 *                                 (Oxigraph's WebAssembly store stops near 10.7M; store/graph-store.ts)
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
  readonly maxQuads: number;
}

const FLAGS: Record<string, string> = {
  "--port": "PORT",
  "--host": "HOST",
  "--base-url": "BASE_URL",
  "--data-dir": "DATA_DIR",
  "--workers": "WORKERS",
  "--max-upload-mb": "MAX_UPLOAD_MB",
  "--sparql-timeout-ms": "SPARQL_TIMEOUT_MS",
  "--sparql-max-results": "SPARQL_MAX_RESULTS",
  "--max-quads": "MAX_QUADS",
};

function positiveInt(name: string, raw: string | undefined, dflt: number, allowZero = false): number {
  if (raw === undefined || raw === "") return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1)) throw new Error(`${name} must be a positive integer, got '${raw}'`);
  return n;
}

export function loadConfig(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): Config {
  const vals: Record<string, string | undefined> = { ...env };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split("=", 2) as [string, string | undefined];
    const key = FLAGS[flag];
    if (!key) throw new Error(`unknown option ${flag}; options: ${Object.keys(FLAGS).join(", ")}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`option ${flag} needs a value`);
    vals[key] = value;
  }
  const port = positiveInt("PORT", vals.PORT, 8080, true);
  const baseUrl = (vals.BASE_URL || `http://localhost:${port}`).replace(/\/+$/, "");
  if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) throw new Error(`BASE_URL must be an http(s) URL, got '${baseUrl}'`);
  return {
    port,
    host: vals.HOST || "0.0.0.0",
    baseUrl,
    dataDir: resolve(vals.DATA_DIR || "./data"),
    workers: positiveInt("WORKERS", vals.WORKERS, availableParallelism()),
    maxUploadBytes: positiveInt("MAX_UPLOAD_MB", vals.MAX_UPLOAD_MB, 200) * 1024 * 1024,
    sparqlTimeoutMs: positiveInt("SPARQL_TIMEOUT_MS", vals.SPARQL_TIMEOUT_MS, 10_000),
    sparqlMaxResults: positiveInt("SPARQL_MAX_RESULTS", vals.SPARQL_MAX_RESULTS, 100_000),
    maxQuads: positiveInt("MAX_QUADS", vals.MAX_QUADS, DEFAULT_MAX_QUADS),
  };
}
