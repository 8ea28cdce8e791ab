/**
 * Entry point of the BBRC miner core: compounds + activities → fminer-compatible patterns.
 * (docs/miners.md; this module glues canonical order, database, search and output formats.)
 */

import type { RDKit } from "../chem/rdkit.ts";
import { BbrcMiner, type BbrcOptions, type MinedPattern } from "./bbrc.ts";
import { Database } from "./database.ts";
import { canonicalOrder, type InputCompound, type OrderedCompounds } from "./order.ts";
import { formatFixed } from "./stats.ts";
import { orderProgress } from "./budget.ts";

export type { BbrcOptions, MinedPattern } from "./bbrc.ts";
export { SearchLimitError, type MiningProgress, type SearchBudget } from "./budget.ts";
export type { InputCompound } from "./order.ts";
export { parseSmiFile, parseActivityFile } from "./order.ts";

export interface BbrcRun {
  readonly compounds: OrderedCompounds;
  readonly patterns: MinedPattern[];
  /** Patterns visited by the search (diagnostics). */
  readonly visited: number;
}

export function mineBbrc(
  rdkit: RDKit,
  compounds: readonly InputCompound[],
  activity: ReadonlyMap<number, number>,
  options: BbrcOptions = {},
): BbrcRun {
  const ordered = canonicalOrder(rdkit, compounds, activity, options.aromatic ?? true, orderProgress(options));
  const minfreq = options.refineSingles ? 1 : (options.minfreq ?? 2);
  const db = new Database(ordered.graphs, minfreq);
  const miner = new BbrcMiner(db, ordered.activities, options);
  const patterns = miner.mineAll();
  return { compounds: ordered, patterns, visited: miner.visited };
}

/**
 * fminer's YAML line (`FMINER_SMARTS`; docs/miners.md "YAML line"): `- [ "SMARTS", STAT, [ ids of
 * the highest class value ], [ next lower ], … ]`; STAT with `%.4f` as in the golden files (the
 * precision of the fminer2 lazar used; fminer2 prints 12 decimals since August 2012).
 */
export function yamlLine(p: MinedPattern, c: OrderedCompounds, regression = false, nrHits = false): string {
  // With nrHits (FMINER_NR_HITS) each id becomes `id: 'count'`.
  const hitOf = new Map<number, number>();
  if (nrHits && p.hits) p.tids.forEach((t, i) => hitOf.set(c.ids[t]!, p.hits![i]!));
  const fmtIds = (ids: number[]): string => (ids.length ? `[ ${ids.map((id) => (nrHits ? `${id}: '${hitOf.get(id) ?? 0}'` : `${id}`)).join(", ")} ]` : "[]");
  if (regression) {
    const ids = [...p.tids].map((t) => c.ids[t]!).sort((a, b) => a - b);
    return `- [ "${p.smarts}", ${formatFixed(p.stat, 4)}, ${fmtIds(ids)} ]`;
  }
  const values = [...new Set(c.activities)].sort((a, b) => a - b);
  const lists: string[] = [];
  for (let k = values.length - 1; k >= 0; k--) {
    const ids = [...p.tids].filter((t) => c.activities[t] === values[k]).map((t) => c.ids[t]!);
    lists.push(fmtIds(ids.sort((a, b) => a - b)));
  }
  return `- [ "${p.smarts}", ${formatFixed(p.stat, 4)}, ${lists.join(", ")} ]`;
}

/** fminer's LAZAR ("linfrag") line: `SMARTS<TAB>[ id id … ]`, each id followed by a space. */
export function lazarLine(p: MinedPattern, c: OrderedCompounds): string {
  const ids = [...p.tids].map((t) => c.ids[t]!).sort((a, b) => a - b);
  return `${p.smarts}\t[ ${ids.map((i) => `${i} `).join("")}]`;
}
