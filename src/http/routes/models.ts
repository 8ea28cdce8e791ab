/**
 * /model and /model/{id} (docs/lazar-method.md "Model and prediction resources"): the model record
 * (RDF, HTML with the training summary), its predicted-variable features, DELETE, and POST
 * predicting a compound (`compound_uri`: answered directly, 201 + the prediction dataset; 200 +
 * the same dataset for a request answered before, lazar/predict.ts storedPrediction) or a
 * dataset (`dataset_uri`: 202 + task → prediction dataset).
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import { BadRequest, NotFound } from "../../errors.ts";
import type { ModelRecord } from "../../resources/model.ts";
import { read } from "../../resources/reads.ts";
import { parseParams } from "../../resources/params.ts";
import { isId } from "../../resources/uris.ts";
import { predictDataset, predictOne } from "../../algorithms/lazar/index.ts";
import { PREDICT } from "../../algorithms/lazar/spec.ts";
import { forgetModel } from "../../algorithms/lazar/model-data.ts";
import { forgetGlobalModel } from "../../algorithms/global/model.ts";
import { ot } from "../../store/vocab.ts";
import { requireOwner } from "../auth.ts";
import type { Deps } from "../deps.ts";
import { requestJob } from "../request-job.ts";
import { readParams } from "../request-params.ts";
import { collectionReps, rdfReps, respond, seeOther, uriList } from "../respond.ts";
import { listPage, NEWEST_FIRST } from "../html/list.ts";
import { MODEL_COLUMNS, MODEL_LIST, modelListHtml } from "../html/collections.ts";
import { storedSource, textSource } from "../render-rdf.ts";
import { respondTask } from "./tasks.ts";
import { modelHtml } from "../html/model.ts";

export function registerModels(router: Router, deps: Deps): void {
  const { store, vocab, uris, tasks } = deps;

  const modelOf = async (ctx: Context): Promise<ModelRecord> => {
    const id = String(ctx.params.id);
    const uri = `${uris.models()}/${id}`;
    const m = isId(id) && store.has(uri) ? await read(store, vocab, "model", uri) : null;
    if (!m) throw new NotFound(`no model ${uri}`);
    return m;
  };

  router.get("/model", async (ctx) => {
    const list = store.graphsWithPrefix(`${uris.models()}/`).filter((g) => isId(g.slice(uris.models().length + 1))).sort();
    const html = async (): Promise<string> => {
      const rows = (await read(store, vocab, "modelRows", list)).filter((r) => r !== null);
      return modelListHtml(listPage(ctx.query, rows, MODEL_COLUMNS, NEWEST_FIRST, MODEL_LIST), vocab.base);
    };
    await respond(ctx, [...collectionReps(uris.models(), list, ot.Model, deps), ["text/html", html]]);
  });

  router.get("/model/:id", async (ctx) => {
    const m = await modelOf(ctx);
    await respond(ctx, [...rdfReps(() => storedSource(store, m.uri), deps), ["text/html", () => modelHtml(m, vocab.base)], ["text/uri-list", () => uriList([m.uri])]]);
  });

  for (const which of ["value", "confidence"] as const) {
    router.get(`/model/:id/predicted/${which}`, async (ctx) => {
      const m = await modelOf(ctx);
      const f = `${m.uri}/predicted/${which}`;
      await respond(ctx, [...rdfReps(async () => textSource(await read(store, vocab, "describeInGraph", f, m.uri)), deps), ["text/uri-list", () => uriList([f])]]);
    });
  }

  router.delete("/model/:id", async (ctx) => {
    const m = await modelOf(ctx);
    requireOwner(ctx, await read(store, vocab, "creator", m.uri), m.uri, "delete");
    await store.commit([{ graph: m.uri, delete: true }]);
    forgetModel(m.uri);
    forgetGlobalModel(m.uri);
    await respond(ctx, [["text/plain", () => `deleted ${m.uri}\n`], ["text/uri-list", () => uriList([m.uri])]]);
  });

  router.post("/model/:id", async (ctx) => {
    const m = await modelOf(ctx);
    const params = parseParams(PREDICT, await readParams(ctx));
    const compound = params.string("compound_uri");
    const dataset = params.string("dataset_uri");
    if ((compound === undefined) === (dataset === undefined)) throw new BadRequest("give exactly one of compound_uri and dataset_uri", { field: compound === undefined ? "compound_uri" : "dataset_uri" });
    if (dataset !== undefined) return respondTask(ctx, await predictDataset(m, dataset, deps), deps);
    // a global model not in memory (after a restart) is trained again as long as its build took: on the task pool, not within a request-time job's budget
    const { uri: result, created } = await predictOne(m, compound!, deps, (kind, input, onProgress) => requestJob(deps, kind, input, onProgress), (kind, input, onProgress) => deps.pool.run(kind, input, onProgress ? { onProgress } : {}));
    if (seeOther(ctx, result)) return;
    if (created) ctx.set("Location", result);
    await respond(ctx, [["text/uri-list", () => uriList([result])], ["text/plain", () => `${result}\n`]], created ? 201 : 200);
  });
}
