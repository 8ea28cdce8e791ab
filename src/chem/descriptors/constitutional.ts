/**
 * Constitutional descriptors, CDK-compatible: AtomCount, BondCount,
 * AromaticAtomsCount, AromaticBondsCount, RotatableBondsCount, LargestChain,
 * LongestAliphaticChain, LargestPiSystem, RuleOfFive, ALOGP (Ghose–Crippen, alogp.ts), XLogP
 * (xlogp.ts), MannholdLogP.
 *
 * ALOGP and XLogP want explicit hydrogens in CDK; they are computed here from the H counts of
 * the graph, which gives CDK's result on the molecule with explicit hydrogens. Checked against
 * CDK 2.8 (Debian libcdk-java, fed the same aromatic SMILES): ALogP/AMR, XLogP and
 * LipinskiFailures equal CDK's to 1e-6 on all 4069 kazius molecules and on 41890, 41905 and
 * 41905 of the 41906 MoleculeNet HIV molecules (the rest: neighbour-order or Kekulé-form
 * dependent choices in CDK's ALOGP, CDK failures). Aromaticity is RDKit's throughout (graph.ts),
 * so molecules RDKit calls aromatic and CDK does not (e.g. uracils) get the values of the
 * aromatic form.
 */

import { alogp } from "./alogp.ts";
import type { DescriptorContext } from "./descriptor-context.ts";
import { NATURAL_MASS } from "./elements.ts";
import { put, type CdkDescriptor } from "./types.ts";
import { ELECTRONIC } from "./electronic.ts";
import { xlogp } from "./xlogp.ts";

/** The H-bond counters RuleOfFive uses (CDK HBondAcceptorCount / HBondDonorCount). */
const ELECTRONIC_HBOND = ELECTRONIC.filter((d) => d.id === "HBondAcceptorCountDescriptor" || d.id === "HBondDonorCountDescriptor");

/** Longest shortest path (in atoms) inside the forest induced by `member` atoms (0 if no pair). */
function longestInForest(ctx: DescriptorContext, member: Uint8Array): number {
  const g = ctx.g;
  const n = g.n;
  const dist = new Int32Array(n);
  const queue = new Int32Array(n);
  let best = 0;
  for (let s = 0; s < n; s++) {
    if (!member[s]) continue;
    dist.fill(-1);
    dist[s] = 0;
    let head = 0;
    let tail = 0;
    queue[tail++] = s;
    while (head < tail) {
      const v = queue[head++]!;
      if (dist[v]! + 1 > best && v !== s) best = dist[v]! + 1;
      for (let p = g.adjStart[v]!; p < g.adjStart[v + 1]!; p++) {
        const w = g.adjAtom[p]!;
        if (member[w] && dist[w] === -1) {
          dist[w] = dist[v]! + 1;
          queue[tail++] = w;
        }
      }
    }
  }
  return best;
}

