/**
 * CDK ALOGPDescriptor (lazar's constitutional category): Ghose–Crippen atom-type logP and molar
 * refractivity (A. K. Ghose, V. N. Viswanadhan, J. J. Wendoloski, J. Phys. Chem. A 102 (1998)
 * 3762–3772), ported from CDK's ALOGPDescriptor (cdk/cdk descriptor/qsarmolecular; the class
 * of CDK 2.8 was read for this port). Values: ALogP = Σ n_t·a_t, ALogp2 = ALogP², AMR = Σ n_t·r_t
 * over the 120 Ghose–Crippen types t.
 *
 * How CDK types atoms, and so how this port does:
 * - every heavy atom first gets its E-state atom type name (CDK EStateAtomTypeMatcher: "S" +
 *   one letter per bond, t/d/s/a, + element + p/m for charge ±1 + H count, e.g. SsCH3, SaaCH,
 *   SdssNp); a bond is "a" when both atoms are aromatic and lie on a common ring of aromatic
 *   atoms (CDK's all-rings search);
 * - the type groups (C 1–44, H 46–55, O 56–63, N 66–79, halogens 81–104, S 106–110, Si 111,
 *   B 112, P 115–120) then decide from neighbours, Kekulé bond orders, aromaticity and
 *   "oxidation numbers" (bond orders to heteroatoms); hydrogens are typed by their carbon
 *   (46–55) or get 50 on N, O and S. CDK counts implicit hydrogens here as well as explicit
 *   ones, so the H counts of our H-depleted graph give the explicit-H result (CDK's
 *   ALOGPDescriptor asks for explicit hydrogens: without any H count the H contributions would
 *   be missing).
 * - atoms CDK leaves untyped contribute nothing (as in CDK).
 *
 * Aromaticity is RDKit's (graph.ts), bond orders RDKit's Kekulé form; CDK used its own model
 * (lazar: Hückel). Differences would show only where the two models disagree.
 */

import type { DescriptorContext } from "./descriptor-context.ts";
import { SYMBOLS, type HDepletedGraph } from "./graph.ts";

/** Ghose–Crippen logP contributions by type 1..120 (CDK ALOGPDescriptor.FRAGVAL). */
// prettier-ignore
const FRAGVAL: readonly number[] = [0,
  -1.5603, -1.012, -0.6681, -0.3698, -1.788, -1.2486, -1.0305, -0.6805, -0.3858, 0.7555,
  -0.2849, 0.02, 0.7894, 1.6422, -0.7866, -0.3962, 0.0383, -0.8051, -0.2129, 0.2432,
  0.4697, 0.2952, 0, -0.3251, 0.1492, 0.1539, 0.0005, 0.2361, 0.3514, 0.1814,
  0.0901, 0.5142, -0.3723, 0.2813, 0.1191, -0.132, -0.0244, -0.2405, -0.0909, -0.1002,
  0.4182, -0.2147, -0.0009, 0.1388, 0, 0.7341, 0.6301, 0.518, -0.0371, -0.1036,
  0.5234, 0.6666, 0.5372, 0.6338, 0.362, -0.3567, -0.0127, -0.0233, -0.1541, 0.0324,
  1.052, -0.7941, 0.4165, 0.6601, 0, -0.5427, -0.3168, 0.0132, -0.3883, -0.0389,
  0.1087, -0.5113, 0.1259, 0.1349, -0.1624, -2.0585, -1.915, 0.4208, -1.4439, 0,
  0.4797, 0.2358, 0.1029, 0.3566, 0.1988, 0.7443, 0.5337, 0.2996, 0.8155, 0.4856,
  0.8888, 0.7452, 0.5034, 0.8995, 0.5946, 1.4201, 1.1472, 0, 0.7293, 0.7173,
  0, -2.6737, -2.4178, -3.1121, 0, 0.6146, 0.5906, 0.8758, -0.4979, -0.3786,
  1.5188, 1.0255, 0, 0, 0, -0.9359, -0.1726, -0.7966, 0.6705, -0.4801,
];

