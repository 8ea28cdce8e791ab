/**
 * The command line of `qsargraph` (README "Command-line client"): `qsargraph [global options]
 * <command> [options] [arguments]`, the global options also after the command. Parsed with
 * node:util's parseArgs, strictly: an unknown option, a missing value or argument, a value out
 * of its set → UsageError (exit 2) naming it. Pure: the environment comes in as an argument.
 */
import { parseArgs } from "node:util";
import { UsageError } from "./errors.ts";
import { FORMATS as TABLE_FORMATS } from "./table.ts";

export const DEFAULT_SERVER = "http://127.0.0.1:8080";

type OptionSpec = { readonly type: "string" | "boolean"; readonly short?: string; readonly multiple?: boolean };

const GLOBAL_OPTIONS = {
  server: { type: "string" },
  token: { type: "string" },
  quiet: { type: "boolean", short: "q" },
  progress: { type: "boolean" },
  "cancel-on-interrupt": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies Record<string, OptionSpec>;

/** `get --format` names → media types (any type/subtype is taken as it is). */
export const GET_FORMATS: Readonly<Record<string, string>> = {
  turtle: "text/turtle",
  ntriples: "application/n-triples",
  jsonld: "application/ld+json",
  json: "application/json",
  rdfxml: "application/rdf+xml",
  "uri-list": "text/uri-list",
  html: "text/html",
  csv: "text/csv",
  text: "text/plain",
  smiles: "chemical/x-daylight-smiles",
  inchi: "chemical/x-inchi",
  molfile: "chemical/x-mdl-molfile",
  svg: "image/svg+xml",
};

/** `sparql --format` names → media types; `table` reads JSON results. */
export const SPARQL_FORMATS: Readonly<Record<string, string>> = {
  table: "application/sparql-results+json, text/turtle;q=0.9",
  json: "application/sparql-results+json",
  xml: "application/sparql-results+xml",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  turtle: "text/turtle",
  ntriples: "application/n-triples",
  rdfxml: "application/rdf+xml",
};

interface CommandSpec {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  readonly help: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly positionals: { readonly min: number; readonly max: number; readonly what: string };
  readonly required?: readonly string[];
  readonly formats?: readonly string[];
  /** Options whose value is an http(s) URI. */
  readonly uris?: readonly string[];
  /** The arguments are http(s) URIs. */
  readonly uriArguments?: boolean;
}

const PARAM = { type: "string", short: "p", multiple: true } as const;

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "upload",
    usage: "upload <file.csv|file.sdf> [--feature NAME]",
    summary: "upload a dataset; prints the dataset URI",
    help: `Uploads the file (multipart field 'file', under its own name), follows the upload task and
prints the dataset's URI.
  --feature NAME   sent as the form field prediction_feature (the endpoint's column or tag; a
                   CSV upload does not use it: every column becomes a feature)`,
    options: { feature: { type: "string" } },
    positionals: { min: 1, max: 1, what: "a file" },
  },
  {
    name: "train",
    usage: "train --dataset URI [--feature URI] [--algorithm PATH|URI] [-p name=value …]",
    summary: "build a model (or run another algorithm); prints the result URI",
    help: `POSTs dataset_uri (and prediction_feature) with the parameters to an algorithm of the service,
follows the task and prints the result's URI: a lazar model by default.
  --dataset URI      the training dataset
  --feature URI      the endpoint feature (needed when the dataset has several)
  --algorithm PATH   an algorithm path under /algorithm (qsar, lazar, miner/bbrc, miner/last,
                     pc/AllDescriptors, fs/rfe) or its URI; default qsar
  -p name=value      a parameter of the algorithm, repeatable (e.g. -p min_frequency=8
                     -p prediction_algorithm=local_svm_classification); see GET /algorithm/<path>`,
    options: { dataset: { type: "string" }, feature: { type: "string" }, algorithm: { type: "string" }, param: PARAM },
    positionals: { min: 0, max: 0, what: "" },
    required: ["dataset"],
    uris: ["dataset", "feature"],
  },
  {
    name: "predict",
    usage: "predict --model URI [--format table|tsv|csv|json] <SMILES|InChI …|->  |  predict --model URI --dataset URI",
    summary: "predict compounds with a model; prints a table",
    help: `Predicts each structure (a SMILES or a standard InChI; '-' reads one per line from stdin, the
first field of each line) with the model and prints a table: input, prediction, confidence,
neighbours, applicability domain (or the reason there is no prediction; a training compound
shows its measured value). tsv, csv and json add the status, the compound URI and the prediction
dataset. A structure the service cannot read gets a row with the service's message, and the
exit code is then 3. Each structure is one prediction dataset on the service; for many, upload
them as a dataset and give --dataset: the model predicts it as a task, and the prediction
dataset's URI is printed (qsargraph get <it> --format csv shows the values).
  --model URI      the model
  --format F       table (default), tsv, csv or json
  --dataset URI    predict this dataset instead (as a task)`,
    options: { model: { type: "string" }, format: { type: "string" }, dataset: { type: "string" } },
    positionals: { min: 0, max: Infinity, what: "a structure (or '-')" },
    required: ["model"],
    formats: TABLE_FORMATS,
    uris: ["model", "dataset"],
  },
  {
    name: "validate",
    usage: "validate --dataset URI [--feature URI] [--folds N] [--seed N] [--stratified] [-p name=value …] [--summary]",
    summary: "cross-validate lazar on a dataset; prints the cross-validation URI",
    help: `Runs a cross-validation (POST /validation/crossvalidation), follows it and prints its URI; with
--summary, then its main pooled statistics, one per line.
  --dataset URI      the dataset
  --feature URI      the endpoint feature (needed when the dataset has several)
  --folds N          number of folds (service default 10)
  --seed N           random seed of the folds (service default 1)
  --stratified       folds keep the class proportions
  --algorithm URI    the algorithm validated (default <BASE_URL>/algorithm/qsar)
  -p name=value      a model parameter, repeatable (sent as algorithm_params)
  --summary          print the statistics too`,
    options: {
      dataset: { type: "string" },
      feature: { type: "string" },
      folds: { type: "string" },
      seed: { type: "string" },
      stratified: { type: "boolean" },
      algorithm: { type: "string" },
      param: PARAM,
      summary: { type: "boolean" },
    },
    positionals: { min: 0, max: 0, what: "" },
    required: ["dataset"],
    uris: ["dataset", "feature"],
  },
  {
    name: "report",
    usage: "report <cross-validation URI …>",
    summary: "make a report of cross-validations; prints the report URI",
    help: `Makes a report of one or more cross-validations (POST /validation/report/crossvalidation) and
prints its URI; open it in a browser, or: qsargraph get <report> --format html`,
    options: {},
    positionals: { min: 1, max: Infinity, what: "a cross-validation URI" },
    uriArguments: true,
  },
  {
    name: "get",
    usage: `get <URI> [--format ${Object.keys(GET_FORMATS).join("|")}|TYPE/SUBTYPE]`,
    summary: "print a resource",
    help: `Prints the resource's representation on stdout as the service sends it (default: the service's
choice: Turtle for most resources, a uri-list for collections and tasks). A uri-list is printed
with LF line ends (the service sends CRLF).
  --format F   ${Object.keys(GET_FORMATS).join(", ")}, or a media type`,
    options: { format: { type: "string" } },
    positionals: { min: 1, max: 1, what: "a URI" },
    uriArguments: true,
  },
  {
    name: "sparql",
    usage: `sparql <QUERY|-> [--format ${Object.keys(SPARQL_FORMATS).join("|")}]`,
    summary: "run a read-only SPARQL query; prints a table",
    help: `Sends the query (or stdin, with '-') to /sparql. SELECT results are printed as a table (one
column per variable; IRIs and literals by their value, unbound as '-'), ASK as true or false,
CONSTRUCT and DESCRIBE as Turtle. Other formats are the service's own SPARQL results formats,
printed as they come (SPARQL's CSV ends lines with CRLF, its TSV with LF).
  --format F   ${Object.keys(SPARQL_FORMATS).join(", ")}`,
    options: { format: { type: "string" } },
    positionals: { min: 1, max: 1, what: "a query (or '-')" },
    formats: Object.keys(SPARQL_FORMATS),
  },
  {
    name: "wait",
    usage: "wait <task URI>",
    summary: "follow a task to its end; prints the result URI",
    help: `Follows a task (one left by Ctrl-C, or submitted with curl) and prints its result URI.`,
    options: {},
    positionals: { min: 1, max: 1, what: "a task URI" },
    uriArguments: true,
  },
];

