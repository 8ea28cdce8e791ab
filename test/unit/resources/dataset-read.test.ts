/**
 * dataset-read.ts: reading the rows of Oxigraph's SPARQL CSV results (the expected rows are the
 * values the test puts into the store, and csv-parse's reading of the same text), and reading
 * one block of a dataset's table — a page of features, some entries' values of some features —
 * from a feature dataset written by the service's own writers with values this test chooses
 * (entry r, feature j: r·100 + j; entry 2 has no value of feature 5).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parse as parseCsv } from "csv-parse/sync";
import * as ox from "oxigraph";
import { readDatasetInfo, readEntryValues, readFeaturePage, sparqlCsvRows } from "../../../src/resources/dataset-read.ts";
import { EntryWriter } from "../../../src/resources/dataset.ts";
import { featureDatasetHeader } from "../../../src/resources/feature-dataset.ts";
import { Vocab } from "../../../src/store/vocab.ts";

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

describe("a block of a dataset's table", () => {
  const BASE = "http://localhost:8080";
  const v = new Vocab(BASE);
  const DS = `${BASE}/dataset/abcdefghijkm`;
  // More than the 1,000 features above which a page is looked up by its index range.
  const F = 1200;
  const features = Array.from({ length: F }, (_, j) => ({ name: `f${j}`, title: `feature ${j}`, numeric: true, types: [], properties: [] }));
  const rows = [1, 2, 3, 4].map((r) => ({ line: r + 1, compound: `${BASE}/compound/C${r}`, values: features.map((_, j) => (r === 2 && j === 5 ? null : String(r * 100 + j))) }));
  const header = featureDatasetHeader({ uri: DS, base: BASE, title: "t", created: new Date(0), source: `${BASE}/dataset/source`, algorithm: `${BASE}/algorithm/x`, parameters: [], features, entryCount: 4, compounds: 4 });
  const store = new ox.Store();
  store.load(Buffer.concat([header, new EntryWriter(DS, BASE, features).rows(rows)]), { format: "application/n-triples", to_graph_name: ox.namedNode(DS) });
  const fUri = (j: number): string => `${DS}/feature/f${j}`;

  test("readFeaturePage: features 10–16 in index order, by their index range", () => {
    assert.deepEqual(readFeaturePage(store, DS, v, 10, 7, F).map((f) => f.title), [10, 11, 12, 13, 14, 15, 16].map((j) => `feature ${j}`));
    assert.deepEqual(readFeaturePage(store, DS, v, 1198, 7, F).map((f) => f.title), ["feature 1198", "feature 1199"], "the last page is short");
  });

  test("readFeaturePage of a small dataset: a feature without an index (as a prediction dataset's endpoint) comes first", () => {
    const small = `${BASE}/dataset/smallsmallsm`;
    const s2 = new ox.Store();
    const rdfType = ox.namedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type");
    const feature = ox.namedNode("http://www.opentox.org/api/1.1#Feature");
    for (const [f, i] of [["value", 0], ["confidence", 1]] as const) {
      s2.add(ox.quad(ox.namedNode(`${BASE}/model/m/predicted/${f}`), rdfType, feature, ox.namedNode(small)));
      s2.add(ox.quad(ox.namedNode(`${BASE}/model/m/predicted/${f}`), ox.namedNode(v.qg.index.value), ox.literal(String(i), ox.namedNode("http://www.w3.org/2001/XMLSchema#integer")), ox.namedNode(small)));
    }
    s2.add(ox.quad(ox.namedNode(`${BASE}/feature/endpoint`), rdfType, feature, ox.namedNode(small)));
    assert.deepEqual(readFeaturePage(s2, small, v, 0, 2, 3).map((f) => f.uri), [`${BASE}/feature/endpoint`, `${BASE}/model/m/predicted/value`]);
    assert.deepEqual(readFeaturePage(s2, small, v, 2, 2, 3).map((f) => f.uri), [`${BASE}/model/m/predicted/confidence`]);
  });

  test("readDatasetInfo: the number of features as stated by a dataset of over 1,000 numbered 0…n−1, else counted", () => {
    assert.equal(readDatasetInfo(store, DS, v).featureCount, F);
    // Without the statement the features are counted (here with one more, without a number).
    const s3 = new ox.Store([...store.match(null, null, null, ox.namedNode(DS))].filter((q) => q.predicate.value !== v.qg.numberOfFeatures.value));
    s3.add(ox.quad(ox.namedNode(`${BASE}/feature/endpoint`), ox.namedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), ox.namedNode("http://www.opentox.org/api/1.1#Feature"), ox.namedNode(DS)));
    assert.equal(readDatasetInfo(s3, DS, v).featureCount, F + 1, "counted");
  });

  test("readEntryValues of three features: the same values from the entries' side and from the features' side", () => {
    // Entries 2 and 3 (lines 3 and 4; EntryWriter names an entry <ds#e{line}>).
    const refs = [2, 3].map((r) => ({ entry: `${DS}#e${r + 1}`, line: r + 1, compound: `${BASE}/compound/C${r}` }));
    const wanted = [fUri(5), fUri(6), fUri(1199)];
    const expected = [
      new Map([[fUri(6), ["206"]], [fUri(1199), ["1399"]]]),
      new Map([[fUri(5), ["305"]], [fUri(6), ["306"]], [fUri(1199), ["1499"]]]),
    ];
    // 3 features × 4 entries = 12 values to visit from the features, 2 × 1200 from the entries.
    const byFeature = readEntryValues(store, DS, refs, { features: wanted, totalEntries: 4, valuesPerEntry: F });
    // With few values per entry the entries' side is the cheaper one.
    const byEntry = readEntryValues(store, DS, refs, { features: wanted, totalEntries: 4, valuesPerEntry: 1 });
    for (const got of [byFeature, byEntry]) assert.deepEqual(got.map((e) => e.values), expected);
    assert.equal(readEntryValues(store, DS, refs)[1]!.values.size, F, "without columns: every value");
  });
});
