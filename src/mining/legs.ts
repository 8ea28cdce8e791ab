/**
 * The embedding store and the leg counting that the BBRC miner (./bbrc.ts) and LAST-PM's
 * search (./last/search.ts) share: both walk Gaston's path / free-tree depth-first search and
 * differ only in what they do with the counted legs (scoring, refinement, output).
 *
 * Embeddings are stored per search level as flat Int32Array rows (one mapped atom per pattern
 * node, every injective mapping, automorphic ones included) with their tid, in tid order, in a
 * buffer reused by all patterns of that size (the search is depth first). Support and
 * per-class counts of every candidate extension ("leg") are collected in one scan over the
 * rows with last-tid markers (a molecule counted once per leg), only at the nodes that can
 * receive a canonical extension (pattern.ts TreePlan) and had a frequent key in the parent (an
 * extension of a child embedding at an old node is one of a parent embedding), and the rows of
 * a child pattern are only copied out when the search descends from it. Whether a neighbour
 * atom is already in the embedding: across a bridge it is iff it is the image of a pattern
 * neighbour (the image is connected); across a ring bond the embedding's atoms are stamped
 * once, lazily. Nothing is allocated per embedding.
 */

import { ringBonds, type Database } from "./database.ts";
import { TreePlan, comparePathReadings, treeExtensionOk, extensionRepresentatives, type Pattern, type TreeOrderOptions } from "./pattern.ts";

/**
 * The embeddings of a pattern of size k: flat rows of mapped atoms with their tids, in tid
 * order. A child level is first given as base rows + new atoms and only copied out when the
 * search descends from it. Always made by `level` (one object shape for both miners).
 */
export interface Level {
  k: number; // pattern size
  /** m * k mapped atoms, or null while the level is only given as base rows + new atoms. */
  rows: Int32Array | null;
  tids: Int32Array; // m
  m: number;
  /** Unmaterialised level: embedding i = base row pr[i] extended by atom w[i]. */
  base: Level | null;
  pr: Int32Array | null;
  w: Int32Array | null;
  /**
   * After the legs of this level were counted: per node, 1 = scanned without any frequent
   * key, 2 = scanned with some (0 = not scanned). A child's extension at an old node is an
   * extension of a parent embedding, so nodes marked 1 need not be scanned in any child.
   * Null before.
   */
  scanned: Uint8Array | null;
}

/** A new level: the one place Level objects are made (one hidden class for both miners). */
export function level(k: number, rows: Int32Array | null, tids: Int32Array, m: number, base: Level | null, pr: Int32Array | null, w: Int32Array | null): Level {
  return { k, rows, tids, m, base, pr, w, scanned: null };
}

/**
 * Owns the scratch buffers of the search (reused across calls: no per-embedding allocations)
 * and counts the frequent legs of a level. The miner keeps `pattern` in step with the level it
 * passes (the pattern the level's rows embed).
 */
export class LegCounter {
  private readonly db: Database;
  private readonly pattern: Pattern;
  private readonly minfreq: number;
  private readonly tidClass: Int32Array;
  private readonly nClasses: number;
  private lastTid = new Int32Array(0);
  private support = new Int32Array(0);
  private slot = new Int32Array(0);
  private nodeBuf = new Int32Array(16);
  private nbStart = new Int32Array(16);
  private nbNode = new Int32Array(64);
  private pairKey = new Int32Array(1024);
  private pairTid = new Int32Array(1024);
  /** Per global atom: the stamp of the last embedding whose atoms were marked. */
  private readonly stamp: Int32Array;
  /** Per adjacency entry: 1 if the bond lies on a cycle (else it is a bridge). */
  readonly adjRing: Uint8Array;
  /** Last stamp handed out (see `stampBase`). */
  private stampId = 0;
  /** Per pattern size: buffers of the rows, tids, base rows and new atoms of that size. */
  readonly rowPool: Int32Array[] = [];
  readonly tidPool: Int32Array[] = [];
  readonly prPool: Int32Array[] = [];
  readonly wPool: Int32Array[] = [];
  /**
   * The legs of the last `count` (the first n entries): pattern node, edge label, label of the
   * new node, tids (ascending) and per-class counts, by ascending (node, edge label).
   */
  readonly legNode: number[] = [];
  readonly legEdge: number[] = [];
  readonly legLabel: number[] = [];
  readonly legTids: Int32Array[] = [];
  readonly legCounts: Int32Array[] = [];

