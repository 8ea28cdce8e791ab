/**
 * Wildman–Crippen logP and molar refractivity (S. A. Wildman, G. M. Crippen, J. Chem. Inf.
 * Comput. Sci. 39 (1999) 868–873) as RDKit implements them (Code/GraphMol/Descriptors/
 * Crippen.cpp with its parameter table, the same as RDKit's Data/Crippen.txt): every atom of
 * the molecule with explicit hydrogens gets the first atom type, in table order, whose SMARTS
 * matches it; logP and MR are the sums of the types' contributions. Hydrogens are typed by
 * the heavy atom they sit on.
 *
 * The SMARTS are written out here as predicates on the H-depleted graph (graph.ts), with
 * SMARTS semantics: `C`/`N`/`O`/`S` aliphatic, `c`/`a` aromatic (RDKit's flags), `H` the total
 * hydrogen count, `X` the total connectivity (heavy degree + H), an unspecified bond = single
 * or aromatic, `-`/`=`/`#` non-aromatic single/double/triple, `:` aromatic; neighbours of one
 * pattern atom are matched injectively. The two negated hydrogen patterns of H2 are element
 * based (`[#1]O[!#6;!#7;!#8;!#16]`, `[#1][!#6;!#7;!#8]`), as RDKit's built-in table behaves
 * (an H on an aromatic nH is H3, not H2), although RDKit's Data/Crippen.txt writes them with
 * aliphatic symbols. The implementation equals @rdkit/rdkit 2026.9.1 `CrippenClogP` and
 * `CrippenMR` on every molecule of kazius.csv (4069) and MoleculeNet HIV.csv (41906), to
 * 1e-6. These values are the same model as Open Babel's
 * `logP`/`MR` and RDKit's `CrippenClogP`/`CrippenMR`; they are not CDK's ALOGP (Ghose–Crippen
 * 1998, alogp.ts).
 */

import type { HDepletedGraph } from "./graph.ts";

/** One atom type: label and contributions (MR 0 where the table gives none). */
interface CrippenType {
  readonly label: string;
  readonly logp: number;
  readonly mr: number;
}

// Contributions (RDKit Crippen parameter table; label, logP, MR).
const T = (label: string, logp: number, mr: number): CrippenType => ({ label, logp, mr });
const C1 = T("C1", 0.1441, 2.503);
const C2 = T("C2", 0, 2.433);
const C3 = T("C3", -0.2035, 2.753);
const C4 = T("C4", -0.2051, 2.731);
const C5 = T("C5", -0.2783, 5.007);
const C6 = T("C6", 0.1551, 3.513);
const C7 = T("C7", 0.0017, 3.888);
const C8 = T("C8", 0.08452, 2.464);
const C9 = T("C9", -0.1444, 2.412);
const C10 = T("C10", -0.0516, 2.488);
const C11 = T("C11", 0.1193, 2.582);
const C12 = T("C12", -0.0967, 2.576);
const C13 = T("C13", -0.5443, 4.041);
const C14 = T("C14", 0, 3.257);
const C15 = T("C15", 0.245, 3.564);
const C16 = T("C16", 0.198, 3.18);
const C17 = T("C17", 0, 3.104);
const C18 = T("C18", 0.1581, 3.35);
const C19 = T("C19", 0.2955, 4.346);
const C20 = T("C20", 0.2713, 3.904);
const C21 = T("C21", 0.136, 3.509);
const C22 = T("C22", 0.4619, 4.067);
const C23 = T("C23", 0.5437, 3.853);
const C24 = T("C24", 0.1893, 2.673);
const C25 = T("C25", -0.8186, 3.135);
const C26 = T("C26", 0.264, 4.305);
const C27 = T("C27", 0.2148, 2.693);
const CS = T("CS", 0.08129, 3.243);
const H1 = T("H1", 0.123, 1.057);
const H2 = T("H2", -0.2677, 1.395);
const H3 = T("H3", 0.2142, 0.9627);
const H4 = T("H4", 0.298, 1.805);
const HS = T("HS", 0.1125, 1.112);
const N1 = T("N1", -1.019, 2.262);
const N2 = T("N2", -0.7096, 2.173);
const N3 = T("N3", -1.027, 2.827);
const N4 = T("N4", -0.5188, 3);
const N5 = T("N5", 0.08387, 1.757);
const N6 = T("N6", 0.1836, 2.428);
const N7 = T("N7", -0.3187, 1.839);
const N8 = T("N8", -0.4458, 2.819);
const N9 = T("N9", 0.01508, 1.725);
const N10 = T("N10", -1.95, 0);
const N11 = T("N11", -0.3239, 2.202);
const N12 = T("N12", -1.119, 0);
const N13 = T("N13", -0.3396, 0.2604);
const N14 = T("N14", 0.2887, 3.359);
const NS = T("NS", -0.4806, 2.134);
const O1 = T("O1", 0.1552, 1.08);
const O2 = T("O2", -0.2893, 0.8238);
const O3 = T("O3", -0.0684, 1.085);
const O4 = T("O4", -0.4195, 1.182);
const O5 = T("O5", 0.0335, 3.367);
const O6 = T("O6", -0.3339, 0.7774);
const O12 = T("O12", -1.326, 0);
const O7 = T("O7", -1.189, 0);
const O8 = T("O8", 0.1788, 3.135);
const O9 = T("O9", -0.1526, 0);
const O10 = T("O10", 0.1129, 0.2215);
const O11 = T("O11", 0.4833, 0.389);
const OS = T("OS", -0.1188, 0.6865);
const F = T("F", 0.4202, 1.108);
const Cl = T("Cl", 0.6895, 5.853);
const Br = T("Br", 0.8456, 8.927);
const I = T("I", 0.8857, 14.02);
const HAL = T("Hal", -2.996, 0);
const P = T("P", 0.8612, 6.92);
const S2 = T("S2", -0.0024, 7.365);
const S1 = T("S1", 0.6482, 7.591);
const S3 = T("S3", 0.6237, 6.691);
const ME1 = T("Me1", -0.3808, 5.754);
const ME2 = T("Me2", -0.0025, 0);

