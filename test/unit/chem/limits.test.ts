/**
 * Tests of src/chem/limits.ts: each limit at its edge (the largest accepted and the smallest
 * refused input), the molfile counts checked against the lines present, and every structure of the
 * reference data in fixtures/data accepted. Sizes are counted here independently of the code under
 * test: atoms from the constructed text, heavy atoms from published formulas (PubChem), and CnH2n+2
 * for the alkanes built below.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { DATA } from "../../helpers/data.ts";
import { LIMITS, inchiFormulaAtoms, measureInchi, measureMolfile, measureSmiles, smilesAtoms } from "../../../src/chem/limits.ts";
import { parseCsv } from "../../../src/tabular/csv.ts";
import { prepareTable } from "../../../src/tabular/table.ts";

/** A linear alkane of `n` carbons as a V2000 molfile without hydrogens (n ≤ 999). */
function alkaneV2000(n: number): string {
  const pad = (x: number | string, w: number): string => String(x).padStart(w);
  const atoms = Array.from({ length: n }, (_, i) => `${pad((i * 1.5).toFixed(4), 10)}${pad("0.0000", 10)}${pad("0.0000", 10)} C   0  0  0  0  0  0  0  0  0  0  0  0`);
  const bonds = Array.from({ length: n - 1 }, (_, i) => `${pad(i + 1, 3)}${pad(i + 2, 3)}  1  0`);
  return ["alkane", "  test", "", `${pad(n, 3)}${pad(n - 1, 3)}  0  0  0  0  0  0  0  0999 V2000`, ...atoms, ...bonds, "M  END", ""].join("\n");
}

/** A V3000 molfile of `c` carbons and `h` hydrogens and `b` bonds (text only: the counts, as a molfile, the bonds 1–2 repeated). */
function v3000(c: number, h: number, b: number): string {
  const atoms = [...Array.from({ length: c }, (_, i) => `M  V30 ${i + 1} C 0 0 0 0`), ...Array.from({ length: h }, (_, i) => `M  V30 ${c + i + 1} H 0 0 0 0`)];
  const bonds = Array.from({ length: b }, (_, i) => `M  V30 ${i + 1} 1 1 2`);
  return ["", "  test", "", "  0  0  0     0  0            999 V3000", "M  V30 BEGIN CTAB", `M  V30 COUNTS ${c + h} ${b} 0 0 0`, "M  V30 BEGIN ATOM", ...atoms, "M  V30 END ATOM", "M  V30 BEGIN BOND", ...bonds, "M  V30 END BOND", "M  V30 END CTAB", "M  END", ""].join("\n");
}

test("SMILES atoms: bracket atoms, the organic subset (Cl and Br as one atom) and *; published heavy-atom counts", () => {
  // Heavy atoms from PubChem formulas: benzoic acid C7H6O2 (CID 243) 9, chlorobenzene C6H5Cl
  // (CID 7964) 7, bromobenzene C6H5Br (CID 7961) 7, sodium chloride (CID 5234) 2, pyrrole C4H5N
  // (CID 8027) 5, caffeine C8H10N4O2 (CID 2519) 14.
  const cases: [string, number][] = [
    ["OC(=O)c1ccccc1", 9],
    ["Clc1ccccc1", 7],
    ["Brc1ccccc1", 7],
    ["[Na+].[Cl-]", 2],
    ["c1cc[nH]c1", 5],
    ["CN1C=NC2=C1C(=O)N(C(=O)N2C)C", 14],
    ["*CC", 3],
  ];
  for (const [smiles, n] of cases) assert.equal(smilesAtoms(smiles), n, smiles);
});

test("atoms: a SMILES of 300 atoms is accepted, of 301 refused, naming the limit", () => {
  assert.equal(LIMITS.atoms, 300);
  assert.deepEqual(measureSmiles("C".repeat(300)), { atoms: 300, refusal: null });
  const r = measureSmiles("C".repeat(301)).refusal;
  assert.equal(r?.limit, "atoms");
  assert.match(r!.message, /301 atoms.*limit is 300/);
});

test("smilesChars: 4000 characters are accepted, 4001 refused", () => {
  assert.equal(LIMITS.smilesChars, 4000);
  const atMaps = (len: number): string => {
    // C[CH2:1…][CH2:…]…C: 3 atoms plus padding in the atom map of the middle atom.
    const s = `C[CH2:1]C`;
    return `C[CH2:${"1".repeat(len - s.length + 1)}]C`;
  };
  assert.equal(atMaps(4000).length, 4000);
  assert.deepEqual(measureSmiles(atMaps(4000)), { atoms: 3, refusal: null });
  assert.equal(measureSmiles(atMaps(4001)).refusal?.limit, "smilesChars");
  // A 2,000,000-character SMILES is refused on its length, before its atoms are counted.
  assert.equal(measureSmiles("C".repeat(2_000_000)).refusal?.limit, "smilesChars");
});

test("InChI formula atoms: everything but hydrogen, multipliers applied", () => {
  // PubChem: benzene C6H6 (CID 241), sodium chloride ClH.Na form, sodium phenolate C6H5NaO (CID 4445035).
  assert.equal(inchiFormulaAtoms("InChI=1S/C6H6/c1-2-4-6-5-3-1/h1-6H"), 6);
  assert.equal(inchiFormulaAtoms("InChI=1S/ClH.Na/h1H;/q;+1/p-1"), 2);
  assert.equal(inchiFormulaAtoms("InChI=1S/C6H6O.Na/c7-6-4-2-1-3-5-6;/h1-5,7H;/q;+1/p-1"), 8);
  assert.equal(inchiFormulaAtoms("InChI=1S/3CH4/h3*1H4"), 3);
  assert.equal(inchiFormulaAtoms("InChI=1S/p+1"), null);
});

