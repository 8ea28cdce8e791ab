/**
 * Electronic descriptors, CDK-compatible: the four classes of lazar's pc_type `electronic` —
 * APol, BPol, HBondAcceptorCount, HBondDonorCount (docs/descriptors.md "Categories and
 * libraries").
 */

import { H_POLARIZABILITY, POLARIZABILITY } from "./elements.ts";
import { put, type CdkDescriptor } from "./types.ts";

function alpha(z: number): number {
  return POLARIZABILITY[z] ?? NaN;
}

export const ELECTRONIC: readonly CdkDescriptor[] = [
  {
    id: "APolDescriptor",
    title: "Sum of atomic polarizabilities (including implicit hydrogens)",
    pcType: "electronic",
    lib: "cdk",
    values: ["apol"],
    compute(ctx, out) {
      const g = ctx.g;
      let s = 0;
      for (let i = 0; i < g.n; i++) s += alpha(g.z[i]!) + g.h[i]! * H_POLARIZABILITY;
      put(out, "apol", s);
    },
  },
  {
    id: "BPolDescriptor",
    title: "Sum of absolute polarizability differences of bonded atoms (including bonds to H)",
    pcType: "electronic",
    lib: "cdk",
    values: ["bpol"],
    compute(ctx, out) {
      const g = ctx.g;
      let s = 0;
      for (let b = 0; b < g.m; b++) s += Math.abs(alpha(g.z[g.bondA[b]!]!) - alpha(g.z[g.bondB[b]!]!));
      for (let i = 0; i < g.n; i++) if (g.h[i]) s += g.h[i]! * Math.abs(alpha(g.z[i]!) - H_POLARIZABILITY);
      put(out, "bpol", s);
    },
  },
  {
    id: "HBondAcceptorCountDescriptor",
    title: "Number of hydrogen-bond acceptors",
    pcType: "electronic",
    lib: "cdk",
    values: ["nHBAcc"],
    compute(ctx, out) {
      const g = ctx.g;
      let c = 0;
      atoms: for (let i = 0; i < g.n; i++) {
        const z = g.z[i];
        if (g.charge[i]! > 0) continue;
        if (z === 7) {
          // not next to an oxygen; an aromatic N needs a (Kekulé) double bond (pyridine-type)
          let pi = 0;
          for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
            if (g.z[g.adjAtom[p]!] === 8) continue atoms;
            if (g.order[g.adjBond[p]!] === 2) pi++;
          }
          if (g.arom[i] && pi === 0) continue;
          c++;
        } else if (z === 8) {
          // not next to a nitrogen; not an ether oxygen on an aromatic carbon
          for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
            const j = g.adjAtom[p]!;
            if (g.z[j] === 7) continue atoms;
            if (g.z[j] === 6 && g.arom[j] && g.degree[i] !== 1) continue atoms;
          }
          c++;
        }
      }
      out.set("nHBAcc", c);
    },
  },
  {
    id: "HBondDonorCountDescriptor",
    title: "Number of hydrogen-bond donors (N or O carrying H)",
    pcType: "electronic",
    lib: "cdk",
    values: ["nHBDon"],
    compute(ctx, out) {
      const g = ctx.g;
      let c = 0;
      for (let i = 0; i < g.n; i++) {
        if ((g.z[i] === 7 || g.z[i] === 8) && g.charge[i]! >= 0 && g.h[i]! > 0) c++;
      }
      out.set("nHBDon", c);
    },
  },
];