  constructor(db: Database, pattern: Pattern, minfreq: number, tidClass: Int32Array, nClasses: number) {
    this.db = db;
    this.pattern = pattern;
    this.minfreq = minfreq;
    this.tidClass = tidClass;
    this.nClasses = nClasses;
    this.stamp = new Int32Array(db.atomTid.length);
    this.adjRing = ringBonds(db);
  }

  /**
   * Start the search at root label r (fminer's MineRoot): the one-node pattern is pushed, its
   * legs (edges to a label ≥ r, by ascending edge label) counted and its level returned; null
   * (nothing pushed) if r is infrequent or has no frequent edge.
   */
  root(r: number): Level | null {
    const db = this.db;
    const nl = db.nodeLabels[r]!;
    if (nl.frequency < this.minfreq || nl.frequentEdges.length === 0) return null;
    const p = this.pattern;
    p.addNode(r, -1, -1);
    p.path = [0];
    p.pathEdges = [];
    const lv = level(1, Int32Array.from(nl.atoms), Int32Array.from(nl.atoms, (a) => db.atomTid[a]!), nl.atoms.length, null, null, null);
    this.count(lv, [0], (_u, _e, x) => x >= r);
    return lv;
  }

  /**
   * Count the legs of a path pattern (the pattern's `path` / `pathEdges` set): at its ends, and
   * with `trees` at its inner nodes; returns the plan that tells them apart.
   */
  path(lv: Level, trees: boolean, order: TreeOrderOptions): PathPlan {
    const plan = new PathPlan(this.pattern, trees, order);
    this.count(lv, plan.scan, (u, e, x) => plan.ok(u, e, x));
    return plan;
  }

  /**
   * Count the legs of a free tree: only nodes that can receive a canonical extension and are
   * automorphism representatives are scanned (pattern.ts TreePlan).
   */
  tree(lv: Level, order: TreeOrderOptions): TreePlan {
    const plan = new TreePlan(this.pattern, order);
    const rep = plan.rep;
    const nodes = plan.candidates.filter((u) => rep[u] === 1);
    this.count(lv, nodes, (u, e, x) => x >= 0 && rep[u] === 1 && plan.mayExtend(u, e) && plan.extensionOk(u, e, x));
    return plan;
  }

  /** Label of the node at the other end of edge label e from pattern node u, or -1. */
  otherLabel(u: number, e: number): number {
    const el = this.db.edgeLabels[e]!;
    const ul = this.pattern.label[u]!;
    if (el.from !== ul && el.to !== ul) return -1;
    return el.from === ul ? el.to : el.from;
  }