// ---- SMARTS building blocks on the H-depleted graph ----------------------------------------

/** Neighbour test: neighbour atom j reached over bond b. */
type NbrPred = (g: HDepletedGraph, j: number, b: number) => boolean;

/** Unspecified SMARTS bond: single or aromatic. */
export const bSA = (g: HDepletedGraph, b: number): boolean => g.bondArom[b] === 1 || g.order[b] === 1;
/** `-`: non-aromatic single. */
export const bSingle = (g: HDepletedGraph, b: number): boolean => g.bondArom[b] === 0 && g.order[b] === 1;
/** `=`: non-aromatic double. */
export const bDouble = (g: HDepletedGraph, b: number): boolean => g.bondArom[b] === 0 && g.order[b] === 2;
/** `#`: triple. */
export const bTriple = (g: HDepletedGraph, b: number): boolean => g.bondArom[b] === 0 && g.order[b] === 3;
/** `:`: aromatic. */
export const bArom = (g: HDepletedGraph, b: number): boolean => g.bondArom[b] === 1;

const heavy = (g: HDepletedGraph, j: number): boolean => g.z[j] !== 1;
const aliph = (g: HDepletedGraph, j: number): boolean => g.arom[j] === 0;
const aliphHeavy = (g: HDepletedGraph, j: number): boolean => g.arom[j] === 0 && g.z[j] !== 1;
const aromAny = (g: HDepletedGraph, j: number): boolean => g.arom[j] === 1;
const aliphZ = (g: HDepletedGraph, j: number, z: number): boolean => g.arom[j] === 0 && g.z[j] === z;
const aromC = (g: HDepletedGraph, j: number): boolean => g.arom[j] === 1 && g.z[j] === 6;
const totalX = (g: HDepletedGraph, j: number): number => g.degree[j]! + g.h[j]!;
const posCharge = (g: HDepletedGraph, j: number): boolean => g.charge[j]! >= 1 && g.charge[j]! <= 3;
const negCharge = (g: HDepletedGraph, j: number): boolean => g.charge[j]! <= -1 && g.charge[j]! >= -3;

/** `[N,O,P,S,F,Cl,Br,I]` (aliphatic symbols). */
const HET_SET = new Set([7, 8, 15, 16, 9, 17, 35, 53]);
const hetA = (g: HDepletedGraph, j: number): boolean => g.arom[j] === 0 && HET_SET.has(g.z[j]!);

/** Neighbour over a bond matching `bond` whose atom matches `atom`. */
const nb =
  (bond: (g: HDepletedGraph, b: number) => boolean, atom: (g: HDepletedGraph, j: number) => boolean): NbrPred =>
  (g, j, b) =>
    bond(g, b) && atom(g, j);