export const CONSTITUTIONAL: readonly CdkDescriptor[] = [
  {
    id: "AtomCountDescriptor",
    title: "Number of atoms (including hydrogens)",
    pcType: "constitutional",
    lib: "cdk",
    values: ["nAtom"],
    compute(ctx, out) {
      out.set("nAtom", ctx.g.total);
    },
  },
  {
    id: "BondCountDescriptor",
    title: "Number of bonds between heavy atoms",
    pcType: "constitutional",
    lib: "cdk",
    values: ["nB"],
    compute(ctx, out) {
      out.set("nB", ctx.g.m);
    },
  },
  {
    id: "AromaticAtomsCountDescriptor",
    title: "Number of aromatic atoms",
    pcType: "constitutional",
    lib: "cdk",
    values: ["naAromAtom"],
    compute(ctx, out) {
      let c = 0;
      for (let i = 0; i < ctx.g.n; i++) c += ctx.g.arom[i]!;
      out.set("naAromAtom", c);
    },
  },
  {
    id: "AromaticBondsCountDescriptor",
    title: "Number of aromatic bonds",
    pcType: "constitutional",
    lib: "cdk",
    values: ["nAromBond"],
    compute(ctx, out) {
      let c = 0;
      for (let b = 0; b < ctx.g.m; b++) c += ctx.g.bondArom[b]!;
      out.set("nAromBond", c);
    },
  },
  {
    id: "RotatableBondsCountDescriptor",
    title: "Number of rotatable bonds",
    pcType: "constitutional",
    lib: "cdk",
    values: ["nRotB"],
    compute(ctx, out) {
      out.set("nRotB", rotatableBonds(ctx, false));
    },
  },
  {
    id: "LargestChainDescriptor",
    title: "Number of atoms in the largest chain",
    pcType: "constitutional",
    lib: "cdk",
    values: ["nAtomLC"],
    compute(ctx, out) {
      const member = new Uint8Array(ctx.g.n);
      for (let i = 0; i < ctx.g.n; i++) member[i] = ctx.ringAtom[i] ? 0 : 1;
      out.set("nAtomLC", longestInForest(ctx, member));
    },
  },
  {
    id: "LongestAliphaticChainDescriptor",
    title: "Number of atoms in the longest aliphatic chain",
    pcType: "constitutional",
    lib: "cdk",
    values: ["nAtomLAC"],
    compute(ctx, out) {
      const g = ctx.g;
      const member = new Uint8Array(g.n);
      let any = 0;
      for (let i = 0; i < g.n; i++) {
        member[i] = g.z[i] === 6 && !g.arom[i] && !ctx.ringAtom[i] ? 1 : 0;
        any |= member[i]!;
      }
      // A lone acyclic carbon is a chain of one atom.
      out.set("nAtomLAC", Math.max(any, longestInForest(ctx, member)));
    },
  },
  {
    id: "LargestPiSystemDescriptor",
    title: "Number of atoms in the largest pi system",
    pcType: "constitutional",
    lib: "cdk",
    values: ["nAtomP"],
    compute(ctx, out) {
      const g = ctx.g;
      const n = g.n;
      const pi = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        pi[i] = ctx.maxOrder[i]! > 1 || g.charge[i] !== 0 || g.arom[i] || g.z[i] === 7 || g.z[i] === 8 ? 1 : 0;
      }
      const seen = new Uint8Array(n);
      const queue = new Int32Array(n);
      let best = 0;
      for (let s = 0; s < n; s++) {
        if (!pi[s] || seen[s]) continue;
        let head = 0;
        let tail = 0;
        queue[tail++] = s;
        seen[s] = 1;
        while (head < tail) {
          const v = queue[head++]!;
          for (let p = g.adjStart[v]!; p < g.adjStart[v + 1]!; p++) {
            const w = g.adjAtom[p]!;
            if (pi[w] && !seen[w]) {
              seen[w] = 1;
              queue[tail++] = w;
            }
          }
        }
        // A single atom is not a pi system (CDK gives 0 for a lone N or O).
        if (tail > 1 && tail > best) best = tail;
      }
      out.set("nAtomP", best);
    },
  },
  {
    id: "RuleOfFiveDescriptor",
    title: "Number of Lipinski rule-of-five failures",
    pcType: "constitutional",
    lib: "cdk",
    values: ["LipinskiFailures"],
    compute(ctx, out) {
      const v = lipinskiFailures(ctx);
      if (v !== null) out.set("LipinskiFailures", v);
    },
  },
  {
    id: "ALOGPDescriptor",
    title: "Ghose–Crippen logP and molar refractivity",
    pcType: "constitutional",
    lib: "cdk",
    values: ["ALogP", "ALogp2", "AMR"],
    compute(ctx, out) {
      const r = alogp(ctx);
      if (r === null) return;
      put(out, "ALogP", r.alogp);
      put(out, "ALogp2", r.alogp * r.alogp);
      put(out, "AMR", r.amr);
    },
  },
  {
    id: "XLogPDescriptor",
    title: "XLogP (Wang et al. atom types and corrections)",
    pcType: "constitutional",
    lib: "cdk",
    values: ["XLogP"],
    compute(ctx, out) {
      put(out, "XLogP", xlogp(ctx));
    },
  },
  {
    id: "MannholdLogPDescriptor",
    title: "Mannhold logP: 1.46 + 0.11 nC − 0.11 nHetero",
    pcType: "constitutional",
    lib: "cdk",
    values: ["MLogP"],
    compute(ctx, out) {
      const g = ctx.g;
      let c = 0;
      let het = 0;
      for (let i = 0; i < g.n; i++) {
        if (g.z[i] === 6) c++;
        else if (g.z[i] !== 1) het++;
      }
      put(out, "MLogP", 1.46 + 0.11 * c - 0.11 * het);
    },
  },
];

/**
 * CDK RotatableBondsCount: single acyclic bonds between heavy atoms, neither atom with a triple
 * bond, neither terminal (heavy degree 1) unless `includeTerminals`. Amides (C–N where the C
 * carries a double-bonded O) are excluded only with `excludeAmides` (CDK default: not).
 */
