/**
 * Per-molecule state shared by all descriptor modules: the graph and lazily computed
 * intermediates (distance matrix, ring bonds, CDK-GM charges, effective polarizabilities,
 * connectivity-subgraph sums). Each intermediate is computed at most once per molecule,
 * whichever descriptor asks first.
 */

import { generateConformer, type ConformerInfo, type ConformerOptions } from "./conformer.ts";
import { VALENCE_ELECTRONS } from "./elements.ts";
import type { Mol3D } from "./geometry3d.ts";
import { gasteigerMarsili, type GMCharges } from "./gasteiger.ts";
import { distanceMatrix, FAR, maxBondOrder, ringBonds, type HDepletedGraph } from "./graph.ts";

/** Highest subgraph order (number of bonds) the chi indices use. */
export const MAX_CHI_ORDER = 7;

/**
 * Connectivity index sums by subgraph type and order (index = number of bonds, 0..7), simple
 * (heavy degree) and valence (Kier–Hall δv, CDK's S/P special values), plus counts of path
 * subgraphs (for the Kappa indices). NaN where a valence term is undefined.
 */
export interface ChiSums {
  readonly pathS: Float64Array;
  readonly pathV: Float64Array;
  readonly chainS: Float64Array;
  readonly chainV: Float64Array;
  readonly clusterS: Float64Array;
  readonly clusterV: Float64Array;
  readonly pathClusterS: Float64Array;
  readonly pathClusterV: Float64Array;
  readonly pathCount: Float64Array;
  /** Number of cyclic subgraphs counted as chains, per order (3-rings for Kier3). */
  readonly chainCount: Float64Array;
  /** False when the enumeration was cut off by the subgraph budget (values absent). */
  readonly complete: boolean;
}

/** Upper bound on enumerated subgraphs per molecule; beyond it the chi values are absent. */
export const SUBGRAPH_BUDGET = 5_000_000;

export class DescriptorContext {
  readonly g: HDepletedGraph;
  private _dist: Uint16Array | null = null;
  private _ringBond: Uint8Array | null = null;
  private _ringAtom: Uint8Array | null = null;
  private _maxOrder: Uint8Array | null = null;
  private _gmHeavy: GMCharges | null | undefined = undefined;
  private _gmH: GMCharges | null | undefined = undefined;
  private _chi: ChiSums | null = null;
  private readonly _polar = new Map<boolean, Float64Array>();
  private _conformer: Mol3D | null | undefined = undefined;
  /** Options for the conformer generated on first use of `conformer`. */
  conformerOptions: ConformerOptions = {};
  /** Diagnostics of the generated conformer (attempts, failure reason). */
  readonly conformerInfo: ConformerInfo = { attempts: 0, maxBondDeviation: NaN, energy: NaN };
  /** Milliseconds spent generating the conformer (0 when given or not needed). */
  conformerMs = 0;

  constructor(g: HDepletedGraph) {
    this.g = g;
  }

  /**
   * 3D structure for the 3D descriptors: given coordinates (`setConformer`) or a conformer
   * generated once (conformer.ts, with `conformerOptions`); null when none could be made
   * within the time bound — the 3D values are then absent.
   */
  get conformer(): Mol3D | null {
    if (this._conformer === undefined) {
      const t0 = performance.now();
      this._conformer = generateConformer(this.g, this.conformerOptions, this.conformerInfo);
      this.conformerMs = performance.now() - t0;
    }
    return this._conformer;
  }

  /** Use these coordinates (e.g. from a 3D molfile) instead of generating a conformer. */
  setConformer(mol: Mol3D | null): void {
    this._conformer = mol;
  }

  /** n×n topological distances (FAR between fragments). */
  get dist(): Uint16Array {
    return (this._dist ??= distanceMatrix(this.g));
  }

  get ringBond(): Uint8Array {
    return (this._ringBond ??= ringBonds(this.g));
  }

