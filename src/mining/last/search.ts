/**
 * LAST-PM's ground-feature search and the merging of weighted walks along it (spec miners.md
 * §5.2–§5.4; liblast's path.cpp / patterntree.cpp).
 *
 * The enumeration is Gaston's path / free-tree depth-first search in the same visit order as
 * the BBRC miner (the canonicity rules are imported from ../pattern.ts): chi-square as fminer
 * computes it, the automatic threshold by number of classes, static upper-bound pruning
 * (`u ≥ sig`), patterns with support 1 not refined. Every visited pattern becomes a walk
 * (§5.3); each recursion level merges the significant walks of its children and the walks its
 * children's subtrees return into one accumulator ("sibling") and flushes it when the
 * activating class changes, a child is not significant or it holds more than `maxHops`
 * ground features (§5.4).
 */

import { ringBonds, type Database } from "../database.ts";
import { Pattern, TreePlan, comparePathReadings, treeExtensionOk, extensionRepresentatives, DEFAULT_TREE_ORDER } from "../pattern.ts";
import { fminerChisq, fminerUpperBound, fminerKuiper, defaultChisqThreshold } from "../stats.ts";
import { Walk } from "./walk.ts";
import { mergeWalk } from "./stack.ts";
import { svdFilter } from "./svd.ts";

export interface LastSearchOptions {
  /** Absolute minimum support (default 2). */
  minfreq?: number;
  /** Stop merging into an accumulator holding more than this many ground features (default 25). */
  maxHops?: number;
  /** Regression (Kuiper test, §5.2). */
  regression?: boolean;
}

interface Leg {
  node: number;
  edge: number;
  label: number;
  support: number;
  counts: Int32Array;
  tids: Int32Array;
  score: number;
  ub: number;
  activating: number;
  /** Embeddings of pattern + leg when the leg is refined (set by descendAll). */
  child: Level | null;
}

/**
 * The embeddings of a pattern of size k (as in ../bbrc.ts): flat rows of mapped atoms with
 * their tids, in tid order, in buffers reused by every pattern of that size (the search is
 * depth first). A child level is first given as base rows + new atoms and only copied out
 * when the search descends from it.
 */
interface Level {
  k: number;
  /** m * k mapped atoms, or null while the level is only given as base rows + new atoms. */
  rows: Int32Array | null;
  tids: Int32Array;
  m: number;
  /** Unmaterialised level: embedding i = base row pr[i] extended by atom w[i]. */
  base: Level | null;
  pr: Int32Array | null;
  w: Int32Array | null;
  /**
   * After the legs of this level were counted: per node, 1 = scanned without any frequent
   * key, 2 = scanned with some (0 = not scanned). A child's extension at an old node is an
   * extension of a parent embedding, so nodes marked 1 need not be scanned in any child.
   */
  scanned?: Uint8Array;
}

/** One step of the search, for diagnostics (`trace`). */
export interface TraceEvent {
  kind: "visit" | "flush" | "drop";
  depth: number;
  walk: Walk;
  significant?: boolean;
  /** Leg of the visited pattern: node, edge label number, support. */
  leg?: [number, number, number];
}

