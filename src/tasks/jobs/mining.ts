/**
 * Worker-side job of the substructure miners (orchestrated by tasks/mine.ts): mine the training
 * rows, then write the feature dataset (resources/feature-dataset.ts) — the way lazar's fminer
 * service turned fminer's output into features (spec miners.md §7.1):
 *
 * - one training instance per data entry with a value (fminer id = 1..N in line order), so
 *   duplicate measurements count several times;
 * - classes 1..k = the feature's accept values in their documented order; regression when the
 *   feature is numeric only;
 * - per pattern a feature `<fd>/feature/{bbrc|last}-{n}` of type ot:Substructure with
 *   `ot:smarts`, `ot:pValue` (CDF of fminer's chi-square, df = 1, as FMINER_PVALUES printed it;
 *   the Kuiper p in regression), `ot:effect` (§7.1), `qg:statistic` (the raw value),
 *   `qg:support` and `qg:classCount`; duplicate SMARTS are skipped;
 * - one entry per compound (its first row), value 1 where the pattern occurs in that row.
 */
import { loadRDKit } from "../../chem/rdkit.ts";
import { mineBbrc, type BbrcOptions, type MinedPattern } from "../../mining/index.ts";
import { chisqCdf1 } from "../../mining/stats.ts";
import { featureDatasetNTriples, type ComputedFeature } from "../../resources/feature-dataset.ts";
import { dbl, int, NS, str, Vocab } from "../../store/vocab.ts";
import type { JobContext } from "./context.ts";

export interface MiningRow {
  /** fminer id: 1-based position among the training rows. */
  readonly id: number;
  readonly smiles: string;
  /** Class number 1..k, or the numeric value (regression). */
  readonly activity: number;
}

export interface MiningInput {
  readonly miner: "bbrc";
  readonly rows: readonly MiningRow[];
  /** Accept values of the classes 1..k; empty for regression. */
  readonly classes: readonly string[];
  readonly options: BbrcOptions;
  /** The feature dataset to write: one entry per compound, from the row with `id`. */
  readonly entries: readonly { readonly line: number; readonly compound: string; readonly id: number }[];
  readonly dataset: {
    readonly uri: string;
    readonly base: string;
    readonly title: string;
    readonly source: string;
    readonly algorithm: string;
    readonly parameters: readonly (readonly [string, string])[];
    readonly created: Date;
  };
}

export interface MiningOutput {
  readonly ntriples: Uint8Array;
  readonly features: number;
  /** Training rows the miner could not read (ids). */
  readonly dropped: readonly number[];
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * ot:effect for classification (miners.md §7.1): 1 + the class (0-based, ascending) whose share
 * of the pattern's occurrences exceeds its share of the data by the largest relative margin.
 */
export function classEffect(occurrences: readonly number[], classSizes: readonly number[]): number {
  const occ = occurrences.reduce((a, b) => a + b, 0);
  const n = classSizes.reduce((a, b) => a + b, 0);
  let best = -Infinity;
  let effect = 0;
  occurrences.forEach((o, i) => {
    const actual = o / occ;
    const expected = classSizes[i]! / n;
    if (actual > expected && (actual - expected) / actual > best) {
      best = (actual - expected) / actual;
      effect = i + 1;
    }
  });
  return effect;
}

export async function mineJob(input: MiningInput, ctx: JobContext): Promise<MiningOutput> {
  const rdkit = await loadRDKit();
  ctx.progress(0.01);
  const activity = new Map(input.rows.map((r) => [r.id, r.activity]));
  const run = mineBbrc(rdkit, input.rows.map((r) => ({ id: r.id, smiles: r.smiles })), activity, input.options);
  ctx.progress(0.9);
  const regression = input.classes.length === 0;
  const v = new Vocab(input.dataset.base);
  const ids = run.compounds.ids;
  const sizes = input.classes.map((_, c) => run.compounds.activities.filter((a) => a === c + 1).length);
  const allMedian = regression ? median(run.compounds.activities) : NaN;
  const seen = new Set<string>();
  const kept: MinedPattern[] = [];
  for (const p of run.patterns) {
    if (seen.has(p.smarts)) continue;
    seen.add(p.smarts);
    kept.push(p);
  }
  const features: ComputedFeature[] = kept.map((p, i) => {
    const props: [string, ReturnType<typeof str>][] = [
      [`${NS.ot}smarts`, str(p.smarts)],
      [`${NS.ot}pValue`, dbl(regression ? p.stat : chisqCdf1(p.stat))],
      [v.qg.statistic.value, dbl(p.stat)],
      [v.qg.support.value, int(p.tids.length)],
    ];
    if (regression) {
      const values = [...p.tids].map((t) => run.compounds.activities[t]!);
      props.push([`${NS.ot}effect`, str(allMedian >= median(values) ? "activating" : "deactivating")]);
    } else {
      props.push([`${NS.ot}effect`, int(classEffect(p.classCounts, sizes))]);
      input.classes.forEach((c, k) => props.push([v.qg.classCount.value, str(`${c}=${p.classCounts[k] ?? 0}`)]));
    }
    return { name: `${input.miner}-${i + 1}`, title: p.smarts, numeric: true, types: [`${NS.ot}Substructure`], properties: props };
  });
  // Which feature occurs in which training row (fminer id).
  const occurs = new Map<number, number[]>();
  kept.forEach((p, j) => {
    for (const t of p.tids) {
      const id = ids[t]!;
      const list = occurs.get(id);
      if (list) list.push(j);
      else occurs.set(id, [j]);
    }
  });
  const entries = input.entries.map((e) => {
    const values: (string | null)[] = new Array<string | null>(features.length).fill(null);
    for (const j of occurs.get(e.id) ?? []) values[j] = "1";
    return { line: e.line, compound: e.compound, values };
  });
  const ntriples = featureDatasetNTriples({ ...input.dataset, features, entries, compounds: input.entries.length });
  return { ntriples, features: features.length, dropped: run.compounds.dropped };
}
