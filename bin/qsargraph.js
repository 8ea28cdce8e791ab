#!/usr/bin/env node
// The `qsargraph` command (package.json "bin"; README "Command-line client"): runs the compiled
// client, dist/cli/main.js, when the package has been built (npm run build), and otherwise its
// TypeScript source, src/cli/main.ts, through tsx, so that `npx qsargraph` works in a clone too.
// `qsargraph worker …` is no client command: it runs the service's entry (src/main.ts) as a job
// worker of a Redis queue (README "Workers on other machines").
import { existsSync } from "node:fs";

const worker = process.argv[2] === "worker";
const entry = worker ? "main" : "cli/main";
const compiled = new URL(`../dist/${entry}.js`, import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else if (worker) {
  // The worker's threads import TypeScript job modules: they need tsx for the whole process
  // (`--import tsx`, which worker threads inherit), not tsImport's scoped loader.
  const { spawn } = await import("node:child_process");
  const main = new URL("../src/main.ts", import.meta.url).pathname;
  const child = spawn(process.execPath, ["--import", "tsx", main, ...process.argv.slice(2)], { stdio: "inherit" });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  let tsx;
  try {
    tsx = await import("tsx/esm/api");
  } catch {
    process.stderr.write("qsargraph: neither the compiled client (npm run build) nor tsx (npm install) is there\n");
    process.exit(70);
  }
  await tsx.tsImport(new URL(`../src/${entry}.ts`, import.meta.url).href, import.meta.url);
}