export class LastSearch {
  private readonly db: Database;
  private readonly minfreq: number;
  private readonly maxHops: number;
  private readonly regression: boolean;
  private readonly nClasses: number;
  private readonly classValues: number[];
  private readonly tidClass: Int32Array;
  private readonly classSizes: Float64Array;
  private readonly N: number;
  private readonly sig: number;
  private readonly acts: Float64Array;
  private readonly sortedActs: Float64Array;
  private readonly allMedian: number;
  private readonly pattern = new Pattern();
  private depth = 0;
  /** Flushed walks in output order. */
  readonly results: Walk[] = [];
  /** Patterns visited. */
  visited = 0;
  trace: ((e: TraceEvent) => void) | null = null;
  // Scratch buffers reused across calls (no per-embedding allocations; as in ../bbrc.ts).
  private lastTid = new Int32Array(0);
  private support = new Int32Array(0);
  private slot = new Int32Array(0);
  private nodeBuf = new Int32Array(16);
  private nbStart = new Int32Array(16);
  private nbNode = new Int32Array(64);
  private pairKey = new Int32Array(1024);
  private pairTid = new Int32Array(1024);
  private readonly stamp: Int32Array;
  /** Per adjacency entry: 1 if the bond lies on a cycle (else it is a bridge). */
  private readonly adjRing: Uint8Array;
  private stampId = 0;
  private readonly rowPool: Int32Array[] = [];
  private readonly tidPool: Int32Array[] = [];
  private readonly prPool: Int32Array[] = [];
  private readonly wPool: Int32Array[] = [];
  private legSlot = new Int32Array(0);
  private xLeg = new Int32Array(1024);
  private xRow = new Int32Array(1024);
  private xAtom = new Int32Array(1024);

  constructor(db: Database, activities: readonly number[], options: LastSearchOptions = {}) {
    this.db = db;
    this.stamp = new Int32Array(db.atomTid.length);
    this.adjRing = ringBonds(db);
    this.minfreq = options.minfreq ?? 2;
    this.maxHops = options.maxHops ?? 25;
    this.regression = options.regression ?? false;
    this.N = db.nTrees;
    this.acts = Float64Array.from(activities);
    this.sortedActs = Float64Array.from(activities).sort();
    this.allMedian = runningMedian(this.sortedActs);
    if (this.regression) {
      this.nClasses = 1;
      this.classValues = [];
      this.tidClass = new Int32Array(db.nTrees);
      this.classSizes = Float64Array.of(db.nTrees);
      this.sig = 0.95;
    } else {
      const values = [...new Set(activities)].sort((a, b) => a - b);
      if (values.length > 5) throw new Error("Too many classes");
      if (values.length < 2) throw new Error("LAST-PM needs at least two classes");
      this.nClasses = values.length;
      this.classValues = values;
      this.tidClass = Int32Array.from(activities, (a) => values.indexOf(a));
      this.classSizes = new Float64Array(values.length);
      for (const c of this.tidClass) this.classSizes[c]!++;
      this.sig = defaultChisqThreshold(values.length);
    }
  }

  mineAll(): Walk[] {
    for (let r = 0; r < this.db.nodeLabels.length; r++) this.mineRoot(r);
    return this.results;
  }

  mineRoot(r: number): void {
    const db = this.db;
    const nl = db.nodeLabels[r]!;
    if (nl.frequency < this.minfreq || nl.frequentEdges.length === 0) return;
    const p = this.pattern;
    p.addNode(r, -1, -1);
    p.path = [0];
    p.pathEdges = [];
    const root: Level = { k: 1, rows: Int32Array.from(nl.atoms), tids: Int32Array.from(nl.atoms, (a) => db.atomTid[a]!), m: nl.atoms.length, base: null, pr: null, w: null };
    const allowed = new Uint8Array(db.edgeLabels.length);
    for (const e of nl.frequentEdges) {
      const el = db.edgeLabels[e]!;
      const other = el.from === r ? el.to : el.from;
      if (other >= r) allowed[e] = 1;
    }
    const legs = this.collectLegs(root, [0], (_u, e) => allowed[e] === 1);
    legs.sort((a, b) => a.edge - b.edge);
    let sibling = new Walk();
    for (const leg of legs) {
      sibling = this.step(root, leg, sibling, 1, (child) => {
        p.path = [0, 1];
        p.pathEdges = [leg.edge];
        return this.visitPath(child);
      });
    }
    // liblast deletes the root-level accumulator without printing it (§5.4).
    if (this.trace && sibling.hops > 0) this.trace({ kind: "drop", depth: 0, walk: sibling });
    p.removeLast();
  }

  // ---- statistics ------------------------------------------------------------------------

