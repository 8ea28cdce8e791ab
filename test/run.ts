/**
 * Runs the test files under test/ with node's test runner, one file after another (integration
 * tests start servers on ports), and prints node's report (node's spec reporter on a terminal, TAP
 * otherwise) with each file's wall time and, before node's summary, the slowest files
 * (test/reporter.ts).
 * Node 20's `--test` takes no globs, hence this small runner; it exits non-zero when a test fails.
 * Usage: tsx test/run.ts [substring filter …]   (e.g. `test/unit/`, `crash`)
 * test/external/ (tests against stores the service does not bundle, e.g. Virtuoso) runs only when
 * a filter names it: `tsx test/run.ts test/external/` (npm run test:external).
 *
 * With QSARGRAPH_TEST_STORE=sparql (`npm run test:sparql`) every test server runs with
 * `--store sparql` on a Virtuoso (test/helpers/server.ts), and the files of EMBEDDED_ONLY are left
 * out: they test what only the embedded store has. The run prints them with their reasons.
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { Readable } from "node:stream";
import { run } from "node:test";
import { spec, tap } from "node:test/reporters";
import { withFileTimes, type TestEvent } from "./reporter.ts";

const root = new URL("..", import.meta.url).pathname;

function find(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return find(p);
      return name.endsWith(".test.ts") ? [p] : [];
    });
}

/**
 * Integration files about the embedded store only, each with the reason: the one list the
 * sparql run (QSARGRAPH_TEST_STORE=sparql) leaves out.
 */
export const EMBEDDED_ONLY: Readonly<Record<string, string>> = {
  "test/integration/capacity.test.ts": "the embedded store's capacity (MAX_QUADS), its 507 and its memory renewal; an external store has no ceiling of ours",
  "test/integration/disk-full.test.ts": "the journal on a full or read-only disk; the external store keeps its own durability",
  "test/integration/vocabulary-migration.test.ts": "moves a data directory's journal written under the old namespace; an external store has no journal to migrate",
  "test/integration/sparql-fairness.test.ts": "the read replicas' worker restarts (qg:sparqlWorkerRestarts) and Oxigraph's join speed; the proxy's limits are tested in test/external/sparql-proxy.test.ts",
};

const filters = process.argv.slice(2);
const sparqlRun = process.env.QSARGRAPH_TEST_STORE === "sparql";
const external = filters.some((x) => x.startsWith("test/external"));
const files = [...find(join(root, "test/unit")), ...find(join(root, "test/integration")), ...(external ? find(join(root, "test/external")) : [])]
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .filter((f) => !(sparqlRun && Object.hasOwn(EMBEDDED_ONLY, f)));
if (sparqlRun) {
  console.log("QSARGRAPH_TEST_STORE=sparql: every test server on a Virtuoso (--store sparql); left out, as they test the embedded store only:");
  for (const [f, why] of Object.entries(EMBEDDED_ONLY)) console.log(`  ${f}: ${why}`);
}
if (files.length === 0) {
  console.error(`no test file matches ${filters.map((f) => `'${f}'`).join(" or ")}`);
  process.exit(1);
}
// The Virtuosos of the files start on copies of one template database (test/helpers/virtuoso.ts).
if (sparqlRun || external) {
  const { makeVirtuosoTemplate, TEMPLATE_ENV } = await import("./helpers/virtuoso.ts");
  process.env[TEMPLATE_ENV] ??= await makeVirtuosoTemplate();
}

// Each file runs in a child process with this process's flags (tsx's loader).
process.chdir(root);
const events = run({ files, concurrency: 1 });
events.on("test:fail", (data: { todo?: unknown }) => {
  if (!data.todo) process.exitCode = 1;
});
const timed = Readable.from(withFileTimes(events as AsyncIterable<TestEvent>));
const report = process.stdout.isTTY ? timed.pipe(new spec()) : Readable.from(tap(timed as never));
report.pipe(process.stdout);
