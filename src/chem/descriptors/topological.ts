/**
 * Topological descriptors, CDK-compatible (CDK's definitions), on the
 * H-depleted graph. Pairs of atoms in different fragments (salts, mixtures) are ignored by the
 * distance-based indices (CDK would use a huge "infinite" distance there and return
 * meaningless numbers).
 *
 * PetitjeanShapeIndex's geomShape needs 3D coordinates and is not produced here.
 */

import type { DescriptorContext } from "./descriptor-context.ts";
import { CARBON_NATURAL_MASS, NATURAL_MASS } from "./elements.ts";
import { KIER_HALL } from "./estate.ts";
import { FAR } from "./graph.ts";
import { put, type CdkDescriptor, type DescriptorValues } from "./types.ts";

/** Eccentricities (within each atom's fragment). */
function eccentricities(ctx: DescriptorContext): Int32Array {
  const n = ctx.g.n;
  const d = ctx.dist;
  const e = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let m = 0;
    for (let j = 0, r = i * n; j < n; j++) {
      const v = d[r + j]!;
      if (v !== FAR && v > m) m = v;
    }
    e[i] = m;
  }
  return e;
}

function diameterRadius(ctx: DescriptorContext): [number, number] {
  const e = eccentricities(ctx);
  let D = 0;
  let R = Infinity;
  for (const v of e) {
    if (v > D) D = v;
    if (v < R) R = v;
  }
  return [D, R === Infinity ? 0 : R];
}

/** Moreau–Broto autocorrelation ATS_0..4 (CDK names x1..x5) of weights `w` over heavy atoms. */
function autocorrelation(ctx: DescriptorContext, w: ArrayLike<number>, prefix: string, out: DescriptorValues): void {
  const n = ctx.g.n;
  const d = ctx.dist;
  const ats = [0, 0, 0, 0, 0];
  for (let i = 0; i < n; i++) {
    ats[0]! += w[i]! * w[i]!;
    for (let j = i + 1; j < n; j++) {
      const l = d[i * n + j]!;
      if (l >= 1 && l <= 4) ats[l]! += w[i]! * w[j]!;
    }
  }
  for (let l = 0; l < 5; l++) put(out, `${prefix}${l + 1}`, ats[l]!);
}

/** Java's Double.toString for the small multiples of 0.5 in TPSA profiles. */
function jd(x: number): string {
  return Number.isInteger(x) ? `${x}.0` : String(x);
}

/**
 * Ertl TPSA contributions as in CDK TPSADescriptor: profile key
 * symbol+maxBondOrder+bondOrderSum+neighbours+H+charge+aromaticBonds+in3Ring+single+double+triple
 * (hydrogens count as single-bond neighbours; aromatic bonds as order 1.5). Only N and O atoms
 * contribute (the S and P rows of the table are not used by CDK's TopoPSA).
 */