export interface Globals {
  readonly server: string;
  readonly token?: string;
  readonly quiet: boolean;
  /** true: show progress even where stderr is not a terminal; undefined: on a terminal only. */
  readonly progress?: boolean;
  readonly cancelOnInterrupt: boolean;
}

export type Values = Readonly<Record<string, string | boolean | string[] | undefined>>;

export type Parsed =
  | { readonly kind: "run"; readonly command: string; readonly globals: Globals; readonly values: Values; readonly positionals: readonly string[] }
  | { readonly kind: "help"; readonly text: string }
  | { readonly kind: "version" };

const GLOBAL_HELP = `Global options (before or after the command):
  --server URL           the service (env QSARGRAPH_URL; default ${DEFAULT_SERVER})
  --token TOKEN          API token, sent as Authorization: Bearer (env QSARGRAPH_TOKEN)
  -q, --quiet            no progress display
  --progress             show progress on stderr even when it is not a terminal
  --cancel-on-interrupt  Ctrl-C cancels the task being followed (default: it goes on)
  -h, --help             help (also: qsargraph help <command>); --version: the version`;

const EXIT_HELP = `Exit codes: 0 done; 1 the task ended in error (its report is printed); 2 usage error;
3 the service answered with an HTTP error (status and message printed); 4 the service cannot be
reached; 130 interrupted (a task being followed goes on: its URI is printed).`;

