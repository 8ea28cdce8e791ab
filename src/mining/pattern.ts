/**
 * The pattern under construction during the depth-first search (Gaston's `GraphState`) and the
 * canonicity rules that decide which one-node extensions are visited (docs/miners.md "The search").
 *
 * Nodes are numbered in insertion order (this numbering drives the SMARTS writer, ./smarts.ts).
 * `path` holds the backbone from its front to its back: path extensions add a node at the back
 * (forward legs) or at the front (backward legs); tree extensions hang a node off any node such
 * that the backbone stays the tree's backbone.
 *
 * Path rule: a path is generated from the parent obtained by deleting the last node of its
 * canonical reading (the smaller of its two readings l0 e1 l1 … en ln, compared label by label
 * from the ends); a back extension is canonical iff forward ≤ reverse, a front extension iff
 * reverse ≤ forward (front extensions only for non-symmetric paths). The root edge of this
 * parent chain decides the root label (the label at its other end is ≥ the root's).
 *
 * Tree rule (free trees grown from their backbone; Gaston's PatternTree). The
 * tree is seen from the centre (bicentre) of its backbone, as two halves (plus, for a single
 * centre, the centre's other branches). Its "walk" is a pre-order in which
 *  - the half whose centre-outward (edge, label) sequence is smaller comes first; for a
 *    symmetric backbone the half whose depth sequence is larger (deeper tuples first, then
 *    higher labels, a longer sequence before its prefix) comes first, and both orders are
 *    valid while the halves are equal; the centre's other branches come after both halves;
 *  - every backbone node visits its backbone child first; all other children are sorted by
 *    their depth sequences (tuples depth, edge, label; lower labels first, a longer sequence
 *    before its prefix), except that a child continuing a chain equal to the backbone from
 *    the nearest backbone node ("prefix-equal", Gaston's next-prefix) comes before the others.
 * A one-node extension is canonical iff the new node is not deeper than the backbone ends, a
 * new deepest branch is not smaller (centre outward) than the backbone half it competes with,
 * the new node is the last non-backbone node of the walk, and a branch that ties with the
 * backbone half (same chain to the same depth) does not precede the backbone child in depth
 * sequence order (so that a tree with two equal longest chains is generated once).
 * Reproduces fminer2's output byte for byte on hamster (tmp1, tmp2, fminer1, multinomial
 * fminer2), EPAFHM regression (fminer4) and fminer2's count of all frequent trees (66455).
 */

export class Pattern {
  size = 0;
  /** Internal node label per node. */
  readonly label: number[] = [];
  /** Neighbours / edge labels in insertion order. */
  readonly adj: number[][] = [];
  readonly adjE: number[][] = [];
  /** Node this node was attached to (-1 for node 0) and the edge label of that edge. */
  readonly parent: number[] = [];
  readonly edgeIn: number[] = [];
  /** Backbone, front to back (node ids). */
  path: number[] = [];
  /** Edge labels along the backbone, front to back (length path.length − 1). */
  pathEdges: number[] = [];

  addNode(label: number, to: number, edge: number): number {
    const id = this.size++;
    this.label.push(label);
    this.adj.push([]);
    this.adjE.push([]);
    this.parent.push(to);
    this.edgeIn.push(edge);
    if (to >= 0) {
      this.adj[to]!.push(id);
      this.adjE[to]!.push(edge);
      this.adj[id]!.push(to);
      this.adjE[id]!.push(edge);
    }
    return id;
  }

  removeLast(): void {
    const id = --this.size;
    const to = this.parent.pop()!;
    this.label.pop();
    this.adj.pop();
    this.adjE.pop();
    this.edgeIn.pop();
    if (to >= 0) {
      this.adj[to]!.pop();
      this.adjE[to]!.pop();
    }
    void id;
  }
}

/** Compare the forward reading of a path with its reverse: −1, 0 (symmetric) or 1. */
export function comparePathReadings(labels: readonly number[], edges: readonly number[]): number {
  const n = labels.length - 1;
  for (let i = 0, j = n; i < j; i++, j--) {
    const a = labels[i]!;
    const b = labels[j]!;
    if (a !== b) return a < b ? -1 : 1;
    const ea = edges[i]!;
    const eb = edges[j - 1]!;
    if (ea !== eb) return ea < eb ? -1 : 1;
  }
  return 0;
}

