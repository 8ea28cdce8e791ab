import { test } from "node:test";
import assert from "node:assert/strict";
import * as ox from "oxigraph";
import { checkPlain } from "../../../src/store/plain-data.ts";

test("plain data passes: primitives, objects, arrays, Maps, Sets, Dates, bytes", () => {
  const value = { a: 1, b: "x", c: [true, null, undefined, 2n], d: new Map([["k", { e: [1] }]]), f: new Set(["s"]), g: new Date(0), h: new Uint8Array(2), i: Object.create(null) };
  checkPlain(value, "read x"); // throws on failure; the next tests show that it can
  assert.deepEqual(structuredClone(value).d.get("k"), { e: [1] });
});

test("an Oxigraph term anywhere in the result is refused, naming where", () => {
  assert.throws(() => checkPlain({ rows: [{ s: ox.namedNode("http://example.org/a") }] }, "read rows"), /read rows: the result\.rows\[0\]\.s is an instance of NamedNode/);
  assert.throws(() => checkPlain(new Map([["k", ox.literal("1")]]), "read m"), /the result\[k\] is an instance of Literal/);
});

test("functions and class instances are refused", () => {
  assert.throws(() => checkPlain({ f: () => 1 }, "read f"), /the result\.f is a function/);
  class Box {
    x = 1;
  }
  assert.throws(() => checkPlain([new Box()], "read b"), /the result\[0\] is an instance of Box/);
});