export function usageText(): string {
  const w = Math.max(...COMMANDS.map((c) => c.name.length));
  return `Usage: qsargraph [options] <command> [arguments]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(w)}  ${c.summary}`).join("\n")}

${GLOBAL_HELP}

A command that starts a task follows it (a progress bar on stderr when it is a terminal) and
prints the result URI alone on stdout, so that  M=$(qsargraph train --dataset "$D")  works.

${EXIT_HELP}
`;
}

export function commandHelp(name: string): string {
  const c = COMMANDS.find((x) => x.name === name);
  if (!c) throw new UsageError(`unknown command '${name}'; commands: ${COMMANDS.map((x) => x.name).join(", ")}`);
  return `Usage: qsargraph ${c.usage}\n\n${c.help}\n\n${GLOBAL_HELP}\n\n${EXIT_HELP}\n`;
}

export function commandUsage(name: string): string | undefined {
  const c = COMMANDS.find((x) => x.name === name);
  return c ? `usage: qsargraph ${c.usage}` : undefined;
}

/** The index of the command word: the first argument that is neither an option nor a global option's value. */
function commandIndex(argv: readonly string[]): number {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") return i + 1 < argv.length ? i + 1 : -1;
    if (a.startsWith("-") && a !== "-") {
      const name = a.replace(/^--?/, "");
      if ((name === "server" || name === "token") && !a.includes("=")) i++;
      continue;
    }
    return i;
  }
  return -1;
}

function checkServer(server: string): string {
  let u: URL;
  try {
    u = new URL(server);
  } catch {
    throw new UsageError(`--server: '${server}' is not a URL (e.g. ${DEFAULT_SERVER})`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new UsageError(`--server: '${server}' is not an http or https URL`);
  if (u.search || u.hash) throw new UsageError(`--server: '${server}' must not have a query or fragment`);
  return server.replace(/\/+$/, "");
}

/** Parse `argv` (without node and the script); `env` gives QSARGRAPH_URL and QSARGRAPH_TOKEN. */
export function parseCommandLine(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): Parsed {
  const at = commandIndex(argv);
  if (at < 0) {
    if (argv.includes("--version")) return { kind: "version" };
    if (argv.includes("--help") || argv.includes("-h")) return { kind: "help", text: usageText() };
    throw new UsageError("no command given");
  }
  const name = argv[at]!;
  if (name === "help") {
    const topic = argv.slice(at + 1).find((a) => !a.startsWith("-"));
    return { kind: "help", text: topic ? commandHelp(topic) : usageText() };
  }
  const spec = COMMANDS.find((c) => c.name === name);
  if (!spec) throw new UsageError(`unknown command '${name}'; commands: ${COMMANDS.map((c) => c.name).join(", ")} (qsargraph --help)`);
  const rest = [...argv.slice(0, at), ...argv.slice(at + 1)];
  let parsed: { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, options: { ...GLOBAL_OPTIONS, ...spec.options }, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (err) {
    throw new UsageError((err as Error).message.split("\n")[0]!, name);
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: "help", text: commandHelp(name) };
  for (const r of spec.required ?? []) {
    if (values[r] === undefined || values[r] === "") throw new UsageError(`${name}: --${r} is required`, name);
  }
  if (positionals.length < spec.positionals.min) throw new UsageError(`${name}: give ${spec.positionals.what}`, name);
  if (name === "predict" && (positionals.length === 0) === (values.dataset === undefined)) {
    throw new UsageError(values.dataset === undefined ? "predict: give a structure (or '-'), or --dataset" : "predict: give structures or --dataset, not both", name);
  }
  if (name === "predict" && values.dataset !== undefined && values.format !== undefined) throw new UsageError("predict: --format is for structures; --dataset prints the prediction dataset's URI", name);
  if (positionals.length > spec.positionals.max) {
    throw new UsageError(spec.positionals.max === 0 ? `${name}: unexpected argument '${positionals[0]}'` : `${name}: unexpected argument '${positionals[spec.positionals.max]}'`, name);
  }
  if (positionals.includes("-") && positionals.length > 1) throw new UsageError(`${name}: '-' (read stdin) must be the only argument`, name);
  const isUri = (s: string): boolean => /^https?:\/\/[^\s/]+/i.test(s) && URL.canParse(s);
  for (const k of spec.uris ?? []) {
    const v = values[k];
    if (typeof v === "string" && !isUri(v)) throw new UsageError(`${name}: --${k} takes an http(s) URI; got '${v}'`, name);
  }
  if (spec.uriArguments) {
    const bad = positionals.find((p) => !isUri(p));
    if (bad !== undefined) throw new UsageError(`${name}: '${bad}' is not an http(s) URI`, name);
  }
  const format = values.format;
  if (typeof format === "string" && spec.formats && !spec.formats.includes(format)) {
    throw new UsageError(`${name}: --format must be one of ${spec.formats.join(", ")}; got '${format}'`, name);
  }
  if (name === "get" && typeof format === "string" && !(format in GET_FORMATS) && !/^[\w.+-]+\/[\w.+-]+$/.test(format)) {
    throw new UsageError(`get: --format must be one of ${Object.keys(GET_FORMATS).join(", ")} or a media type; got '${format}'`, name);
  }
  for (const p of (values.param as string[] | undefined) ?? []) {
    if (!/^[^=\s]+=/.test(p)) throw new UsageError(`${name}: -p takes name=value; got '${p}'`, name);
    if (name === "validate" && p.includes(";")) throw new UsageError(`validate: a model parameter cannot contain ';' (they are sent as name=value;name=value); got '${p}'`, name);
  }
  for (const k of ["folds", "seed"]) {
    const v = values[k];
    if (typeof v === "string" && !/^\d+$/.test(v)) throw new UsageError(`${name}: --${k} takes a whole number; got '${v}'`, name);
  }
  const server = checkServer(String(values.server ?? (env.QSARGRAPH_URL || DEFAULT_SERVER)));
  const token = (values.token as string | undefined) ?? (env.QSARGRAPH_TOKEN || undefined);
  if (token !== undefined && (token === "" || /\s/.test(token))) throw new UsageError("--token: a token has no spaces and is not empty", name);
  const globals: Globals = {
    server,
    ...(token !== undefined ? { token } : {}),
    quiet: values.quiet === true,
    ...(values.progress === true ? { progress: true } : {}),
    cancelOnInterrupt: values["cancel-on-interrupt"] === true,
  };
  const own = Object.fromEntries(Object.entries(values).filter(([k]) => !(k in GLOBAL_OPTIONS)));
  return { kind: "run", command: name, globals, values: own, positionals };
}
