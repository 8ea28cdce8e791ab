/**
 * 3D molecule representation shared by the 3D descriptors (geometrical.ts, cpsa.ts, whim.ts)
 * and the conformer generator (conformer.ts), plus small linear-algebra helpers.
 *
 * A `Mol3D` holds the atoms *present in the container* (CDK's "all atoms in container"): either
 * every atom including hydrogens (what conformer.ts produces), or only the heavy atoms (lazar's
 * 2012 pipeline stripped hydrogens before CDK saw the conformer). Each atom is linked to the
 * `HDepletedGraph` the 2D code uses: a heavy atom by its graph index, a hydrogen by the
 * graph index of the heavy atom it sits on, so that per-atom quantities of the 2D context
 * (CDK-GM charges) can be looked up.
 */

import { jacobiEigen, type JacobiOptions } from "../../numeric/jacobi.ts";
import type { HDepletedGraph } from "./graph.ts";

export interface Mol3D {
  /** Number of atoms present (with coordinates). */
  readonly n: number;
  /** Atomic number per atom. */
  readonly z: Uint8Array;
  /** Coordinates x0 y0 z0 x1 … (Å). */
  readonly xyz: Float64Array;
  /** Bonds between present atoms (indices into the atom arrays). */
  readonly m: number;
  readonly bondA: Int32Array;
  readonly bondB: Int32Array;
  /** For a heavy atom: its index in the H-depleted graph; for a hydrogen: −1. */
  readonly graphIndex: Int32Array;
  /** For a hydrogen: graph index of the heavy atom it is bonded to (−1 when none); −1 for heavy atoms. */
  readonly owner: Int32Array;
  /** True when the hydrogens of the graph are present as atoms (CDK computes with them). */
  readonly explicitH: boolean;
}

/**
 * Jacobi stopping rule for the 3×3 tensors: off-diagonal mass ≤ 1e-30 of the whole (floored at
 * 1e-300 so that the zero matrix stops at once); 60 sweeps at most.
 */
const SYM3_JACOBI: JacobiOptions = { converged: (off, diag) => off <= 1e-30 * Math.max(diag + off, 1e-300), maxSweeps: 60 };

/**
 * Eigen-decomposition of a symmetric 3×3 matrix (row-major, 9 numbers) by cyclic Jacobi.
 * Returns eigenvalues ascending and the eigenvectors as columns of `vectors` (row-major 3×3:
 * vector k = (v[k], v[3+k], v[6+k])).
 */
export function eigenSym3(m: ArrayLike<number>): { values: [number, number, number]; vectors: Float64Array } {
  const a = Float64Array.from(m as ArrayLike<number>);
  const { vectors: v } = jacobiEigen(a, 3, SYM3_JACOBI);
  const order = [0, 1, 2].sort((i, j) => a[i * 4]! - a[j * 4]!);
  const vectors = new Float64Array(9);
  order.forEach((src, dst) => {
    for (let k = 0; k < 3; k++) vectors[k * 3 + dst] = v[k * 3 + src]!;
  });
  return { values: [a[order[0]! * 4]!, a[order[1]! * 4]!, a[order[2]! * 4]!], vectors };
}

/**
 * Rotate coordinates (in place) into the principal-axes frame of the unweighted coordinate
 * covariance, centred on the centroid: x along the largest spread, z along the smallest. The
 * sign of each axis is fixed by making the third moment along it non-negative (then the frame
 * is right-handed by flipping z if needed), so a given structure always gets the same frame.
 */
