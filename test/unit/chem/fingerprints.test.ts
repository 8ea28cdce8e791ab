/**
 * Tests of src/chem/fingerprints.ts (Morgan, MACCS and MolPrint2D-style fingerprints) and of the
 * `chem.fingerprints` job (src/chem/jobs.ts, registered in src/algorithms/jobs.ts). Expected
 * values come from outside the code under test, each test says where from:
 * - RDKit's "Getting Started with the RDKit in Python" (Docs/Book/GettingStartedInPython.rst in
 *   the rdkit/rdkit repository): "Morgan Fingerprints", "Explaining bits from Morgan
 *   Fingerprints", "Generating images of fingerprint bits", "MACCS Keys";
 * - RDKit's MinimalLib tests (Code/MinimalLib/tests/tests.js, test_basics: phenol);
 * - RDKit's MACCS key SMARTS and doctests (rdkit/Chem/MACCSkeys.py);
 * - hand derivations (written out in the tests) and the FNV-1a test vectors.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import { loadRDKit, rdkitReplacements, type RDKitMol } from "../../../src/chem/rdkit.ts";
import {
  MACCS_BITS,
  MORGAN,
  checkFingerprintSpec,
  decodeBitVector,
  fingerprint,
  fnv1a32,
  maccsKeys,
  morganBits,
  mp2dEnvironments,
  mp2dFeatureId,
  mp2dFeatures,
} from "../../../src/chem/fingerprints.ts";
import { MAX_FINGERPRINT_BATCH, fingerprintsJob, type FingerprintsOutput } from "../../../src/chem/jobs.ts";
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
