/** Tests of src/chem/rdkit.ts: the RDKit WASM module loads once per thread and works. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadRDKit } from "../../../src/chem/rdkit.ts";

test("loadRDKit initialises once and returns the same module", async () => {
  const [a, b] = await Promise.all([loadRDKit(), loadRDKit()]);
  assert.equal(a, b);
  assert.equal(await loadRDKit(), a);
  assert.match(a.version(), /^\d{4}\.\d{2}\.\d+/);
});

test("the module parses SMILES and computes InChIKeys", async () => {
  const rdkit = await loadRDKit();
  const mol = rdkit.get_mol("CCO");
  assert.ok(mol !== null);
  try {
    assert.equal(mol.get_num_atoms(), 3); // heavy atoms of ethanol
  } finally {
    mol.delete();
  }
  // Published InChIKey of ethanol (PubChem CID 702).
  assert.equal(rdkit.get_inchikey_for_inchi("InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3"), "LFQSCWFLJHTTHZ-UHFFFAOYSA-N");
  assert.equal(rdkit.get_mol("Tost"), null);
});