/** Whether atom i has a neighbour matching p. */
function has(g: HDepletedGraph, i: number, p: NbrPred): boolean {
  for (let q = g.adjStart[i]!, e = g.adjStart[i + 1]!; q < e; q++) if (p(g, g.adjAtom[q]!, g.adjBond[q]!)) return true;
  return false;
}

/** Number of neighbours of i matching p. */
function count(g: HDepletedGraph, i: number, p: NbrPred): number {
  let c = 0;
  for (let q = g.adjStart[i]!, e = g.adjStart[i + 1]!; q < e; q++) if (p(g, g.adjAtom[q]!, g.adjBond[q]!)) c++;
  return c;
}

/**
 * Whether distinct neighbours of i can be assigned to the predicates `ps` (each neighbour at
 * most once), as a SMARTS match of one atom with several branches; `exclude` is a neighbour
 * already taken by the pattern.
 */
export function assign(g: HDepletedGraph, i: number, ps: readonly NbrPred[], exclude = -1): boolean {
  const s = g.adjStart[i]!;
  const d = g.adjStart[i + 1]! - s;
  if (d < ps.length) return false;
  let used = 0;
  const rec = (k: number): boolean => {
    if (k === ps.length) return true;
    const p = ps[k]!;
    for (let t = 0; t < d; t++) {
      if (used & (1 << t)) continue;
      const j = g.adjAtom[s + t]!;
      if (j === exclude || !p(g, j, g.adjBond[s + t]!)) continue;
      used |= 1 << t;
      if (rec(k + 1)) return true;
      used &= ~(1 << t);
    }
    return false;
  };
  return d <= 30 && rec(0);
}

// Frequently used neighbour predicates.
const saAliphC = nb(bSA, (g, j) => aliphZ(g, j, 6));
const saAliphHeavy = nb(bSA, aliphHeavy);
const saHetA = nb(bSA, hetA);
const saArom = nb(bSA, aromAny);
const saAromC = nb(bSA, aromC);
const saHeavy = nb(bSA, heavy);
const dblAliphC = nb(bDouble, (g, j) => aliphZ(g, j, 6));
const dblHeavy = nb(bDouble, heavy);
const aromArom = nb(bArom, aromAny);

/** `[A;!C;!N;!O;!P;!S;!F;!Cl;!Br;!I;!#1]` (C27); without P for C13. */
const OTHER_C27 = new Set([1, 6, 7, 8, 15, 16, 9, 17, 35, 53]);
const OTHER_C13 = new Set([1, 6, 7, 8, 16, 9, 17, 35, 53]);