export interface TreeOrderOptions {
  /** Centre branches (odd-node backbones) come before the second half instead of after it. */
  centreBeforeFront: boolean;
  /** A new deepest branch whose chain equals the backbone half's is accepted (subject to the tie order). */
  acceptTies: boolean;
}

export const DEFAULT_TREE_ORDER: TreeOrderOptions = { centreBeforeFront: false, acceptTies: true };

/** Orientation of a pattern from the centre of its backbone. */
interface Oriented {
  n: number;
  maxd: number;
  depth: Int32Array;
  par: Int32Array;
  parE: Int32Array;
  side: Int8Array;
  onPath: Uint8Array;
  labels: number[];
  kids: number[][];
}

/** Orient pattern p (+ optional new node v = p.size hung off u by edge e with label x). */
function orient(p: Pattern, ext: { u: number; e: number; x: number } | null): Oriented {
  const path = p.path;
  const n = path.length - 1;
  const k = p.size + (ext ? 1 : 0);
  const depth = new Int32Array(k).fill(-1);
  const par = new Int32Array(k).fill(-1);
  const parE = new Int32Array(k).fill(-1);
  const side = new Int8Array(k);
  const onPath = new Uint8Array(k);
  for (const q of path) onPath[q] = 1;
  const labels = p.label.slice(0, p.size);
  const queue: number[] = [];
  let maxd: number;
  if (n % 2 === 0) {
    const c = path[n / 2]!;
    maxd = n / 2;
    depth[c] = 0;
    side[c] = 2;
    queue.push(c);
  } else {
    const c1 = path[(n - 1) / 2]!;
    const c2 = path[(n + 1) / 2]!;
    maxd = (n - 1) / 2;
    depth[c1] = 0;
    depth[c2] = 0;
    side[c1] = 0;
    side[c2] = 1;
    queue.push(c1, c2);
  }
  for (let qi = 0; qi < queue.length; qi++) {
    const w = queue[qi]!;
    const nb = p.adj[w]!;
    const ne = p.adjE[w]!;
    for (let i = 0; i < nb.length; i++) {
      const y = nb[i]!;
      if (depth[y]! >= 0) continue;
      depth[y] = depth[w]! + 1;
      par[y] = w;
      parE[y] = ne[i]!;
      if (depth[w] === 0 && n % 2 === 0) side[y] = y === path[n / 2 - 1] ? 0 : y === path[n / 2 + 1] ? 1 : 2;
      else side[y] = side[w]!;
      queue.push(y);
    }
  }
  if (ext) {
    const v = p.size;
    depth[v] = depth[ext.u]! + 1;
    par[v] = ext.u;
    parE[v] = ext.e;
    side[v] = n % 2 === 0 && ext.u === path[n / 2] ? 2 : side[ext.u]!;
    labels.push(ext.x);
  }
  const kids: number[][] = [];
  for (let w = 0; w < k; w++) kids.push([]);
  for (let w = 0; w < k; w++) if (par[w]! >= 0) kids[par[w]!]!.push(w);
  return { n, maxd, depth, par, parE, side, onPath, labels, kids };
}

/** Depth-sequence order (negative: a first). */
interface SeqOrder {
  /** A deeper tuple at the first difference comes first. */
  deeperFirst: boolean;
  /** Lower edge / node labels come first. */
  lowerFirst: boolean;
}
/** Order of non-backbone siblings. */
const EXTRA_ORDER: SeqOrder = { deeperFirst: false, lowerFirst: true };
/** Order of the two halves of a symmetric backbone. */
const SYM_ORDER: SeqOrder = { deeperFirst: true, lowerFirst: false };
/** Order between a backbone child and a branch that ties with it. */
const TIE_ORDER: SeqOrder = { deeperFirst: false, lowerFirst: false };

/** Compare depth sequences (triples depth, edge, label); a longer sequence precedes its prefix. */
function seqCmp(a: readonly number[], b: readonly number[], ord: SeqOrder): number {
  const m = Math.min(a.length, b.length);
  for (let i = 0; i < m; i += 3) {
    if (a[i] !== b[i]) return a[i]! > b[i]! === ord.deeperFirst ? -1 : 1;
    if (a[i + 1] !== b[i + 1]) return a[i + 1]! < b[i + 1]! === ord.lowerFirst ? -1 : 1;
    if (a[i + 2] !== b[i + 2]) return a[i + 2]! < b[i + 2]! === ord.lowerFirst ? -1 : 1;
  }
  if (a.length === b.length) return 0;
  return a.length > b.length ? -1 : 1;
}

