/**
 * Tests of src/chem/rdkit.ts: the RDKit WASM module loads once per thread and works; a broken
 * instance (a real trap on the real trapping input) is detected and replaced.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkRDKit, loadRDKit, rdkitHealthy, rdkitReplacements, replaceRDKit, toolkitFailed, wasmMemoryBytes, type RDKit } from "../../../src/chem/rdkit.ts";

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

// The trap found in testing (docs/ARCHITECTURE.md "Isolation of chemistry"): RDKit's stack
// overflows on a linear chain of ≥ ≈ 860 carbons (measured in src/chem/limits.ts); 1020 is the
// tester's input.
const SMILES_OPTIONS = JSON.stringify({ sanitize: true, kekulize: true, removeHs: true, assignStereo: true });
const ETHANOL_INCHI = "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3"; // PubChem CID 702

function inchiOf(rdkit: RDKit, smiles: string): string {
  const mol = rdkit.get_mol(smiles);
  assert.ok(mol !== null);
  try {
    return mol.get_inchi();
  } finally {
    mol.delete();
  }
}

test("a WebAssembly trap breaks the instance; toolkitFailed replaces it and loadRDKit gives a fresh one", async () => {
  replaceRDKit(); // a fresh instance: what a trap leaves behind depends on the calls before it
  const broken = await loadRDKit();
  const before = rdkitReplacements();
  let thrown: unknown;
  try {
    broken.get_mol("C".repeat(1020), SMILES_OPTIONS);
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof WebAssembly.RuntimeError, `expected a trap, got ${String(thrown)}`);
  // Every later call on that instance fails: the health check sees it.
  assert.throws(() => broken.get_mol("CCO"));
  assert.equal(rdkitHealthy(broken), false);
  assert.equal(toolkitFailed(broken, thrown), true);
  assert.equal(rdkitReplacements(), before + 1);
  const fresh = await loadRDKit();
  assert.notEqual(fresh, broken);
  assert.equal(rdkitHealthy(fresh), true);
  assert.equal(inchiOf(fresh, "CCO"), ETHANOL_INCHI);
  // Reporting the old instance again replaces nothing more.
  assert.equal(toolkitFailed(broken, thrown), true);
  assert.equal(rdkitReplacements(), before + 1);
  assert.equal(await loadRDKit(), fresh);
});

test("an exception that leaves RDKit working does not replace it", async () => {
  const rdkit = await loadRDKit();
  const before = rdkitReplacements();
  let thrown: unknown;
  try {
    rdkit.get_mol(42 as unknown as string); // embind refuses a number for std::string
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof Error && !(thrown instanceof WebAssembly.RuntimeError));
  assert.equal(toolkitFailed(rdkit, thrown), false);
  assert.equal(rdkitReplacements(), before);
  assert.equal(await loadRDKit(), rdkit);
});

test("a call that returns normally but overflowed the stack is caught by checkRDKit", async () => {
  // get_smiles of a 600-carbon chain returns its SMILES, yet RDKit cannot parse ethanol with
  // parser options after it (measured: from 590 carbons; limits.ts keeps structures at 300
  // atoms or fewer).
  replaceRDKit();
  const rdkit = await loadRDKit();
  const mol = rdkit.get_mol("C".repeat(600), SMILES_OPTIONS);
  assert.ok(mol !== null);
  assert.equal(mol.get_smiles(), "C".repeat(600));
  mol.delete();
  const before = rdkitReplacements();
  assert.equal(rdkitHealthy(rdkit), false);
  assert.equal(checkRDKit(), false);
  assert.equal(rdkitReplacements(), before + 1);
  assert.equal(inchiOf(await loadRDKit(), "CCO"), ETHANOL_INCHI);
  assert.equal(checkRDKit(), true);
});

test("RDKit's memory only grows, and a dropped instance's memory still counts (only ending the thread returns it)", async () => {
  const rdkit = await loadRDKit();
  const fresh = wasmMemoryBytes();
  assert.ok(fresh > 0);
  // Keep 3000 molecules of 100 atoms alive: the instance's memory grows.
  const kept = Array.from({ length: 3000 }, () => rdkit.get_mol("C".repeat(100))!);
  const grown = wasmMemoryBytes();
  for (const m of kept) m.delete();
  assert.ok(grown > fresh, `${grown} > ${fresh}`);
  assert.equal(wasmMemoryBytes(), grown); // deleting does not shrink it
  replaceRDKit();
  assert.equal(wasmMemoryBytes(), grown); // nor does dropping the instance
  await loadRDKit();
  assert.ok(wasmMemoryBytes() > grown); // the fresh instance adds its own
});