function typeCarbon(g: HDepletedGraph, i: number): CrippenType {
  const h = g.h[i]!;
  const x = totalX(g, i);
  if (g.arom[i] === 0) {
    if (h === 4) return C1;
    const nC = count(g, i, saAliphC);
    if (h === 3 && nC >= 1) return C1;
    if (h === 2 && nC >= 2) return C1;
    if (h === 1 && nC >= 3) return C2;
    if (nC >= 4) return C2;
    if (h === 3 && has(g, i, saHetA)) return C3;
    if (h === 2 && x === 4 && assign(g, i, [saHetA, saAliphHeavy])) return C3;
    if (h === 1 && x === 4 && assign(g, i, [saHetA, saAliphHeavy, saAliphHeavy])) return C4;
    if (h === 0 && x === 4 && assign(g, i, [saHetA, saAliphHeavy, saAliphHeavy, saAliphHeavy])) return C4;
    if (has(g, i, nb(bDouble, (g2, j) => aliphHeavy(g2, j) && g2.z[j] !== 6))) return C5;
    if (h === 2 && has(g, i, dblAliphC)) return C6;
    if (h === 1 && assign(g, i, [dblAliphC, saAliphHeavy])) return C6;
    if (h === 0 && assign(g, i, [dblAliphC, saAliphHeavy, saAliphHeavy])) return C6;
    if (assign(g, i, [dblAliphC, dblAliphC])) return C6;
    if (x === 2 && has(g, i, nb(bTriple, aliphHeavy))) return C7;
    if (h === 3 && has(g, i, saAromC)) return C8;
    if (h === 3 && has(g, i, saArom)) return C9;
    if (x === 4 && has(g, i, saArom)) {
      if (h === 2) return C10;
      if (h === 1) return C11;
      if (h === 0) return C12;
    }
    if (assign(g, i, [dblAliphC, saArom, saAliphHeavy])) return C26;
    if (assign(g, i, [dblAliphC, saAromC, saArom])) return C26;
    if (h === 1 && assign(g, i, [dblAliphC, saArom])) return C26;
    if (has(g, i, nb(bDouble, aromC))) return C26;
    if (x === 4 && has(g, i, nb(bSA, (g2, j) => aliph(g2, j) && !OTHER_C27.has(g2.z[j]!)))) return C27;
    return CS;
  }
  if (h === 0 && has(g, i, nb(bSingle, (g2, j) => aliph(g2, j) && !OTHER_C13.has(g2.z[j]!)))) return C13;
  if (has(g, i, nb(bSA, (g2, j) => g2.z[j] === 9))) return C14;
  if (has(g, i, nb(bSA, (g2, j) => g2.z[j] === 17))) return C15;
  if (has(g, i, nb(bSA, (g2, j) => g2.z[j] === 35))) return C16;
  if (has(g, i, nb(bSA, (g2, j) => g2.z[j] === 53))) return C17;
  if (h === 1) return C18;
  if (count(g, i, aromArom) >= 3) return C19;
  if (assign(g, i, [aromArom, aromArom, nb(bSingle, aromAny)])) return C20;
  if (assign(g, i, [aromArom, aromArom, nb(bSingle, (g2, j) => aliphZ(g2, j, 6))])) return C21;
  if (assign(g, i, [aromArom, aromArom, nb(bSingle, (g2, j) => aliphZ(g2, j, 7))])) return C22;
  if (assign(g, i, [aromArom, aromArom, nb(bSingle, (g2, j) => aliphZ(g2, j, 8))])) return C23;
  if (assign(g, i, [aromArom, aromArom, nb(bSingle, (g2, j) => aliphZ(g2, j, 16))])) return C24;
  const cno = (g2: HDepletedGraph, j: number): boolean => aliph(g2, j) && (g2.z[j] === 6 || g2.z[j] === 7 || g2.z[j] === 8);
  if (assign(g, i, [aromArom, aromArom, nb(bDouble, cno)])) return C25;
  return CS;
}

function typeNitrogen(g: HDepletedGraph, i: number): CrippenType {
  const h = g.h[i]!;
  const q = g.charge[i]!;
  if (g.arom[i] === 0) {
    if (q === 0) {
      if (h === 2 && has(g, i, saAliphHeavy)) return N1;
      if (h === 1 && count(g, i, saAliphHeavy) >= 2) return N2;
      if (h === 2 && has(g, i, saArom)) return N3;
      if (h === 1 && assign(g, i, [saArom, saHeavy])) return N4;
      if (h === 1 && has(g, i, dblHeavy)) return N5;
      if (assign(g, i, [dblHeavy, saHeavy])) return N6;
      if (count(g, i, saAliphHeavy) >= 3) return N7;
      if (assign(g, i, [saArom, saHeavy, saAliphHeavy])) return N8;
      if (count(g, i, saArom) >= 3) return N8;
      if (has(g, i, nb(bTriple, aliphHeavy))) return N9;
    }
    if (h >= 1 && h <= 3 && posCharge(g, i)) return N10;
  } else {
    if (q === 0) return N11;
    if (posCharge(g, i)) return N12;
    return NS;
  }
  if (posCharge(g, i)) {
    if (h === 0) {
      if (count(g, i, saAliphHeavy) >= 4) return N13;
      if (assign(g, i, [nb(bDouble, aliphHeavy), saAliphHeavy, saHeavy])) return N13;
      if (assign(g, i, [nb(bDouble, (g2, j) => g2.z[j] === 6), nb(bDouble, (g2, j) => g2.z[j] === 7)])) return N13;
    }
    if (has(g, i, nb(bTriple, aliphHeavy))) return N14;
  }
  if (negCharge(g, i)) return N14;
  if (posCharge(g, i)) {
    const nMinus = nb(bDouble, (g2, j) => aliphZ(g2, j, 7) && negCharge(g2, j));
    if (assign(g, i, [nMinus, nb(bDouble, (g2, j) => aliphZ(g2, j, 7))])) return N14;
  }
  return NS;
}

