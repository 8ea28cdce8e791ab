/**
 * Runs the test files under test/ with node's test runner, one file after another (integration
 * tests start servers on ports), and prints node's report (node's spec reporter on a terminal, TAP
 * otherwise) with each file's wall time and, before node's summary, the slowest files
 * (test/reporter.ts).
 * Node 20's `--test` takes no globs, hence this small runner; it exits non-zero when a test fails.
 * Usage: tsx test/run.ts [substring filter …]   (e.g. `test/unit/`, `crash`)
 * test/external/ (tests against stores the service does not bundle, e.g. Virtuoso) runs only when
 * a filter names it: `tsx test/run.ts test/external/` (npm run test:external).
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

const filters = process.argv.slice(2);
const external = filters.some((x) => x.startsWith("test/external"));
const files = [...find(join(root, "test/unit")), ...find(join(root, "test/integration")), ...(external ? find(join(root, "test/external")) : [])]
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error(`no test file matches ${filters.map((f) => `'${f}'`).join(" or ")}`);
  process.exit(1);
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