/** The two half roots of the backbone: [front half root, back half root]. */
function halfRoots(p: Pattern, n: number): [number, number] {
  const path = p.path;
  if (n % 2 === 0) return [path[n / 2 - 1]!, path[n / 2 + 1]!];
  return [path[(n - 1) / 2]!, path[(n + 1) / 2]!];
}

/** Compare the halves by their centre-outward (edge, label) sequences: negative = front smaller. */
function halfSequenceCmp(p: Pattern, n: number): number {
  const path = p.path;
  const fs: number[] = [];
  const bs: number[] = [];
  const [frontRoot, backRoot] = halfRoots(p, n);
  if (n % 2 === 0) {
    for (let i = n / 2 - 1; i >= 0; i--) fs.push(p.pathEdges[i]!, p.label[path[i]!]!);
    for (let i = n / 2; i < n; i++) bs.push(p.pathEdges[i]!, p.label[path[i + 1]!]!);
  } else {
    for (let i = (n - 1) / 2 - 1; i >= 0; i--) fs.push(p.pathEdges[i]!, p.label[path[i]!]!);
    for (let i = (n + 1) / 2; i < n; i++) bs.push(p.pathEdges[i]!, p.label[path[i + 1]!]!);
    fs.push(p.label[frontRoot]!);
    bs.push(p.label[backRoot]!);
  }
  return cmpArr(fs, bs);
}

/**
 * For each node: the edge labels that continue a chain equal to the backbone from the node's
 * nearest backbone ancestor (empty when the node's own chain already deviates); for backbone
 * nodes, their backbone child edge(s).
 */
function prefixContinuations(o: Oriented): number[][] {
  const { depth, par, parE, onPath, kids, labels } = o;
  const out: number[][] = [];
  for (let q = 0; q < labels.length; q++) {
    if (onPath[q]) {
      out.push(backboneKids(o, q).map((y) => parE[y]!));
      continue;
    }
    const chain: number[] = [];
    let a = q;
    while (!onPath[a]) {
      chain.push(a);
      a = par[a]!;
    }
    chain.reverse();
    const res: number[] = [];
    for (const b of backboneKids(o, a)) {
      let y = b;
      let ok = true;
      for (const c of chain) {
        if (y < 0 || parE[y] !== parE[c] || labels[y] !== labels[c]) {
          ok = false;
          break;
        }
        const nx = backboneKids(o, y);
        y = nx.length ? nx[0]! : -1;
      }
      if (ok && y >= 0) res.push(parE[y]!);
    }
    out.push(res);
  }
  return out;
}

/** Backbone children of a (the path neighbours farther from the centre). */
function backboneKids(o: Oriented, a: number): number[] {
  const out: number[] = [];
  for (const y of o.kids[a]!) if (o.onPath[y] && o.depth[y]! > o.depth[a]!) out.push(y);
  return out;
}

interface Walk {
  /** Every node in walk order. */
  order: number[];
  /** Depth sequence of the whole tree in this walk. */
  code: number[];
}

/**
 * The canonical walk(s) of an oriented pattern (see the module comment): one, or two for a
 * symmetric backbone whose halves are equal. `marked` gets a distinct label (used to find
 * equivalent nodes); `last` is preferred last among equal siblings and, when given, the tie
 * order is checked (an empty result means the tree is not canonical).
 */
function canonicalWalk(p: Pattern, o: Oriented, marked: number, last: number, opt: TreeOrderOptions): Walk[] {
  return new WalkBuilder(p, o, marked, last).walks(opt, marked >= 0);
}

/** State of one canonical-walk computation (methods instead of closures: no per-call allocation). */
class WalkBuilder {
  private readonly codes: (number[] | undefined)[];
  private readonly sorted: (number[] | undefined)[];
  private pcs: number[][] | null = null;
  constructor(
    private readonly p: Pattern,
    private readonly o: Oriented,
    private readonly marked: number,
    private readonly last: number,
  ) {
    this.codes = new Array(o.labels.length);
    this.sorted = new Array(o.labels.length);
  }