function typeOxygen(g: HDepletedGraph, i: number): CrippenType {
  if (g.arom[i] === 1) return O1;
  const h = g.h[i]!;
  const q = g.charge[i]!;
  const x = totalX(g, i);
  if (h === 1 || h === 2) return O2;
  if (count(g, i, saAliphHeavy) >= 2) return O3;
  if (assign(g, i, [saArom, saHeavy])) return O4;
  if (has(g, i, nb(bDouble, (g2, j) => g2.z[j] === 7 || g2.z[j] === 8))) return O5;
  if (x === 1 && negCharge(g, i) && has(g, i, nb(bSA, (g2, j) => g2.z[j] === 7))) return O5;
  if (x === 1 && (q === -1 || q === -2) && has(g, i, nb(bSA, (g2, j) => g2.z[j] === 16))) return O6;
  if (q === 0 && has(g, i, nb(bDouble, (g2, j) => g2.z[j] === 16 && g2.charge[j] === 0))) return O6;
  if (q === -1) {
    // [O-]C(=O): an aliphatic C that carries another, double-bonded aliphatic O
    const carboxylC = (g2: HDepletedGraph, j: number): boolean =>
      aliphZ(g2, j, 6) && assign(g2, j, [nb(bDouble, (g3, k) => aliphZ(g3, k, 8))], i);
    if (has(g, i, nb(bSA, carboxylC))) return O12;
  }
  if (x === 1 && negCharge(g, i) && has(g, i, nb(bSA, (g2, j) => heavy(g2, j) && !aliphZ(g2, j, 7) && !aliphZ(g2, j, 16)))) return O7;
  if (has(g, i, nb(bDouble, aromC))) return O8;
  // O9/O10/O11 look at the aliphatic carbon the oxygen is double-bonded to (the O itself is
  // excluded from the carbon's other branches by the bond type: those are single/aromatic).
  const dblC: number[] = [];
  for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
    const j = g.adjAtom[p]!;
    if (bDouble(g, g.adjBond[p]!) && aliphZ(g, j, 6)) dblC.push(j);
  }
  const anyC = (f: (c: number) => boolean): boolean => dblC.some(f);
  const o9 = (c: number): boolean =>
    (g.h[c] === 1 && has(g, c, saAliphC)) ||
    assign(g, c, [saAliphC, saAliphHeavy]) ||
    (g.h[c] === 1 && has(g, c, nb(bSA, (g2, j) => aliphZ(g2, j, 7) || aliphZ(g2, j, 8)))) ||
    g.h[c] === 2 ||
    (totalX(g, c) === 2 && assign(g, c, [nb(bDouble, (g2, j) => aliphZ(g2, j, 8))], i));
  if (anyC(o9)) return O9;
  const anyCarbon = nb(bSA, (g2, j) => g2.z[j] === 6);
  const aromHeavy = nb(bSA, (g2, j) => aromAny(g2, j) && heavy(g2, j));
  const o10 = (c: number): boolean =>
    (g.h[c] === 1 && has(g, c, saAromC)) || assign(g, c, [anyCarbon, aromHeavy]) || assign(g, c, [saAromC, saAliphHeavy]);
  if (anyC(o10)) return O10;
  const nonC = nb(bSA, (g2, j) => heavy(g2, j) && g2.z[j] !== 6);
  if (anyC((c) => assign(g, c, [nonC, nonC]))) return O11;
  return OS;
}

function typeSulfur(g: HDepletedGraph, i: number): CrippenType {
  if (g.arom[i] === 1) return S3;
  const q = g.charge[i]!;
  if (q !== 0 && q >= -4 && q <= 6 && q !== 4) return S2;
  const nops = (g2: HDepletedGraph, j: number): boolean => g2.arom[j] === 0 && (g2.z[j] === 7 || g2.z[j] === 8 || g2.z[j] === 15 || g2.z[j] === 16);
  if (q === 0 && has(g, i, nb(bDouble, nops))) return S2;
  return S1;
}

const ALKALI = new Set([3, 11, 19, 37, 55]);
const ME1_Z = new Set([3, 11, 19, 37, 55, 4, 12, 20, 38, 56, 5, 13, 31, 49, 81, 14, 32, 50, 82, 33, 51, 83, 34, 52, 84]);

function isMe2(z: number): boolean {
  return (z >= 21 && z <= 30) || (z >= 39 && z <= 48) || (z >= 72 && z <= 80);
}