const TPSA_TABLE: ReadonlyMap<string, number> = new Map([
  ["N+1.0+3.0+3+0+0+0+0+3+0+0", 3.24],
  ["N+2.0+3.0+2+0+0+0+0+1+1+0", 12.36],
  ["N+3.0+3.0+1+0+0+0+0+0+0+1", 23.79],
  ["N+2.0+5.0+3+0+0+0+0+1+2+0", 11.68],
  ["N+3.0+5.0+2+0+0+0+0+0+1+1", 13.6],
  ["N+1.0+3.0+3+0+0+0+1+3+0+0", 3.01],
  ["N+1.0+3.0+3+1+0+0+0+3+0+0", 12.03],
  ["N+1.0+3.0+3+1+0+0+1+3+0+0", 21.94],
  ["N+2.0+3.0+2+1+0+0+0+1+1+0", 23.85],
  ["N+1.0+3.0+3+2+0+0+0+3+0+0", 26.02],
  ["N+1.0+4.0+4+0+1+0+0+4+0+0", 0.0],
  ["N+2.0+4.0+3+0+1+0+0+2+1+0", 3.01],
  ["N+3.0+4.0+2+0+1+0+0+1+0+1", 4.36],
  ["N+1.0+4.0+4+1+1+0+0+4+0+0", 4.44],
  ["N+2.0+4.0+3+1+1+0+0+2+1+0", 13.97],
  ["N+1.0+4.0+4+2+1+0+0+4+0+0", 16.61],
  ["N+2.0+4.0+3+2+1+0+0+2+1+0", 25.59],
  ["N+1.0+4.0+4+3+1+0+0+4+0+0", 27.64],
  ["N+1.5+3.0+2+0+0+2+0+0+0+0", 12.89],
  ["N+1.5+4.5+3+0+0+3+0+0+0+0", 4.41],
  ["N+1.5+4.0+3+0+0+2+0+1+0+0", 4.93],
  ["N+2.0+5.0+3+0+0+2+0+0+1+0", 8.39],
  ["N+1.5+4.0+3+1+0+2+0+1+0+0", 15.79],
  ["N+1.5+4.5+3+0+1+3+0+0+0+0", 4.1],
  ["N+1.5+4.0+3+0+1+2+0+1+0+0", 3.88],
  ["N+1.5+4.0+3+1+1+2+0+1+0+0", 14.14],
  ["O+1.0+2.0+2+0+0+0+0+2+0+0", 9.23],
  ["O+1.0+2.0+2+0+0+0+1+2+0+0", 12.53],
  ["O+2.0+2.0+1+0+0+0+0+0+1+0", 17.07],
  ["O+1.0+1.0+1+0+-1+0+0+1+0+0", 23.06],
  ["O+1.0+2.0+2+1+0+0+0+2+0+0", 20.23],
  ["O+1.5+3.0+2+0+0+2+0+0+0+0", 13.14],
]);

/** Whether atom i lies in a 3-membered ring (two of its neighbours are bonded). */
function in3Ring(ctx: DescriptorContext, i: number): boolean {
  const g = ctx.g;
  const d = ctx.dist;
  const n = g.n;
  for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
    for (let q = p + 1; q < g.adjStart[i + 1]!; q++) {
      if (d[g.adjAtom[p]! * n + g.adjAtom[q]!] === 1) return true;
    }
  }
  return false;
}

export function topoPSA(ctx: DescriptorContext): number {
  const g = ctx.g;
  let tpsa = 0;
  for (let i = 0; i < g.n; i++) {
    const z = g.z[i];
    if (z !== 7 && z !== 8) continue;
    const h = g.h[i]!;
    let single = h;
    let dbl = 0;
    let tri = 0;
    let arom = 0;
    let sum = h;
    let max = h > 0 ? 1 : 0;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
      const b = g.adjBond[p]!;
      let o: number;
      if (g.bondArom[b]) {
        arom++;
        o = 1.5;
      } else {
        o = g.order[b]!;
        if (o === 1) single++;
        else if (o === 2) dbl++;
        else if (o === 3) tri++;
      }
      sum += o;
      if (o > max) max = o;
    }
    const key = `${z === 7 ? "N" : "O"}+${jd(max)}+${jd(sum)}+${g.degree[i]! + h}+${h}+${g.charge[i]}+${arom}+${in3Ring(ctx, i) ? 1 : 0}+${single}+${dbl}+${tri}`;
    tpsa += TPSA_TABLE.get(key) ?? 0;
  }
  return tpsa;
}

/** Carbon-type counts (CDK CarbonTypesDescriptor). */
function carbonTypes(ctx: DescriptorContext, out: DescriptorValues): void {
  const g = ctx.g;
  const c = new Array<number>(9).fill(0);
  for (let i = 0; i < g.n; i++) {
    if (g.z[i] !== 6) continue;
    let nc = 0;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) if (g.z[g.adjAtom[p]!] === 6) nc++;
    const o = ctx.maxOrder[i]!;
    if (o === 3) {
      if (nc === 1) c[0]!++;
      else if (nc === 2) c[1]!++;
    } else if (o === 2) {
      if (nc >= 1 && nc <= 3) c[1 + nc]!++;
    } else if (o === 1) {
      if (nc >= 1 && nc <= 4) c[4 + nc]!++;
    }
  }
  CARBON_TYPE_NAMES.forEach((name, k) => out.set(name, c[k]!));
}
const CARBON_TYPE_NAMES = ["C1SP1", "C2SP1", "C1SP2", "C2SP2", "C3SP2", "C1SP3", "C2SP3", "C3SP3", "C4SP3"];