  private continuesPrefix(w: number): boolean {
    if (this.pcs === null) this.pcs = prefixContinuations(this.o);
    return this.pcs[this.o.par[w]!]!.includes(this.o.parE[w]!);
  }

  private contains(w: number): boolean {
    for (let y = this.last; y >= 0; y = this.o.par[y]!) if (y === w) return true;
    return false;
  }

  /** Non-backbone children of w in walk order (cached). */
  sortedExtras(w: number): number[] {
    let extra = this.sorted[w];
    if (extra !== undefined) return extra;
    const { kids, onPath } = this.o;
    extra = [];
    for (const y of kids[w]!) if (!onPath[y]) extra.push(y);
    if (extra.length > 1)
      extra.sort((a, b) => {
        const pa = this.continuesPrefix(a);
        const c = pa !== this.continuesPrefix(b) ? (pa ? -1 : 1) : seqCmp(this.code(a), this.code(b), EXTRA_ORDER);
        if (c !== 0) return c;
        return this.last < 0 ? 0 : (this.contains(a) ? 1 : 0) - (this.contains(b) ? 1 : 0);
      });
    this.sorted[w] = extra;
    return extra;
  }

  /** Depth sequence (depth, edge, label triples) of the subtree of w in walk order (cached). */
  code(w: number): number[] {
    let c = this.codes[w];
    if (c !== undefined) return c;
    const { depth, parE, onPath, labels, kids } = this.o;
    c = [depth[w]!, parE[w]!, w === this.marked ? -1 : labels[w]!];
    for (const y of kids[w]!) if (onPath[y] && depth[y]! > depth[w]!) for (const x of this.code(y)) c.push(x);
    for (const y of this.sortedExtras(w)) for (const x of this.code(y)) c.push(x);
    this.codes[w] = c;
    return c;
  }

  private walk(w: number, order: number[]): void {
    const { depth, onPath, kids } = this.o;
    order.push(w);
    for (const y of kids[w]!) if (onPath[y] && depth[y]! > depth[w]!) this.walk(y, order);
    for (const y of this.sortedExtras(w)) this.walk(y, order);
  }

  walks(opt: TreeOrderOptions, withCode: boolean): Walk[] {
    const { p, o } = this;
    const n = o.n;
    const path = p.path;
    const [frontRoot, backRoot] = n > 0 ? halfRoots(p, n) : [-1, -1];
    const orders: [number, number][] = [[backRoot, frontRoot]];
    if (n > 0) {
      const hc = halfSequenceCmp(p, n);
      if (hc < 0) orders[0] = [frontRoot, backRoot];
      else if (hc === 0) {
        const c = seqCmp(this.code(backRoot), this.code(frontRoot), SYM_ORDER);
        if (c > 0) orders[0] = [frontRoot, backRoot];
        else if (c === 0) orders.push([frontRoot, backRoot]);
      }
    }
    if (this.last >= 0 && !tieOrderOk(p, o, (w) => this.code(w))) return [];
    return orders.map(([first, second]) => {
      const order: number[] = [];
      const whole: number[] = [];
      const parts: number[] = [];
      if (n % 2 === 0) {
        const c = path[n / 2]!;
        order.push(c);
        if (withCode) whole.push(0, -1, c === this.marked ? -1 : o.labels[c]!);
        parts.push(first);
        if (opt.centreBeforeFront) parts.push(...this.sortedExtras(c), second);
        else parts.push(second, ...this.sortedExtras(c));
      } else parts.push(first, second);
      for (const y of parts) {
        if (y < 0) continue;
        this.walk(y, order);
        if (withCode) for (const x of this.code(y)) whole.push(x);
      }
      return { order, code: whole };
    });
  }
}

/**
 * A branch x of a backbone node w that reaches the backbone's depth along a chain equal to the
 * backbone child b's may not precede b in the tie order (otherwise the tree is generated from
 * the other backbone).
 */
