/**
 * 3D coordinates for the 3D descriptors: distance geometry followed by a short force-field
 * clean-up, in pure TypeScript (RDKit MinimalLib's WASM build has no embedding — its
 * `set_new_coords` only makes 2D depiction coordinates — and openchemlib's conformer generator
 * is ≈ 130 ms/mol median with a tail of seconds).
 *
 * 1. All atoms, hydrogens included (heavy atoms in graph order, then each heavy atom's H).
 * 2. Bounds matrix: 1-2 from covalent radii and bond order (Pauling's order correction), 1-3
 *    from ideal angles by coordination and hybridisation with ring-size angles (3- to 7-rings;
 *    a planar atom's angles sum to 360°), 1-4 from the cis/trans limits (fixed cis or trans
 *    across aromatic and ring double bonds), all other lower bounds from scaled van der Waals
 *    sums; upper bounds from triangle smoothing (Floyd–Warshall).
 * 3. Random distances within the bounds (seeded PRNG) → metric matrix → 4D coordinates from
 *    its four dominant eigenpairs (approximate, by subspace iteration: numeric/subspace-iteration.ts).
 * 4. L-BFGS (numeric/lbfgs.ts) on the bounds-violation error (4D, then with a penalty on the
 *    fourth dimension).
 * 5. L-BFGS on a small force field in 3D: harmonic bonds and 1-3 distances, flat-bottom
 *    bounds for all other pairs (van der Waals repulsion, cis/trans), squared volumes that keep
 *    sp2 centres and the four atoms around double/aromatic/amide bonds planar.
 * 6. Quality check (bond lengths, 1-3 distances, clashes, planarity); another attempt with the
 *    next seed when it fails. The result is put into its principal-axes frame.
 *
 * Deterministic for a given seed (the PRNG is ours; no Math.random, no time-dependent
 * branching except the time bound). A molecule that does not finish within `timeLimitMs`
 * gets no conformer (null), so its 3D values are absent. Stereo descriptors of the input
 * (R/S, E/Z) are not enforced: the conformer may be any stereoisomer of the constitution —
 * the geometrical, CPSA and WHIM values are invariant under reflection, and lazar's
 * conformers came from InChIs/SMILES without guaranteed stereo either.
 */

import type { HDepletedGraph } from "./graph.ts";
import { COVALENT_RADIUS, elementValue, orientPrincipal, VDW_RADIUS, type Mol3D } from "./geometry3d.ts";
import { DeadlineExceeded } from "../../numeric/deadline.ts";
import { lbfgs, type Objective } from "../../numeric/lbfgs.ts";
import { mulberry32Unit } from "../../numeric/random.ts";
import { topEigenpairs } from "../../numeric/subspace-iteration.ts";

export interface ConformerOptions {
  /** PRNG seed (default 42). Same seed, same molecule ⇒ same coordinates. */
  readonly seed?: number;
  /** Wall-clock bound for one molecule, ms (default 500). */
  readonly timeLimitMs?: number;
  /** Embedding attempts before giving up (default 6). */
  readonly maxAttempts?: number;
  /** Molecules with more atoms (hydrogens included) get no conformer (default 600). */
  readonly maxAtoms?: number;
}

export interface ConformerInfo {
  /** Attempts used (1 = the first embedding passed the checks). */
  attempts: number;
  /** Largest deviation of a bond length from its ideal value (Å). */
  maxBondDeviation: number;
  /** Final force-field energy. */
  energy: number;
  /** Why no conformer was produced. */
  failure?: "timeout" | "too-large" | "embedding";
}

/** QG_CONF_DEBUG=1 prints why an embedding failed the quality check. */
const DEBUG = typeof process !== "undefined" && process.env["QG_CONF_DEBUG"] === "1";


// ---------------------------------------------------------------------------------------------
// Molecule with explicit hydrogens

interface FullMol {
  n: number; // all atoms
  nHeavy: number;
  z: Uint8Array;
  charge: Int8Array;
  owner: Int32Array; // H → heavy graph index; heavy → −1
  bondA: Int32Array;
  bondB: Int32Array;
  /** 1, 2, 3, or 4 = aromatic; 5 = "1.5" (charge-separated N–O of nitro groups etc.) */
  bondType: Uint8Array;
  nbr: number[][];
  nbrBond: number[][];
  arom: Uint8Array;
}

