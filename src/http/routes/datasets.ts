/**
 * /dataset, /dataset/{id}, /dataset/{id}/feature/{name}, /dataset/{id}/compounds and /features
 * (issue "Service foundation" §6; spec lazar.md §1). Upload = multipart field `file` or a raw
 * `text/csv` body → 202 + task; the task's result is the dataset.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import { Readable } from "node:stream";
import { BadRequest, Conflict, NotFound } from "../../errors.ts";
import { describeInGraph, readCompound, readDatasetInfo, readDatasetTitle, readEntryValues, readFeatureOf, readFeaturePage, readFeatureTitles, type EntryRef, type EntryView, type FeatureTitle } from "../../resources/dataset-read.ts";
import { EntryOrder } from "../../resources/entry-order.ts";
import { readCreator } from "../../resources/creator.ts";
import { encodeSegment, isId } from "../../resources/uris.ts";
import { csvRows } from "../../tabular/csv-write.ts";
import type { Deps } from "../deps.ts";
import { COLUMNS, datasetHtml, datasetListHtml, featureHtml } from "../html/dataset.ts";
import { readPage, ROWS } from "../paging.ts";
import { collectionReps, rdfReps, respond, uriList } from "../respond.ts";
import { storedSource, textSource } from "../render-rdf.ts";
import { ot } from "../../store/vocab.ts";
import { respondTask } from "./tasks.ts";
import { readUpload, uploadLimits } from "../upload.ts";
import { readParams } from "../params.ts";
import { requireOwner } from "../auth.ts";
import { parseParams } from "../../resources/params.ts";
import { PC_OF_RESOURCE } from "../../algorithms/descriptors/spec.ts";
import { describeDataset } from "../../algorithms/descriptors/index.ts";
import { submitUpload } from "../../algorithms/upload/index.ts";

/** Cells (rows × columns) one HTML page of a dataset shows at most (≈ 5 µs each to read and write). */
const MAX_CELLS = 25_000;

