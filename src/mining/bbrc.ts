/**
 * BBRC: backbone refinement class representatives over a Gaston-style depth-first search of
 * paths and free trees (spec miners.md §2, §3, §4). Pure TypeScript, no I/O.
 *
 * Embeddings are stored per search level as flat Int32Array rows (one mapped atom per pattern
 * node, every injective mapping, automorphic ones included) with their tid, in tid order, in a
 * buffer reused by all patterns of that size (the search is depth first). Support and
 * per-class counts of every candidate extension ("leg") are collected in one scan over the
 * rows with last-tid markers (§10.2), only at the nodes that can receive a canonical
 * extension (pattern.ts TreePlan) and had a frequent key in the parent (an extension of a
 * child embedding at an old node is one of a parent embedding), and the rows of a child
 * pattern are only copied out when the search descends from it. Whether a neighbour atom is
 * already in the embedding: across a bridge it is iff it is the image of a pattern neighbour
 * (the image is connected); across a ring bond the embedding's atoms are stamped once,
 * lazily. Nothing is allocated per embedding. Pattern records (SMARTS, lists) are only built
 * for significant patterns.
 *
 * Visit order and representatives are fminer2's: byte-identical output on all golden files
 * (hamster tmp1, tmp2, fminer1, multinomial fminer2; EPAFHM regression fminer4) and the
 * number of all frequent trees (66455). Regression p-values are compared as C `float`s, as
 * fminer keeps them (p close to 1 would otherwise differ in the last bits and change which
 * pattern of a class is the maximum).
 */

import { ringBonds, type Database } from "./database.ts";
import { TreePlan, Pattern, comparePathReadings, treeExtensionOk, extensionRepresentatives, DEFAULT_TREE_ORDER, type TreeOrderOptions } from "./pattern.ts";
import { writeSmarts, type SmartsGraph } from "./smarts.ts";
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
   * FMINER_NR_HITS, spec §2.2, §6.2).
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

interface Level {
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
   */
  scanned?: Uint8Array;
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
  // Scratch buffers reused across calls (no per-embedding allocations).
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

  constructor(db: Database, activities: readonly number[], options: BbrcOptions = {}) {
    this.db = db;
    this.stamp = new Int32Array(db.atomTid.length);
    this.adjRing = ringBonds(db);
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
    const root: Level = { k: 1, rows: Int32Array.from(nl.atoms), tids: Int32Array.from(nl.atoms, (a) => db.atomTid[a]!), m: nl.atoms.length, base: null, pr: null, w: null };
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

  /**
   * Scan all embeddings and count, for each (pattern node u, edge label e) accepted by `ok`,
   * the molecules in which the pattern extends by an edge e at u to a data atom outside the
   * embedding (non-induced, injective).
   */
  private collectLegs(lv: Level, nodes: readonly number[], ok: (u: number, e: number) => boolean): Leg[] {
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
    const minfreq = this.opt.minfreq;
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
    if (inherited !== undefined) for (let u = 0; u < inherited.length; u++) if (inherited[u] === 1) scanned[u] = 1;
    for (let i = 0; i < nn; i++) scanned[nodeArr[i]!] = 1;
    for (const key of keys) scanned[Math.floor(key / nE)] = 2;
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
      const leg: Leg = { node: u, edge: e, label: el.from === ul ? el.to : el.from, support: l.length, counts, tids: l, score: 0, ub: 0, front: false };
      this.score(leg);
      legs.push(leg);
    }
    return legs;
  }

