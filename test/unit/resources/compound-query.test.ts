/**
 * The pure parts of a compound query's resolution (src/resources/compound-query.ts): what kind of
 * query a text is, and the spellings a name is looked up in. Published identifiers: acetaldehyde
 * (PubChem CID 177) InChIKey IKHGUXGNUITLKF-UHFFFAOYSA-N. (The resolution against a store is
 * test/integration/navigation.test.ts's.)
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { nameVariants, queryKind } from "../../../src/resources/compound-query.ts";

describe("compound queries", () => {
  it("an InChIKey, an InChI, or text (a SMILES or a name)", () => {
    assert.equal(queryKind("IKHGUXGNUITLKF-UHFFFAOYSA-N"), "inchikey");
    assert.equal(queryKind("IKHGUXGNUITLKF-UHFFFAOYSA"), "text", "a key without its last block");
    assert.equal(queryKind("ikhguxgnuitlkf-uhfffaoysa-n"), "text", "keys are upper case");
    assert.equal(queryKind("InChI=1S/C2H4O/c1-2-3/h2H,1H3"), "inchi");
    assert.equal(queryKind("CC=O"), "text");
    assert.equal(queryKind("acetaldehyde"), "text");
  });
  it("a name's spellings: as typed, lower, upper, first letter capital, every word capital (at spaces and hyphens); no repeats", () => {
    assert.deepEqual(nameVariants("acetaldehyde"), ["acetaldehyde", "ACETALDEHYDE", "Acetaldehyde"]);
    assert.deepEqual(nameVariants("acesulfame-k"), ["acesulfame-k", "ACESULFAME-K", "Acesulfame-k", "Acesulfame-K"]);
    assert.deepEqual(nameVariants("Methyl Ethyl ketone"), ["Methyl Ethyl ketone", "methyl ethyl ketone", "METHYL ETHYL KETONE", "Methyl ethyl ketone", "Methyl Ethyl Ketone"]);
  });
});