export function rotatableBonds(ctx: DescriptorContext, includeTerminals: boolean, excludeAmides = false): number {
  const g = ctx.g;
  let c = 0;
  for (let b = 0; b < g.m; b++) {
    if (g.order[b] !== 1 || ctx.ringBond[b] || g.bondArom[b]) continue;
    const a = g.bondA[b]!;
    const d = g.bondB[b]!;
    if (ctx.maxOrder[a]! >= 3 || ctx.maxOrder[d]! >= 3) continue;
    if (!includeTerminals && (g.degree[a]! < 2 || g.degree[d]! < 2)) continue;
    if (excludeAmides && (isAmideBond(g, a, d) || isAmideBond(g, d, a))) continue;
    c++;
  }
  return c;
}

/** CDK RotatableBondsCountDescriptor.isAmide: c is C, n is N, and c has a double bond to O. */
function isAmideBond(g: DescriptorContext["g"], c: number, n: number): boolean {
  if (g.z[c] !== 6 || g.z[n] !== 7) return false;
  for (let p = g.adjStart[c]!; p < g.adjStart[c + 1]!; p++) {
    if (g.z[g.adjAtom[p]!] === 8 && g.order[g.adjBond[p]!] === 2) return true;
  }
  return false;
}

/**
 * IUPAC standard atomic weights (conventional/abridged values; mass number of the longest-lived
 * isotope for Tc, Pm, Po–Ac) by atomic number 1..92, for elements without an entry in
 * NATURAL_MASS. Only used for RuleOfFive's MW > 500 test.
 */
// prettier-ignore
const STANDARD_ATOMIC_WEIGHT: readonly number[] = [0,
  1.008, 4.0026, 6.94, 9.0122, 10.81, 12.011, 14.007, 15.999, 18.998, 20.18,
  22.99, 24.305, 26.982, 28.085, 30.974, 32.06, 35.45, 39.948, 39.098, 40.078,
  44.956, 47.867, 50.942, 51.996, 54.938, 55.845, 58.933, 58.693, 63.546, 65.38,
  69.723, 72.63, 74.922, 78.971, 79.904, 83.798, 85.468, 87.62, 88.906, 91.224,
  92.906, 95.95, 98, 101.07, 102.91, 106.42, 107.87, 112.41, 114.82, 118.71,
  121.76, 127.6, 126.9, 131.29, 132.91, 137.33, 138.91, 140.12, 140.91, 144.24,
  145, 150.36, 151.96, 157.25, 158.93, 162.5, 164.93, 167.26, 168.93, 173.05,
  174.97, 178.49, 180.95, 183.84, 186.21, 190.23, 192.22, 195.08, 196.97, 200.59,
  204.38, 207.2, 208.98, 209, 210, 222, 223, 226, 227, 232.04,
  231.04, 238.03,
];

/**
 * CDK WeightDescriptor ("*"): Σ natural masses of the atoms plus their hydrogens (CDK's
 * natural masses where elements.ts has them, else standard atomic weights); null for an
 * element beyond uranium or a dummy atom.
 */
export function molecularWeight(g: DescriptorContext["g"]): number | null {
  const hMass = NATURAL_MASS.get(1)!;
  let w = 0;
  for (let i = 0; i < g.n; i++) {
    const zi = g.z[i]!;
    const m = zi === 0 ? undefined : (NATURAL_MASS.get(zi) ?? STANDARD_ATOMIC_WEIGHT[zi]);
    if (m === undefined) return null;
    w += m + g.h[i]! * hMass;
  }
  return w;
}

/**
 * CDK RuleOfFiveDescriptor: violations of XLogP > 5 (XLogP with the salicylic acid
 * correction, as RuleOfFive sets it), nHBAcc > 10, nHBDon > 5, MW > 500, rotatable bonds > 10
 * (terminal bonds and amide C–N bonds not counted). Null when a part cannot be computed.
 */
export function lipinskiFailures(ctx: DescriptorContext): number | null {
  const hb = new Map<string, number>();
  for (const d of ELECTRONIC_HBOND) d.compute(ctx, hb);
  const acc = hb.get("nHBAcc");
  const don = hb.get("nHBDon");
  const mw = molecularWeight(ctx.g);
  const xl = xlogp(ctx, { salicylFlag: true });
  if (acc === undefined || don === undefined || mw === null || !Number.isFinite(xl)) return null;
  let f = 0;
  if (xl > 5) f++;
  if (acc > 10) f++;
  if (don > 5) f++;
  if (mw > 500) f++;
  if (rotatableBonds(ctx, false, true) > 10) f++;
  return f;
}
