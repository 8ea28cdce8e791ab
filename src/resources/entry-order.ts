/**
 * The entries of a large dataset in their order (file line), read without holding the event
 * loop. Sorting them takes one query over every entry: for a 93,000-row dataset, a page of 50
 * rows cost 0.5 s of CPU and all the rows 1.7 s, on a busy machine, each time. Instead the
 * dataset's line numbers are found once by looking up candidate numbers in blocks (each a VALUES
 * lookup of BLOCK numbers, with a pause between blocks) until all its entries are found, and kept (as an
 * Int32Array: 4 bytes an entry) for the next request; a page or step then looks up just its
 * lines. Each step is one read of the store (resources/reads.ts; the queries are dataset-read.ts's),
 * so that, where the store has a thread of its own, a step does not hold that thread long either.
 */
import { nextTurn } from "../threads/turns.ts";
import { NotFound } from "../errors.ts";
import type { StoreBackend } from "../store/backend.ts";
import type { Vocab } from "../store/vocab.ts";
import type { ColumnRow, EntryRef, OrderedCompound } from "./dataset-read.ts";
import { read } from "./reads.ts";

/** Line numbers looked up per step. */
const BLOCK = 2000;
/** Datasets whose order is kept. */
const KEPT = 8;
/** Entries read per step of `inBlocks` (≈ 10–20 ms). */
const COLUMN_BLOCK = 500;

/** Features read per step of `EntryOrder.features` (≈ 10–20 ms each). */
const FEATURES_PER_STEP = 500;

export class EntryOrder {
  private readonly kept = new Map<string, { key: string; lines: Int32Array }>();

  constructor(
    readonly store: StoreBackend,
    readonly v: Vocab,
  ) {}

  /** The entries `limit` from `offset` in line order. */
  async refs(uri: string, offset: number, limit: number): Promise<EntryRef[]> {
    return this.refsOn(uri, (await this.lines(uri)).subarray(offset, offset + limit));
  }

  /** The dataset's compounds in the order of their first line (each once), in steps. */
  async *compounds(uri: string): AsyncGenerator<string> {
    const lines = await this.lines(uri);
    const seen = new Set<string>();
    for (let i = 0; i < lines.length; i += BLOCK) {
      if (i > 0) await this.pauseFor(uri);
      for (const r of await this.refsOn(uri, lines.subarray(i, i + BLOCK))) {
        if (seen.has(r.compound)) continue;
        seen.add(r.compound);
        yield r.compound;
      }
    }
  }

  /** The line numbers of a dataset's entries, ascending (found once, then kept). */
  async lines(uri: string): Promise<Int32Array> {
    const at = this.store.storedBody(uri);
    const key = `${this.store.graphSize(uri)} ${at?.path}:${at?.offset}`;
    const known = this.kept.get(uri);
    if (known?.key === key) {
      this.kept.delete(uri);
      this.kept.set(uri, known);
      return known.lines;
    }
    // Scan until as many entries as the dataset states are found; the largest line (a query over
    // every entry, ~0.15 s for 93,000) is asked only when it states none, or the scan runs far past it.
    const stated = await read(this.store, this.v, "statedEntries", uri);
    const target = stated === undefined ? Infinity : stated;
    let max = stated === undefined ? await read(this.store, this.v, "maxEntryLine", uri) : Infinity;
    const found: number[] = [];
    for (let from = 0; from <= max && found.length < target; from += BLOCK) {
      if (from > 0) await this.pauseFor(uri);
      if (max === Infinity && from > 4 * target + 10_000) max = await read(this.store, this.v, "maxEntryLine", uri);
      found.push(...(await read(this.store, this.v, "entryLinesIn", uri, from, Math.min(BLOCK, max + 1 - from))));
    }
    const lines = Int32Array.from(found).sort();
    this.kept.set(uri, { key, lines });
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
    return lines;
  }

  /** The entries on these lines (a part of `lines(uri)`), in line order. */
  refsOn(uri: string, lines: Int32Array): Promise<EntryRef[]> {
    // A copy of the part: a view would carry its whole buffer to the store's thread.
    return lines.length === 0 ? Promise.resolve([]) : read(this.store, this.v, "entryRefsOn", uri, lines.slice());
  }

  /**
   * The dataset's entries in blocks of COLUMN_BLOCK lines, in line order: `readBlock(lines)` looks up
   * one block (a query naming its lines), with a pause between blocks.
   */
  async inBlocks<T extends { readonly line: number }>(uri: string, readBlock: (lines: string) => Promise<T[]>): Promise<T[]> {
    const lines = await this.lines(uri);
    const out: T[] = [];
    for (let i = 0; i < lines.length; i += COLUMN_BLOCK) {
      if (i > 0) await this.pauseFor(uri);
      out.push(...(await readBlock(lines.subarray(i, i + COLUMN_BLOCK).join(" "))).sort((a, b) => a.line - b.line));
    }
    return out;
  }

  /**
   * Every feature of dataset `uri` in its order, read in pages of FEATURES_PER_STEP with a pause
   * between them (a wide dataset has 50,000): `page(offset, count, total)` reads one
   * (dataset-read.ts readFeaturePage for the whole description, readFeatureTitles for less).
   */
  async features<T>(uri: string, page: (offset: number, count: number, total: number) => Promise<T[]>): Promise<T[]> {
    const total = (await read(this.store, this.v, "datasetInfo", uri)).featureCount;
    const out: T[] = [];
    for (let offset = 0; offset < total; offset += FEATURES_PER_STEP) {
      if (offset > 0) await this.pauseFor(uri);
      out.push(...(await page(offset, FEATURES_PER_STEP, total)));
    }
    return out;
  }

  /** Serve the event loop between two steps of reading `uri`; NotFound when it was deleted meanwhile. */
  async pauseFor(uri: string): Promise<void> {
    await nextTurn();
    if (!this.store.has(uri)) throw new NotFound(`${uri} was deleted while it was being read`);
  }
}

/**
 * The value of one feature in every data entry that has one, in line order (one row per value),
 * with each entry's compound: the training data of a miner, a model or a cross-validation. Read
 * in steps of COLUMN_BLOCK entries with a pause between them, on the lines `order` knows: in one
 * piece, Kazius (4,069 rows) held the event loop for 0.5–0.6 s (one query, then one lookup per
 * compound), on a quiet machine.
 */
export async function readColumn(order: EntryOrder, uri: string, feature: string): Promise<ColumnRow[]> {
  const { store, v } = order;
  return order.inBlocks(uri, (lines) => read(store, v, "columnOn", uri, feature, lines));
}

/**
 * A dataset's compounds in the order of their first line, each once, with their structures: the
 * compounds to describe or to predict. Read in steps of COLUMN_BLOCK entries, as `readColumn`.
 */
export async function readCompoundsInOrder(order: EntryOrder, uri: string): Promise<OrderedCompound[]> {
  const { store, v } = order;
  const rows = await order.inBlocks(uri, (lines) => read(store, v, "compoundsOn", uri, lines));
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.compound) && (seen.add(r.compound), true));
}
