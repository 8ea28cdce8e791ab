/**
 * BBRC: backbone refinement class representatives over a Gaston-style depth-first search of
 * paths and free trees (docs/miners.md "The search", "Statistics", "BBRC representatives").
 * Pure TypeScript, no I/O.
 *
 * Embeddings and leg counting (shared with LAST-PM) are in ./legs.ts: flat typed-array rows per
 * search level, support and per-class counts of every candidate extension ("leg") in one scan
 * over the rows, nothing allocated per embedding. Pattern records (SMARTS, lists) are only
 * built for significant patterns.
 *
 * Visit order and representatives are fminer2's: byte-identical output on all golden files
 * (hamster tmp1, tmp2, fminer1, multinomial fminer2; EPAFHM regression fminer4) and the
 * number of all frequent trees (66455). Regression p-values are compared as C `float`s, as
 * fminer keeps them (p close to 1 would otherwise differ in the last bits and change which
 * pattern of a class is the maximum).
 */

import { SearchMeter, type SearchBudget } from "./budget.ts";
import type { Database } from "./database.ts";
import { LegCounter, type Level } from "./legs.ts";
import { Pattern, DEFAULT_TREE_ORDER, type TreeOrderOptions } from "./pattern.ts";
import { writeSmarts, type SmartsGraph } from "./smarts.ts";
import { fminerChisq, fminerUpperBound, fminerKuiper, defaultChisqThreshold, chisqQuantile1 } from "./stats.ts";

export interface BbrcOptions extends SearchBudget {
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
  /**
   * User significance `p` (0..1): threshold = chi-square quantile(p, df = 1), whatever the number
   * of classes, as in fminer.
   */
  chisqSig?: number;
  refineSingles?: boolean;
  /** Regression (Kuiper test; turns pruning off). */
  regression?: boolean;
  /** Aromatic perception (affects only SMARTS writing here; the encoding is done before). */
  aromatic?: boolean;
  treeOrder?: TreeOrderOptions;
  /** Collect per-molecule hit counts (`MinedPattern.hits`, fminer's FMINER_NR_HITS). */
  nrHits?: boolean;
}