function expandHydrogens(g: HDepletedGraph): FullMol {
  let nH = 0;
  for (let i = 0; i < g.n; i++) nH += g.h[i]!;
  const n = g.n + nH;
  const z = new Uint8Array(n);
  const charge = new Int8Array(n);
  const owner = new Int32Array(n).fill(-1);
  const arom = new Uint8Array(n);
  const m = g.m + nH;
  const bondA = new Int32Array(m);
  const bondB = new Int32Array(m);
  const bondType = new Uint8Array(m);
  for (let i = 0; i < g.n; i++) {
    z[i] = g.z[i]!;
    charge[i] = g.charge[i]!;
    arom[i] = g.arom[i]!;
  }
  for (let b = 0; b < g.m; b++) {
    bondA[b] = g.bondA[b]!;
    bondB[b] = g.bondB[b]!;
    bondType[b] = g.bondArom[b] ? 4 : Math.max(1, g.order[b]!);
  }
  let k = g.n;
  let e = g.m;
  for (let i = 0; i < g.n; i++) {
    for (let t = 0; t < g.h[i]!; t++) {
      z[k] = 1;
      owner[k] = i;
      bondA[e] = i;
      bondB[e] = k;
      bondType[e] = 1;
      k++;
      e++;
    }
  }
  const nbr: number[][] = Array.from({ length: n }, () => []);
  const nbrBond: number[][] = Array.from({ length: n }, () => []);
  for (let b = 0; b < m; b++) {
    nbr[bondA[b]!]!.push(bondB[b]!);
    nbrBond[bondA[b]!]!.push(b);
    nbr[bondB[b]!]!.push(bondA[b]!);
    nbrBond[bondB[b]!]!.push(b);
  }
  // Charge-separated N(+)–O(−) / N(+)=O (nitro, N-oxides): both bonds are ≈ 1.5.
  for (let b = 0; b < g.m; b++) {
    const a = bondA[b]!;
    const c = bondB[b]!;
    for (const [x, y] of [
      [a, c],
      [c, a],
    ] as const) {
      if (z[x] === 7 && charge[x] === 1 && z[y] === 8 && nbr[y]!.length === 1) {
        const hasOminus = nbr[x]!.some((o) => z[o] === 8 && charge[o] === -1 && nbr[o]!.length === 1);
        if (hasOminus && (bondType[b] === 2 || charge[y] === -1)) bondType[b] = 5;
      }
    }
  }
  return { n, nHeavy: g.n, z, charge, owner, bondA, bondB, bondType, nbr, nbrBond, arom };
}

// ---------------------------------------------------------------------------------------------
// Ideal geometry

/** Bond radii (Å) tuned so that r_i + r_j reproduces common single bonds (C–C 1.53, C–N 1.47, C–O 1.43, C–S 1.82, C–Cl 1.76 …). */
const BOND_RADIUS: ReadonlyMap<number, number> = new Map([
  [1, 0.32], [5, 0.83], [6, 0.765], [7, 0.705], [8, 0.665], [9, 0.59], [14, 1.11], [15, 1.07], [16, 1.055], [17, 0.995],
  [33, 1.2], [34, 1.2], [35, 1.175], [53, 1.375],
]);
/** X–H bond lengths (Å). */
const XH_LENGTH: ReadonlyMap<number, number> = new Map([
  [6, 1.09], [7, 1.01], [8, 0.96], [16, 1.34], [15, 1.42], [5, 1.19], [14, 1.48], [9, 0.92], [17, 1.27], [35, 1.41], [53, 1.61], [34, 1.47],
]);

function bondRadius(z: number): number {
  const r = BOND_RADIUS.get(z);
  if (r !== undefined) return r;
  const c = elementValue(COVALENT_RADIUS, z);
  return Number.isNaN(c) ? 1.5 : c;
}

function vdw(z: number): number {
  if (z === 1) return 1.1;
  const r = elementValue(VDW_RADIUS, z);
  return Number.isNaN(r) ? 2.0 : r;
}

const enum Hyb {
  SP = 1,
  SP2 = 2,
  SP3 = 3,
  /** five or more neighbours */
  HYPER = 5,
}

function hybridisation(mol: FullMol): Uint8Array {
  const n = mol.n;
  const hyb = new Uint8Array(n);
  const nDouble = new Uint8Array(n);
  const nTriple = new Uint8Array(n);
  const pi = new Uint8Array(n);
  for (let b = 0; b < mol.bondA.length; b++) {
    const t = mol.bondType[b]!;
    for (const a of [mol.bondA[b]!, mol.bondB[b]!]) {
      if (t === 2) nDouble[a]++;
      if (t === 3) nTriple[a]++;
      if (t >= 2) pi[a] = 1;
    }
  }
  for (let i = 0; i < n; i++) {
    const deg = mol.nbr[i]!.length;
    if (deg >= 5) hyb[i] = Hyb.HYPER;
    else if (deg === 4) hyb[i] = Hyb.SP3;
    else if (nTriple[i]! > 0 || (nDouble[i]! >= 2 && deg === 2)) hyb[i] = Hyb.SP;
    else if (pi[i] || mol.arom[i]) hyb[i] = Hyb.SP2;
    else hyb[i] = Hyb.SP3;
  }
  // Conjugated N with three neighbours (amides, anilines, enamines, sulfonamides excluded): planar.
  for (let i = 0; i < n; i++) {
    if (mol.z[i] !== 7 || hyb[i] !== Hyb.SP3 || mol.nbr[i]!.length !== 3) continue;
    if (mol.nbr[i]!.some((j) => pi[j] && mol.z[j] !== 16 && mol.z[j] !== 15 && hyb[j] !== Hyb.SP3)) hyb[i] = Hyb.SP2;
  }
  return hyb;
}

/** Ideal length of bond b. */
function idealBondLength(mol: FullMol, hyb: Uint8Array, b: number): number {
  const i = mol.bondA[b]!;
  const j = mol.bondB[b]!;
  const zi = mol.z[i]!;
  const zj = mol.z[j]!;
  if (zi === 1 || zj === 1) {
    const x = zi === 1 ? zj : zi;
    if (x === 1) return 0.74;
    return XH_LENGTH.get(x) ?? bondRadius(x) + 0.32;
  }
  let d = bondRadius(zi) + bondRadius(zj);
  const t = mol.bondType[b]!;
  if (t === 2) {
    d -= 0.2;
    if ((zi === 16 || zi === 15) && zj === 8) d -= 0.08;
    else if ((zj === 16 || zj === 15) && zi === 8) d -= 0.08;
  } else if (t === 3) d -= 0.34;
  else if (t === 4) d -= 0.125;
  else if (t === 5) d -= 0.16;
  else if (hyb[i] !== Hyb.SP3 && hyb[j] !== Hyb.SP3 && hyb[i] !== Hyb.HYPER && hyb[j] !== Hyb.HYPER) d -= 0.05;
  return d;
}

