/**
 * The graph database the miners search (Gaston's `Database`), built from the encoded compounds
 * (chem/labelled-graph.ts).
 *
 * Compounds arrive already in fminer's canonical order (tid = position). Node labels are
 * numbered by first appearance; a combined edge label is (bond label, lower node label, higher
 * node label), numbered by first appearance too. Edge labels with support < minfreq are removed
 * from every molecule; the others are renumbered by ascending support with fminer's tie-break
 * (see `edgeLess`). All molecules live in flat typed arrays indexed by a global atom number.
 */

import type { LabelledGraph } from "../chem/labelled-graph.ts";
import { stdSort } from "./stdsort.ts";

export interface NodeLabelInfo {
  /** Input label (Z or Z + 150). */
  readonly input: number;
  /** Number of molecules containing the label. */
  frequency: number;
  /** Final (frequent) edge labels incident to this node label, ascending. */
  readonly frequentEdges: number[];
  /** Global atom numbers carrying this label, in tid then atom order. */
  readonly atoms: number[];
}

export interface EdgeLabelInfo {
  /** Bond label 1..4. */
  readonly bond: number;
  /** Lower and higher internal node label. */
  readonly from: number;
  readonly to: number;
  readonly frequency: number;
}

export class Database {
  readonly nTrees: number;
  /** First global atom of each tid; length nTrees + 1. */
  readonly atomStart: Int32Array;
  readonly atomTid: Int32Array;
  /** Internal node label per global atom. */
  readonly atomLabel: Int32Array;
  /** CSR adjacency over frequent edges: adjStart[a]..adjStart[a+1]. */
  readonly adjStart: Int32Array;
  readonly adjTo: Int32Array;
  readonly adjEdge: Int32Array;
  readonly nodeLabels: NodeLabelInfo[];
  /** Frequent edge labels by final number. */
  readonly edgeLabels: EdgeLabelInfo[];

  constructor(graphs: readonly LabelledGraph[], minfreq: number) {
    const n = graphs.length;
    this.nTrees = n;
    let nAtoms = 0;
    for (const g of graphs) nAtoms += g.labels.length;
    this.atomStart = new Int32Array(n + 1);
    this.atomTid = new Int32Array(nAtoms);
    this.atomLabel = new Int32Array(nAtoms);
    const labelOf = new Map<number, number>();
    const nodeLabels: NodeLabelInfo[] = [];
    const lastTidNode: number[] = [];
    // Node labels by first appearance, support per molecule.
    let a = 0;
    for (let t = 0; t < n; t++) {
      this.atomStart[t] = a;
      const g = graphs[t]!;
      for (let i = 0; i < g.labels.length; i++, a++) {
        const inp = g.labels[i]!;
        let l = labelOf.get(inp);
        if (l === undefined) {
          l = nodeLabels.length;
          labelOf.set(inp, l);
          nodeLabels.push({ input: inp, frequency: 0, frequentEdges: [], atoms: [] });
          lastTidNode.push(-1);
        }
        if (lastTidNode[l] !== t) {
          lastTidNode[l] = t;
          nodeLabels[l]!.frequency++;
        }
        this.atomTid[a] = t;
        this.atomLabel[a] = l;
      }
    }
    this.atomStart[n] = a;
    this.nodeLabels = nodeLabels;

    // Combined edge labels by first appearance; support per molecule.
    interface RawEdge {
      bond: number;
      from: number;
      to: number;
      frequency: number;
      last: number;
      final: number;
    }
    const raw: RawEdge[] = [];
    const rawOf = new Map<number, number>();
    const bondRaw: Int32Array[] = [];
    for (let t = 0; t < n; t++) {
      const g = graphs[t]!;
      const base = this.atomStart[t]!;
      const br = new Int32Array(g.bonds.length / 3);
      for (let k = 0; k < br.length; k++) {
        let x = this.atomLabel[base + g.bonds[3 * k]!]!;
        let y = this.atomLabel[base + g.bonds[3 * k + 1]!]!;
        if (x > y) [x, y] = [y, x];
        const bond = g.bonds[3 * k + 2]!;
        const key = (bond * 65536 + x) * 65536 + y;
        let e = rawOf.get(key);
        if (e === undefined) {
          e = raw.length;
          rawOf.set(key, e);
          raw.push({ bond, from: x, to: y, frequency: 0, last: -1, final: -1 });
        }
        const r = raw[e]!;
        if (r.last !== t) {
          r.last = t;
          r.frequency++;
        }
        br[k] = e;
      }
      bondRaw.push(br);
    }
    // Frequent edge labels, renumbered by ascending support with fminer's comparator.
    const idx: number[] = [];
    for (let e = 0; e < raw.length; e++) if (raw[e]!.frequency >= minfreq) idx.push(e);
    stdSort(idx, (p, q) => edgeLess(raw[p]!, raw[q]!));
    this.edgeLabels = idx.map((e, i) => {
      const r = raw[e]!;
      r.final = i;
      return { bond: r.bond, from: r.from, to: r.to, frequency: r.frequency };
    });
    for (const e of this.edgeLabels) {
      nodeLabels[e.from]!.frequentEdges.push(this.edgeLabels.indexOf(e));
      if (e.to !== e.from) nodeLabels[e.to]!.frequentEdges.push(this.edgeLabels.indexOf(e));
    }

    // CSR adjacency over frequent edges, each atom's bonds in input bond order.
    const deg = new Int32Array(nAtoms + 1);
    for (let t = 0; t < n; t++) {
      const g = graphs[t]!;
      const base = this.atomStart[t]!;
      const br = bondRaw[t]!;
      for (let k = 0; k < br.length; k++) {
        if (raw[br[k]!]!.final < 0) continue;
        deg[base + g.bonds[3 * k]!]!++;
        deg[base + g.bonds[3 * k + 1]!]!++;
      }
    }
    this.adjStart = new Int32Array(nAtoms + 1);
    for (let i = 0; i < nAtoms; i++) this.adjStart[i + 1] = this.adjStart[i]! + deg[i]!;
    const fill = this.adjStart.slice(0, nAtoms);
    this.adjTo = new Int32Array(this.adjStart[nAtoms]!);
    this.adjEdge = new Int32Array(this.adjStart[nAtoms]!);
    for (let t = 0; t < n; t++) {
      const g = graphs[t]!;
      const base = this.atomStart[t]!;
      const br = bondRaw[t]!;
      for (let k = 0; k < br.length; k++) {
        const fe = raw[br[k]!]!.final;
        if (fe < 0) continue;
        const x = base + g.bonds[3 * k]!;
        const y = base + g.bonds[3 * k + 1]!;
        this.adjTo[fill[x]!] = y;
        this.adjEdge[fill[x]!++] = fe;
        this.adjTo[fill[y]!] = x;
        this.adjEdge[fill[y]!++] = fe;
      }
    }
    for (let i = 0; i < nAtoms; i++) {
      const l = this.atomLabel[i]!;
      if (nodeLabels[l]!.frequency >= minfreq) nodeLabels[l]!.atoms.push(i);
    }
  }