/** Ghose–Crippen molar refractivity contributions by type 1..120 (CDK ALOGPDescriptor.REFRACVAL). */
// prettier-ignore
const REFRACVAL: readonly number[] = [0,
  2.968, 2.9116, 2.8028, 2.6205, 3.015, 2.9244, 2.6329, 2.504, 2.377, 2.5559,
  2.303, 2.3006, 2.9627, 2.3038, 3.2001, 4.2654, 3.9392, 3.6005, 4.487, 3.2001,
  3.4825, 4.2817, 3.9556, 3.4491, 3.8821, 3.7593, 2.5009, 2.5, 3.0627, 2.5009,
  0, 2.6632, 3.4671, 3.6842, 2.9372, 4.019, 4.777, 3.9031, 3.9964, 3.4986,
  3.4997, 2.7784, 2.6267, 2.5, 0, 0.8447, 0.8939, 0.8005, 0.832, 0.8,
  0.8188, 0.9215, 0.9769, 0.7701, 0, 1.7646, 1.4778, 1.4429, 1.6191, 1.3502,
  1.945, 0, 0, 11.1366, 13.1149, 2.6221, 2.5, 2.898, 3.6841, 4.2808,
  3.6189, 2.5, 2.7956, 2.7, 4.2063, 4.0184, 3.0009, 4.7142, 0, 0,
  0.8725, 1.1837, 1.1573, 0.8001, 1.5013, 5.6156, 6.1022, 5.9921, 5.3885, 6.1363,
  8.5991, 8.9188, 8.8006, 8.2065, 8.7352, 13.9462, 14.0792, 14.073, 12.9918, 13.3408,
  0, 0, 0, 0, 0, 7.8916, 7.7935, 9.4338, 7.7223, 5.7558,
  0, 0, 0, 0, 0, 5.5306, 5.5152, 6.836, 10.0101, 5.2806,
];

/**
 * Biconnected components (blocks) of the subgraph made of the bonds with `inSub[b]`: per bond
 * its block id (−1 outside the subgraph) and per block its number of bonds. Two atoms lie on a
 * common cycle of the subgraph iff they share a block with at least two bonds.
 */
export function blocks(g: HDepletedGraph, inSub: Uint8Array): { blockOf: Int32Array; size: number[] } {
  const n = g.n;
  const blockOf = new Int32Array(g.m).fill(-1);
  const size: number[] = [];
  const disc = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const edgeStack: number[] = [];
  let time = 0;
  const visit = (v: number, parentBond: number): void => {
    disc[v] = low[v] = time++;
    for (let p = g.adjStart[v]!; p < g.adjStart[v + 1]!; p++) {
      const b = g.adjBond[p]!;
      if (!inSub[b] || b === parentBond) continue;
      const w = g.adjAtom[p]!;
      if (disc[w] === -1) {
        edgeStack.push(b);
        visit(w, b);
        if (low[w]! < low[v]!) low[v] = low[w]!;
        if (low[w]! >= disc[v]!) {
          const id = size.length;
          let c = 0;
          for (;;) {
            const e = edgeStack.pop()!;
            blockOf[e] = id;
            c++;
            if (e === b) break;
          }
          size.push(c);
        }
      } else if (disc[w]! < disc[v]!) {
        edgeStack.push(b);
        if (disc[w]! < low[v]!) low[v] = disc[w]!;
      }
    }
  };
  for (let r = 0; r < n; r++) if (disc[r] === -1) visit(r, -1);
  return { blockOf, size };
}

/** Per atom, the ids of the cyclic blocks (≥ 2 bonds) it belongs to. */
function cyclicBlocksPerAtom(g: HDepletedGraph, inSub: Uint8Array): number[][] {
  const { blockOf, size } = blocks(g, inSub);
  const per: number[][] = Array.from({ length: g.n }, () => []);
  for (let b = 0; b < g.m; b++) {
    const id = blockOf[b]!;
    if (id < 0 || size[id]! < 2) continue;
    for (const a of [g.bondA[b]!, g.bondB[b]!]) if (!per[a]!.includes(id)) per[a]!.push(id);
  }
  return per;
}

function shareBlock(per: number[][], a: number, b: number): boolean {
  const pa = per[a]!;
  const pb = per[b]!;
  for (const x of pa) if (pb.includes(x)) return true;
  return false;
}

/** CDK ALOGP's isHetero: B, N, O, F, Si, P, S, Cl, Se, Br, I. */
const HETERO = new Set([5, 7, 8, 9, 14, 15, 16, 17, 34, 35, 53]);
const isHetero = (z: number): boolean => HETERO.has(z);

/**
 * CDK AtomicProperties electronegativities (whim_weights.txt), used by ALOGP for the
 * neighbours of a carbon carrying Cl, Br or I: "normalised electronegativity > 1" means more
 * electronegative than carbon (2.75). Elements without an entry make CDK fail (NaN).
 */
