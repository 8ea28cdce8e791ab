/**
 * store/apply.ts helpers: temporary stores are freed at once (they share the main store's
 * WebAssembly memory), replay keeps only the current part of operations, and paced loading
 * sizes its slices by the time they take.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import * as ox from "oxigraph";
import { applyOpSync, currentOps, slices, statementsPerGraph, withTemporaryStore } from "../../../src/store/apply.ts";

test("withTemporaryStore hands out a working store and frees it afterwards, also when fn throws", () => {
  let kept: ox.Store | undefined;
  const n = withTemporaryStore((s) => {
    kept = s;
    s.load('<http://e/s> <http://e/p> "x" .\n', { format: "application/n-triples" });
    return s.size;
  });
  assert.equal(n, 1);
  // A freed wasm-bindgen object has no pointer any more: using it throws.
  assert.throws(() => kept!.size);
  assert.throws(() =>
    withTemporaryStore((s) => {
      kept = s;
      throw new Error("boom");
    }),
  /boom/);
  assert.throws(() => kept!.size);
});

test("statementsPerGraph and currentOps read the graph IRI at the end of each N-Quads line", () => {
  const g1 = "http://e/g1";
  const g2 = "http://e/g2";
  // A literal with '<' and '>' inside, before the graph term.
  const body = `<http://e/s> <http://e/p> "a <b> c" <${g1}> .\n<http://e/s> <http://e/p> "2" <${g2}> .\n<http://e/t> <http://e/p> <http://e/o> <${g1}> .\n`;
  assert.deepEqual([...statementsPerGraph(body)].sort(), [[g1, 2], [g2, 1]]);
  const ops = currentOps([{ graphs: [g1, g2], nquads: body }, { graph: "http://e/g3", ntriples: "<http://e/s> <http://e/p> \"3\" .\n" }], (i, g) => i === 1 || g === g2);
  assert.equal(ops.length, 2);
  const first = ops[0]!;
  assert.ok("graphs" in first);
  assert.deepEqual(first.graphs, [g2]);
  assert.equal(Buffer.from(first.nquads as Uint8Array).toString(), `<http://e/s> <http://e/p> "2" <${g2}> .\n`);
  assert.deepEqual(ops[1], { graph: "http://e/g3", ntriples: "<http://e/s> <http://e/p> \"3\" .\n" });
});

test("slices asks for the size before each slice and cuts at line ends; applyOpSync loads every line and replaces what the graph held", () => {
  const lines = Array.from({ length: 2000 }, (_, i) => `<http://e/s${i}> <http://e/p> "${"x".repeat(40)} ${i}" .\n`);
  const body = lines.join("");
  const sizes = [10, 5000, 100_000];
  const cut = [...slices(body, () => sizes.shift() ?? 100_000)].map((b) => Buffer.from(b).toString());
  assert.equal(cut.join(""), body);
  for (const c of cut) assert.ok(c.endsWith(".\n"), "whole lines only");
  assert.equal(cut[0], lines[0], "a size below one line still takes a whole line");
  const store = new ox.Store();
  applyOpSync(store, { graph: "http://e/g", ntriples: body }, () => false);
  assert.equal(store.size, 2000);
  applyOpSync(store, { graph: "http://e/g", ntriples: lines.slice(0, 3).join("") }, () => true);
  assert.equal(store.size, 3, "the put replaced the graph's 2000 triples");
});
