/**
 * form-choices.ts: what the forms offer, read from graphs written by the service's own writers
 * with values this test chooses — three uploads (dates 2026-01-01, -02, -03; the middle one with
 * three features, of which the form asks for two) and a feature dataset computed from the first.
 * Expected: newest first, bounded by the limit; an upload's features in column order, a computed
 * dataset's none; counts and titles as written.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as ox from "oxigraph";
import { readCrossValidationChoices, readDatasetChoices } from "../../../src/resources/form-choices.ts";
import { headerNTriples } from "../../../src/resources/dataset.ts";
import { featureDatasetNTriples } from "../../../src/resources/feature-dataset.ts";
import { Vocab } from "../../../src/store/vocab.ts";

const BASE = "http://localhost:8080";
const v = new Vocab(BASE);
const ds = (id: string): string => `${BASE}/dataset/${id.repeat(12)}`;
const [A, B, C, FD] = [ds("a"), ds("b"), ds("c"), ds("f")];
const feature = (name: string, column: number) => ({ name, column, nominal: false, numeric: true, acceptValues: [] });

function upload(store: ox.Store, uri: string, title: string, day: number, features: ReturnType<typeof feature>[], compounds: number): void {
  const nt = Buffer.from(headerNTriples({ title, structureColumn: "SMILES", features, entryCount: compounds, compounds, warnings: [] }, { uri, fileName: `${title}.csv`, created: new Date(Date.UTC(2026, 0, day)), base: BASE })).toString("utf8");
  store.load(nt, { format: "application/n-triples", to_graph_name: ox.namedNode(uri) });
}

function store(): ox.Store {
  const s = new ox.Store();
  upload(s, A, "first", 1, [feature("logP", 1)], 10);
  upload(s, B, "second", 2, [feature("x", 1), feature("y", 2), feature("z", 3)], 20);
  upload(s, C, "third", 3, [feature("MW", 1)], 1);
  const fd = featureDatasetNTriples({ uri: FD, base: BASE, title: "descriptors of first", created: new Date(Date.UTC(2025, 11, 31)), source: A, algorithm: `${BASE}/algorithm/pc/AllDescriptors`, parameters: [], features: [{ name: "nA", title: "nA", numeric: true, types: [], properties: [] }], entries: [], compounds: 10 });
  s.load(Buffer.from(fd).toString("utf8"), { format: "application/n-triples", to_graph_name: ox.namedNode(FD) });
  return s;
}

test("datasets newest first, bounded; an upload's first features in column order; a computed dataset's none", () => {
  const s = store();
  const all = readDatasetChoices(s, v, [FD, A, B, C], 10, 2);
  assert.equal(all.total, 4);
  assert.deepEqual(all.datasets.map((d) => [d.uri, d.title, d.compounds, d.computed, d.featureCount]), [
    [C, "third", 1, false, 1],
    [B, "second", 20, false, 3],
    [A, "first", 10, false, 1],
    [FD, "descriptors of first", 10, true, 1],
  ]);
  assert.deepEqual(all.datasets[1]!.features, [{ uri: `${B}/feature/x`, title: "x" }, { uri: `${B}/feature/y`, title: "y" }], "the first two of three");
  assert.deepEqual(all.datasets[3]!.features, []);
  assert.match(all.datasets[0]!.created, /^2026-01-03T00:00:00/);
  const two = readDatasetChoices(s, v, [FD, A, B, C], 2, 2);
  assert.deepEqual([two.total, two.datasets.map((d) => d.uri)], [4, [C, B]]);
  assert.deepEqual(readDatasetChoices(s, v, [], 10, 2), { datasets: [], total: 0 });
});

test("cross-validations: none in a store without them (a URI that is no cross-validation reads as empty fields)", () => {
  const out = readCrossValidationChoices(store(), v, [`${BASE}/validation/crossvalidation/${"x".repeat(12)}`], 5);
  assert.equal(out.total, 1);
  assert.deepEqual(out.validations.map((c) => [c.title, c.dataset, c.numFolds]), [["", "", 0]]);
});