/** Molecular distance-edge vectors (CDK MDEDescriptor). */
const MDE_NAMES = [
  "MDEC-11", "MDEC-12", "MDEC-13", "MDEC-14", "MDEC-22", "MDEC-23", "MDEC-24", "MDEC-33", "MDEC-34", "MDEC-44",
  "MDEO-11", "MDEO-12", "MDEO-22", "MDEN-11", "MDEN-12", "MDEN-13", "MDEN-22", "MDEN-23", "MDEN-33",
];
function mde(ctx: DescriptorContext, out: DescriptorValues): void {
  const g = ctx.g;
  const n = g.n;
  const d = ctx.dist;
  const cls = (i: number, z: number, maxDeg: number): number => (g.z[i] === z && g.degree[i]! >= 1 && g.degree[i]! <= maxDeg ? g.degree[i]! : 0);
  const one = (z: number, maxDeg: number, k: number, l: number): number => {
    let cnt = 0;
    let logProd = 0;
    for (let i = 0; i < n; i++) {
      const ci = cls(i, z, maxDeg);
      if (ci !== k && ci !== l) continue;
      for (let j = i + 1; j < n; j++) {
        const cj = cls(j, z, maxDeg);
        if (!((ci === k && cj === l) || (ci === l && cj === k))) continue;
        const dij = d[i * n + j]!;
        if (dij === FAR) continue;
        cnt++;
        logProd += Math.log(dij);
      }
    }
    return cnt === 0 ? 0 : cnt / Math.exp(logProd / cnt);
  };
  for (const name of MDE_NAMES) {
    const el = name[3]!;
    const k = Number(name[5]);
    const l = Number(name[6]);
    const [z, maxDeg] = el === "C" ? [6, 4] : el === "O" ? [8, 2] : [7, 3];
    put(out, name, one(z, maxDeg, k, l));
  }
}

const CHI = (prefix: string, orders: number[], pick: (c: DescriptorContext["chi"]) => Float64Array) =>
  (ctx: DescriptorContext, out: DescriptorValues): void => {
    const c = ctx.chi;
    if (!c.complete) return;
    const arr = pick(c);
    for (const k of orders) put(out, `${prefix}${k}`, arr[k]!);
  };