const ELECTRONEGATIVITY: ReadonlyMap<number, number> = new Map([
  [1, 2.59], [5, 2.28], [6, 2.75], [7, 3.19], [8, 3.65], [9, 4], [13, 1.71], [14, 2.14], [15, 2.52], [16, 2.96],
  [17, 3.48], [24, 1.66], [25, 2.2], [26, 2.2], [27, 2.56], [28, 1.94], [29, 1.98], [30, 2.23], [31, 2.42],
  [32, 2.62], [33, 2.82], [34, 3.01], [35, 3.22], [42, 1.15], [47, 1.83], [48, 1.98], [49, 2.14], [50, 2.3],
  [51, 2.46], [52, 2.62], [53, 2.78], [64, 2], [78, 2.28], [79, 2.54], [80, 2.2], [81, 2.25], [82, 2.29], [83, 2.34],
]);

/** E-state type names (CDK EStateAtomTypeMatcher) of all atoms. */
export function estateTypeNames(g: HDepletedGraph, aromRingMatcher: number[][]): string[] {
  const out: string[] = [];
  for (let i = 0; i < g.n; i++) {
    let nH = g.h[i]!;
    let s = g.h[i]!;
    let d = 0;
    let t = 0;
    let a = 0;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
      const j = g.adjAtom[p]!;
      const o = g.order[g.adjBond[p]!]!;
      if (g.z[j] === 1) nH++;
      if (g.arom[i] && g.arom[j] && shareBlock(aromRingMatcher, i, j)) a++;
      else if (o === 1) s++;
      else if (o === 2) d++;
      else if (o === 3) t++;
    }
    s -= nH;
    let name = "S" + "t".repeat(t) + "d".repeat(d) + "s".repeat(Math.max(0, s)) + "a".repeat(a) + (SYMBOLS[g.z[i]!] ?? "?");
    if (g.charge[i] === 1) name += "p";
    else if (g.charge[i] === -1) name += "m";
    if (nH === 1) name += "H";
    else if (nH > 1) name += "H" + nH;
    out.push(name);
  }
  return out;
}

export interface AlogpResult {
  readonly alogp: number;
  readonly amr: number;
  /** Number of atoms of each Ghose–Crippen type (index 1..120; hydrogens included). */
  readonly frags: Int32Array;
  /** Type of each heavy atom (0 = unassigned). */
  readonly types: Int32Array;
}

/**
 * ALOGP of the molecule; null when CDK would fail (an element without electronegativity next
 * to a C–Cl/Br/I carbon).
 */
