/**
 * /dataset, /dataset/{id}, /dataset/{id}/feature/{name}, /dataset/{id}/compounds and /features (the
 * CSV and SDF rules: README "Datasets"; the graph: resources/dataset.ts). Upload = multipart field
 * `file` or a raw `text/csv` / `chemical/x-mdl-sdfile` body → 202 + task; the task's result is the
 * dataset.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import { Readable } from "node:stream";
import { BadRequest, Conflict, NotFound, UnprocessableEntity } from "../../errors.ts";
import { read } from "../../resources/reads.ts";
import { EntryOrder } from "../../resources/entry-order.ts";
import { datasetCsv, featureList } from "../../resources/dataset-export.ts";
import { encodeSegment, isId } from "../../resources/uris.ts";
import type { Deps } from "../deps.ts";
import { COLUMNS, DATASET_COLUMNS, DATASET_LIST, datasetHtml, datasetListHtml, featureHtml } from "../html/dataset.ts";
import { listPage, NEWEST_FIRST, sortItems } from "../html/list.ts";
import { MODEL_COLUMNS } from "../html/collections.ts";
import { intParam, readPage, ROWS } from "../paging.ts";
import { requestJob } from "../request-job.ts";
import { DEPICTION_SIZE } from "../../chem/structure.ts";
import { collectionReps, rdfReps, respond, uriList, type Representations } from "../respond.ts";
import { storedSource, textSource } from "../render-rdf.ts";
import { ot } from "../../store/vocab.ts";
import { respondTask } from "./tasks.ts";
import { readUpload, uploadLimits } from "../upload.ts";
import { readParams } from "../request-params.ts";
import { requireOwner } from "../auth.ts";
import { parseParams } from "../../resources/params.ts";
import { PC_OF_RESOURCE } from "../../algorithms/descriptors/spec.ts";
import { describeDataset } from "../../algorithms/descriptors/index.ts";
import { submitUpload } from "../../algorithms/upload/index.ts";
import { predictionHtml } from "./prediction-page.ts";

/** Models a dataset page offers to predict it with (the newest). */
const PREDICT_WITH = 8;

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
    const html = async (): Promise<string> => {
      // every dataset's row (title, date, sizes: a few triples each) in one read, so that any order can be paged
      const rows = (await read(store, vocab, "datasetRows", list)).filter((r) => r !== null);
      return datasetListHtml(listPage(ctx.query, rows, DATASET_COLUMNS, NEWEST_FIRST, DATASET_LIST), vocab.base);
    };
    await respond(ctx, [...collectionReps(uris.datasets(), list, ot.Dataset, deps), ["text/html", html]]);
  });

  router.post("/dataset", async (ctx) => {
    // A full task queue refuses before the body is read; the intake checks size, form and limits.
    tasks.admit();
    const file = await readUpload(ctx, deps.config);
    const bytes = new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
    const t = await submitUpload({ bytes, fileName: file.fileName, format: file.format }, uploadLimits(deps.config), deps);
    await respondTask(ctx, t, deps);
  });

  router.get("/dataset/:id", async (ctx) => {
    const uri = datasetUri(ctx);
    await respond(ctx, [
      ...rdfReps(() => storedSource(store, uri), deps),
      ["text/html", async () => {
        // A model's prediction has a page of its own (routes/prediction-page.ts).
        const prediction = await read(store, vocab, "predictionHeader", uri);
        if (prediction) return predictionHtml(ctx, prediction, deps, order);
        const summary = await read(store, vocab, "datasetInfo", uri);
        const lines = await order.lines(uri);
        const rows = readPage(ctx.query, ROWS, lines.length);
        const columns = readPage(ctx.query, COLUMNS, summary.featureCount);
        if (rows.size * columns.size > MAX_CELLS) {
          throw new BadRequest(`a page shows at most ${MAX_CELLS} cells: page_size × column_page_size is ${rows.size} × ${columns.size}; make one of them smaller`, { field: "page_size" });
        }
        const features = await read(store, vocab, "featurePage", uri, columns.offset, columns.size, summary.featureCount);
        const page = lines.slice(rows.offset, rows.offset + rows.size);
        const table = { features: features.map((f) => f.uri), totalEntries: summary.entries, valuesPerEntry: valuesPerEntry(uri, summary.entries) };
        const { entries, compounds } = await read(store, vocab, "entryTable", uri, page, table, true);
        const endpoint = features.some((f) => f.substructure) ? await read(store, vocab, "minedEndpoint", uri) : null;
        const related = await read(store, vocab, "datasetRelated", uri);
        const usedBy = (await read(store, vocab, "modelsUsing", uri)).length;
        const models = store.graphsWithPrefix(`${uris.models()}/`).filter((g) => isId(g.slice(uris.models().length + 1)));
        const predictWith = sortItems((await read(store, vocab, "modelRows", models)).filter((m) => m !== null), MODEL_COLUMNS, NEWEST_FIRST).slice(0, PREDICT_WITH);
        return datasetHtml({ summary, features, entries, compounds, rows, columns, endpoint, related: { ...related, predictWith, usedBy } }, vocab.base);
      }],
      ["text/csv", () => datasetCsv(store, order, uri, vocab)],
      ["text/uri-list", () => compoundList(uri)],
    ]);
  });

  router.get("/dataset/:id/compounds", async (ctx) => {
    const uri = datasetUri(ctx);
    await respond(ctx, [["text/uri-list", () => compoundList(uri)]]);
  });

  router.get("/dataset/:id/features", async (ctx) => {
    const uri = datasetUri(ctx);
    await respond(ctx, [["text/uri-list", async () => uriList((await featureList(store, order, uri, vocab)).map((f) => f.uri))]]);
  });

  router.get("/dataset/:id/feature/:name", async (ctx) => {
    const uri = datasetUri(ctx);
    // The segment as sent (a feature URI exactly, e.g. `(..)` of the name ".."), else the
    // decoded name as the service writes it (a client may percent-encode differently).
    const raw = ctx.path.slice(ctx.path.lastIndexOf("/") + 1);
    const fUri = `${uri}/feature/${encodeSegment(String(ctx.params.name))}`;
    const candidates = /^[A-Za-z0-9\-._~%!$&'()*+,;=:@]+$/.test(raw) ? [`${uri}/feature/${raw}`, fUri] : [fUri];
    const feature = await read(store, vocab, "featureOf", uri, candidates);
    if (!feature) throw new NotFound(`no feature ${fUri}`);
    const reps: Representations[number][] = [
      ...rdfReps(async () => textSource(await read(store, vocab, "describeInGraph", feature.uri, uri)), deps),
      ["text/html", async () => featureHtml(feature, uri, vocab.base, feature.substructure ? await read(store, vocab, "minedEndpoint", uri) : null)],
      ["text/uri-list", () => uriList([feature.uri])],
    ];
    const smarts = feature.substructure?.smarts;
    if (smarts !== undefined) {
      // A mined substructure's picture (chem/depict-pattern.ts, in the chem pool); it never changes.
      reps.push(["image/svg+xml", async () => {
        const width = intParam(ctx.query, "width", DEPICTION_SIZE.min, DEPICTION_SIZE.max, 240, " (pixels)");
        const height = intParam(ctx.query, "height", DEPICTION_SIZE.min, DEPICTION_SIZE.max, 160, " (pixels)");
        const svg = await requestJob(deps, "chem.depictPattern", { smarts, width, height });
        if (!svg) throw new UnprocessableEntity(`the pattern ${smarts.slice(0, 200)} could not be drawn (RDKit does not read it as SMARTS)`, { field: "smarts" });
        ctx.set("Cache-Control", "max-age=86400");
        return svg;
      }]);
    }
    await respond(ctx, reps);
  });

  router.post("/dataset/:id/pc", async (ctx) => {
    const uri = datasetUri(ctx);
    const params = parseParams(PC_OF_RESOURCE, await readParams(ctx));
    const t = await describeDataset(uri, params, `${uris.algorithms()}/pc`, deps);
    await respondTask(ctx, t, deps);
  });

  router.delete("/dataset/:id", async (ctx) => {
    const uri = datasetUri(ctx);
    requireOwner(ctx, await read(store, vocab, "creator", uri), uri, "delete");
    // A model predicts from its training and feature datasets: they stay while it exists.
    const models = await read(store, vocab, "modelsUsing", uri);
    if (models.length > 0) {
      throw new Conflict(`${uri} is the training or feature dataset of ${models.length} model${models.length === 1 ? "" : "s"} (${models.slice(0, 5).join(", ")}${models.length > 5 ? ", …" : ""}); delete ${models.length === 1 ? "it" : "them"} first`, { field: "dataset" });
    }
    await store.commit([{ graph: uri, delete: true }]);
    await respond(ctx, [["text/plain", () => `deleted ${uri}\n`], ["text/uri-list", () => uriList([uri])]]);
  });
}
