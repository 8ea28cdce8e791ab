/**
 * The upload jobs (src/algorithms/upload/job.ts):
 * - parseStructures when RDKit breaks: the cells are parsed by a fresh instance, a refused cell is
 *   reported for itself only. Real RDKit, broken with the real trapping input (a 1020-carbon
 *   chain). Reference InChIs: PubChem (ethanol CID 702, benzene CID 241, acetaldehyde CID 177).
 * - prepareUpload's second check of the upload limits, with the counts of the parsed file, where the
 *   scan of the bytes (tabular/shape.ts) can be wrong. Expected counts are read off the
 *   hand-written inputs.
 * - an SD file's molblocks as the structure cells: parsed with `molfile`, its records and tags
 *   counted against the limits (hand-written molblocks; InChIs from PubChem as above).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { PayloadTooLarge } from "../../../../src/errors.ts";
import { loadRDKit, rdkitHealthy, rdkitReplacements, replaceRDKit } from "../../../../src/chem/rdkit.ts";
import { cellTexts, parseStructures, prepareUpload } from "../../../../src/algorithms/upload/job.ts";
import { scanShape } from "../../../../src/tabular/shape.ts";

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

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const LOOSE = { rows: 1000, columns: 1000, triples: 1e9 };

test("a stray quote in the header hides separators from the scan; the parsed header has them all", async () => {
  // csv-parse reads a"b as a literal (a quote inside an unquoted field); the scan takes it as opening quotes.
  const csv = bytes('SMILES,a"b,c\nCCO,1,2\nCCN,3,4\n');
  assert.equal((await scanShape(csv, { maxRows: 10, maxValues: 100 })).columns, 2);
  assert.throws(
    () => prepareUpload({ bytes: csv, format: "csv", limits: { ...LOOSE, columns: 2 } }),
    (e: unknown) => e instanceof PayloadTooLarge && /the file has 3 columns; the limit is 2 /.test(e.message),
  );
  assert.equal(prepareUpload({ bytes: csv, format: "csv", limits: { ...LOOSE, columns: 3 } }).count, 2);
});

test("rows and triples with the parsed counts: exact rows; missing values (NA) cost nothing", () => {
  const csv = bytes("SMILES,a,b\nC,1,NA\nCC,,2\nCCC,3,4\n");
  assert.throws(
    () => prepareUpload({ bytes: csv, format: "csv", limits: { ...LOOSE, rows: 2 } }),
    (e: unknown) => e instanceof PayloadTooLarge && /the file has 3 data rows; the limit is 2 rows/.test(e.message),
  );
  // 3 rows, 4 values, 3 structures, 2 features: 15 + 12 + 12 + 24 + 9 = 72 triples.
  assert.throws(
    () => prepareUpload({ bytes: csv, format: "csv", limits: { ...LOOSE, triples: 71 } }),
    (e: unknown) => e instanceof PayloadTooLarge && /would add 72 triples \(3 rows, 4 values, 3 distinct structures, 2 features/.test(e.message),
  );
  assert.equal(prepareUpload({ bytes: csv, format: "csv", limits: { ...LOOSE, triples: 72 } }).count, 3);
});

/** A V2000 molblock written by hand: ethanol (C–C–O) or acetaldehyde (C–C=O). */
const molblock = (title: string, order: 1 | 2): string =>
  [title, "  handmade", "", "  3  2  0  0  0  0  0  0  0  0999 V2000",
    "    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0",
    "    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0",
    "    2.5981    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0",
    "  1  2  1  0", `  2  3  ${order}  0`, "M  END"].join("\n");

test("molblock cells are read as molfiles with `molfile`, and as SMILES (refused) without", async () => {
  const cells = [molblock("ethanol", 1), molblock("acetaldehyde", 2)];
  assert.deepEqual(inchis(await parseStructures({ cells, molfile: true }, ctx)), [ETHANOL, ACETALDEHYDE]);
  assert.deepEqual(inchis(await parseStructures({ cells }, ctx)), [null, null]);
});

test("an SD file: records and distinct tags are checked against the limits; the structures are its molblocks", () => {
  // 3 records (the last without $$$$); tags a, b; values a=1, b=2, a=3.
  const sd = bytes([molblock("e", 1), ">  <a>", "1", "", "$$$$", molblock("f", 2), ">  <b>", "2", "", "$$$$", molblock("γ-ethanol", 1), ">  <a>", "3", ""].join("\n"));
  assert.throws(
    () => prepareUpload({ bytes: sd, format: "sdf", limits: { ...LOOSE, rows: 2 } }),
    (e: unknown) => e instanceof PayloadTooLarge && /the file has 3 records; the limit is 2 rows/.test(e.message),
  );
  assert.throws(
    () => prepareUpload({ bytes: sd, format: "sdf", limits: { ...LOOSE, columns: 2 } }),
    (e: unknown) => e instanceof PayloadTooLarge && /the file has 3 columns \(the molfile and the distinct SD tags\); the limit is 2 /.test(e.message),
  );
  // 3 rows, 3 values, 3 distinct molblocks (e and γ-ethanol are one compound, but their titles differ), 2 features: 15 + 9 + 12 + 24 + 9 = 69.
  assert.throws(
    () => prepareUpload({ bytes: sd, format: "sdf", limits: { ...LOOSE, triples: 68 } }),
    (e: unknown) => e instanceof PayloadTooLarge && /would add 69 triples \(3 rows, 3 values, 3 distinct structures, 2 features/.test(e.message),
  );
  const prepared = prepareUpload({ bytes: sd, format: "sdf", limits: { ...LOOSE, triples: 69 } });
  // One chunk, whose molblocks travel as UTF-8 bytes and read back as the records' molblocks (γ: two bytes).
  assert.equal(prepared.count, 3);
  assert.equal(prepared.cells.length, 1);
  assert.ok("molblocks" in prepared.cells[0]!);
  assert.deepEqual(cellTexts(prepared.cells[0]!), [molblock("e", 1), molblock("f", 2), molblock("γ-ethanol", 1)]);
  assert.deepEqual(prepared.summary.features.map((f) => [f.name, f.numeric]), [["a", true], ["b", true]]);
  // Each record is its 10 molblock lines, a header, a value, a blank line and the $$$$: 14 lines.
  assert.deepEqual([...prepared.summary.lines], [1, 15, 29]);
});
