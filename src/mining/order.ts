/**
 * fminer's canonical compound order (the order of the tids the miners number compounds by).
 *
 * The library buffers compounds and inserts them sorted by the string `InChI + "-" + counter`
 * (std::map order = byte-wise string order; counter = 0-based insertion number), so duplicate
 * structures are kept and the input file order does not matter. Compounds without an activity
 * are dropped; activities without a compound are ignored.
 */

import type { RDKit } from "../chem/rdkit.ts";
import { encodeGraph, encodeSmiles, type LabelledGraph } from "../chem/labelled-graph.ts";

export interface InputCompound {
  /** Positive integer id printed in the output lists. */
  readonly id: number;
  readonly smiles: string;
  /**
   * The compound's standard InChI when already known (the service stores it for every
   * compound): then it is not computed again, and the SMILES is parsed only for its graph.
   */
  readonly inchi?: string;
}

export interface OrderedCompounds {
  /** Original ids in canonical order (tid → id). */
  readonly ids: number[];
  readonly graphs: LabelledGraph[];
  /** Activity per tid. */
  readonly activities: number[];
  /** Ids that could not be parsed or had no activity. */
  readonly dropped: number[];
}

function byteLess(a: string, b: string): number {
  // InChI strings are ASCII, where UTF-16 order = byte order.
  return a < b ? -1 : a > b ? 1 : 0;
}

export function canonicalOrder(
  rdkit: RDKit,
  compounds: readonly InputCompound[],
  activity: ReadonlyMap<number, number>,
  aromatic = true,
  /** Called every 64 compounds read with the fraction read (the reading takes the time). */
  onProgress?: (fraction: number) => void,
): OrderedCompounds {
  const rows: { key: string; id: number; graph: LabelledGraph; act: number }[] = [];
  const dropped: number[] = [];
  compounds.forEach((c, counter) => {
    if (onProgress && counter % 64 === 0) onProgress(counter / compounds.length);
    const act = activity.get(c.id);
    const enc = act === undefined ? null : c.inchi !== undefined ? { graph: encodeGraph(rdkit, c.smiles, aromatic), inchi: c.inchi } : encodeSmiles(rdkit, c.smiles, aromatic);
    if (enc === null || enc.graph === null || act === undefined) {
      dropped.push(c.id);
      return;
    }
    rows.push({ key: `${enc.inchi}-${counter}`, id: c.id, graph: enc.graph, act });
  });
  rows.sort((x, y) => byteLess(x.key, y.key));
  return { ids: rows.map((r) => r.id), graphs: rows.map((r) => r.graph), activities: rows.map((r) => r.act), dropped };
}

/** Parse fminer's `id<TAB>smiles` lines. */
export function parseSmiFile(text: string): InputCompound[] {
  const out: InputCompound[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(\d+)\s+(\S+)/.exec(line);
    if (m) out.push({ id: Number(m[1]), smiles: m[2]! });
  }
  return out;
}

/** Parse fminer's `id<TAB>endpoint<TAB>value` activity lines (the endpoint may be quoted). */
export function parseActivityFile(text: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const line of text.split(/\r?\n/)) {
    const f = line.trim().split("\t");
    if (f.length < 3) continue;
    const id = Number(f[0]);
    const v = Number(f[f.length - 1]);
    if (Number.isFinite(id) && Number.isFinite(v)) out.set(id, v);
  }
  return out;
}
