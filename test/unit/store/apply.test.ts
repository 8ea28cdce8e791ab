/**
 * store/apply.ts helpers: temporary stores are freed at once (they share the main store's
 * WebAssembly memory), and replay keeps only the current part of operations.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import * as ox from "oxigraph";
import { currentOps, statementsPerGraph, withTemporaryStore } from "../../../src/store/apply.ts";

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
