/**
 * Parameter checking against an algorithm's spec (src/resources/params.ts), table-driven: every
 * kind of value, defaults, unknown and repeated names, several errors reported together, and the
 * per-mil → absolute minimum frequency max(2, floor(‰ · N / 1000)) of lazar's fminer service
 * (opentox/opentox-ruby : lib/utils.rb min_frequency @ v4.0.0; docs/lazar-method.md
 * "Substructures").
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { BadRequest } from "../../../src/errors.ts";
import type { AlgorithmSpec } from "../../../src/resources/algorithm.ts";
import { absoluteFrequency, parseParams } from "../../../src/resources/params.ts";

const SPEC: AlgorithmSpec = {
  path: "test/alg",
  aliases: [],
  title: "Test",
  description: "a spec with one parameter of every kind",
  types: [],
  parameters: [
    { name: "dataset_uri", description: "d", required: true, kind: { type: "dataset" } },
    { name: "flag", description: "b", required: false, default: "true", kind: { type: "boolean" } },
    { name: "n", description: "i", required: false, kind: { type: "integer", min: 1, max: 10 } },
    { name: "x", description: "x", required: false, kind: { type: "number", min: 0, max: 1 } },
    { name: "mode", description: "e", required: false, default: "trees", kind: { type: "enum", values: ["trees", "paths"] } },
    { name: "min_frequency", description: "f", required: false, default: "5pm", kind: { type: "frequency" } },
  ],
};
const DS = "http://localhost:8080/dataset/abcdefghijkm";
const raw = (o: Record<string, string | string[]>): Map<string, string[]> => new Map(Object.entries(o).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]));

test("valid values are typed; absent ones take their defaults; written lists given and default values in spec order", () => {
  const p = parseParams(SPEC, raw({ dataset_uri: DS, flag: "No", n: "7", x: "0.25", mode: "paths", min_frequency: "2pc" }));
  assert.equal(p.string("dataset_uri"), DS);
  assert.equal(p.boolean("flag"), false);
  assert.equal(p.number("n"), 7);
  assert.equal(p.number("x"), 0.25);
  assert.equal(p.string("mode"), "paths");
  assert.deepEqual(p.frequency("min_frequency"), { perMil: 20 });
  const d = parseParams(SPEC, raw({ dataset_uri: DS }));
  assert.equal(d.boolean("flag"), true);
  assert.equal(d.number("n"), undefined);
  assert.deepEqual(d.frequency("min_frequency"), { perMil: 5 });
  assert.deepEqual(d.written, [["dataset_uri", DS], ["flag", "true"], ["mode", "trees"], ["min_frequency", "5pm"]]);
  // the same value given twice is one value
  assert.equal(parseParams(SPEC, raw({ dataset_uri: [DS, ` ${DS}`] })).string("dataset_uri"), DS);
});

test("frequency forms: count, per cent, per mil", () => {
  const f = (s: string): unknown => parseParams(SPEC, raw({ dataset_uri: DS, min_frequency: s })).frequency("min_frequency");
  assert.deepEqual(f("6"), { absolute: 6 });
  assert.deepEqual(f("8pm"), { perMil: 8 });
  assert.deepEqual(f("0.5pc"), { perMil: 5 });
  // that rule by hand: hamster (85) at 5 ‰ → 2; kazius (4069) at 5 ‰ → 20, at 80 ‰ → 325
  assert.equal(absoluteFrequency({ perMil: 5 }, 85), 2);
  assert.equal(absoluteFrequency({ perMil: 5 }, 4069), 20);
  assert.equal(absoluteFrequency({ perMil: 80 }, 4069), 325);
  assert.equal(absoluteFrequency({ absolute: 3 }, 4069), 3);
});

test("an empty value is no value (HTML forms send blank fields): the default applies", () => {
  const p = parseParams(SPEC, raw({ dataset_uri: DS, flag: "", n: " ", mode: "", min_frequency: "" }));
  assert.equal(p.boolean("flag"), true);
  assert.equal(p.number("n"), undefined);
  assert.equal(p.string("mode"), "trees");
  assert.deepEqual(p.frequency("min_frequency"), { perMil: 5 });
  // a blank next to a value is no second value
  assert.equal(parseParams(SPEC, raw({ dataset_uri: DS, n: ["", "7"] })).number("n"), 7);
});

const BAD: [string, Record<string, string | string[]>, string, RegExp][] = [
  ["missing required", {}, "dataset_uri", /is required/],
  ["not a URI", { dataset_uri: "dataset 1" }, "dataset_uri", /must be a URI/],
  ["unknown name", { dataset_uri: DS, flg: "1" }, "flg", /unknown parameter 'flg'; Test takes dataset_uri, flag/],
  ["boolean", { dataset_uri: DS, flag: "maybe" }, "flag", /true or false/],
  ["integer syntax", { dataset_uri: DS, n: "2.5" }, "n", /must be an integer/],
  ["integer range", { dataset_uri: DS, n: "11" }, "n", /at most 10/],
  ["number syntax", { dataset_uri: DS, x: "1,5" }, "x", /must be a number/],
  ["number range", { dataset_uri: DS, x: "-0.1" }, "x", /at least 0/],
  ["enum", { dataset_uri: DS, mode: "graphs" }, "mode", /one of trees, paths/],
  ["frequency syntax", { dataset_uri: DS, min_frequency: "5%" }, "min_frequency", /count \(5\), a per cent/],
  ["frequency zero", { dataset_uri: DS, min_frequency: "0" }, "min_frequency", /whole number ≥ 1/],
  ["frequency count past exact integers", { dataset_uri: DS, min_frequency: "99999999999999999999999" }, "min_frequency", /whole number ≥ 1 and at most 9007199254740991/],
  ["integer past exact integers", { dataset_uri: DS, n: "99999999999999999999999" }, "n", /must be an integer from 1 to 10/],
  ["required given empty", { dataset_uri: "  " }, "dataset_uri", /is required/],
  ["frequency over 100 %", { dataset_uri: DS, min_frequency: "101pc" }, "min_frequency", /at most 100 %/],
  ["given twice", { dataset_uri: DS, n: ["1", "2"] }, "n", /given 2 times with different values/],
];
for (const [name, params, field, message] of BAD) {
  test(`bad parameter → BadRequest naming it: ${name}`, () => {
    assert.throws(
      () => parseParams(SPEC, raw(params)),
      (e: unknown) => e instanceof BadRequest && e.details.field === field && message.test(e.message),
    );
  });
}

test("several bad parameters are reported together, one cause each", () => {
  assert.throws(
    () => parseParams(SPEC, raw({ flag: "x", zzz: "1" })),
    (e: unknown) =>
      e instanceof BadRequest &&
      /^3 parameters are wrong/.test(e.message) &&
      (e.details.causes ?? []).map((c) => c.details.field).sort().join(",") === "dataset_uri,flag,zzz",
  );
});
