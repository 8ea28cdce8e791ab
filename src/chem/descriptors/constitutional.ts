/**
 * Constitutional descriptors, CDK-compatible (spec descriptors.md §1.2). Computed here:
 * AtomCount, BondCount, AromaticAtomsCount, AromaticBondsCount, RotatableBondsCount,
 * LargestChain, LongestAliphaticChain, LargestPiSystem, MannholdLogP.
 *
 * Listed but not computed (their values are always absent): ALOGPDescriptor (Ghose–Crippen
 * 1998 atom types), XLogPDescriptor (Wang XLogP 2 types + corrections) and RuleOfFiveDescriptor
 * (which needs XLogP). Their value names are still registered so that clients see the CDK set.
 */

import type { DescriptorContext } from "./context.ts";
import { put, type CdkDescriptor } from "./types.ts";

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
    title: "Number of Lipinski rule-of-five failures (needs XLogP: not computed)",
    pcType: "constitutional",
    lib: "cdk",
    values: ["LipinskiFailures"],
    compute() {},
  },
  {
    id: "ALOGPDescriptor",
    title: "Ghose–Crippen logP and molar refractivity (not computed)",
    pcType: "constitutional",
    lib: "cdk",
    values: ["ALogP", "ALogp2", "AMR"],
    compute() {},
  },
  {
    id: "XLogPDescriptor",
    title: "XLogP (not computed)",
    pcType: "constitutional",
    lib: "cdk",
    values: ["XLogP"],
    compute() {},
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
 * bond, neither terminal (heavy degree 1) unless `includeTerminals`. Amides are not excluded
 * (CDK default).
 */
export function rotatableBonds(ctx: DescriptorContext, includeTerminals: boolean): number {
  const g = ctx.g;
  let c = 0;
  for (let b = 0; b < g.m; b++) {
    if (g.order[b] !== 1 || ctx.ringBond[b] || g.bondArom[b]) continue;
    const a = g.bondA[b]!;
    const d = g.bondB[b]!;
    if (ctx.maxOrder[a]! >= 3 || ctx.maxOrder[d]! >= 3) continue;
    if (!includeTerminals && (g.degree[a]! < 2 || g.degree[d]! < 2)) continue;
    c++;
  }
  return c;
}
