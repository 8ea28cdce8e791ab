/**
 * The command-line client (src/cli; README "Command-line client") against the real server, run
 * as a child process the way a shell runs it (`node --import tsx src/cli/main.ts …`, or the compiled
 * `cli/main.js` in a compiled run; the
 * launcher bin/qsargraph.js once): upload → train → predict → validate → report → get → sparql
 * on hamster_carcinogenicity.csv, the exit codes (1 a failed task, 2 usage, 3 an HTTP error with
 * the service's message, 4 no server, 130 Ctrl-C), Ctrl-C while a task is followed (the task goes
 * on, or is cancelled with --cancel-on-interrupt), tokens under --private-reads, and the README's
 * curl script (docs/examples/predict.sh) run with bash.
 *
 * Independent expectations: the CSV's own rows (85 data rows, classes true/false, CNN measured
 * true — fixtures/data/SOURCES.md lists the same counts); the prediction of c1ccccc1NN is
 * "false" in lazar's 2012 integration test on this file (opentox/test : lazar.rb @ 54a5b6d,
 * cited in test/integration/models.test.ts); exit codes as README "Command-line client"
 * documents them.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readSmilesCsv } from "../helpers/data.ts";
import { freePort, freshDir, HAMSTER, KAZIUS, removeDir, ROOT, SERVICE_MAIN, startServer } from "../helpers/server.ts";
import { isTypeScript } from "../../src/threads/spawn.ts";
import { useServer } from "../helpers/use-server.ts";

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

interface RunOptions {
  readonly env?: Record<string, string>;
  readonly input?: string;
  /** Called with each piece of stderr as it comes, and the child (to signal it). */
  readonly onStderr?: (text: string, child: ReturnType<typeof spawn>) => void;
  readonly command?: readonly string[];
}

/**
 * The client's entry: the compiled one beside the service's (`cli/main.js`) when the run starts
 * the service compiled (npm test: QSARGRAPH_TEST_MAIN, test/helpers/server.ts), else the sources
 * through tsx, which cost about 0.5 s more per command here.
 */
const CLIENT = isTypeScript(SERVICE_MAIN) ? ["--import", "tsx", "src/cli/main.ts"] : [join(dirname(SERVICE_MAIN), "cli", "main.js")];

/** Run the client with `args`; QSARGRAPH_URL and QSARGRAPH_TOKEN come only from `o.env`. */
function cli(args: readonly string[], o: RunOptions = {}): Promise<Run> {
  const env = { ...process.env, ...o.env };
  if (!o.env?.QSARGRAPH_TOKEN) delete env.QSARGRAPH_TOKEN;
  const child = spawn(process.execPath, [...(o.command ?? CLIENT), ...args], { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
    o.onStderr?.(stderr, child);
  });
  child.stdin.end(o.input ?? "");
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`qsargraph ${args.join(" ")} did not end in 120 s:\n${stdout}\n${stderr}`));
    }, 120_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

const URI_LINE = (path: string): RegExp => new RegExp(`^http://127\\.0\\.0\\.1:\\d+/${path}/[a-z2-9]{12}\\n$`);

