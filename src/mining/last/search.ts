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

import type { Database } from "../database.ts";
import { Pattern, comparePathReadings, treeExtensionOk, extensionRepresentatives, DEFAULT_TREE_ORDER } from "../pattern.ts";
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
}

interface Level {
  k: number;
  rows: Int32Array;
  tids: Int32Array;
  m: number;
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
    const root: Level = { k: 1, rows: Int32Array.from(nl.atoms), tids: Int32Array.from(nl.atoms, (a) => db.atomTid[a]!), m: nl.atoms.length };
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

  private collectLegs(lv: Level, nodes: readonly number[], ok: (u: number, e: number) => boolean): Leg[] {
    const db = this.db;
    const nE = db.edgeLabels.length;
    const k = lv.k;
    const mask = new Uint8Array(k * nE);
    for (const u of nodes) mask.fill(1, u * nE, (u + 1) * nE);
    const lastTid = new Int32Array(k * nE).fill(-1);
    const support = new Int32Array(k * nE);
    const tidLists = new Map<number, number[]>();
    const { rows, tids, m } = lv;
    const adjStart = db.adjStart;
    const adjTo = db.adjTo;
    const adjEdge = db.adjEdge;
    for (let r = 0; r < m; r++) {
      const base = r * k;
      const t = tids[r]!;
      for (const u of nodes) {
        const a = rows[base + u]!;
        for (let j = adjStart[a]!, je = adjStart[a + 1]!; j < je; j++) {
          const key = u * nE + adjEdge[j]!;
          if (mask[key] === 0 || lastTid[key] === t) continue;
          const w = adjTo[j]!;
          let used = false;
          for (let q = base, qe = base + k; q < qe; q++)
            if (rows[q] === w) {
              used = true;
              break;
            }
          if (used) continue;
          lastTid[key] = t;
          support[key]!++;
          let l = tidLists.get(key);
          if (l === undefined) tidLists.set(key, (l = []));
          l.push(t);
        }
      }
    }
    const legs: Leg[] = [];
    for (const [key, l] of tidLists) {
      if (support[key]! < this.minfreq) continue;
      const u = Math.floor(key / nE);
      const e = key - u * nE;
      if (!ok(u, e)) continue;
      const el = db.edgeLabels[e]!;
      const ul = this.pattern.label[u]!;
      const counts = new Int32Array(this.nClasses);
      for (const t of l) counts[this.tidClass[t]!]!++;
      const leg: Leg = { node: u, edge: e, label: el.from === ul ? el.to : el.from, support: support[key]!, counts, tids: Int32Array.from(l), score: 0, ub: 0, activating: -1 };
      this.score(leg);
      legs.push(leg);
    }
    return legs;
  }

  private descend(lv: Level, leg: Leg): Level {
    const db = this.db;
    const k = lv.k;
    const k1 = k + 1;
    const { rows, tids, m } = lv;
    let out = new Int32Array(Math.max(16, m * k1));
    let outT = new Int32Array(Math.max(16, m));
    let n = 0;
    const u = leg.node;
    const e = leg.edge;
    for (let r = 0; r < m; r++) {
      const base = r * k;
      const a = rows[base + u]!;
      for (let j = db.adjStart[a]!, je = db.adjStart[a + 1]!; j < je; j++) {
        if (db.adjEdge[j] !== e) continue;
        const w = db.adjTo[j]!;
        let used = false;
        for (let q = base, qe = base + k; q < qe; q++)
          if (rows[q] === w) {
            used = true;
            break;
          }
        if (used) continue;
        if ((n + 1) * k1 > out.length) {
          const b = new Int32Array(out.length * 2);
          b.set(out);
          out = b;
          const bt = new Int32Array(outT.length * 2);
          bt.set(outT);
          outT = bt;
        }
        out.set(rows.subarray(base, base + k), n * k1);
        out[n * k1 + k] = w;
        outT[n] = tids[r]!;
        n++;
      }
    }
    return { k: k1, rows: out, tids: outT, m: n };
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
      const child = this.descend(lv, leg);
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
    const legs = this.collectLegs(lv, [front, back], (u, e) => (u === back ? okBack(e) : okFront(e)));
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
    if (n >= 2) {
      const inner = path.slice(1, n);
      const rep = extensionRepresentatives(p, DEFAULT_TREE_ORDER);
      const tlegs = this.collectLegs(lv, inner, (u, e) => rep[u] === 1 && this.otherOf(u, e) >= 0 && treeExtensionOk(p, u, e, this.otherOf(u, e), DEFAULT_TREE_ORDER));
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
    const nodes: number[] = [];
    for (let i = 0; i < p.size; i++) nodes.push(i);
    const rep = extensionRepresentatives(p, DEFAULT_TREE_ORDER);
    const legs = this.collectLegs(lv, nodes, (u, e) => rep[u] === 1 && this.otherOf(u, e) >= 0 && treeExtensionOk(p, u, e, this.otherOf(u, e), DEFAULT_TREE_ORDER));
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
