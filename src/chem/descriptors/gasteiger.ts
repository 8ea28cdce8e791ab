/**
 * Gasteiger–Marsili sigma charges, CDK variant (CDK
 * `GasteigerMarsiliPartialCharges`): parameters by element and highest Kekulé bond order at the
 * atom, all start charges 0, damping 0.5^k, at most 20 iterations, stop when no |q| changed by
 * more than 0.001 (with CDK's q_old[0] = 20 initialisation), χ⁺ of hydrogen 20.02. Any element
 * without parameters makes the whole computation fail (→ the descriptor is absent).
 *
 * Two graphs are supported: the H-depleted graph (ATSc; hydrogens ignored) and the graph with
 * explicit hydrogens (BCUTc). Hydrogens on one heavy atom are equivalent throughout the
 * iteration, so they are handled as one pooled charge per heavy atom.
 */

import type { HDepletedGraph } from "./graph.ts";

export interface GMCharges {
  /** Charge of each heavy atom. */
  readonly heavy: Float64Array;
  /** Charge of each hydrogen on heavy atom i (all equal); zeros when computed without H. */
  readonly hydrogen: Float64Array;
}

const MX_ITERATIONS = 20;
const DEOC_HYDROGEN = 20.02;
const H_PARAMS = [7.17, 6.24, -0.56] as const;

/**
 * CDK parameters (a, b, c) for an atom; null for an unsupported element. `maxOrder` 0 means no
 * bond at all (CDK's Order.UNSET), which leaves C/N/O without parameters (zeros).
 */
function params(z: number, maxOrder: number, charge: number): readonly [number, number, number] | null {
  switch (z) {
    case 1:
      return H_PARAMS;
    case 6:
      if (maxOrder === 2 || (maxOrder === 1 && (charge === -1 || charge === 1))) return [8.79, 9.32, 1.51];
      if (maxOrder === 1 && charge === 0) return [7.98, 9.18, 1.88];
      if (maxOrder >= 3) return [10.39, 9.45, 0.73];
      return [0, 0, 0];
    case 7:
      if (maxOrder === 1 && charge !== -1) return [11.54, 10.82, 1.36];
      if (maxOrder === 2 || maxOrder === 1) return [12.87, 11.15, 0.85];
      if (maxOrder >= 3) return [17.68, 12.7, -0.27];
      return [0, 0, 0];
    case 8:
      if (maxOrder === 1 && charge !== -1) return [14.18, 12.92, 1.39];
      if (maxOrder === 2 || maxOrder === 1) return [17.07, 13.79, 0.47];
      return [0, 0, 0];
    case 14:
      return [8.1, 7.92, 1.78];
    case 15:
      return [8.9, 8.32, 1.58];
    case 16:
      return [10.14, 9.13, 1.38];
    case 9:
      return [14.66, 13.85, 2.31];
    case 17:
      return [12.31, 10.84, 1.512];
    case 35:
      return [11.44, 9.63, 1.31];
    case 53:
      return [9.88, 7.95, 0.945];
    default:
      return null;
  }
}

/**
 * CDK-GM charges on `g`, with explicit hydrogens when `withH` (each heavy atom's H count turned
 * into H atoms bonded to it), else on the H-depleted graph. Null when an element has no
 * parameters.
 */
export function gasteigerMarsili(g: HDepletedGraph, withH: boolean): GMCharges | null {
  const n = g.n;
  const maxOrder = new Uint8Array(n);
  for (let b = 0; b < g.m; b++) {
    const o = g.order[b]!;
    if (o > maxOrder[g.bondA[b]!]!) maxOrder[g.bondA[b]!] = o;
    if (o > maxOrder[g.bondB[b]!]!) maxOrder[g.bondB[b]!] = o;
  }
  const A = new Float64Array(n);
  const B = new Float64Array(n);
  const C = new Float64Array(n);
  const plus = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // CDK's getMaximumBondOrder is SINGLE for an atom without bonds but with (implicit or explicit) H.
    let mo = maxOrder[i]!;
    if (mo === 0 && g.h[i]! > 0) mo = 1;
    const p = params(g.z[i]!, mo, g.charge[i]!);
    if (p === null) return null;
    A[i] = p[0];
    B[i] = p[1];
    C[i] = p[2];
    const s = p[0] + p[1] + p[2];
    plus[i] = p[0] === 0 && p[1] === 0 && p[2] === 0 ? 1 : s;
  }
  const q = new Float64Array(n);
  const qH = new Float64Array(n);
  const chi = new Float64Array(n);
  const chiH = new Float64Array(n);
  const qOld = new Float64Array(n);
  const qOldH = new Float64Array(n);
  if (n > 0) qOld[0] = 20; // CDK initialises only q_old[0] (a harmless bug that forces one iteration)
  const [ha, hb, hc] = H_PARAMS;
  let alpha = 1;
  for (let it = 0; it < MX_ITERATIONS; it++) {
    alpha *= 0.5;
    let different = false;
    for (let i = 0; i < n; i++) {
      const qi = q[i]!;
      if (Math.abs(Math.abs(qOld[i]!) - Math.abs(qi)) > 0.001) different = true;
      qOld[i] = qi;
      chi[i] = C[i]! * qi * qi + B[i]! * qi + A[i]!;
      if (withH && g.h[i]! > 0) {
        const qh = qH[i]!;
        if (Math.abs(Math.abs(qOldH[i]!) - Math.abs(qh)) > 0.001) different = true;
        qOldH[i] = qh;
        chiH[i] = hc * qh * qh + hb * qh + ha;
      }
    }
    if (!different) break;
    for (let b = 0; b < g.m; b++) {
      const i = g.bondA[b]!;
      const j = g.bondB[b]!;
      const deoc = chi[i]! >= chi[j]! ? plus[j]! : plus[i]!;
      const d = ((chi[i]! - chi[j]!) / deoc) * alpha;
      q[i]! -= d;
      q[j]! += d;
    }
    if (withH) {
      for (let i = 0; i < n; i++) {
        const nh = g.h[i]!;
        if (nh === 0) continue;
        // Bond (heavy i, H): the H is the bond's end atom in CDK's explicit-H container.
        const deoc = chi[i]! >= chiH[i]! ? DEOC_HYDROGEN : plus[i]!;
        const d = ((chi[i]! - chiH[i]!) / deoc) * alpha;
        q[i]! -= d * nh;
        qH[i]! += d;
      }
    }
  }
  return { heavy: q, hydrogen: qH };
}
