/**
 * The pattern under construction during the depth-first search (Gaston's `GraphState`) and the
 * canonicity rules that decide which one-node extensions are visited (spec miners.md §2.1).
 *
 * Nodes are numbered in insertion order (this numbering drives the SMARTS writer, §6.1).
 * `path` holds the backbone from its front to its back: path extensions add a node at the back
 * (forward legs) or at the front (backward legs); tree extensions hang a node off any node such
 * that the backbone stays the tree's backbone.
 *
 * Path rule: a path is generated from the parent obtained by deleting the last node of its
 * canonical reading (the smaller of its two readings l0 e1 l1 … en ln, compared label by label
 * from the ends); a back extension is canonical iff forward ≤ reverse, a front extension iff
 * reverse ≤ forward (front extensions only for non-symmetric paths). The root edge of this
 * parent chain decides the root label (§2.1 step 1: other end ≥ root).
 *
 * Tree rule (free trees grown from their backbone, §2.1 step 3): the tree is seen from the
 * centre (bicentre) of the backbone; a new node may not lie deeper than the backbone ends; a
 * new deepest branch must not be smaller (edge label, then node label, read from the centre
 * outward) than the backbone half on its side; and the new node must be the last non-backbone
 * node in the tree's canonical order: back half (towards the last path node) first, then the
 * front half, each backbone node visiting its backbone child before its other branches, the
 * other branches sorted by their depth sequences.
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
  /** Centre branches (odd-node backbones) come before the front half instead of after it. */
  centreBeforeFront: boolean;
  /** A new deepest branch equal to the backbone half is accepted. */
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

/**
 * Canonical walk of an oriented pattern: the back half (towards the last path node) first,
 * then the front half, then (single centre) the centre's other branches; each backbone node
 * visits its backbone child first, then its other branches sorted by descending depth
 * sequence. For a symmetric backbone the half with the smaller depth sequence comes first.
 * `marked` gets a distinct label (used to find equivalent nodes); `last` is preferred last
 * among equal siblings. Returns the walk (every node) and the whole code.
 */
function canonicalWalk(p: Pattern, o: Oriented, marked: number, last: number, opt: TreeOrderOptions): { order: number[]; code: number[] }[] {
  const { n, depth, parE, onPath, labels, kids } = o;
  const path = p.path;
  const cache = new Map<number, number[]>();
  const contains = (w: number): boolean => {
    for (let y = last; y >= 0; y = o.par[y]!) if (y === w) return true;
    return false;
  };
  const sortedExtras = (w: number): number[] => {
    const extra = kids[w]!.filter((y) => !onPath[y]);
    extra.sort((a, b) => {
      const c = -cmpCode(code(a), code(b));
      if (c !== 0) return c;
      return last < 0 ? 0 : (contains(a) ? 1 : 0) - (contains(b) ? 1 : 0);
    });
    return extra;
  };
  const code = (w: number): number[] => {
    let c = cache.get(w);
    if (c) return c;
    c = [depth[w]!, parE[w]!, w === marked ? -1 : labels[w]!];
    for (const y of kids[w]!) if (onPath[y] && depth[y]! > depth[w]!) c = c.concat(code(y));
    for (const y of sortedExtras(w)) c = c.concat(code(y));
    cache.set(w, c);
    return c;
  };
  const walk = (w: number, order: number[]): void => {
    order.push(w);
    for (const y of kids[w]!) if (onPath[y] && depth[y]! > depth[w]!) walk(y, order);
    for (const y of sortedExtras(w)) walk(y, order);
  };
  let backRoot: number;
  let frontRoot: number;
  if (n % 2 === 0) {
    backRoot = n > 0 ? path[n / 2 + 1]! : -1;
    frontRoot = n > 0 ? path[n / 2 - 1]! : -1;
  } else {
    backRoot = path[(n + 1) / 2]!;
    frontRoot = path[(n - 1) / 2]!;
  }
  const orders: [number, number][] = [[backRoot, frontRoot]];
  if (n > 0 && comparePathReadings(path.map((q) => p.label[q]!), p.pathEdges) === 0) {
    const c = cmpCode(code(backRoot), code(frontRoot));
    if (c > 0) orders[0] = [frontRoot, backRoot];
    else if (c === 0) orders.push([frontRoot, backRoot]);
  }
  return orders.map(([first, second]) => {
    const order: number[] = [];
    let whole: number[] = [];
    if (n % 2 === 0) {
      const c = path[n / 2]!;
      order.push(c);
      whole = [0, -1, c === marked ? -1 : labels[c]!];
      const parts: number[] = [first];
      if (opt.centreBeforeFront) parts.push(...sortedExtras(c), second);
      else parts.push(second, ...sortedExtras(c));
      for (const y of parts) {
        if (y < 0) continue;
        walk(y, order);
        whole = whole.concat(code(y));
      }
    } else {
      walk(first, order);
      walk(second, order);
      whole = code(first).concat(code(second));
    }
    return { order, code: whole };
  });
}