  /** 1 for atoms in at least one ring. */
  get ringAtom(): Uint8Array {
    if (this._ringAtom === null) {
      const g = this.g;
      const r = new Uint8Array(g.n);
      const rb = this.ringBond;
      for (let b = 0; b < g.m; b++) if (rb[b]) r[g.bondA[b]!] = r[g.bondB[b]!] = 1;
      this._ringAtom = r;
    }
    return this._ringAtom;
  }

  /** Highest Kekulé bond order to a heavy atom (0 = none). */
  get maxOrder(): Uint8Array {
    return (this._maxOrder ??= maxBondOrder(this.g));
  }

  /** CDK-GM charges on the H-depleted graph (null: unsupported element). */
  get gmHeavy(): GMCharges | null {
    if (this._gmHeavy === undefined) this._gmHeavy = gasteigerMarsili(this.g, false);
    return this._gmHeavy;
  }

  /** CDK-GM charges with explicit hydrogens (null: unsupported element). */
  get gmExplicitH(): GMCharges | null {
    if (this._gmH === undefined) this._gmH = gasteigerMarsili(this.g, true);
    return this._gmH;
  }

  /**
   * CDK effective atom polarizabilities of the heavy atoms with explicit hydrogens
   * (Polarizability.calculateGHEffectiveAtomPolarizability): α_eff,i = Σ_j 0.5^(d_ij − 1) α_j
   * over all other atoms j incl. H (plus α_i itself), Kang–Jhon factors α. With
   * `partialCharges`, N atoms with a negative CDK-GM charge (explicit H) get 1.090, as in
   * BCUT, which assigns charges before polarizabilities.
   */
  polarizability(partialCharges: boolean): Float64Array {
    let out = this._polar.get(partialCharges);
    if (out !== undefined) return out;
    const g = this.g;
    const n = g.n;
    const q = partialCharges ? this.gmExplicitH : null;
    const f = new Float64Array(n);
    for (let i = 0; i < n; i++) f[i] = kjFactor(this, i, q === null ? null : q.heavy[i]!);
    const d = this.dist;
    out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const row = i * n;
      let s = f[i]! + g.h[i]! * H_POLARIZABILITY_KJ;
      for (let j = 0; j < n; j++) {
        if (j === i) continue;
        const dij = d[row + j]!;
        if (dij === FAR) continue;
        // heavy j at distance d: 0.5^(d−1); its hydrogens at distance d+1: 0.5^d
        const w = 0.5 ** (dij - 1);
        s += w * (f[j]! + 0.5 * g.h[j]! * H_POLARIZABILITY_KJ);
      }
      out[i] = s;
    }
    this._polar.set(partialCharges, out);
    return out;
  }

  /** Chi subgraph sums (orders 0..7), enumerated once. */
  get chi(): ChiSums {
    return (this._chi ??= enumerateChi(this));
  }
}

/** Kang–Jhon polarizability factor of hydrogen (CDK Polarizability). */
const H_POLARIZABILITY_KJ = 0.387;

/** CDK Polarizability.getKJPolarizabilityFactor for heavy atom i (explicit-H container). */
function kjFactor(ctx: DescriptorContext, i: number, partialCharge: number | null): number {
  const g = ctx.g;
  // In the explicit-H container an atom with H but no heavy bonds has maximum order SINGLE.
  let mo = ctx.maxOrder[i]!;
  if (mo === 0 && g.h[i]! > 0) mo = 1;
  switch (g.z[i]) {
    case 1:
      return 0.387;
    case 6:
      if (g.arom[i]) return 1.23;
      if (mo === 1) return 1.064;
      if (mo === 2) return g.h[i] === 0 ? 1.382 : 1.37;
      if (mo >= 3) return 1.279;
      return 0;
    case 7:
      if (partialCharge !== null && partialCharge < 0) return 1.09;
      if (mo === 1) return 1.094;
      if (mo === 2) return 1.03;
      return 0.852;
    case 8:
      // CDK compares the *partial* charge with ±1 here, which GM charges never reach.
      if (partialCharge !== null && partialCharge === -1) return 1.791;
      if (partialCharge !== null && partialCharge === 1) return 0.422;
      if (mo === 1) return 0.664;
      if (mo === 2) return 0.46;
      return 0;
    case 15:
      return 0;
    case 16:
      if (g.arom[i]) return 3.38;
      if (mo === 1) return 3.2;
      if (mo === 2) return g.h[i] === 0 ? 3.51 : 3.5;
      return 3.42;
    case 9:
      return 0.296;
    case 17:
      return 2.343;
    case 35:
      return 3.5;
    case 53:
      return 5.79;
    default:
      return 0;
  }
}

