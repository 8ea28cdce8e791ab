/**
 * BBRC: backbone refinement class representatives over a Gaston-style depth-first search of
 * paths and free trees (spec miners.md §2, §3, §4). Pure TypeScript, no I/O.
 *
 * Embeddings are stored per search level as flat Int32Array rows (one mapped atom per pattern
 * node) with their tid; support and per-class counts of every candidate extension ("leg") are
 * collected in one scan over the rows with last-tid markers (§10.2), and the rows of a child
 * pattern are only built when the search descends into it.
 */

import type { Database } from "./database.ts";
import { Pattern, comparePathReadings, treeExtensionOk, extensionRepresentatives, DEFAULT_TREE_ORDER, type TreeOrderOptions } from "./pattern.ts";
import { writeSmarts } from "./smarts.ts";
import { fminerChisq, fminerUpperBound, fminerKuiper, defaultChisqThreshold, chisqQuantile1 } from "./stats.ts";

export interface BbrcOptions {
  /** Absolute minimum support (default 2). */
  minfreq?: number;
  /** 1 = paths only, 2 = paths and trees (default). */
  type?: 1 | 2;
  /** BBRC representatives (default true); false = every significant frequent pattern. */
  backbone?: boolean;
  /** Dynamic upper bound (default true; only with backbone, pruning and chi-square). */
  dynamicUpperBound?: boolean;
  /** Statistical metric pruning (default true). */
  pruning?: boolean;
  /** User significance `p` (0..1): threshold = chi-square quantile(p, df = 1) (§3.3). */
  chisqSig?: number;
  refineSingles?: boolean;
  /** Regression (Kuiper test, §3.5). */
  regression?: boolean;
  /** Aromatic perception (affects only SMARTS writing here; the encoding is done before). */
  aromatic?: boolean;
  treeOrder?: TreeOrderOptions;
}

export interface MinedPattern {
  readonly smarts: string;
  /** chi-square (classification) or Kuiper p (regression), as fminer computes it. */
  readonly stat: number;
  /** tids containing the pattern, ascending. */
  readonly tids: Int32Array;
  /** Per class (ascending class value) the number of molecules containing the pattern. */
  readonly classCounts: readonly number[];
}

interface Leg {
  node: number; // pattern node the new node hangs off
  edge: number; // final edge label
  label: number; // new node label
  support: number;
  counts: Int32Array; // per class
  tids: Int32Array;
  score: number;
  ub: number;
  front: boolean; // path phase: extension at the front
}

interface Level {
  k: number; // pattern size
  rows: Int32Array; // m * k mapped atoms
  tids: Int32Array; // m
  m: number;
}

interface Best {
  score: number;
  text: MinedPattern | null;
}

export class BbrcMiner {
  private readonly db: Database;
  private readonly opt: Required<Omit<BbrcOptions, "chisqSig">> & { chisqSig: number | undefined };
  private readonly nClasses: number;
  private readonly tidClass: Int32Array;
  private readonly classSizes: Float64Array;
  private readonly N: number;
  private readonly sig: number;
  private readonly sortedActs: Float64Array;
  private readonly acts: Float64Array;
  private readonly pattern = new Pattern();
  private updated = false;
  readonly results: MinedPattern[] = [];
  /** Number of patterns visited (for diagnostics and benches). */
  visited = 0;

