/**
 * Tests of src/chem/fingerprints.ts (Morgan, atom-pair, RDKit path, MACCS and MolPrint2D-style
 * fingerprints; RDKit's 2D descriptors) and of the `chem.fingerprints` and `chem.features` jobs
 * (src/chem/jobs.ts, registered in src/algorithms/jobs.ts). Expected values come from outside the
 * code under test, each test says where from:
 * - RDKit's "Getting Started with the RDKit in Python" (Docs/Book/GettingStartedInPython.rst in
 *   the rdkit/rdkit repository): "Morgan Fingerprints", "Explaining bits from Morgan
 *   Fingerprints", "Generating images of fingerprint bits", "MACCS Keys", "RDKit (Topological)
 *   Fingerprints", "Atom Pairs and Topological Torsions", "Explaining bits from fingerprints";
 * - RDKit's MinimalLib tests (Code/MinimalLib/tests/tests.js, test_basics: phenol; and the C
 *   API's tests, Code/MinimalLib/cffi_test.c, test_fingerprints: 4-hydroxypyridine);
 * - RDKit's Crippen contributions (Data/Crippen.txt), Ertl et al.'s TPSA fragment values
 *   (J. Med. Chem. 43 (2000) 3714), and IUPAC atomic weights / isotope masses, summed by hand;
 * - RDKit's MACCS key SMARTS and doctests (rdkit/Chem/MACCSkeys.py);
 * - hand derivations (written out in the tests) and the FNV-1a test vectors.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { loadRDKit, rdkitReplacements, type RDKitMol } from "../../../src/chem/rdkit.ts";
import {
  ATOM_PAIR,
  DEFAULT_MODEL_FEATURES,
  MACCS_BITS,
  MORGAN,
  RDKIT_PATH,
  atomPairBits,
  checkFingerprintSpec,
  decodeBitVector,
  descriptorNames,
  descriptorValues,
  fingerprint,
  readDescriptorJson,
  rdkitPathBits,
  fnv1a32,
  maccsKeys,
  morganBits,
  mp2dEnvironments,
  mp2dFeatureId,
  mp2dFeatures,
} from "../../../src/chem/fingerprints.ts";
import { readFileSync } from "node:fs";
import { MAX_FEATURE_FINGERPRINTS, MAX_FINGERPRINT_BATCH, featuresJob, fingerprintsJob, type FingerprintsOutput } from "../../../src/chem/jobs.ts";
import { servicePool } from "../../../src/algorithms/jobs.ts";
import { BadRequest, ServiceError } from "../../../src/errors.ts";

const rdkit = await loadRDKit();

/** `f` on the molecule of a SMILES (deleted after). */
function withMol<T>(smiles: string, f: (mol: RDKitMol) => T): T {
  const mol = rdkit.get_mol(smiles);
  assert.ok(mol, `RDKit parses ${smiles}`);
  try {
    return f(mol);
  } finally {
    mol.delete();
  }
}
const morgan = (smiles: string, radius: number, bits: number): number[] => [...withMol(smiles, (m) => morganBits(m, radius, bits))];
const maccs = (smiles: string): number[] => [...withMol(smiles, (m) => maccsKeys(m))];
const envs = (smiles: string): string[] => withMol(smiles, (m) => mp2dEnvironments(m));

function common(a: readonly number[], b: readonly number[]): number {
  const set = new Set(b);
  return a.filter((x) => set.has(x)).length;
}
const tanimoto = (a: readonly number[], b: readonly number[]): number => common(a, b) / (a.length + b.length - common(a, b));
const dice = (a: readonly number[], b: readonly number[]): number => (2 * common(a, b)) / (a.length + b.length);

function ascending(ids: ArrayLike<number>): boolean {
  for (let i = 1; i < ids.length; i++) if (ids[i]! <= ids[i - 1]!) return false;
  return true;
}

/** A BadRequest naming `field`. */
function badRequest(field: string): (err: unknown) => boolean {
  return (err) => err instanceof ServiceError && err.status === 400 && err.details.field === field;
}