  /**
   * Scan all embeddings and count, for each (pattern node u, edge label e), the molecules in
   * which the pattern extends by an edge e at u to a data atom outside the embedding
   * (non-induced, injective); sets `lv.scanned`. The frequent keys accepted by `ok` (given the
   * new node's label x) become the legs `legNode` … `legCounts` [0, n); returns n. One call per
   * level (the marks are per level).
   */
  private count(lv: Level, nodes: readonly number[], ok: (u: number, e: number, x: number) => boolean): number {
    const db = this.db;
    const nE = db.edgeLabels.length;
    const k = lv.k;
    const nk = k * nE;
    // Per (node, edge label) key: support with a last-tid marker; (key, tid) pairs appended to
    // flat buffers in tid order (embeddings are kept in tid order).
    // lastTid / support / slot are kept at -1 / 0 / -1 between calls: only the keys touched
    // by a call are reset at its end (no clearing of k × edge-label arrays per pattern).
    if (this.lastTid.length < nk) {
      this.lastTid = new Int32Array(nk * 2).fill(-1);
      this.support = new Int32Array(nk * 2);
      this.slot = new Int32Array(nk * 2).fill(-1);
    }
    const lastTid = this.lastTid;
    const support = this.support;
    const inherited = lv.base === null ? null : lv.base.scanned;
    if (inherited !== null) nodes = nodes.filter((u) => u >= inherited.length || inherited[u] !== 1);
    const nn = nodes.length;
    const nodeArr = this.nodeBuf.length < nn ? (this.nodeBuf = new Int32Array(nn * 2)) : this.nodeBuf;
    for (let i = 0; i < nn; i++) nodeArr[i] = nodes[i]!;
    let pairKey = this.pairKey;
    let pairTid = this.pairTid;
    let np = 0;
    const { tids, m } = lv;
    // A level not materialised yet is read through its base rows: atom of node q < k - 1 in
    // embedding r = brows[pr[r] * bk + q], atom of the last node = w[r].
    const virt = lv.rows === null;
    const brows = virt ? lv.base!.rows! : lv.rows!;
    const bk = virt ? k - 1 : k;
    const kLast = virt ? k - 1 : -1;
    const prv = virt ? lv.pr! : brows;
    const wv = virt ? lv.w! : brows;
    const adjStart = db.adjStart;
    const adjTo = db.adjTo;
    const adjEdge = db.adjEdge;
    const stamp = this.stamp;
    let stampId = this.stampBase();
    const adjRing = this.adjRing;
    // Pattern neighbours of the candidate nodes (flat): a neighbour across a bridge is in the
    // embedding iff it is the image of one of them (the embedding's image is connected).
    const pat = this.pattern;
    const nbStart = this.nbStart.length <= nn ? (this.nbStart = new Int32Array(nn * 2 + 2)) : this.nbStart;
    let nbCount = 0;
    for (let i = 0; i < nn; i++) nbCount += pat.adj[nodeArr[i]!]!.length;
    const nbNode = this.nbNode.length < nbCount ? (this.nbNode = new Int32Array(nbCount * 2)) : this.nbNode;
    nbCount = 0;
    for (let i = 0; i < nn; i++) {
      nbStart[i] = nbCount;
      for (const z of pat.adj[nodeArr[i]!]!) nbNode[nbCount++] = z;
    }
    nbStart[nn] = nbCount;
    for (let r = 0; r < m; r++) {
      const base = virt ? prv[r]! * bk : r * k;
      const wr = virt ? wv[r]! : -1;
      const t = tids[r]!;
      // The embedding's atoms are stamped only when a ring neighbour has to be checked.
      let st = 0;
      for (let i = 0; i < nn; i++) {
        const u = nodeArr[i]!;
        const a = u === kLast ? wr : brows[base + u]!;
        const kb = u * nE;
        for (let j = adjStart[a]!, je = adjStart[a + 1]!; j < je; j++) {
          const key = kb + adjEdge[j]!;
          if (lastTid[key] === t) continue;
          const w = adjTo[j]!;
          // The image of a pattern neighbour of u (the usual case: the edge u came by)?
          let used = false;
          for (let z = nbStart[i]!, ze = nbStart[i + 1]!; z < ze; z++) {
            const zq = nbNode[z]!;
            if ((zq === kLast ? wr : brows[base + zq]) === w) {
              used = true;
              break;
            }
          }
          if (used) continue;
          if (adjRing[j] !== 0) {
            // across a ring bond any node's image may be w
            if (st === 0) {
              st = ++stampId;
              for (let q = base, qe = base + bk; q < qe; q++) stamp[brows[q]!] = st;
              if (virt) stamp[wr] = st;
            }
            if (stamp[w] === st) continue;
          }
          lastTid[key] = t;
          support[key]!++;
          if (np === pairKey.length) {
            pairKey = this.pairKey = grown(pairKey);
            pairTid = this.pairTid = grown(pairTid);
          }
          pairKey[np] = key;
          pairTid[np++] = t;
        }
      }
    }
    this.stampId = stampId;
    const minfreq = this.minfreq;
    // Frequent keys (ascending): gather their tid lists (ascending) from the pair buffers.
    const keys: number[] = [];
    for (let i = 0; i < np; i++) {
      const key = pairKey[i]!;
      if (lastTid[key] !== -1) {
        lastTid[key] = -1; // reset (first visit of the key in this loop)
        if (support[key]! >= minfreq) keys.push(key);
        else support[key] = 0;
      }
    }
    const scanned = new Uint8Array(k);
    // nodes known from the parent to have no frequent key keep that mark (transitively)
    if (inherited !== null) for (let u = 0; u < inherited.length; u++) if (inherited[u] === 1) scanned[u] = 1;
    for (let i = 0; i < nn; i++) scanned[nodeArr[i]!] = 1;
    for (let i = 0; i < keys.length; i++) scanned[Math.floor(keys[i]! / nE)] = 2;
    lv.scanned = scanned;
    if (keys.length === 0) return this.setLegCount(0);
    keys.sort((a, b) => a - b);
    const slot = this.slot;
    const lists: Int32Array[] = [];
    const fill = support; // write positions
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      lists.push(new Int32Array(support[key]!));
      slot[key] = i;
      fill[key] = 0;
    }
    for (let i = 0; i < np; i++) {
      const key = pairKey[i]!;
      const li = slot[key]!;
      if (li < 0) continue;
      lists[li]![fill[key]!++] = pairTid[i]!;
    }
    for (let i = 0; i < keys.length; i++) {
      slot[keys[i]!] = -1;
      fill[keys[i]!] = 0;
    }
    const tidClass = this.tidClass;
    let n = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const u = Math.floor(key / nE);
      const e = key - u * nE;
      const x = this.otherLabel(u, e);
      if (!ok(u, e, x)) continue;
      const l = lists[i]!;
      const counts = new Int32Array(this.nClasses);
      for (let q = 0; q < l.length; q++) counts[tidClass[l[q]!]!]!++;
      this.legNode[n] = u;
      this.legEdge[n] = e;
      this.legLabel[n] = x;
      this.legTids[n] = l;
      this.legCounts[n++] = counts;
    }
    return this.setLegCount(n);
  }

  /** Drop the leg entries from n on (no stale tid lists kept alive); returns n. */
  private setLegCount(n: number): number {
    this.legNode.length = n;
    this.legEdge.length = n;
    this.legLabel.length = n;
    this.legTids.length = n;
    this.legCounts.length = n;
    return n;
  }

  /**
   * The stamp counter before a scan (reset with the stamps when it grows large); the scan
   * takes ++stampId per embedding it stamps and writes the last one back to `stampId`.
   */
  private stampBase(): number {
    if (this.stampId > 0x3fffffff) {
      this.stamp.fill(0);
      this.stampId = 0;
    }
    return this.stampId;
  }

  /** Make sure the buffers of pattern sizes up to k exist. */
  ensurePools(k: number): void {
    while (this.rowPool.length <= k) {
      this.rowPool.push(new Int32Array(1024));
      this.tidPool.push(new Int32Array(256));
      this.prPool.push(new Int32Array(256));
      this.wPool.push(new Int32Array(256));
    }
  }

  /** The row buffer of size-k patterns, grown to hold m rows. */
  rowBuffer(k: number, m: number): Int32Array {
    const out = this.rowPool[k]!;
    return out.length < m * k ? (this.rowPool[k] = new Int32Array(Math.max(m * k, out.length * 2))) : out;
  }

  /**
   * The embeddings of pattern + leg (u, e) (`legTids`: the leg's tids), before the pattern
   * gets the new node. The rows of a level of size k live in a buffer reused by every pattern
   * of that size (the search is depth first, so a level is dead once its subtree has been
   * explored).
   */
  extend(lv: Level, u: number, e: number, legTids: Int32Array): Level {
    if (lv.rows === null) this.materialize(lv);
    const db = this.db;
    const k = lv.k;
    const k1 = k + 1;
    const rows = lv.rows!;
    const { tids, m } = lv;
    const adjStart = db.adjStart;
    const adjTo = db.adjTo;
    const adjEdge = db.adjEdge;
    const stamp = this.stamp;
    this.ensurePools(k1);
    let outP = this.prPool[k1]!;
    let outW = this.wPool[k1]!;
    let outT = this.tidPool[k1]!;
    let n = 0;
    let stampId = this.stampBase();
    const adjRing = this.adjRing;
    const unb = this.pattern.adj[u]!;
    // Only molecules in the leg's tid list have child embeddings (rows are in tid order).
    let li = 0;
    for (let r = 0; r < m; r++) {
      const t = tids[r]!;
      while (li < legTids.length && legTids[li]! < t) li++;
      if (li === legTids.length) break;
      if (legTids[li] !== t) continue;
      const base = r * k;
      const a = rows[base + u]!;
      let st = 0;
      for (let j = adjStart[a]!, je = adjStart[a + 1]!; j < je; j++) {
        if (adjEdge[j] !== e) continue;
        const w = adjTo[j]!;
        // The image of a pattern neighbour of u? (Across a bridge that is the only way w can
        // be in the embedding; across a ring bond any node's image may be w.)
        let used = false;
        for (let z = 0; z < unb.length; z++)
          if (rows[base + unb[z]!] === w) {
            used = true;
            break;
          }
        if (used) continue;
        if (adjRing[j] !== 0) {
          if (st === 0) {
            st = ++stampId;
            for (let q = base, qe = base + k; q < qe; q++) stamp[rows[q]!] = st;
          }
          if (stamp[w] === st) continue;
        }
        if (n === outT.length) {
          outT = this.tidPool[k1] = grown(outT);
          outP = this.prPool[k1] = grown(outP);
          outW = this.wPool[k1] = grown(outW);
        }
        outP[n] = r;
        outW[n] = w;
        outT[n] = t;
        n++;
      }
    }
    this.stampId = stampId;
    // The child's rows are only copied out if the search descends further from it.
    return level(k1, null, outT, n, lv, outP, outW);
  }

  /** Copy an unmaterialised level's rows into the size-k buffer. */
  private materialize(lv: Level): void {
    const k = lv.k;
    const bk = k - 1;
    const m = lv.m;
    const brows = lv.base!.rows!;
    const pr = lv.pr!;
    const wv = lv.w!;
    const out = this.rowBuffer(k, m);
    for (let i = 0; i < m; i++) {
      const ob = i * k;
      const pb = pr[i]! * bk;
      for (let q = 0; q < bk; q++) out[ob + q] = brows[pb + q]!;
      out[ob + bk] = wv[i]!;
    }
    lv.rows = out;
  }
}

