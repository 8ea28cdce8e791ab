/**
 * Tests of src/chem/structure.ts (structure cells → standard InChI / InChIKey / SMILES, molfiles,
 * depiction). Reference identifiers come from outside the code under test: published values
 * (PubChem / NIST WebBook records, cited per test) and the `InChI` column of the reference
 * service's rat_feature_dataset.csv, which was computed by OpenBabel from the SMILES of
 * DSSTox_Carcinogenic_Potency_DBS_Rat_validated.csv (same compounds, same order).
 */
import { DATA as SHARED_DATA } from "../../helpers/data.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { loadRDKit, rdkitHealthy, rdkitReplacements, replaceRDKit, wasmMemoryBytes, type RDKit } from "../../../src/chem/rdkit.ts";
import {
  NON_STANDARD_INCHI,
  depictSvg,
  parseMolfile,
  parseStructure,
  readSmilesGuarded,
  toMolfile,
  type StructureResult,
} from "../../../src/chem/structure.ts";
import { BadRequest, UnprocessableEntity } from "../../../src/errors.ts";

const DATA = SHARED_DATA.replace(/\/$/, "");
const LAZAR = `${DATA}/lazar/test/data`;
const rdkit = await loadRDKit();

function ok(r: StructureResult): { inchi: string; inchikey: string; smiles: string | null } {
  if (!r.ok) assert.fail(`expected a structure, got error: ${r.error}`);
  return r.value;
}
function err(r: StructureResult): string {
  if (r.ok) assert.fail(`expected an error, got ${r.value.inchi}`);
  return r.error;
}
/** Rows of a reference file, read with csv-parse directly (not with the code under test). */
function rows(path: string): string[][] {
  return parse(readFileSync(path, "utf8"), { relax_column_count: true, trim: true }) as string[][];
}

// Published standard InChI / InChIKey (PubChem CID 241 benzene, CID 702 ethanol, CID 996 phenol,
// CID 177 acetaldehyde; identical in the NIST Chemistry WebBook).
const BENZENE = { inchi: "InChI=1S/C6H6/c1-2-4-6-5-3-1/h1-6H", key: "UHOVQNZJYSORNB-UHFFFAOYSA-N" };
const ETHANOL = { inchi: "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3", key: "LFQSCWFLJHTTHZ-UHFFFAOYSA-N" };
const PHENOL = { inchi: "InChI=1S/C6H6O/c7-6-4-2-1-3-5-6/h1-5,7H", key: "ISWSIDIOOBJBQZ-UHFFFAOYSA-N" };
const ACETALDEHYDE = { inchi: "InChI=1S/C2H4O/c1-2-3/h2H,1H3", key: "IKHGUXGNUITLKF-UHFFFAOYSA-N" };

test("SMILES → published standard InChI and InChIKey", () => {
  const cases: [string, { inchi: string; key: string }][] = [
    ["c1ccccc1", BENZENE],
    ["C1=CC=CC=C1", BENZENE], // Kekulé form: same compound
    ["CCO", ETHANOL],
    ["OCC", ETHANOL],
    ["Oc1ccccc1", PHENOL],
    ["  CC=O  ", ACETALDEHYDE], // cells are trimmed
  ];
  for (const [smiles, want] of cases) {
    const v = ok(parseStructure(rdkit, smiles));
    assert.equal(v.inchi, want.inchi, smiles);
    assert.equal(v.inchikey, want.key, smiles);
  }
});

test("SMILES: the compound keeps the spelling it was given; different spellings are one compound", () => {
  const a = ok(parseStructure(rdkit, " CCO "));
  const b = ok(parseStructure(rdkit, "OCC"));
  assert.equal(a.smiles, "CCO");
  assert.equal(b.smiles, "OCC");
  assert.equal(a.inchi, ETHANOL.inchi);
  assert.equal(b.inchi, ETHANOL.inchi);
});

test("SMILES: an implicit pyrrole hydrogen is made explicit in the kept SMILES, which RDKit reads", () => {
  // Pyrrole written without its N–H, as in the reference lazar/test/data/multicolumn.csv.
  const v = ok(parseStructure(rdkit, "c1nccc1"));
  assert.equal(v.smiles, "c1[nH]ccc1");
  assert.equal(ok(parseStructure(rdkit, v.smiles!)).inchi, v.inchi);
});

test("invalid SMILES from wrong_dataset.csv fail", () => {
  const cells = rows(`${LAZAR}/wrong_dataset.csv`).slice(1).map((r) => r[0] ?? "");
  // Tost, Is, A, Wrong, Dataset, Entry and a truncated SMILES (ends in "[C").
  assert.equal(cells.length, 7);
  for (const cell of cells) assert.match(err(parseStructure(rdkit, cell)), /could not be parsed/, cell);
});

