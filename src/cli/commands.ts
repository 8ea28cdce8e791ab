/**
 * The commands of `qsargraph` (README "Command-line client"), each a few HTTP requests to the
 * service (client.ts). A command that starts a task follows it (follow.ts) and prints the result
 * URI alone on one line of stdout; tables go to stdout, progress and messages to stderr.
 */
import { once } from "node:events";
import { openAsBlob, statSync } from "node:fs";
import { basename, extname } from "node:path";
import { GET_FORMATS, SPARQL_FORMATS, type Globals, type Values } from "./args.ts";
import { Client, networkError } from "./client.ts";
import { HttpError, Interrupted, UsageError } from "./errors.ts";
import { followTask } from "./follow.ts";
import { Progress, type ProgressStream } from "./progress.ts";
import { parseNTriples, readPredictions, readStatistics } from "./rdf.ts";
import { formatRows, type Column, type Format, type Row } from "./table.ts";
import { parseUriList } from "./uri-list.ts";

export interface Io {
  readonly stdout: { write(s: string | Uint8Array): boolean; once(event: "drain", f: () => void): unknown };
  readonly stderr: ProgressStream & { readonly isTTY?: boolean };
  readonly stdin: AsyncIterable<Buffer | string>;
}

export interface Context {
  readonly client: Client;
  readonly globals: Globals;
  readonly io: Io;
  /** Aborted by Ctrl-C. */
  readonly signal: AbortSignal;
}

/** At most this much is read from stdin (structures or a query). */
const MAX_STDIN = 64 * 1024 * 1024;

/** The progress display for a task, where one is wanted (a terminal, or --progress; never with --quiet). */
function progressFor(ctx: Context, label: string): Progress | undefined {
  if (ctx.globals.quiet) return undefined;
  const tty = ctx.io.stderr.isTTY === true;
  if (!tty && ctx.globals.progress !== true) return undefined;
  return new Progress(ctx.io.stderr, tty, label);
}

function print(ctx: Context, s: string): void {
  ctx.io.stdout.write(s);
}