function tieOrderOk(p: Pattern, o: Oriented, code: (w: number) => number[]): boolean {
  const { depth, parE, onPath, labels, kids, par } = o;
  const bbE: number[] = [];
  const bbL: number[] = [];
  for (const w of p.path) {
    let hasExtra = false;
    for (const y of kids[w]!) if (!onPath[y]) hasExtra = true;
    if (!hasExtra) continue;
    for (const b of kids[w]!) {
      if (!onPath[b] || depth[b]! <= depth[w]!) continue;
      // the backbone chain below w, by depth
      for (let y = b; y >= 0; ) {
        bbE[depth[y]!] = parE[y]!;
        bbL[depth[y]!] = labels[y]!;
        let nx = -1;
        for (const z of kids[y]!) if (onPath[z] && depth[z]! > depth[y]!) nx = z;
        y = nx;
      }
      for (const x of kids[w]!) {
        if (onPath[x]) continue;
        let tie = false;
        const stack = [x];
        while (stack.length && !tie) {
          const q = stack.pop()!;
          if (depth[q] === o.maxd) {
            let same = true;
            for (let y = q; y !== w; y = par[y]!)
              if (parE[y] !== bbE[depth[y]!] || labels[y] !== bbL[depth[y]!]) {
                same = false;
                break;
              }
            if (same) tie = true;
          }
          for (const y of kids[q]!) stack.push(y);
        }
        if (tie && seqCmp(code(b), code(x), TIE_ORDER) > 0) return false;
      }
    }
  }
  return true;
}


/**
 * Nodes that may receive a new node: among nodes equivalent under the pattern's automorphisms
 * (equal codes when marked), only the one visited last in the canonical walk (Gaston's
 * rightmost extension; for a bare symmetric backbone this is the front half, tmp2 l.145).
 */
export function extensionRepresentatives(p: Pattern, opt: TreeOrderOptions, nodes?: readonly number[]): Uint8Array {
  const o = orient(p, null);
  const base = canonicalWalk(p, o, -1, -1, opt)[0]!;
  return representatives(p, o, base.order, opt, nodes ?? Array.from({ length: p.size }, (_, i) => i));
}

/**
 * Is `pattern` + node (label x, edge e) hung off node u a canonical tree extension?
 * The pattern already has its backbone in `path`.
 */
export function treeExtensionOk(p: Pattern, u: number, e: number, x: number, opt: TreeOrderOptions): boolean {
  return extensionOk(p, orient(p, { u, e, x }), opt);
}

/** The orientation of p + (node hung off u by edge e, label x), from the orientation of p. */
function extendOrientation(p: Pattern, o: Oriented, u: number, e: number, x: number): Oriented {
  const k = o.labels.length + 1;
  const v = k - 1;
  const depth = new Int32Array(k);
  depth.set(o.depth);
  const par = new Int32Array(k);
  par.set(o.par);
  const parE = new Int32Array(k);
  parE.set(o.parE);
  const side = new Int8Array(k);
  side.set(o.side);
  const onPath = new Uint8Array(k);
  onPath.set(o.onPath);
  const labels = o.labels.slice();
  labels.push(x);
  const kids = o.kids.slice();
  kids[u] = [...kids[u]!, v];
  kids.push([]);
  depth[v] = depth[u]! + 1;
  par[v] = u;
  parE[v] = e;
  side[v] = o.n % 2 === 0 && u === p.path[o.n / 2] ? 2 : side[u]!;
  return { n: o.n, maxd: o.maxd, depth, par, parE, side, onPath, labels, kids };
}

function extensionOk(p: Pattern, o: Oriented, opt: TreeOrderOptions): boolean {
  const path = p.path;
  const { n, maxd, depth, side } = o;
  const v = p.size;
  const dv = depth[v]!;
  if (dv > maxd) return false;
  if (dv === maxd && maxd > 0) {
    // A new deepest branch must not be smaller than the backbone half it competes with.
    const mine = branchSeq(o, v);
    const cf = cmpArr(mine, branchSeq(o, path[0]!));
    const cb = cmpArr(mine, branchSeq(o, path[n]!));
    const sv = side[v]!;
    const c = sv === 0 ? cf : sv === 1 ? cb : Math.min(cf, cb);
    if (c < 0) return false;
    if (c === 0 && !opt.acceptTies) return false;
  }
  // The new node must be the last non-backbone node of a canonical walk.
  for (const w of canonicalWalk(p, o, -1, v, opt)) {
    let lastExtra = -1;
    for (const y of w.order) if (!o.onPath[y]) lastExtra = y;
    if (lastExtra === v) return true;
  }
  return false;
}

