/**
 * /dataset, /dataset/{id}, /dataset/{id}/feature/{name}, /dataset/{id}/compounds and /features
 * (issue "Service foundation" §6; spec lazar.md §1). Upload = multipart field `file` or a raw
 * `text/csv` body → 202 + task; the task's result is the dataset.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import { Readable } from "node:stream";
import { Conflict, NotFound } from "../../errors.ts";
import { compoundsInOrder, readCompound, readDatasetSummary, readEntries, readEntryRefs, readEntryValues, describeInGraph } from "../../resources/dataset-read.ts";
import { readCreator } from "../../resources/creator.ts";
import { encodeSegment, isId, newId } from "../../resources/uris.ts";
import { csvRows } from "../../tabular/csv-write.ts";
import { uploadOperation } from "../../tasks/upload.ts";
import type { Deps } from "../deps.ts";
import { datasetHtml, datasetListHtml, featureHtml } from "../html/dataset.ts";
import { collectionReps, rdfReps, respond, uriList } from "../respond.ts";
import { ot } from "../../store/vocab.ts";
import { respondTask } from "./tasks.ts";
import { readUpload, uploadLimits } from "../upload.ts";
import { readParams } from "../params.ts";
import { requireOwner } from "../auth.ts";
import { parseParams } from "../../resources/params.ts";
import { datasetDescriptorRequest, descriptorOperation, PC_OF_RESOURCE } from "../../tasks/descriptors.ts";

export function registerDatasets(router: Router, deps: Deps): void {
  const { store, vocab, uris, tasks } = deps;

  const datasetUri = (ctx: Context): string => {
    const id = String(ctx.params.id);
    const uri = uris.dataset(id);
    if (!isId(id) || !store.has(uri)) throw new NotFound(`no dataset ${uri}`);
    return uri;
  };

  router.get("/dataset", async (ctx) => {
    const list = store.graphsWithPrefix(`${uris.datasets()}/`).filter((g) => isId(g.slice(uris.datasets().length + 1))).sort();
    const titled = (): { uri: string; title: string }[] => list.map((uri) => ({ uri, title: readDatasetSummary(store.ox, uri, vocab).title }));
    await respond(ctx, [...collectionReps(uris.datasets(), list, ot.Dataset, vocab), ["text/html", () => datasetListHtml(titled(), vocab.base)]]);
  });

  router.post("/dataset", async (ctx) => {
    // A full task queue refuses before the body is read; the intake checks size, form and limits.
    tasks.admit();
    const file = await readUpload(ctx, deps.config);
    const uri = uris.dataset(newId());
    const op = uploadOperation(store, { bytes: new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength), fileName: file.fileName, datasetUri: uri, base: vocab.base, limits: uploadLimits(deps.config) });
    const t = await tasks.submit(`Upload ${file.fileName}`, "dataset upload", op);
    await respondTask(ctx, t, deps);
  });

  router.get("/dataset/:id", async (ctx) => {
    const uri = datasetUri(ctx);
    await respond(ctx, [
      ...rdfReps(() => store.dump(uri, "application/n-triples"), vocab),
      ["text/html", () => {
        const pageSize = Math.min(500, Math.max(1, Number(ctx.query.page_size) || 50));
        const pageNo = Math.max(1, Number(ctx.query.page) || 1);
        const summary = readDatasetSummary(store.ox, uri, vocab);
        const entries = readEntries(store.ox, uri, vocab, (pageNo - 1) * pageSize, pageSize);
        const compounds = new Map(entries.map((e) => [e.compound, readCompound(store.ox, e.compound, vocab)]));
        return datasetHtml(summary, entries, compounds, { page: pageNo, pageSize }, vocab.base);
      }],
      ["text/csv", () => datasetCsv(deps, uri)],
      ["text/uri-list", () => uriList(compoundsInOrder(store.ox, uri, vocab))],
    ]);
  });

  router.get("/dataset/:id/compounds", async (ctx) => {
    const uri = datasetUri(ctx);
    await respond(ctx, [["text/uri-list", () => uriList(compoundsInOrder(store.ox, uri, vocab))]]);
  });

  router.get("/dataset/:id/features", async (ctx) => {
    const uri = datasetUri(ctx);
    await respond(ctx, [["text/uri-list", () => uriList(readDatasetSummary(store.ox, uri, vocab).features.map((f) => f.uri))]]);
  });

  router.get("/dataset/:id/feature/:name", async (ctx) => {
    const uri = datasetUri(ctx);
    const features = readDatasetSummary(store.ox, uri, vocab).features;
    // The segment as sent (a feature URI exactly, e.g. `(..)` of the name ".."), else the
    // decoded name as the service writes it (a client may percent-encode differently).
    const raw = ctx.path.slice(ctx.path.lastIndexOf("/") + 1);
    const fUri = `${uri}/feature/${encodeSegment(String(ctx.params.name))}`;
    const feature = features.find((f) => f.uri === `${uri}/feature/${raw}`) ?? features.find((f) => f.uri === fUri);
    if (!feature) throw new NotFound(`no feature ${fUri}`);
    await respond(ctx, [...rdfReps(() => describeInGraph(store.ox, feature.uri, uri), vocab), ["text/html", () => featureHtml(feature, uri, vocab.base)], ["text/uri-list", () => uriList([feature.uri])]]);
  });

  router.post("/dataset/:id/pc", async (ctx) => {
    const uri = datasetUri(ctx);
    const params = parseParams(PC_OF_RESOURCE, await readParams(ctx));
    const request = await store.withRoom(() => datasetDescriptorRequest(uri, params, `${uris.algorithms()}/pc`, store, vocab));
    const t = await tasks.submit(request.title, "descriptors", descriptorOperation(store, request, uris.dataset(newId()), vocab.base));
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

/** Entries read per step of the CSV export; the event loop is served between steps. */
const CSV_PAGE = 100;

/**
 * CSV export: the structure as SMILES (the row's own spelling; InChI when no SMILES is known),
 * then one column per feature. Streamed: the entry list is read once, then the values 100
 * entries at a time, each step written as it is ready, so the first rows go out at once and the
 * server holds one step in memory. A dataset deleted during the export ends the stream with an
 * error (the client sees the transfer cut off, not a short file). Cells a spreadsheet would run
 * as formulas are neutralised (tabular/csv-write.ts).
 */
function datasetCsv(deps: Deps, uri: string): Readable {
  const { store, vocab } = deps;
  const summary = readDatasetSummary(store.ox, uri, vocab);
  const refs = readEntryRefs(store.ox, uri, vocab);
  async function* rows(): AsyncGenerator<string> {
    yield csvRows([["SMILES", ...summary.features.map((f) => f.title)]]);
    const cache = new Map<string, string>();
    for (let offset = 0; offset < refs.length; offset += CSV_PAGE) {
      if (offset > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (!store.has(uri)) throw new Error(`${uri} was deleted during the CSV export`);
      }
      const out: string[][] = [];
      for (const e of readEntryValues(store.ox, uri, refs.slice(offset, offset + CSV_PAGE))) {
        let s = cache.get(e.compound);
        if (s === undefined) {
          const c = readCompound(store.ox, e.compound, vocab);
          s = c?.smiles ?? c?.inchi ?? e.compound;
          cache.set(e.compound, s);
        }
        out.push([e.smiles ?? s, ...summary.features.map((f) => (e.values.get(f.uri) ?? []).join(" "))]);
      }
      yield csvRows(out);
    }
  }
  return Readable.from(rows(), { objectMode: false });
}
