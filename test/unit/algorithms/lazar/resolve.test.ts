/**
 * The lines of the predict box's `structure` text (src/algorithms/lazar/resolve.ts
 * structureLines): line numbers as a person counts them (empty lines count, and are skipped),
 * and the bounds checked before anything reads a structure.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { structureLines } from "../../../../src/algorithms/lazar/resolve.ts";
import { MAX_STRUCTURE_LINE_CHARS, MAX_STRUCTURE_LINES } from "../../../../src/algorithms/lazar/spec.ts";
import { BadRequest } from "../../../../src/errors.ts";

test("non-empty lines with their numbers, trimmed; CRLF, CR and LF all end a line", () => {
  assert.deepEqual(structureLines("CCO\r\n\r\n  c1ccccc1NN \rCCN\n"), [
    { line: 1, text: "CCO" },
    { line: 3, text: "c1ccccc1NN" },
    { line: 4, text: "CCN" },
  ]);
});

test("no structure, a line too long, too many lines: 400 naming the parameter (and the line)", () => {
  assert.throws(() => structureLines(" \n\n"), (e: unknown) => e instanceof BadRequest && e.details.field === "structure");
  const long = `CCO\n${"C".repeat(MAX_STRUCTURE_LINE_CHARS + 1)}`;
  assert.throws(() => structureLines(long), (e: unknown) => e instanceof BadRequest && e.details.line === 2 && /line 2/.test(e.message));
  assert.equal(structureLines("C".repeat(MAX_STRUCTURE_LINE_CHARS)).length, 1, "a line of exactly the limit is taken");
  assert.equal(structureLines(Array(MAX_STRUCTURE_LINES).fill("C").join("\n")).length, MAX_STRUCTURE_LINES);
  assert.throws(() => structureLines(Array(MAX_STRUCTURE_LINES + 1).fill("C").join("\n")), (e: unknown) => e instanceof BadRequest && /more than 1000 structures/.test(e.message));
});