/**
 * Kier–Hall valence delta as CDK's ChiIndexUtils: special values for S (S–S 0.89, one S=O 1.33,
 * two S=O 2.67) and P (four neighbours with P=O: 2.22); otherwise (Zv − h)/(Z − Zv − 1) with
 * Zv = valence electrons − formal charge. NaN for elements without a valence-electron count.
 */
export function valenceDelta(g: HDepletedGraph, i: number): number {
  const z = g.z[i]!;
  if (z === 16) {
    let sO = 0;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
      const j = g.adjAtom[p]!;
      const o = g.order[g.adjBond[p]!]!;
      if (g.z[j] === 16 && o === 1) return 0.89;
    }
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
      if (g.z[g.adjAtom[p]!] === 8 && g.order[g.adjBond[p]!] === 2) sO++;
    }
    if (sO === 1) return 1.33;
    if (sO === 2) return 2.67;
  } else if (z === 15) {
    let cond = g.degree[i] === 4 ? 1 : 0;
    for (let p = g.adjStart[i]!; p < g.adjStart[i + 1]!; p++) {
      if (g.z[g.adjAtom[p]!] === 8 && g.order[g.adjBond[p]!] === 2) {
        cond++;
        break;
      }
    }
    if (cond === 2) return 2.22;
  }
  const zv0 = VALENCE_ELECTRONS.get(z);
  if (zv0 === undefined) return NaN;
  const zv = zv0 - g.charge[i]!;
  return (zv - g.h[i]!) / (z - zv - 1);
}

/**
 * Enumerate every connected bond subset with 1..7 bonds exactly once (ESU on the line graph)
 * and accumulate Π δ^(−1/2) per subgraph type: a subgraph with a cycle is a chain; a tree with
 * all degrees ≤ 2 a path; a tree with a branch point and no degree-2 atom a cluster; a tree with
 * both a path-cluster (mordred's classification, which reproduces CDK's query-based one).
 */