  constructor(db: Database, activities: readonly number[], options: BbrcOptions = {}) {
    this.db = db;
    const o = {
      minfreq: options.minfreq ?? 2,
      type: options.type ?? 2,
      backbone: options.backbone ?? true,
      dynamicUpperBound: options.dynamicUpperBound ?? true,
      pruning: options.pruning ?? true,
      chisqSig: options.chisqSig,
      refineSingles: options.refineSingles ?? false,
      regression: options.regression ?? false,
      aromatic: options.aromatic ?? true,
      treeOrder: options.treeOrder ?? DEFAULT_TREE_ORDER,
    };
    // Coupling rules (§4.4): no backbone or no pruning → no dynamic UB; regression → no pruning.
    if (o.regression) o.pruning = false;
    if (!o.backbone || !o.pruning) o.dynamicUpperBound = false;
    if (o.refineSingles) o.minfreq = 1;
    this.opt = o;
    this.N = db.nTrees;
    // Regression: activities are clipped to their [1.25 %, 98.75 %] quantiles (R type 7)
    // before mining (spec §3.5).
    if (o.regression) activities = clipToQuantiles(activities, 0.0125, 0.9875);
    this.acts = Float64Array.from(activities);
    this.sortedActs = Float64Array.from(activities).sort();
    if (o.regression) {
      this.nClasses = 1;
      this.tidClass = new Int32Array(db.nTrees);
      this.classSizes = Float64Array.of(db.nTrees);
      this.sig = o.chisqSig ?? 0.95;
    } else {
      const values = [...new Set(activities)].sort((a, b) => a - b);
      if (values.length > 5) throw new Error("Too many classes");
      this.nClasses = values.length;
      this.tidClass = Int32Array.from(activities, (a) => values.indexOf(a));
      this.classSizes = new Float64Array(values.length);
      for (const c of this.tidClass) this.classSizes[c]!++;
      this.sig = o.chisqSig === undefined ? defaultChisqThreshold(values.length) : chisqQuantile1(o.chisqSig);
    }
  }

  /** Mine every root label in label order (fminer's MineRoot loop). */
  mineAll(): MinedPattern[] {
    for (let r = 0; r < this.db.nodeLabels.length; r++) this.mineRoot(r);
    return this.results;
  }

  mineRoot(r: number): void {
    const db = this.db;
    const nl = db.nodeLabels[r]!;
    if (nl.frequency < this.opt.minfreq || nl.frequentEdges.length === 0) return;
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
    for (const leg of legs) {
      this.updated = true;
      const child = this.descend(root, leg);
      const text = this.line(leg);
      this.emitIfAll(leg, text);
      p.path = [0, 1];
      p.pathEdges = [leg.edge];
      // Regression: the root level does not compute the statistic, so a one-edge pattern never
      // is a representative (fminer4 has no one-edge SMARTS; its first lines S=P-O and O-P-O
      // both beat the unset root maximum although O-P-O has the same p as O-P).
      const rootBest: Best = this.opt.regression ? { score: 0, text: null } : { score: leg.score, text: leg.score >= this.sig ? text : null };
      this.visitPath(child, rootBest);
      p.removeLast();
    }
    p.removeLast();
  }

  // ---- statistics ------------------------------------------------------------------------

  private score(leg: Leg): void {
    if (this.opt.regression) {
      const sub = new Float64Array(leg.tids.length);
      for (let i = 0; i < sub.length; i++) sub[i] = this.acts[leg.tids[i]!]!;
      leg.score = fminerKuiper(this.sortedActs, sub);
      leg.ub = 0;
    } else {
      leg.score = fminerChisq(leg.counts, this.classSizes, this.N);
      leg.ub = this.opt.pruning ? fminerUpperBound(leg.counts, this.classSizes, this.N) : 0;
    }
  }

  // ---- candidate extensions --------------------------------------------------------------

  /**
   * Scan all embeddings and count, for each (pattern node u, edge label e) accepted by `ok`,
   * the molecules in which the pattern extends by an edge e at u to a data atom outside the
   * embedding (non-induced, injective).
   */
  private collectLegs(lv: Level, nodes: readonly number[], ok: (u: number, e: number) => boolean): Leg[] {
    const db = this.db;
    const nE = db.edgeLabels.length;
    const k = lv.k;
    // Canonicity is only checked for frequent candidates (after counting), which is far
    // cheaper than checking every (node, edge label) pair up front.
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
    const minfreq = this.opt.minfreq;
    for (const [key, l] of tidLists) {
      if (support[key]! < minfreq) continue;
      const u = Math.floor(key / nE);
      const e = key - u * nE;
      if (!ok(u, e)) continue;
      const el = db.edgeLabels[e]!;
      const ul = this.pattern.label[u]!;
      const counts = new Int32Array(this.nClasses);
      for (const t of l) counts[this.tidClass[t]!]!++;
      const leg: Leg = { node: u, edge: e, label: el.from === ul ? el.to : el.from, support: support[key]!, counts, tids: Int32Array.from(l), score: 0, ub: 0, front: false };
      this.score(leg);
      legs.push(leg);
    }
    return legs;
  }

