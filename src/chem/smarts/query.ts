/**
 * A compiled SMARTS query (`SmartsQuery`, made by parse.ts's `compileSmarts`): the query graph
 * as typed arrays (label sets per atom, CSR adjacency with bond masks, degrees), postfix
 * programs for atom expressions with recursive `$(…)` parts, the search order from each root
 * atom (built on first use), and what the prefilters need: required labels with their counts,
 * required (bond, label, label) edge types, 32-bit neighbour signatures and a 96-bit screen.
 */

import { ALL_LABELS, AROMATIC_OFFSET, edgeHash, maskAnd, maskLabels, maskNot, maskOr, neighbourBit, screenBits, W } from "./labels.ts";

/** Atom expression tree; purely label-based subtrees are folded into one mask while parsing. */
export type AtomExpr =
  | { readonly k: "mask"; readonly m: Int32Array }
  | { readonly k: "rec"; readonly q: SmartsQuery }
  | { readonly k: "not"; readonly e: AtomExpr }
  | { readonly k: "and" | "or"; readonly a: AtomExpr; readonly b: AtomExpr };

/** Over-approximation of the labels an atom expression can match (recursion: unknown). */
function superMask(e: AtomExpr): Int32Array {
  switch (e.k) {
    case "mask":
      return e.m;
    case "rec":
      return e.q.atomMask(0);
    case "not":
      return e.e.k === "mask" ? maskNot(e.e.m) : ALL_LABELS;
    case "and":
      return maskAnd(superMask(e.a), superMask(e.b));
    case "or":
      return maskOr(superMask(e.a), superMask(e.b));
  }
}

export interface ParsedGraph {
  atoms: AtomExpr[];
  /** Edges as (atom, atom, bond mask). */
  edges: number[];
}

/** Program opcodes of recursive atom expressions (postfix). */
export const OP_MASK = 0;
export const OP_REC = 1;
export const OP_NOT = 2;
export const OP_AND = 3;
export const OP_OR = 4;

/** Search order of a query from one root atom. */
export interface Order {
  /** Query atom at position k. */
  readonly atom: Int32Array;
  /** Position of the already placed neighbour the atom at position k is reached from (k > 0). */
  readonly parent: Int32Array;
  /** Bond mask of that edge. */
  readonly parentBond: Int32Array;
  /** Ring-closure edges to earlier positions other than the parent: closeStart[k]…closeStart[k+1]. */
  readonly closeStart: Int32Array;
  readonly closePos: Int32Array;
  readonly closeBond: Int32Array;
}

let nextUid = 0;

/** A compiled SMARTS query. Create with `compileSmarts`. */
export class SmartsQuery {
  /** Unique id (keys the per-molecule cache of recursive sub-query results). */
  readonly uid = nextUid++;
  /** Number of query atoms. */
  readonly size: number;
  readonly nEdges: number;
  /** Superset of the labels each atom can match (W words per atom); exact for non-recursive atoms. */
  readonly masks: Int32Array;
  /** Exact single label an atom requires (-1 if several labels are possible). */
  readonly exactLabel: Int32Array;
  readonly degree: Int32Array;
  /**
   * Per atom, the neighbour signature it requires: bits `neighbourBit(bond, label)` of its
   * neighbours with an exact label and bond; a molecule atom must have all of them.
   */
  readonly neighbourSig: Int32Array;
  /** Query adjacency (CSR), bond masks. */
  private readonly adjStart: Int32Array;
  private readonly adjTo: Int32Array;
  private readonly adjBond: Int32Array;
  /** Recursive atom programs: progStart[i] = -1 when atom i is label-only. */
  readonly progStart: Int32Array;
  readonly progEnd: Int32Array;
  readonly prog: Int32Array;
  readonly progMasks: Int32Array;
  /** Recursive sub-queries referenced directly, by program slot. */
  readonly slots: readonly SmartsQuery[];
  /** All recursive sub-queries (nested ones first) to evaluate before searching. */
  readonly recursive: readonly SmartsQuery[];
  /**
   * Prefilter and root choice: triples (label, count the molecule must have at least, the
   * highest-degree query atom with that exact label).
   */
  readonly requiredLabels: Int32Array;
  /** Prefilter: distinct hash values (0…255) of required (bond, label, label) edge types. */
  readonly requiredEdges: Int32Array;
  /** 96-bit screen: required edge types (bits 0…63) and labels (64…95), hashed; see `screenBits`. */
  readonly screen: Int32Array;
  private readonly orders: (Order | undefined)[];

