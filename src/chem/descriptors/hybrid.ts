/**
 * Hybrid descriptors, 2D part: BCUT (CDK BCUTDescriptor) at CDK's
 * default nhigh = nlow = 1. WHIM (the other hybrid class) needs 3D coordinates and is not
 * computed here.
 *
 * Burden matrix over the heavy atoms: off-diagonal 0.001 for non-bonded pairs; bonded pairs
 * 0.1/0.2/0.3 for single/double/triple, 0.15 aromatic, +0.01 when either atom is terminal (heavy
 * degree 1). Diagonal: major-isotope mass (w), CDK-GM charge computed with explicit H (c),
 * effective polarizability with explicit H and those charges (p). Eigenvalues by cyclic Jacobi.
 */

import { jacobiEigen } from "../../numeric/jacobi.ts";
import type { DescriptorContext } from "./descriptor-context.ts";
import { MAJOR_ISOTOPE_MASS } from "./elements.ts";
import { put, type CdkDescriptor } from "./types.ts";

/** Eigenvalues only; stop once the off-diagonal sum of squares is below 1e-22. */
const BCUT_JACOBI = { converged: (off: number) => off < 1e-22, vectors: false } as const;

/** Eigenvalues of a symmetric n×n matrix (row-major, destroyed), ascending. */
export function symmetricEigenvalues(a: Float64Array, n: number): Float64Array {
  return jacobiEigen(a, n, BCUT_JACOBI).values.sort();
}

/** Burden matrix off-diagonal part (diagonal left 0). */
function burden(ctx: DescriptorContext): Float64Array {
  const g = ctx.g;
  const n = g.n;
  const a = new Float64Array(n * n).fill(0.001);
  for (let i = 0; i < n; i++) a[i * n + i] = 0;
  for (let b = 0; b < g.m; b++) {
    const i = g.bondA[b]!;
    const j = g.bondB[b]!;
    let v = g.bondArom[b] ? 0.15 : g.order[b] === 1 ? 0.1 : g.order[b] === 2 ? 0.2 : g.order[b] === 3 ? 0.3 : 0.001;
    if (g.degree[i] === 1 || g.degree[j] === 1) v += 0.01;
    a[i * n + j] = a[j * n + i] = v;
  }
  return a;
}

export const HYBRID: readonly CdkDescriptor[] = [
  {
    id: "BCUTDescriptor",
    title: "BCUT: extreme eigenvalues of Burden matrices weighted by mass, charge, polarizability",
    pcType: "hybrid",
    lib: "cdk",
    values: ["BCUTw-1l", "BCUTw-1h", "BCUTc-1l", "BCUTc-1h", "BCUTp-1l", "BCUTp-1h"],
    compute(ctx, out) {
      const g = ctx.g;
      const n = g.n;
      if (n === 0) return;
      const q = ctx.gmExplicitH;
      if (q === null) return; // CDK: partial charges failed → whole descriptor undefined
      const masses = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const m = MAJOR_ISOTOPE_MASS.get(g.z[i]!);
        if (m === undefined) return;
        masses[i] = m;
      }
      const pol = ctx.polarizability(true);
      const base = burden(ctx);
      const diag: [string, ArrayLike<number>][] = [
        ["w", masses],
        ["c", q.heavy],
        ["p", pol],
      ];
      for (const [k, d] of diag) {
        const a = base.slice();
        for (let i = 0; i < n; i++) a[i * n + i] = d[i]!;
        const ev = symmetricEigenvalues(a, n);
        put(out, `BCUT${k}-1l`, ev[0]!);
        put(out, `BCUT${k}-1h`, ev[n - 1]!);
      }
    },
  },
];