function enumerateChi(ctx: DescriptorContext): ChiSums {
  const g = ctx.g;
  const n = g.n;
  const m = g.m;
  const L = MAX_CHI_ORDER + 1;
  const res = {
    pathS: new Float64Array(L),
    pathV: new Float64Array(L),
    chainS: new Float64Array(L),
    chainV: new Float64Array(L),
    clusterS: new Float64Array(L),
    clusterV: new Float64Array(L),
    pathClusterS: new Float64Array(L),
    pathClusterV: new Float64Array(L),
    pathCount: new Float64Array(L),
    chainCount: new Float64Array(L),
    complete: true,
  };
  const dS = new Float64Array(n);
  const dV = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    dS[i] = g.degree[i]!;
    dV[i] = valenceDelta(g, i);
    // order 0: CDK skips atoms whose product is 0 (isolated atoms; δv = 0)
    if (dS[i] !== 0) res.pathS[0]! += 1 / Math.sqrt(dS[i]!);
    if (dV[i] !== 0) res.pathV[0]! += 1 / Math.sqrt(dV[i]!);
  }
  res.pathCount[0] = n;
  if (m === 0) return res;

  // Line graph in CSR form: bonds sharing an atom.
  const lgStart = new Int32Array(m + 1);
  for (let b = 0; b < m; b++) lgStart[b + 1] = lgStart[b]! + g.degree[g.bondA[b]!]! - 1 + g.degree[g.bondB[b]!]! - 1;
  const lgAdj = new Int32Array(lgStart[m]!);
  for (let b = 0; b < m; b++) {
    let k = lgStart[b]!;
    for (const a of [g.bondA[b]!, g.bondB[b]!]) {
      for (let p = g.adjStart[a]!; p < g.adjStart[a + 1]!; p++) {
        const e = g.adjBond[p]!;
        if (e !== b) lgAdj[k++] = e;
      }
    }
  }

  const blocked = new Int32Array(m); // >0: in the subgraph or adjacent to it
  const sdeg = new Uint8Array(n); // degree of each atom inside the current subgraph
  let nAtoms = 0;
  let n2 = 0; // atoms of subgraph degree 2
  let n3 = 0; // atoms of subgraph degree ≥ 3
  let prodS = 1;
  let prodV = 1;
  const atomStack = new Int32Array(n);
  const bondStack = new Int32Array(MAX_CHI_ORDER + 1);
  let budget = SUBGRAPH_BUDGET;
  // Extension sets of all recursion levels, stacked: each level's set holds distinct bonds, so
  // (MAX_CHI_ORDER + 1) levels need at most that many times m entries.
  const ext = new Int32Array((MAX_CHI_ORDER + 2) * m + 16);

  const addAtom = (a: number): void => {
    const d = sdeg[a]!;
    if (d === 0) {
      atomStack[nAtoms++] = a;
      prodS *= dS[a]!;
      prodV *= dV[a]!;
    } else if (d === 1) n2++;
    else if (d === 2) {
      n2--;
      n3++;
    }
    sdeg[a] = d + 1;
  };
  const removeAtom = (a: number): void => {
    const d = sdeg[a]! - 1;
    sdeg[a] = d;
    if (d === 0) nAtoms--; // atoms leave in reverse order of arrival, so the stack stays valid
    else if (d === 1) n2--;
    else if (d === 2) {
      n2++;
      n3--;
    }
  };
  const maxSubDeg = (): number => {
    let mx = 0;
    for (let t = 0; t < nAtoms; t++) if (sdeg[atomStack[t]!]! > mx) mx = sdeg[atomStack[t]!]!;
    return mx;
  };
  const record = (k: number): void => {
    const vS = 1 / Math.sqrt(prodS);
    const vV = prodV === 0 ? 0 : 1 / Math.sqrt(prodV);
    if (nAtoms <= k) {
      // CDK matches a fixed list of single-ring query shapes (CHAIN_SHAPES).
      if (k < 3 || nAtoms !== k || !CHAIN_SHAPES[k]!.has(unicyclicKey(atomStack, nAtoms, bondStack, k, g))) return;
      res.chainS[k]! += vS;
      res.chainV[k]! += vV;
      res.chainCount[k]!++;
    } else if (n3 === 0) {
      res.pathS[k]! += vS;
      res.pathV[k]! += vV;
      res.pathCount[k]!++;
    } else if (n2 === 0) {
      // CDK's cluster queries: 3- and 4-stars, and the two bicentral trees; no 5-/6-stars.
      if (maxSubDeg() >= 5) return;
      res.clusterS[k]! += vS;
      res.clusterV[k]! += vV;
    } else {
      // CDK's path-cluster queries miss, at order 6, the symmetric spider (three 2-bond arms)
      // and the 5-star with one extended arm.
      if (k === 6 && (maxSubDeg() >= 5 || isSpider222())) return;
      res.pathClusterS[k]! += vS;
      res.pathClusterV[k]! += vV;
    }
  };
  const isSpider222 = (): boolean => {
    if (n3 !== 1 || n2 !== 3 || nAtoms !== 7) return false;
    for (let t = 0; t < nAtoms; t++) {
      const a = atomStack[t]!;
      if (sdeg[a] !== 3) continue;
      // all three subgraph neighbours of the centre have subgraph degree 2
      for (let u = 0; u < 6; u++) {
        const b = bondStack[u]!;
        const o = g.bondA[b] === a ? g.bondB[b]! : g.bondB[b] === a ? g.bondA[b]! : -1;
        if (o >= 0 && sdeg[o] !== 2) return false;
      }
      return true;
    }
    return false;
  };

  // Recursive ESU; `lo..hi` is this level's extension set in `ext`.
  const extend = (k: number, lo: number, hi: number, root: number): void => {
    if (--budget < 0) return;
    record(k);
    if (k === MAX_CHI_ORDER) return;
    let top = hi;
    while (top > lo) {
      const w = ext[--top]!;
      // New extension: the remaining set plus exclusive neighbours of w above the root.
      let nh = hi;
      for (let t = lo; t < top; t++) ext[nh++] = ext[t]!;
      for (let p = lgStart[w]!; p < lgStart[w + 1]!; p++) {
        const u = lgAdj[p]!;
        if (u > root && blocked[u] === 0) ext[nh++] = u;
      }
      // Add w.
      blocked[w]!++;
      for (let p = lgStart[w]!; p < lgStart[w + 1]!; p++) blocked[lgAdj[p]!]!++;
      const saveS = prodS;
      const saveV = prodV;
      bondStack[k] = w;
      addAtom(g.bondA[w]!);
      addAtom(g.bondB[w]!);
      extend(k + 1, hi, nh, root);
      removeAtom(g.bondB[w]!);
      removeAtom(g.bondA[w]!);
      prodS = saveS;
      prodV = saveV;
      blocked[w]!--;
      for (let p = lgStart[w]!; p < lgStart[w + 1]!; p++) blocked[lgAdj[p]!]!--;
    }
  };

  for (let v = 0; v < m; v++) {
    blocked[v]!++;
    for (let p = lgStart[v]!; p < lgStart[v + 1]!; p++) blocked[lgAdj[p]!]!++;
    const saveS = prodS;
    const saveV = prodV;
    bondStack[0] = v;
    addAtom(g.bondA[v]!);
    addAtom(g.bondB[v]!);
    let nh = 0;
    for (let p = lgStart[v]!; p < lgStart[v + 1]!; p++) {
      const u = lgAdj[p]!;
      if (u > v) ext[nh++] = u;
    }
    extend(1, 0, nh, v);
    removeAtom(g.bondB[v]!);
    removeAtom(g.bondA[v]!);
    prodS = saveS;
    prodV = saveV;
    blocked[v]!--;
    for (let p = lgStart[v]!; p < lgStart[v + 1]!; p++) blocked[lgAdj[p]!]!--;
  }
  if (budget < 0) res.complete = false;
  return res;
}