/** Centre-outward (edge, label) sequence of the branch ending in node w. */
function branchSeq(o: Oriented, w: number): number[] {
  const s: number[] = [];
  while (o.depth[w]! > 0) {
    s.push(o.labels[w]!, o.parE[w]!);
    w = o.par[w]!;
  }
  return s.reverse();
}

/**
 * Nodes that can receive a canonical tree extension (a superset, checked afterwards): depth
 * below the backbone half length and no non-backbone node after the node's subtree in some
 * canonical walk (a new node must end up last, and growing a branch never moves it later).
 */
export function candidateNodes(p: Pattern, opt: TreeOrderOptions): number[] {
  const o = orient(p, null);
  const sel = new Uint8Array(p.size);
  for (const w of canonicalWalk(p, o, -1, -1, opt)) {
    const { end, lastExtra } = subtreeEnds(o, w.order, p.size);
    for (let q = 0; q < p.size; q++) if (end[q]! >= lastExtra && o.depth[q]! < o.maxd) sel[q] = 1;
  }
  const out: number[] = [];
  for (let q = 0; q < p.size; q++) if (sel[q]) out.push(q);
  return out;
}

function subtreeEnds(o: Oriented, order: readonly number[], size: number): { end: Int32Array; lastExtra: number } {
  const pos = new Int32Array(size);
  order.forEach((q, i) => (pos[q] = i));
  const end = pos.slice();
  for (let i = order.length - 1; i >= 0; i--) {
    const q = order[i]!;
    const par = o.par[q]!;
    if (par >= 0 && end[q]! > end[par]!) end[par] = end[q]!;
  }
  let lastExtra = -1;
  for (let i = 0; i < order.length; i++) if (!o.onPath[order[i]!]) lastExtra = i;
  return { end, lastExtra };
}

/**
 * Gaston's visit order of the tree legs of a pattern (legs are iterated from last to first):
 * legs at the node whose subtree ends latest in the walk first (shallower node
 * first on equal ends); at one node, a leg continuing the backbone tuple at its depth (same
 * half; either half for the centre's branches) last, the others by descending edge label.
 * Sorts `legs` in place.
 */
export function sortTreeLegs<L extends { node: number; edge: number }>(p: Pattern, legs: L[], opt: TreeOrderOptions = DEFAULT_TREE_ORDER): L[] {
  if (legs.length < 2) return legs;
  const o = orient(p, null);
  const w = canonicalWalk(p, o, -1, -1, opt)[0]!;
  return sortLegsBy(p, o, subtreeEnds(o, w.order, p.size).end, legs);
}

function sortLegsBy<L extends { node: number; edge: number }>(p: Pattern, o: Oriented, end: Int32Array, legs: L[]): L[] {
  if (legs.length < 2) return legs;
  return legs.sort((a, b) => end[b.node]! * 1000 - o.depth[b.node]! - (end[a.node]! * 1000 - o.depth[a.node]!) || legEdgeKey(p, o, b) - legEdgeKey(p, o, a));
}

/** Backbone edge into the depth-k node of the given half (-5 if none). */
function backboneEdgeAt(p: Pattern, n: number, side: number, k: number): number {
  if (k <= 0) return -5;
  if (n % 2 === 0) {
    if (k > n / 2) return -5;
    return side === 0 ? p.pathEdges[n / 2 - k]! : p.pathEdges[n / 2 + k - 1]!;
  }
  if (k > (n - 1) / 2) return -5;
  return side === 0 ? p.pathEdges[(n - 1) / 2 - k]! : p.pathEdges[(n + 1) / 2 + k - 1]!;
}

/** A leg's edge label for the visit order, -1 when it continues the backbone tuple at its depth. */
function legEdgeKey(p: Pattern, o: Oriented, l: { node: number; edge: number }): number {
  const sd = o.side[l.node]!;
  const k = o.depth[l.node]! + 1;
  const eq = sd === 2 ? backboneEdgeAt(p, o.n, 0, k) === l.edge || backboneEdgeAt(p, o.n, 1, k) === l.edge : backboneEdgeAt(p, o.n, sd, k) === l.edge;
  return eq ? -1 : l.edge;
}