test("atoms (InChI): a formula of 300 atoms other than H is accepted, 301 refused", () => {
  assert.equal(measureInchi("InChI=1S/C300H602/c1-2").refusal, null);
  assert.equal(measureInchi("InChI=1S/2C150H302/c1-2").refusal, null);
  assert.equal(measureInchi("InChI=1S/C301H604/c1-2").refusal?.limit, "atoms");
  assert.equal(measureInchi("InChI=1S/C150H302.C151H304/c1-2").refusal?.limit, "atoms");
  // The 1,500-carbon alkane a tester sent (the formula alone decides).
  assert.match(measureInchi("InChI=1S/C1500H3002/c1-2").refusal!.message, /1500 atoms other than hydrogen \(the limit is 300\)/);
});

test("inchiChars: 8000 characters are accepted, 8001 refused", () => {
  assert.equal(LIMITS.inchiChars, 8000);
  const prefix = "InChI=1S/C2H6/c1-2/h1-2H3";
  const of = (len: number): string => prefix + ",".repeat(len - prefix.length);
  assert.equal(measureInchi(of(8000)).refusal, null);
  assert.equal(measureInchi(of(8001)).refusal?.limit, "inchiChars");
});

test("molfile atoms other than hydrogen: 300 accepted, 301 refused (V2000)", () => {
  assert.deepEqual(measureMolfile(alkaneV2000(300)), { atoms: 300, refusal: null });
  assert.equal(measureMolfile(alkaneV2000(301)).refusal?.limit, "atoms");
});

test("molfileAtoms (hydrogens included): 1000 accepted, 1001 refused (V3000)", () => {
  assert.equal(LIMITS.molfileAtoms, 1000);
  assert.deepEqual(measureMolfile(v3000(200, 800, 800)), { atoms: 200, refusal: null });
  assert.equal(measureMolfile(v3000(200, 801, 800)).refusal?.limit, "molfileAtoms");
});

test("molfileBonds: 1100 accepted, 1101 refused", () => {
  assert.equal(LIMITS.molfileBonds, 1100);
  assert.equal(measureMolfile(v3000(300, 700, 1100)).refusal, null);
  assert.equal(measureMolfile(v3000(300, 700, 1101)).refusal?.limit, "molfileBonds");
});

test("molfile counts are checked against the lines present", () => {
  // A tester's V3000 molfile of 150 bytes: COUNTS 99999999 and no atom lines.
  const attack = "\n\n\n  0  0  0     0  0            999 V3000\nM  V30 BEGIN CTAB\nM  V30 COUNTS 99999999 0 0 0 0\nM  V30 BEGIN ATOM\nM  V30 END ATOM\nM  V30 END CTAB\nM  END\n";
  assert.equal(measureMolfile(attack).refusal?.limit, "molfileAtoms");
  // Within the limits but more atoms than lines.
  const short = attack.replace("99999999", "5");
  assert.equal(measureMolfile(short).refusal?.limit, "molfileCounts");
  assert.match(measureMolfile(short).refusal!.message, /5 atoms and 0 bonds, but the atom block has 0/);
  // V2000: the counts line promises 10 atoms and 9 bonds, the body has 5 + 4 lines.
  const v2000 = alkaneV2000(5).replace("  5  4  0", " 10  9  0");
  assert.equal(measureMolfile(v2000).refusal?.limit, "molfileCounts");
  // A V3000 atom entry continued on the next line ('-' at the end) is one atom.
  const continued = v3000(2, 0, 1).replace("M  V30 1 C 0 0 0 0", "M  V30 1 C 0 0 -\nM  V30 0 0");
  assert.deepEqual(measureMolfile(continued), { atoms: 2, refusal: null });
  // The reference acetaldehyde.sdf (C2H4O: 3 atoms other than H).
  assert.deepEqual(measureMolfile(readFileSync(join(DATA, "lazar/test/data/acetaldehyde.sdf"), "utf8")), { atoms: 3, refusal: null });
});

/** Every CSV and SDF file under fixtures/data. */
function dataFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) dataFiles(path, out);
    else if (/\.(csv|sdf)$/i.test(name)) out.push(path);
  }
  return out;
}

test("no structure of the reference data in fixtures/data is refused (the largest: 222 atoms, HIV.csv; 417-atom molfile, cas_4337.sdf)", () => {
  let cells = 0;
  let records = 0;
  let largest = 0;
  for (const path of dataFiles(DATA)) {
    const text = readFileSync(path, "utf8");
    if (/\.sdf$/i.test(path)) {
      for (const record of text.split(/^\$\$\$\$\r?$/m)) {
        const end = record.indexOf("M  END");
        if (end < 0) continue;
        const m = measureMolfile(record.replace(/^\r?\n/, "").slice(0, end + 6));
        assert.equal(m.refusal, null, `${path}: ${m.refusal?.message}`);
        records++;
      }
      continue;
    }
    let structures: readonly string[];
    try {
      structures = prepareTable(parseCsv(text)).structures;
    } catch {
      continue; // not a table the service reads (its own tests cover those)
    }
    for (const cell of structures) {
      const inchi = /^inchi(=|%3d)/i.test(cell);
      const m = inchi ? measureInchi(/%3d/i.test(cell.slice(0, 8)) ? decodeURIComponent(cell) : cell) : measureSmiles(cell);
      assert.equal(m.refusal, null, `${path}: ${m.refusal?.message}`);
      largest = Math.max(largest, m.atoms);
      cells++;
    }
  }
  assert.ok(records > 4000 && cells > 200_000, `${records} molfiles, ${cells} structure cells`);
  assert.equal(largest, 222); // atom tokens of the largest SMILES (HIV.csv), 78 under the limit
});
