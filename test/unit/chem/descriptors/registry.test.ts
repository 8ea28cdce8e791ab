/**
 * Registry and entry-point behaviour: the CDK set lazar exposed (the 41 classes of lazar's
 * pc_descriptors.yaml, opentox/install @ 1684c34, with the value names CDK's getDescriptorNames()
 * gives at default parameters, cdk/cdk @ caa24d6: 263 values, counted per pc_type), the RDKit set
 * (the 43 keys MinimalLib's get_descriptors() returns, rdkit/rdkit @ 24e5443 :
 * Code/GraphMol/Descriptors/Property.cpp), value names per pc_type/lib, lazar's feature names
 * (CDK's value name with "." and lazar's other replaced characters turned into "_", as the pc
 * service named them: opentox/opentox-ruby : lib/utils.rb @ a9a4d2f, opentox/algorithm :
 * java/ApplyCDKDescriptors.java @ 1e68543), and "absent, never 0" for uncomputable values.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadRDKit } from "../../../../src/chem/rdkit.ts";
import { CDK_2D, DESCRIPTORS, computeDescriptors, featureName, isLib, isPcType, valueNames, PC_TYPES } from "../../../../src/chem/descriptors/index.ts";
import { calc } from "./helpers.ts";

test("the CDK set: 41 classes / 263 values with lazar's per-category counts", () => {
  const cdk = DESCRIPTORS.filter((d) => d.lib === "cdk");
  assert.equal(cdk.length, 41);
  assert.equal(cdk.flatMap((d) => d.values).length, 263);
  const expected: Record<string, [number, number]> = {
    constitutional: [12, 14], electronic: [4, 4], topological: [19, 175], geometrical: [3, 18], cpsa: [1, 29], hybrid: [2, 23],
  };
  for (const pc of PC_TYPES) {
    const ds = cdk.filter((d) => d.pcType === pc);
    assert.deepEqual([ds.length, ds.flatMap((d) => d.values).length], expected[pc], pc);
  }
  assert.equal(new Set(cdk.flatMap((d) => d.values)).size, 263, "value names are unique");
});

test("the RDKit set: the 43 get_descriptors() keys, each registered once", async () => {
  const names = valueNames(PC_TYPES, ["rdkit"]);
  assert.equal(names.length, 43);
  const rdkit = await loadRDKit();
  const mol = rdkit.get_mol("CCO")!;
  const keys = Object.keys(JSON.parse(mol.get_descriptors()) as object);
  mol.delete();
  assert.deepEqual([...names].sort(), [...keys].sort());
});

test("computed 2D values carry registered names of the requested pc_type only; every 2D class is computed", async () => {
  const rdkit = await loadRDKit();
  const caffeine = "CN1C=NC2=C1C(=O)N(C(=O)N2C)C";
  for (const pc of ["constitutional", "electronic", "topological", "hybrid"] as const) {
    const v = computeDescriptors(rdkit, caffeine, { pcTypes: [pc], lib: "cdk" })!;
    const allowed = new Set(valueNames([pc], ["cdk"]));
    for (const k of v.keys()) assert.ok(allowed.has(k), `${k} not a ${pc} value`);
    const missing = [...allowed].filter((k) => !v.has(k));
    const notComputed = new Set(["geomShape", ...valueNames(["hybrid"], ["cdk"]).filter((n) => n.endsWith(".unity"))]);
    assert.deepEqual(missing.filter((k) => !notComputed.has(k)), [], pc);
  }
  assert.equal(CDK_2D.length, 36);
});

test("pc_type / lib validation and lazar feature names", () => {
  assert.ok(isPcType("cpsa") && !isPcType("3d"));
  assert.ok(isLib("cdk") && isLib("rdkit") && !isLib("joelib"));
  assert.equal(featureName("khs.sCH3"), "khs_sCH3");
  assert.equal(featureName("Wlambda1.unity"), "Wlambda1_unity");
  assert.equal(featureName("BCUTw-1l"), "BCUTw-1l");
});

test("uncomputable values are absent, not 0: boron (no Gasteiger parameters) drops ATSc and BCUT", async () => {
  const v = await calc("CB(O)O");
  for (const k of ["ATSc1", "BCUTc-1l", "BCUTw-1l", "BCUTp-1h"]) assert.equal(v.has(k), false, k);
  assert.equal(v.get("nAtom"), 9); // the rest is still computed
  for (const x of v.values()) assert.ok(Number.isFinite(x));
  assert.equal(computeDescriptors(await loadRDKit(), "not a smiles"), null);
});

test("disconnected structures: distance indices use pairs within a fragment (CCO.CC: WPATH 4 + 1)", async () => {
  const v = await calc("CCO.CC");
  assert.equal(v.get("WPATH"), 5);
  assert.equal(v.get("nAtom"), 17);
});