function cmpArr(a: readonly number[], b: readonly number[]): number {
  const m = Math.min(a.length, b.length);
  for (let i = 0; i < m; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length - b.length;
}

/**
 * Everything the search needs about a tree pattern before its legs are counted, from one
 * orientation and one canonical walk: the candidate nodes, the automorphism representatives
 * among them and the leg order (same results as candidateNodes, extensionRepresentatives and
 * sortTreeLegs).
 */
export class TreePlan {
  readonly candidates: number[];
  readonly rep: Uint8Array;
  private readonly o: Oriented;
  private readonly end: Int32Array;
  constructor(
    private readonly p: Pattern,
    private readonly opt: TreeOrderOptions = DEFAULT_TREE_ORDER,
  ) {
    const o = (this.o = orient(p, null));
    const walks = canonicalWalk(p, o, -1, -1, opt);
    const sel = new Uint8Array(p.size);
    let end0: Int32Array | null = null;
    for (const w of walks) {
      const { end, lastExtra } = subtreeEnds(o, w.order, p.size);
      if (end0 === null) end0 = end;
      for (let q = 0; q < p.size; q++) if (end[q]! >= lastExtra && o.depth[q]! < o.maxd) sel[q] = 1;
    }
    this.end = end0!;
    this.order0 = walks[0]!.order;
    this.candidates = [];
    for (let q = 0; q < p.size; q++) if (sel[q]) this.candidates.push(q);
    this.rep = representatives(p, o, walks[0]!.order, opt, this.candidates);
  }

  private pcs: number[][] | null = null;
  private lastExtra: Int32Array | null = null;
  private order0: number[] = [];

  /**
   * A cheap necessary condition for treeExtensionOk(p, u, e, x): the new node must sort after
   * u's last non-backbone child (a node continuing the backbone prefix sorts first; otherwise
   * lower edge labels first, and an equal first tuple never sorts before).
   */
  mayExtend(u: number, e: number): boolean {
    const o = this.o;
    if (this.lastExtra === null) {
      const last = new Int32Array(this.p.size).fill(-1);
      for (const q of this.order0) if (!o.onPath[q] && o.par[q]! >= 0) last[o.par[q]!] = q;
      this.lastExtra = last;
    }
    const y = this.lastExtra[u]!;
    if (y < 0) return true;
    if (this.pcs === null) this.pcs = prefixContinuations(o);
    const vc = this.pcs[u]!.includes(e);
    const yc = this.pcs[u]!.includes(o.parE[y]!);
    if (vc !== yc) return yc;
    return e >= o.parE[y]!;
  }

  /** treeExtensionOk(p, u, e, x, opt), reusing the plan's orientation. */
  extensionOk(u: number, e: number, x: number): boolean {
    return extensionOk(this.p, extendOrientation(this.p, this.o, u, e, x), this.opt);
  }

  /** Sorts tree legs in Gaston's visit order (see sortTreeLegs). */
  sort<L extends { node: number; edge: number }>(legs: L[]): L[] {
    return sortLegsBy(this.p, this.o, this.end, legs);
  }
}

/** Largest whole code of the tree with node u marked (equal for automorphic nodes; cached). */
function markedSignature(p: Pattern, o: Oriented, opt: TreeOrderOptions, cache: Map<number, string>, u: number): string {
  let s = cache.get(u);
  if (s === undefined) {
    const walks = canonicalWalk(p, o, u, -1, opt);
    let best = walks[0]!.code;
    for (const w of walks) if (cmpArr(w.code, best) > 0) best = w.code;
    s = best.join(",");
    cache.set(u, s);
  }
  return s;
}

function representatives(p: Pattern, o: Oriented, baseOrder: readonly number[], opt: TreeOrderOptions, nodes: readonly number[]): Uint8Array {
  const pos = new Int32Array(p.size);
  baseOrder.forEach((w, i) => (pos[w] = i));
  const sig = new Map<number, string>();
  const rep = new Uint8Array(p.size);
  for (const u of nodes) {
    rep[u] = 1;
    // Only a node at the same depth with the same label and edge can be equivalent.
    for (let w = 0; w < p.size && rep[u]; w++) {
      if (w === u || pos[w]! <= pos[u]! || o.depth[w] !== o.depth[u] || o.labels[w] !== o.labels[u] || o.parE[w] !== o.parE[u]) continue;
      if (markedSignature(p, o, opt, sig, w) === markedSignature(p, o, opt, sig, u)) rep[u] = 0;
    }
  }
  return rep;
}