  private score(leg: Leg): void {
    if (this.regression) {
      const sub = new Float64Array(leg.tids.length);
      for (let i = 0; i < sub.length; i++) sub[i] = this.acts[leg.tids[i]!]!;
      leg.score = fminerKuiper(this.sortedActs, sub);
      leg.ub = 0;
      sub.sort();
      leg.activating = runningMedian(sub) > this.allMedian ? 1 : 0;
    } else {
      leg.score = fminerChisq(leg.counts, this.classSizes, this.N);
      leg.ub = fminerUpperBound(leg.counts, this.classSizes, this.N);
      leg.activating = this.activatingClass(leg.counts);
    }
  }

  /** The class value with the largest positive deviation f_c − E_c (§5.2). */
  private activatingClass(f: Int32Array): number {
    let F = 0;
    for (let c = 0; c < f.length; c++) F += f[c]!;
    const share = Math.fround(F / this.N);
    let best = -1;
    let bestDev = 0;
    for (let c = 0; c < f.length; c++) {
      const dev = f[c]! - Math.fround(this.classSizes[c]! * share);
      if (dev > bestDev) {
        bestDev = dev;
        best = c;
      }
    }
    return best < 0 ? -1 : this.classValues[best]!;
  }

  private significant(leg: Leg): boolean {
    return leg.score >= this.sig;
  }

  /** Refine the pattern + leg? Static upper bound (not in regression) and support > 1. */
  private refines(leg: Leg): boolean {
    return (this.regression || leg.ub >= this.sig) && leg.support > 1;
  }

  // ---- candidate extensions (as in ../bbrc.ts) --------------------------------------------

