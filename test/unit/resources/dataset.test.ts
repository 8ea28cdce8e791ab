/**
 * Compound names in a dataset's graph (src/resources/dataset.ts EntryWriter, tabular/names.ts): an
 * upload's name column labels each row's compound (`<compound> rdfs:label "name"`), an empty cell
 * labels nothing, and a computed dataset's features (written without `names`) never label, even
 * one called "Name". Rows and names written here by hand; InChIs of ethanol and benzene from
 * PubChem (CID 702, 241).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EntryWriter } from "../../../src/resources/dataset.ts";

const BASE = "http://localhost:8080";
const DS = `${BASE}/dataset/abcdefghijkm`;
const ETHANOL = `${BASE}/compound/InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3`;
const BENZENE = `${BASE}/compound/InChI=1S/C6H6/c1-2-4-6-5-3-1/h1-6H`;
const LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>";
const rows = [
  { line: 2, compound: ETHANOL, values: ["1.2", "Ethanol"] },
  { line: 3, compound: BENZENE, values: ["2.1", null] },
  { line: 4, compound: ETHANOL, values: ["1.3", "Ethyl alcohol"] },
];
const labels = (nt: Uint8Array): string[] => new TextDecoder().decode(nt).split("\n").filter((l) => l.includes(LABEL)).sort();

describe("compound names", () => {
  it("an upload's name column labels the compound of each row that has a name", () => {
    const w = new EntryWriter(DS, BASE, [{ name: "logP", numeric: true }, { name: "Compound name", numeric: false }], { names: true });
    assert.deepEqual(labels(w.rows(rows)), [`<${ETHANOL}> ${LABEL} "Ethanol" .`, `<${ETHANOL}> ${LABEL} "Ethyl alcohol" .`]);
  });
  it("no name column, or features written without names (a computed dataset): no labels", () => {
    assert.deepEqual(labels(new EntryWriter(DS, BASE, [{ name: "logP", numeric: true }, { name: "Comment", numeric: false }], { names: true }).rows(rows)), []);
    assert.deepEqual(labels(new EntryWriter(DS, BASE, [{ name: "logP", numeric: true }, { name: "Name", numeric: false }]).rows(rows)), []);
  });
});
