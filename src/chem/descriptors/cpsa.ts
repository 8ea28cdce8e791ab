/**
 * CPSADescriptor (Stanton–Jurs charged partial surface areas, 29 values; lazar's pc_type `cpsa`,
 * docs/descriptors.md "3D descriptors") on a `Mol3D`, with CDK's conventions:
 *
 * - per-atom solvent-accessible areas from CDK's NumericalSurface: radius = CDK vdW radius +
 *   1.4 Å probe; sample points = the three vertices of every triangle of CDK's icosahedron
 *   subdivided three times (1280 triangles → 3840 samples, shared vertices counted once per
 *   triangle); a sample is buried when it lies inside another atom's inflated sphere;
 *   A_i = 4πR_i² · exposed/3840. Orientation dependent, ≈ 5 % below an exact SASA.
 * - charges: CDK-variant Gasteiger–Marsili on the atoms present (explicit H when the `Mol3D`
 *   has them, else the H-depleted graph).
 * - q > 0 positive, q ≤ 0 negative (CDK puts q = 0 into the negative set); RPCS/RNCS multiply
 *   by the relative charge (mordred divides); THSA/TPSA split at |q| < 0.2.
 */

import type { GMCharges } from "./gasteiger.ts";
import { elementValue, VDW_RADIUS, type Mol3D } from "./geometry3d.ts";
import { put, type DescriptorValues } from "./types.ts";

export const SOLVENT_RADIUS = 1.4;

/**
 * Unit-sphere sample points of CDK's Tessellate("ico", 4): the distinct vertices after three
 * midpoint subdivisions with their multiplicity (number of triangles they belong to), so that
 * Σ weight = 3 × 1280 = 3840.
 */
const SPHERE: { readonly pts: Float64Array; readonly weight: Float64Array; readonly total: number } = (() => {
  const X = 0.5257311121;
  const Z = 0.8506508084;
  const v: [number, number, number][] = [
    [-X, 0, Z], [X, 0, Z], [-X, 0, -Z], [X, 0, -Z], [0, Z, X], [0, Z, -X],
    [0, -Z, X], [0, -Z, -X], [Z, X, 0], [-Z, X, 0], [Z, -X, 0], [-Z, -X, 0],
  ];
  // Faces: triples of mutually adjacent vertices (edge length 2X).
  const d2 = (a: number[], b: number[]): number => (a[0]! - b[0]!) ** 2 + (a[1]! - b[1]!) ** 2 + (a[2]! - b[2]!) ** 2;
  const edge = 4 * X * X;
  const adj = (i: number, j: number): boolean => Math.abs(d2(v[i]!, v[j]!) - edge) < 1e-6;
  let tris: [number, number, number][][] = [];
  for (let i = 0; i < 12; i++)
    for (let j = i + 1; j < 12; j++)
      for (let k = j + 1; k < 12; k++) if (adj(i, j) && adj(j, k) && adj(i, k)) tris.push([v[i]!, v[j]!, v[k]!]);
  const mid = (a: number[], b: number[]): [number, number, number] => {
    const m: [number, number, number] = [0.5 * (a[0]! + b[0]!), 0.5 * (a[1]! + b[1]!), 0.5 * (a[2]! + b[2]!)];
    const l = Math.sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
    return [m[0] / l, m[1] / l, m[2] / l];
  };
  for (let level = 0; level < 3; level++) {
    const next: [number, number, number][][] = [];
    for (const [a, b, c] of tris) {
      const ab = mid(a!, b!);
      const bc = mid(b!, c!);
      const ca = mid(c!, a!);
      next.push([a!, ab, ca], [ab, b!, bc], [ca, bc, c!], [ab, bc, ca]);
    }
    tris = next;
  }
  const map = new Map<string, number>();
  const pts: number[] = [];
  const weight: number[] = [];
  for (const t of tris) {
    for (const p of t) {
      const key = p.map((x) => x.toFixed(9)).join(",");
      let k = map.get(key);
      if (k === undefined) {
        k = weight.length;
        map.set(key, k);
        pts.push(...p);
        weight.push(0);
      }
      weight[k]!++;
    }
  }
  return { pts: Float64Array.from(pts), weight: Float64Array.from(weight), total: 3 * tris.length };
})();