export function orientPrincipal(xyz: Float64Array): void {
  const n = xyz.length / 3;
  if (n === 0) return;
  let cx = 0;
  let cy = 0;
  let cz = 0;
  for (let i = 0; i < n; i++) {
    cx += xyz[3 * i]!;
    cy += xyz[3 * i + 1]!;
    cz += xyz[3 * i + 2]!;
  }
  cx /= n;
  cy /= n;
  cz /= n;
  const c = new Float64Array(9);
  for (let i = 0; i < n; i++) {
    const x = (xyz[3 * i] = xyz[3 * i]! - cx);
    const y = (xyz[3 * i + 1] = xyz[3 * i + 1]! - cy);
    const z = (xyz[3 * i + 2] = xyz[3 * i + 2]! - cz);
    c[0]! += x * x;
    c[1]! += x * y;
    c[2]! += x * z;
    c[4]! += y * y;
    c[5]! += y * z;
    c[8]! += z * z;
  }
  c[3] = c[1]!;
  c[6] = c[2]!;
  c[7] = c[5]!;
  const { vectors: v } = eigenSym3(c);
  // axes: largest spread first
  const axes = [2, 1, 0].map((k) => [v[k]!, v[3 + k]!, v[6 + k]!] as [number, number, number]);
  for (let a = 0; a < 2; a++) {
    const ax = axes[a]!;
    let m3 = 0;
    for (let i = 0; i < n; i++) {
      const p = xyz[3 * i]! * ax[0] + xyz[3 * i + 1]! * ax[1] + xyz[3 * i + 2]! * ax[2];
      m3 += p * p * p;
    }
    if (m3 < 0) for (let k = 0; k < 3; k++) ax[k] = -ax[k]!;
  }
  const [e0, e1] = axes as [[number, number, number], [number, number, number]];
  axes[2] = [e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2], e0[0] * e1[1] - e0[1] * e1[0]];
  for (let i = 0; i < n; i++) {
    const x = xyz[3 * i]!;
    const y = xyz[3 * i + 1]!;
    const z = xyz[3 * i + 2]!;
    for (let a = 0; a < 3; a++) {
      const ax = axes[a]!;
      xyz[3 * i + a] = x * ax[0] + y * ax[1] + z * ax[2];
    }
  }
}

/**
 * A `Mol3D` for a V2000 molfile whose structure is `g` (the graph RDKit built from the same
 * molfile with hydrogens kept, `get_mol(molblock, '{"removeHs":false}')` → `graphFromJson`):
 * atoms in file order with the file's coordinates. Hydrogens that `graphFromJson` folded into
 * their neighbour's H count are linked to that neighbour; every other atom maps to the graph
 * atom of the same rank. Throws when the molfile and graph disagree.
 */
export function mol3DFromMolblock(g: HDepletedGraph, molblock: string): Mol3D {
  const lines = molblock.split(/\r?\n/);
  const counts = lines[3] ?? "";
  const na = Number(counts.slice(0, 3));
  const nb = Number(counts.slice(3, 6));
  if (!Number.isInteger(na) || !Number.isInteger(nb) || !/V2000/.test(counts)) throw new Error("not a V2000 molfile");
  const sym: string[] = [];
  const xyz = new Float64Array(3 * na);
  for (let i = 0; i < na; i++) {
    const l = lines[4 + i] ?? "";
    xyz[3 * i] = Number(l.slice(0, 10));
    xyz[3 * i + 1] = Number(l.slice(10, 20));
    xyz[3 * i + 2] = Number(l.slice(20, 30));
    sym.push(l.slice(31, 34).trim());
  }
  const bondA = new Int32Array(nb);
  const bondB = new Int32Array(nb);
  const deg = new Int32Array(na);
  for (let b = 0; b < nb; b++) {
    const l = lines[4 + na + b] ?? "";
    bondA[b] = Number(l.slice(0, 3)) - 1;
    bondB[b] = Number(l.slice(3, 6)) - 1;
    deg[bondA[b]!]++;
    deg[bondB[b]!]++;
  }
  const z = new Uint8Array(na);
  for (let i = 0; i < na; i++) {
    const k = SYMBOL_Z.get(sym[i]!);
    if (k === undefined) throw new Error(`unknown element ${sym[i]}`);
    z[i] = k;
  }
  // Same folding rule as graphFromJson (uncharged H with exactly one bond, to a non-H atom).
  const graphIndex = new Int32Array(na).fill(-1);
  const owner = new Int32Array(na).fill(-1);
  const chargeLine = lines.filter((l) => l.startsWith("M  CHG"));
  const charged = new Set<number>();
  for (const l of chargeLine) {
    const f = l.trim().split(/\s+/).slice(3).map(Number);
    for (let k = 0; k + 1 < f.length; k += 2) if (f[k + 1] !== 0) charged.add(f[k]! - 1);
  }
  const folded = new Uint8Array(na);
  for (let b = 0; b < nb; b++) {
    const a = bondA[b]!;
    const c = bondB[b]!;
    if (z[a] === 1 && z[c] !== 1 && deg[a] === 1 && !charged.has(a)) folded[a] = 1;
    if (z[c] === 1 && z[a] !== 1 && deg[c] === 1 && !charged.has(c)) folded[c] = 1;
  }
  let k = 0;
  let anyH = false;
  for (let i = 0; i < na; i++) if (!folded[i]) graphIndex[i] = k++;
  if (k !== g.n) throw new Error(`molfile has ${k} non-folded atoms, graph ${g.n}`);
  for (let i = 0; i < na; i++) if (z[i] === 1) anyH = true;
  for (let b = 0; b < nb; b++) {
    const a = bondA[b]!;
    const c = bondB[b]!;
    if (folded[a]) owner[a] = graphIndex[c]!;
    if (folded[c]) owner[c] = graphIndex[a]!;
  }
  for (let i = 0; i < na; i++) if (graphIndex[i]! >= 0 && g.z[graphIndex[i]!] !== z[i]) throw new Error("molfile and graph atoms differ");
  return { n: na, z, xyz, m: nb, bondA, bondB, graphIndex, owner, explicitH: anyH };
}