/** Crippen type of a (non-hydrogen-count) graph atom; null when no type matches (contributes 0). */
export function crippenAtomType(g: HDepletedGraph, i: number): CrippenType | null {
  const z = g.z[i]!;
  switch (z) {
    case 6:
      return typeCarbon(g, i);
    case 1:
      return hydrogenType(g, i);
    case 7:
      return typeNitrogen(g, i);
    case 8:
      return typeOxygen(g, i);
    case 9:
    case 17:
    case 35:
    case 53: {
      const q = g.charge[i]!;
      if (q === 0) return z === 9 ? F : z === 17 ? Cl : z === 35 ? Br : I;
      if (q === -1) return HAL;
      if (z === 53 && q >= 1 && q <= 3) return HAL;
      return null;
    }
    case 15:
      return P;
    case 16:
      return typeSulfur(g, i);
  }
  if (ALKALI.has(z) && g.charge[i] === 1) return HAL;
  if (ME1_Z.has(z)) return ME1;
  if (isMe2(z)) return ME2;
  return null;
}

/**
 * Type of the hydrogens on atom i (for an H atom kept in the graph: of that atom itself, from
 * its neighbours). The H–X bond is single; X's other neighbours are matched without the H;
 * another H on X counts as a neighbour (water: H2).
 */
export function hydrogenType(g: HDepletedGraph, i: number): CrippenType {
  const z = g.z[i]!;
  if (z === 1) {
    // an H atom of its own (H2, bridging or charged H): [#1][#6,#1] … by its neighbours
    if (has(g, i, (g2, j) => g2.z[j] === 6 || g2.z[j] === 1)) return H1;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
      const j = g.adjAtom[p]!;
      if (!(aliph(g, j) && (g.z[j] === 7 || g.z[j] === 8))) return H2;
    }
    if (has(g, i, (g2, j) => g2.z[j] === 7)) return H3;
    return HS;
  }
  if (z === 6) return H1;
  const ar = g.arom[i] === 1;
  if (z === 8) {
    if (has(g, i, nb(bSA, (g2, j) => (aliphZ(g2, j, 6) && totalX(g2, j) === 4) || aromC(g2, j)))) return H2;
    const notCNOS = (g2: HDepletedGraph, j: number): boolean => g2.z[j] !== 6 && g2.z[j] !== 7 && g2.z[j] !== 8 && g2.z[j] !== 16;
    if (g.h[i]! >= 2 || has(g, i, nb(bSA, notCNOS))) return H2;
  }
  if (z !== 7 && z !== 8) return H2;
  if (z === 7) return H3;
  // aliphatic O
  if (has(g, i, nb(bSA, (g2, j) => g2.z[j] === 7))) return H3;
  const acidC = (g2: HDepletedGraph, j: number): boolean =>
    aliphZ(g2, j, 6) &&
    has(g2, j, nb(bDouble, (g3, k) => g3.z[k] === 6 || g3.z[k] === 7 || aliphZ(g3, k, 8) || aliphZ(g3, k, 16)));
  if (has(g, i, nb(bSA, acidC))) return H4;
  if (has(g, i, nb(bSA, (g2, j) => aliphZ(g2, j, 8) || aliphZ(g2, j, 16)))) return H4;
  return HS;
}

export interface CrippenResult {
  /** Wildman–Crippen logP (RDKit CrippenClogP). */
  readonly logp: number;
  /** Wildman–Crippen molar refractivity (RDKit CrippenMR). */
  readonly mr: number;
}

/** Per-atom type labels: heavy atoms, and the type of the hydrogens on each atom ("" if none). */
export function crippenTypes(g: HDepletedGraph): { heavy: string[]; hydrogens: string[] } {
  const heavyT: string[] = [];
  const hT: string[] = [];
  for (let i = 0; i < g.n; i++) {
    heavyT.push(crippenAtomType(g, i)?.label ?? "");
    hT.push(g.h[i]! > 0 ? hydrogenType(g, i).label : "");
  }
  return { heavy: heavyT, hydrogens: hT };
}

/** Wildman–Crippen logP and MR of a molecule graph (hydrogens from the H counts). */
export function wildmanCrippen(g: HDepletedGraph): CrippenResult {
  let logp = 0;
  let mr = 0;
  for (let i = 0; i < g.n; i++) {
    const t = crippenAtomType(g, i);
    if (t !== null) {
      logp += t.logp;
      mr += t.mr;
    }
    const h = g.h[i]!;
    if (h > 0) {
      const ht = hydrogenType(g, i);
      logp += h * ht.logp;
      mr += h * ht.mr;
    }
  }
  return { logp, mr };
}