/** Ideal angle (degrees) at an atom with `deg` neighbours and hybridisation `h`, no ring strain. */
function defaultAngle(z: number, h: number, deg: number, conjugated: boolean): number {
  if (h === Hyb.SP) return 180;
  if (h === Hyb.SP2) return 120;
  if (deg >= 4) return 109.47;
  if (deg === 3) return z === 7 ? 107 : z === 16 ? 104 : 109.47; // pyramidal
  // two neighbours, sp3
  if (z === 8) return conjugated ? 117 : 109.5;
  if (z === 16) return 100;
  if (z === 7) return 107;
  return 109.47;
}

function ringAngle(size: number, h: number): number {
  if (size === 3) return 60;
  if (size === 4) return h === Hyb.SP2 ? 90 : 88;
  if (size === 5) return h === Hyb.SP2 ? 108 : 104.5;
  if (h === Hyb.SP2 && size <= 7) return (180 * (size - 2)) / size;
  return h === Hyb.SP2 ? 120 : 109.47;
}

/** Length of the shortest path from a to b that avoids atom `skip` (≤ maxLen bonds), or −1. */
function pathAvoiding(mol: FullMol, a: number, b: number, skip: number, maxLen: number, dist: Int32Array, queue: Int32Array, skip2 = -1): number {
  dist.fill(-1);
  dist[a] = 0;
  dist[skip] = -2;
  if (skip2 >= 0) dist[skip2] = -2;
  let head = 0;
  let tail = 0;
  queue[tail++] = a;
  while (head < tail) {
    const v = queue[head++]!;
    const dv = dist[v]!;
    if (dv >= maxLen) break;
    for (const w of mol.nbr[v]!) {
      if (dist[w] !== -1) continue;
      if (mol.z[w] === 1) continue;
      dist[w] = dv + 1;
      if (w === b) return dv + 1;
      queue[tail++] = w;
    }
  }
  return -1;
}

interface Geometry {
  /** Bonds: ideal lengths. */
  bondLen: Float64Array;
  /** Angle terms i–j–k as 1-3 distance targets. */
  angA: Int32Array;
  angB: Int32Array;
  angD: Float64Array;
  angLo: Float64Array;
  angHi: Float64Array;
  /** Planarity quadruples (centre-based volumes). */
  planar: Int32Array; // 4 per term
  hyb: Uint8Array;
}