/** The heavy atoms of a `Mol3D` only (lazar's 2012 pipeline: CDK saw the conformer without H). */
export function withoutHydrogens(mol: Mol3D): Mol3D {
  const keep: number[] = [];
  const map = new Int32Array(mol.n).fill(-1);
  for (let i = 0; i < mol.n; i++) if (mol.graphIndex[i]! >= 0) map[i] = keep.push(i) - 1;
  const n = keep.length;
  const xyz = new Float64Array(3 * n);
  const z = new Uint8Array(n);
  const graphIndex = new Int32Array(n);
  keep.forEach((i, k) => {
    xyz[3 * k] = mol.xyz[3 * i]!;
    xyz[3 * k + 1] = mol.xyz[3 * i + 1]!;
    xyz[3 * k + 2] = mol.xyz[3 * i + 2]!;
    z[k] = mol.z[i]!;
    graphIndex[k] = mol.graphIndex[i]!;
  });
  const a: number[] = [];
  const b: number[] = [];
  for (let e = 0; e < mol.m; e++) {
    const x = map[mol.bondA[e]!]!;
    const y = map[mol.bondB[e]!]!;
    if (x >= 0 && y >= 0) {
      a.push(x);
      b.push(y);
    }
  }
  return { n, z, xyz, m: a.length, bondA: Int32Array.from(a), bondB: Int32Array.from(b), graphIndex, owner: new Int32Array(n).fill(-1), explicitH: false };
}

const SYMBOL_Z: ReadonlyMap<string, number> = new Map(
  (
    "H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr " +
    "Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb " +
    "Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn"
  )
    .split(" ")
    .map((s, i) => [s, i + 1] as [string, number])
    .concat([
      ["D", 1],
      ["T", 1],
    ]),
);

/*
 * Per-element data of CDK 2.8 (Debian libcdk-java 1:2.8-2: `PeriodicTable.getCovalentRadius`,
 * `PeriodicTable.getVdwRadius`, `Isotopes.getMajorIsotope(…).getExactMass()`), indexed by atomic
 * number − 1 (H … Rn). NaN = CDK has no value (the descriptor needing it is then absent).
 */