test("garbage that RDKit alone would accept is rejected", () => {
  // RDKit reads "c1ccccc1 Tost" as benzene named Tost; a cell is one token.
  for (const cell of ["c1ccccc1 Tost", "CCO ethanol", "stupid error", "C(C)(C)(C)(C)C", "{\"commonchem\":{}}"]) {
    assert.equal(err(parseStructure(rdkit, cell)), "SMILES could not be parsed", cell);
  }
  assert.equal(err(parseStructure(rdkit, "")), "empty structure");
  assert.equal(err(parseStructure(rdkit, "*")), "InChI generation failed"); // a dummy atom has no InChI
});

test("a pyrrole-type n without its H (c1nccc1, multicolumn.csv line 8) is read as OpenBabel reads it", () => {
  // Pyrrole, InChI and InChIKey as published by PubChem (CID 8027).
  const v = ok(parseStructure(rdkit, "c1nccc1"));
  assert.equal(v.inchi, "InChI=1S/C4H5N/c1-2-4-5-3-1/h1-5H");
  assert.equal(v.inchikey, "KAESVJOAVNADME-UHFFFAOYSA-N");
  // Imidazole (PubChem CID 795) written without [nH]: the mobile-H InChI does not depend on
  // which n gets the hydrogen.
  assert.equal(ok(parseStructure(rdkit, "c1ncnc1")).inchikey, "RAXXELZNTBOGNW-UHFFFAOYSA-N");
  // A ring that stays unkekulisable with any [nH] is still rejected.
  assert.equal(err(parseStructure(rdkit, "c1cccc1")), "SMILES could not be parsed");
});

test("standard InChI cells are accepted as identifiers, with a decoded structure that gives the InChI back", () => {
  const v = ok(parseStructure(rdkit, BENZENE.inchi));
  assert.equal(v.inchi, BENZENE.inchi);
  assert.equal(v.inchikey, BENZENE.key);
  assert.equal(ok(parseStructure(rdkit, v.smiles!)).inchi, BENZENE.inchi);
  // Case-insensitive prefix, stored with the canonical spelling.
  assert.equal(ok(parseStructure(rdkit, "inchi=1S/C6H6/c1-2-4-6-5-3-1/h1-6H")).inchi, BENZENE.inchi);
  // URL-encoded, as in the reference's CSV export (EPAFHM-constitutional.csv); encoded by hand.
  const enc = ok(parseStructure(rdkit, "InChI%3D1S%2FC2H6O%2Fc1-2-3%2Fh3H%2C2H2%2C1H3"));
  assert.equal(enc.inchi, ETHANOL.inchi);
  assert.equal(enc.inchikey, ETHANOL.key);
  // An InChI with several components and charge layers (row 2 of rat_feature_dataset.csv).
  const salt = "InChI=1S/C12H10O.Na/c13-12-9-5-4-8-11(12)10-6-2-1-3-7-10;/h1-9,13H;/q;+1/p-1";
  assert.equal(ok(parseStructure(rdkit, ok(parseStructure(rdkit, salt)).smiles!)).inchi, salt);
});