describe("fingerprint spec", () => {
  it("fills in the Morgan defaults (radius 2, 2048 bits) and takes values in range", () => {
    assert.deepEqual(checkFingerprintSpec({ kind: "morgan" }), { kind: "morgan", radius: 2, bits: 2048 });
    assert.deepEqual(checkFingerprintSpec({ kind: "morgan", radius: 3, bits: 8192 }), { kind: "morgan", radius: 3, bits: 8192 });
    assert.deepEqual(checkFingerprintSpec({ kind: "morgan", radius: 1, bits: 512 }), { kind: "morgan", radius: 1, bits: 512 });
    assert.deepEqual(checkFingerprintSpec({ kind: "maccs" }), { kind: "maccs", radius: 0, bits: 0 });
    assert.deepEqual(checkFingerprintSpec({ kind: "mp2d" }), { kind: "mp2d", radius: 0, bits: 0 });
  });

  it("refuses out-of-range and misplaced values with a 400 naming the parameter", () => {
    for (const radius of [0, 4, 2.5, "2", null]) assert.throws(() => checkFingerprintSpec({ kind: "morgan", radius }), badRequest("radius"), `radius ${String(radius)}`);
    for (const bits of [511, 8193, 256, 16384, 1024.5]) assert.throws(() => checkFingerprintSpec({ kind: "morgan", bits }), badRequest("bits"), `bits ${bits}`);
    assert.throws(() => checkFingerprintSpec({ kind: "ecfp" }), badRequest("kind"));
    assert.throws(() => checkFingerprintSpec({}), badRequest("kind"));
    assert.throws(() => checkFingerprintSpec(null), badRequest("kind"));
    assert.throws(() => checkFingerprintSpec({ kind: "maccs", radius: 2 }), badRequest("radius"));
    assert.throws(() => checkFingerprintSpec({ kind: "mp2d", bits: 1024 }), badRequest("bits"));
    assert.throws(() => checkFingerprintSpec({ kind: "morgan", nBits: 1024 }), badRequest("nBits"));
    assert.throws(() => checkFingerprintSpec({ kind: "morgan", radius: 9 }), /radius must be an integer from 1 to 3 \(got 9\)/);
  });

  it("fills in RDKit's atom-pair and path defaults (2048 bits; pairs 1–30 bonds apart; paths of 1–7 bonds)", () => {
    // RDKit's defaults: Code/MinimalLib/common.h (atom_pair_fp_as_bitvect, rdkit_fp_as_bitvect) and
    // Getting Started "RDKit (Topological) Fingerprints" (path size 1–7, 2048 bits).
    assert.deepEqual(checkFingerprintSpec({ kind: "atompair" }), { kind: "atompair", bits: 2048, minLength: 1, maxLength: 30 });
    assert.deepEqual(checkFingerprintSpec({ kind: "rdkit" }), { kind: "rdkit", bits: 2048, minPath: 1, maxPath: 7 });
    assert.deepEqual(checkFingerprintSpec({ kind: "atompair", bits: 4096, minLength: 2, maxLength: 2 }), { kind: "atompair", bits: 4096, minLength: 2, maxLength: 2 });
    assert.deepEqual(checkFingerprintSpec({ kind: "rdkit", bits: 512, minPath: 2, maxPath: 5 }), { kind: "rdkit", bits: 512, minPath: 2, maxPath: 5 });
    assert.equal(ATOM_PAIR.maxLength.max, 30);
    assert.equal(RDKIT_PATH.maxPath.max, 7);
  });

  it("refuses atom-pair and path parameters out of range, misplaced or in the wrong order, naming the field", () => {
    for (const bits of [511, 8193, 2048.5]) {
      assert.throws(() => checkFingerprintSpec({ kind: "atompair", bits }), badRequest("bits"), `atompair bits ${bits}`);
      assert.throws(() => checkFingerprintSpec({ kind: "rdkit", bits }), badRequest("bits"), `rdkit bits ${bits}`);
    }
    for (const v of [0, 31, 1.5, "2"]) {
      assert.throws(() => checkFingerprintSpec({ kind: "atompair", minLength: v }), badRequest("minLength"));
      assert.throws(() => checkFingerprintSpec({ kind: "atompair", maxLength: v }), badRequest("maxLength"));
    }
    for (const v of [0, 8, 1.5, null]) {
      assert.throws(() => checkFingerprintSpec({ kind: "rdkit", minPath: v }), badRequest("minPath"));
      assert.throws(() => checkFingerprintSpec({ kind: "rdkit", maxPath: v }), badRequest("maxPath"));
    }
    // RDKit throws (a WebAssembly exception) on min > max: refused before it sees them.
    assert.throws(() => checkFingerprintSpec({ kind: "atompair", minLength: 5, maxLength: 3 }), badRequest("maxLength"));
    assert.throws(() => checkFingerprintSpec({ kind: "rdkit", minPath: 5, maxPath: 3 }), /maxPath \(3\) must not be less than minPath \(5\)/);
    // A bound given alone is checked against the other's default.
    assert.deepEqual(checkFingerprintSpec({ kind: "rdkit", minPath: 7 }), { kind: "rdkit", bits: 2048, minPath: 7, maxPath: 7 });
    assert.throws(() => checkFingerprintSpec({ kind: "atompair", minLength: 3, maxLength: 2 }), badRequest("maxLength"));
    assert.throws(() => checkFingerprintSpec({ kind: "atompair", radius: 2 }), badRequest("radius"));
    assert.throws(() => checkFingerprintSpec({ kind: "rdkit", minLength: 2 }), /minLength applies to atompair fingerprints only, not to rdkit/);
    assert.throws(() => checkFingerprintSpec({ kind: "morgan", maxPath: 5 }), badRequest("maxPath"));
    assert.throws(() => checkFingerprintSpec({ kind: "maccs", bits: 2048 }), /bits applies to morgan and atompair and rdkit fingerprints only, not to maccs/);
    assert.throws(() => checkFingerprintSpec({ kind: "rdkit", nBitsPerHash: 1 }), badRequest("nBitsPerHash"));
  });
});

