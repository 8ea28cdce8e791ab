/**
 * Geometrical descriptors (CDK recipes) on a `Mol3D`: the atoms
 * present in the container with their coordinates.
 *
 * - GravitationalIndexDescriptor (GRAV-1..3, GRAVH-1..3, GRAV-4..6): Σ m_i m_j / r_ij² with
 *   integer mass numbers of the major isotope, over heavy–heavy bonds (1), all bonds (H), all
 *   heavy-atom pairs (4); √ and ∛ of each.
 * - MomentOfInertiaDescriptor (MOMI-X, -Y, -Z, -XY, -XZ, -YZ, -R): principal moments with exact
 *   major-isotope masses about the centre of mass CDK computes with natural masses, largest first; ratios (1000 when the denominator ≤ 1e-3); ADAPT's
 *   radius of gyration √(2π·1.000138·(I_X I_Y I_Z)^(1/3)/M) with M the formula mass including
 *   hydrogens that are not present (CDK uses √(I_X·1.000138/M) for the geometric mean when
 *   |I_Z| ≤ 1e-5).
 * - LengthOverBreadthDescriptor (LOBMAX, LOBMIN): centre on the centre of mass, nine successive
 *   10° rotations about z, extents in x and y padded by covalent radii; in the input frame (the
 *   conformer generator puts its conformers into their principal-axes frame first).
 * - PetitjeanShapeIndexDescriptor's geomShape: (max − min)/min of the 3D eccentricities.
 */

import type { HDepletedGraph } from "./graph.ts";
import { COVALENT_RADIUS, eigenSym3, elementValue, MAJOR_MASS, type Mol3D } from "./geometry3d.ts";
import { NATURAL_MASS } from "./elements.ts";
import { put, type DescriptorValues } from "./types.ts";

const H_MASS = MAJOR_MASS[0]!;
/** CDK's getTotalExactMass subtracts the electrons of a net charge. */
const ELECTRON_MASS = 0.00054857990946;

/** Integer mass number of the major isotope (CDK `Isotopes.getMajorIsotope(…).getMassNumber()`). */
function massNumber(z: number): number | undefined {
  const m = elementValue(MAJOR_MASS, z);
  return Number.isNaN(m) ? undefined : Math.round(m);
}
/** Exact mass of the major isotope. */
function exactMass(z: number): number | undefined {
  const m = elementValue(MAJOR_MASS, z);
  return Number.isNaN(m) ? undefined : m;
}

function dist2(xyz: Float64Array, i: number, j: number): number {
  const dx = xyz[3 * i]! - xyz[3 * j]!;
  const dy = xyz[3 * i + 1]! - xyz[3 * j + 1]!;
  const dz = xyz[3 * i + 2]! - xyz[3 * j + 2]!;
  return dx * dx + dy * dy + dz * dz;
}

/** GravitationalIndexDescriptor: all nine values, or nothing when an element has no mass. */
export function gravitational(mol: Mol3D, out: DescriptorValues): void {
  const mass = new Float64Array(mol.n);
  for (let i = 0; i < mol.n; i++) {
    const m = massNumber(mol.z[i]!);
    if (m === undefined) return;
    mass[i] = m;
  }
  let heavyBonds = 0;
  let allBonds = 0;
  for (let b = 0; b < mol.m; b++) {
    const i = mol.bondA[b]!;
    const j = mol.bondB[b]!;
    const v = (mass[i]! * mass[j]!) / dist2(mol.xyz, i, j);
    allBonds += v;
    if (mol.z[i] !== 1 && mol.z[j] !== 1) heavyBonds += v;
  }
  let pairs = 0;
  for (let i = 0; i < mol.n; i++) {
    if (mol.z[i] === 1) continue;
    for (let j = i + 1; j < mol.n; j++) {
      if (mol.z[j] === 1) continue;
      pairs += (mass[i]! * mass[j]!) / dist2(mol.xyz, i, j);
    }
  }
  put(out, "GRAV-1", heavyBonds);
  put(out, "GRAV-2", Math.sqrt(heavyBonds));
  put(out, "GRAV-3", Math.cbrt(heavyBonds));
  put(out, "GRAVH-1", allBonds);
  put(out, "GRAVH-2", Math.sqrt(allBonds));
  put(out, "GRAVH-3", Math.cbrt(allBonds));
  put(out, "GRAV-4", pairs);
  put(out, "GRAV-5", Math.sqrt(pairs));
  put(out, "GRAV-6", Math.cbrt(pairs));
}

