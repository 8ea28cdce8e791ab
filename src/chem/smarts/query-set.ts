/**
 * Many SMARTS queries against one molecule at a time (`QuerySet`): first one pass over a typed
 * array that screens every query against the molecule with 96-bit summaries of required edge
 * types and labels (labels.ts `screenBits`), then the prefilters and the search of search.ts
 * for the queries that survive.
 */

import type { LabelledGraph } from "../labelled-graph.ts";
import { SCREEN_WORDS } from "./labels.ts";
import { compileSmarts } from "./parse.ts";
import type { SmartsQuery } from "./query.ts";
import { run } from "./search.ts";
import { prepareMolecule, type MolTarget } from "./target.ts";

/**
 * Many queries against one molecule at a time (a model's features against a query compound).
 * Recursive sub-queries with the same text are compiled once and evaluated once per molecule.
 */
export class QuerySet {
  readonly queries: readonly SmartsQuery[];
  /** Screens of all queries, SCREEN_WORDS per query, for a branch-light first pass. */
  private readonly screens: Int32Array;

  constructor(smarts: readonly (string | SmartsQuery)[]) {
    const intern = new Map<string, SmartsQuery>();
    this.queries = smarts.map((s) => (typeof s === "string" ? compileSmarts(s, intern) : s));
    this.screens = new Int32Array(this.queries.length * SCREEN_WORDS);
    this.queries.forEach((q, k) => this.screens.set(q.screen, k * SCREEN_WORDS));
  }

  get size(): number {
    return this.queries.length;
  }

  /** Screen pass: out[k] = 1 when query k may occur in t (0 = certainly not). */
  private screenPass(t: MolTarget, out: Uint8Array | Int32Array): void {
    const sc = this.screens;
    const t0 = ~t.screen[0]!;
    const t1 = ~t.screen[1]!;
    const t2 = ~t.screen[2]!;
    for (let k = 0, o = 0; k < out.length; k++, o += SCREEN_WORDS) {
      out[k] = ((sc[o]! & t0) | (sc[o + 1]! & t1) | (sc[o + 2]! & t2)) === 0 ? 1 : 0;
    }
  }

  /** 1 where query k occurs in the molecule, else 0. */
  matchAll(mol: LabelledGraph | MolTarget, out = new Uint8Array(this.queries.length)): Uint8Array {
    const t = prepareMolecule(mol);
    this.screenPass(t, out);
    for (let k = 0; k < out.length; k++) if (out[k] === 1) out[k] = run(this.queries[k]!, t, 1);
    return out;
  }

  /** Hit count (embeddings) of every query in the molecule, each at most `limit`. */
  countAll(mol: LabelledGraph | MolTarget, limit = Number.MAX_SAFE_INTEGER, out = new Int32Array(this.queries.length)): Int32Array {
    const t = prepareMolecule(mol);
    this.screenPass(t, out);
    for (let k = 0; k < out.length; k++) if (out[k] === 1) out[k] = run(this.queries[k]!, t, limit);
    return out;
  }

  /** Indices of the queries occurring in the molecule, ascending. */
  matching(mol: LabelledGraph | MolTarget): number[] {
    const hits = this.matchAll(mol);
    const out: number[] = [];
    for (let k = 0; k < hits.length; k++) if (hits[k] === 1) out.push(k);
    return out;
  }
}