export function registerDatasets(router: Router, deps: Deps): void {
  const { store, vocab, uris, tasks } = deps;
  const valuesPerEntry = (uri: string, entries: number): number => store.graphSize(uri) / 3 / Math.max(1, entries);
  const order = new EntryOrder(store, vocab);
  /** A dataset's compounds in the order of their first line, one URI a line, streamed. */
  const compoundList = (uri: string): Readable =>
    Readable.from(
      (async function* () {
        for await (const c of order.compounds(uri)) yield `${c}\r\n`;
      })(),
    );

  const datasetUri = (ctx: Context): string => {
    const id = String(ctx.params.id);
    const uri = uris.dataset(id);
    if (!isId(id) || !store.has(uri)) throw new NotFound(`no dataset ${uri}`);
    return uri;
  };

  router.get("/dataset", async (ctx) => {
    const list = store.graphsWithPrefix(`${uris.datasets()}/`).filter((g) => isId(g.slice(uris.datasets().length + 1))).sort();
    const html = (): string => {
      const p = readPage(ctx.query, { ...ROWS, items: "datasets" }, list.length);
      const titled = list.slice(p.offset, p.offset + p.count).map((uri) => ({ uri, title: readDatasetTitle(store.ox, uri) }));
      return datasetListHtml(titled, p, vocab.base);
    };
    await respond(ctx, [...collectionReps(uris.datasets(), list, ot.Dataset, deps), ["text/html", html]]);
  });

  router.post("/dataset", async (ctx) => {
    // A full task queue refuses before the body is read; the intake checks size, form and limits.
    tasks.admit();
    const file = await readUpload(ctx, deps.config);
    const bytes = new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
    const t = await submitUpload({ bytes, fileName: file.fileName }, uploadLimits(deps.config), deps);
    await respondTask(ctx, t, deps);
  });

  router.get("/dataset/:id", async (ctx) => {
    const uri = datasetUri(ctx);
    await respond(ctx, [
      ...rdfReps(() => storedSource(store, uri), deps),
      ["text/html", async () => {
        const summary = readDatasetInfo(store.ox, uri, vocab);
        const lines = await order.lines(uri);
        const rows = readPage(ctx.query, ROWS, lines.length);
        const columns = readPage(ctx.query, COLUMNS, summary.featureCount);
        if (rows.size * columns.size > MAX_CELLS) {
          throw new BadRequest(`a page shows at most ${MAX_CELLS} cells: page_size × column_page_size is ${rows.size} × ${columns.size}; make one of them smaller`, { field: "page_size" });
        }
        const features = readFeaturePage(store.ox, uri, vocab, columns.offset, columns.size, summary.featureCount);
        const refs = order.refsOn(uri, lines.subarray(rows.offset, rows.offset + rows.size));
        const entries = readEntryValues(store.ox, uri, refs, { features: features.map((f) => f.uri), totalEntries: summary.entries, valuesPerEntry: valuesPerEntry(uri, summary.entries) });
        const compounds = new Map(entries.map((e) => [e.compound, readCompound(store.ox, e.compound, vocab)]));
        return datasetHtml({ summary, features, entries, compounds, rows, columns }, vocab.base);
      }],
      ["text/csv", () => datasetCsv(deps, order, uri)],
      ["text/uri-list", () => compoundList(uri)],
    ]);
  });

  router.get("/dataset/:id/compounds", async (ctx) => {
    const uri = datasetUri(ctx);
    await respond(ctx, [["text/uri-list", () => compoundList(uri)]]);
  });

  router.get("/dataset/:id/features", async (ctx) => {
    const uri = datasetUri(ctx);
    await respond(ctx, [["text/uri-list", async () => uriList((await featureList(deps, order, uri)).map((f) => f.uri))]]);
  });

  router.get("/dataset/:id/feature/:name", async (ctx) => {
    const uri = datasetUri(ctx);
    // The segment as sent (a feature URI exactly, e.g. `(..)` of the name ".."), else the
    // decoded name as the service writes it (a client may percent-encode differently).
    const raw = ctx.path.slice(ctx.path.lastIndexOf("/") + 1);
    const fUri = `${uri}/feature/${encodeSegment(String(ctx.params.name))}`;
    const asSent = /^[A-Za-z0-9\-._~%!$&'()*+,;=:@]+$/.test(raw) ? readFeatureOf(store.ox, uri, `${uri}/feature/${raw}`, vocab) : null;
    const feature = asSent ?? readFeatureOf(store.ox, uri, fUri, vocab);
    if (!feature) throw new NotFound(`no feature ${fUri}`);
    await respond(ctx, [...rdfReps(() => textSource(describeInGraph(store.ox, feature.uri, uri)), deps), ["text/html", () => featureHtml(feature, uri, vocab.base)], ["text/uri-list", () => uriList([feature.uri])]]);
  });

  router.post("/dataset/:id/pc", async (ctx) => {
    const uri = datasetUri(ctx);
    const params = parseParams(PC_OF_RESOURCE, await readParams(ctx));
    const t = await describeDataset(uri, params, `${uris.algorithms()}/pc`, deps);
    await respondTask(ctx, t, deps);
  });

  router.delete("/dataset/:id", async (ctx) => {
    const uri = datasetUri(ctx);
    requireOwner(ctx, readCreator(store.ox, uri, vocab), uri, "delete");
    // A model predicts from its training and feature datasets: they stay while it exists.
    const users = store.ox.query(
      `SELECT DISTINCT ?m WHERE { GRAPH ?m { ?m <http://www.opentox.org/api/1.1#trainingDataset>|<http://www.opentox.org/api/1.1#featureDataset> <${uri}> } } ORDER BY ?m`,
    ) as Map<string, { value: string }>[];
    if (users.length > 0) {
      const models = users.map((r) => r.get("m")!.value);
      throw new Conflict(`${uri} is the training or feature dataset of ${models.length} model${models.length === 1 ? "" : "s"} (${models.slice(0, 5).join(", ")}${models.length > 5 ? ", …" : ""}); delete ${models.length === 1 ? "it" : "them"} first`, { field: "dataset" });
    }
    await store.commit([{ graph: uri, delete: true }]);
    await respond(ctx, [["text/plain", () => `deleted ${uri}\n`], ["text/uri-list", () => uriList([uri])]]);
  });
}

/** Features read per step of a feature list; the event loop is served between steps. */
const FEATURES_PER_STEP = 1000;

/** Every feature of a dataset in order, as URI and title, read in steps (a wide dataset has 50,000). */
async function featureList(deps: Deps, order: EntryOrder, uri: string): Promise<FeatureTitle[]> {
  const { store, vocab } = deps;
  const total = readDatasetInfo(store.ox, uri, vocab).featureCount;
  const out: FeatureTitle[] = [];
  for (let offset = 0; offset < total; offset += FEATURES_PER_STEP) {
    if (offset > 0) await order.pauseFor(uri);
    out.push(...readFeatureTitles(store.ox, uri, vocab, offset, FEATURES_PER_STEP, total));
  }
  return out;
}

/**
 * Values read per step of the CSV export (≈ 10–20 ms); the event loop is served between steps.
 * A step is a block of entries, and for very wide datasets a block of one entry's columns.
 */
const CSV_STEP_VALUES = 2000;

/**
 * CSV export: the structure as SMILES (the row's own spelling; InChI when no SMILES is known),
 * then one column per feature. Streamed: the entry list is read once, then the values in steps
 * of about CSV_STEP_VALUES, each step written as it is ready, so the first rows go out at once
 * and the server holds one step in memory. A dataset deleted during the export ends the stream
 * with an error (the client sees the transfer cut off, not a short file). Cells a spreadsheet
 * would run as formulas are neutralised (tabular/csv-write.ts).
 */
async function datasetCsv(deps: Deps, order: EntryOrder, uri: string): Promise<Readable> {
  const { store, vocab } = deps;
  const features = await featureList(deps, order, uri);
  const lines = await order.lines(uri);
  const entries = lines.length;
  const perEntry = Math.max(1, store.graphSize(uri) / 3 / Math.max(1, entries));
  const entriesPerStep = Math.max(1, Math.floor(CSV_STEP_VALUES / perEntry));
  // Columns in blocks only when one entry has more values than a step takes; a block's values
  // are then looked up from its features, in every entry (readEntryValues).
  const blocks: string[][] = [];
  const blockSize = perEntry > CSV_STEP_VALUES ? Math.max(1, Math.floor(CSV_STEP_VALUES / Math.max(1, entries))) : features.length;
  for (let j = 0; j < features.length; j += blockSize) blocks.push(features.slice(j, j + blockSize).map((f) => f.uri));
  const pause = (): Promise<void> => order.pauseFor(uri);
  /** The values of some entries, in column blocks when the dataset is very wide. */
  async function values(block: readonly EntryRef[]): Promise<EntryView[]> {
    if (blocks.length <= 1) return readEntryValues(store.ox, uri, block);
    const merged = block.map(({ entry: _e, ...r }) => ({ ...r, values: new Map<string, readonly string[]>() }));
    for (const [k, columns] of blocks.entries()) {
      if (k > 0) await pause();
      readEntryValues(store.ox, uri, block, { features: columns, totalEntries: entries, valuesPerEntry: perEntry }).forEach((e, i) => {
        for (const [f, vs] of e.values) merged[i]!.values.set(f, vs);
      });
    }
    return merged;
  }
  async function* rows(): AsyncGenerator<string> {
    yield csvRows([["SMILES", ...features.map((f) => f.title)]]);
    const cache = new Map<string, string>();
    for (let offset = 0; offset < entries; offset += entriesPerStep) {
      if (offset > 0) await pause();
      const out: string[][] = [];
      for (const e of await values(order.refsOn(uri, lines.subarray(offset, offset + entriesPerStep)))) {
        let s = cache.get(e.compound);
        if (s === undefined) {
          const c = readCompound(store.ox, e.compound, vocab);
          s = c?.smiles ?? c?.inchi ?? e.compound;
          cache.set(e.compound, s);
        }
        // A very wide row is assembled in steps too.
        const cells = [e.smiles ?? s];
        for (let j = 0; j < features.length; j += CSV_STEP_VALUES) {
          if (j > 0) await pause();
          for (const f of features.slice(j, j + CSV_STEP_VALUES)) cells.push((e.values.get(f.uri) ?? []).join(" "));
        }
        out.push(cells);
      }
      yield csvRows(out);
    }
  }
  return Readable.from(rows(), { objectMode: false });
}
