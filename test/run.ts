/**
 * Runs every test file under test/ (unit first, then integration) with node's test runner, so
 * that its summary is printed. Node 20's `--test` takes no globs, hence this small runner.
 * Usage: tsx test/run.ts [substring filter …]
 */
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

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
const files = [...find(join(root, "test/unit")), ...find(join(root, "test/integration"))]
  .map((f) => relative(root, f))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));

const r = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=1", ...files], { cwd: root, stdio: "inherit" });
process.exit(r.status ?? 1);