function geometry(mol: FullMol): Geometry {
  const hyb = hybridisation(mol);
  const mB = mol.bondA.length;
  const bondLen = new Float64Array(mB);
  for (let b = 0; b < mB; b++) bondLen[b] = idealBondLength(mol, hyb, b);
  const blen = (i: number, j: number): number => {
    const k = mol.nbr[i]!.indexOf(j);
    return bondLen[mol.nbrBond[i]![k]!]!;
  };
  const pi = new Uint8Array(mol.n);
  for (let i = 0; i < mol.n; i++) pi[i] = hyb[i] === Hyb.SP2 || hyb[i] === Hyb.SP ? 1 : 0;
  const angA: number[] = [];
  const angB: number[] = [];
  const angD: number[] = [];
  const angLo: number[] = [];
  const angHi: number[] = [];
  const planar: number[] = [];
  const dist = new Int32Array(mol.n);
  const queue = new Int32Array(mol.n);
  for (let j = 0; j < mol.n; j++) {
    const nb = mol.nbr[j]!;
    const deg = nb.length;
    if (deg < 2) continue;
    const h = hyb[j]!;
    const conj = nb.some((x) => pi[x]);
    const pairs: [number, number, number][] = []; // i, k, ring size (0 = none)
    for (let p = 0; p < deg; p++) {
      for (let q = p + 1; q < deg; q++) {
        const i = nb[p]!;
        const k = nb[q]!;
        let ring = 0;
        if (mol.z[i] !== 1 && mol.z[k] !== 1 && h !== Hyb.HYPER) {
          const len = pathAvoiding(mol, i, k, j, 6, dist, queue);
          if (len > 0 && len + 2 <= 8) ring = len + 2;
        }
        pairs.push([i, k, ring]);
      }
    }
    const angles = new Float64Array(pairs.length);
    const tol = new Float64Array(pairs.length);
    const base = defaultAngle(mol.z[j]!, h, deg, conj);
    const smallRing = pairs.some(([, , r]) => r === 3 || r === 4);
    pairs.forEach(([, , r], t) => {
      if (h === Hyb.HYPER) {
        angles[t] = NaN;
        return;
      }
      if (r > 0 && r <= 7) {
        angles[t] = ringAngle(r, h);
        tol[t] = 4;
      } else {
        angles[t] = NaN; // assigned below
      }
    });
    if (h === Hyb.SP2 && deg === 3) {
      // planar: the angles sum to 360°; distribute what the ring angles leave
      let sum = 0;
      let free = 0;
      for (let t = 0; t < 3; t++) {
        if (Number.isNaN(angles[t]!)) free++;
        else sum += angles[t]!;
      }
      if (free > 0) {
        const rest = Math.max(90, (360 - sum) / free);
        for (let t = 0; t < 3; t++) if (Number.isNaN(angles[t]!)) {
          angles[t] = Math.min(rest, 175);
          tol[t] = 4;
        }
      }
    } else {
      for (let t = 0; t < pairs.length; t++) {
        if (!Number.isNaN(angles[t]!) || h === Hyb.HYPER) continue;
        if (smallRing && h === Hyb.SP3) {
          angles[t] = 116;
          tol[t] = 10;
        } else {
          angles[t] = base;
          tol[t] = h === Hyb.SP ? 4 : 6;
        }
      }
    }
    pairs.forEach(([i, k], t) => {
      const a = blen(j, i);
      const c = blen(j, k);
      const ang = angles[t]!;
      const law = (deg2: number): number => {
        const th = (Math.min(180, Math.max(0, deg2)) * Math.PI) / 180;
        return Math.sqrt(Math.max(0, a * a + c * c - 2 * a * c * Math.cos(th)));
      };
      angA.push(i);
      angB.push(k);
      if (Number.isNaN(ang)) {
        // hypervalent centre: anything from 80° to 180°
        angD.push(NaN);
        angLo.push(law(80));
        angHi.push(law(180));
      } else {
        angD.push(law(ang));
        angLo.push(law(ang - tol[t]!));
        angHi.push(law(ang + tol[t]!));
      }
    });
    if (h === Hyb.SP2 && deg === 3) planar.push(j, nb[0]!, nb[1]!, nb[2]!);
  }
  // Planarity across double, aromatic and amide-like bonds: volumes of (i, j, k, l).
  for (let b = 0; b < mB; b++) {
    const j = mol.bondA[b]!;
    const k = mol.bondB[b]!;
    const t = mol.bondType[b]!;
    // amide-like C–N: a neutral planar N bonded to an sp2 atom
    const conjSingle =
      t === 1 && hyb[j] === Hyb.SP2 && hyb[k] === Hyb.SP2 && ((mol.z[j] === 7 && mol.charge[j] === 0) || (mol.z[k] === 7 && mol.charge[k] === 0));
    if (!(t === 2 || t === 4 || t === 5 || conjSingle)) continue;
    if (hyb[j] === Hyb.SP || hyb[k] === Hyb.SP || hyb[j] === Hyb.SP3 || hyb[k] === Hyb.SP3) continue;
    for (const i of mol.nbr[j]!) {
      if (i === k) continue;
      for (const l of mol.nbr[k]!) {
        if (l === j || l === i) continue;
        planar.push(i, j, k, l);
      }
    }
  }
  return {
    bondLen,
    angA: Int32Array.from(angA),
    angB: Int32Array.from(angB),
    angD: Float64Array.from(angD),
    angLo: Float64Array.from(angLo),
    angHi: Float64Array.from(angHi),
    planar: Int32Array.from(planar),
    hyb,
  };
}

// ---------------------------------------------------------------------------------------------
// Bounds

interface Bounds {
  n: number;
  lo: Float64Array; // n×n, symmetric
  hi: Float64Array;
  /** Topological relation: 1 bonded, 2 1-3, 3 1-4, 4 farther. */
  rel: Uint8Array;
  /** The unsmoothed bounds for pairs of relation ≥ 3 (force-field flat-bottom terms). */
  lo0: Float64Array;
  hi0: Float64Array;
}

function cisTrans(a: number, b: number, c: number, alpha: number, beta: number): [number, number] {
  // j at origin, k on +x; i = a(cos α, sin α, 0); l = k + c(−cos β, sin β cos φ, sin β sin φ)
  const ix = a * Math.cos(alpha);
  const iy = a * Math.sin(alpha);
  const lx = b - c * Math.cos(beta);
  const ly = c * Math.sin(beta);
  const cis = Math.hypot(lx - ix, ly - iy);
  const trans = Math.hypot(lx - ix, -ly - iy);
  return [cis, trans];
}

