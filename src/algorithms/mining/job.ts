/**
 * Worker-side job of the substructure miners (orchestrated by operation.ts): mine the training
 * rows, then write the feature dataset (resources/feature-dataset.ts) — the way lazar's fminer
 * service turned fminer's output into features (what pValue and effect mean to a model:
 * docs/lazar-method.md "Features"):
 *
 * - one training instance per data entry with a value (fminer id = 1..N in line order), so
 *   duplicate measurements count several times;
 * - classes 1..k = the feature's accept values in their sorted order (tabular/typing.ts);
 *   regression when the feature is numeric only;
 * - per pattern a feature `<fd>/feature/{bbrc|last}-{n}` of type ot:Substructure with
 *   `ot:smarts`, `ot:pValue`, `ot:effect`, `qg:statistic` (the raw value), `qg:support`
 *   and `qg:classCount`; duplicate SMARTS are skipped;
 * - BBRC: the occurrences are the miner's; pValue = CDF of fminer's chi-square at df = 1 (as
 *   FMINER_PVALUES printed it), the Kuiper p in regression;
 * - LAST-PM: the occurrences come from matching each latent structure's SMARTS on the training
 *   rows, as lazar's LAST service did; pValue = CDF of fminer's chi-square at df = k − 1
 *   (liblast's ChisqTest), the Kuiper p in regression;
 * - one entry per compound (its first row), value 1 where the pattern occurs in that row (the
 *   number of occurrences with nr_hits).
 */
import { measureSmiles } from "../../chem/limits.ts";
import { loadRDKit, toolkitFailed, type RDKit } from "../../chem/rdkit.ts";
import { BadRequest, InternalError } from "../../errors.ts";
import { chiSquareCdf } from "../../mining/chisq.ts";
import { mineBbrc, SearchLimitError, type BbrcOptions, type MiningProgress } from "../../mining/index.ts";
import { mineLast, type LastOptions } from "../../mining/last/index.ts";
import { QuerySet } from "../../chem/smarts/index.ts";
import type { OrderedCompounds } from "../../mining/order.ts";
import { chisqCdf1, fminerChisq, fminerKuiper } from "../../mining/stats.ts";
import { EntryWriter, type EntryRow } from "../../resources/dataset.ts";
import { featureDatasetHeader, type ComputedFeature } from "../../resources/feature-dataset.ts";
import { dbl, int, NS, str, Vocab } from "../../store/vocab.ts";
import type { JobContext } from "../../tasks/job.ts";
import { distinctFeatures, minedHits } from "../lazar/featurise.ts";

export interface MiningRow {
  /** fminer id: 1-based position among the training rows. */
  readonly id: number;
  readonly smiles: string;
  /** The compound's standard InChI (stored at upload): fminer's order key, not computed again. */
  readonly inchi?: string;
  /** Class number 1..k, or the numeric value (regression). */
  readonly activity: number;
}

export type MinerOptions = { readonly miner: "bbrc"; readonly options: BbrcOptions } | { readonly miner: "last"; readonly options: LastOptions };

export type MiningInput = MinerOptions & {
  readonly rows: readonly MiningRow[];
  /** Values are hit counts (embeddings, as fminer's nr_hits counts them) instead of 1. */
  readonly nrHits: boolean;
  /** Accept values of the classes 1..k; empty for regression. */
  readonly classes: readonly string[];
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
};

export interface MiningOutput {
  readonly ntriples: Uint8Array;
  readonly features: number;
  /** Training rows the miner could not read, or past a limit (ids). */
  readonly dropped: readonly number[];
}

/** A feature dataset entry as the miner found it: the features (positions) it has, and their values. */
export interface MinedEntry {
  readonly line: number;
  readonly compound: string;
  readonly features: readonly number[];
  /** The values of `features` (hit counts), or absent when every value is 1. */
  readonly values?: readonly string[];
}

/**
 * The mined feature dataset before its entries are written: the N-Triples of the dataset node and
 * its features, and the entries (compact; `mine.entries` jobs write them in chunks, so that
 * writing uses every worker and the store loads each chunk as it comes: operation.ts).
 */
export interface MinedDataset extends Omit<MiningOutput, "ntriples"> {
  readonly header: Uint8Array;
  /** Feature names in position order (`<fd>/feature/{name}`). */
  readonly columns: readonly string[];
  readonly entries: readonly MinedEntry[];
}

export interface EntriesInput {
  readonly datasetUri: string;
  readonly base: string;
  readonly columns: readonly string[];
  readonly entries: readonly MinedEntry[];
}