describe("qsargraph, the command-line client", () => {
  const srv = useServer();
  const env = (): Record<string, string> => ({ QSARGRAPH_URL: srv.base });
  const rows = readSmilesCsv(HAMSTER);
  const classes = [...new Set(rows.map((r) => r.value))].sort();
  let dataset = "";
  let model = "";
  let cv = "";

  test("the CSV itself: 85 data rows, classes false and true (SOURCES.md: 45 true, 40 false)", () => {
    assert.equal(rows.length, 85);
    assert.deepEqual(classes, ["false", "true"]);
  });

  test("upload: the dataset URI alone on one LF-ended line of stdout, nothing on stderr", async () => {
    const r = await cli(["upload", HAMSTER], { env: env() });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, URI_LINE("dataset"));
    assert.equal(r.stderr, "");
    dataset = r.stdout.trim();
  });

  test("train with --progress (stderr no terminal): the model URI on stdout, progress lines on stderr ending Completed", async () => {
    const r = await cli(["train", "--dataset", dataset, "-p", "min_frequency=8", "--progress"], { env: env() });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, URI_LINE("model"));
    model = r.stdout.trim();
    assert.match(r.stderr, /\[#{20}\] 100\.0 %  Completed  train qsar\n$/);
  });

  test("predict --model <uri> 'c1ccccc1NN' prints a table: a header and one row whose prediction is one of the classes (false, as lazar's)", async () => {
    const r = await cli(["predict", "--model", model, "c1ccccc1NN"], { env: env() });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 2, r.stdout);
    assert.deepEqual(lines[0]!.split(/\s{2,}/), ["input", "prediction", "confidence", "neighbours", "applicability domain"]);
    const [input, prediction, confidence, neighbours, domain] = lines[1]!.split(/\s{2,}/);
    assert.equal(input, "c1ccccc1NN");
    assert.ok(classes.includes(prediction!), `${prediction} is a class of the dataset`);
    assert.equal(prediction, "false");
    assert.ok(Number(confidence) > 0 && Number(confidence) <= 1, confidence);
    assert.ok(Number(neighbours) > 0, neighbours);
    assert.equal(domain, "inside");
  });

  test("predict - (stdin) --format json: one object per line; CNN is a training compound, measured true as in the CSV", async () => {
    const cnn = rows.find((x) => x.smiles === "CNN");
    assert.equal(cnn?.value, "true");
    const r = await cli(["predict", "--model", model, "--format", "json", "-"], { env: env(), input: "c1ccccc1NN query\r\nCNN\n\n" });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { input: string; status: string; prediction: string; confidence: number | null; compound: string; prediction_dataset: string }[];
    assert.deepEqual(
      out.map((x) => [x.input, x.status, x.prediction]),
      [
        ["c1ccccc1NN", "predicted", "false"],
        ["CNN", "measured", "true"],
      ],
    );
    assert.match(out[0]!.compound, /\/compound\/InChI=1S\/C6H8N2\//);
    assert.match(out[0]!.prediction_dataset, /\/dataset\/[a-z2-9]{12}$/);
  });

  test("predict: a structure the service cannot read gets a row with its message; the others are predicted; exit 3", async () => {
    const r = await cli(["predict", "--model", model, "--format", "tsv", "c1ccccc1NN", "C1CC"], { env: env() });
    assert.equal(r.code, 3, r.stderr);
    const [head, ok, bad] = r.stdout.trimEnd().split("\n").map((l) => l.split("\t"));
    assert.deepEqual(head, ["input", "status", "prediction", "confidence", "neighbours", "domain", "compound", "prediction_dataset"]);
    assert.deepEqual(ok!.slice(0, 3), ["c1ccccc1NN", "predicted", "false"]);
    assert.deepEqual(bad!.slice(0, 3), ["C1CC", "error", ""]);
    assert.match(bad![5]!, /^422 UnprocessableEntity: the structure could not be read/);
    assert.match(r.stderr, /1 of 2 structures could not be read by the service/);
  });

  test("predict --dataset: the model predicts a dataset as a task; its CSV export has a row per query", async () => {
    const dir = freshDir("qsargraph-cli-");
    try {
      const file = join(dir, "queries.csv");
      writeFileSync(file, "SMILES\nc1ccccc1NN\nCNN\n");
      const q = await cli(["upload", file], { env: env() });
      assert.equal(q.code, 0, q.stderr);
      const r = await cli(["predict", "--model", model, "--dataset", q.stdout.trim()], { env: env() });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, URI_LINE("dataset"));
      const csv = await cli(["get", r.stdout.trim(), "--format", "csv"], { env: env() });
      const lines = csv.stdout.trimEnd().split(/\r?\n/);
      assert.equal(lines.length, 3, csv.stdout);
      // c1ccccc1NN predicted false with a confidence; CNN measured true (the CSV), no prediction
      assert.match(lines[1]!, /,false,0\.\d+$/);
      assert.equal(lines[2], "CNN,true,,");
    } finally {
      removeDir(dir);
    }
  });

  test("validate --folds 3 --summary: the cross-validation URI, then its statistics (85 instances: the CSV's rows)", async () => {
    const r = await cli(["validate", "--dataset", dataset, "--folds", "3", "-p", "min_frequency=8", "--summary"], { env: env() });
    assert.equal(r.code, 0, r.stderr);
    const [uri, head, ...stats] = r.stdout.trimEnd().split("\n");
    assert.match(`${uri}\n`, URI_LINE("validation/crossvalidation"));
    cv = uri!;
    assert.deepEqual(head!.split(/\s+/), ["statistic", "value"]);
    const byName = new Map(stats.map((l) => l.trim().split(/\s+/) as [string, string]));
    assert.equal(byName.get("numInstances"), String(rows.length));
    assert.equal(Number(byName.get("numPredicted")) + Number(byName.get("numUnpredicted")), rows.length);
    const accuracy = Number(byName.get("accuracy"));
    assert.ok(accuracy > 0 && accuracy <= 1, `accuracy ${accuracy}`);
  });

  test("report: the report URI; get --format html shows it naming the cross-validation", async () => {
    const r = await cli(["report", cv], { env: env() });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, URI_LINE("validation/report/crossvalidation"));
    const html = await cli(["get", r.stdout.trim(), "--format", "html"], { env: env() });
    assert.equal(html.code, 0, html.stderr);
    assert.match(html.stdout, /<title>Cross-validation report/);
    assert.ok(html.stdout.includes(cv));
  });

  test("get: the CSV export has the file's 85 rows and a header; a uri-list is printed with LF only", async () => {
    const csv = await cli(["get", dataset, "--format", "csv"], { env: env() });
    assert.equal(csv.code, 0, csv.stderr);
    assert.equal(csv.stdout.trimEnd().split(/\r?\n/).length, rows.length + 1);
    const list = await cli(["get", dataset, "--format", "uri-list"], { env: env() });
    assert.equal(list.code, 0, list.stderr);
    assert.ok(!list.stdout.includes("\r"), "no CR");
    const compounds = list.stdout.split("\n").filter(Boolean);
    assert.ok(compounds.length > 0 && compounds.every((u) => u.startsWith(`${srv.base}/compound/InChI=1S/`)));
    // The same list straight from the service ends its lines with CRLF (RFC 2483).
    const raw = await (await fetch(dataset, { headers: { Accept: "text/uri-list" } })).text();
    assert.equal(raw, compounds.map((u) => `${u}\r\n`).join(""));
  });

  test("sparql: the dataset's entries counted are the CSV's 85 rows (table, tsv); ASK → true", async () => {
    const query = `PREFIX ot: <http://www.opentox.org/api/1.1#> SELECT (COUNT(?e) AS ?n) WHERE { GRAPH <${dataset}> { <${dataset}> ot:dataEntry ?e } }`;
    const table = await cli(["sparql", query], { env: env() });
    assert.equal(table.code, 0, table.stderr);
    assert.deepEqual(table.stdout.split("\n"), ["n", String(rows.length), ""]);
    const tsv = await cli(["sparql", "--format", "tsv", "-"], { env: env(), input: query });
    assert.equal(tsv.code, 0, tsv.stderr);
    assert.match(tsv.stdout, new RegExp(`^\\?n\\n"?${rows.length}"?`));
    const ask = await cli(["sparql", `ASK { GRAPH <${model}> { ?s ?p ?o } }`], { env: env() });
    assert.equal(ask.stdout, "true\n");
  });

  test("exit 2 for bad usage, with the command's usage line; nothing on stdout", async () => {
    const r = await cli(["train", "--dataset"], { env: env() });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^qsargraph: .*argument missing\nusage: qsargraph train --dataset URI/);
    const unknown = await cli(["fly"], { env: env() });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command 'fly'/);
  });

  test("exit 3 for an unknown dataset, with the service's status and message", async () => {
    const r = await cli(["train", "--dataset", `${srv.base}/dataset/nosuchdata2`], { env: env() });
    assert.equal(r.code, 3);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, new RegExp(`^qsargraph: POST ${srv.base}/algorithm/qsar answered 400 BadRequest: parameter 'dataset_uri': ${srv.base}/dataset/nosuchdata2 is not a dataset of this service \\(field dataset_uri\\)\\n$`));
    const missing = await cli(["get", `${srv.base}/model/nosuchmodel2`], { env: env() });
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /answered 404 NotFound: no model/);
  });

  test("exit 4 when nothing listens at the server's address", async () => {
    const port = await freePort();
    const r = await cli(["get", `http://127.0.0.1:${port}/dataset`, "--server", `http://127.0.0.1:${port}`]);
    assert.equal(r.code, 4);
    assert.match(r.stderr, new RegExp(`^qsargraph: cannot reach http://127\\.0\\.0\\.1:${port}: ECONNREFUSED\\n$`));
  });

  test("exit 1 when the task ends in error, with its error report (an upload without a readable structure)", async () => {
    const dir = freshDir("qsargraph-cli-");
    try {
      const file = join(dir, "bad.csv");
      writeFileSync(file, "SMILES,activity\nnot_a_smiles,1\nxyz(,0\n");
      const r = await cli(["upload", file], { env: env() });
      assert.equal(r.code, 1);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /^qsargraph: task http:\S+\/task\/[a-z2-9]{12} failed: 400 BadRequest: no usable row/);
      assert.match(r.stderr, /Line 3: cannot use structure "xyz\("/);
    } finally {
      removeDir(dir);
    }
  });

  /** Upload Kazius (4069 rows: several seconds) and press Ctrl-C at its first progress line. */
  async function interruptedUpload(extra: string[]): Promise<{ r: Run; task: string }> {
    let sent = false;
    const r = await cli(["upload", KAZIUS, "--progress", ...extra], {
      env: env(),
      onStderr: (text, child) => {
        if (!sent && /%  Running/.test(text)) {
          sent = true;
          child.kill("SIGINT");
        }
      },
    });
    assert.ok(sent, `no progress line: ${r.stderr}`);
    const task = /task (http:\S+\/task\/[a-z2-9]{12})/.exec(r.stderr)?.[1];
    assert.ok(task, r.stderr);
    return { r, task };
  }

  test("Ctrl-C while following: exit 130 naming the task, which goes on; wait follows it to its dataset", async () => {
    const { r, task } = await interruptedUpload([]);
    assert.equal(r.code, 130);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, new RegExp(`qsargraph: interrupted: task ${task} goes on; follow it with: qsargraph wait ${task}\\n$`));
    const w = await cli(["wait", task], { env: env() });
    assert.equal(w.code, 0, w.stderr);
    assert.match(w.stdout, URI_LINE("dataset"));
  });

  test("Ctrl-C with --cancel-on-interrupt: the task is cancelled; wait then exits 1 saying so", async () => {
    const { r, task } = await interruptedUpload(["--cancel-on-interrupt"]);
    assert.equal(r.code, 130);
    assert.match(r.stderr, new RegExp(`qsargraph: interrupted: task ${task} cancelled\\n$`));
    const w = await cli(["wait", task], { env: env() });
    assert.equal(w.code, 1);
    assert.match(w.stderr, /503 Cancelled: task .* was cancelled/);
  });

  test("bin/qsargraph.js (the package's bin) runs the client: --version is package.json's, get answers", async () => {
    const launcher = ["bin/qsargraph.js"];
    const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
    const v = await cli(["--version"], { command: launcher });
    assert.equal(v.stdout, `${version}\n`);
    const g = await cli(["get", model, "--format", "uri-list"], { env: env(), command: launcher });
    assert.equal(g.code, 0, g.stderr);
    assert.equal(g.stdout, `${model}\n`);
  });

  /** Run a bash script (a file, or `-c` text) in `cwd` with B set to the server; stdout, stderr, code. */
  function bash(args: string[], cwd = ROOT): Promise<Run> {
    return new Promise<Run>((resolve) => {
      const child = spawn("bash", args, { cwd, env: { ...process.env, B: srv.base }, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
  }

  test("the README's scripted example, as printed there, ends with the prediction's Turtle: c1ccccc1NN → false", async () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const section = /^### A scripted example\n([\s\S]*?)^### /m.exec(readme)?.[1];
    assert.ok(section, "README has the section");
    const script = section.split("\n").filter((l) => l.startsWith("    ")).map((l) => l.slice(4)).join("\n");
    assert.match(script, /wait_for/);
    // It uploads hamster_carcinogenicity.csv from the current directory.
    const r = await bash(["-c", script], dirname(HAMSTER));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /ot:value "false"/);
    assert.match(r.stdout, /\/predicted\/value>/);
  });

  test("the README's curl script (docs/examples/predict.sh) chains upload → model → prediction: c1ccccc1NN → false", async () => {
    const r = await bash(["docs/examples/predict.sh", HAMSTER, "c1ccccc1NN"]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split("\n");
    assert.match(lines[0]!, /^dataset: http:\S+\/dataset\/[a-z2-9]{12}$/);
    assert.match(lines[1]!, /^model: http:\S+\/model\/[a-z2-9]{12}$/);
    assert.match(lines[2]!, /^prediction dataset: http:\S+\/dataset\/[a-z2-9]{12}$/);
    assert.equal(lines[3], "prediction,confidence,reason");
    const [prediction, confidence, reason] = lines[4]!.split(",");
    assert.equal(prediction, "false");
    assert.ok(Number(confidence) > 0 && Number(confidence) <= 1, confidence);
    assert.equal(reason, "");
    assert.ok(!r.stdout.includes("\r"));
  });
});

describe("qsargraph with API tokens and private reads", () => {
  const TOKEN = "alice-0123456789abcdef0123456789";

  // The service listens on every interface (tokens allow it) under BASE_URL http://localhost:<port>,
  // the client is given --server http://127.0.0.1:<port>: the token must go to both origins (the
  // task and dataset URIs are the service's localhost ones), and not to 127.0.0.2, which reaches
  // the same service under a name that is neither.
  test("no token: exit 3 with the 401; QSARGRAPH_TOKEN or --token: the upload followed and read back; no token for a third origin", async () => {
    const port = await freePort();
    const dataDir = freshDir();
    const server = await startServer({ dataDir, port, env: { QSARGRAPH_TOKENS: `alice ${TOKEN}`, PRIVATE_READS: "1", HOST: "0.0.0.0", BASE_URL: `http://localhost:${port}` } });
    try {
      const env = { QSARGRAPH_URL: `http://127.0.0.1:${port}` };
      const anonymous = await cli(["upload", HAMSTER], { env });
      assert.equal(anonymous.code, 3);
      assert.match(anonymous.stderr, /answered 401 Unauthorized: /);
      const r = await cli(["upload", HAMSTER], { env: { ...env, QSARGRAPH_TOKEN: TOKEN } });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^http://localhost:${port}/dataset/[a-z2-9]{12}\\n$`));
      const ds = r.stdout.trim();
      const read = await cli(["get", ds, "--format", "csv", "--token", TOKEN], { env });
      assert.equal(read.code, 0, read.stderr);
      assert.equal(read.stdout.trimEnd().split(/\r?\n/).length, 86);
      const denied = await cli(["get", ds], { env });
      assert.equal(denied.code, 3);
      const elsewhere = await cli(["get", ds.replace("localhost", "127.0.0.2"), "--format", "csv", "--token", TOKEN], { env });
      assert.equal(elsewhere.code, 3);
      assert.match(elsewhere.stderr, new RegExp(`answered 401 [\\s\\S]*the token is sent only to the service's own origins; http://127\\.0\\.0\\.2:${port} is not one of them`));
    } finally {
      await server.stop();
      removeDir(dataDir);
    }
  });
});