  constructor(
    readonly smarts: string,
    g: ParsedGraph,
  ) {
    const n = g.atoms.length;
    this.size = n;
    this.nEdges = g.edges.length / 3;
    this.masks = new Int32Array(n * W);
    this.exactLabel = new Int32Array(n).fill(-1);
    this.degree = new Int32Array(n);
    this.progStart = new Int32Array(n).fill(-1);
    this.progEnd = new Int32Array(n).fill(-1);
    const prog: number[] = [];
    const progMasks: number[] = [];
    const slots: SmartsQuery[] = [];
    const emit = (e: AtomExpr): void => {
      switch (e.k) {
        case "mask":
          prog.push(OP_MASK, progMasks.length / W);
          progMasks.push(...e.m);
          return;
        case "rec": {
          let slot = slots.indexOf(e.q);
          if (slot < 0) slot = slots.push(e.q) - 1;
          prog.push(OP_REC, slot);
          return;
        }
        case "not":
          emit(e.e);
          prog.push(OP_NOT);
          return;
        case "and":
        case "or":
          emit(e.a);
          emit(e.b);
          prog.push(e.k === "and" ? OP_AND : OP_OR);
          return;
      }
    };
    const labelCount = new Map<number, number>();
    g.atoms.forEach((e, i) => {
      const sm = superMask(e);
      this.masks.set(sm, i * W);
      const labels = maskLabels(sm);
      if (labels.length === 1) {
        this.exactLabel[i] = labels[0]!;
        labelCount.set(labels[0]!, (labelCount.get(labels[0]!) ?? 0) + 1);
      }
      if (e.k !== "mask") {
        this.progStart[i] = prog.length;
        emit(e);
        this.progEnd[i] = prog.length;
      }
    });
    this.prog = Int32Array.from(prog);
    this.progMasks = Int32Array.from(progMasks);
    this.slots = slots;
    const rec: SmartsQuery[] = [];
    for (const q of slots) {
      for (const r of q.recursive) if (!rec.includes(r)) rec.push(r);
      if (!rec.includes(q)) rec.push(q);
    }
    this.recursive = rec;


    const E = g.edges;
    for (let k = 0; k < E.length; k += 3) {
      this.degree[E[k]!]!++;
      this.degree[E[k + 1]!]!++;
    }
    this.adjStart = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) this.adjStart[i + 1] = this.adjStart[i]! + this.degree[i]!;
    this.adjTo = new Int32Array(2 * this.nEdges);
    this.adjBond = new Int32Array(2 * this.nEdges);
    const fill = this.adjStart.slice(0, n);
    const edgeTypes = new Set<number>();
    for (let k = 0; k < E.length; k += 3) {
      const a = E[k]!;
      const b = E[k + 1]!;
      const m = E[k + 2]!;
      this.adjTo[fill[a]!] = b;
      this.adjBond[fill[a]!++] = m;
      this.adjTo[fill[b]!] = a;
      this.adjBond[fill[b]!++] = m;
      const la = this.exactLabel[a]!;
      const lb = this.exactLabel[b]!;
      if (la >= 0 && lb >= 0 && (m & (m - 1)) === 0) {
        edgeTypes.add(edgeHash(31 - Math.clz32(m), la, lb));
      }
    }
    this.requiredEdges = Int32Array.from(edgeTypes);
    this.neighbourSig = new Int32Array(n);
    for (let k = 0; k < E.length; k += 3) {
      const a = E[k]!;
      const b = E[k + 1]!;
      const m = E[k + 2]!;
      if ((m & (m - 1)) !== 0) continue;
      const bo = 31 - Math.clz32(m);
      if (this.exactLabel[b]! >= 0) this.neighbourSig[a]! |= neighbourBit(bo, this.exactLabel[b]!);
      if (this.exactLabel[a]! >= 0) this.neighbourSig[b]! |= neighbourBit(bo, this.exactLabel[a]!);
    }
    const req: number[] = [];
    for (const [l, c] of labelCount) {
      let rep = -1;
      for (let i = 0; i < n; i++) if (this.exactLabel[i] === l && (rep < 0 || this.degree[i]! > this.degree[rep]!)) rep = i;
      req.push(l, c, rep);
    }
    this.requiredLabels = Int32Array.from(req);
    this.screen = screenBits(this.requiredEdges, labelCount.keys());
    this.orders = new Array<Order | undefined>(n).fill(undefined);
  }

  /** Label superset of atom i as a fresh bitset (W words). */
  atomMask(i: number): Int32Array {
    return this.masks.slice(i * W, i * W + W);
  }

  /** Does atom i's label-only part admit label l? */
  admits(i: number, l: number): boolean {
    return ((this.masks[i * W + (l >> 5)]! >>> (l & 31)) & 1) === 1;
  }

  /**
   * Search order rooted at atom `root`, "fail first": each next atom is the frontier atom
   * (neighbour of a placed one) least likely to be found in a molecule, by a fixed commonness
   * score of its label and bond (aromatic / aliphatic carbon and single / aromatic bonds are
   * common; hetero atoms, double and triple bonds are rare); ties in breadth-first order.
   * Ring closures to placed atoms are recorded.
   */
  order(root: number): Order {
    const cached = this.orders[root];
    if (cached !== undefined) return cached;
    const n = this.size;
    const posOf = new Int32Array(n).fill(-1);
    const atom = new Int32Array(n);
    const parent = new Int32Array(n).fill(-1);
    const parentBond = new Int32Array(n);
    const score = (b: number, bondMask: number): number => {
      const l = this.exactLabel[b]!;
      const ls = l === 6 + AROMATIC_OFFSET ? 3 : l === 6 ? 2 : l < 0 ? 3 : 0;
      const bs = bondMask === 1 << 2 || bondMask === 1 << 3 ? 0 : bondMask === 1 << 1 || bondMask === 1 << 4 ? 1 : 2;
      return ls + bs;
    };
    atom[0] = root;
    posOf[root] = 0;
    for (let filled = 1; filled < n; filled++) {
      let best = -1;
      let bestScore = Infinity;
      let bestParent = -1;
      let bestBond = 0;
      for (let k = 0; k < filled; k++) {
        const a = atom[k]!;
        for (let j = this.adjStart[a]!; j < this.adjStart[a + 1]!; j++) {
          const b = this.adjTo[j]!;
          if (posOf[b]! >= 0) continue;
          const sc = score(b, this.adjBond[j]!);
          if (sc < bestScore) {
            best = b;
            bestScore = sc;
            bestParent = k;
            bestBond = this.adjBond[j]!;
          }
        }
      }
      if (best < 0) break;
      posOf[best] = filled;
      atom[filled] = best;
      parent[filled] = bestParent;
      parentBond[filled] = bestBond;
    }
    const filled = posOf.reduce((c, p) => c + (p >= 0 ? 1 : 0), 0);
    if (filled !== n) throw new Error(`SMARTS ${this.smarts}: query is not connected`);
    const closeStart = new Int32Array(n + 1);
    const closePos: number[] = [];
    const closeBond: number[] = [];
    for (let k = 0; k < n; k++) {
      closeStart[k] = closePos.length;
      const a = atom[k]!;
      for (let j = this.adjStart[a]!; j < this.adjStart[a + 1]!; j++) {
        const p = posOf[this.adjTo[j]!]!;
        if (p < k && p !== parent[k]) {
          closePos.push(p);
          closeBond.push(this.adjBond[j]!);
        }
      }
    }
    closeStart[n] = closePos.length;
    const o: Order = { atom, parent, parentBond, closeStart, closePos: Int32Array.from(closePos), closeBond: Int32Array.from(closeBond) };
    this.orders[root] = o;
    return o;
  }
}
