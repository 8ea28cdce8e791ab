/**
 * The code keeps to the layer order written in docs/ARCHITECTURE.md (its ```layers block):
 * imports point down only (test/helpers/layers.ts reads the order from the document). The
 * check is shown to catch a planted back-import, a peer import and an unplaced folder.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { checkImports, importsOf, parseLayers, readSources } from "../helpers/layers.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const layers = parseLayers(readFileSync(`${ROOT}docs/ARCHITECTURE.md`, "utf8"));
const sources = readSources(`${ROOT}src`);

test("every import in src/ follows the layer order of docs/ARCHITECTURE.md", () => {
  const found = checkImports(sources, layers).map((v) => `${v.file}:${v.line} ${v.specifier}: ${v.reason}`);
  assert.deepEqual(found, []);
});

test("the layer order places every folder and root file of src/ exactly once", () => {
  const names = layers.flat();
  assert.equal(new Set(names).size, names.length, `a name appears twice: ${names.join(" ")}`);
  const units = new Set(sources.map((f) => f.path.split("/")[0]!));
  assert.deepEqual([...units].filter((u) => !names.includes(u)), []);
  assert.deepEqual(names.filter((n) => !units.has(n)), [], "a name of the layer order is not in src/");
});

test("a planted back-import (store → http) is reported with its file, line and reason", () => {
  const planted = { path: "store/planted.ts", source: `/** planted */\nimport { respond } from "../http/respond.ts";\nexport const x = respond;\n` };
  const found = checkImports([...sources, planted], layers);
  assert.deepEqual(found, [{ file: "store/planted.ts", line: 2, specifier: "../http/respond.ts", reason: "store may not import http, which is above it" }]);
});

test("the check also reports type-only, re-export, side-effect and dynamic imports, peers and unplaced folders", () => {
  const files = [
    { path: "tasks/a.ts", source: `import type { X } from "../algorithms/algorithm.ts";\nexport { y } from "../http/deps.ts";\nimport "../app.ts";\nconst m = await import("../main.ts");\n` },
    { path: "mining/b.ts", source: `import { parse } from "../tabular/csv.ts";\n` },
    { path: "nowhere/c.ts", source: `export const c = 1;\n` },
  ];
  const found = checkImports(files, layers).map((v) => `${v.file}:${v.line} ${v.reason}`);
  assert.deepEqual(found, [
    "tasks/a.ts:1 tasks may not import algorithms, which is above it",
    "tasks/a.ts:2 tasks may not import http, which is above it",
    "tasks/a.ts:3 tasks may not import app.ts, which is above it",
    "tasks/a.ts:4 tasks may not import main.ts, which is above it",
    "mining/b.ts:1 mining and tabular are peers (one line): neither may import the other",
    "nowhere/c.ts:1 nowhere is on no line of the layer order",
  ]);
  // Bare (package) specifiers are not the layer order's business.
  assert.deepEqual(importsOf(`import Koa from "koa";\nimport { x } from "./x.ts";\n`), [{ specifier: "./x.ts", line: 2 }]);
});

test("outside store/, only the composition root (app.ts) and config.ts name the embedded store's module: the rest holds a StoreBackend (store/backend.ts)", () => {
  const named = sources
    .filter((f) => !f.path.startsWith("store/"))
    .flatMap((f) => importsOf(f.source).filter((i) => i.specifier.endsWith("store/graph-store.ts")).map((i) => `${f.path}:${i.line}`));
  assert.deepEqual(named.map((n) => n.split(":")[0]).sort(), ["app.ts", "config.ts"], named.join(" "));
});