async function readStdin(ctx: Context): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of ctx.io.stdin) {
    const b = typeof c === "string" ? Buffer.from(c) : c;
    size += b.length;
    if (size > MAX_STDIN) throw new UsageError(`stdin holds more than ${MAX_STDIN} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The URI an answer names: its Location, else the first URI of its uri-list body. */
async function answeredUri(r: Response, url: string): Promise<string> {
  let body: string;
  try {
    body = await r.text();
  } catch (err) {
    throw networkError(err, url);
  }
  const location = r.headers.get("location");
  const uri = location ? new URL(location, url).href : parseUriList(body)[0];
  if (!uri) throw new HttpError(`${url} answered ${r.status} without a URI`, r.status);
  return uri;
}

/**
 * POST that may start a task: 202 → the task is followed to its result; 200/201 → the URI it
 * answered with. Ctrl-C before the answer: the request may or may not have made a task.
 */
async function submit(ctx: Context, url: string, body: BodyInit, label: string): Promise<string> {
  let uri: string;
  let status: number;
  try {
    const r = await ctx.client.ok("POST", url, { accept: "text/uri-list", body });
    status = r.status;
    uri = await answeredUri(r, url);
  } catch (err) {
    if (err instanceof Interrupted) throw new Interrupted(`interrupted before the service answered; if it took the request, its task is listed by: qsargraph get ${ctx.client.url("/task")}`);
    throw err;
  }
  if (status !== 202) return uri;
  return followTask(ctx.client, uri, { ...progressOpt(ctx, label), signal: ctx.signal, cancelOnInterrupt: ctx.globals.cancelOnInterrupt });
}

function progressOpt(ctx: Context, label: string): { progress?: Progress } {
  const p = progressFor(ctx, label);
  return p ? { progress: p } : {};
}

const isUri = (s: string): boolean => /^https?:\/\//i.test(s);

/** A path under /algorithm (`qsar`, `/algorithm/miner/bbrc`) → its URL at `prefix`; a URI as it is. */
function algorithmUrl(prefix: string, algorithm: string): string {
  if (isUri(algorithm)) return algorithm;
  return `${prefix}/algorithm/${algorithm.replace(/^\/+/, "").replace(/^algorithm\//, "")}`;
}

/** `name=value` → [name, value] (checked by the parser). */
function pairs(values: Values): [string, string][] {
  return ((values.param as string[] | undefined) ?? []).map((p) => {
    const eq = p.indexOf("=");
    return [p.slice(0, eq), p.slice(eq + 1)];
  });
}

const str = (values: Values, k: string): string | undefined => (typeof values[k] === "string" ? (values[k] as string) : undefined);

/** Media type of an upload by its file name (the service also looks at the content). */
function uploadType(path: string): string {
  const ext = extname(path).toLowerCase();
  if (ext === ".csv") return "text/csv";
  if (ext === ".sdf" || ext === ".sd") return "chemical/x-mdl-sdfile";
  if (ext === ".mol") return "chemical/x-mdl-molfile";
  return "application/octet-stream";
}

export async function upload(ctx: Context, values: Values, positionals: readonly string[]): Promise<void> {
  const path = positionals[0]!;
  let blob: Blob;
  try {
    if (!statSync(path).isFile()) throw new UsageError(`upload: ${path} is not a file`, "upload");
    blob = await openAsBlob(path, { type: uploadType(path) });
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`upload: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, "upload");
  }
  const form = new FormData();
  form.append("file", blob, basename(path));
  const feature = str(values, "feature");
  if (feature !== undefined) form.append("prediction_feature", feature);
  print(ctx, `${await submit(ctx, ctx.client.url("/dataset"), form, `upload ${basename(path)}`)}\n`);
}

export async function train(ctx: Context, values: Values): Promise<void> {
  const algorithm = str(values, "algorithm") ?? "qsar";
  const form = new URLSearchParams();
  form.append("dataset_uri", str(values, "dataset")!);
  const feature = str(values, "feature");
  if (feature !== undefined) form.append("prediction_feature", feature);
  for (const [k, v] of pairs(values)) form.append(k, v);
  print(ctx, `${await submit(ctx, algorithmUrl(ctx.client.server, algorithm), form, `train ${algorithm}`)}\n`);
}

const PREDICT_TABLE: readonly Column[] = [
  { key: "input" },
  { key: "prediction" },
  { key: "confidence", show: (v) => (typeof v === "number" ? v.toFixed(3) : ""), align: "right" },
  { key: "neighbours", align: "right" },
  { key: "domain", title: "applicability domain" },
];

const PREDICT_MACHINE: readonly Column[] = ["input", "status", "prediction", "confidence", "neighbours", "domain", "compound", "prediction_dataset"].map((key) => ({ key }));

export async function predict(ctx: Context, values: Values, positionals: readonly string[]): Promise<void> {
  const model = str(values, "model")!;
  const dataset = str(values, "dataset");
  if (dataset !== undefined) {
    print(ctx, `${await submit(ctx, model, new URLSearchParams({ dataset_uri: dataset }), "predict")}\n`);
    return;
  }
  const format = (str(values, "format") ?? "table") as Format;
  const inputs =
    positionals[0] === "-"
      ? (await readStdin(ctx))
          .split(/\r\n|\n|\r/)
          .map((l) => l.trim().split(/\s+/)[0] ?? "")
          .filter((s) => s !== "")
      : [...positionals];
  if (inputs.length === 0) throw new UsageError("predict: no structure on stdin", "predict");
  const { client } = ctx;
  // The model first: a wrong model URI is one error, not one per structure.
  await (await client.ok("GET", model, { accept: "text/uri-list" })).body?.cancel();
  const progress = inputs.length > 1 ? progressFor(ctx, "predict") : undefined;
  const rows: Row[] = [];
  let failed: HttpError | undefined;
  let failures = 0;
  try {
    for (const [i, input] of inputs.entries()) {
      progress?.update(`${i}/${inputs.length}`, (100 * i) / inputs.length);
      let compound: string;
      try {
        const r = await client.ok("POST", client.url("/compound"), { accept: "text/uri-list", body: input, contentType: /^InChI=/i.test(input) ? "chemical/x-inchi" : "chemical/x-daylight-smiles" });
        compound = await answeredUri(r, client.url("/compound"));
      } catch (err) {
        // A structure the service cannot read (400, 413, 422) is this row's failure; anything else ends the command.
        if (!(err instanceof HttpError) || ![400, 413, 422].includes(err.status)) throw err;
        failed = err;
        failures++;
        rows.push({ input, status: "error", prediction: null, confidence: null, neighbours: null, domain: err.message.replace(/^POST \S+ answered /, ""), compound: null, prediction_dataset: null });
        continue;
      }
      const r = await client.ok("POST", model, { accept: "text/uri-list", body: new URLSearchParams({ compound_uri: compound }) });
      const dataset = await answeredUri(r, model);
      const entry = readPredictions(parseNTriples(await client.text("GET", dataset, { accept: "application/n-triples" })), dataset)[0];
      if (!entry) throw new HttpError(`the prediction dataset ${dataset} has no entry`, 200);
      const domain = entry.status === "predicted" ? "inside" : entry.status === "measured" ? "training compound: measured value" : (entry.reason ?? "no prediction");
      rows.push({ input, status: entry.status, prediction: entry.value, confidence: entry.confidence, neighbours: entry.neighbours, domain, compound, prediction_dataset: dataset });
    }
  } finally {
    progress?.finish();
  }
  print(ctx, formatRows(format === "table" ? PREDICT_TABLE : PREDICT_MACHINE, rows, format));
  if (failed) throw new HttpError(`${failures} of ${inputs.length} structure${inputs.length === 1 ? "" : "s"} could not be read by the service (last: ${failed.message})`, failed.status);
}

/** The pooled statistics `validate --summary` prints, in this order, where present. */
export const SUMMARY_STATISTICS = [
  "numInstances",
  "numPredicted",
  "numUnpredicted",
  "accuracy",
  "weightedAccuracy",
  "averageAreaUnderRoc",
  "rootMeanSquaredError",
  "meanAbsoluteError",
  "rSquare",
  "weightedRSquare",
  "concordanceCorrelationCoefficient",
] as const;

export async function validate(ctx: Context, values: Values): Promise<void> {
  const { client } = ctx;
  const base = await client.base();
  const form = new URLSearchParams();
  form.append("algorithm_uri", algorithmUrl(base, str(values, "algorithm") ?? "qsar"));
  form.append("dataset_uri", str(values, "dataset")!);
  const feature = str(values, "feature");
  if (feature !== undefined) form.append("prediction_feature", feature);
  const folds = str(values, "folds");
  if (folds !== undefined) form.append("num_folds", folds);
  const seed = str(values, "seed");
  if (seed !== undefined) form.append("random_seed", seed);
  if (values.stratified === true) form.append("stratified", "true");
  const params = pairs(values);
  if (params.length > 0) form.append("algorithm_params", params.map(([k, v]) => `${k}=${v}`).join(";"));
  const cv = await submit(ctx, client.url("/validation/crossvalidation"), form, "cross-validation");
  print(ctx, `${cv}\n`);
  if (values.summary !== true) return;
  const stats = readStatistics(parseNTriples(await client.text("GET", cv, { accept: "application/n-triples" })), cv);
  const rows: Row[] = SUMMARY_STATISTICS.filter((k) => stats.has(k)).map((k) => ({ statistic: k, value: stats.get(k)! }));
  print(ctx, formatRows([{ key: "statistic" }, { key: "value", show: (v) => (typeof v === "number" && !Number.isInteger(v) ? v.toFixed(4) : String(v)), align: "right" }], rows, "table"));
}

export async function report(ctx: Context, _values: Values, positionals: readonly string[]): Promise<void> {
  const form = new URLSearchParams({ validation_uris: positionals.join(" ") });
  print(ctx, `${await submit(ctx, ctx.client.url("/validation/report/crossvalidation"), form, "report")}\n`);
}

/** Copy a body to stdout as it arrives (waiting when stdout is full); `stripCr`: a uri-list, printed with LF line ends. */
async function pipeBody(ctx: Context, r: Response, url: string, stripCr: boolean): Promise<void> {
  if (!r.body) return;
  try {
    for await (const chunk of r.body) {
      const bytes = stripCr ? chunk.filter((b: number) => b !== 13) : chunk;
      if (!ctx.io.stdout.write(bytes)) await once(ctx.io.stdout as never, "drain");
    }
  } catch (err) {
    throw networkError(err, url);
  }
}

export async function get(ctx: Context, values: Values, positionals: readonly string[]): Promise<void> {
  const uri = positionals[0]!;
  const format = str(values, "format");
  const r = await ctx.client.ok("GET", uri, format ? { accept: GET_FORMATS[format] ?? format } : {});
  await pipeBody(ctx, r, uri, (r.headers.get("content-type") ?? "").startsWith("text/uri-list"));
}

interface SparqlJson {
  readonly head?: { readonly vars?: readonly string[] };
  readonly boolean?: boolean;
  readonly results?: { readonly bindings: readonly Readonly<Record<string, { readonly value: string }>>[] };
}

export async function sparql(ctx: Context, values: Values, positionals: readonly string[]): Promise<void> {
  const query = positionals[0] === "-" ? await readStdin(ctx) : positionals[0]!;
  const format = str(values, "format") ?? "table";
  const url = ctx.client.url("/sparql");
  const r = await ctx.client.ok("POST", url, { accept: SPARQL_FORMATS[format]!, body: query, contentType: "application/sparql-query" });
  if (format !== "table" || !(r.headers.get("content-type") ?? "").startsWith("application/sparql-results+json")) return pipeBody(ctx, r, url, false);
  const j = JSON.parse(await r.text()) as SparqlJson;
  if (typeof j.boolean === "boolean") return print(ctx, `${j.boolean}\n`);
  const vars = j.head?.vars ?? [];
  const rows = (j.results?.bindings ?? []).map((b) => Object.fromEntries(vars.map((v) => [v, b[v]?.value ?? null])));
  print(ctx, formatRows(vars.map((key) => ({ key })), rows, "table"));
}

export async function wait(ctx: Context, _values: Values, positionals: readonly string[]): Promise<void> {
  const task = positionals[0]!;
  print(ctx, `${await followTask(ctx.client, task, { ...progressOpt(ctx, "task"), signal: ctx.signal, cancelOnInterrupt: ctx.globals.cancelOnInterrupt })}\n`);
}

export const RUN: Readonly<Record<string, (ctx: Context, values: Values, positionals: readonly string[]) => Promise<void>>> = {
  upload,
  train: (ctx, values) => train(ctx, values),
  predict,
  validate: (ctx, values) => validate(ctx, values),
  report,
  get,
  sparql,
  wait,
};