/** CDK NumericalSurface per-atom areas (Å²); null when an element has no vdW radius. */
export function atomSurfaceAreas(mol: Mol3D): Float64Array | null {
  const n = mol.n;
  const R = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = elementValue(VDW_RADIUS, mol.z[i]!);
    if (Number.isNaN(r)) return null;
    R[i] = r + SOLVENT_RADIUS;
  }
  const xyz = mol.xyz;
  const { pts, weight, total } = SPHERE;
  const np = weight.length;
  const areas = new Float64Array(n);
  const nbX: number[] = [];
  const nbY: number[] = [];
  const nbZ: number[] = [];
  const nbT: number[] = [];
  for (let i = 0; i < n; i++) {
    const ri = R[i]!;
    nbX.length = nbY.length = nbZ.length = nbT.length = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const dx = xyz[3 * j]! - xyz[3 * i]!;
      const dy = xyz[3 * j + 1]! - xyz[3 * i + 1]!;
      const dz = xyz[3 * j + 2]! - xyz[3 * i + 2]!;
      const d2 = dx * dx + dy * dy + dz * dz;
      const rj = R[j]!;
      if (d2 >= (ri + rj) * (ri + rj)) continue;
      // sample p (unit) is inside sphere j ⇔ |ri·p − d|² < rj² ⇔ p·d > (ri² + d² − rj²)/(2ri)
      nbX.push(dx);
      nbY.push(dy);
      nbZ.push(dz);
      nbT.push((ri * ri + d2 - rj * rj) / (2 * ri));
    }
    const nn = nbT.length;
    let exposed = 0;
    for (let p = 0; p < np; p++) {
      const px = pts[3 * p]!;
      const py = pts[3 * p + 1]!;
      const pz = pts[3 * p + 2]!;
      let buried = false;
      for (let k = 0; k < nn; k++) {
        if (px * nbX[k]! + py * nbY[k]! + pz * nbZ[k]! > nbT[k]!) {
          buried = true;
          break;
        }
      }
      if (!buried) exposed += weight[p]!;
    }
    areas[i] = (4 * Math.PI * ri * ri * exposed) / total;
  }
  return areas;
}

/** Charge of each atom of `mol` from the graph charges (heavy atoms by index, H by owner). */
export function atomCharges(mol: Mol3D, q: GMCharges): Float64Array {
  const out = new Float64Array(mol.n);
  for (let i = 0; i < mol.n; i++) {
    const gi = mol.graphIndex[i]!;
    out[i] = gi >= 0 ? q.heavy[gi]! : mol.owner[i]! >= 0 ? q.hydrogen[mol.owner[i]!]! : 0;
  }
  return out;
}

/** The 29 CPSA values from per-atom areas and charges. */
export function cpsaFromAreas(areas: Float64Array, q: Float64Array, out: DescriptorValues): void {
  const n = areas.length;
  let sasa = 0;
  let ppsa1 = 0;
  let pnsa1 = 0;
  let ppsa3 = 0;
  let pnsa3 = 0;
  let qPos = 0;
  let qNeg = 0;
  let maxQ = 0;
  let minQ = 0;
  let maxI = -1;
  let minI = -1;
  let thsa = 0;
  let tpsa = 0;
  for (let i = 0; i < n; i++) {
    const a = areas[i]!;
    const c = q[i]!;
    sasa += a;
    if (c > 0) {
      ppsa1 += a;
      ppsa3 += c * a;
      qPos += c;
      if (c > maxQ) {
        maxQ = c;
        maxI = i;
      }
    } else {
      pnsa1 += a;
      pnsa3 += c * a;
      qNeg += c;
      if (c < minQ) {
        minQ = c;
        minI = i;
      }
    }
    if (Math.abs(c) < 0.2) thsa += a;
    else tpsa += a;
  }
  const ppsa2 = ppsa1 * qPos;
  const pnsa2 = pnsa1 * qNeg;
  const P = [ppsa1, ppsa2, ppsa3];
  const Nn = [pnsa1, pnsa2, pnsa3];
  for (let k = 0; k < 3; k++) put(out, `PPSA-${k + 1}`, P[k]!);
  for (let k = 0; k < 3; k++) put(out, `PNSA-${k + 1}`, Nn[k]!);
  for (let k = 0; k < 3; k++) put(out, `DPSA-${k + 1}`, P[k]! - Nn[k]!);
  for (let k = 0; k < 3; k++) put(out, `FPSA-${k + 1}`, P[k]! / sasa);
  for (let k = 0; k < 3; k++) put(out, `FNSA-${k + 1}`, Nn[k]! / sasa);
  for (let k = 0; k < 3; k++) put(out, `WPSA-${k + 1}`, (P[k]! * sasa) / 1000);
  for (let k = 0; k < 3; k++) put(out, `WNSA-${k + 1}`, (Nn[k]! * sasa) / 1000);
  const rpcg = qPos === 0 ? 0 : maxQ / qPos;
  const rncg = qNeg === 0 ? 0 : minQ / qNeg;
  put(out, "RPCG", rpcg);
  put(out, "RNCG", rncg);
  put(out, "RPCS", maxI < 0 ? 0 : areas[maxI]! * rpcg);
  put(out, "RNCS", minI < 0 ? 0 : areas[minI]! * rncg);
  put(out, "THSA", thsa);
  put(out, "TPSA", tpsa);
  put(out, "RHSA", thsa / sasa);
  put(out, "RPSA", tpsa / sasa);
}

/** CPSADescriptor on `mol` with charges `q` of its graph; nothing when a radius is missing. */
export function cpsa(mol: Mol3D, q: GMCharges, out: DescriptorValues): void {
  const areas = atomSurfaceAreas(mol);
  if (areas === null) return;
  cpsaFromAreas(areas, atomCharges(mol, q), out);
}