export const TOPOLOGICAL: readonly CdkDescriptor[] = [
  {
    id: "WienerNumbersDescriptor",
    title: "Wiener path number and polarity number",
    pcType: "topological",
    lib: "cdk",
    values: ["WPATH", "WPOL"],
    compute(ctx, out) {
      const n = ctx.g.n;
      const d = ctx.dist;
      let w = 0;
      let pol = 0;
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          const v = d[i * n + j]!;
          if (v === FAR) continue;
          w += v;
          if (v === 3) pol++;
        }
      }
      out.set("WPATH", w);
      out.set("WPOL", pol);
    },
  },
  {
    id: "ZagrebIndexDescriptor",
    title: "Zagreb index (sum of squared heavy degrees)",
    pcType: "topological",
    lib: "cdk",
    values: ["Zagreb"],
    compute(ctx, out) {
      let s = 0;
      for (const v of ctx.g.degree) s += v * v;
      out.set("Zagreb", s);
    },
  },
  {
    id: "PetitjeanNumberDescriptor",
    title: "Petitjean number (D − R)/D",
    pcType: "topological",
    lib: "cdk",
    values: ["PetitjeanNumber"],
    compute(ctx, out) {
      const [D, R] = diameterRadius(ctx);
      out.set("PetitjeanNumber", D === 0 ? 0 : (D - R) / D);
    },
  },
  {
    id: "PetitjeanShapeIndexDescriptor",
    title: "Petitjean shape indices (topological; geometric needs 3D)",
    pcType: "topological",
    lib: "cdk",
    values: ["topoShape", "geomShape"],
    needs3D: ["geomShape"],
    compute(ctx, out) {
      const [D, R] = diameterRadius(ctx);
      put(out, "topoShape", (D - R) / R);
    },
  },
  {
    id: "EccentricConnectivityIndexDescriptor",
    title: "Eccentric connectivity index Σ e_i δ_i",
    pcType: "topological",
    lib: "cdk",
    values: ["ECCEN"],
    compute(ctx, out) {
      const e = eccentricities(ctx);
      let s = 0;
      for (let i = 0; i < ctx.g.n; i++) s += e[i]! * ctx.g.degree[i]!;
      out.set("ECCEN", s);
    },
  },
  {
    id: "VAdjMaDescriptor",
    title: "Vertex adjacency information magnitude 1 + log2(m)",
    pcType: "topological",
    lib: "cdk",
    values: ["VAdjMat"],
    compute(ctx, out) {
      const m = ctx.g.m;
      out.set("VAdjMat", m > 0 ? 1 + Math.log2(m) : 0);
    },
  },
  {
    id: "FragmentComplexityDescriptor",
    title: "Fragment complexity |B² − A² + A| + H/100 (heavy bonds, as CDK 1.4)",
    pcType: "topological",
    lib: "cdk",
    values: ["fragC"],
    compute(ctx, out) {
      const g = ctx.g;
      let het = 0;
      for (let i = 0; i < g.n; i++) if (g.z[i] !== 6 && g.z[i] !== 1) het++;
      const A = g.n;
      const B = g.m;
      out.set("fragC", Math.abs(B * B - A * A + A) + het / 100);
    },
  },
  {
    id: "KappaShapeIndicesDescriptor",
    title: "Kier shape indices kappa 1–3 (unmodified)",
    pcType: "topological",
    lib: "cdk",
    values: ["Kier1", "Kier2", "Kier3"],
    compute(ctx, out) {
      const n = ctx.g.n;
      const c = ctx.chi;
      if (!c.complete) return;
      const p1 = ctx.g.m;
      const p2 = c.pathCount[2]!;
      // CDK walks 3-bond sequences of distinct bonds, so a 3-membered ring counts as a path.
      const p3 = c.pathCount[3]! + c.chainCount[3]!;
      put(out, "Kier1", n === 1 ? 0 : (n * (n - 1) * (n - 1)) / (p1 * p1));
      put(out, "Kier2", n <= 2 ? 0 : ((n - 1) * (n - 2) * (n - 2)) / (p2 * p2));
      put(out, "Kier3", n <= 3 ? 0 : n % 2 === 1 ? ((n - 1) * (n - 3) * (n - 3)) / (p3 * p3) : ((n - 3) * (n - 2) * (n - 2)) / (p3 * p3));
    },
  },
  {
    id: "ChiPathDescriptor",
    title: "Simple and valence chi path indices, orders 0–7",
    pcType: "topological",
    lib: "cdk",
    values: [...[0, 1, 2, 3, 4, 5, 6, 7].map((k) => `SP-${k}`), ...[0, 1, 2, 3, 4, 5, 6, 7].map((k) => `VP-${k}`)],
    compute(ctx, out) {
      CHI("SP-", [0, 1, 2, 3, 4, 5, 6, 7], (c) => c.pathS)(ctx, out);
      CHI("VP-", [0, 1, 2, 3, 4, 5, 6, 7], (c) => c.pathV)(ctx, out);
    },
  },
  {
    id: "ChiChainDescriptor",
    title: "Simple and valence chi chain indices, orders 3–7",
    pcType: "topological",
    lib: "cdk",
    values: [...[3, 4, 5, 6, 7].map((k) => `SCH-${k}`), ...[3, 4, 5, 6, 7].map((k) => `VCH-${k}`)],
    compute(ctx, out) {
      CHI("SCH-", [3, 4, 5, 6, 7], (c) => c.chainS)(ctx, out);
      CHI("VCH-", [3, 4, 5, 6, 7], (c) => c.chainV)(ctx, out);
    },
  },
  {
    id: "ChiClusterDescriptor",
    title: "Simple and valence chi cluster indices, orders 3–6",
    pcType: "topological",
    lib: "cdk",
    values: [...[3, 4, 5, 6].map((k) => `SC-${k}`), ...[3, 4, 5, 6].map((k) => `VC-${k}`)],
    compute(ctx, out) {
      CHI("SC-", [3, 4, 5, 6], (c) => c.clusterS)(ctx, out);
      CHI("VC-", [3, 4, 5, 6], (c) => c.clusterV)(ctx, out);
    },
  },
  {
    id: "ChiPathClusterDescriptor",
    title: "Simple and valence chi path-cluster indices, orders 4–6",
    pcType: "topological",
    lib: "cdk",
    values: [...[4, 5, 6].map((k) => `SPC-${k}`), ...[4, 5, 6].map((k) => `VPC-${k}`)],
    compute(ctx, out) {
      CHI("SPC-", [4, 5, 6], (c) => c.pathClusterS)(ctx, out);
      CHI("VPC-", [4, 5, 6], (c) => c.pathClusterV)(ctx, out);
    },
  },
  KIER_HALL,
  {
    id: "CarbonTypesDescriptor",
    title: "Carbon types by hybridisation and number of carbon neighbours",
    pcType: "topological",
    lib: "cdk",
    values: CARBON_TYPE_NAMES,
    compute: carbonTypes,
  },
  {
    id: "MDEDescriptor",
    title: "Molecular distance-edge vectors for C, O, N",
    pcType: "topological",
    lib: "cdk",
    values: MDE_NAMES,
    compute: mde,
  },
  {
    id: "AutocorrelationDescriptorMass",
    title: "Moreau–Broto autocorrelation, lags 0–4, mass weights",
    pcType: "topological",
    lib: "cdk",
    values: ["ATSm1", "ATSm2", "ATSm3", "ATSm4", "ATSm5"],
    compute(ctx, out) {
      const g = ctx.g;
      const w = new Float64Array(g.n);
      for (let i = 0; i < g.n; i++) w[i] = (NATURAL_MASS.get(g.z[i]!) ?? NaN) / CARBON_NATURAL_MASS;
      autocorrelation(ctx, w, "ATSm", out);
    },
  },
  {
    id: "AutocorrelationDescriptorCharge",
    title: "Moreau–Broto autocorrelation, lags 0–4, Gasteiger–Marsili charges (H-depleted)",
    pcType: "topological",
    lib: "cdk",
    values: ["ATSc1", "ATSc2", "ATSc3", "ATSc4", "ATSc5"],
    compute(ctx, out) {
      const q = ctx.gmHeavy;
      if (q !== null) autocorrelation(ctx, q.heavy, "ATSc", out);
    },
  },
  {
    id: "AutocorrelationDescriptorPolarizability",
    title: "Moreau–Broto autocorrelation, lags 0–4, effective polarizabilities",
    pcType: "topological",
    lib: "cdk",
    values: ["ATSp1", "ATSp2", "ATSp3", "ATSp4", "ATSp5"],
    compute(ctx, out) {
      autocorrelation(ctx, ctx.polarizability(false), "ATSp", out);
    },
  },
  {
    id: "TPSADescriptor",
    title: "Topological polar surface area (Ertl; N and O)",
    pcType: "topological",
    lib: "cdk",
    values: ["TopoPSA"],
    compute(ctx, out) {
      put(out, "TopoPSA", topoPSA(ctx));
    },
  },
];
