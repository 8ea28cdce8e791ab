/**
 * LAST-PM entry point (docs/miners.md "LAST-PM"): compounds + activities → latent structures
 * (weighted walks), their GraphML as liblast prints it and their LAST-SMARTS as last-utils
 * converts them (mode `nls`, as lazar used it). Mirrors `mineBbrc` in ../index.ts: fminer's
 * canonical compound order and graph database are shared with the BBRC miner.
 */

import type { RDKit } from "../../chem/rdkit.ts";
import { orderProgress } from "../budget.ts";
import { Database } from "../database.ts";
import { canonicalOrder, type InputCompound, type OrderedCompounds } from "../order.ts";
import { LastSearch, type LastSearchOptions } from "./search.ts";
import { writeGraphml } from "./graphml.ts";
import { lastSmarts, type LastSmartsOptions } from "./smarts.ts";
import type { Walk } from "./walk.ts";

export type { LastSearchOptions } from "./search.ts";
export type { LastSmartsOptions, LastSmartsMode } from "./smarts.ts";
export { Walk } from "./walk.ts";
export { readGraphml, writeGraphml } from "./graphml.ts";
export { lastSmarts } from "./smarts.ts";

export interface LastOptions extends LastSearchOptions {
  /** Aromatic perception (default true; must match how compounds are encoded). */
  aromatic?: boolean;
  smarts?: LastSmartsOptions;
  /**
   * Also match every LAST-SMARTS on the training compounds (liblast itself reports no
   * occurrences; default false).
   */
  occurrences?: boolean;
}

export interface LatentStructure {
  /** GraphML graph id (1-based, output order). */
  readonly id: number;
  /** Activating class value (classification) or 1/0 (regression: above/below the "median"). */
  readonly activating: number;
  /** Number of merged ground features. */
  readonly hops: number;
  readonly walk: Walk;
  readonly smarts: string;
  /** tids (canonical order) whose molecule matches the SMARTS, when requested. */
  tids?: number[];
}

export interface LastRun {
  readonly compounds: OrderedCompounds;
  readonly latent: LatentStructure[];
  readonly graphml: string;
  /** Distinct SMARTS in first-appearance order (lazar's service kept each SMARTS once). */
  readonly uniqueSmarts: string[];
  /** Ground features visited (diagnostics). */
  readonly visited: number;
}

export function mineLast(
  rdkit: RDKit,
  compounds: readonly InputCompound[],
  activity: ReadonlyMap<number, number>,
  options: LastOptions = {},
): LastRun {
  const ordered = canonicalOrder(rdkit, compounds, activity, options.aromatic ?? true, orderProgress(options));
  const minfreq = options.minfreq ?? 2;
  const db = new Database(ordered.graphs, minfreq);
  const search = new LastSearch(db, ordered.activities, { ...options, minfreq });
  const walks = search.mineAll();
  const latent: LatentStructure[] = walks.map((w, i) => ({
    id: i + 1,
    activating: w.activating,
    hops: w.hops,
    walk: w,
    smarts: lastSmarts(w, options.smarts),
  }));
  const uniqueSmarts = [...new Set(latent.map((l) => l.smarts))];
  if (options.occurrences) {
    const hits = matchSmarts(rdkit, uniqueSmarts, ordered, compounds);
    for (const l of latent) l.tids = hits.get(l.smarts);
  }
  return { compounds: ordered, latent, graphml: writeGraphml(walks), uniqueSmarts, visited: search.visited };
}

/**
 * Occurrences of LAST-SMARTS on the training compounds: tids whose molecule matches.
 * RDKit's SMARTS matcher stands in for OpenBabel's.
 */
export function matchSmarts(rdkit: RDKit, smarts: readonly string[], ordered: OrderedCompounds, compounds: readonly InputCompound[]): Map<string, number[]> {
  const smilesOf = new Map(compounds.map((c) => [c.id, c.smiles]));
  const mols = ordered.ids.map((id) => rdkit.get_mol(smilesOf.get(id) ?? ""));
  const out = new Map<string, number[]>();
  try {
    for (const s of smarts) {
      const q = rdkit.get_qmol(s);
      const tids: number[] = [];
      if (q !== null) {
        try {
          mols.forEach((m, t) => {
            if (m !== null && m.get_substruct_match(q) !== "{}") tids.push(t);
          });
        } finally {
          q.delete();
        }
      }
      out.set(s, tids);
    }
  } finally {
    for (const m of mols) m?.delete();
  }
  return out;
}