/**
 * Canonical key of a connected unicyclic graph given by edge list over vertex ids: ring size
 * and the cyclic sequence of rooted-tree codes (AHU) hanging off the ring vertices, minimised
 * over rotations and reflections. Exact for unicyclic graphs.
 */
function canonicalUnicyclic(nv: number, edges: readonly (readonly [number, number])[]): string {
  const adj: number[][] = Array.from({ length: nv }, () => []);
  for (const [a, b] of edges) {
    adj[a]!.push(b);
    adj[b]!.push(a);
  }
  const deg = adj.map((x) => x.length);
  const onRing = new Array<boolean>(nv).fill(true);
  const leaves: number[] = [];
  for (let v = 0; v < nv; v++) if (deg[v] === 1) leaves.push(v);
  while (leaves.length) {
    const v = leaves.pop()!;
    onRing[v] = false;
    for (const w of adj[v]!) if (onRing[w] && --deg[w]! === 1) leaves.push(w);
  }
  const code = (v: number, parent: number): string =>
    "(" + adj[v]!.filter((w) => w !== parent && !onRing[w]).map((w) => code(w, v)).sort().join("") + ")";
  const start = onRing.indexOf(true);
  const cycle: number[] = [start];
  let prev = -1;
  let cur = start;
  for (;;) {
    const next = adj[cur]!.find((w) => onRing[w] && w !== prev && w !== cycle[0]) ?? -1;
    if (next < 0) break;
    if (cycle.length > 1 && next === cycle[0]) break;
    cycle.push(next);
    prev = cur;
    cur = next;
  }
  const seq = cycle.map((v) => code(v, -1));
  const r = seq.length;
  let best: string | null = null;
  for (let rot = 0; rot < r; rot++) {
    for (const dir of [1, -1]) {
      const parts: string[] = [];
      for (let t = 0; t < r; t++) parts.push(seq[(((rot + dir * t) % r) + r) % r]!);
      const key = parts.join(",");
      if (best === null || key < best) best = key;
    }
  }
  return `${r}:${best}`;
}