export function alogp(ctx: DescriptorContext): AlogpResult | null {
  const g = ctx.g;
  const n = g.n;
  // aromatic rings as CDK's all-rings finder sees them: for the E-state "a" bonds, rings of
  // aromatic atoms; for ALOGP's own same-ring test, rings of aromatic bonds
  const atomSub = new Uint8Array(g.m);
  const bondSub = new Uint8Array(g.m);
  for (let b = 0; b < g.m; b++) {
    atomSub[b] = g.arom[g.bondA[b]!] && g.arom[g.bondB[b]!] ? 1 : 0;
    bondSub[b] = g.bondArom[b]!;
  }
  const matcherRings = cyclicBlocksPerAtom(g, atomSub);
  const bondRings = cyclicBlocksPerAtom(g, bondSub);
  const frag = estateTypeNames(g, matcherRings);
  const frags = new Int32Array(121);
  const types = new Int32Array(n);
  const z = g.z;
  const nbrs = (i: number): number[] => {
    const r: number[] = [];
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) r.push(g.adjAtom[p]!);
    return r;
  };
  const bondOrder = (i: number, j: number): number => {
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) if (g.adjAtom[p] === j) return g.order[g.adjBond[p]!]!;
    return 0;
  };
  const hasDouble = (i: number): boolean => {
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) if (g.order[g.adjBond[p]!] === 2) return true;
    return false;
  };
  const set = (i: number, t: number): void => {
    frags[t]!++;
    types[i] = t;
  };
  const addH = (t: number, count: number): void => {
    if (t > 0) frags[t]! += count;
  };
  const isPyrroleLike = (j: number): boolean => {
    if (!g.arom[j]) return false;
    switch (z[j]) {
      case 7:
      case 15:
        return (g.degree[j] === 3 && g.charge[j] === 0) || (g.degree[j] === 2 && g.h[j] === 1) || (g.degree[j] === 2 && g.charge[j] === -1);
      case 8:
      case 16:
        return true;
      default:
        return false;
    }
  };

  /** CDK getHAtomType: Ghose–Crippen type (46–55) of hydrogens on carbon i; 0 = none. */
  const hAtomType = (i: number): number => {
    let ndoub = 0;
    let ntrip = 0;
    let oxNum = 0;
    let xCount = 0;
    let hasConjHetero = false;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
      const b = g.adjBond[p]!;
      const j = g.adjAtom[p]!;
      const o = g.order[b]!;
      if (o === 2) ndoub++;
      else if (o === 3) ntrip++;
      if (isHetero(z[j]!)) {
        if (g.bondArom[b]) {
          if (o === 1) {
            if (!isPyrroleLike(j) && !hasConjHetero) {
              oxNum += 2;
              hasConjHetero = true;
            } else oxNum++;
          } else if (!hasConjHetero) {
            hasConjHetero = true;
            oxNum += 2;
          } else oxNum++;
        } else oxNum += o;
      } else if (z[j] === 6) {
        for (let q = g.adjStart[j]!; q < g.adjStart[j + 1]!; q++) if (isHetero(z[g.adjAtom[q]!]!)) xCount++;
      }
    }
    let hyb: 1 | 2 | 3;
    if (ndoub === 0 && ntrip === 0) hyb = 3;
    else if (ndoub === 1 && ntrip === 0) hyb = 2;
    else if (ndoub === 2 || ntrip === 1) hyb = 1;
    else return 0;
    let alpha = false;
    if (z[i] === 6 && hyb === 3) {
      for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
        const j = g.adjAtom[p]!;
        if (isHetero(z[j]!)) {
          alpha = false;
          break;
        }
        if (z[j] !== 6) continue;
        let nx = 0;
        for (let q = g.adjStart[j]!; q < g.adjStart[j + 1]!; q++) {
          const k = g.adjAtom[q]!;
          if (!isHetero(z[k]!)) continue;
          const b2 = g.adjBond[q]!;
          const o2 = g.order[b2]!;
          if (o2 === 1 && g.bondArom[b2]) nx++;
          else if (o2 === 2) nx++;
          else if (o2 === 3) nx++;
        }
        if (nx === 1) alpha = true;
      }
    }
    if (alpha) return 51;
    if (hyb === 1) return oxNum === 0 ? 48 : oxNum === 1 ? 49 : 0;
    if (hyb === 2) return oxNum === 0 ? 47 : oxNum === 1 ? 48 : oxNum === 2 || oxNum === 3 ? 49 : 0;
    if (oxNum === 0) return xCount <= 4 ? [46, 52, 53, 54, 55][xCount]! : 0;
    return oxNum === 1 ? 47 : oxNum === 2 ? 48 : oxNum === 3 ? 49 : 0;
  };

  /** Neighbour counts of i: carbons and other (non-H) atoms. */
  const cx = (i: number): [number, number] => {
    let c = 0;
    let x = 0;
    for (const j of nbrs(i)) {
      if (z[j] === 6) c++;
      else if (z[j] !== 1) x++;
    }
    return [c, x];
  };

  /** Halogen on atom i (types 81/86/91/96 + k), or null when CDK fails. */
  const halogen = (i: number, base: number, en: boolean): boolean => {
    const c = nbrs(i)[0];
    if (c === undefined) return true;
    let nd = 0;
    let nt = 0;
    for (let p = g.adjStart[c]!; p < g.adjStart[c + 1]!; p++) {
      const o = g.order[g.adjBond[p]!]!;
      if (o === 2) nd++;
      else if (o === 3) nt++;
    }
    const hyb = nd === 0 && nt === 0 ? "sp3" : nd === 1 ? "sp2" : nd === 2 || nt === 1 ? "sp" : "";
    let ox = 0;
    for (let p = g.adjStart[c]!; p < g.adjStart[c + 1]!; p++) {
      const k = g.adjAtom[p]!;
      let hetero: boolean;
      if (en) {
        const e = ELECTRONEGATIVITY.get(z[k]!);
        if (e === undefined) return false;
        hetero = e / 2.75 > 1;
      } else hetero = isHetero(z[k]!);
      if (hetero) ox += g.order[g.adjBond[p]!]!;
    }
    if (z[c] === 6) {
      if (hyb === "sp3" && ox === 1) set(i, base);
      else if (hyb === "sp3" && ox === 2) set(i, base + 1);
      else if (hyb === "sp3" && ox === 3) set(i, base + 2);
      else if (hyb === "sp2" && ox === 1) set(i, base + 3);
      else if ((hyb === "sp2" && ox > 1) || (hyb === "sp" && ox >= 1) || (hyb === "sp3" && ox === 4)) set(i, base + 4);
    } else set(i, base + 4);
    return true;
  };

  for (let i = 0; i < n; i++) {
    const f = frag[i]!;
    const h = g.h[i]!;
    const zi = z[i]!;
    if (zi === 6) {
      if (f === "SsCH3") {
        const ht = hAtomType(i);
        addH(ht, h);
        for (const j of nbrs(i)) set(i, z[j] === 6 ? 1 : 5);
      } else if (f === "SssCH2") {
        addH(hAtomType(i), h);
        const [c, x] = cx(i);
        if (c === 2 && x === 0) set(i, 2);
        else if (c === 1 && x === 1) set(i, 6);
        else if (c === 0 && x === 2) set(i, 7);
      } else if (f === "SsssCH") {
        addH(hAtomType(i), h);
        const [c, x] = cx(i);
        if (c === 3 && x === 0) set(i, 3);
        else if (c === 2 && x === 1) set(i, 8);
        else if (c === 1 && x === 2) set(i, 9);
        else if (c === 0 && x === 3) set(i, 10);
      } else if (f === "SssssC") {
        let c = 0;
        for (const j of nbrs(i)) if (z[j] === 6) c++;
        const x = g.degree[i]! - c;
        if (c === 4 && x === 0) set(i, 4);
        else if (c === 3 && x === 1) set(i, 11);
        else if (c === 2 && x === 2) set(i, 12);
        else if (c === 1 && x === 3) set(i, 13);
        else if (c === 0 && x === 4) set(i, 14);
      } else if (f === "SdCH2") {
        set(i, 15);
        addH(hAtomType(i), 2);
      } else if (f === "SdsCH") {
        addH(hAtomType(i), 1);
        let cdX = false;
        let csX = false;
        let csAr = false;
        for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
          const j = g.adjAtom[p]!;
          const o = g.order[g.adjBond[p]!]!;
          if (o === 1) {
            if (z[j] !== 6) csX = true;
            if (g.arom[j]) csAr = true;
          } else if (o === 2 && z[j] !== 6) cdX = true;
        }
        set(i, cdX ? (csAr ? 37 : 36) : csX ? 18 : 16);
      } else if (f === "SdssC" || f === "SdaaC") {
        let r = 0;
        let x = 0;
        let cdX = false;
        let ar = 0;
        for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
          const j = g.adjAtom[p]!;
          const o = g.order[g.adjBond[p]!]!;
          if (o === 1) {
            if (z[j] === 6) {
              r++;
              if (g.arom[j]) ar++;
            } else x++;
          } else if (o === 2 && isHetero(z[j]!)) cdX = true;
        }
        if (cdX) {
          if (ar >= 1) set(i, x === 1 ? 40 : 39);
          else if (r === 1 && x === 1) set(i, 40);
          else if (r === 0 && x === 2) set(i, 41);
          else set(i, 38);
        } else if (r === 2 && x === 0) set(i, 17);
        else if (r === 1 && x === 1) set(i, 19);
        else if (r === 0 && x === 2) set(i, 20);
      } else if (f === "StCH") {
        set(i, 21);
        addH(hAtomType(i), 1);
      } else if (f === "SddC") {
        const [a, b] = nbrs(i) as [number, number];
        if (z[a] === 6 && z[b] === 6) set(i, 22);
        else if (z[a] !== 6 && z[b] !== 6) set(i, 40);
      } else if (f === "StsC") {
        let ctX = false;
        let csX = false;
        for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
          const j = g.adjAtom[p]!;
          const o = g.order[g.adjBond[p]!]!;
          if (o === 1) {
            if (z[j] !== 6) csX = true;
          } else if (o === 3 && z[j] !== 6) ctX = true;
        }
        set(i, ctX && !csX ? 40 : csX ? 23 : 22);
      } else if (f === "SaaCH") {
        addH(hAtomType(i), 1);
        const [a, b] = nbrs(i) as [number, number];
        if (z[a] === 6 && z[b] === 6) set(i, 24);
        else {
          const d = hasDouble(a) && hasDouble(b);
          if (z[a] !== 6 && z[b] !== 6) set(i, d ? 30 : 42);
          else set(i, d ? 27 : 33);
        }
      } else if (f === "SsaaC" || f === "SaaaC") {
        let ns = nbrs(i);
        const same = ns.filter((j) => shareBlock(bondRings, i, j));
        let ring: [number, number];
        let other: number;
        if (same.length === 2) {
          ring = [same[0]!, same[1]!];
          other = ns.find((j) => !same.includes(j)) ?? -1;
        } else {
          // CDK sorts the neighbours heteroatoms first (stable) and takes the first two as ring atoms
          ns = [...ns.filter((j) => isHetero(z[j]!)), ...ns.filter((j) => !isHetero(z[j]!))];
          ring = [ns[0]!, ns[1]!];
          other = ns[2] ?? -1;
        }
        if (other < 0) return null; // CDK: NullPointerException → NaN
        const d = hasDouble(ring[0]) && hasDouble(ring[1]);
        const oc = z[other] === 6;
        const c0 = z[ring[0]] === 6;
        const c1 = z[ring[1]] === 6;
        if (!c0 && !c1) set(i, d ? (oc ? 31 : 32) : oc ? 43 : 44);
        else if (c0 && c1) set(i, oc ? 25 : 26);
        else set(i, d ? (oc ? 28 : 29) : oc ? 34 : 35);
      }
    } else if (zi === 8) {
      if (f === "SsOH") {
        addH(50, 1);
        const c = nbrs(i).find((j) => z[j] === 6);
        let t = 56;
        if (c !== undefined) {
          if (g.arom[c]) t = 57;
          else {
            for (let p = g.adjStart[c]!; p < g.adjStart[c + 1]!; p++) {
              const k = g.adjAtom[p]!;
              if (k !== i && g.order[g.adjBond[p]!] === 2 && (z[k] === 6 || z[k] === 8)) {
                t = 57;
                break;
              }
            }
          }
        }
        set(i, t);
      } else if (f === "SsOm" || f === "SdO") {
        const c = nbrs(i)[0]!;
        if (z[c] === 7 && g.charge[c] === 1) set(i, 61);
        else set(i, f === "SsOm" ? 62 : 58);
      } else if (f === "SssO") {
        const [a, b] = nbrs(i) as [number, number];
        if (g.arom[a] || g.arom[b]) set(i, 60);
        else {
          let ester = false;
          for (const j of [a, b]) {
            if (z[j] !== 6) continue;
            for (let p = g.adjStart[j]!; p < g.adjStart[j + 1]!; p++) {
              if (g.order[g.adjBond[p]!] === 2 && z[g.adjAtom[p]!] !== 6) ester = true;
            }
          }
          if (ester) set(i, 60);
          else set(i, z[a] === 8 || z[b] === 8 ? 63 : 59);
        }
      } else if (f === "SaaO") set(i, 60);
    } else if (zi === 7) {
      addH(50, h);
      let nAr = 0;
      let nAl = 0;
      for (const j of nbrs(i)) {
        if (z[j] === 1) continue;
        if (g.arom[j]) nAr++;
        else nAl++;
      }
      const typed = ((): boolean => {
        if ((f === "SsssN" || f === "SssNH" || f === "SsNH2") && !g.arom[i]) {
          for (const j of nbrs(i)) {
            if (z[j] === 1 || g.arom[j]) continue;
            for (let p = g.adjStart[j]!; p < g.adjStart[j + 1]!; p++) {
              const k = g.adjAtom[p]!;
              if (k !== i && z[k] !== 6 && !g.arom[k] && g.order[g.adjBond[p]!] === 2) {
                set(i, 72);
                return true;
              }
            }
          }
        }
        return false;
      })();
      if (typed) continue;
      if (f === "SsNH2") {
        const c = nbrs(i).find((j) => z[j] !== 1)!;
        set(i, g.arom[c] || z[c] !== 6 ? 69 : 66);
      } else if (f === "SaaNH" || f === "SsaaN" || f === "SaaaN" || f === "SaaNm") set(i, 73);
      else if (f === "SssNH") {
        if (nAr === 2 && nAl === 0) set(i, 73);
        else if (nAr === 1 && nAl === 1) set(i, 70);
        else if (nAr === 0 && nAl === 2) set(i, 67);
      } else if (f === "SsssN") {
        if ((nAr === 3 && nAl === 0) || (nAr === 2 && nAl === 1)) set(i, 73);
        else if (nAr === 1 && nAl === 2) set(i, 71);
        else if (nAr === 0 && nAl === 3) set(i, 68);
      } else if (f === "SaaN") set(i, 75);
      else if (f === "SdssNp" || f === "SddsN") {
        let sOm = 0;
        let dO = 0;
        let ar = false;
        for (const j of nbrs(i)) {
          if (frag[j] === "SsOm") sOm++;
          else if (frag[j] === "SdO") dO++;
          else if (g.arom[j]) ar = true;
        }
        const nitro = dO === 2 || (sOm >= 1 && dO >= 1);
        set(i, nitro ? (ar ? 76 : 77) : 79);
      } else if (f === "StN") {
        if (z[nbrs(i)[0]!] === 6) set(i, 74);
      } else if (f === "SdNH" || f === "SdsN") {
        const ns = nbrs(i);
        if (f === "SdsN" && z[ns[0]!] === 8 && z[ns[1]!] === 8) set(i, 76);
        else {
          let f1 = false;
          let f2 = false;
          for (const j of ns) {
            if (z[j] === 1) continue;
            if (bondOrder(i, j) === 2) {
              if (z[j] === 6) {
                set(i, 74);
                break;
              }
              f1 = true;
            } else if (z[j] !== 6 || g.arom[j]) f2 = true;
            if (f1 && f2) {
              set(i, 78);
              break;
            }
          }
        }
      } else if (f.includes("p")) set(i, 79);
    } else if (zi === 9) {
      if (f === "SsF") halogen(i, 81, false);
    } else if (zi === 17) {
      if (f === "SsCl" && !halogen(i, 86, true)) return null;
    } else if (zi === 35) {
      if (f === "SsBr" && !halogen(i, 91, true)) return null;
    } else if (zi === 53) {
      if (f === "SsI" && !halogen(i, 96, true)) return null;
    } else if (zi === 16) {
      if (f === "SsSH") {
        set(i, 106);
        addH(50, 1);
      } else if (f === "SssS" || f === "SaaS") set(i, 107);
      else if (f === "SdS") set(i, 108);
      else if (f === "SdssS" || f === "SddssS") {
        let sdO = 0;
        for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
          if (g.order[g.adjBond[p]!] === 2 && z[g.adjAtom[p]!] === 8) sdO++;
        }
        if (f === "SdssS" && sdO === 1) set(i, 109);
        if (f === "SddssS" && sdO === 2) set(i, 110);
      }
    } else if (zi === 14) {
      if (f === "SssssSi") set(i, 111);
    } else if (zi === 5) {
      if (f === "SsssB" || f === "SssBm") set(i, 112);
    } else if (zi === 15) {
      if (f === "SssssPp") set(i, 115);
      else if (f === "SdsssP" || f === "SsssP") {
        let r = 0;
        let x = 0;
        let pdX = false;
        for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
          const j = g.adjAtom[p]!;
          const o = g.order[g.adjBond[p]!]!;
          if (o === 1) {
            if (z[j] === 6) r++;
            else x++;
          } else if (o === 2 && z[j] !== 6) pdX = true;
        }
        if (f === "SdsssP") {
          if (pdX) {
            if (r === 3) set(i, 116);
            else if (x === 3) set(i, 117);
            else if (x === 2 && r === 1) set(i, 120);
          }
        } else if (x === 3) set(i, 118);
        else if (r === 3) set(i, 119);
      }
    }
    // halide ions and hydrogen halides (101–104)
    if (zi === 9 || zi === 17 || zi === 35 || zi === 53) {
      const q = g.charge[i]!;
      const hOnly = (g.degree[i] === 0 && h === 1) || (g.degree[i] === 1 && z[g.adjAtom[g.adjStart[i]!]!] === 1);
      if (q === -1 || (q === 0 && hOnly)) set(i, zi === 9 ? 101 : zi === 17 ? 102 : zi === 35 ? 103 : 104);
    }
  }
  let logp = 0;
  let amr = 0;
  for (let t = 1; t <= 120; t++) {
    logp += FRAGVAL[t]! * frags[t]!;
    amr += REFRACVAL[t]! * frags[t]!;
  }
  return { alogp: logp, amr, frags, types };
}
