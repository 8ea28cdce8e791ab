/**
 * The HTML of a prediction dataset (GET /dataset/{id} of a dataset a model made; routes/datasets.ts
 * hands it over): reads what the page shows — the entry and a page of its neighbours with their
 * structures for one compound, a page of entries for a dataset — and html/prediction.ts writes it.
 */
import type { Context } from "koa";
import type { EntryOrder } from "../../resources/entry-order.ts";
import type { PredictionHeader } from "../../resources/prediction-read.ts";
import { read } from "../../resources/reads.ts";
import type { Deps } from "../deps.ts";
import { datasetPredictionHtml, NEIGHBOURS, PREDICTED_ROWS, singlePredictionHtml, type ModelInfo } from "../html/prediction.ts";
import { readPage } from "../paging.ts";

export async function predictionHtml(ctx: Context, h: PredictionHeader, deps: Pick<Deps, "store" | "vocab">, order: EntryOrder): Promise<string> {
  const { store, vocab } = deps;
  const record = store.has(h.model) ? await read(store, vocab, "model", h.model) : null;
  const model: ModelInfo | null = record;
  const lines = await order.lines(h.uri);
  if (h.parameter[0] === "compound_uri" && lines.length === 1) {
    const line = lines[0]!;
    const [entry] = await read(store, vocab, "predictionEntries", h.uri, [line], h.model, h.endpoint);
    const detail = await read(store, vocab, "predictionDetail", h.uri, line);
    const p = readPage(ctx.query, NEIGHBOURS, detail.neighbours.length);
    const shown = detail.neighbours.slice(p.offset, p.offset + p.count);
    const structures = await read(store, vocab, "structures", shown.map((n) => n.compound));
    return singlePredictionHtml({ header: h, model, entry: entry!, neighbours: shown.map((n, i) => ({ n, c: structures[i] ?? null })), neighbourPage: p, fragments: detail.fragments }, vocab.base);
  }
  const rows = readPage(ctx.query, PREDICTED_ROWS, lines.length);
  const entries = await read(store, vocab, "predictionEntries", h.uri, lines.slice(rows.offset, rows.offset + rows.count), h.model, h.endpoint);
  return datasetPredictionHtml({ header: h, model, entries, rows }, vocab.base);
}
