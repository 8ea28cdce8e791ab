#!/usr/bin/env node
// The `qsargraph` command (package.json "bin"; README "Command-line client"): runs the compiled
// client, dist/cli/main.js, when the package has been built (npm run build), and otherwise its
// TypeScript source, src/cli/main.ts, through tsx, so that `npx qsargraph` works in a clone too.
// `qsargraph worker …` is no client command: it runs the service's entry (src/main.ts) as a job
// worker of a Redis queue (README "Workers on other machines").
import { existsSync } from "node:fs";

const entry = process.argv[2] === "worker" ? "main" : "cli/main";
const compiled = new URL(`../dist/${entry}.js`, import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
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
