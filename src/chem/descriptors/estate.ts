/**
 * Kier–Hall E-state atom-type counts (CDK KierHallSmartsDescriptor, 79 values `khs.<type>`).
 *
 * CDK counts the unique matches of the 79 SMARTS of `EStateFragments` (same list as RDKit's
 * EState AtomTypes; verified against the CDK 2.8 class file). Every pattern is one central atom
 * with element, degree (D = heavy neighbours) and usually H-count constraints, and all its
 * neighbours listed with bond types, so a match is the atom plus its whole neighbourhood. Instead
 * of running 79 substructure searches we type each atom once from its bond multiset. "Unique"
 * means distinct atom sets: two typed atoms with the same closed neighbourhood (ethane's two
 * methyls, cyclopropane's three CH2) count once, as in CDK.
 *
 * Bond symbols in the patterns: `-` single non-aromatic, `=` double, `#` triple, `:` aromatic,
 * `-,:` single or aromatic, `~` any. SMARTS element case: `C` aliphatic, `c` aromatic.
 */

import type { DescriptorContext } from "./descriptor-context.ts";
import type { CdkDescriptor, DescriptorValues } from "./types.ts";

/** One E-state type: [name, elements (symbol + aromatic?), D, H (−1 = any), bond multiset]. */
interface EType {
  readonly name: string;
  /** Allowed (atomic number, aromatic) pairs. */
  readonly elems: readonly (readonly [number, boolean])[];
  /** Required H count, or −1 for any. Applies to all elems unless `hOnlyAromatic`. */
  readonly h: number;
  readonly d: number;
  /** Bonds: counts of s (single), d, t, a (aromatic) — x = single-or-aromatic, o = ~[OD1H0] */
  readonly s: number;
  readonly db: number;
  readonly t: number;
  readonly a: number;
  readonly x?: number;
  readonly o?: number;
  /**
   * For `[N,nD2H](:*):*`-style patterns the D/H constraints bind only to the aromatic element
   * (SMARTS precedence: `N` OR `n&D2&H1`), while the aliphatic element is unconstrained.
   */
  readonly looseAliphatic?: boolean;
}

const C = 6, N = 7, O = 8, S = 16, P = 15, SI = 14, B = 5, BE = 4, LI = 3, F = 9, CL = 17, BR = 35, I = 53;
const GE = 32, AS = 33, SE = 34, SN = 50, PB = 82;
const ali = (z: number): readonly [number, boolean] => [z, false];
const aro = (z: number): readonly [number, boolean] => [z, true];

function t(name: string, elems: (readonly [number, boolean])[], d: number, h: number, bonds: string, loose = false): EType {
  let s = 0, db = 0, tr = 0, a = 0, x = 0, o = 0;
  for (const c of bonds) {
    if (c === "s") s++;
    else if (c === "d") db++;
    else if (c === "t") tr++;
    else if (c === "a") a++;
    else if (c === "x") x++;
    else if (c === "o") o++;
  }
  return { name, elems, d, h, s, db, t: tr, a, x, o, looseAliphatic: loose };
}

