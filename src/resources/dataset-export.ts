/**
 * A dataset's CSV export and its feature list, read from the graphs in steps (the event loop is
 * served between steps; a dataset deleted meanwhile ends the read with NotFound).
 */
import { Readable } from "node:stream";
import type { StoreBackend } from "../store/backend.ts";
import type { Vocab } from "../store/vocab.ts";
import { csvFields, csvRows } from "../tabular/csv-write.ts";
import type { CompoundView, EntryView, FeatureTitle } from "./dataset-read.ts";
import type { EntryOrder } from "./entry-order.ts";
import { read } from "./reads.ts";

/** Every feature of a dataset in order, as URI and title, read in steps (a wide dataset has 50,000). */
export function featureList(store: StoreBackend, order: EntryOrder, uri: string, v: Vocab): Promise<FeatureTitle[]> {
  return order.features(uri, (offset, count, total) => read(store, v, "featureTitles", uri, offset, count, total));
}

/**
 * The column titles of a CSV export, each distinct, so that the file can be uploaded again (an
 * upload refuses two columns of one name). A prediction dataset names its predicted value as the
 * endpoint it predicts, and a training compound's measured value comes under the endpoint
 * itself: the predicted feature (`…/predicted/value`) gets " (predicted)" and the features of its
 * title " (measured)". Any title still repeated gets " (2)", " (3)", … in order.
 */
export function distinctTitles(features: readonly { readonly uri: string; readonly title: string }[]): string[] {
  const predicted = new Set(features.filter((f) => f.uri.endsWith("/predicted/value")).map((f) => f.title));
  const count = new Map<string, number>();
  for (const f of features) count.set(f.title, (count.get(f.title) ?? 0) + 1);
  const titles = features.map((f) => {
    if ((count.get(f.title) ?? 0) < 2 || !predicted.has(f.title)) return f.title;
    return `${f.title} ${f.uri.endsWith("/predicted/value") ? "(predicted)" : "(measured)"}`;
  });
  const used = new Set<string>();
  return titles.map((t) => {
    let out = t;
    for (let k = 2; used.has(out); k++) out = `${t} (${k})`;
    used.add(out);
    return out;
  });
}

/**
 * Values read per step of the CSV export (≈ 10–20 ms); the event loop is served between steps.
 * A step is a block of entries, and for very wide datasets a block of one entry's columns.
 */
const CSV_STEP_VALUES = 2000;

/**
 * A very wide dataset (one entry holds more values than a step) whose table (entries × features) has at most
 * this many cells is read once, column block by column block for all its entries, and held while
 * its rows are written: a 3 × 50,000 table read entry by entry made three times the reads, each
 * returning every entry's values of its columns (about 0.3 s a read on a SPARQL store, 63 s in all).
 */
const WIDE_TABLE_VALUES = 200_000;

/** Values per read of such a table's column blocks: under one page of a SPARQL store's default row limit (10,000). */
const WIDE_READ_VALUES = 9000;

/**
 * CSV text of `rows`, each row built as it is taken, in pieces of about CSV_STEP_VALUES cells
 * with a pause between pieces; a row of more cells goes out in parts of its line. Steps are sized
 * by values read, and a step of a sparse or very wide dataset holds many more cells: a 50,000-column
 * header written at once held the event loop for 73–160 ms (2026-11-28).
 */
async function* csvPieces(rows: Iterable<readonly string[]>, pause: () => Promise<void>): AsyncGenerator<string> {
  let batch: (readonly string[])[] = [];
  let cells = 0;
  for (const row of rows) {
    if (cells > 0 && cells + row.length > CSV_STEP_VALUES) {
      yield csvRows(batch);
      batch = [];
      cells = 0;
      await pause();
    }
    if (row.length <= CSV_STEP_VALUES) {
      batch.push(row);
      cells += row.length;
      continue;
    }
    for (let j = 0; j < row.length; j += CSV_STEP_VALUES) {
      if (j > 0) await pause();
      yield `${j > 0 ? "," : ""}${csvFields(row.slice(j, j + CSV_STEP_VALUES))}`;
    }
    yield "\n";
    await pause();
  }
  if (batch.length > 0) yield csvRows(batch);
}

