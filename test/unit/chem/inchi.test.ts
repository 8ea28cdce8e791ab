/**
 * Tests of src/chem/inchi: standard InChI → structure, verified by RDKit.
 *
 * Every reference InChI here comes from RDKit (an independent InChI implementation: the InChI
 * Trust library compiled into MinimalLib) computed from a SMILES, or from the data files; none is
 * produced by the decoder under test. Each decoded structure is re-read by RDKit and its InChI
 * compared with the reference here again, independently of the check decodeInchi makes.
 *
 * Equality: `exact` results must reproduce the whole InChI string; a result with exact: false
 * (stereo layers not reproduced) is compared with the stereo layers (/b /t /m /s) removed from
 * both sides, and the round-trip rate counts exact results only.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadRDKit, type RDKit } from "../../../src/chem/rdkit.ts";
import { decodeInchi, parseInchi, stripStereo } from "../../../src/chem/inchi/index.ts";

const KAZIUS = new URL("../../../fixtures/data/lazar/test/data/kazius.csv", import.meta.url).pathname;

function inchiOf(rdkit: RDKit, smiles: string): string {
  const mol = rdkit.get_mol(smiles);
  assert.ok(mol !== null, `RDKit cannot read ${smiles}`);
  try {
    return mol.get_inchi();
  } finally {
    mol.delete();
  }
}

/** Decode the InChI and check RDKit's InChI of the result independently. */
function roundTrip(rdkit: RDKit, inchi: string): { ok: boolean; exact: boolean; smiles: string; back: string; error?: string } {
  const r = decodeInchi(rdkit, inchi);
  if (!r.ok) return { ok: false, exact: false, smiles: "", back: "", error: r.error };
  const back = inchiOf(rdkit, r.smiles);
  if (r.exact) return { ok: back === inchi, exact: back === inchi, smiles: r.smiles, back };
  return { ok: stripStereo(back) === stripStereo(inchi), exact: false, smiles: r.smiles, back };
}