function unicyclicKey(atomStack: Int32Array, nAtoms: number, bondStack: Int32Array, k: number, g: HDepletedGraph): string {
  const local = new Map<number, number>();
  for (let t = 0; t < nAtoms; t++) local.set(atomStack[t]!, t);
  const edges: [number, number][] = [];
  for (let t = 0; t < k; t++) {
    const b = bondStack[t]!;
    edges.push([local.get(g.bondA[b]!)!, local.get(g.bondB[b]!)!]);
  }
  return canonicalUnicyclic(nAtoms, edges);
}

/** Edges of a tiny all-carbon SMILES (atoms `C`, branches, single-digit ring closures). */
function smilesEdges(smiles: string): [number, [number, number][]] {
  const edges: [number, number][] = [];
  const stack: number[] = [];
  const open = new Map<string, number>();
  let prev = -1;
  let n = 0;
  for (const ch of smiles) {
    if (ch === "C") {
      if (prev >= 0) edges.push([prev, n]);
      prev = n++;
    } else if (ch === "(") stack.push(prev);
    else if (ch === ")") prev = stack.pop()!;
    else if (ch >= "0" && ch <= "9") {
      const o = open.get(ch);
      if (o === undefined) open.set(ch, prev);
      else {
        edges.push([o, prev]);
        open.delete(ch);
      }
    }
  }
  return [n, edges];
}

/**
 * CDK ChiChainDescriptor query shapes (any atom, any bond), from the CDK 2.8 class file, plus
 * the 3-ring (order 3), grouped by number of bonds.
 */
const CDK_CHAIN_QUERIES = [
  "C1CC1", "C1CCC1", "CC1CC1", "C1CCCC1", "CC1CCC1", "CC1CC1(C)", "CC1CCCC1", "CC1CC(C)C1", "CC1(C)(CCC1)",
  "CCC1CCC1", "C1CCCCC1", "CC1CCC1(C)", "CC1C(C)C1(C)", "CCCC1CC1", "CCC1CC1(C)", "C1CCCCC1C", "C1CCCC1(C)(C)",
  "C1(C)C(C)CCC1", "C1(C)CC(C)CC1", "C1CCCC1(CC)", "C1(C)C(C)C(C)C1", "C1CC(C)C1(CC)", "C1C(C)CC1(CC)",
  "C1CCC1(CCC)", "C1CCC1C(C)(C)", "C1CCC1(C)(CC)", "C1CC(C)C1(C)(C)", "C1C(C)CC1(C)(C)", "C1(C)C(C)C1(CC)",
  "C1C(C)(C)C1(C)(C)", "C1CC1CCCC", "C1C(C)C1(CCC)", "C1C(CC)C1(CC)", "C1C(C)C1C(C)(C)", "C1C(C)C1(C)(CC)",
  "C1CC1CC(C)(C)", "C1CC1C(C)CC", "C1CC1C(C)(C)(C)",
];
const CHAIN_SHAPES: readonly Set<string>[] = (() => {
  const sets = Array.from({ length: MAX_CHI_ORDER + 1 }, () => new Set<string>());
  for (const q of CDK_CHAIN_QUERIES) {
    const [nv, edges] = smilesEdges(q);
    sets[edges.length]!.add(canonicalUnicyclic(nv, edges));
  }
  return sets;
})();