  /**
   * Scan all embeddings and count, for each (pattern node u, edge label e) accepted by `ok`,
   * the molecules in which the pattern extends by an edge e at u to a data atom outside the
   * embedding (non-induced, injective). As ../bbrc.ts: last-tid markers, (key, tid) pairs in
   * flat reused buffers, bridge / ring-bond membership tests, nodes known from the parent
   * level to have no frequent key skipped. One call per level (the marks are per level).
   */
  private collectLegs(lv: Level, nodes: readonly number[], ok: (u: number, e: number) => boolean): Leg[] {
    const db = this.db;
    const nE = db.edgeLabels.length;
    const k = lv.k;
    const nk = k * nE;
    if (this.lastTid.length < nk) {
      this.lastTid = new Int32Array(nk * 2).fill(-1);
      this.support = new Int32Array(nk * 2);
      this.slot = new Int32Array(nk * 2).fill(-1);
    }
    const lastTid = this.lastTid;
    const support = this.support;
    const inherited = lv.base?.scanned;
    if (inherited !== undefined) nodes = nodes.filter((u) => u >= inherited.length || inherited[u] !== 1);
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
    if (this.stampId > 0x3fffffff) {
      stamp.fill(0);
      this.stampId = 0;
    }
    let stampId = this.stampId;
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
            const a2 = new Int32Array(np * 2);
            a2.set(pairKey);
            pairKey = this.pairKey = a2;
            const b2 = new Int32Array(np * 2);
            b2.set(pairTid);
            pairTid = this.pairTid = b2;
          }
          pairKey[np] = key;
          pairTid[np++] = t;
        }
      }
    }
    this.stampId = stampId;
    const legs: Leg[] = [];
    const minfreq = this.minfreq;
    const keys: number[] = [];
    for (let i = 0; i < np; i++) {
      const key = pairKey[i]!;
      if (lastTid[key] !== -1) {
        lastTid[key] = -1;
        if (support[key]! >= minfreq) keys.push(key);
        else support[key] = 0;
      }
    }
    const scanned = new Uint8Array(k);
    if (inherited !== undefined) for (let u = 0; u < inherited.length; u++) if (inherited[u] === 1) scanned[u] = 1;
    for (let i = 0; i < nn; i++) scanned[nodeArr[i]!] = 1;
    for (let i = 0; i < keys.length; i++) scanned[Math.floor(keys[i]! / nE)] = 2;
    lv.scanned = scanned;
    if (keys.length === 0) return legs;
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
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const u = Math.floor(key / nE);
      const e = key - u * nE;
      if (!ok(u, e)) continue;
      const el = db.edgeLabels[e]!;
      const ul = this.pattern.label[u]!;
      const l = lists[i]!;
      const counts = new Int32Array(this.nClasses);
      for (let q = 0; q < l.length; q++) counts[this.tidClass[l[q]!]!]!++;
      const leg: Leg = { node: u, edge: e, label: el.from === ul ? el.to : el.from, support: l.length, counts, tids: l, score: 0, ub: 0, activating: -1, child: null };
      this.score(leg);
      legs.push(leg);
    }
    this.descendAll(lv, legs);
    return legs;
  }

  /**
   * The embeddings of pattern + leg for every leg that will be refined, in one pass over the
   * level's rows (instead of one pass per leg: the rows of a large level do not fit in the
   * cache). Every valid extension (u, e, w) of a row belongs to the leg with key (u, e), so no
   * tid filter is needed. The extensions are appended as (leg, row, atom) and then bucketed by
   * leg into the buffers of size k + 1, which hold all children of the level at once (the
   * search is depth first: a level's children are explored one after another). Children are
   * returned unmaterialised.
   */
  private descendAll(lv: Level, legs: Leg[]): void {
    const db = this.db;
    const nE = db.edgeLabels.length;
    const k = lv.k;
    const k1 = k + 1;
    let nl = 0;
    for (let i = 0; i < legs.length; i++) if (this.refines(legs[i]!)) nl++;
    if (nl === 0) return;
    const { tids, m } = lv;
    // An unmaterialised level is copied out row by row in the same pass (the row is then read
    // from the cache by the extension checks).
    const virt = lv.rows === null;
    const brows = virt ? lv.base!.rows! : lv.rows!;
    const bk = k - 1;
    const pr = virt ? lv.pr! : brows;
    const wv = virt ? lv.w! : brows;
    let rows = lv.rows;
    if (rows === null) {
      rows = this.rowPool[k]!;
      if (rows.length < m * k) rows = this.rowPool[k] = new Int32Array(Math.max(m * k, rows.length * 2));
      lv.rows = rows;
    }
    if (this.legSlot.length < k * nE) this.legSlot = new Int32Array(k * nE * 2).fill(-1);
    const legSlot = this.legSlot;
    const refined: Leg[] = [];
    const nodeMark = new Uint8Array(k);
    for (let i = 0; i < legs.length; i++) {
      const leg = legs[i]!;
      if (!this.refines(leg)) continue;
      legSlot[leg.node * nE + leg.edge] = refined.length;
      refined.push(leg);
      nodeMark[leg.node] = 1;
    }
    const nodes: number[] = [];
    for (let u = 0; u < k; u++) if (nodeMark[u] === 1) nodes.push(u);
    const nn = nodes.length;
    const pat = this.pattern;
    const nbStart = new Int32Array(nn + 1);
    let nbCount = 0;
    for (let i = 0; i < nn; i++) nbCount += pat.adj[nodes[i]!]!.length;
    const nbNode = new Int32Array(nbCount);
    nbCount = 0;
    for (let i = 0; i < nn; i++) {
      nbStart[i] = nbCount;
      const adjU = pat.adj[nodes[i]!]!;
      for (let z = 0; z < adjU.length; z++) nbNode[nbCount++] = adjU[z]!;
    }
    nbStart[nn] = nbCount;
    const nodeArr = Int32Array.from(nodes);
    const adjStart = db.adjStart;
    const adjTo = db.adjTo;
    const adjEdge = db.adjEdge;
    const adjRing = this.adjRing;
    let xLeg = this.xLeg;
    let xRow = this.xRow;
    let xAtom = this.xAtom;
    let nx = 0;
    const counts = new Int32Array(nl + 1);
    for (let r = 0; r < m; r++) {
      const base = r * k;
      if (virt) {
        const pb = pr[r]! * bk;
        for (let q = 0; q < bk; q++) rows[base + q] = brows[pb + q]!;
        rows[base + bk] = wv[r]!;
      }
      for (let i = 0; i < nn; i++) {
        const u = nodeArr[i]!;
        const a = rows[base + u]!;
        const kb = u * nE;
        for (let j = adjStart[a]!, je = adjStart[a + 1]!; j < je; j++) {
          const li = legSlot[kb + adjEdge[j]!]!;
          if (li < 0) continue;
          const w = adjTo[j]!;
          let used = false;
          if (adjRing[j] !== 0) {
            // across a ring bond any node's image may be w (the row is in the cache)
            for (let q = base, qe = base + k; q < qe; q++)
              if (rows[q] === w) {
                used = true;
                break;
              }
          } else {
            // across a bridge only the image of a pattern neighbour of u can be w
            for (let z = nbStart[i]!, ze = nbStart[i + 1]!; z < ze; z++)
              if (rows[base + nbNode[z]!] === w) {
                used = true;
                break;
              }
          }
          if (used) continue;
          if (nx === xLeg.length) {
            const a2 = new Int32Array(nx * 2);
            a2.set(xLeg);
            xLeg = this.xLeg = a2;
            const b2 = new Int32Array(nx * 2);
            b2.set(xRow);
            xRow = this.xRow = b2;
            const c2 = new Int32Array(nx * 2);
            c2.set(xAtom);
            xAtom = this.xAtom = c2;
          }
          xLeg[nx] = li;
          xRow[nx] = r;
          xAtom[nx++] = w;
          counts[li + 1]!++;
        }
      }
    }
    for (let i = 0; i < refined.length; i++) {
      const leg = refined[i]!;
      legSlot[leg.node * nE + leg.edge] = -1;
    }
    // Bucket by leg (stable: rows stay in tid order within a leg).
    for (let i = 0; i < nl; i++) counts[i + 1]! += counts[i]!;
    while (this.prPool.length <= k1) {
      this.prPool.push(new Int32Array(256));
      this.wPool.push(new Int32Array(256));
      this.tidPool.push(new Int32Array(256));
      this.rowPool.push(new Int32Array(1024));
    }
    let outP = this.prPool[k1]!;
    let outW = this.wPool[k1]!;
    let outT = this.tidPool[k1]!;
    if (outP.length < nx) {
      const size = Math.max(nx, outP.length * 2);
      outP = this.prPool[k1] = new Int32Array(size);
      outW = this.wPool[k1] = new Int32Array(size);
      outT = this.tidPool[k1] = new Int32Array(size);
    }
    const pos = counts.slice(0, nl);
    for (let x = 0; x < nx; x++) {
      const p = pos[xLeg[x]!]!++;
      const r = xRow[x]!;
      outP[p] = r;
      outW[p] = xAtom[x]!;
      outT[p] = tids[r]!;
    }
    for (let i = 0; i < nl; i++) {
      const s0 = counts[i]!;
      const s1 = counts[i + 1]!;
      refined[i]!.child = { k: k1, rows: null, tids: outT.subarray(s0, s1), m: s1 - s0, base: lv, pr: outP.subarray(s0, s1), w: outW.subarray(s0, s1) };
    }
  }

  // ---- walks -------------------------------------------------------------------------------

  /** The walk of the current pattern (§5.3): nodes in insertion order, one label each. */
  private walkOfPattern(activating: number): Walk {
    const p = this.pattern;
    const db = this.db;
    const w = new Walk();
    for (let i = 0; i < p.size; i++) w.nodes.set(i, [db.nodeLabels[p.label[i]!]!.input]);
    for (let i = 1; i < p.size; i++) w.setEdge(p.parent[i]!, i, { labels: [db.edgeLabels[p.edgeIn[i]!]!.bond], weight: 1, deleted: false });
    w.hops = 1;
    w.activating = activating;
    return w;
  }

  /** Output a walk: SVD edge filter when it merges several ground features, then print (§5.4). */
  private flush(w: Walk): void {
    if (w.hops > 1) svdFilter(w);
    if (w.hops > 0) {
      this.results.push(w);
      if (this.trace) this.trace({ kind: "flush", depth: this.depth, walk: w });
    }
  }

  /**
   * One child leg of the pattern on the stack (parent size `core`): the §5.4 loop body.
   * Returns the (possibly new) sibling accumulator.
   */
  private step(lv: Level, leg: Leg, sibling: Walk, core: number, recurse: (child: Level) => Walk): Walk {
    const p = this.pattern;
    p.addNode(leg.label, leg.node, leg.edge);
    this.visited++;
    const g = this.walkOfPattern(leg.activating);
    const significant = this.significant(leg);
    if (this.trace) this.trace({ kind: "visit", depth: this.depth, walk: g, significant, leg: [leg.node, leg.edge, leg.support] });
    if (!significant || g.activating !== sibling.activating || sibling.hops > this.maxHops) {
      this.flush(sibling);
      sibling = new Walk();
    }
    if (significant && (g.activating === sibling.activating || sibling.edgeCount === 0)) mergeWalk(g, sibling, core);
    let topdown: Walk | null = null;
    if (this.refines(leg)) {
      const child = leg.child!;
      this.depth++;
      topdown = recurse(child);
      this.depth--;
    }
    p.removeLast();
    if (topdown !== null && topdown.edgeCount > 0) {
      if (!significant || sibling.activating !== topdown.activating) this.flush(topdown);
      else mergeWalk(topdown, sibling, core);
    }
    return sibling;
  }

  private otherOf(u: number, e: number): number {
    const el = this.db.edgeLabels[e]!;
    const ul = this.pattern.label[u]!;
    if (el.from !== ul && el.to !== ul) return -1;
    return el.from === ul ? el.to : el.from;
  }

  private visitPath(lv: Level): Walk {
    const p = this.pattern;
    const path = p.path;
    const n = path.length - 1;
    const front = path[0]!;
    const back = path[n]!;
    const labels = path.map((q) => p.label[q]!);
    const sym = comparePathReadings(labels, p.pathEdges) === 0;
    const okBack = (e: number): boolean => {
      const x = this.otherOf(back, e);
      if (x < 0) return false;
      return comparePathReadings([...labels, x], [...p.pathEdges, e]) <= 0;
    };
    const okFront = (e: number): boolean => {
      if (sym) return false;
      const x = this.otherOf(front, e);
      if (x < 0) return false;
      return comparePathReadings([x, ...labels], [e, ...p.pathEdges]) >= 0;
    };
    // One scan of the embeddings collects the path legs (at the ends) and the tree legs (at the
    // inner nodes that are automorphism representatives), as in ../bbrc.ts.
    const trees = n >= 2;
    const inner = trees ? path.slice(1, n) : [];
    const rep = trees ? extensionRepresentatives(p, DEFAULT_TREE_ORDER, inner) : null;
    const scan = trees ? [front, back, ...inner.filter((u) => rep![u] === 1)] : [front, back];
    const allLegs = this.collectLegs(lv, scan, (u, e) => {
      if (u === back) return okBack(e);
      if (u === front) return okFront(e);
      const x = this.otherOf(u, e);
      return x >= 0 && rep![u] === 1 && treeExtensionOk(p, u, e, x, DEFAULT_TREE_ORDER);
    });
    const legs = allLegs.filter((l) => l.node === front || l.node === back);
    const tlegs = allLegs.filter((l) => l.node !== front && l.node !== back);
    const backLegs = legs.filter((l) => l.node === back).sort((a, b) => a.edge - b.edge);
    const frontLegs = legs.filter((l) => l.node === front).sort((a, b) => a.edge - b.edge);
    const core = p.size;
    let sibling = new Walk();
    const savedPath = p.path;
    const savedEdges = p.pathEdges;
    for (const leg of backLegs) {
      sibling = this.step(lv, leg, sibling, core, (child) => {
        p.path = [...savedPath, p.size - 1];
        p.pathEdges = [...savedEdges, leg.edge];
        const w = this.visitPath(child);
        p.path = savedPath;
        p.pathEdges = savedEdges;
        return w;
      });
    }
    for (const leg of frontLegs) {
      sibling = this.step(lv, leg, sibling, core, (child) => {
        p.path = [p.size - 1, ...savedPath];
        p.pathEdges = [leg.edge, ...savedEdges];
        const w = this.visitPath(child);
        p.path = savedPath;
        p.pathEdges = savedEdges;
        return w;
      });
    }
    if (trees) {
      const pos = new Map(inner.map((q, i) => [q, i]));
      tlegs.sort((a, b) => pos.get(a.node)! - pos.get(b.node)! || a.edge - b.edge);
      for (const leg of tlegs) sibling = this.step(lv, leg, sibling, core, (child) => this.visitTree(child));
    }
    return sibling;
  }

  /** Nodes whose new neighbours would lie as deep as the backbone ends (seen from its centre). */
  private deepNodes(): Uint8Array {
    const p = this.pattern;
    const path = p.path;
    const n = path.length - 1;
    const depth = new Int32Array(p.size).fill(-1);
    const queue: number[] = [];
    if (n % 2 === 0) queue.push(path[n / 2]!);
    else queue.push(path[(n - 1) / 2]!, path[(n + 1) / 2]!);
    for (const q of queue) depth[q] = 0;
    for (let i = 0; i < queue.length; i++) {
      const w = queue[i]!;
      for (const y of p.adj[w]!) if (depth[y]! < 0) {
        depth[y] = depth[w]! + 1;
        queue.push(y);
      }
    }
    const maxd = Math.floor(n / 2);
    return Uint8Array.from(depth, (d) => (d + 1 === maxd ? 1 : 0));
  }

  private visitTree(lv: Level): Walk {
    const p = this.pattern;
    // Only nodes that can receive a canonical extension and are automorphism representatives
    // are scanned (pattern.ts TreePlan, as in ../bbrc.ts).
    const plan = new TreePlan(p, DEFAULT_TREE_ORDER);
    const rep = plan.rep;
    const nodes = plan.candidates.filter((u) => rep[u] === 1);
    const legs = this.collectLegs(lv, nodes, (u, e) => {
      const x = this.otherOf(u, e);
      return x >= 0 && rep[u] === 1 && plan.mayExtend(u, e) && plan.extensionOk(u, e, x);
    });
    // liblast iterates tree legs forwards (libbbrc: backwards, §2.1): nodes ascending, a node's
    // legs by ascending edge label, except at nodes whose new neighbour would be as deep as
    // the backbone ends, whose legs come by descending edge label. Inferred from the golden
    // file (hamster fminer1: with this order every flush point of the 82 graphs is reproduced).
    const deep = this.deepNodes();
    legs.sort((a, b) => a.node - b.node || (deep[a.node] ? b.edge - a.edge : a.edge - b.edge));
    const core = p.size;
    let sibling = new Walk();
    for (const leg of legs) sibling = this.step(lv, leg, sibling, core, (child) => this.visitTree(child));
    return sibling;
  }
}

/**
 * liblast's "median" (spec §10.3, stats.h computeMedian): the value at which the running sum
 * of the ascending values first reaches half of the total sum.
 */
export function runningMedian(sorted: Float64Array): number {
  let total = 0;
  for (const v of sorted) total += v;
  let run = 0;
  for (const v of sorted) {
    run += v;
    if (run >= total / 2) return v;
  }
  return sorted.length ? sorted[sorted.length - 1]! : 0;
}