/** N-Triples of some mined entries (the values of a feature dataset: numeric, 1 or the hit count). */
export function mineEntriesJob(input: EntriesInput): { ntriples: Uint8Array } {
  const writer = new EntryWriter(input.datasetUri, input.base, input.columns.map((name) => ({ name, numeric: true })));
  const rows: EntryRow[] = input.entries.map((e) => {
    const values = new Array<string | null>(input.columns.length).fill(null);
    e.features.forEach((j, k) => (values[j] = e.values?.[k] ?? "1"));
    return { line: e.line, compound: e.compound, values };
  });
  return { ntriples: writer.rows(rows) };
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length === 0 ? NaN : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * ot:effect for classification, lazar's rule: 1 + the class (0-based, ascending) whose share
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

/** A mined pattern with its occurrences (tids of the canonical order) and statistics. */
export interface Found {
  readonly smarts: string;
  readonly tids: ArrayLike<number>;
  /** The miner's raw statistic (chi-square or Kuiper p). */
  readonly stat: number;
  readonly pValue: number;
}

function classCounts(tids: ArrayLike<number>, c: OrderedCompounds, k: number): number[] {
  const counts = new Array<number>(k).fill(0);
  for (let i = 0; i < tids.length; i++) counts[c.activities[tids[i]!]! - 1]!++;
  return counts;
}

/**
 * The 400 for a search that reached its `max_visited` (mining/budget.ts), naming the parameter to
 * change first: in regression with trees, feature_type=paths (the search cannot prune there;
 * lazar mined paths for numeric endpoints); with backbone=false, backbone;
 * otherwise min_frequency.
 */
export function searchLimitError(input: MinerOptions, e: SearchLimitError): BadRequest {
  const minfreq = input.options.minfreq ?? 2;
  const head = `${input.miner === "bbrc" ? "BBRC" : "LAST-PM"} stopped: the search visited max_visited=${e.limit} patterns without finishing (${e.found} found so far)`;
  const more = `a min_frequency above ${minfreq} compounds, or a larger max_visited`;
  if (input.miner === "bbrc" && input.options.regression && input.options.type !== 1) {
    return new BadRequest(
      `${head}. A numeric endpoint cannot prune the search (the Kuiper test has no upper bound), so with feature_type=trees every tree found in at least ${minfreq} training compounds is visited. Use feature_type=paths (lazar's choice for numeric endpoints), or ${more}`,
      { field: "feature_type" },
    );
  }
  if (input.miner === "bbrc" && input.options.backbone === false) {
    return new BadRequest(`${head}. With backbone=false every significant pattern is searched. Use backbone=true, or ${more}`, { field: "backbone" });
  }
  return new BadRequest(`${head}. Use ${more}`, { field: "min_frequency" });
}

/**
 * The share of reading the rows in a mining job's progress: on LOAEL (998 compounds, paths)
 * reading took 3.7 s and the search 0.5 s; on Kazius (classification, trees) the search takes
 * most of the time. The search's own progress follows (mining/budget.ts).
 */
const ORDER_SHARE = 0.25;

/**
 * Mine the rows (classes 1…k or numeric activities): the ordered compounds and the patterns
 * found; `progress` gets the fraction done (reading the rows, then the search).
 */
export function mine(rdkit: RDKit, input: MinerOptions & Pick<MiningInput, "rows" | "classes">, progress?: (f: number) => void): { compounds: OrderedCompounds; found: Found[] } {
  try {
    return mineRows(rdkit, input, progress ? (p: MiningProgress) => progress(p.phase === "order" ? ORDER_SHARE * p.fraction : ORDER_SHARE + (1 - ORDER_SHARE) * p.fraction) : undefined);
  } catch (e) {
    if (e instanceof SearchLimitError) throw searchLimitError(input, e);
    throw e;
  }
}

function mineRows(rdkit: RDKit, input: MinerOptions & Pick<MiningInput, "rows" | "classes">, onProgress: ((p: MiningProgress) => void) | undefined): { compounds: OrderedCompounds; found: Found[] } {
  const activity = new Map(input.rows.map((r) => [r.id, r.activity]));
  const compounds = input.rows.map((r) => ({ id: r.id, smiles: r.smiles, ...(r.inchi !== undefined ? { inchi: r.inchi } : {}) }));
  const regression = input.classes.length === 0;
  if (input.miner === "bbrc") {
    const run = mineBbrc(rdkit, compounds, activity, { ...input.options, ...(onProgress ? { onProgress } : {}) });
    return { compounds: run.compounds, found: run.patterns.map((p) => ({ smarts: p.smarts, tids: p.tids, stat: p.stat, pValue: regression ? p.stat : chisqCdf1(p.stat) })) };
  }
  const run = mineLast(rdkit, compounds, activity, { ...input.options, occurrences: false, ...(onProgress ? { onProgress } : {}) });
  const c = run.compounds;
  // Occurrences on the miner's own encoding of the training rows (chem/smarts/), so that a
  // nitro group written N(=O)=O matches as it was mined (RDKit's matcher would see [N+][O-]).
  const set = new QuerySet(run.uniqueSmarts);
  const occurrences: number[][] = run.uniqueSmarts.map(() => []);
  c.graphs.forEach((g, t) => {
    for (const q of set.matching(g)) occurrences[q]!.push(t);
  });
  const k = input.classes.length;
  const sizes = regression ? [] : classCounts(c.activities.map((_, t) => t), c, k);
  const all = Float64Array.from(c.activities).sort();
  const found = run.uniqueSmarts.map((smarts, q): Found => {
    const tids = occurrences[q]!;
    if (regression) {
      const p = fminerKuiper(all, Float64Array.from(tids, (t) => c.activities[t]!));
      return { smarts, tids, stat: p, pValue: p };
    }
    const chi = fminerChisq(classCounts(tids, c, k), sizes, c.activities.length);
    return { smarts, tids, stat: chi, pValue: chiSquareCdf(chi, k - 1) };
  });
  return { compounds: c, found };
}

/**
 * `mine` with this thread's RDKit, guarded: rows whose SMILES is past a limit (chem/limits.ts)
 * are left out and listed in `refused`; an RDKit failure fails the job (the instance is replaced).
 */
export async function mineGuarded(input: MinerOptions & Pick<MiningInput, "rows" | "classes">, progress?: (f: number) => void): Promise<{ compounds: OrderedCompounds; found: Found[]; refused: number[] }> {
  const refused = input.rows.filter((r) => measureSmiles(r.smiles).refusal !== null).map((r) => r.id);
  const rows = refused.length === 0 ? input.rows : input.rows.filter((r) => !refused.includes(r.id));
  const rdkit = await loadRDKit();
  try {
    return { ...mine(rdkit, { ...input, rows }, progress), refused };
  } catch (e) {
    if (toolkitFailed(rdkit, e)) throw new InternalError("RDKit failed while reading the training structures (it was restarted)");
    throw e;
  }
}

/** The mining job as one piece: mine, then write the whole feature dataset. */
export async function mineJob(input: MiningInput, ctx: JobContext): Promise<MiningOutput> {
  const mined = await mineFeaturesJob(input, ctx);
  const { ntriples } = mineEntriesJob({ datasetUri: input.dataset.uri, base: input.dataset.base, columns: mined.columns, entries: mined.entries });
  return { ntriples: Buffer.concat([mined.header, ntriples]), features: mined.features, dropped: mined.dropped };
}

/** Mine; the feature dataset's header written, its entries not yet (see MinedDataset). */
export async function mineFeaturesJob(input: MiningInput, ctx: JobContext): Promise<MinedDataset> {
  ctx.progress(0.01);
  const run = await mineGuarded(input, (f) => ctx.progress(0.01 + 0.89 * f));
  ctx.progress(0.9);
  const regression = input.classes.length === 0;
  const v = new Vocab(input.dataset.base);
  const ids = run.compounds.ids;
  const k = input.classes.length;
  const sizes = k > 0 ? classCounts(run.compounds.activities.map((_, t) => t), run.compounds, k) : [];
  const allMedian = regression ? median(run.compounds.activities) : NaN;
  const kept = distinctFeatures(run.found);
  const features: ComputedFeature[] = kept.map((p, i) => {
    const props: [string, ReturnType<typeof str>][] = [
      [`${NS.ot}smarts`, str(p.smarts)],
      [`${NS.ot}pValue`, dbl(p.pValue)],
      [v.qg.statistic.value, dbl(p.stat)],
      [v.qg.support.value, int(p.tids.length)],
    ];
    if (regression) {
      const values = Array.from(p.tids, (t) => run.compounds.activities[t]!);
      props.push([`${NS.ot}effect`, str(allMedian >= median(values) ? "activating" : "deactivating")]);
    } else {
      const counts = classCounts(p.tids, run.compounds, k);
      props.push([`${NS.ot}effect`, int(classEffect(counts, sizes))]);
      input.classes.forEach((c, j) => props.push([v.qg.classCount.value, str(`${c}=${counts[j] ?? 0}`)]));
    }
    return { name: `${input.miner}-${i + 1}`, title: p.smarts, numeric: true, types: [`${NS.ot}Substructure`], properties: props };
  });
  // Each training row's features and hits (lazar/featurise.ts: the same as a model's and a fold's).
  const hitsOf = minedHits(kept, run.compounds, input.nrHits);
  const tidOf = new Map(ids.map((id, t) => [id, t]));
  const entries = input.entries.map((e): MinedEntry => {
    const t = tidOf.get(e.id);
    const h = t === undefined ? [] : hitsOf(t);
    return { line: e.line, compound: e.compound, features: h.map((x) => x.feature), ...(input.nrHits && h.length > 0 ? { values: h.map((x) => String(x.hits)) } : {}) };
  });
  const header = featureDatasetHeader({ ...input.dataset, features, entryCount: input.entries.length, compounds: input.entries.length });
  return { header, columns: features.map((f) => f.name), entries, features: features.length, dropped: [...run.refused, ...run.compounds.dropped].sort((a, b) => a - b) };
}