function buildBounds(mol: FullMol, geo: Geometry, deadline: number): Bounds {
  const n = mol.n;
  const lo = new Float64Array(n * n);
  const hi = new Float64Array(n * n);
  const rel = new Uint8Array(n * n).fill(4);
  const cap = 12 + 1.6 * mol.nHeavy;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let s = vdw(mol.z[i]!) + vdw(mol.z[j]!);
      s *= mol.z[i] === 1 || mol.z[j] === 1 ? 0.8 : 0.75;
      lo[i * n + j] = lo[j * n + i] = s;
      hi[i * n + j] = hi[j * n + i] = cap;
    }
    rel[i * n + i] = 0;
  }
  const set = (i: number, j: number, l: number, u: number, r: number): void => {
    lo[i * n + j] = lo[j * n + i] = l;
    hi[i * n + j] = hi[j * n + i] = u;
    rel[i * n + j] = rel[j * n + i] = r;
  };
  for (let b = 0; b < mol.bondA.length; b++) {
    const d = geo.bondLen[b]!;
    set(mol.bondA[b]!, mol.bondB[b]!, d - 0.01, d + 0.01, 1);
  }
  for (let t = 0; t < geo.angA.length; t++) {
    const i = geo.angA[t]!;
    const k = geo.angB[t]!;
    if (rel[i * n + k]! <= 2) {
      // two routes (4-ring diagonal): keep the intersection if consistent
      if (rel[i * n + k] === 2) {
        const l = Math.max(lo[i * n + k]!, geo.angLo[t]!);
        const u = Math.min(hi[i * n + k]!, geo.angHi[t]!);
        if (l <= u) set(i, k, l, u, 2);
      }
      continue;
    }
    set(i, k, geo.angLo[t]!, geo.angHi[t]!, 2);
  }
  // 1-4
  const angleAt = (i: number, j: number, k: number): number => {
    // ideal angle i-j-k from the 1-3 bound midpoint
    const a = bondLen(mol, geo, j, i);
    const c = bondLen(mol, geo, j, k);
    const d = 0.5 * (lo[i * n + k]! + hi[i * n + k]!);
    const cos = (a * a + c * c - d * d) / (2 * a * c);
    return Math.acos(Math.max(-1, Math.min(1, cos)));
  };
  const ringBondCache = new Map<number, boolean>();
  const dist = new Int32Array(n);
  const queue = new Int32Array(n);
  for (let b = 0; b < mol.bondA.length; b++) {
    if (performance.now() > deadline) throw new DeadlineExceeded();
    const j = mol.bondA[b]!;
    const k = mol.bondB[b]!;
    if (mol.nbr[j]!.length < 2 || mol.nbr[k]!.length < 2) continue;
    const t = mol.bondType[b]!;
    const planarBond = (t === 2 || t === 4 || t === 5) && geo.hyb[j] === Hyb.SP2 && geo.hyb[k] === Hyb.SP2;
    for (const i of mol.nbr[j]!) {
      if (i === k) continue;
      for (const l of mol.nbr[k]!) {
        if (l === j || l === i) continue;
        if (rel[i * n + l]! <= 3) continue;
        if (geo.hyb[j] === Hyb.SP || geo.hyb[k] === Hyb.SP || geo.hyb[j] === Hyb.HYPER || geo.hyb[k] === Hyb.HYPER) continue;
        const a = bondLen(mol, geo, j, i);
        const bb = bondLen(mol, geo, j, k);
        const c = bondLen(mol, geo, k, l);
        const [cis, trans] = cisTrans(a, bb, c, angleAt(i, j, k), angleAt(j, k, l));
        let lo4 = cis - 0.08;
        let hi4 = trans + 0.08;
        if (planarBond) {
          // In a ring of ≤ 7 atoms through i-j-k-l the torsion is cis; across a ring bond
          // with one substituent outside, trans (aromatic rings, ring double bonds).
          let ringIL = false;
          if (mol.z[i] !== 1 && mol.z[l] !== 1) {
            const len = pathAvoiding(mol, i, l, j, 4, dist, queue, k);
            ringIL = len > 0 && len + 3 <= 7;
          }
          let ringJK = ringBondCache.get(b);
          if (ringJK === undefined) {
            const len = pathAvoidingBond(mol, j, k, dist, queue, 7);
            ringJK = len > 0;
            ringBondCache.set(b, ringJK);
          }
          if (ringIL) {
            lo4 = cis - 0.05;
            hi4 = cis + 0.08;
          } else if (ringJK) {
            // i, l not in one ring with j–k: trans when either is in a ring with j–k (a
            // substituent opposite a ring atom, or atoms of two fused rings); both outside → cis
            const iInRing = inRingWith(mol, i, j, k, dist, queue);
            const lInRing = inRingWith(mol, l, k, j, dist, queue);
            if (iInRing || lInRing) {
              lo4 = trans - 0.08;
              hi4 = trans + 0.05;
            } else {
              lo4 = cis - 0.05;
              hi4 = cis + 0.08;
            }
          }
        }
        const l0 = Math.max(Math.min(lo4, lo[i * n + l]!), lo4);
        set(i, l, Math.min(l0, hi4), hi4, 3);
      }
    }
  }
  const lo0 = lo.slice();
  const hi0 = hi.slice();
  // triangle smoothing
  for (let k = 0; k < n; k++) {
    if ((k & 15) === 0 && performance.now() > deadline) throw new DeadlineExceeded();
    const rk = k * n;
    for (let i = 0; i < n; i++) {
      if (i === k) continue;
      const ri = i * n;
      const uik = hi[ri + k]!;
      const lik = lo[ri + k]!;
      for (let j = i + 1; j < n; j++) {
        if (j === k) continue;
        const ukj = hi[rk + j]!;
        const u = uik + ukj;
        let uij = hi[ri + j]!;
        if (u < uij) {
          uij = u;
          hi[ri + j] = hi[j * n + i] = u;
        }
        const lkj = lo[rk + j]!;
        const l = Math.max(lik - ukj, lkj - uik);
        if (l > lo[ri + j]!) lo[ri + j] = lo[j * n + i] = l;
        if (lo[ri + j]! > uij) lo[ri + j] = lo[j * n + i] = uij;
      }
    }
  }
  return { n, lo, hi, rel, lo0, hi0 };
}

function bondLen(mol: FullMol, geo: Geometry, i: number, j: number): number {
  const k = mol.nbr[i]!.indexOf(j);
  return geo.bondLen[mol.nbrBond[i]![k]!]!;
}

/** Shortest cycle length through bond j–k (path j → k not using the bond), −1 when none ≤ maxLen. */
function pathAvoidingBond(mol: FullMol, j: number, k: number, dist: Int32Array, queue: Int32Array, maxLen: number): number {
  dist.fill(-1);
  dist[j] = 0;
  let head = 0;
  let tail = 0;
  queue[tail++] = j;
  while (head < tail) {
    const v = queue[head++]!;
    const dv = dist[v]!;
    if (dv >= maxLen) break;
    for (const w of mol.nbr[v]!) {
      if (v === j && w === k) continue;
      if (dist[w] !== -1 || mol.z[w] === 1) continue;
      dist[w] = dv + 1;
      if (w === k) return dv + 2;
      queue[tail++] = w;
    }
  }
  return -1;
}

