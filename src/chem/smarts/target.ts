/**
 * A molecule prepared for matching (`MolTarget`): the miners' labelled heavy-atom graph
 * (../labelled-graph.ts) as CSR adjacency, its atoms grouped by label, label counts, edge-type
 * hashes, neighbour signatures and screen (labels.ts), the per-molecule cache of recursive
 * sub-query results and the search's scratch array.
 */

import type { RDKit } from "../rdkit.ts";
import { encodeGraph, type LabelledGraph } from "../labelled-graph.ts";
import { EDGE_TYPES, edgeHash, neighbourBit, NLABELS, screenBits } from "./labels.ts";

/** A molecule prepared for matching (adjacency, label histogram, edge-type bits). */
export class MolTarget {
  readonly size: number;
  readonly labels: Int32Array;
  readonly degree: Int32Array;
  /** Per atom, the bits `neighbourBit(bond, label)` of its neighbours. */
  readonly neighbourSig: Int32Array;
  readonly adjStart: Int32Array;
  readonly adjTo: Int32Array;
  readonly adjBond: Int32Array;
  /** Atoms per label: byLabelStart[l]…byLabelStart[l+1] in byLabel. */
  readonly byLabelStart: Int32Array;
  readonly byLabel: Int32Array;
  /** Distinct labels present. */
  readonly distinct: Int32Array;
  /** 1 for every (hashed) edge type present. */
  readonly edgeTypes: Uint8Array;
  /** Atoms per label. */
  readonly labelCount: Int32Array;
  /** Screen bits (see `screenBits`). */
  readonly screen: Int32Array;
  readonly nBonds: number;
  /** Results of recursive sub-queries per atom, by query uid (filled on demand). */
  readonly recursive = new Map<number, Uint8Array>();
  /** Search scratch: atom in use by the current partial embedding. */
  readonly used: Uint8Array;

  constructor(g: LabelledGraph) {
    const n = g.labels.length;
    this.size = n;
    this.labels = Int32Array.from(g.labels);
    for (const l of this.labels) if (l < 0 || l >= NLABELS) throw new Error(`atom label ${l} outside 0…${NLABELS - 1}`);
    const B = g.bonds;
    this.nBonds = B.length / 3;
    this.degree = new Int32Array(n);
    for (let k = 0; k < B.length; k += 3) {
      this.degree[B[k]!]!++;
      this.degree[B[k + 1]!]!++;
    }
    this.adjStart = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) this.adjStart[i + 1] = this.adjStart[i]! + this.degree[i]!;
    this.adjTo = new Int32Array(this.adjStart[n]!);
    this.adjBond = new Int32Array(this.adjStart[n]!);
    const fill = this.adjStart.slice(0, n);
    this.edgeTypes = new Uint8Array(EDGE_TYPES);
    this.neighbourSig = new Int32Array(n);
    for (let k = 0; k < B.length; k += 3) {
      const a = B[k]!;
      const b = B[k + 1]!;
      const bo = B[k + 2]!;
      this.adjTo[fill[a]!] = b;
      this.adjBond[fill[a]!++] = bo;
      this.adjTo[fill[b]!] = a;
      this.adjBond[fill[b]!++] = bo;
      this.edgeTypes[edgeHash(bo, this.labels[a]!, this.labels[b]!)] = 1;
      this.neighbourSig[a]! |= neighbourBit(bo, this.labels[b]!);
      this.neighbourSig[b]! |= neighbourBit(bo, this.labels[a]!);
    }
    const hist = new Int32Array(NLABELS + 1);
    for (const l of this.labels) hist[l + 1]!++;
    this.labelCount = hist.slice(1);
    const distinct: number[] = [];
    for (let l = 0; l < NLABELS; l++) if (hist[l + 1]! > 0) distinct.push(l);
    this.distinct = Int32Array.from(distinct);
    const types: number[] = [];
    this.edgeTypes.forEach((x, h) => {
      if (x) types.push(h);
    });
    this.screen = screenBits(types, distinct);

    for (let l = 0; l < NLABELS; l++) hist[l + 1]! += hist[l]!;
    this.byLabelStart = hist;
    this.byLabel = new Int32Array(n);
    const pos = hist.slice(0, NLABELS);
    for (let i = 0; i < n; i++) this.byLabel[pos[this.labels[i]!]!++] = i;
    this.used = new Uint8Array(n);
  }

  /** Number of atoms with label l. */
  count(l: number): number {
    return this.byLabelStart[l + 1]! - this.byLabelStart[l]!;
  }
}

const prepared = new WeakMap<LabelledGraph, MolTarget>();

/** The prepared form of a molecule graph (cached per graph object). */
export function prepareMolecule(g: LabelledGraph | MolTarget): MolTarget {
  if (g instanceof MolTarget) return g;
  let t = prepared.get(g);
  if (t === undefined) {
    t = new MolTarget(g);
    prepared.set(g, t);
  }
  return t;
}

/**
 * Encode a SMILES as the miners do (../labelled-graph.ts) and prepare it. Aromatic perception on by default:
 * that is how fminer's SMARTS were matched by lazar (OpenBabel perceives aromaticity when
 * matching, also for SMARTS mined with aromatic perception off). Null if RDKit cannot parse it.
 */
export function moleculeFromSmiles(rdkit: RDKit, smiles: string, aromatic = true): MolTarget | null {
  const graph = encodeGraph(rdkit, smiles, aromatic);
  return graph === null ? null : new MolTarget(graph);
}
