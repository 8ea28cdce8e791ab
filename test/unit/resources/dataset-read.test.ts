/**
 * dataset-read.ts: reading the rows of Oxigraph's SPARQL CSV results. The expected rows are the
 * values the test puts into the store, and csv-parse's reading of the same text.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parse as parseCsv } from "csv-parse/sync";
import * as ox from "oxigraph";
import { sparqlCsvRows } from "../../../src/resources/dataset-read.ts";

function csvOf(values: readonly string[]): string {
  const store = new ox.Store();
  values.forEach((v, i) => store.add(ox.quad(ox.namedNode(`http://x/e${String(i).padStart(3, "0")}`), ox.namedNode("http://x/value"), ox.literal(v))));
  return store.query("SELECT ?e ?v WHERE { ?e <http://x/value> ?v } ORDER BY ?e", { results_format: "text/csv" }) as unknown as string;
}

describe("sparqlCsvRows", () => {
  test("values that need no quoting (descriptor numbers, empty strings) are split as they are", () => {
    const values = ["1.5", "-0.25", "1E-3", "", "NaN", "true", "x y"];
    const csv = csvOf(values);
    assert.ok(!csv.includes('"'));
    const rows = sparqlCsvRows(csv);
    assert.deepEqual(rows, values.map((v, i) => [`http://x/e${String(i).padStart(3, "0")}`, v]));
    assert.deepEqual(rows, parseCsv(csv, { from_line: 2 }));
  });

  test("values with commas, quotes and line breaks are read as csv-parse reads them", () => {
    const values = ["a,b", 'say "hi"', "two\nlines", "cr\r\nlf", "plain"];
    const csv = csvOf(values);
    assert.ok(csv.includes('"'));
    const rows = sparqlCsvRows(csv);
    assert.deepEqual(rows.map((r) => r[1]), values);
    assert.deepEqual(rows, parseCsv(csv, { from_line: 2 }));
  });

  test("a result without rows has none", () => {
    assert.deepEqual(sparqlCsvRows(csvOf([])), []);
  });
});