/**
 * Is atom x (a neighbour of j) in a ring of ≤ 7 atoms with the bond j–k? (Planar rings; the
 * 8-atom perimeter of two fused 5-rings is not such a ring.)
 */
function inRingWith(mol: FullMol, x: number, j: number, k: number, dist: Int32Array, queue: Int32Array): boolean {
  if (mol.z[x] === 1) return false;
  const len = pathAvoiding(mol, x, k, j, 5, dist, queue);
  return len > 0 && len + 2 <= 7;
}

// ---------------------------------------------------------------------------------------------
// Objectives (minimised with numeric/lbfgs.ts)

/** L-BFGS settings of every minimisation here: gradient tolerance 1e-3, at most 0.3 Å per coordinate and step. */
const MINIMISE = { gtol: 1e-3, maxStep: 0.3 } as const;

/** Distance-geometry error function over all pairs in `dim` dimensions (+ optional 4th-dim penalty). */
function dgObjective(bd: Bounds, dim: number, w4: number): Objective {
  const n = bd.n;
  const lo2 = new Float64Array(n * n);
  const hi2 = new Float64Array(n * n);
  for (let t = 0; t < n * n; t++) {
    lo2[t] = bd.lo[t]! * bd.lo[t]!;
    hi2[t] = bd.hi[t]! * bd.hi[t]!;
  }
  return (x, grad) => {
    grad.fill(0);
    let e = 0;
    for (let i = 0; i < n; i++) {
      const xi = i * dim;
      for (let j = i + 1; j < n; j++) {
        const xj = j * dim;
        let d2 = 0;
        for (let a = 0; a < dim; a++) {
          const t = x[xi + a]! - x[xj + a]!;
          d2 += t * t;
        }
        const u2 = hi2[i * n + j]!;
        const l2 = lo2[i * n + j]!;
        let c = 0;
        if (d2 > u2) {
          const v = d2 / u2 - 1;
          e += v * v;
          c = (4 * v) / u2; // dE/d(d2) · 2
        } else if (d2 < l2) {
          const s = l2 + d2;
          const v = (2 * l2) / s - 1;
          e += v * v;
          c = 2 * v * ((-2 * l2) / (s * s)) * 2;
        } else continue;
        for (let a = 0; a < dim; a++) {
          const t = (x[xi + a]! - x[xj + a]!) * c;
          grad[xi + a]! += t;
          grad[xj + a]! -= t;
        }
      }
    }
    if (w4 > 0 && dim === 4) {
      for (let i = 0; i < n; i++) {
        const v = x[i * 4 + 3]!;
        e += w4 * v * v;
        grad[i * 4 + 3]! += 2 * w4 * v;
      }
    }
    return e;
  };
}

const K_BOND = 100;
const K_ANGLE = 40;
const K_PAIR = 10;
const K_PLANE = 3;

/** Signed volume (b−a)·((c−a)×(d−a)) and its gradient contributions. */
function volumeTerm(x: Float64Array, a: number, b: number, c: number, d: number, k: number, grad: Float64Array): number {
  const ax = x[3 * a]!;
  const ay = x[3 * a + 1]!;
  const az = x[3 * a + 2]!;
  const ux = x[3 * b]! - ax;
  const uy = x[3 * b + 1]! - ay;
  const uz = x[3 * b + 2]! - az;
  const vx = x[3 * c]! - ax;
  const vy = x[3 * c + 1]! - ay;
  const vz = x[3 * c + 2]! - az;
  const wx = x[3 * d]! - ax;
  const wy = x[3 * d + 1]! - ay;
  const wz = x[3 * d + 2]! - az;
  // v × w, w × u, u × v
  const cx = vy * wz - vz * wy;
  const cy = vz * wx - vx * wz;
  const cz = vx * wy - vy * wx;
  const V = ux * cx + uy * cy + uz * cz;
  const f = 2 * k * V;
  const gbx = cx;
  const gby = cy;
  const gbz = cz;
  const gcx = wy * uz - wz * uy;
  const gcy = wz * ux - wx * uz;
  const gcz = wx * uy - wy * ux;
  const gdx = uy * vz - uz * vy;
  const gdy = uz * vx - ux * vz;
  const gdz = ux * vy - uy * vx;
  grad[3 * b]! += f * gbx;
  grad[3 * b + 1]! += f * gby;
  grad[3 * b + 2]! += f * gbz;
  grad[3 * c]! += f * gcx;
  grad[3 * c + 1]! += f * gcy;
  grad[3 * c + 2]! += f * gcz;
  grad[3 * d]! += f * gdx;
  grad[3 * d + 1]! += f * gdy;
  grad[3 * d + 2]! += f * gdz;
  grad[3 * a]! -= f * (gbx + gcx + gdx);
  grad[3 * a + 1]! -= f * (gby + gcy + gdy);
  grad[3 * a + 2]! -= f * (gbz + gcz + gdz);
  return k * V * V;
}

