/**
 * Which column names an upload's compounds (src/tabular/names.ts): a header whose last word is
 * "name". Headers from the reference data (cpdb_100.csv's `TestSubstance_ChemicalName` and
 * `STRUCTURE_ChemicalName_IUPAC`) and common spellings, judged by hand.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { headerWords, isNameHeader, nameColumn } from "../../../src/tabular/names.ts";

describe("name columns", () => {
  it("splits headers at spaces, _, -, . and lower→upper case changes", () => {
    assert.deepEqual(headerWords(" TestSubstance_ChemicalName "), ["test", "substance", "chemical", "name"]);
    assert.deepEqual(headerWords("IUPAC name"), ["iupac", "name"]);
    assert.deepEqual(headerWords("compound-name.1"), ["compound", "name", "1"]);
  });
  it("a header whose last word is 'name' is a name column; others are not", () => {
    for (const h of ["Name", "name", "NAME", "Compound name", "Chemical_Name", "TestSubstance_ChemicalName", "IUPAC name"]) assert.ok(isNameHeader(h), h);
    for (const h of ["Names", "Name ID", "STRUCTURE_ChemicalName_IUPAC", "Surname", "rename", "SMILES", ""]) assert.ok(!isNameHeader(h), h);
  });
  it("the first name column of the features wins; none → -1", () => {
    assert.equal(nameColumn(["ID", "Chemical name", "Name", "logP"]), 1);
    assert.equal(nameColumn(["Hamster Carcinogenicity"]), -1);
  });
});
