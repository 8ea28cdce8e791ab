/**
 * Registry of every physico-chemical descriptor the service knows: id, pc_type, lib and value
 * names, so that the HTTP layer can list them (`GET /algorithm/pc`) and validate `pc_type` /
 * `lib`. Library `cdk` holds the 41 CDK classes lazar exposed (263 values); library `rdkit` the
 * 43 RDKit MinimalLib values (docs/descriptors.md "Categories and libraries").
 *
 * The 2D CDK classes carry their computation (modules constitutional, electronic,
 * topological, hybrid). The 3D classes (geometrical, cpsa, WHIM) carry a `compute3D` on the
 * context's conformer (modules geometrical, cpsa, whim; coordinates from conformer.ts or
 * given); PetitjeanShapeIndex's geomShape is computed by `computeForMol` when a conformer is
 * available (see index.ts).
 */

import { CONSTITUTIONAL } from "./constitutional.ts";
import { cpsa } from "./cpsa.ts";
import { gravitational, lengthOverBreadth, momentOfInertia } from "./geometrical.ts";
import { whim } from "./whim.ts";
import { ELECTRONIC } from "./electronic.ts";
import { HYBRID } from "./hybrid.ts";
import { RDKIT_DESCRIPTORS } from "./rdkitlib.ts";
import { TOPOLOGICAL } from "./topological.ts";
import { LIBS, PC_TYPES, type Cdk3DDescriptor, type CdkDescriptor, type DescriptorDef, type Lib, type PcType } from "./types.ts";

/** The 2D CDK-compatible descriptors with their computations, in CDK/lazar order per category. */
export const CDK_2D: readonly CdkDescriptor[] = [...CONSTITUTIONAL, ...ELECTRONIC, ...TOPOLOGICAL, ...HYBRID];

const whimNames = ["Wlambda1", "Wlambda2", "Wlambda3", "Wnu1", "Wnu2", "Wgamma1", "Wgamma2", "Wgamma3", "Weta1", "Weta2", "Weta3", "WT", "WA", "WV", "WK", "WG", "WD"].map(
  (v) => `${v}.unity`,
);
const cpsa3D = [
  ...["PPSA", "PNSA", "DPSA", "FPSA", "FNSA", "WPSA", "WNSA"].flatMap((p) => [1, 2, 3].map((k) => `${p}-${k}`)),
  "RPCG", "RNCG", "RPCS", "RNCS", "THSA", "TPSA", "RHSA", "RPSA",
];
const def3D = (id: string, title: string, pcType: PcType, values: string[], compute3D: Cdk3DDescriptor["compute3D"]): Cdk3DDescriptor => ({
  id,
  title,
  pcType,
  lib: "cdk",
  values,
  needs3D: values,
  compute3D,
});

/**
 * CDK classes that need 3D coordinates, computed on all atoms present in the 3D structure
 * (the generated conformers include hydrogens; lazar 2012 stripped them first).
 */
export const CDK_3D: readonly Cdk3DDescriptor[] = [
  def3D("LengthOverBreadthDescriptor", "Length over breadth (3D)", "geometrical", ["LOBMAX", "LOBMIN"], (_ctx, mol, out) => lengthOverBreadth(mol, out)),
  def3D(
    "GravitationalIndexDescriptor",
    "Gravitational indices (3D)",
    "geometrical",
    ["GRAV-1", "GRAV-2", "GRAV-3", "GRAVH-1", "GRAVH-2", "GRAVH-3", "GRAV-4", "GRAV-5", "GRAV-6"],
    (_ctx, mol, out) => gravitational(mol, out),
  ),
  def3D(
    "MomentOfInertiaDescriptor",
    "Principal moments of inertia (3D)",
    "geometrical",
    ["MOMI-X", "MOMI-Y", "MOMI-Z", "MOMI-XY", "MOMI-XZ", "MOMI-YZ", "MOMI-R"],
    (ctx, mol, out) => momentOfInertia(mol, ctx.g, out),
  ),
  def3D("CPSADescriptor", "Charged partial surface areas (3D)", "cpsa", cpsa3D, (ctx, mol, out) => {
    const q = mol.explicitH ? ctx.gmExplicitH : ctx.gmHeavy;
    if (q !== null) cpsa(mol, q, out);
  }),
  def3D("WHIMDescriptor", "WHIM indices, unit weights (3D)", "hybrid", whimNames, (_ctx, mol, out) => whim(mol, out)),
];

/** Every descriptor: CDK 2D, CDK 3D, RDKit. */
export const DESCRIPTORS: readonly DescriptorDef[] = [...CDK_2D, ...CDK_3D, ...RDKIT_DESCRIPTORS];

export function isPcType(s: string): s is PcType {
  return (PC_TYPES as readonly string[]).includes(s);
}
export function isLib(s: string): s is Lib {
  return (LIBS as readonly string[]).includes(s);
}

/** Value names for the given pc_types and libs, in registry order. */
export function valueNames(pcTypes: Iterable<PcType> = PC_TYPES, libs: Iterable<Lib> = LIBS): string[] {
  const pcs = new Set(pcTypes);
  const ls = new Set(libs);
  return DESCRIPTORS.filter((d) => pcs.has(d.pcType) && ls.has(d.lib)).flatMap((d) => d.values);
}

/**
 * lazar's feature name for a value name: `/ . \ ( ) { } [ ]` replaced by `_`
 * (`khs.sCH3` → `khs_sCH3`, `Wlambda1.unity` → `Wlambda1_unity`).
 */
export function featureName(valueName: string): string {
  return valueName.replace(/[/.\\(){}[\]]/g, "_");
}

export { LIBS, PC_TYPES };
export type { Cdk3DDescriptor, DescriptorDef, Lib, PcType };