/**
 * CSV export: the structure as SMILES (the row's own spelling; InChI when no SMILES is known),
 * then one column per feature. Streamed: the entry list is read once, then the values in steps
 * of about CSV_STEP_VALUES, each step written as it is ready, so the first rows go out at once
 * and the server holds one step in memory (a very wide dataset of at most WIDE_TABLE_VALUES cells
 * is one step). A dataset deleted during the export ends the stream
 * with an error (the client sees the transfer cut off, not a short file). Cells a spreadsheet
 * would run as formulas are neutralised (tabular/csv-write.ts).
 */
export async function datasetCsv(store: StoreBackend, order: EntryOrder, uri: string, vocab: Vocab): Promise<Readable> {
  const features = await featureList(store, order, uri, vocab);
  const lines = await order.lines(uri);
  const entries = lines.length;
  const perEntry = Math.max(1, store.graphSize(uri) / 3 / Math.max(1, entries));
  const wide = perEntry > CSV_STEP_VALUES;
  // A very wide dataset small enough in all is one step (WIDE_TABLE_VALUES).
  const whole = wide && entries * features.length <= WIDE_TABLE_VALUES;
  const entriesPerStep = whole ? Math.max(1, entries) : Math.max(1, Math.floor(CSV_STEP_VALUES / perEntry));
  // Columns in blocks only when one entry has more values than a step takes; a block's values
  // are then looked up from its features, in every entry (readEntryValues).
  const blocks: string[][] = [];
  const blockSize = wide ? Math.max(1, Math.floor((whole ? WIDE_READ_VALUES : CSV_STEP_VALUES) / Math.max(1, entries))) : features.length;
  for (let j = 0; j < features.length; j += blockSize) blocks.push(features.slice(j, j + blockSize).map((f) => f.uri));
  const pause = (): Promise<void> => order.pauseFor(uri);
  /**
   * The entries on some lines with their values and compounds: one read, or, when the dataset is
   * very wide, their refs, then the values block by block (a pause between blocks), then the compounds.
   */
  async function table(part: Int32Array): Promise<{ entries: EntryView[]; compounds: ReadonlyMap<string, CompoundView | null> }> {
    if (blocks.length <= 1) return read(store, vocab, "entryTable", uri, part, undefined, true);
    const refs = await read(store, vocab, "entryRefsOn", uri, part);
    const merged = refs.map(({ entry: _e, ...r }) => ({ ...r, values: new Map<string, readonly string[]>() }));
    for (const [k, columns] of blocks.entries()) {
      if (k > 0) await pause();
      (await read(store, vocab, "entryValues", uri, refs, { features: columns, totalEntries: entries, valuesPerEntry: perEntry })).forEach((e, i) => {
        for (const [f, vs] of e.values) merged[i]!.values.set(f, vs);
      });
    }
    const distinct = [...new Set(merged.map((e) => e.compound))];
    const found = await read(store, vocab, "compounds", distinct);
    return { entries: merged, compounds: new Map(distinct.map((c, i) => [c, found[i] ?? null])) };
  }
  async function* rows(): AsyncGenerator<string> {
    yield* csvPieces([["SMILES", ...distinctTitles(features)]], pause);
    for (let offset = 0; offset < entries; offset += entriesPerStep) {
      if (offset > 0) await pause();
      const step = await table(lines.slice(offset, offset + entriesPerStep));
      const cells = function* (): Generator<string[]> {
        for (const e of step.entries) {
          const c = step.compounds.get(e.compound);
          const s = c?.smiles ?? c?.inchi ?? e.compound;
          yield [e.smiles ?? s, ...features.map((f) => (e.values.get(f.uri) ?? []).join(" "))];
        }
      };
      yield* csvPieces(cells(), pause);
    }
  }
  return Readable.from(rows(), { objectMode: false });
}
