/**
 * LAST-PM's ground-feature search and the merging of weighted walks along it (docs/miners.md
 * "Ground features", "Merging"; liblast's path.cpp / patterntree.cpp).
 *
 * The enumeration is Gaston's path / free-tree depth-first search in the same visit order as
 * the BBRC miner (the canonicity rules are imported from ../pattern.ts, the embeddings and
 * the leg counting shared with it from ../legs.ts): chi-square as fminer computes it, the
 * automatic threshold by number of classes, static upper-bound pruning (`u ≥ sig`), patterns
 * with support 1 not refined. Every visited pattern becomes a walk
 * (./walk.ts); each recursion level merges the significant walks of its children and the walks its
 * children's subtrees return into one accumulator ("sibling") and flushes it when the
 * activating class changes, a child is not significant or it holds more than `maxHops`
 * ground features.
 */

import { SearchMeter, type SearchBudget } from "../budget.ts";
import type { Database } from "../database.ts";
import { LegCounter, grown, level, type Level } from "../legs.ts";
import { Pattern, DEFAULT_TREE_ORDER } from "../pattern.ts";
import { fminerChisq, fminerUpperBound, fminerKuiper, defaultChisqThreshold } from "../stats.ts";
import { Walk } from "./walk.ts";
import { mergeWalk } from "./stack.ts";
import { svdFilter } from "./svd.ts";

export interface LastSearchOptions extends SearchBudget {
  /** Absolute minimum support (default 2). */
  minfreq?: number;
  /** Stop merging into an accumulator holding more than this many ground features (default 25). */
  maxHops?: number;
  /** Regression (Kuiper test; nothing is pruned). */
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
  /** Embedding buffers and leg counting (../legs.ts, shared with ../bbrc.ts). */
  private readonly legs: LegCounter;
  /** Visit limit and progress (../budget.ts). */
  private readonly meter: SearchMeter;
  // Scratch buffers of descendAll, reused across calls (no per-embedding allocations).
  private legSlot = new Int32Array(0);
  private xLeg = new Int32Array(1024);
  private xRow = new Int32Array(1024);
  private xAtom = new Int32Array(1024);

  constructor(db: Database, activities: readonly number[], options: LastSearchOptions = {}) {
    this.db = db;
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
    this.legs = new LegCounter(db, this.pattern, this.minfreq, this.tidClass, this.nClasses);
    this.meter = new SearchMeter(options);
  }

  mineAll(): Walk[] {
    const m = this.meter;
    m.openRoots(this.db, this.minfreq);
    for (let r = 0; r < this.db.nodeLabels.length; r++) {
      m.next(m.rootWeight(this.db, this.minfreq, r));
      this.mineRoot(r);
    }
    m.close();
    m.done(this.results.length);
    return this.results;
  }

