/**
 * Tests of the structure parsing of an upload chunk (src/tasks/jobs/dataset.ts parseStructures)
 * when RDKit breaks: the cells are parsed by a fresh instance, a refused cell is reported for
 * itself only. Real RDKit, broken with the real trapping input (a 1020-carbon chain). Reference
 * InChIs: PubChem (ethanol CID 702, benzene CID 241, acetaldehyde CID 177).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadRDKit, rdkitHealthy, rdkitReplacements, replaceRDKit } from "../../../../src/chem/rdkit.ts";
import { parseStructures } from "../../../../src/tasks/jobs/dataset.ts";

const ctx = { progress: (): void => undefined };
const SMILES_OPTIONS = JSON.stringify({ sanitize: true, kekulize: true, removeHs: true, assignStereo: true });
const ETHANOL = "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3";
const BENZENE = "InChI=1S/C6H6/c1-2-4-6-5-3-1/h1-6H";
const ACETALDEHYDE = "InChI=1S/C2H4O/c1-2-3/h2H,1H3";

function inchis(results: Awaited<ReturnType<typeof parseStructures>>): (string | null)[] {
  return results.map((r) => (r.ok ? r.value.inchi : null));
}

test("a chunk whose RDKit broke before it: every cell is parsed by a fresh instance", async () => {
  replaceRDKit();
  const broken = await loadRDKit();
  assert.throws(() => broken.get_mol("C".repeat(1020), SMILES_OPTIONS), (e: unknown) => e instanceof WebAssembly.RuntimeError);
  assert.equal(rdkitHealthy(broken), false);
  const before = rdkitReplacements();
  // The first cell meets the broken instance, fails there, and is parsed again on a fresh one.
  const results = await parseStructures({ cells: ["CCO", "c1ccccc1", "CC=O"] }, ctx);
  assert.deepEqual(inchis(results), [ETHANOL, BENZENE, ACETALDEHYDE]);
  assert.equal(rdkitReplacements(), before + 1);
  assert.notEqual(await loadRDKit(), broken);
});

test("a refused cell among valid ones: only that cell fails, naming the limit; the cells after it are read", async () => {
  const before = rdkitReplacements();
  const results = await parseStructures({ cells: ["CCO", "C".repeat(1020), "c1ccccc1", "C".repeat(2_000_000), "CC=O"] }, ctx);
  assert.deepEqual(inchis(results), [ETHANOL, null, BENZENE, null, ACETALDEHYDE]);
  assert.deepEqual(results[1], { ok: false, error: "structure too large: the SMILES has 1020 atoms (the limit is 300 atoms other than hydrogen)", limit: "atoms" });
  assert.deepEqual(results[3], { ok: false, error: "SMILES too long: 2000000 characters (the limit is 4000 characters)", limit: "smilesChars" });
  assert.equal(rdkitReplacements(), before); // nothing reached RDKit
});