/** The 79 types in CDK order, transcribed from the SMARTS in the comments. */
export const ESTATE_TYPES: readonly EType[] = [
  t("sLi", [ali(LI)], 1, -1, "s"), // [LiD1]-*
  t("ssBe", [ali(BE)], 2, -1, "ss"), // [BeD2](-*)-*
  t("ssssBe", [ali(BE)], 4, -1, "ssss"),
  t("ssBH", [ali(B)], 2, 1, "ss"), // [BD2H](-*)-*
  t("sssB", [ali(B)], 3, -1, "sss"),
  t("ssssB", [ali(B)], 4, -1, "ssss"),
  t("sCH3", [ali(C)], 1, 3, "s"), // [CD1H3]-*
  t("dCH2", [ali(C)], 1, 2, "d"), // [CD1H2]=*
  t("ssCH2", [ali(C)], 2, 2, "ss"),
  t("tCH", [ali(C)], 1, 1, "t"), // [CD1H]#*
  t("dsCH", [ali(C)], 2, 1, "ds"),
  t("aaCH", [ali(C), aro(C)], 2, 1, "aa"), // [C,c;D2H](:*):*
  t("sssCH", [ali(C)], 3, 1, "sss"),
  t("ddC", [ali(C)], 2, 0, "dd"),
  t("tsC", [ali(C)], 2, 0, "ts"),
  t("dssC", [ali(C)], 3, 0, "dss"),
  t("aasC", [ali(C), aro(C)], 3, 0, "aas"), // [C,c;D3H0](:*)(:*)-*
  t("aaaC", [ali(C), aro(C)], 3, 0, "aaa"),
  t("ssssC", [ali(C)], 4, 0, "ssss"),
  t("sNH3", [ali(N)], 1, 3, "s"),
  t("sNH2", [ali(N)], 1, 2, "s"),
  t("ssNH2", [ali(N)], 2, 2, "ss"),
  t("dNH", [ali(N)], 1, 1, "d"),
  t("ssNH", [ali(N)], 2, 1, "ss"),
  t("aaNH", [ali(N), aro(N)], 2, 1, "aa", true), // [N,nD2H](:*):*
  t("tN", [ali(N)], 1, 0, "t"),
  t("sssNH", [ali(N)], 3, 1, "sss"),
  t("dsN", [ali(N)], 2, 0, "ds"),
  t("aaN", [ali(N), aro(N)], 2, 0, "aa", true), // [N,nD2H0](:*):*
  t("sssN", [ali(N)], 3, 0, "sss"),
  t("ddsN", [ali(N)], 3, 0, "oox"), // [ND3H0](~[OD1H0])(~[OD1H0])-,:*
  t("aasN", [ali(N), aro(N)], 3, 0, "aax", true), // [N,nD3H0](:*)(:*)-,:*
  t("ssssN", [ali(N)], 4, 0, "ssss"),
  t("sOH", [ali(O)], 1, 1, "s"),
  t("dO", [ali(O)], 1, 0, "d"),
  t("ssO", [ali(O)], 2, 0, "ss"),
  t("aaO", [ali(O), aro(O)], 2, 0, "aa", true), // [O,oD2H0](:*):*
  t("sF", [ali(F)], 1, -1, "s"),
  t("sSiH3", [ali(SI)], 1, 3, "s"),
  t("ssSiH2", [ali(SI)], 2, 2, "ss"),
  t("sssSiH", [ali(SI)], 3, 1, "sss"),
  t("ssssSi", [ali(SI)], 4, 0, "ssss"),
  t("sPH2", [ali(P)], 1, 2, "s"),
  t("ssPH", [ali(P)], 2, 1, "ss"),
  t("sssP", [ali(P)], 3, 0, "sss"),
  t("dsssP", [ali(P)], 4, 0, "dsss"),
  t("sssssP", [ali(P)], 5, 0, "sssss"),
  t("sSH", [ali(S)], 1, 1, "s"),
  t("dS", [ali(S)], 1, 0, "d"),
  t("ssS", [ali(S)], 2, 0, "ss"),
  t("aaS", [ali(S), aro(S)], 2, 0, "aa", true), // [S,sD2H0](:*):*
  t("dssS", [ali(S)], 3, 0, "dss"),
  t("ddssS", [ali(S)], 4, 0, "ooss"), // [SD4H0](~[OD1H0])(~[OD1H0])(-*)-*
  t("sCl", [ali(CL)], 1, -1, "s"),
  t("sGeH3", [ali(GE)], 1, 3, "s"),
  t("ssGeH2", [ali(GE)], 2, 2, "ss"),
  t("sssGeH", [ali(GE)], 3, 1, "sss"),
  t("ssssGe", [ali(GE)], 4, 0, "ssss"),
  t("sAsH2", [ali(AS)], 1, 2, "s"),
  t("ssAsH", [ali(AS)], 2, 1, "ss"),
  t("sssAs", [ali(AS)], 3, 0, "sss"),
  t("sssdAs", [ali(AS)], 4, 0, "dsss"),
  t("sssssAs", [ali(AS)], 5, 0, "sssss"),
  t("sSeH", [ali(SE)], 1, 1, "s"),
  t("dSe", [ali(SE)], 1, 0, "d"),
  t("ssSe", [ali(SE)], 2, 0, "ss"),
  t("aaSe", [ali(SE)], 2, 0, "aa"), // [SeD2H0](:*):* — aliphatic Se only, as written in CDK
  t("dssSe", [ali(SE)], 3, 0, "dss"),
  t("ddssSe", [ali(SE)], 4, 0, "ddss"),
  t("sBr", [ali(BR)], 1, -1, "s"),
  t("sSnH3", [ali(SN)], 1, 3, "s"),
  t("ssSnH2", [ali(SN)], 2, 2, "ss"),
  t("sssSnH", [ali(SN)], 3, 1, "sss"),
  t("ssssSn", [ali(SN)], 4, 0, "ssss"),
  t("sI", [ali(I)], 1, -1, "s"),
  t("sPbH3", [ali(PB)], 1, 3, "s"),
  t("ssPbH2", [ali(PB)], 2, 2, "ss"),
  t("sssPbH", [ali(PB)], 3, 1, "sss"),
  t("ssssPb", [ali(PB)], 4, 0, "ssss"),
];