/** MomentOfInertiaDescriptor; `g` supplies hydrogens that are not present (for MOMI-R's mass). */
export function momentOfInertia(mol: Mol3D, g: HDepletedGraph, out: DescriptorValues): void {
  const n = mol.n;
  const mass = new Float64Array(n);
  let cx = 0;
  let cy = 0;
  let cz = 0;
  let mt = 0;
  for (let i = 0; i < n; i++) {
    const m = exactMass(mol.z[i]!);
    if (m === undefined) return;
    mass[i] = m;
    // CDK's GeometryUtil.get3DCentreOfMass weighs with natural (abundance-averaged) masses.
    const mc = NATURAL_MASS.get(mol.z[i]!);
    if (mc === undefined) return;
    mt += mc;
    cx += mc * mol.xyz[3 * i]!;
    cy += mc * mol.xyz[3 * i + 1]!;
    cz += mc * mol.xyz[3 * i + 2]!;
  }
  if (n === 0) return;
  cx /= mt;
  cy /= mt;
  cz /= mt;
  let xx = 0;
  let yy = 0;
  let zz = 0;
  let xy = 0;
  let xz = 0;
  let yz = 0;
  for (let i = 0; i < n; i++) {
    const m = mass[i]!;
    const x = mol.xyz[3 * i]! - cx;
    const y = mol.xyz[3 * i + 1]! - cy;
    const z = mol.xyz[3 * i + 2]! - cz;
    xx += m * (y * y + z * z);
    yy += m * (x * x + z * z);
    zz += m * (x * x + y * y);
    xy -= m * x * y;
    xz -= m * x * z;
    yz -= m * y * z;
  }
  const { values } = eigenSym3([xx, xy, xz, xy, yy, yz, xz, yz, zz]);
  const [iz, iy, ix] = values;
  put(out, "MOMI-X", ix);
  put(out, "MOMI-Y", iy);
  put(out, "MOMI-Z", iz);
  put(out, "MOMI-XY", Math.abs(iy) < 1e-3 ? 1000 : ix / iy);
  put(out, "MOMI-XZ", Math.abs(iz) < 1e-3 ? 1000 : ix / iz);
  put(out, "MOMI-YZ", Math.abs(iz) < 1e-3 ? 1000 : iy / iz);
  // Formula mass: every heavy atom of the graph plus all its hydrogens (present or implicit).
  let formula = 0;
  for (let i = 0; i < g.n; i++) {
    const m = exactMass(g.z[i]!);
    if (m === undefined) return;
    formula += m + g.h[i]! * H_MASS - g.charge[i]! * ELECTRON_MASS;
  }
  // CDK: pri = (I_X I_Y I_Z)^(1/3), or √(I_X·1.000138/M) when |I_Z| ≤ 1e-5; R = √(2π·pri·1.000138/M).
  const k = 1.000138;
  const pri = Math.abs(iz) > 1e-5 ? Math.pow(ix * iy * iz, 1 / 3) : Math.sqrt((ix * k) / formula);
  const r = Math.sqrt((2 * Math.PI * pri * k) / formula);
  put(out, "MOMI-R", r);
}

/** LengthOverBreadthDescriptor in the input frame; nothing when an element has no radius. */
export function lengthOverBreadth(mol: Mol3D, out: DescriptorValues): void {
  const n = mol.n;
  if (n === 0) return;
  const rad = new Float64Array(n);
  let mt = 0;
  let cx = 0;
  let cy = 0;
  let cz = 0;
  for (let i = 0; i < n; i++) {
    const r = elementValue(COVALENT_RADIUS, mol.z[i]!);
    const m = exactMass(mol.z[i]!);
    if (Number.isNaN(r) || m === undefined) return;
    rad[i] = r;
    mt += m;
    cx += m * mol.xyz[3 * i]!;
    cy += m * mol.xyz[3 * i + 1]!;
    cz += m * mol.xyz[3 * i + 2]!;
  }
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i] = mol.xyz[3 * i]! - cx / mt;
    y[i] = mol.xyz[3 * i + 1]! - cy / mt;
  }
  void cz;
  // CDK: nine times "rotate by 10° about z, then measure" (0° itself is not measured).
  const c = Math.cos(10 * 0.017453292519943295);
  const s = Math.sin(10 * 0.017453292519943295);
  let lobMax = 0;
  let minArea = 1e6;
  let lobAtMinArea = 0;
  for (let step = 0; step < 9; step++) {
    for (let i = 0; i < n; i++) {
      const xi = x[i]!;
      const yi = y[i]!;
      x[i] = c * xi + s * yi; // CDK's matrix [[cos, sin], [−sin, cos]]
      y[i] = -s * xi + c * yi;
    }
    let xmin = 1e30;
    let xmax = -1e30;
    let ymin = 1e30;
    let ymax = -1e30;
    for (let i = 0; i < n; i++) {
      xmin = Math.min(xmin, x[i]! - rad[i]!);
      xmax = Math.max(xmax, x[i]! + rad[i]!);
      ymin = Math.min(ymin, y[i]! - rad[i]!);
      ymax = Math.max(ymax, y[i]! + rad[i]!);
    }
    const lx = xmax - xmin;
    const ly = ymax - ymin;
    let lob = lx / ly;
    if (lob < 1 / lob) lob = 1 / lob;
    if (lob > lobMax) lobMax = lob;
    const area = lx * ly;
    if (area < minArea) {
      minArea = area;
      lobAtMinArea = lob;
    }
  }
  put(out, "LOBMAX", lobMax);
  put(out, "LOBMIN", lobAtMinArea);
}

/** PetitjeanShapeIndexDescriptor's geomShape: (D − R)/R over 3D eccentricities of all atoms present. */
export function geomShape(mol: Mol3D, out: DescriptorValues): void {
  const n = mol.n;
  if (n < 2) return;
  let dmax = 0;
  let rmin = Infinity;
  for (let i = 0; i < n; i++) {
    let e = 0;
    for (let j = 0; j < n; j++) if (j !== i) e = Math.max(e, dist2(mol.xyz, i, j));
    e = Math.sqrt(e);
    if (e > dmax) dmax = e;
    if (e < rmin) rmin = e;
  }
  if (rmin > 0) put(out, "geomShape", (dmax - rmin) / rmin);
}
