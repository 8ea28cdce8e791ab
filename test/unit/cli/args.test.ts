/**
 * The client's command line (src/cli/args.ts; README "Command-line client"): global options
 * before or after the command, the environment (QSARGRAPH_URL, QSARGRAPH_TOKEN) under the flags,
 * each command's options, and the usage errors (exit 2) that name what is wrong. The expected
 * values are the command lines themselves, read by hand.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { COMMANDS, DEFAULT_SERVER, parseCommandLine } from "../../../src/cli/args.ts";
import { EXIT, UsageError } from "../../../src/cli/errors.ts";

const D = "http://localhost:8080/dataset/abcdefghijkm";
const M = "http://localhost:8080/model/abcdefghijkm";

function run(argv: string[], env: Record<string, string> = {}) {
  const p = parseCommandLine(argv, env);
  assert.equal(p.kind, "run");
  return p as Extract<typeof p, { kind: "run" }>;
}

const usage = (message: RegExp) => (e: unknown) => e instanceof UsageError && e.exitCode === EXIT.usage && message.test(e.message);

describe("parseCommandLine", () => {
  it("train: options, repeated -p, defaults for the global options", () => {
    const p = run(["train", "--dataset", D, "-p", "min_frequency=8", "--param", "prediction_algorithm=local_svm_classification"]);
    assert.equal(p.command, "train");
    assert.equal(p.values.dataset, D);
    assert.deepEqual(p.values.param, ["min_frequency=8", "prediction_algorithm=local_svm_classification"]);
    assert.deepEqual(p.globals, { server: DEFAULT_SERVER, quiet: false, cancelOnInterrupt: false });
    assert.deepEqual(p.positionals, []);
  });

  it("global options before and after the command; the flag wins over the environment", () => {
    const env = { QSARGRAPH_URL: "http://env.example:9000", QSARGRAPH_TOKEN: "envtoken-0123456789" };
    const before = run(["--server", "https://q.example.org/", "--token=abc0123456789abcdef", "-q", "get", D], env);
    assert.equal(before.command, "get");
    assert.deepEqual(before.positionals, [D]);
    assert.deepEqual(before.globals, { server: "https://q.example.org", token: "abc0123456789abcdef", quiet: true, cancelOnInterrupt: false });
    const after = run(["get", D, "--server", "http://h:1", "--progress", "--cancel-on-interrupt"], env);
    assert.deepEqual(after.globals, { server: "http://h:1", token: "envtoken-0123456789", quiet: false, progress: true, cancelOnInterrupt: true });
    const fromEnv = run(["get", D], env);
    assert.equal(fromEnv.globals.server, "http://env.example:9000");
  });

  it("predict: structures as arguments, or '-' alone for stdin; --format from its set", () => {
    const p = run(["predict", "--model", M, "c1ccccc1NN", "InChI=1S/CH4/h1H4", "--format", "json"]);
    assert.deepEqual(p.positionals, ["c1ccccc1NN", "InChI=1S/CH4/h1H4"]);
    assert.equal(p.values.format, "json");
    assert.deepEqual(run(["predict", "-", "--model", M]).positionals, ["-"]);
    assert.throws(() => parseCommandLine(["predict", "--model", M, "-", "CCO"]), usage(/'-' \(read stdin\) must be the only argument/));
    assert.throws(() => parseCommandLine(["predict", "--model", M, "CCO", "--format", "xlsx"]), usage(/--format must be one of table, tsv, csv, json; got 'xlsx'/));
    assert.throws(() => parseCommandLine(["predict", "--model", M]), usage(/predict: give a structure/));
    assert.equal(run(["predict", "--model", M, "--dataset", D]).values.dataset, D);
    assert.throws(() => parseCommandLine(["predict", "--model", M, "--dataset", D, "CCO"]), usage(/structures or --dataset, not both/));
  });

  it("validate: folds and seed are whole numbers; a model parameter cannot hold ';'", () => {
    const p = run(["validate", "--dataset", D, "--folds", "3", "--seed", "7", "--stratified", "--summary", "-p", "min_frequency=8"]);
    assert.deepEqual([p.values.folds, p.values.seed, p.values.stratified, p.values.summary], ["3", "7", true, true]);
    assert.throws(() => parseCommandLine(["validate", "--dataset", D, "--folds", "three"]), usage(/--folds takes a whole number; got 'three'/));
    assert.throws(() => parseCommandLine(["validate", "--dataset", D, "-p", "a=1;b=2"]), usage(/cannot contain ';'/));
  });

  it("get: a format name or a media type", () => {
    assert.equal(run(["get", D, "--format", "uri-list"]).values.format, "uri-list");
    assert.equal(run(["get", D, "--format", "text/csv"]).values.format, "text/csv");
    assert.throws(() => parseCommandLine(["get", D, "--format", "excel"]), usage(/one of turtle, .* or a media type; got 'excel'/));
  });

  it("usage errors name what is wrong", () => {
    assert.throws(() => parseCommandLine([]), usage(/no command given/));
    assert.throws(() => parseCommandLine(["--server", "http://h:1"]), usage(/no command given/));
    assert.throws(() => parseCommandLine(["fly"]), usage(/unknown command 'fly'; commands: upload, train, predict, validate, report, get, sparql, wait/));
    assert.throws(() => parseCommandLine(["train", "--dataset", D, "--bogus"]), usage(/Unknown option '--bogus'/));
    assert.throws(() => parseCommandLine(["train"]), usage(/train: --dataset is required/));
    assert.throws(() => parseCommandLine(["train", "--dataset"]), usage(/argument missing/));
    assert.throws(() => parseCommandLine(["train", "--dataset", D, "-p", "min_frequency"]), usage(/-p takes name=value; got 'min_frequency'/));
    assert.throws(() => parseCommandLine(["train", "--dataset", "dataset/1"]), usage(/--dataset takes an http\(s\) URI; got 'dataset\/1'/));
    assert.throws(() => parseCommandLine(["train", "--dataset", D, "extra"]), usage(/unexpected argument 'extra'/));
    assert.throws(() => parseCommandLine(["get", D, D]), usage(/unexpected argument/));
    assert.throws(() => parseCommandLine(["get", "ftp://h/x"]), usage(/'ftp:\/\/h\/x' is not an http\(s\) URI/));
    assert.throws(() => parseCommandLine(["get", D, "--server", "localhost:8080"]), usage(/not an http or https URL/));
    assert.throws(() => parseCommandLine(["get", D, "--server", "nonsense"]), usage(/'nonsense' is not a URL/));
    assert.throws(() => parseCommandLine(["get", D, "--token", "two words"]), usage(/--token/));
  });

  it("a usage error names its command (for its usage line)", () => {
    try {
      parseCommandLine(["upload"]);
      assert.fail("no error");
    } catch (e) {
      assert.ok(e instanceof UsageError);
      assert.equal(e.command, "upload");
    }
  });

  it("help: overall, per command (help <command>, <command> --help), version", () => {
    const all = parseCommandLine(["--help"]);
    assert.equal(all.kind, "help");
    for (const c of COMMANDS) assert.match((all as { text: string }).text, new RegExp(`\\n  ${c.name} +\\S`));
    assert.match((all as { text: string }).text, /Exit codes: 0 done; 1 the task ended in error/);
    const train = parseCommandLine(["help", "train"]);
    assert.match((train as { text: string }).text, /^Usage: qsargraph train --dataset URI/);
    assert.deepEqual(parseCommandLine(["train", "--help"]), train);
    assert.deepEqual(parseCommandLine(["--version"]), { kind: "version" });
    assert.throws(() => parseCommandLine(["help", "fly"]), usage(/unknown command 'fly'/));
  });
});