test("non-standard InChIs (batch_prediction_inchi_small.csv) are rejected with the message", () => {
  const cells = rows(`${LAZAR}/batch_prediction_inchi_small.csv`).slice(1).map((r) => r[0] ?? "");
  assert.equal(cells.length, 3);
  for (const cell of cells) {
    assert.ok(cell.startsWith("InChI=1/"), cell);
    assert.equal(err(parseStructure(rdkit, cell)), NON_STANDARD_INCHI);
  }
  assert.match(NON_STANDARD_INCHI, /non-standard InChI \(InChI=1\/…\) is not accepted.*InChI=1S\//);
});

test("empty and malformed InChIs are rejected", () => {
  assert.equal(err(parseStructure(rdkit, "InChI=")), "empty InChI");
  assert.equal(err(parseStructure(rdkit, "InChI=1S/")), "empty InChI");
  for (const cell of ["InChI=1S/garbage", "InChI=1S/C6H6/ c1", "InChI=1S/C6H6//h1", "InChI=2S/C6H6"]) {
    assert.match(err(parseStructure(rdkit, cell)), /InChI could not be parsed/, cell);
  }
});

test("InChIs from SMILES agree with the reference service's InChIs (rat carcinogenicity)", () => {
  const ref = rows(`${LAZAR}/rat_feature_dataset.csv`).slice(1).map((r) => r[0] ?? "");
  const smiles = rows(`${DATA}/opentox-test/development/test/data/gui_models/DSSTox_Carcinogenic_Potency_DBS_Rat_validated.csv`)
    .slice(1)
    .map((r) => r[0] ?? "");
  assert.equal(ref.length, 1178);
  assert.equal(smiles.length, ref.length);
  let same = 0;
  smiles.forEach((s, i) => {
    const r = parseStructure(rdkit, s);
    const equal = r.ok && r.value.inchi === ref[i];
    if (equal) same++;
    // Plain organic SMILES (no bracket atoms, no disconnected parts): OpenBabel and RDKit feed the
    // same graph to the InChI library, so the InChIs must be identical.
    if (!s.includes("[") && !s.includes(".")) assert.ok(equal, `row ${i + 2}: ${s} → ${r.ok ? r.value.inchi : r.error}, reference ${ref[i]}`);
  });
  assert.ok(same / ref.length >= 0.99, `only ${same} of ${ref.length} InChIs agree`);
});

test("molfile: the reference acetaldehyde.sdf gives the published InChI", () => {
  const v = ok(parseMolfile(rdkit, readFileSync(`${LAZAR}/acetaldehyde.sdf`, "utf8")));
  assert.equal(v.inchi, ACETALDEHYDE.inchi);
  assert.equal(v.inchikey, ACETALDEHYDE.key);
  assert.equal(v.smiles, "CC=O");
});

test("molfile errors", () => {
  assert.match(err(parseMolfile(rdkit, "CCO")), /M {2}END/);
  assert.equal(err(parseMolfile(rdkit, "\n  test\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n")), "structure has no atoms");
});

test("toMolfile writes a V2000 molfile that reads back as the same compound", () => {
  const block = toMolfile(rdkit, "Oc1ccccc1");
  assert.ok(block !== null);
  assert.match(block, /V2000/);
  // Counts line: phenol has 7 heavy atoms and 7 bonds (6 ring bonds + C–O).
  assert.match(block.split("\n")[3] ?? "", /^\s*7\s+7\s/);
  assert.equal(ok(parseMolfile(rdkit, block)).inchi, PHENOL.inchi);
  assert.equal(toMolfile(rdkit, "Tost"), null);
});

test("depictSvg returns a standalone SVG document", () => {
  const svg = depictSvg(rdkit, "Oc1ccccc1", 250, 180);
  assert.ok(svg !== null);
  assert.ok(svg.startsWith("<?xml") || svg.startsWith("<svg"));
  assert.match(svg, /<\/svg>\s*$/);
  assert.match(svg, /xmlns='http:\/\/www\.w3\.org\/2000\/svg'/);
  assert.match(svg, /<svg[^>]*width='250px'[^>]*height='180px'/);
  assert.doesNotMatch(svg, /iso-8859-1/);
  assert.equal(depictSvg(rdkit, "Tost"), null);
  assert.throws(() => depictSvg(rdkit, "CCO", 0, 100), (e: unknown) => e instanceof BadRequest && e.details.field === "width");
  assert.throws(() => depictSvg(rdkit, "CCO", 100, Number.NaN), (e: unknown) => e instanceof BadRequest && e.details.field === "height");
});

// --- Isolation of chemistry (docs/ARCHITECTURE.md): limits before RDKit, a broken RDKit replaced

const SMILES_OPTIONS = JSON.stringify({ sanitize: true, kekulize: true, removeHs: true, assignStereo: true });

/** Break this thread's instance with the real trapping input (a 1020-carbon chain, the tester's). */
async function breakRDKit(): Promise<RDKit> {
  replaceRDKit(); // a fresh instance, so that the trap leaves it broken (rdkit.test.ts)
  const broken = await loadRDKit();
  assert.throws(() => broken.get_mol("C".repeat(1020), SMILES_OPTIONS), (e: unknown) => e instanceof WebAssembly.RuntimeError);
  assert.equal(rdkitHealthy(broken), false);
  return broken;
}

/** An alkane of `n` carbons written with atom maps, exactly `length` characters long (7- or 8-digit maps). */
function mappedAlkane(n: number, length: number): string {
  const extra = length - n * 13; // "[CHk:" + 7 digits + "]" = 13 characters per atom
  assert.ok(extra >= 0 && extra <= n);
  return Array.from({ length: n }, (_, i) => `[CH${i === 0 || i === n - 1 ? 3 : 2}:${(i < extra ? 10_000_000 : 1_000_000) + i}]`).join("");
}

test("a structure past a limit is refused before RDKit sees it, naming the limit; the edges of each limit", async () => {
  const rdkit = await loadRDKit();
  const before = rdkitReplacements();
  const memory = wasmMemoryBytes();
  // The tester's SMILES (1020 carbons), and the edges of the atom limit. Alkanes are CnH2n+2.
  const big = parseStructure(rdkit, "C".repeat(1020));
  assert.deepEqual(big, { ok: false, error: "structure too large: the SMILES has 1020 atoms (the limit is 300 atoms other than hydrogen)", limit: "atoms" });
  assert.match(ok(parseStructure(rdkit, "C".repeat(300))).inchi, /^InChI=1S\/C300H602\//);
  assert.equal((parseStructure(rdkit, "C".repeat(301)) as { limit?: string }).limit, "atoms");
  // smilesChars: 4000 characters (300 atom-mapped carbons; the InChI ignores atom maps) / 4001.
  assert.equal(mappedAlkane(300, 4000).length, 4000);
  assert.match(ok(parseStructure(rdkit, mappedAlkane(300, 4000))).inchi, /^InChI=1S\/C300H602\//);
  assert.equal((parseStructure(rdkit, mappedAlkane(300, 4001)) as { limit?: string }).limit, "smilesChars");
  // The InChI of a 1,500-carbon alkane (the tester's GET): refused on its formula.
  const chain = Array.from({ length: 1500 }, (_, i) => i + 1).join("-");
  assert.equal((parseStructure(rdkit, `InChI=1S/C1500H3002/c${chain}/h1-1500H2`) as { limit?: string }).limit, "atoms");
  // A tester's V3000 molfile whose COUNTS line claims 99999999 atoms and has no atom lines:
  // refused, RDKit allocated nothing.
  const attack = "\n\n\n  0  0  0     0  0            999 V3000\nM  V30 BEGIN CTAB\nM  V30 COUNTS 99999999 0 0 0 0\nM  V30 BEGIN ATOM\nM  V30 END ATOM\nM  V30 END CTAB\nM  END\n";
  assert.equal((parseMolfile(rdkit, attack) as { limit?: string }).limit, "molfileAtoms");
  assert.equal(rdkitReplacements(), before);
  assert.equal(wasmMemoryBytes(), memory);
  assert.equal(await loadRDKit(), rdkit);
});

test("RDKit failing on a structure fails that structure only; the instance is replaced", async () => {
  const broken = await breakRDKit();
  const before = rdkitReplacements();
  const r = parseStructure(broken, "CCO");
  assert.equal(r.ok, false);
  assert.equal((r as { toolkit?: true }).toolkit, true);
  assert.match((r as { error: string }).error, /^RDKit failed on this structure \(WebAssembly trap: memory access out of bounds; it was restarted\)$/);
  assert.equal(rdkitReplacements(), before + 1);
  const fresh = await loadRDKit();
  assert.notEqual(fresh, broken);
  assert.equal(ok(parseStructure(fresh, "CCO")).inchi, ETHANOL.inchi);
});

test("drawing or writing a structure past a limit, or on a broken RDKit, is a 422 for field smiles", async () => {
  const unprocessable = (e: unknown): boolean => e instanceof UnprocessableEntity && e.details.field === "smiles";
  assert.throws(() => depictSvg(rdkit, "C".repeat(301)), unprocessable);
  assert.throws(() => toMolfile(rdkit, "C".repeat(301)), unprocessable);
  const broken = await breakRDKit();
  assert.throws(() => depictSvg(broken, "CCO"), (e: unknown) => unprocessable(e) && /RDKit failed/.test((e as Error).message));
  assert.match(depictSvg(await loadRDKit(), "CCO") ?? "", /<\/svg>/);
});

test("readSmilesGuarded: null past a limit or when RDKit fails (then replaced), the value otherwise", async () => {
  const atoms = (r: RDKit, s: string): number | null => {
    const mol = r.get_mol(s);
    if (mol === null) return null;
    try {
      return mol.get_num_atoms();
    } finally {
      mol.delete();
    }
  };
  assert.equal(await readSmilesGuarded("C".repeat(301), atoms), null);
  assert.equal(await readSmilesGuarded("CCO", atoms), 3);
  await breakRDKit();
  const before = rdkitReplacements();
  assert.equal(await readSmilesGuarded("CCO", atoms), null);
  assert.equal(rdkitReplacements(), before + 1);
  assert.equal(await readSmilesGuarded("CCO", atoms), 3);
});