function ffObjective(mol: FullMol, geo: Geometry, bd: Bounds): Objective {
  const n = mol.n;
  const mB = mol.bondA.length;
  // far pairs with a meaningful lower or upper bound
  const pi: number[] = [];
  const pj: number[] = [];
  const plo: number[] = [];
  const phi: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (bd.rel[i * n + j]! < 3) continue;
      pi.push(i);
      pj.push(j);
      plo.push(bd.lo0[i * n + j]!);
      phi.push(bd.rel[i * n + j] === 3 ? bd.hi0[i * n + j]! : Infinity);
    }
  }
  const PI = Int32Array.from(pi);
  const PJ = Int32Array.from(pj);
  const PLO = Float64Array.from(plo);
  const PHI = Float64Array.from(phi);
  const np = PI.length;
  const dterm = (x: Float64Array, grad: Float64Array, i: number, j: number, target: number, lo: number, hi: number, k: number): number => {
    const dx = x[3 * i]! - x[3 * j]!;
    const dy = x[3 * i + 1]! - x[3 * j + 1]!;
    const dz = x[3 * i + 2]! - x[3 * j + 2]!;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz) || 1e-9;
    let diff: number;
    if (Number.isNaN(target)) {
      if (d < lo) diff = d - lo;
      else if (d > hi) diff = d - hi;
      else return 0;
    } else diff = d - target;
    const c = (2 * k * diff) / d;
    grad[3 * i]! += c * dx;
    grad[3 * i + 1]! += c * dy;
    grad[3 * i + 2]! += c * dz;
    grad[3 * j]! -= c * dx;
    grad[3 * j + 1]! -= c * dy;
    grad[3 * j + 2]! -= c * dz;
    return k * diff * diff;
  };
  return (x, grad) => {
    grad.fill(0);
    let e = 0;
    for (let b = 0; b < mB; b++) e += dterm(x, grad, mol.bondA[b]!, mol.bondB[b]!, geo.bondLen[b]!, 0, 0, K_BOND);
    for (let t = 0; t < geo.angA.length; t++) e += dterm(x, grad, geo.angA[t]!, geo.angB[t]!, geo.angD[t]!, geo.angLo[t]!, geo.angHi[t]!, K_ANGLE);
    for (let t = 0; t < np; t++) {
      const i = PI[t]!;
      const j = PJ[t]!;
      const dx = x[3 * i]! - x[3 * j]!;
      const dy = x[3 * i + 1]! - x[3 * j + 1]!;
      const dz = x[3 * i + 2]! - x[3 * j + 2]!;
      const d2 = dx * dx + dy * dy + dz * dz;
      const lo = PLO[t]!;
      const hi = PHI[t]!;
      if (d2 >= lo * lo && d2 <= hi * hi) continue;
      e += dterm(x, grad, i, j, NaN, lo, hi, K_PAIR);
    }
    const P = geo.planar;
    for (let t = 0; t < P.length; t += 4) e += volumeTerm(x, P[t]!, P[t + 1]!, P[t + 2]!, P[t + 3]!, K_PLANE, grad);
    return e;
  };
}

// ---------------------------------------------------------------------------------------------
// Embedding

function embed(bd: Bounds, rand: () => number, deadline: number): Float64Array {
  const n = bd.n;
  const D2 = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const l = bd.lo[i * n + j]!;
      const u = bd.hi[i * n + j]!;
      const d = l + rand() * (u - l);
      D2[i * n + j] = D2[j * n + i] = d * d;
    }
  }
  let sumAll = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) sumAll += D2[i * n + j]!;
  sumAll /= n * n;
  const d0 = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += D2[i * n + j]!;
    d0[i] = s / n - sumAll;
  }
  const G = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) G[i * n + j] = 0.5 * (d0[i]! + d0[j]! - D2[i * n + j]!);
  const dim = 4;
  const x = new Float64Array(n * dim);
  const { values, vectors } = topEigenpairs(G, n, dim, rand, deadline);
  for (let c = 0; c < dim; c++) {
    const s = Math.sqrt(Math.max(values[c]!, 1e-3));
    for (let i = 0; i < n; i++) x[i * dim + c] = vectors[c * n + i]! * s;
  }
  return x;
}

// ---------------------------------------------------------------------------------------------

interface Quality {
  ok: boolean;
  maxBond: number;
}

function checkQuality(mol: FullMol, geo: Geometry, bd: Bounds, x: Float64Array): Quality {
  const n = mol.n;
  const d = (i: number, j: number): number =>
    Math.hypot(x[3 * i]! - x[3 * j]!, x[3 * i + 1]! - x[3 * j + 1]!, x[3 * i + 2]! - x[3 * j + 2]!);
  let maxBond = 0;
  for (let b = 0; b < mol.bondA.length; b++) maxBond = Math.max(maxBond, Math.abs(d(mol.bondA[b]!, mol.bondB[b]!) - geo.bondLen[b]!));
  let ok = maxBond < 0.08;
  if (!ok && DEBUG) console.error("bond", maxBond);
  for (let t = 0; ok && t < geo.angA.length; t++) {
    const v = d(geo.angA[t]!, geo.angB[t]!);
    if (v < geo.angLo[t]! - 0.25 || v > geo.angHi[t]! + 0.25) {
      ok = false;
      if (DEBUG) console.error("angle", geo.angA[t], geo.angB[t], v, geo.angLo[t], geo.angHi[t]);
    }
  }
  for (let i = 0; ok && i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (bd.rel[i * n + j]! < 3) continue;
      const lo = bd.lo0[i * n + j]!;
      if (d(i, j) < lo - 0.25) {
        if (DEBUG) console.error("clash", i, j, d(i, j), lo, bd.rel[i * n + j]);
        ok = false;
        break;
      }
      if (bd.rel[i * n + j] === 3 && d(i, j) > bd.hi0[i * n + j]! + 0.25) {
        if (DEBUG) console.error("1-4", i, j, d(i, j), bd.hi0[i * n + j]);
        ok = false;
        break;
      }
    }
  }
  return { ok, maxBond };
}