  mineRoot(r: number): void {
    const root = this.legs.root(r);
    if (root === null) return;
    const p = this.pattern;
    let sibling = new Walk();
    // (one node: the legs come by ascending edge label)
    const legs = this.countedLegs(root);
    this.meter.openLegs(legs);
    for (const leg of legs) {
      this.meter.next(leg.support);
      sibling = this.step(root, leg, sibling, 1, (child) => {
        p.path = [0, 1];
        p.pathEdges = [leg.edge];
        return this.visitPath(child);
      });
    }
    this.meter.close();
    // liblast deletes the root-level accumulator without printing it.
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

  /** The class value with the largest positive deviation f_c − E_c. */
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

  // ---- candidate extensions (counted by ../legs.ts, as for ../bbrc.ts) -----------------------

  /**
   * The legs the last count of ../legs.ts found at level lv (by ascending node, edge label),
   * scored, with the embeddings of the ones that will be refined (descendAll).
   */
  private countedLegs(lv: Level): Leg[] {
    const c = this.legs;
    const legs: Leg[] = [];
    for (let i = 0; i < c.legNode.length; i++) {
      const tids = c.legTids[i]!;
      const leg: Leg = { node: c.legNode[i]!, edge: c.legEdge[i]!, label: c.legLabel[i]!, support: tids.length, counts: c.legCounts[i]!, tids, score: 0, ub: 0, activating: -1, child: null };
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
    const c = this.legs;
    let rows = lv.rows;
    if (rows === null) {
      rows = c.rowBuffer(k, m);
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
    const adjRing = c.adjRing;
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
            xLeg = this.xLeg = grown(xLeg);
            xRow = this.xRow = grown(xRow);
            xAtom = this.xAtom = grown(xAtom);
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
    c.ensurePools(k1);
    let outP = c.prPool[k1]!;
    let outW = c.wPool[k1]!;
    let outT = c.tidPool[k1]!;
    if (outP.length < nx) {
      const size = Math.max(nx, outP.length * 2);
      outP = c.prPool[k1] = new Int32Array(size);
      outW = c.wPool[k1] = new Int32Array(size);
      outT = c.tidPool[k1] = new Int32Array(size);
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
      refined[i]!.child = level(k1, null, outT.subarray(s0, s1), s1 - s0, lv, outP.subarray(s0, s1), outW.subarray(s0, s1));
    }
  }

  // ---- walks -------------------------------------------------------------------------------

  /** The walk of the current pattern: nodes in insertion order, one label each. */
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

  /** Output a walk: SVD edge filter when it merges several ground features, then print. */
  private flush(w: Walk): void {
    if (w.hops > 1) svdFilter(w);
    if (w.hops > 0) {
      this.results.push(w);
      if (this.trace) this.trace({ kind: "flush", depth: this.depth, walk: w });
    }
  }

  /**
   * One child leg of the pattern on the stack (parent size `core`): the body of liblast's loop
   * over a pattern's extensions (docs/miners.md "Merging").
   * Returns the (possibly new) sibling accumulator.
   */
  private step(lv: Level, leg: Leg, sibling: Walk, core: number, recurse: (child: Level) => Walk): Walk {
    const p = this.pattern;
    this.meter.visit(this.results.length);
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

  private visitPath(lv: Level): Walk {
    const p = this.pattern;
    // One scan of the embeddings collects the path legs (at the ends) and the tree legs (at the
    // inner nodes that are automorphism representatives; ../legs.ts PathPlan, as in ../bbrc.ts).
    const plan = this.legs.path(lv, true, DEFAULT_TREE_ORDER);
    const { back: backLegs, front: frontLegs, tree: tlegs } = plan.split(this.countedLegs(lv));
    const core = p.size;
    let sibling = new Walk();
    const savedPath = p.path;
    const savedEdges = p.pathEdges;
    const m = this.meter;
    m.openLegs([...backLegs, ...frontLegs, ...tlegs]);
    for (const leg of backLegs) {
      m.next(leg.support);
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
      m.next(leg.support);
      sibling = this.step(lv, leg, sibling, core, (child) => {
        p.path = [p.size - 1, ...savedPath];
        p.pathEdges = [leg.edge, ...savedEdges];
        const w = this.visitPath(child);
        p.path = savedPath;
        p.pathEdges = savedEdges;
        return w;
      });
    }
    // tree legs in path order, front to back
    for (const leg of tlegs) {
      m.next(leg.support);
      sibling = this.step(lv, leg, sibling, core, (child) => this.visitTree(child));
    }
    m.close();
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
    // are scanned (pattern.ts TreePlan via ../legs.ts, as in ../bbrc.ts).
    this.legs.tree(lv, DEFAULT_TREE_ORDER);
    const legs = this.countedLegs(lv);
    // liblast iterates tree legs forwards (libbbrc: backwards): nodes ascending, a node's
    // legs by ascending edge label, except at nodes whose new neighbour would be as deep as
    // the backbone ends, whose legs come by descending edge label. Inferred from the golden
    // file (hamster fminer1: with this order every flush point of the 82 graphs is reproduced).
    const deep = this.deepNodes();
    legs.sort((a, b) => a.node - b.node || (deep[a.node] ? b.edge - a.edge : a.edge - b.edge));
    const core = p.size;
    let sibling = new Walk();
    this.meter.openLegs(legs);
    for (const leg of legs) {
      this.meter.next(leg.support);
      sibling = this.step(lv, leg, sibling, core, (child) => this.visitTree(child));
    }
    this.meter.close();
    return sibling;
  }
}

/**
 * liblast's "median" (its stats.h computeMedian): the value at which the running sum
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