/**
 * Nodes that may receive a new node: among nodes equivalent under the pattern's automorphisms
 * (equal codes when marked), only the one visited last in the canonical walk (Gaston's
 * rightmost extension; for a bare symmetric backbone this is the front half, tmp2 l.145).
 */
export function extensionRepresentatives(p: Pattern, opt: TreeOrderOptions): Uint8Array {
  const o = orient(p, null);
  const base = canonicalWalk(p, o, -1, -1, opt)[0]!;
  const pos = new Int32Array(p.size);
  base.order.forEach((w, i) => (pos[w] = i));
  const sig: string[] = [];
  for (let u = 0; u < p.size; u++) {
    const walks = canonicalWalk(p, o, u, -1, opt);
    let best = walks[0]!.code;
    for (const w of walks) if (cmpArr(w.code, best) > 0) best = w.code;
    sig.push(best.join(","));
  }
  const rep = new Uint8Array(p.size);
  for (let u = 0; u < p.size; u++) {
    rep[u] = 1;
    for (let w = 0; w < p.size; w++) if (w !== u && sig[w] === sig[u] && pos[w]! > pos[u]!) rep[u] = 0;
  }
  return rep;
}

/**
 * Is `pattern` + node (label x, edge e) hung off node u a canonical tree extension?
 * The pattern already has its backbone in `path`.
 */
export function treeExtensionOk(p: Pattern, u: number, e: number, x: number, opt: TreeOrderOptions): boolean {
  const path = p.path;
  const o = orient(p, { u, e, x });
  const { n, maxd, depth, par, parE, side, labels } = o;
  const v = p.size;
  const dv = depth[v]!;
  if (dv > maxd) return false;
  // Centre-outward (edge, label) string of the branch ending in node w.
  const branch = (w: number): number[] => {
    const s: number[] = [];
    while (depth[w]! > 0) {
      s.push(labels[w]!, parE[w]!);
      w = par[w]!;
    }
    return s.reverse();
  };
  if (dv === maxd && maxd > 0) {
    // A new deepest branch must not be smaller than the backbone half it competes with.
    const mine = branch(v);
    const cf = cmpArr(mine, branch(path[0]!));
    const cb = cmpArr(mine, branch(path[n]!));
    const sv = side[v]!;
    const c = sv === 0 ? cf : sv === 1 ? cb : Math.min(cf, cb);
    if (c < 0) return false;
    if (c === 0 && !opt.acceptTies) return false;
  }
  // The new node must be the last non-backbone node of the canonical walk.
  for (const w of canonicalWalk(p, o, -1, v, opt)) {
    const extras = w.order.filter((y) => !o.onPath[y]);
    if (extras[extras.length - 1] === v) return true;
  }
  return false;
}

function cmpArr(a: readonly number[], b: readonly number[]): number {
  const m = Math.min(a.length, b.length);
  for (let i = 0; i < m; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length - b.length;
}

/**
 * Order of depth sequences (triples depth, edge, label): Gaston's tuple order (a deeper tuple
 * is smaller; same depth: edge label, then node label); a proper prefix is smaller.
 */
function cmpCode(a: readonly number[], b: readonly number[]): number {
  const m = Math.min(a.length, b.length);
  for (let i = 0; i < m; i += 3) {
    if (a[i] !== b[i]) return a[i]! > b[i]! ? -1 : 1;
    if (a[i + 1] !== b[i + 1]) return a[i + 1]! < b[i + 1]! ? -1 : 1;
    if (a[i + 2] !== b[i + 2]) return a[i + 2]! < b[i + 2]! ? -1 : 1;
  }
  return a.length - b.length;
}