/** Buffer a doubled in length, its contents kept. */
export function grown(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/**
 * The canonical extensions of a path pattern (docs/miners.md "The search"): path legs at its
 * ends keep the extended reading the canonical one; with trees, tree legs at its inner nodes
 * that are automorphism representatives (nodes that are not never get a tree leg: not
 * scanned). One scan of the embeddings collects both (a one-node path has front = back; never
 * here: paths start with one edge).
 */
export class PathPlan {
  readonly front: number;
  readonly back: number;
  /** Inner nodes, front to back (empty without trees). */
  readonly inner: number[];
  /** Nodes to scan. */
  readonly scan: number[];
  private readonly p: Pattern;
  private readonly order: TreeOrderOptions;
  private readonly labels: number[];
  private readonly sym: boolean;
  private readonly rep: Uint8Array | null;

  constructor(p: Pattern, trees: boolean, order: TreeOrderOptions) {
    const path = p.path;
    const n = path.length - 1;
    this.p = p;
    this.order = order;
    this.front = path[0]!;
    this.back = path[n]!;
    this.labels = path.map((q) => p.label[q]!);
    this.sym = comparePathReadings(this.labels, p.pathEdges) === 0;
    trees &&= n >= 2;
    this.inner = trees ? path.slice(1, n) : [];
    const rep = trees ? extensionRepresentatives(p, order, this.inner) : null;
    this.rep = rep;
    this.scan = trees ? [this.front, this.back, ...this.inner.filter((u) => rep![u] === 1)] : [this.front, this.back];
  }

  /** Whether extending node u by edge label e to a node labelled x (-1: not incident) is canonical. */
  ok(u: number, e: number, x: number): boolean {
    if (x < 0) return false;
    const p = this.p;
    // path legs: the extended reading must stay the canonical one
    if (u === this.back) return comparePathReadings([...this.labels, x], [...p.pathEdges, e]) <= 0;
    if (u === this.front) return !this.sym && comparePathReadings([x, ...this.labels], [e, ...p.pathEdges]) >= 0;
    return this.rep![u] === 1 && treeExtensionOk(p, u, e, x, this.order);
  }

  /**
   * The legs (by ascending node, edge label) split into those at the back, those at the front
   * (each by ascending edge label) and the tree legs, in path order front to back, then by
   * edge label (hamster tmp2 lines 96–98).
   */
  split<L extends { node: number; edge: number }>(legs: readonly L[]): { back: L[]; front: L[]; tree: L[] } {
    const back = legs.filter((l) => l.node === this.back);
    const front = legs.filter((l) => l.node === this.front);
    const tree = legs.filter((l) => l.node !== this.front && l.node !== this.back);
    const pos = new Map(this.inner.map((q, i) => [q, i]));
    tree.sort((a, b) => pos.get(a.node)! - pos.get(b.node)! || a.edge - b.edge);
    return { back, front, tree };
  }
}