/** The structure of `smiles` goes SMILES → RDKit InChI → decoder → RDKit InChI, unchanged. */
function assertRoundTrip(rdkit: RDKit, smiles: string, exact = true): string {
  const inchi = inchiOf(rdkit, smiles);
  assert.match(inchi, /^InChI=1S\//, `no InChI for ${smiles}`);
  const r = roundTrip(rdkit, inchi);
  assert.ok(r.ok, `${smiles}: ${inchi} → ${r.error ?? `${r.smiles} → ${r.back}`}`);
  if (exact) assert.ok(r.exact, `${smiles}: ${inchi} decoded without its stereo (${r.smiles})`);
  return r.smiles;
}

test("kazius.csv: the InChI of every decoded structure equals the requested one (≥ 99.5 %)", async () => {
  const rdkit = await loadRDKit();
  const lines = readFileSync(KAZIUS, "utf8").split(/\r?\n/).slice(1).filter((l) => l.trim() !== "");
  const failures: string[] = [];
  let total = 0;
  let exact = 0;
  const t0 = performance.now();
  for (const line of lines) {
    const smiles = line.slice(0, line.lastIndexOf(","));
    const inchi = inchiOf(rdkit, smiles);
    if (!inchi.startsWith("InChI=1S/")) continue;
    total++;
    const r = roundTrip(rdkit, inchi);
    if (r.ok && r.exact) exact++;
    else failures.push(`${inchi}  (${r.error ?? `got ${r.back}`})`);
  }
  const rate = exact / total;
  const seconds = (performance.now() - t0) / 1000;
  console.log(`kazius InChI round trip: ${exact}/${total} = ${(100 * rate).toFixed(2)} % in ${seconds.toFixed(1)} s`);
  for (const f of failures) console.log(`  failed: ${f}`);
  assert.equal(total, lines.length, "RDKit gave a standard InChI for every kazius SMILES");
  assert.ok(rate >= 0.995, `round-trip rate ${rate}`);
});

test("mobile H: the 6-mercaptopurine tautomers of kazius lines 1358 and 2236 share one InChI and decode to it", async () => {
  const rdkit = await loadRDKit();
  const lines = readFileSync(KAZIUS, "utf8").split(/\r?\n/);
  const a = lines[1357]!.slice(0, lines[1357]!.lastIndexOf(","));
  const b = lines[2235]!.slice(0, lines[2235]!.lastIndexOf(","));
  assert.equal(a, "SC2=C1[NH]C=NC1=NC=N2");
  assert.equal(b, "SC2=C1N=C[NH]C1=NC=N2");
  const inchi = inchiOf(rdkit, a);
  assert.equal(inchiOf(rdkit, b), inchi);
  assert.match(inchi, /\(H2,6,7,8,9,10\)/); // one mobile-H group over the ring nitrogens and S
  const r = roundTrip(rdkit, inchi);
  assert.ok(r.ok && r.exact, r.error ?? r.back);
});

test("mobile H: amides, acids, sulfonamides, hydroxypyridines, guanidines, sulfonic acids", async () => {
  const rdkit = await loadRDKit();
  for (const smiles of [
    "CC(N)=O",
    "CC(=O)O",
    "OC(=O)CC(=O)O",
    "Nc1ccc(cc1)S(N)(=O)=O",
    "Oc1ccccn1",
    "NC(N)=NCCC[C@H](N)C(=O)O",
    "Cc1ccc(cc1)S(=O)(=O)O",
    "OP(=O)(O)OCC",
    "c1ccc2[nH]ccc2c1",
    "O=c1cc[nH]c(=O)[nH]1",
    "Cn1cnc2c1c(=O)n(C)c(=O)n2C",
  ]) {
    assertRoundTrip(rdkit, smiles);
  }
});

test("charged species: nitro, N-oxides, quaternary ammonium, diazonium, azide, isonitrile, ylides", async () => {
  const rdkit = await loadRDKit();
  for (const smiles of [
    "O=[N+]([O-])c1ccccc1",
    "[O-][n+]1ccccc1",
    "C[N+](C)(C)[O-]",
    "C[N+](C)(C)C",
    "N#[N+]c1ccccc1",
    "CN=[N+]=[N-]",
    "C[N+]#[C-]",
    "[C-]#[O+]",
    "C[S+](C)C",
    "[O-][N+](=O)[O-]",
    "CC(C)=[N+]([O-])[O-]",
    "OC(=O)C[N+](C)(C)C",
    "C[n+]1ccccc1",
    "c1ccc(cc1)[I+]c1ccccc1",
    "[NH3+]CC([O-])=O",
    "CC[N+](CC)=C1C=CC2=NC3=CC=CC=C3OC2=C1",
  ]) {
    assertRoundTrip(rdkit, smiles);
  }
});

test("salts and several components: '.' in the formula, /q per component, /p for the whole", async () => {
  const rdkit = await loadRDKit();
  // A salt with charged components: sodium 2-phenylphenolate, InChI=1S/C12H10O.Na/…/q;+1/p-1.
  const phenolate = inchiOf(rdkit, "[Na+].[O-]c1ccccc1-c1ccccc1");
  assert.match(phenolate, /^InChI=1S\/C12H10O\.Na\//);
  assert.match(phenolate, /\/q;\+1\/p-1$/);
  const r = roundTrip(rdkit, phenolate);
  assert.ok(r.ok && r.exact, r.error ?? r.back);
  for (const smiles of [
    "CCO.CCO",
    "CC(=O)[O-].[Na+]",
    "CC(=O)[O-].CC(=O)[O-].[Ca+2]",
    "[Na+].[Na+].[O-]S([O-])(=O)=O",
    "C[N+](C)(C)C.C[N+](C)(C)C.[O-]S([O-])(=O)=O",
    "C[N+](C)(C)C.[Cl-]",
    "c1cc[nH+]cc1.[Cl-]",
    "CC(=O)[O-].[NH4+]",
    "[O-]Cl(=O)(=O)=O.[K+]",
    "C[n+]1ccn(C)c1.F[B-](F)(F)F",
    "[Li+].[Cl-]",
    "CC1=C(C(=O)[O-])N2C(=O)C(NC(=O)C(N)c3ccccc3)C2SC1.[Na+]",
  ]) {
    assertRoundTrip(rdkit, smiles);
  }
});

test("aromatic and conjugated ring systems are kekulised", async () => {
  const rdkit = await loadRDKit();
  for (const smiles of [
    "c1ccccc1",
    "c1ccc2ccccc2c1",
    "c1ccc2cc3ccccc3cc2c1",
    "c1cc2ccc3cccc4ccc(c1)c2c34",
    "c1ccc2cccc2cc1",
    "c1ccsc1",
    "c1cc[nH]c1",
    "c1ccc2c(c1)[nH]c1ccccc12",
    "O=C1C=CC(=O)C=C1",
    "c1ccc2c(c1)ccc1c3ccccc3c3ccccc3c21",
    "C1=CC=CC=CC=C1",
    "n1ccnc2ccccc12",
  ]) {
    assertRoundTrip(rdkit, smiles);
  }
});

test("metals and inorganics: disconnected metals, radicals, bare ions", async () => {
  const rdkit = await loadRDKit();
  for (const smiles of [
    "[Fe+2].[Cl-].[Cl-]",
    "[Cu+2].[O-]S([O-])(=O)=O",
    "Cl[Pt](Cl)(N)N",
    "CCCC[Sn](CCCC)(CCCC)Cl",
    "C[Hg]Cl",
    "[BH4-].[Na+]",
    "[Mg+2].[O-2]",
    "[Al+3].[Cl-].[Cl-].[Cl-]",
    "[Zn]",
    "O",
    "[H][H]",
    "[H-]",
    "N#N",
    "O=O",
    "[N]=O",
    "[CH3]",
    "F[Xe]F",
    "O=[As](O)(O)O",
    "B(O)(O)O",
    "c1ccccc1[Se]",
    "C1=CC=C[CH-]1.C1=CC=C[CH-]1.[Fe+2]",
  ]) {
    assertRoundTrip(rdkit, smiles);
  }
});

test("harder /p and mobile-H cases: sulfonated dyes, two sulfamide rings, a proton no atom takes", async () => {
  const rdkit = await loadRDKit();
  for (const smiles of [
    // /p-2 with two sulfonates on an azo naphthol (kazius-like azo dyes).
    "COc1cc(N=Nc2c(O)ccc3cc(S(=O)(=O)[O-])ccc23)c(C)cc1S(=O)(=O)[O-]",
    // Two mobile-H groups whose InChI needs the H on O in both rings.
    "CC1=NS(=O)(O)=NC(C)=C1CC1=C(C)N=S(=O)(O)N=C1C",
    // Sulfonate, carboxylate and amides: /p-2 spread over groups.
    "CC(=O)NCC(=O)NCC(=O)NCC(=O)NCCS(=O)(=O)[O-].CC(=O)[O-]",
    // HBF4: InChI=1S/BF4/c2-1(3,4)5/q-1/p+1, the proton stands alone.
    "F[B-](F)(F)F.[H+]",
  ]) {
    assertRoundTrip(rdkit, smiles);
  }
});

test("the proton, InChI=1S/p+1, decodes to [H+]", async () => {
  const rdkit = await loadRDKit();
  assert.equal(inchiOf(rdkit, "[H+]"), "InChI=1S/p+1");
  const r = decodeInchi(rdkit, "InChI=1S/p+1");
  assert.ok(r.ok, r.ok ? "" : r.error);
  assert.equal(r.smiles, "[H+]");
  assert.equal(inchiOf(rdkit, r.smiles), "InChI=1S/p+1");
});

test("isotopes (/i): 13C, 15N, 18O, 37Cl, 81Br, 131I, D, T and exchangeable D are kept", async () => {
  const rdkit = await loadRDKit();
  for (const smiles of [
    "[13CH3]O",
    "[15NH3]",
    "[18OH2]",
    "[37Cl]C",
    "[81Br]C",
    "[131I]c1ccccc1",
    "[2H]C([2H])([2H])O",
    "[3H]C",
    "[2H]O[2H]",
    "C([2H])C(=O)O",
    "[2H]C#C[2H]",
  ]) {
    assertRoundTrip(rdkit, smiles);
  }
});

test("stereo: tetrahedral (/t, /m) and double-bond (/b) parities are reproduced", async () => {
  const rdkit = await loadRDKit();
  for (const smiles of [
    "C[C@H](N)C(=O)O",
    "C[C@@H](N)C(=O)O",
    "F[C@](Cl)(Br)I",
    "C[C@H](Cl)[C@@H](O)C",
    "OC[C@H]1O[C@@H](O)[C@H](O)[C@@H](O)[C@@H]1O",
    "C[C@]12CC[C@H]3[C@@H](CC=C4C[C@@H](O)CC[C@]34C)[C@@H]1CC[C@@H]2O",
    "C[S@](=O)CC",
    "C/C=C/C",
    "C/C=C\\C",
    "Cl/C(F)=C/Br",
    "F/C=C\\C=C/F",
    "C/C=N/O",
    "CC(/C=C/C=O)=C\\C=C\\C",
    "O=C/C=C(C)/C=C/C=C(\\C)/C=C/C1=C(C)CCCC1(C)C",
    "N[C@@H](C)C(=O)[O-].[Na+]",
    "C/C=C/C.C[C@H](O)CC",
  ]) {
    assertRoundTrip(rdkit, smiles);
  }
});

test("molblock on request: RDKit's molfile of the decoded structure", async () => {
  const rdkit = await loadRDKit();
  const inchi = inchiOf(rdkit, "c1ccccc1O");
  const r = decodeInchi(rdkit, inchi, { molblock: true });
  assert.ok(r.ok && r.molblock !== undefined);
  assert.match(r.molblock, /M {2}END/);
  assert.equal(inchiOf(rdkit, r.molblock), inchi);
});

test("malformed InChIs: errors name the layer", async () => {
  const rdkit = await loadRDKit();
  const cases: Array<[string, RegExp]> = [
    ["InChI=1/C2H6O/c1-2-3/h3H,2H2,1H3", /version.*non-standard/],
    ["InChI=1S/", /formula layer/],
    ["InChI=1S/C2Xx/c1-2", /formula layer.*unknown element "Xx"/],
    ["InChI=1S/C2H6O/c1-2-9/h3H,2H2,1H3", /connection layer \(\/c\).*atom 9/],
    ["InChI=1S/C2H6O/c1-2(3/h3H,2H2,1H3", /connection layer \(\/c\)/],
    ["InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H2", /hydrogen layer \(\/h\).*5 hydrogens.*6/],
    ["InChI=1S/C2H6O/c1-2-3/h3H,2H2,1", /hydrogen layer \(\/h\)/],
    ["InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3/qx", /charge layer \(\/q\)/],
    ["InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3/p+x", /proton layer \(\/p\)/],
    ["InChI=1S/C2H6O/h3H,2H2,1H3/c1-2-3", /connection layer \(\/c\).*out of order/],
    ["InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3/f/h3H", /fixed-H layer \(\/f\)/],
    ["InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2x/m0/s1", /tetrahedral stereo layer \(\/t\)/],
    ["InChI=1S/CH4O/c1-2/h2H,1H3/i1+x", /isotopic layer \(\/i\)/],
    ["InChI=1S/2C2H6O/c1-2-3;1-2-3;1-2-3/h2*3H,2H2,1H3", /connection layer \(\/c\).*3 components.*2/],
  ];
  for (const [inchi, pattern] of cases) {
    const r = decodeInchi(rdkit, inchi);
    assert.equal(r.ok, false, inchi);
    if (!r.ok) assert.match(r.error, pattern, `${inchi}: ${r.error}`);
  }
  assert.throws(() => parseInchi("InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3/x1"), /unknown layer/);
  // Well-formed layers that no structure satisfies: carbon with six hydrogens.
  const r = decodeInchi(rdkit, "InChI=1S/CH6/h1H6");
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.error, /no structure satisfies its valences and charges/);
});

test("parseInchi reads multipliers, mobile groups with charges and per-component layers", () => {
  const p = parseInchi("InChI=1S/2C2H4O2.Ca/c2*1-2(3)4;/h2*1H3,(H,3,4);/q;;+2/p-2");
  assert.equal(p.components.length, 3);
  assert.deepEqual(p.components[0]!.elements, ["C", "C", "O", "O"]);
  assert.deepEqual(p.components[1]!.bonds, [
    [0, 1],
    [1, 2],
    [1, 3],
  ]);
  assert.deepEqual(p.components[1]!.mobile, [{ count: 1, minus: 0, atoms: [2, 3] }]);
  assert.deepEqual(p.components[2]!.elements, ["Ca"]);
  assert.equal(p.components[2]!.charge, 2);
  assert.equal(p.protons, -2);
  const q = parseInchi(
    "InChI=1S/C14H14N4O3/c15-14(19)12-4-7-17(8-5-12)10-21-11-18-6-2-1-3-13(18)9-16-20/h1-9H,10-11H2,(H-,15,19)/p+2",
  );
  assert.deepEqual(q.components[0]!.mobile, [{ count: 1, minus: 1, atoms: [14, 18] }]);
  assert.equal(q.protons, 2);
  const s = parseInchi("InChI=1S/C4H10O.C3H7NO2/c1-3-4(2)5;1-2(4)3(5)6/h4-5H,3H2,1-2H3;2H,4H2,1H3,(H,5,6)/t4-;2-/m10/s1");
  assert.equal(s.components[0]!.inverted, true);
  assert.equal(s.components[1]!.inverted, false);
  assert.equal(s.components[1]!.tetra.get(1), "-");
  assert.equal(s.stereoType, 1);
});