  /** Build the embeddings of pattern + leg and add the node to the pattern. */
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
    this.pattern.addNode(leg.label, u, e);
    this.visited++;
    return { k: k1, rows: out, tids: outT, m: n };
  }

  // ---- output ------------------------------------------------------------------------------

  /** The output record of the pattern currently on the stack (its last node just added). */
  private line(leg: Leg): MinedPattern {
    const p = this.pattern;
    const db = this.db;
    const smarts = writeSmarts(
      {
        size: p.size,
        inputLabel: (i) => db.nodeLabels[p.label[i]!]!.input,
        neighbours: (i) => p.adj[i]!,
        bonds: (i) => p.adjE[i]!.map((e) => db.edgeLabels[e]!.bond),
      },
      this.opt.aromatic,
    );
    return { smarts, stat: leg.score, tids: leg.tids, classCounts: Array.from(leg.counts) };
  }

  private significant(score: number): boolean {
    return score >= this.sig;
  }

  private emitIfAll(leg: Leg, text: MinedPattern): void {
    if (!this.opt.backbone && this.significant(leg.score)) this.results.push(text);
  }

  private emit(best: Best): void {
    if (best.text !== null) this.results.push(best.text);
  }

  // ---- search (spec §4.2 pseudo-code) ------------------------------------------------------

  /** Whether leg L of a pattern carrying `best` is refined (spec §4.2 `consider`). */
  private refines(leg: Leg, best: Best): boolean {
    let refine: boolean;
    if (!this.opt.pruning) refine = true;
    else if (!this.opt.dynamicUpperBound) refine = leg.ub >= this.sig;
    else refine = leg.ub >= Math.max(this.sig, best.score, leg.score);
    return refine && (this.opt.refineSingles || leg.support > 1);
  }

  private consider(lv: Level, leg: Leg, best: Best, tree: boolean, setPath: () => void, unsetPath: () => void): void {
    if (this.refines(leg, best)) {
      const child = this.descend(lv, leg);
      setPath();
      const text = this.line(leg);
      this.emitIfAll(leg, text);
      if (this.opt.backbone && leg.score > best.score) {
        this.updated = true;
        const nb: Best = { score: leg.score, text: this.significant(leg.score) ? text : null };
        if (tree) this.visitTree(child, nb);
        else this.visitPath(child, nb);
      } else if (tree) this.visitTree(child, best);
      else this.visitPath(child, best);
      unsetPath();
      this.pattern.removeLast();
    } else if (this.opt.backbone && this.updated) {
      this.emit(best);
      this.updated = false;
    }
  }

  private visitPath(lv: Level, best: Best): void {
    const p = this.pattern;
    const path = p.path;
    const n = path.length - 1;
    const front = path[0]!;
    const back = path[n]!;
    const labels = path.map((q) => p.label[q]!);
    const sym = comparePathReadings(labels, p.pathEdges) === 0;
    const db = this.db;
    const otherOf = (u: number, e: number): number => {
      const el = db.edgeLabels[e]!;
      const ul = p.label[u]!;
      if (el.from !== ul && el.to !== ul) return -1;
      return el.from === ul ? el.to : el.from;
    };
    const okBack = (e: number): boolean => {
      const x = otherOf(back, e);
      if (x < 0) return false;
      return comparePathReadings([...labels, x], [...p.pathEdges, e]) <= 0;
    };
    const okFront = (e: number): boolean => {
      if (sym) return false;
      const x = otherOf(front, e);
      if (x < 0) return false;
      return comparePathReadings([x, ...labels], [e, ...p.pathEdges]) >= 0;
    };
    // A one-node path has front = back; never here (paths start with one edge).
    const legs = this.collectLegs(lv, [front, back], (u, e) => (u === back ? okBack(e) : okFront(e)));
    const backLegs = legs.filter((l) => l.node === back).sort((a, b) => a.edge - b.edge);
    const frontLegs = legs.filter((l) => l.node === front).sort((a, b) => a.edge - b.edge);
    if (backLegs.length + frontLegs.length === 0 && this.opt.backbone && this.updated) {
      this.emit(best);
      this.updated = false;
    }
    const savedPath = p.path;
    const savedEdges = p.pathEdges;
    for (const leg of backLegs) {
      this.consider(
        lv,
        leg,
        best,
        false,
        () => {
          p.path = [...savedPath, p.size - 1];
          p.pathEdges = [...savedEdges, leg.edge];
        },
        () => {
          p.path = savedPath;
          p.pathEdges = savedEdges;
        },
      );
    }
    for (const leg of frontLegs) {
      this.consider(
        lv,
        leg,
        best,
        false,
        () => {
          p.path = [p.size - 1, ...savedPath];
          p.pathEdges = [leg.edge, ...savedEdges];
        },
        () => {
          p.path = savedPath;
          p.pathEdges = savedEdges;
        },
      );
    }
    if (this.opt.type === 2 && n >= 2) {
      const saved = this.updated;
      const inner = path.slice(1, n);
      const rep = extensionRepresentatives(p, this.opt.treeOrder);
      const tlegs = this.collectLegs(lv, inner, (u, e) => rep[u] === 1 && otherOf(u, e) >= 0 && treeExtensionOk(p, u, e, otherOf(u, e), this.opt.treeOrder));
      // Path legs in path order, front to back (hamster tmp2 lines 96–98).
      const pos = new Map(inner.map((q, i) => [q, i]));
      tlegs.sort((a, b) => pos.get(a.node)! - pos.get(b.node)! || a.edge - b.edge);
      for (const leg of tlegs) this.consider(lv, leg, best, true, () => {}, () => {});
      this.updated = saved;
    }
  }

  private visitTree(lv: Level, best: Best): void {
    const p = this.pattern;
    const db = this.db;
    const otherOf = (u: number, e: number): number => {
      const el = db.edgeLabels[e]!;
      const ul = p.label[u]!;
      if (el.from !== ul && el.to !== ul) return -1;
      return el.from === ul ? el.to : el.from;
    };
    const nodes: number[] = [];
    for (let i = 0; i < p.size; i++) nodes.push(i);
    const rep = extensionRepresentatives(p, this.opt.treeOrder);
    const legs = this.collectLegs(lv, nodes, (u, e) => rep[u] === 1 && otherOf(u, e) >= 0 && treeExtensionOk(p, u, e, otherOf(u, e), this.opt.treeOrder));
    // Gaston iterates tree legs from last to first (§2.1 step 3): newest node first.
    legs.sort((a, b) => b.node - a.node || b.edge - a.edge);
    if (legs.length === 0 && this.opt.backbone && this.updated) {
      this.emit(best);
      this.updated = false;
    }
    for (const leg of legs) this.consider(lv, leg, best, true, () => {}, () => {});
  }
}

/** R type-7 quantile of sorted values. */
function quantile7(sorted: Float64Array, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

function clipToQuantiles(values: readonly number[], pLo: number, pHi: number): number[] {
  const sorted = Float64Array.from(values).sort();
  const lo = quantile7(sorted, pLo);
  const hi = quantile7(sorted, pHi);
  return values.map((v) => Math.min(hi, Math.max(lo, v)));
}