export const KHS_NAMES: readonly string[] = ESTATE_TYPES.map((e) => `khs.${e.name}`);

/** Bond kind counts of an atom: s (single non-aromatic), d, t, a (aromatic). */
function bondKinds(ctx: DescriptorContext, i: number, out: Int32Array): void {
  const g = ctx.g;
  out.fill(0);
  for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
    const b = g.adjBond[p]!;
    if (g.bondArom[b]) out[3]!++;
    else if (g.order[b] === 1) out[0]!++;
    else if (g.order[b] === 2) out[1]!++;
    else if (g.order[b] === 3) out[2]!++;
    else out[4]!++; // zero-order / other: matches only `~`
  }
}

function matches(ctx: DescriptorContext, i: number, e: EType, k: Int32Array): boolean {
  const g = ctx.g;
  const z = g.z[i]!;
  const ar = g.arom[i] === 1;
  let elemOk = false;
  let loose = false;
  for (const [ez, ea] of e.elems) {
    if (ez === z && ea === ar) {
      elemOk = true;
      loose = e.looseAliphatic === true && !ea;
    }
  }
  if (!elemOk) return false;
  if (!loose) {
    if (g.degree[i] !== e.d) return false;
    if (e.h >= 0 && g.h[i] !== e.h) return false;
  }
  if (e.o) {
    // Two neighbours ~[OD1H0]; the remaining bonds single (e.s) or single-or-aromatic (e.x).
    // Terminal oxygens whose bond could not fill a remaining slot are used for ~[OD1H0] first.
    const fits = (b: number): boolean => (e.x ? g.bondArom[b] === 1 || g.order[b] === 1 : g.bondArom[b] === 0 && g.order[b] === 1);
    let oSlots = e.o;
    let restOk = 0;
    let restBad = 0;
    let spareO = 0;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
      const j = g.adjAtom[p]!;
      const b = g.adjBond[p]!;
      const terminalO = g.z[j] === O && g.degree[j] === 1 && g.h[j] === 0;
      if (terminalO && !fits(b) && oSlots > 0) oSlots--;
      else if (terminalO && fits(b)) spareO++;
      else if (fits(b)) restOk++;
      else restBad++;
    }
    const useSpare = Math.min(oSlots, spareO);
    oSlots -= useSpare;
    restOk += spareO - useSpare;
    return oSlots === 0 && restBad === 0 && restOk === (e.x ?? 0) + e.s;
  }
  const [s, d, tr, a, other] = [k[0]!, k[1]!, k[2]!, k[3]!, k[4]!];
  if (loose) {
    // SMARTS: the listed bonds must be matched by distinct neighbours; extra neighbours allowed.
    return a >= e.a && s + a >= e.a + (e.x ?? 0) && d >= e.db && tr >= e.t && s >= e.s;
  }
  if (other) return false;
  if (e.x) return d === e.db && tr === e.t && a >= e.a && s + a === e.a + e.x + e.s && s >= e.s;
  return s === e.s && d === e.db && tr === e.t && a === e.a;
}

/** khs.* counts into `out`. */
export function kierHallCounts(ctx: DescriptorContext, out: DescriptorValues): void {
  const g = ctx.g;
  const counts = new Int32Array(ESTATE_TYPES.length);
  const seen: Set<string>[] = ESTATE_TYPES.map(() => new Set());
  const k = new Int32Array(5);
  const nb: number[] = [];
  for (let i = 0; i < g.n; i++) {
    bondKinds(ctx, i, k);
    for (let ti = 0; ti < ESTATE_TYPES.length; ti++) {
      const e = ESTATE_TYPES[ti]!;
      if (!matches(ctx, i, e, k)) continue;
      // Unique match = distinct atom set; only small symmetric systems can repeat one.
      nb.length = 0;
      nb.push(i);
      for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) nb.push(g.adjAtom[p]!);
      nb.sort((x, y) => x - y);
      const key = nb.join(",");
      if (!seen[ti]!.has(key)) {
        seen[ti]!.add(key);
        counts[ti]!++;
      }
    }
  }
  for (let ti = 0; ti < ESTATE_TYPES.length; ti++) out.set(KHS_NAMES[ti]!, counts[ti]!);
}

export const KIER_HALL: CdkDescriptor = {
  id: "KierHallSmartsDescriptor",
  title: "Counts of the 79 Kier–Hall E-state atom types",
  pcType: "topological",
  lib: "cdk",
  values: KHS_NAMES,
  compute: kierHallCounts,
};