  /**
   * Build the embeddings of pattern + leg and add the node to the pattern. The rows of a level
   * of size k live in a buffer reused by every pattern of that size (the search is depth first,
   * so a level is dead once its subtree has been explored).
   */
  private descend(lv: Level, leg: Leg): Level {
    if (lv.rows === null) this.materialize(lv);
    const db = this.db;
    const k = lv.k;
    const k1 = k + 1;
    const rows = lv.rows!;
    const { tids, m } = lv;
    const u = leg.node;
    const e = leg.edge;
    const adjStart = db.adjStart;
    const adjTo = db.adjTo;
    const adjEdge = db.adjEdge;
    const stamp = this.stamp;
    while (this.rowPool.length <= k1) {
      this.rowPool.push(new Int32Array(1024));
      this.tidPool.push(new Int32Array(256));
      this.prPool.push(new Int32Array(256));
      this.wPool.push(new Int32Array(256));
    }
    let outP = this.prPool[k1]!;
    let outW = this.wPool[k1]!;
    let outT = this.tidPool[k1]!;
    if (this.stampId > 0x3fffffff) {
      stamp.fill(0);
      this.stampId = 0;
    }
    let n = 0;
    let stampId = this.stampId;
    const adjRing = this.adjRing;
    const unb = this.pattern.adj[u]!;
    // Only molecules in the leg's tid list have child embeddings (rows are in tid order).
    const legTids = leg.tids;
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
          const t2 = new Int32Array(n * 2);
          t2.set(outT);
          outT = this.tidPool[k1] = t2;
          const p2 = new Int32Array(n * 2);
          p2.set(outP);
          outP = this.prPool[k1] = p2;
          const w2 = new Int32Array(n * 2);
          w2.set(outW);
          outW = this.wPool[k1] = w2;
        }
        outP[n] = r;
        outW[n] = w;
        outT[n] = t;
        n++;
      }
    }
    this.stampId = stampId;
    this.pattern.addNode(leg.label, u, e);
    this.visited++;
    // The child's rows are only copied out if the search descends further from it.
    return { k: k1, rows: null, tids: outT, m: n, base: lv, pr: outP, w: outW };
  }

  /** Copy an unmaterialised level's rows into the size-k buffer. */
  private materialize(lv: Level): void {
    const k = lv.k;
    const bk = k - 1;
    const m = lv.m;
    const brows = lv.base!.rows!;
    const pr = lv.pr!;
    const wv = lv.w!;
    let out = this.rowPool[k]!;
    if (out.length < m * k) out = this.rowPool[k] = new Int32Array(Math.max(m * k, out.length * 2));
    for (let i = 0; i < m; i++) {
      const ob = i * k;
      const pb = pr[i]! * bk;
      for (let q = 0; q < bk; q++) out[ob + q] = brows[pb + q]!;
      out[ob + bk] = wv[i]!;
    }
    lv.rows = out;
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

  /** Label of the node at the other end of edge label e from pattern node u, or -1. */
  private otherEnd(u: number, e: number): number {
    const el = this.db.edgeLabels[e]!;
    const ul = this.pattern.label[u]!;
    if (el.from !== ul && el.to !== ul) return -1;
    return el.from === ul ? el.to : el.from;
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
    const path = p.path;
    const n = path.length - 1;
    const front = path[0]!;
    const back = path[n]!;
    const labels = path.map((q) => p.label[q]!);
    const sym = comparePathReadings(labels, p.pathEdges) === 0;
    // One scan of the embeddings collects the path legs (at the ends) and the tree legs (at the
    // inner nodes). A one-node path has front = back; never here (paths start with one edge).
    const trees = this.opt.type === 2 && n >= 2;
    const inner = trees ? path.slice(1, n) : [];
    const rep = trees ? extensionRepresentatives(p, this.opt.treeOrder, inner) : null;
    // (nodes that are not automorphism representatives never get a tree leg: not scanned)
    const scan = trees ? [front, back, ...inner.filter((u) => rep![u] === 1)] : [front, back];
    const allLegs = this.collectLegs(lv, scan, (u, e) => {
      const x = this.otherEnd(u, e);
      if (x < 0) return false;
      // path legs: the extended reading must stay the canonical one (§2.1 step 2)
      if (u === back) return comparePathReadings([...labels, x], [...p.pathEdges, e]) <= 0;
      if (u === front) return !sym && comparePathReadings([x, ...labels], [e, ...p.pathEdges]) >= 0;
      return rep![u] === 1 && treeExtensionOk(p, u, e, x, this.opt.treeOrder);
    });
    const legs = allLegs.filter((l) => l.node === front || l.node === back);
    const tlegs = allLegs.filter((l) => l.node !== front && l.node !== back);
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
    if (trees) {
      const saved = this.updated;
      // Path legs in path order, front to back (hamster tmp2 lines 96–98).
      const pos = new Map(inner.map((q, i) => [q, i]));
      tlegs.sort((a, b) => pos.get(a.node)! - pos.get(b.node)! || a.edge - b.edge);
      for (const leg of tlegs) this.consider(lv, leg, best, true, () => {}, () => {});
      this.updated = saved;
    }
  }

  private visitTree(lv: Level, best: Best): void {
    const p = this.pattern;
    const plan = new TreePlan(p, this.opt.treeOrder);
    const rep = plan.rep;
    const nodes = plan.candidates.filter((u) => rep[u] === 1);
    const legs = this.collectLegs(lv, nodes, (u, e) => {
      const x = this.otherEnd(u, e);
      return x >= 0 && rep[u] === 1 && plan.mayExtend(u, e) && plan.extensionOk(u, e, x);
    });
    // Gaston iterates tree legs from last to first (§2.1 step 3); see sortTreeLegs.
    plan.sort(legs);
    if (legs.length === 0 && this.opt.backbone && this.updated) {
      this.emit(best);
      this.updated = false;
    }
    for (const leg of legs) this.consider(lv, leg, best, true, () => {}, () => {});
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