export interface MinedPattern {
  readonly smarts: string;
  /** chi-square (classification) or Kuiper p (regression), as fminer computes it. */
  readonly stat: number;
  /** tids containing the pattern, ascending. */
  readonly tids: Int32Array;
  /** Per class (ascending class value) the number of molecules containing the pattern. */
  readonly classCounts: readonly number[];
  /**
   * With `nrHits`: per tid (parallel to `tids`) the number of embeddings of the pattern in that
   * molecule, every injective mapping counted, automorphic ones included (fminer's
   * FMINER_NR_HITS; docs/miners.md "Hit counts").
   */
  readonly hits?: Int32Array;
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

interface Best {
  score: number;
  text: MinedPattern | null;
}

export class BbrcMiner {
  private readonly db: Database;
  private readonly opt: Required<Omit<BbrcOptions, "chisqSig" | keyof SearchBudget>> & { chisqSig: number | undefined };
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
  /** Embedding buffers and leg counting (./legs.ts). */
  private readonly legs: LegCounter;
  /** Visit limit and progress (./budget.ts). */
  private readonly meter: SearchMeter;

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
      nrHits: options.nrHits ?? false,
    };
    // fminer's coupling rules (docs/miners.md "Options"): no backbone or no pruning → no
    // dynamic UB; regression → no pruning.
    if (o.regression) o.pruning = false;
    if (!o.backbone || !o.pruning) o.dynamicUpperBound = false;
    if (o.refineSingles) o.minfreq = 1;
    this.opt = o;
    this.N = db.nTrees;
    // Regression: activities are clipped to their [1.25 %, 98.75 %] quantiles (R type 7)
    // before mining, as fminer does.
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
    this.legs = new LegCounter(db, this.pattern, o.minfreq, this.tidClass, this.nClasses);
    this.meter = new SearchMeter(options);
  }

  /** Mine every root label in label order (fminer's MineRoot loop). */
  mineAll(): MinedPattern[] {
    const m = this.meter;
    m.openRoots(this.db, this.opt.minfreq);
    for (let r = 0; r < this.db.nodeLabels.length; r++) {
      m.next(m.rootWeight(this.db, this.opt.minfreq, r));
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
    // (one node: the legs come by ascending edge label)
    const legs = this.countedLegs();
    this.meter.openLegs(legs);
    for (const leg of legs) {
      this.meter.next(leg.support);
      this.updated = true;
      const child = this.descend(root, leg);
      const text = this.significant(leg.score) ? this.line(leg, child) : null;
      this.emitIfAll(leg, text);
      p.path = [0, 1];
      p.pathEdges = [leg.edge];
      // Regression: the root level's maximum starts unset (score 0) but carries the one-edge
      // pattern's line, so every child beats it (fminer4's first lines S=P-O and O-P-O, although
      // O-P-O has the same p as O-P), and a significant one-edge pattern is printed only when
      // its branch ends right away (fminer4's F-c and P=S).
      const rootBest: Best = { score: this.opt.regression ? 0 : leg.score, text: leg.score >= this.sig ? text : null };
      this.visitPath(child, rootBest);
      p.removeLast();
    }
    this.meter.close();
    p.removeLast();
  }

  // ---- statistics ------------------------------------------------------------------------

  private score(leg: Leg): void {
    if (this.opt.regression) {
      const sub = new Float64Array(leg.tids.length);
      for (let i = 0; i < sub.length; i++) sub[i] = this.acts[leg.tids[i]!]!;
      leg.score = Math.fround(fminerKuiper(this.sortedActs, sub));
      leg.ub = 0;
    } else {
      leg.score = fminerChisq(leg.counts, this.classSizes, this.N);
      leg.ub = this.opt.pruning ? fminerUpperBound(leg.counts, this.classSizes, this.N) : 0;
    }
  }

  // ---- candidate extensions --------------------------------------------------------------

  /** The legs the last count of ./legs.ts found (by ascending node, edge label), scored. */
  private countedLegs(): Leg[] {
    const c = this.legs;
    const legs: Leg[] = [];
    for (let i = 0; i < c.legNode.length; i++) {
      const tids = c.legTids[i]!;
      const leg: Leg = { node: c.legNode[i]!, edge: c.legEdge[i]!, label: c.legLabel[i]!, support: tids.length, counts: c.legCounts[i]!, tids, score: 0, ub: 0, front: false };
      this.score(leg);
      legs.push(leg);
    }
    return legs;
  }

  /** Build the embeddings of pattern + leg (./legs.ts `extend`) and add the node to the pattern. */
  private descend(lv: Level, leg: Leg): Level {
    this.meter.visit(this.results.length);
    const child = this.legs.extend(lv, leg.node, leg.edge, leg.tids);
    this.pattern.addNode(leg.label, leg.node, leg.edge);
    this.visited++;
    return child;
  }

  // ---- output ------------------------------------------------------------------------------

  /** The output record of the pattern currently on the stack (its last node just added). */
  private line(leg: Leg, child: Level): MinedPattern {
    const p = this.pattern;
    const db = this.db;
    const smarts = writeSmarts(new PatternGraph(p, db), this.opt.aromatic);
    const rec: MinedPattern = { smarts, stat: leg.score, tids: leg.tids, classCounts: Array.from(leg.counts) };
    if (this.opt.nrHits) {
      // Embeddings per molecule = rows of the child level per tid (rows are in tid order).
      const hits = new Int32Array(leg.tids.length);
      const ct = child.tids;
      for (let r = 0, i = -1, last = -1; r < child.m; r++) {
        const t = ct[r]!;
        if (t !== last) {
          last = t;
          i++;
        }
        hits[i]!++;
      }
      return { ...rec, hits };
    }
    return rec;
  }

  private significant(score: number): boolean {
    return score >= this.sig;
  }

  private emitIfAll(leg: Leg, text: MinedPattern | null): void {
    if (!this.opt.backbone && text !== null && this.significant(leg.score)) this.results.push(text);
  }

  private emit(best: Best): void {
    if (best.text !== null) this.results.push(best.text);
  }

  // ---- search (fminer's recursion: docs/miners.md "BBRC representatives") -------------------

  /**
   * Whether leg L of a pattern carrying `best` is refined (docs/miners.md "Refinement and the
   * dynamic upper bound").
   */
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
      // Only a significant pattern can be printed, so only then is its record built.
      const text = this.significant(leg.score) ? this.line(leg, child) : null;
      this.emitIfAll(leg, text);
      if (this.opt.backbone && leg.score > best.score) {
        this.updated = true;
        const nb: Best = { score: leg.score, text };
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
    // One scan of the embeddings collects the path legs (at the ends) and the tree legs (at the
    // inner nodes; ./legs.ts PathPlan).
    const plan = this.legs.path(lv, this.opt.type === 2, this.opt.treeOrder);
    const { back: backLegs, front: frontLegs, tree: tlegs } = plan.split(this.countedLegs());
    if (backLegs.length + frontLegs.length === 0 && this.opt.backbone && this.updated) {
      this.emit(best);
      this.updated = false;
    }
    const savedPath = p.path;
    const savedEdges = p.pathEdges;
    const m = this.meter;
    m.openLegs([...backLegs, ...frontLegs, ...tlegs]);
    for (const leg of backLegs) {
      m.next(leg.support);
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
      m.next(leg.support);
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
    // Tree legs in path order, front to back (hamster tmp2 lines 96–98), leave `updated` as
    // the path legs left it.
    const saved = this.updated;
    for (const leg of tlegs) {
      m.next(leg.support);
      this.consider(lv, leg, best, true, () => {}, () => {});
    }
    this.updated = saved;
    m.close();
  }

  private visitTree(lv: Level, best: Best): void {
    const plan = this.legs.tree(lv, this.opt.treeOrder);
    const legs = this.countedLegs();
    // Gaston iterates tree legs from last to first; see sortTreeLegs.
    plan.sort(legs);
    if (legs.length === 0 && this.opt.backbone && this.updated) {
      this.emit(best);
      this.updated = false;
    }
    this.meter.openLegs(legs);
    for (const leg of legs) {
      this.meter.next(leg.support);
      this.consider(lv, leg, best, true, () => {}, () => {});
    }
    this.meter.close();
  }
}

/** The pattern as the SMARTS writer sees it. */
class PatternGraph implements SmartsGraph {
  readonly size: number;
  constructor(
    private readonly p: Pattern,
    private readonly db: Database,
  ) {
    this.size = p.size;
  }
  inputLabel(i: number): number {
    return this.db.nodeLabels[this.p.label[i]!]!.input;
  }
  neighbours(i: number): readonly number[] {
    return this.p.adj[i]!;
  }
  bonds(i: number): readonly number[] {
    const out: number[] = [];
    for (const e of this.p.adjE[i]!) out.push(this.db.edgeLabels[e]!.bond);
    return out;
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