describe("decoding RDKit's packed bit vectors", () => {
  it("reads bit i as bit i % 8 (least significant first) of byte i / 8, and drops the padding", () => {
    // By hand: 0b00000101 → bits 0 and 2; 0x80 in byte 1 → bit 15.
    assert.deepEqual([...decodeBitVector(Uint8Array.of(0b101, 0x80), 16)], [0, 2, 15]);
    assert.deepEqual([...decodeBitVector(Uint8Array.of(0b101, 0x80), 10)], [0, 2]);
    assert.deepEqual([...decodeBitVector(Uint8Array.of(0, 0, 0), 24)], []);
    assert.deepEqual([...decodeBitVector(Uint8Array.of(0xff), 8)], [0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it("agrees with RDKit's '0'/'1' string of the same fingerprint (phenol, the molecule of RDKit's MinimalLib tests)", () => {
    withMol("c1ccccc1O", (m) => {
      const text = m.get_morgan_fp(JSON.stringify({ radius: 2, nBits: 2048 }));
      const fromText = [...text].flatMap((c, i) => (c === "1" ? [i] : []));
      assert.deepEqual([...morganBits(m, 2, 2048)], fromText);
    });
  });
});

describe("Morgan fingerprints", () => {
  it("phenol: 11 bits at radius 2 / 2048 bits, 3 at radius 0 / 512 (RDKit MinimalLib tests.js, test_basics)", () => {
    assert.equal(morgan("c1ccccc1O", 2, 2048).length, 11);
    assert.equal(morgan("c1ccccc1O", 0, 512).length, 3);
  });

  it("2-methylpyridine: 16 identifiers, among them 98513984 and 4048591891 (RDKit Getting Started, 'Explaining bits')", () => {
    // The doc's unfolded identifiers, folded as RDKit folds (identifier mod nBits):
    // 98513984 mod 2048 = 1088, 4048591891 mod 2048 = 1043. 16 identifiers give 16 bits unless two collide.
    const bits = morgan("c1cccnc1C", 2, 2048);
    assert.ok(bits.includes(98513984 % 2048) && bits.includes(4048591891 % 2048), `bits ${bits.join(",")}`);
    assert.equal(bits.length, 16);
  });

  it("phenylcyclopropane: bit 872 set at radius 2, 2048 bits (RDKit Getting Started, 'Generating images of fingerprint bits')", () => {
    assert.ok(morgan("c1ccccc1CC1CC1", 2, 2048).includes(872));
  });

  it("toluene vs 2-methylpyridine at radius 2, 1024 bits: Dice 0.51… (RDKit Getting Started, 'Morgan Fingerprints')", () => {
    const a = morgan("Cc1ccccc1", 2, 1024);
    const b = morgan("Cc1ncccc1", 2, 1024);
    const d = dice(a, b);
    assert.ok(d >= 0.51 && d < 0.52, `Dice ${d}`);
    // Tanimoto follows from Dice: T = D / (2 − D).
    assert.ok(Math.abs(tanimoto(a, b) - d / (2 - d)) < 1e-12);
  });

  it("benzene: one identifier per radius, r + 1 in all (by hand)", () => {
    // All six atoms are equivalent, so each radius adds one environment; each covers more bonds
    // than the one before (2, 4, then all 6 ring bonds at radius 3), so none is a duplicate.
    for (const r of [1, 2, 3]) assert.equal(morgan("c1ccccc1", r, 2048).length, r + 1, `radius ${r}`);
  });

  it("ethanol: 6 identifiers at every radius from 1 (by hand)", () => {
    // Radius 0: CH3, CH2, OH (3). Radius 1: {C–C} from CH3, {C–C, C–O} from CH2, {C–O} from O (3 new
    // bond sets). Radius 2 and more: every atom's environment is {C–C, C–O} again, already seen, so
    // RDKit drops it.
    for (const r of [1, 2, 3]) assert.equal(morgan("CCO", r, 2048).length, 6, `radius ${r}`);
  });

  it("gives ascending bit positions below the number of bits", () => {
    for (const bits of [MORGAN.bits.min, 2048, MORGAN.bits.max]) {
      const ids = morgan("CC(=O)Oc1ccccc1C(=O)O", 3, bits);
      assert.ok(ids.length > 0 && ascending(ids) && ids.every((b) => b >= 0 && b < bits), `bits ${bits}`);
    }
  });
});

describe("MACCS keys", () => {
  it("CNO and CCC: the keys of MACCSkeys.py's doctests", () => {
    assert.deepEqual(maccs("CNO"), [24, 68, 69, 71, 93, 94, 102, 124, 131, 139, 151, 158, 160, 161, 164]);
    assert.deepEqual(maccs("CCC"), [74, 114, 149, 155, 160]);
  });

  it("benzene: aromatic (162 'a'), 6-membered ring (163), ring atom (165) and nothing else (by hand from MACCSkeys.py)", () => {
    // 145 (6M ring > 1) needs a second distinct ring match; 125 (aromatic rings > 1) a second ring.
    assert.deepEqual(maccs("c1ccccc1"), [162, 163, 165]);
  });

  it("ammonium chloride: charge, Cl, halogen, NH, N and key 166 'fragments > 1' (by hand from MACCSkeys.py)", () => {
    // 49 '[!+0]', 103 'Cl', 134 '[F,Cl,Br,I]', 151 '[#7;!H0]', 161 '[#7]', 166: two fragments.
    // Not 84 '[NH2]' (NH4+ has four), not 131 'QH > 1' (one heteroatom with H).
    assert.deepEqual(maccs("[NH4+].[Cl-]"), [49, 103, 134, 151, 161, 166]);
    assert.ok(!maccs("[NH4+]").includes(166), "one fragment: no key 166");
  });

  it("Tanimoto of CCOC, CCO, COC: 0.5, 0.538…, 0.214… (RDKit Getting Started, 'MACCS Keys')", () => {
    const [a, b, c] = ["CCOC", "CCO", "COC"].map(maccs) as [number[], number[], number[]];
    assert.equal(tanimoto(a, b), 0.5);
    assert.ok(Math.abs(tanimoto(a, c) - 0.538) < 0.001, `${tanimoto(a, c)}`);
    assert.ok(Math.abs(tanimoto(b, c) - 0.214) < 0.001, `${tanimoto(b, c)}`);
  });

  it("ids are key numbers 1–166", () => {
    const ids = maccs("CC(=O)Oc1ccccc1C(=O)O.[Na+].Br");
    assert.ok(ascending(ids) && ids.every((k) => k >= 1 && k < MACCS_BITS));
  });
});

/** The ON bits of RDKit's '0'/'1' string form (bit i at character i). */
const onBits = (text: string): number[] => [...text].flatMap((c, i) => (c === "1" ? [i] : []));

describe("atom-pair fingerprints", () => {
  const ap = (smiles: string, bits: number, min?: number, max?: number): number[] => [...withMol(smiles, (m) => atomPairBits(m, bits, min, max))];

  it("4-hydroxypyridine at 64 bits, all pairs / from 2 bonds / up to 2 bonds: the bit strings of RDKit's C API tests (cffi_test.c)", () => {
    assert.deepEqual(ap("c1nccc(O)c1", 64), onBits("0000000000000000000000001110111011101100000000000000000011001100"));
    assert.deepEqual(ap("c1nccc(O)c1", 64, 2, 30), onBits("0000000000000000000000001000111011100000000000000000000011001100"));
    assert.deepEqual(ap("c1nccc(O)c1", 64, 1, 2), onBits("0000000000000000000000001110111011001100000000000000000011000000"));
  });

  it("C1CCC1OCC, CC(C)OCC, CCOCC as bit vectors: Dice 0.352…, 0.266…, 0.583… (RDKit Getting Started, 'Atom Pairs')", () => {
    // The doc's bit-vector fingerprints use RDKit's count simulation, as MinimalLib's do.
    const [a, b, c] = ["C1CCC1OCC", "CC(C)OCC", "CCOCC"].map((x) => ap(x, 2048)) as [number[], number[], number[]];
    assert.ok(Math.abs(dice(a, b) - 0.352) < 0.001, `${dice(a, b)}`);
    assert.ok(Math.abs(dice(a, c) - 0.266) < 0.001, `${dice(a, c)}`);
    assert.ok(Math.abs(dice(b, c) - 0.583) < 0.001, `${dice(b, c)}`);
  });

  it("a molecule with one heavy atom has no pairs (by hand); bits are ascending and below nBits", () => {
    assert.deepEqual(ap("C", 2048), []);
    assert.deepEqual(ap("[Na+].[Cl-]", 2048), [], "two fragments: no pair has a path");
    for (const bits of [ATOM_PAIR.bits.min, ATOM_PAIR.bits.max]) {
      const ids = ap("CC(=O)Oc1ccccc1C(=O)O", bits);
      assert.ok(ids.length > 0 && ascending(ids) && ids.every((x) => x < bits), `bits ${bits}`);
    }
  });
});

describe("RDKit path fingerprints", () => {
  const rdk = (smiles: string, bits: number, min?: number, max?: number): number[] => [...withMol(smiles, (m) => rdkitPathBits(m, bits, min, max))];

  it("4-hydroxypyridine at 64 bits, paths up to 7 and up to 4 bonds: the bit strings of RDKit's C API tests (cffi_test.c)", () => {
    assert.deepEqual(rdk("c1nccc(O)c1", 64), onBits("1111011000111100011011011111011001111111110010000111000011111111"));
    assert.deepEqual(rdk("c1nccc(O)c1", 64, 1, 4), onBits("1111011000110000010001010111000001101011100010000001000011100011"));
  });

  it("CCOC, CCO, COC: Tanimoto 0.6, 0.4, 0.25 and Dice 0.75 (RDKit Getting Started, 'RDKit (Topological) Fingerprints')", () => {
    const [a, b, c] = ["CCOC", "CCO", "COC"].map((x) => rdk(x, 2048)) as [number[], number[], number[]];
    assert.ok(Math.abs(tanimoto(a, b) - 0.6) < 1e-12, `${tanimoto(a, b)}`);
    assert.ok(Math.abs(tanimoto(a, c) - 0.4) < 1e-12, `${tanimoto(a, c)}`);
    assert.equal(tanimoto(b, c), 0.25);
    assert.equal(dice(a, b), 0.75);
  });

  it("ethanol: 6 bits, among them its paths' ids 54413874, 1135572127, 1524090560 folded to 2048 (Getting Started, 'Explaining bits')", () => {
    // The doc lists the unfolded ids of ethanol's paths; RDKit folds an id to id mod nBits:
    // 54413874 → 562, 1135572127 → 1183, 1524090560 → 1728. Its count fingerprint has 6 ids.
    const bits = rdk("CCO", 2048);
    assert.equal(bits.length, 6);
    for (const id of [54413874, 1135572127, 1524090560]) assert.ok(bits.includes(id % 2048), `bit ${id % 2048} of ${bits.join(",")}`);
  });

  it("phenylcyclopropane: bit 1553 set (Getting Started, 'Generating images of fingerprint bits')", () => {
    assert.ok(rdk("c1ccccc1CC1CC1", 2048).includes(1553));
  });

  it("a lone atom has no paths (by hand); more bonds allowed, more bits", () => {
    assert.deepEqual(rdk("[Na+]", 2048), []);
    const short = rdk("CC(=O)Oc1ccccc1C(=O)O", 2048, 1, 3);
    const long = rdk("CC(=O)Oc1ccccc1C(=O)O", 2048);
    assert.ok(short.every((b) => long.includes(b)) && long.length > short.length, `${short.length} of ${long.length}`);
  });
});

describe("RDKit's 2D descriptors", () => {
  const names = descriptorNames(rdkit);
  const value = (smiles: string, name: string): number => {
    const j = names.indexOf(name);
    assert.ok(j >= 0, `descriptor ${name}`);
    return withMol(smiles, (m) => descriptorValues(m, names))[j]!;
  };

  it("are RDKit's 43 names, sorted, and every molecule gives the same set (the first 300 structures of Kazius and odd cases)", () => {
    assert.equal(names.length, 43);
    assert.deepEqual([...names], [...names].sort());
    for (const n of ["amw", "exactmw", "NumHeavyAtoms", "NumRings", "tpsa", "CrippenClogP", "chi4v", "kappa3", "Phi"]) assert.ok(names.includes(n), n);
    const kazius = readFileSync(new URL("../../../fixtures/data/lazar/test/data/kazius.csv", import.meta.url), "utf8").split("\n").slice(1, 301).map((l) => l.split(",")[0]!);
    let read = 0;
    for (const smi of [...kazius, "[Na+].[Cl-]", "[He]", "[H][H]", "O", "*C", "[2H]C", "C1CC1", "F[Si](F)(F)F"]) {
      const mol = rdkit.get_mol(smi);
      if (mol === null) continue;
      try {
        assert.deepEqual([...readDescriptorJson(mol.get_descriptors()).keys()].sort(), [...names], smi);
        read++;
      } finally {
        mol.delete();
      }
    }
    assert.ok(read > 290, `${read} structures read`);
  });

  it("benzene: MolWt 78.114, exact mass 78.047, 6 heavy atoms, 1 ring, Crippen logP 1.6866 (IUPAC masses; Crippen.txt by hand)", () => {
    // 6 × 12.011 + 6 × 1.008 = 78.114; 6 × 12 + 6 × 1.00782503 = 78.04695; logP: 6 × C18 [cH] 0.1581 + 6 × H1 0.123.
    assert.ok(Math.abs(value("c1ccccc1", "amw") - 78.114) < 0.0005);
    assert.ok(Math.abs(value("c1ccccc1", "exactmw") - 78.04695) < 0.00001);
    assert.equal(value("c1ccccc1", "NumHeavyAtoms"), 6);
    assert.equal(value("c1ccccc1", "NumRings"), 1);
    assert.equal(value("c1ccccc1", "NumAromaticRings"), 1);
    assert.ok(Math.abs(value("c1ccccc1", "CrippenClogP") - 1.6866) < 1e-9);
  });

  it("ethanol: TPSA 20.23, Crippen logP −0.0014 (Ertl 2000's [OH]; Crippen.txt by hand); benzoic acid: TPSA 37.30", () => {
    // logP: C1 [CH3]C 0.1441 + C3 [CH2X4]O −0.2035 + O2 [OH] −0.2893 + 5 × H1 0.123 + H2 (H on O of an sp3 C) −0.2677.
    assert.ok(Math.abs(value("CCO", "tpsa") - 20.23) < 1e-9);
    assert.ok(Math.abs(value("CCO", "CrippenClogP") - -0.0014) < 1e-9);
    // Ertl: O= of the acid 17.07 + its OH 20.23.
    assert.ok(Math.abs(value("c1ccccc1C(=O)O", "tpsa") - 37.3) < 1e-9);
  });

  it("a name RDKit does not give is NaN; unfinished JSON (rapidjson stops at a NaN) keeps the members before it", () => {
    const v = withMol("CCO", (m) => descriptorValues(m, ["NumHeavyAtoms", "noSuchDescriptor"]));
    assert.equal(v[0], 3);
    assert.ok(Number.isNaN(v[1]));
    assert.deepEqual([...readDescriptorJson('{"a":1E0,"b":-2.5E-1,"c":3').entries()], [["a", 1], ["b", -0.25], ["c", 3]]);
    assert.deepEqual([...readDescriptorJson('{"a":1E0,"b":').entries()], [["a", 1]]);
  });
});

describe("MolPrint2D-style atom environments (mp2d)", () => {
  it("FNV-1a 32 matches the published test vectors", () => {
    // FNV reference (Fowler/Noll/Vo; draft-eastlake-fnv): "" → 811c9dc5, "a" → e40c292c, "foobar" → bf9cf968.
    assert.equal(fnv1a32(""), 0x811c9dc5);
    assert.equal(fnv1a32("a"), 0xe40c292c);
    assert.equal(fnv1a32("foobar"), 0xbf9cf968);
  });

  it("ethanol: three environments, written out by hand", () => {
    // C1 (C.3): one C.3 next to it, one O.3 two bonds away; C2 (C.3): a C.3 and an O.3 next to it;
    // O (O.3): a C.3 next to it, a C.3 two bonds away.
    const expected = ["C.3;1-1-C.3;2-1-O.3", "C.3;1-1-C.3;1-1-O.3", "O.3;1-1-C.3;2-1-C.3"];
    assert.deepEqual(envs("CCO"), expected);
    const ids = withMol("CCO", (m) => [...mp2dFeatures(m)]);
    assert.deepEqual(ids, expected.map(mp2dFeatureId).sort((a, b) => a - b));
  });

  it("acetic acid: both oxygens are O.co2, so three distinct features (by hand)", () => {
    // CH3 (C.3): C.2 next, two O.co2 two bonds away; carboxyl C (C.2): a C.3 and two O.co2 next;
    // each O (O.co2): the C.2 next, the C.3 and the other O.co2 two bonds away.
    const o = "O.co2;1-1-C.2;2-1-C.3;2-1-O.co2";
    assert.deepEqual(envs("CC(=O)O"), ["C.3;1-1-C.2;2-2-O.co2", "C.2;1-1-C.3;1-2-O.co2", o, o]);
    assert.equal(withMol("CC(=O)O", (m) => mp2dFeatures(m).length), 3);
    // The acetate of a sodium salt has the same environments; the sodium ion has its own, alone.
    assert.deepEqual(envs("CC(=O)[O-].[Na+]"), ["C.3;1-1-C.2;2-2-O.co2", "C.2;1-1-C.3;1-2-O.co2", o, o, "Na"]);
  });

  it("counts an atom two bonds away once, however many paths reach it (cyclobutane, by hand)", () => {
    assert.deepEqual(envs("C1CCC1"), Array(4).fill("C.3;1-2-C.3;2-1-C.3"));
    // In cyclopropane every atom is a neighbour: nothing at distance 2.
    assert.deepEqual(envs("C1CC1"), Array(3).fill("C.3;1-2-C.3"));
  });

  it("types amide, nitro and aromatic atoms as the Tripos names (acetamide, nitrobenzene; by hand)", () => {
    assert.deepEqual(envs("CC(N)=O"), ["C.3;1-1-C.2;2-1-N.am;2-1-O.2", "C.2;1-1-C.3;1-1-N.am;1-1-O.2", "N.am;1-1-C.2;2-1-C.3;2-1-O.2", "O.2;1-1-C.2;2-1-C.3;2-1-N.am"]);
    const nitro = envs("[O-][N+](=O)c1ccccc1");
    assert.deepEqual(nitro.slice(0, 3), ["O.2;1-1-N.pl3;2-1-C.ar;2-1-O.2", "N.pl3;1-1-C.ar;1-2-O.2;2-2-C.ar", "O.2;1-1-N.pl3;2-1-C.ar;2-1-O.2"]);
    assert.equal(nitro[3], "C.ar;1-2-C.ar;1-1-N.pl3;2-2-C.ar;2-2-O.2");
  });

  it("ids are ascending and below 2^31", () => {
    const ids = withMol("CC(=O)Oc1ccccc1C(=O)O", (m) => mp2dFeatures(m));
    assert.ok(ids.length > 0 && ascending(ids) && ids.every((x) => x >= 0));
  });
});

describe("the chem.fingerprints job", () => {
  it("gives a bad SMILES its error and the others their bits", async () => {
    const smiles = ["CCO", "C1CC", "", "c1ccccc1O", "CC O", "CC(=O)O"];
    for (const spec of [{ kind: "morgan" as const }, { kind: "maccs" as const }, { kind: "mp2d" as const }]) {
      const out = await fingerprintsJob({ smiles, spec });
      assert.equal(out.offsets.length, smiles.length + 1);
      assert.deepEqual(out.errors, [null, "SMILES could not be parsed", "empty structure", null, "SMILES could not be parsed", null]);
      const resolved = checkFingerprintSpec(spec);
      for (const i of [0, 3, 5]) {
        const direct = withMol(smiles[i]!, (m) => [...fingerprint(m, resolved)]);
        assert.deepEqual([...row(out, i)], direct, `${spec.kind} ${smiles[i]}`);
      }
      for (const i of [1, 2, 4]) assert.equal(row(out, i).length, 0);
    }
  });

  it("refuses an oversized structure before RDKit sees it, and an oversized list", async () => {
    // A chain of 900 carbons traps RDKit's parser (chem/limits.ts: ≈ 860): had RDKit read it, its
    // instance would have been replaced.
    const before = rdkitReplacements();
    const out = await fingerprintsJob({ smiles: ["C".repeat(900), "C".repeat(4001), "CCO"], spec: { kind: "morgan" } });
    assert.match(out.errors[0]!, /structure too large: the SMILES has 900 atoms \(the limit is 300/);
    assert.match(out.errors[1]!, /SMILES too long: 4001 characters/);
    assert.equal(out.errors[2], null);
    assert.equal(rdkitReplacements(), before);
    await assert.rejects(fingerprintsJob({ smiles: Array(MAX_FINGERPRINT_BATCH + 1).fill("C"), spec: { kind: "maccs" } }), badRequest("smiles"));
    await assert.rejects(fingerprintsJob({ smiles: ["CCO"], spec: { kind: "morgan", bits: 100 } }), badRequest("bits"));
  });

  describe("in a worker", () => {
    const pool = servicePool(1);
    after(() => pool.close());

    it("after refused inputs the next job works, and a large output arrives whole", async () => {
      await assert.rejects(pool.run("chem.fingerprints", { smiles: ["CCO"], spec: { kind: "morgan", radius: 5 } }), (e: unknown) => e instanceof BadRequest && e.details.field === "radius");
      await assert.rejects(pool.run("chem.fingerprints", { smiles: Array(MAX_FINGERPRINT_BATCH + 1).fill("C"), spec: { kind: "mp2d" } }), (e: unknown) => e instanceof BadRequest && e.details.field === "smiles");
      // 1000 × aspirin at radius 3 / 8192 bits: 31 bits each, 124 kB of ids (moved, not copied, by the worker).
      const smiles = Array.from({ length: MAX_FINGERPRINT_BATCH }, (_, i) => (i === 500 ? "not a smiles" : "CC(=O)Oc1ccccc1C(=O)O"));
      const spec = { kind: "morgan" as const, radius: 3, bits: 8192 };
      const out = await pool.run("chem.fingerprints", { smiles, spec });
      const direct = await fingerprintsJob({ smiles, spec });
      assert.ok(out.idx instanceof Int32Array && out.offsets instanceof Int32Array);
      assert.ok(out.idx.byteLength > 64 * 1024);
      assert.deepEqual([...out.offsets], [...direct.offsets]);
      assert.deepEqual([...out.idx], [...direct.idx]);
      assert.deepEqual(out.errors, direct.errors);
      assert.equal(out.errors[500], "SMILES could not be parsed");
      assert.equal(out.space, 8192);
    });
  });
});

function row(out: FingerprintsOutput, i: number): Int32Array {
  return out.idx.subarray(out.offsets[i]!, out.offsets[i + 1]!);
}

describe("the chem.features job", () => {
  const specs = DEFAULT_MODEL_FEATURES.fingerprints;

  it("parses each structure once and gives every fingerprint and the descriptors; a bad SMILES gets its error, empty rows and NaN", async () => {
    const smiles = ["CCO", "C1CC", "c1ccccc1", "", "CC(=O)Oc1ccccc1C(=O)O", "CC O"];
    const out = await featuresJob({ smiles, fingerprints: specs, descriptors: true });
    assert.deepEqual(out.errors, [null, "SMILES could not be parsed", null, "empty structure", null, "SMILES could not be parsed"]);
    assert.deepEqual(out.fingerprints.map((f) => f.spec), specs.map((s) => checkFingerprintSpec(s)));
    assert.deepEqual(out.fingerprints.map((f) => f.space), [2048, 2048, 2048, MACCS_BITS]);
    const names = out.descriptors!.names;
    assert.deepEqual(names, [...descriptorNames(rdkit)]);
    const d = names.length;
    assert.equal(out.descriptors!.values.length, smiles.length * d);
    for (const i of [0, 2, 4]) {
      for (const f of out.fingerprints) {
        const ids: number[] = withMol(smiles[i]!, (m) => [...fingerprint(m, f.spec)]);
        assert.deepEqual([...csrRow(f, i)], ids, `${f.spec.kind} ${smiles[i]}`);
      }
      const descRow: number[] = withMol(smiles[i]!, (m) => [...descriptorValues(m, names)]);
      assert.deepEqual([...out.descriptors!.values.subarray(i * d, (i + 1) * d)], descRow);
    }
    // The published values in the row-major matrix: benzene (row 2) MolWt 78.114; ethanol (row 0) TPSA 20.23.
    assert.ok(Math.abs(out.descriptors!.values[2 * d + names.indexOf("amw")]! - 78.114) < 0.0005);
    assert.ok(Math.abs(out.descriptors!.values[names.indexOf("tpsa")]! - 20.23) < 1e-9);
    for (const i of [1, 3, 5]) {
      for (const f of out.fingerprints) assert.equal(csrRow(f, i).length, 0);
      assert.ok(out.descriptors!.values.subarray(i * d, (i + 1) * d).every(Number.isNaN), `row ${i} is NaN`);
    }
  });

  it("gives the same ids as chem.fingerprints, and no descriptors unless asked", async () => {
    const smiles = ["CCO", "c1ccccc1O", "not-a-smiles", "CC(=O)O"];
    const out = await featuresJob({ smiles, fingerprints: [{ kind: "rdkit", maxPath: 5 }, { kind: "mp2d" }], descriptors: false });
    assert.equal(out.descriptors, null);
    for (const [k, spec] of [{ kind: "rdkit" as const, maxPath: 5 }, { kind: "mp2d" as const }].entries()) {
      const one = await fingerprintsJob({ smiles, spec });
      assert.deepEqual([...out.fingerprints[k]!.offsets], [...one.offsets]);
      assert.deepEqual([...out.fingerprints[k]!.idx], [...one.idx]);
      assert.deepEqual(out.errors, one.errors);
    }
    const only = await featuresJob({ smiles: ["CCO"], fingerprints: [], descriptors: true });
    assert.deepEqual(only.fingerprints, []);
    assert.equal(only.descriptors!.values.length, only.descriptors!.names.length);
  });

  it("refuses oversized structures before RDKit sees them, and an oversized or malformed request naming the field", async () => {
    const before = rdkitReplacements();
    const out = await featuresJob({ smiles: ["C".repeat(900), "C".repeat(4001), "CCO"], fingerprints: specs, descriptors: true });
    assert.match(out.errors[0]!, /structure too large: the SMILES has 900 atoms \(the limit is 300/);
    assert.match(out.errors[1]!, /SMILES too long: 4001 characters/);
    assert.equal(out.errors[2], null);
    assert.equal(rdkitReplacements(), before);
    await assert.rejects(featuresJob({ smiles: Array(MAX_FINGERPRINT_BATCH + 1).fill("C"), fingerprints: specs, descriptors: true }), badRequest("smiles"));
    await assert.rejects(featuresJob({ smiles: "CCO" as unknown as string[], fingerprints: specs, descriptors: true }), badRequest("smiles"));
    await assert.rejects(featuresJob({ smiles: ["CCO"], fingerprints: Array(MAX_FEATURE_FINGERPRINTS + 1).fill({ kind: "maccs" }), descriptors: false }), badRequest("fingerprints"));
    await assert.rejects(featuresJob({ smiles: ["CCO"], fingerprints: [{ kind: "maccs" }, { kind: "rdkit", maxPath: 9 }], descriptors: false }), badRequest("fingerprints[1].maxPath"));
    await assert.rejects(featuresJob({ smiles: ["CCO"], fingerprints: [{ kind: "ecfp" as "morgan" }], descriptors: false }), badRequest("fingerprints[0].kind"));
    await assert.rejects(featuresJob({ smiles: ["CCO"], fingerprints: specs, descriptors: "yes" as unknown as boolean }), badRequest("descriptors"));
    await assert.rejects(featuresJob({ smiles: ["CCO"], fingerprints: [], descriptors: false }), badRequest("fingerprints"));
  });

  describe("in a worker", () => {
    const pool = servicePool(1);
    after(() => pool.close());

    it("after refused inputs the next job works, and 1000 compounds' features arrive whole (moved, not copied)", async () => {
      await assert.rejects(pool.run("chem.features", { smiles: ["CCO"], fingerprints: [{ kind: "atompair", minLength: 4, maxLength: 2 }], descriptors: false }), (e: unknown) => e instanceof BadRequest && e.details.field === "fingerprints[0].maxLength");
      await assert.rejects(pool.run("chem.features", { smiles: Array(MAX_FINGERPRINT_BATCH + 1).fill("C"), fingerprints: specs, descriptors: true }), (e: unknown) => e instanceof BadRequest && e.details.field === "smiles");
      const smiles = Array.from({ length: MAX_FINGERPRINT_BATCH }, (_, i) => (i === 500 ? "not a smiles" : i % 2 === 0 ? "CC(=O)Oc1ccccc1C(=O)O" : "c1ccccc1CC1CC1"));
      const out = await pool.run("chem.features", { smiles, fingerprints: specs, descriptors: true });
      const direct = await featuresJob({ smiles, fingerprints: specs, descriptors: true });
      assert.deepEqual(out.errors, direct.errors);
      assert.equal(out.errors[500], "SMILES could not be parsed");
      out.fingerprints.forEach((f, k) => {
        assert.ok(f.idx instanceof Int32Array && f.offsets instanceof Int32Array);
        assert.deepEqual([...f.offsets], [...direct.fingerprints[k]!.offsets]);
        assert.deepEqual([...f.idx], [...direct.fingerprints[k]!.idx]);
      });
      // The RDKit path ids of 1000 compounds (≈ 200 per compound) pass 64 KiB: the worker moves them.
      assert.ok(out.fingerprints[2]!.idx.byteLength > 64 * 1024);
      assert.ok(out.descriptors!.values instanceof Float64Array && out.descriptors!.values.byteLength > 64 * 1024);
      assert.deepEqual([...out.descriptors!.values].map(String), [...direct.descriptors!.values].map(String));
      // And the next job of another kind works in the same worker.
      const next = await pool.run("chem.fingerprints", { smiles: ["c1ccccc1O"], spec: { kind: "morgan" } });
      assert.equal(next.idx.length, 11, "phenol: 11 Morgan bits (RDKit MinimalLib tests.js)");
    });
  });
});

function csrRow(out: { readonly offsets: Int32Array; readonly idx: Int32Array }, i: number): Int32Array {
  return out.idx.subarray(out.offsets[i]!, out.offsets[i + 1]!);
}