/**
 * A 3D conformer of `g` with all hydrogens, or null (time bound exceeded, molecule too large,
 * or no acceptable embedding). `info`, when given, receives diagnostics.
 */
export function generateConformer(g: HDepletedGraph, options: ConformerOptions = {}, info?: ConformerInfo): Mol3D | null {
  const t0 = performance.now();
  const deadline = t0 + (options.timeLimitMs ?? 500);
  const seed = options.seed ?? 42;
  const maxAttempts = options.maxAttempts ?? 6;
  const stats: ConformerInfo = info ?? { attempts: 0, maxBondDeviation: NaN, energy: NaN };
  stats.attempts = 0;
  const mol = expandHydrogens(g);
  if (mol.n > (options.maxAtoms ?? 600)) {
    stats.failure = "too-large";
    return null;
  }
  if (mol.n === 0) {
    stats.failure = "embedding";
    return null;
  }
  try {
    const geo = geometry(mol);
    const bd = buildBounds(mol, geo, deadline);
    let best: { x: Float64Array; e: number; q: Quality } | null = null;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      stats.attempts = attempt + 1;
      const rand = mulberry32Unit((seed ^ Math.imul(attempt + 1, 0x9e3779b1)) >>> 0);
      let x4: Float64Array;
      if (mol.n === 1) x4 = new Float64Array(4);
      else x4 = embed(bd, rand, deadline);
      // bounds violations in 4D, then squeezing out the fourth dimension, then 3D
      lbfgs(dgObjective(bd, 4, 0), x4, { ...MINIMISE, maxIter: 400, deadline });
      lbfgs(dgObjective(bd, 4, 0.3), x4, { ...MINIMISE, maxIter: 300, deadline });
      const x = new Float64Array(3 * mol.n);
      for (let i = 0; i < mol.n; i++) for (let a = 0; a < 3; a++) x[3 * i + a] = x4[4 * i + a]!;
      lbfgs(dgObjective(bd, 3, 0), x, { ...MINIMISE, maxIter: 200, deadline });
      const e = lbfgs(ffObjective(mol, geo, bd), x, { ...MINIMISE, maxIter: 400, deadline });
      if (DEBUG) console.error(`attempt ${attempt}: ${(performance.now() - t0).toFixed(1)} ms, energy ${e.toFixed(3)}`);
      const q = checkQuality(mol, geo, bd, x);
      if (best === null || (q.ok && !best.q.ok) || (q.ok === best.q.ok && e < best.e)) best = { x, e, q };
      if (q.ok) break;
    }
    if (best === null || best.q.maxBond > 0.15) {
      stats.failure = "embedding";
      return null;
    }
    stats.maxBondDeviation = best.q.maxBond;
    stats.energy = best.e;
    orientPrincipal(best.x);
    const graphIndex = new Int32Array(mol.n).fill(-1);
    for (let i = 0; i < mol.nHeavy; i++) graphIndex[i] = i;
    return {
      n: mol.n,
      z: mol.z,
      xyz: best.x,
      m: mol.bondA.length,
      bondA: mol.bondA,
      bondB: mol.bondB,
      graphIndex,
      owner: mol.owner,
      explicitH: true,
    };
  } catch (e) {
    if (e instanceof DeadlineExceeded) {
      stats.failure = "timeout";
      return null;
    }
    throw e;
  }
}

/**
 * V2000 molfile of a conformer made from `g` by `generateConformer` (bond orders and charges
 * from the graph; hydrogen bonds single) — for inspection and for other programs.
 */
export function conformerMolblock(mol: Mol3D, g: HDepletedGraph, title = ""): string {
  const SYM = "H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I".split(" ");
  const f = (v: number, w: number, p: number): string => v.toFixed(p).padStart(w);
  const lines = [title, "  qsargraph      3D", "", `${f(mol.n, 3, 0)}${f(mol.m, 3, 0)}  0  0  0  0  0  0  0  0999 V2000`];
  for (let i = 0; i < mol.n; i++) {
    const s = SYM[mol.z[i]! - 1] ?? "*";
    lines.push(`${f(mol.xyz[3 * i]!, 10, 4)}${f(mol.xyz[3 * i + 1]!, 10, 4)}${f(mol.xyz[3 * i + 2]!, 10, 4)} ${s.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`);
  }
  for (let b = 0; b < mol.m; b++) {
    const o = b < g.m ? Math.max(1, g.order[b]!) : 1;
    lines.push(`${f(mol.bondA[b]! + 1, 3, 0)}${f(mol.bondB[b]! + 1, 3, 0)}${f(o, 3, 0)}  0  0  0  0`);
  }
  const charged: string[] = [];
  for (let i = 0; i < g.n; i++) if (g.charge[i] !== 0) charged.push(`${f(i + 1, 4, 0)}${f(g.charge[i]!, 4, 0)}`);
  for (let c = 0; c < charged.length; c += 8) lines.push(`M  CHG${f(Math.min(8, charged.length - c), 3, 0)}${charged.slice(c, c + 8).join("")}`);
  lines.push("M  END");
  return lines.join("\n") + "\n";
}
