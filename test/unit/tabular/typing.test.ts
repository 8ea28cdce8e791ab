/** Tests of src/tabular/typing.ts (number syntax, nominal/numeric typing, accept values). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseNumber, typeColumn } from "../../../src/tabular/typing.ts";

test("parseNumber accepts finite decimal numbers only", () => {
  const cases: [string, number | null][] = [
    ["1", 1],
    ["0", 0],
    ["1.0", 1],
    ["1.13E-02", 0.0113], // scientific notation as in EPAFHM.csv
    ["-3", -3],
    ["+2.5", 2.5],
    [".5", 0.5],
    ["5.", 5],
    ["-2.35", -2.35],
    ["3578.239", 3578.239],
    ["0x10", null],
    ["Infinity", null],
    ["-Infinity", null],
    ["NaN", null],
    ["", null],
    [" 1", null],
    ["1,5", null],
    ["1e999", null], // overflows to Infinity
    ["1e", null],
    ["e5", null],
    ["1_000", null],
    ["true", null],
    ["123-30-8", null], // a CAS number
  ];
  for (const [s, want] of cases) assert.equal(parseNumber(s), want, JSON.stringify(s));
});

test("≤ 3 distinct text values → nominal, accept values sorted", () => {
  assert.deepEqual(typeColumn(["true", "false", "true", "true"]), {
    nominal: true,
    numeric: false,
    acceptValues: ["false", "true"],
    mixed: false,
    empty: false,
  });
  assert.deepEqual(typeColumn(["mutagenic", "non-mutagenic"]).acceptValues, ["mutagenic", "non-mutagenic"]);
});

test("≤ 3 distinct numbers → nominal and numeric, accept values in numeric order", () => {
  const binary = typeColumn(["1", "0", "1", "0"]);
  assert.equal(binary.nominal, true);
  assert.equal(binary.numeric, true);
  assert.deepEqual(binary.acceptValues, ["0", "1"]);
  assert.deepEqual(typeColumn(["1.0", "0.0"]).acceptValues, ["0.0", "1.0"]);
  assert.deepEqual(typeColumn(["2", "0", "1"]).acceptValues, ["0", "1", "2"]); // ISSCAN 0/1/2
  // Numeric, not string, order: "10" < "2" < "9" as strings.
  assert.deepEqual(typeColumn(["10", "9", "2"]).acceptValues, ["2", "9", "10"]);
  assert.deepEqual(typeColumn(["-1", "-10", "3"]).acceptValues, ["-10", "-1", "3"]);
});

test("missing values do not count as a value (unlike the reference)", () => {
  // Reference: "", 0, 1, 2 = 4 distinct strings → regression. Here: 3 values → nominal.
  const t = typeColumn(["0", null, "1", "2", null]);
  assert.equal(t.nominal, true);
  assert.equal(t.numeric, true);
  assert.deepEqual(t.acceptValues, ["0", "1", "2"]);
  assert.equal(t.empty, false);
});

test("> 3 distinct numbers → numeric only", () => {
  assert.deepEqual(typeColumn(["1.1", "0.24", "3578.239", "-2.35", "1", "-1.5"]), {
    nominal: false,
    numeric: true,
    acceptValues: [],
    mixed: false,
    empty: false,
  });
});

test("> 3 distinct values, not all numbers → nominal, all values accepted, mixed flagged", () => {
  const text = typeColumn(["b", "a", "d", "c", "a"]);
  assert.deepEqual(text, { nominal: true, numeric: false, acceptValues: ["a", "b", "c", "d"], mixed: false, empty: false });
  // multicolumn.csv, column "mixed".
  const mixed = typeColumn(["true", "7.5", "5", "false", "4", "false"]);
  assert.equal(mixed.nominal, true);
  assert.equal(mixed.numeric, false);
  assert.equal(mixed.mixed, true);
  assert.deepEqual(mixed.acceptValues, ["4", "5", "7.5", "false", "true"]); // code-unit order
});

test("mixed is also flagged for ≤ 3 values (e.g. a stray TRUE in a 0/1 column)", () => {
  const t = typeColumn(["1", "0", "TRUE", "1"]);
  assert.equal(t.nominal, true);
  assert.equal(t.numeric, false);
  assert.equal(t.mixed, true);
  assert.deepEqual(t.acceptValues, ["0", "1", "TRUE"]);
});

test("accept values are listed up to 1000 distinct text values", () => {
  const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `id${String(i).padStart(4, "0")}`);
  const many = typeColumn(ids(1000));
  assert.equal(many.nominal, true);
  assert.equal(many.acceptValues.length, 1000);
  assert.equal(many.acceptValues[0], "id0000");
  const tooMany = typeColumn(ids(1001));
  assert.equal(tooMany.nominal, true);
  assert.deepEqual(tooMany.acceptValues, []);
});

test("a column with only missing values is empty", () => {
  assert.deepEqual(typeColumn([null, null, ""]), { nominal: false, numeric: false, acceptValues: [], mixed: false, empty: true });
  assert.equal(typeColumn([]).empty, true);
});
