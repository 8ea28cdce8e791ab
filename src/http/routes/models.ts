/**
 * /model and /model/{id} (docs/lazar-method.md "Model and prediction resources"): the model record
 * (RDF, HTML with the training summary), its predicted-variable features, DELETE, and POST
 * predicting a compound (`compound_uri`: answered directly, 201 + the prediction dataset; 200 +
 * the same dataset for a request answered before, lazar/predict.ts storedPrediction) or a
 * dataset (`dataset_uri`: 202 + task → prediction dataset).
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import { BadRequest, NotFound, PayloadTooLarge } from "../../errors.ts";
import type { ModelRecord } from "../../resources/model.ts";
import { read } from "../../resources/reads.ts";
import { parseParams, type Params } from "../../resources/params.ts";
import { isId } from "../../resources/uris.ts";
import { predictDataset, predictFile, predictOne, predictText, type BatchFile } from "../../algorithms/lazar/index.ts";
import { PREDICT, PREDICT_WITH_MODEL } from "../../algorithms/lazar/spec.ts";
import type { RunJob, RunRequestJob } from "../../algorithms/jobs.ts";
import { forgetModel } from "../../algorithms/lazar/model-data.ts";
import { forgetGlobalModel } from "../../algorithms/global/model.ts";
import { ot } from "../../store/vocab.ts";
import { acceptFormFields, FORM_TOKEN_FIELD, requireOwner } from "../auth.ts";
import { checkUploadFile, readMultipart, uploadLimits } from "../upload.ts";
import type { Deps } from "../deps.ts";
import { requestJob } from "../request-job.ts";
import { readParams } from "../request-params.ts";
import { collectionReps, rdfReps, respond, seeOther, uriList } from "../respond.ts";
import { listPage, NEWEST_FIRST } from "../html/list.ts";
import { MODEL_COLUMNS, MODEL_LIST, modelListHtml } from "../html/collections.ts";
import { storedSource, textSource } from "../render-rdf.ts";
import { respondTask } from "./tasks.ts";
import { modelHtml, predictedFeatureHtml } from "../html/model.ts";
import { readFormContext } from "./algorithms.ts";

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
    await respond(ctx, [...rdfReps(() => storedSource(store, m.uri), deps), ["text/html", async () => modelHtml(m, vocab.base, await readFormContext(ctx, deps), await read(store, vocab, "modelValidations", m))], ["text/uri-list", () => uriList([m.uri])]]);
  });

  for (const which of ["value", "confidence"] as const) {
    router.get(`/model/:id/predicted/${which}`, async (ctx) => {
      const m = await modelOf(ctx);
      const f = `${m.uri}/predicted/${which}`;
      await respond(ctx, [...rdfReps(async () => textSource(await read(store, vocab, "describeInGraph", f, m.uri)), deps), ["text/html", () => predictedFeatureHtml(m, which, vocab.base)], ["text/uri-list", () => uriList([f])]]);
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

  /**
   * A prediction request of a form or a client: its parameters (query string and body), and with
   * a multipart body the batch file of the part `file` (checked as POST /dataset checks an
   * upload; an empty file part, a file input left empty, is no file).
   */
  const predictRequest = async (ctx: Context): Promise<{ raw: Map<string, string[]>; file?: BatchFile }> => {
    if (!ctx.is("multipart")) return { raw: await readParams(ctx) };
    const limit = deps.config.maxUploadBytes;
    const form = await readMultipart(ctx, {
      what: `POST ${ctx.path}`,
      fileField: "file",
      maxFileBytes: limit,
      tooLarge: (declared) => new PayloadTooLarge(`the form${declared !== undefined ? ` of ${declared} bytes` : ""} exceeds the upload limit of ${Math.round(limit / 2 ** 20)} MiB (MAX_UPLOAD_MB)`, { field: "file" }),
      maxFields: 16,
      maxFieldBytes: 1024 * 1024,
    });
    acceptFormFields(ctx, form.fields);
    const raw = new Map<string, string[]>();
    const add = (k: string, v: string): void => {
      if (v.trim() !== "") raw.set(k, [...(raw.get(k) ?? []), v]);
    };
    for (const [k, v] of new URLSearchParams(ctx.querystring)) add(k, v);
    for (const [k, values] of form.fields) if (k !== FORM_TOKEN_FIELD) for (const v of values) add(k, v);
    if (!form.file || form.file.bytes.length === 0) return { raw };
    const file = await checkUploadFile(form.file, form.file.fileName, deps.config);
    return { raw, file: { bytes: new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength), fileName: file.fileName, format: file.format } };
  };

  /** Predict with model `m` what the checked parameters (or the file) give: exactly one of compound_uri, dataset_uri, structure and a file. */
  const predictWith = async (ctx: Context, m: ModelRecord, params: Params, file: BatchFile | undefined): Promise<void> => {
    const compound = params.string("compound_uri");
    const dataset = params.string("dataset_uri");
    const structure = params.string("structure");
    const given = [["compound_uri", compound], ["dataset_uri", dataset], ["structure", structure], ["file", file]].filter(([, x]) => x !== undefined).map(([n]) => n as string);
    if (given.length !== 1) {
      throw new BadRequest(`give exactly one of compound_uri, dataset_uri, structure and a file (the part 'file')${given.length > 1 ? `; got ${given.join(" and ")}` : ""}`, { field: given[1] ?? "structure" });
    }
    const run: RunRequestJob = (kind, input, onProgress) => requestJob(deps, kind, input, onProgress);
    // a global model not in memory (after a restart) is trained again as long as its build took: on the task pool, not within a request-time job's budget
    const train: RunJob = (kind, input, onProgress) => deps.pool.run(kind, input, onProgress ? { onProgress } : {});
    if (dataset !== undefined) return respondTask(ctx, await predictDataset(m, dataset, deps), deps);
    if (file !== undefined) return respondTask(ctx, await predictFile(m, file, uploadLimits(deps.config), deps), deps);
    let answer: { uri: string; created: boolean };
    if (structure !== undefined) {
      const r = await predictText(m, structure, uploadLimits(deps.config), deps, run, train);
      if ("task" in r) return respondTask(ctx, r.task, deps);
      answer = r.prediction;
    } else answer = await predictOne(m, compound!, deps, run, train);
    const { uri: result, created } = answer;
    if (seeOther(ctx, result)) return;
    if (created) ctx.set("Location", result);
    await respond(ctx, [["text/uri-list", () => uriList([result])], ["text/plain", () => `${result}\n`]], created ? 201 : 200);
  };

  router.post("/model/:id", async (ctx) => {
    const m = await modelOf(ctx);
    const { raw, file } = await predictRequest(ctx);
    await predictWith(ctx, m, parseParams(PREDICT, raw), file);
  });

  // The predict box of a page that offers several models (the home page): the model is a field.
  router.post("/model", async (ctx) => {
    const { raw, file } = await predictRequest(ctx);
    const params = parseParams(PREDICT_WITH_MODEL, raw);
    const uri = params.string("model_uri")!;
    const id = uri.startsWith(`${uris.models()}/`) ? uri.slice(uris.models().length + 1) : "";
    const m = isId(id) && store.has(uri) ? await read(store, vocab, "model", uri) : null;
    if (!m) throw new BadRequest(`parameter 'model_uri': ${uri} is not a model of this service (${uris.models()}/<id>)`, { field: "model_uri" });
    raw.delete("model_uri");
    await predictWith(ctx, m, parseParams(PREDICT, raw), file);
  });
}
