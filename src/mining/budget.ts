/**
 * The search budget and progress of the pattern miners (BBRC ./bbrc.ts, LAST-PM ./last/search.ts),
 * shared because both walk the same depth-first search over paths and trees.
 *
 * **Budget.** A search stops with `SearchLimitError` when it is about to visit more than
 * `maxVisited` patterns (frequent candidates, significant or not). Without a limit (the library's
 * default) nothing changes: the golden outputs are the same. The limit exists because the number
 * of frequent patterns is not bounded by anything the caller sees up front: in regression (the
 * Kuiper test has no upper bound, so nothing is pruned: docs/miners.md "Kuiper test
 * (regression)") every frequent tree
 * is visited, and ~1,000 compounds with a few large shared scaffolds have millions of them
 * (LOAEL, training_log10.csv, 998 compounds, minimum support 4: 1.08 M trees visited in the first
 * 120 s, the search then still in its first root label; the same set as paths: 33,041 in 1.6 s).
 *
 * **Progress.** The share of the search done, estimated from the search tree: the root labels
 * divide [0, 1] by their number of atoms (the embeddings of a one-node pattern), each pattern
 * divides its share among the extensions it considers by their support, and the progress is
 * where the search stands in that partition (monotone: the partition is walked in order). A
 * pattern whose subtree is much larger than its support suggests keeps the progress still
 * while it is searched, so the reported fraction is the larger of that share and the fraction of
 * the budget used (`visited / maxVisited`): at most `maxVisited − visited` visits are still to come.
 */

import type { Database } from "./database.ts";

/** Thrown by a search that would visit more than its `maxVisited` patterns. */
export class SearchLimitError extends Error {
  constructor(
    readonly limit: number,
    /** Results the search had produced when it stopped. */
    readonly found: number,
  ) {
    super(`the search visited ${limit} patterns (its limit) without finishing; ${found} results so far`);
    this.name = "SearchLimitError";
  }
}

export interface MiningProgress {
  /** "order": reading and ordering the compounds; "search": the pattern search. */
  readonly phase: "order" | "search";
  /** Fraction of the phase done, in [0, 1]. */
  readonly fraction: number;
  /** Patterns visited so far (search). */
  readonly visited: number;
  /** Results so far (search). */
  readonly found: number;
}

/** What a miner's options add for its budget and progress. */
export interface SearchBudget {
  /** The most patterns the search may visit (default: no limit). */
  maxVisited?: number;
  /** Called while reading (every 64 compounds), at each root label and one-edge pattern, every 256 visits and at the end. */
  onProgress?: (p: MiningProgress) => void;
}

/** The reading phase's progress callback for `canonicalOrder` (../order.ts), if progress is wanted. */
export function orderProgress(budget: SearchBudget): ((fraction: number) => void) | undefined {
  const on = budget.onProgress;
  return on ? (fraction) => on({ phase: "order", fraction, visited: 0, found: 0 }) : undefined;
}

/** Visits between two progress reports from inside the search. */
const REPORT_EVERY = 256;

/**
 * Counts visited patterns against the limit and tracks the search's position in the partition
 * of [0, 1] described above. The miner calls `open(total)` before the children of a pattern
 * (total = the sum of their weights), `next(weight)` before each child, `close()` after the
 * last, and `visit()` for every pattern it visits.
 */
export class SearchMeter {
  visited = 0;
  private found = 0;
  private readonly limit: number;
  private readonly onProgress: ((p: MiningProgress) => void) | undefined;
  /** Start and width of the current pattern's share. */
  private lo = 0;
  private width = 1;
  /** Open frames: the pattern's start and width, its children's total weight and the weight done. */
  private readonly frames: number[] = [];

  constructor(budget: SearchBudget = {}) {
    this.limit = budget.maxVisited ?? Infinity;
    this.onProgress = budget.onProgress;
  }

  /** The fraction of the search done (see the module comment). */
  get fraction(): number {
    return Math.min(1, Math.max(this.lo, this.visited / this.limit));
  }

  /** Before the children of the current pattern; `total` is the sum of their weights. */
  open(total: number): void {
    this.frames.push(this.lo, this.width, total, 0);
  }

  /** Before the root labels of `db` (searched in label order, each weighted by its atoms). */
  openRoots(db: Database, minfreq: number): void {
    let total = 0;
    for (let r = 0; r < db.nodeLabels.length; r++) total += this.rootWeight(db, minfreq, r);
    this.open(total);
  }

  /** The weight of root label r: its atoms if it is searched at all, else 0. */
  rootWeight(db: Database, minfreq: number, r: number): number {
    const nl = db.nodeLabels[r]!;
    return nl.frequency >= minfreq && nl.frequentEdges.length > 0 ? nl.atoms.length : 0;
  }

  /** Before a pattern's extensions (each weighted by its support). */
  openLegs(legs: readonly { readonly support: number }[]): void {
    let total = 0;
    for (const l of legs) total += l.support;
    this.open(total);
  }

  /** Before the next child (in search order), with its weight. */
  next(weight: number): void {
    const f = this.frames;
    const n = f.length;
    const total = f[n - 2]!;
    const done = f[n - 1]!;
    const unit = total > 0 ? f[n - 3]! / total : 0;
    this.lo = f[n - 4]! + unit * done;
    this.width = unit * weight;
    f[n - 1] = done + weight;
    // Root labels and one-edge patterns are few: a report at each (a slow one shows as a step).
    if (n <= 8) this.report();
  }

  /** After the last child: the search stands at the end of the pattern's share. */
  close(): void {
    const f = this.frames;
    const n = f.length;
    this.lo = f[n - 4]! + f[n - 3]!;
    this.width = 0;
    f.length = n - 4;
  }

  /** One more pattern visited (`found`: results so far); throws SearchLimitError past the limit. */
  visit(found: number): void {
    if (this.visited >= this.limit) throw new SearchLimitError(this.limit, found);
    this.visited++;
    this.found = found;
    if (this.visited % REPORT_EVERY === 0) this.report();
  }

  /** The search has ended. */
  done(found: number): void {
    this.lo = 1;
    this.found = found;
    this.report();
  }

  private report(): void {
    this.onProgress?.({ phase: "search", fraction: this.fraction, visited: this.visited, found: this.found });
  }
}