  degree(atom: number): number {
    return this.adjStart[atom + 1]! - this.adjStart[atom]!;
  }
}

/**
 * fminer's edge-label order: ascending support, ties by (from-node label,
 * bond label, to-node label). The tie-break tests `<` twice instead of `<` then `>`, so a
 * greater component does not stop the comparison: it is not a strict weak order, and the
 * outcome of `std::sort` depends on the algorithm (emulated exactly in stdsort.ts).
 */
export function edgeLess(a: EdgeLabelInfo, b: EdgeLabelInfo): boolean {
  if (a.frequency < b.frequency) return true;
  if (a.frequency > b.frequency) return false;
  if (a.from < b.from) return true;
  if (a.bond < b.bond) return true;
  return a.to < b.to;
}

/**
 * Per adjacency entry of the database: 1 if the bond lies on a cycle of its molecule (over the
 * frequent edges), 0 for a bridge (Tarjan's bridge search, iterative; no multiple bonds
 * between two atoms).
 */
export function ringBonds(db: Database): Uint8Array {
  const nA = db.atomTid.length;
  const { adjStart, adjTo } = db;
  const ring = new Uint8Array(adjTo.length).fill(1);
  const disc = new Int32Array(nA).fill(-1);
  const low = new Int32Array(nA);
  const parent = new Int32Array(nA).fill(-1);
  const parentEntry = new Int32Array(nA).fill(-1);
  const next = new Int32Array(nA);
  const stack = new Int32Array(nA);
  let time = 0;
  for (let s0 = 0; s0 < nA; s0++) {
    if (disc[s0] !== -1) continue;
    let sp = 0;
    stack[sp++] = s0;
    disc[s0] = low[s0] = time++;
    next[s0] = adjStart[s0]!;
    while (sp > 0) {
      const v = stack[sp - 1]!;
      if (next[v]! < adjStart[v + 1]!) {
        const j = next[v]!;
        next[v] = j + 1;
        const w = adjTo[j]!;
        if (disc[w] === -1) {
          parent[w] = v;
          parentEntry[w] = j;
          disc[w] = low[w] = time++;
          next[w] = adjStart[w]!;
          stack[sp++] = w;
        } else if (w !== parent[v]) {
          if (disc[w]! < low[v]!) low[v] = disc[w]!;
        }
      } else {
        sp--;
        const par = parent[v]!;
        if (par >= 0) {
          if (low[v]! < low[par]!) low[par] = low[v]!;
          if (low[v]! > disc[par]!) {
            ring[parentEntry[v]!] = 0;
            for (let q = adjStart[v]!, qe = adjStart[v + 1]!; q < qe; q++) if (adjTo[q] === par) ring[q] = 0;
          }
        }
      }
    }
  }
  return ring;
}