const N = NaN;
/** Covalent radii (Å) — LengthOverBreadthDescriptor. */
export const COVALENT_RADIUS: readonly number[] = [
  0.37, 0.32, 1.34, 0.9, 0.82, 0.77, 0.75, 0.73, 0.71, 0.69, 1.54, 1.3, 1.18, 1.11, 1.06, 1.02, 0.99, 0.97, 1.96, 1.74, 1.44,
  1.36, 1.25, 1.27, 1.39, 1.25, 1.26, 1.21, 1.38, 1.31, 1.26, 1.22, 1.19, 1.16, 1.14, 1.1, 2.11, 1.92, 1.62, 1.48, 1.37, 1.45,
  1.56, 1.26, 1.35, 1.31, 1.53, 1.48, 1.44, 1.41, 1.38, 1.35, 1.33, 1.3, 2.25, 1.98, 1.69, N, N, N, N, N, 2.4, N, N, N, N, N, N,
  N, 1.6, 1.5, 1.38, 1.46, 1.59, 1.28, 1.37, 1.28, 1.44, 1.49, 1.48, 1.47, 1.46, 1.46, N, 1.45,
];
/** Van der Waals radii (Å) — CPSA's numerical surface. */
export const VDW_RADIUS: readonly number[] = [
  1.2, 1.4, 2.2, 1.9, 1.8, 1.7, 1.6, 1.55, 1.5, 1.54, 2.4, 2.2, 2.1, 2.1, 1.95, 1.8, 1.8, 1.88, 2.8, 2.4, 2.3, 2.15, 2.05, 2.05,
  2.05, 2.05, N, N, N, 2.1, 2.1, 2.1, 2.05, 1.9, 1.9, 2.02, 2.9, 2.55, 2.4, 2.3, 2.15, 2.1, 2.05, 2.05, N, 2.05, 2.1, 2.2, 2.2,
  2.25, 2.2, 2.1, 2.1, 2.16, 3.0, 2.7, 2.5, 2.48, 2.47, 2.45, 2.43, 2.42, 2.4, 2.38, 2.37, 2.35, 2.33, 2.32, 2.3, 2.28, 2.27,
  2.25, 2.2, 2.1, 2.05, N, N, 2.05, 2.1, 2.05, 2.2, 2.3, 2.3, N, N, N,
];
/** Exact mass of the major isotope (u) — MomentOfInertia, centre of mass; mass number = rounded. */
export const MAJOR_MASS: readonly number[] = [
  1.007825032, 4.002603254, 7.01600455, 9.0121822, 11.0093054, 12.0, 14.003074, 15.99491462, 18.99840322, 19.99244018,
  22.98976928, 23.9850417, 26.98153863, 27.97692653, 30.97376163, 31.972071, 34.96885268, 39.96238312, 38.96370668,
  39.96259098, 44.9559119, 47.9479463, 50.9439595, 51.9405075, 54.9380451, 55.9349375, 58.933195, 57.9353429, 62.9295975,
  63.9291422, 68.9255736, 73.9211778, 74.9215965, 79.9165213, 78.9183371, 83.911507, 84.91178974, 87.9056121, 88.9058483,
  89.9047044, 92.9063781, 97.9054082, N, 101.9043493, 102.905504, 105.903486, 106.905097, 113.9033585, 114.903878,
  119.9021947, 120.9038157, 129.9062244, 126.904473, 131.9041535, 132.9054519, 137.9052472, 138.9063533, 139.9054387,
  140.9076528, 141.9077233, N, 151.9197324, 152.9212303, 157.9241039, 158.9253468, 163.9291748, 164.9303221, 165.9302931,
  168.9342133, 173.9388621, 174.9407718, 179.94655, 180.9479958, 183.9509312, 186.9557531, 191.9614807, 192.9629264,
  194.9647911, 196.9665687, 201.970643, 204.9744275, 207.9766521, 208.9803987, N, N, N,
];

/** Table lookup by atomic number; NaN when unknown. */
export function elementValue(table: readonly number[], z: number): number {
  return z >= 1 && z <= table.length ? table[z - 1]! : NaN;
}
