/**
 * /sparql — the SPARQL 1.1 Protocol (https://www.w3.org/TR/sparql11-protocol/), query operation
 * only; queries run on the read replica (store/replica.ts), never on the main thread, or with
 * `--store sparql` on the external store through the proxy (store/sparql-proxy.ts: the same limits,
 * errors and representations; store/sparql-endpoint.ts).
 *
 *   GET  /sparql?query=…                                    (no query: an HTML form for browsers, the SPARQL 1.1
 *                                                            Service Description to a client that takes RDF
 *                                                            (http/service-description.ts; Turtle by default), else 400;
 *                                                            HTML accepted: the form and the result as a page)
 *   POST /sparql  application/x-www-form-urlencoded query=…  (update=… → 400 read-only)
 *   POST /sparql  application/sparql-query  <query text>
 *   POST /sparql  application/sparql-update                 → 400 read-only
 *   other POST body types → 415; bodies over 1 MiB → 413.
 *
 * `default-graph-uri` / `named-graph-uri` (repeatable, absolute IRIs) set the dataset and replace
 * the query's FROM clauses; without them the default graph is the union of all graphs. The result
 * type is negotiated (Accept or `?format=`) among the types of the query's form, which is read
 * lexically (sparql-syntax.ts); `application/json` is offered last, for clients that know no
 * other JSON type: they get SPARQL JSON results for SELECT/ASK, JSON-LD for CONSTRUCT/DESCRIBE,
 * labelled with those types (application/sparql-results+json, application/ld+json); the replica is the authority on validity, time limit (503) and
 * result size (400).
 *
 * The service's prefixes (ot, ota, qg, dc, dcterms, rdf, rdfs, owl, xsd: Vocab.prefixes) are
 * declared for every query that uses them without declaring them (store/sparql-exec.ts), for
 * every client. A syntax error is one sentence at a line and column (400, field `query`).
 * A browser (HTML preferred, or `format=html`) gets html/sparql.ts: the form with the query in
 * it, then one page of the result (`page`, `page_size`) read in the replica's worker
 * (TABLE_FORMAT), or the error above the form (still 400). Every other client gets exactly the
 * protocol's answers: HTML is offered last, so `*\/*` still means the first format.
 *
 * A client that disconnects before its answer is written stops its query (the replica drops it
 * from its queue or terminates the worker running it). Every 503 of the replica (a query that
 * could not start or did not end within the time limit, a full queue) carries `Retry-After`: the
 * time limit, after which every query running now has ended or been stopped.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import type { IncomingMessage } from "node:http";
import { BadRequest, PayloadTooLarge, ServiceError, UnsupportedMediaType } from "../../errors.ts";
import type { QueryDataset, QueryOptions, SparqlEndpoint } from "../../store/sparql-endpoint.ts";
import { READ_ONLY_MESSAGE, TABLE_FORMAT, type QueryTable } from "../../store/sparql-exec.ts";
import { GRAPH_FORMATS, queryForm, SOLUTION_FORMATS } from "../../store/sparql-syntax.ts";
import type { Deps } from "../deps.ts";
import { MAX_PAGE_SIZE, PAGE_SIZE, sparqlHtml } from "../html/sparql.ts";
import { FORMAT_ALIASES, negotiate } from "../negotiate.ts";
import { intParam } from "../paging.ts";
import { readBytes } from "../body.ts";
import { RDF_TYPES, textSource } from "../render-rdf.ts";
import { rdfReps, respond } from "../respond.ts";
import { serviceDescriptionNt } from "../service-description.ts";

/**
 * The formats offered for a query form, the default first; `application/json` last, answered
 * as replicaFormat says (a client asking only for JSON gets JSON it can read).
 */
function offersFor(form: string | undefined): readonly string[] {
  return [...(form === "CONSTRUCT" || form === "DESCRIBE" ? GRAPH_FORMATS : SOLUTION_FORMATS), "application/json"];
}

/** The replica's format of `application/json` for each kind of result. */
function replicaFormat(type: string, form: string | undefined): string {
  if (type !== "application/json") return type;
  return form === "CONSTRUCT" || form === "DESCRIBE" ? "application/ld+json" : "application/sparql-results+json";
}

export const MAX_SPARQL_BODY_BYTES = 1024 * 1024;

const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]*$/;

/** Read a request body as UTF-8 text, refusing more than `max` bytes with 413. */
export async function readBody(req: IncomingMessage, max = MAX_SPARQL_BODY_BYTES): Promise<string> {
  return (await readBytes(req, max, () => new PayloadTooLarge(`the request body exceeds the limit of ${max} bytes`))).toString("utf8");
}

/** The media type of the request body, lower-cased, without parameters; "" when absent. */
function bodyType(ctx: Context): { type: string; charset?: string } {
  const [type = "", ...params] = ctx.get("Content-Type").split(";");
  const charset = params.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1]).find((c) => c !== undefined);
  return { type: type.trim().toLowerCase(), ...(charset ? { charset: charset.toLowerCase() } : {}) };
}

function graphList(params: readonly URLSearchParams[], name: string): string[] {
  const out: string[] = [];
  for (const p of params) {
    for (const iri of p.getAll(name)) {
      if (!ABSOLUTE_IRI.test(iri)) throw new BadRequest(`'${iri}' is not an absolute IRI`, { field: name });
      out.push(iri);
    }
  }
  return out;
}

function datasetOf(params: readonly URLSearchParams[]): QueryDataset {
  const defaultGraphs = graphList(params, "default-graph-uri");
  const namedGraphs = graphList(params, "named-graph-uri");
  return { ...(defaultGraphs.length > 0 ? { defaultGraphs } : {}), ...(namedGraphs.length > 0 ? { namedGraphs } : {}) };
}

function readOnly(field: string): BadRequest {
  return new BadRequest(READ_ONLY_MESSAGE, { field });
}

/** The single `query` parameter of a GET or form request. */
function queryParam(params: URLSearchParams): string | undefined {
  if (params.has("update")) throw readOnly("update");
  const all = params.getAll("query");
  if (all.length > 1) throw new BadRequest("give exactly one 'query' parameter", { field: "query" });
  return all[0];
}

/** A browser's request for the form: Accept prefers HTML, or `?format=html` (http/negotiate.ts). */
function wantsHtml(ctx: Context): boolean {
  const format = typeof ctx.query.format === "string" ? ctx.query.format : undefined;
  if (format !== undefined) return (FORMAT_ALIASES[format.toLowerCase()] ?? format) === "text/html";
  return ctx.get("Accept") !== "" && ctx.accepts("text/plain", "text/html") === "text/html";
}


/**
 * An AbortSignal that fires when the client goes away before the response is complete: the
 * response closes while not finished (Node emits 'close' on the response both after a completed
 * response, with `writableFinished` true, and when the connection drops before it).
 */
function clientGone(ctx: Context): { signal: AbortSignal; release: () => void } {
  const ac = new AbortController();
  const res = ctx.res;
  const onClose = (): void => {
    if (!res.writableFinished) ac.abort();
  };
  if (res.destroyed || ctx.req.socket.destroyed) ac.abort();
  else res.once("close", onClose);
  return { signal: ac.signal, release: () => res.off("close", onClose) };
}

/** The query on the replica; a 503 gets Retry-After. */
async function run(ctx: Context, replica: SparqlEndpoint, retryAfterS: number, query: string, format: string, options: QueryOptions): Promise<Buffer> {
  const gone = clientGone(ctx);
  try {
    return (await replica.query(query, format, options, gone.signal)).body;
  } catch (err) {
    if (err instanceof ServiceError && err.status === 503) ctx.set("Retry-After", String(retryAfterS));
    throw err;
  } finally {
    gone.release();
  }
}

/**
 * The page for a browser: the form with the query, and one page of its result, or the 400's
 * sentence above the form (any other error is the service's error page).
 */
async function answerHtml(ctx: Context, replica: SparqlEndpoint, retryAfterS: number, query: string, options: QueryOptions, base: string): Promise<void> {
  const pageSize = intParam(ctx.query, "page_size", 1, MAX_PAGE_SIZE, PAGE_SIZE, " (rows per page)");
  const pageNo = intParam(ctx.query, "page", 1, 1_000_000, 1);
  const show = { base, prefixes: options.prefixes ?? {}, query, page: pageNo, pageSize };
  ctx.vary("Accept");
  ctx.set("Cache-Control", "no-store");
  ctx.type = "text/html; charset=utf-8";
  try {
    if (query.trim() === "") throw new BadRequest("the query is empty", { field: "query" });
    const body = await run(ctx, replica, retryAfterS, query, TABLE_FORMAT, { ...options, table: { offset: (pageNo - 1) * pageSize, limit: pageSize } });
    ctx.status = 200;
    ctx.body = sparqlHtml({ ...show, result: JSON.parse(body.toString("utf8")) as QueryTable });
  } catch (err) {
    if (!(err instanceof BadRequest)) throw err;
    ctx.status = 400;
    ctx.body = sparqlHtml({ ...show, error: err.message });
  }
}

async function answer(ctx: Context, replica: SparqlEndpoint, retryAfterS: number, query: string, options: QueryOptions): Promise<void> {
  if (query.trim() === "") throw new BadRequest("the query is empty", { field: "query" });
  const form = queryForm(query);
  const offers = offersFor(form);
  // Not a query form (an update, or not SPARQL): the replica reports why; no format to negotiate.
  let format: string;
  if (form) format = negotiate(ctx, offers);
  else {
    ctx.vary("Accept");
    format = offers[0]!;
  }
  // application/json is answered with the more precise JSON type of the result (its body is that).
  format = replicaFormat(format, form);
  const body = await run(ctx, replica, retryAfterS, query, format, options);
  ctx.status = 200;
  ctx.type = format.startsWith("text/") ? `${format}; charset=utf-8` : format;
  ctx.set("Cache-Control", "no-store");
  ctx.body = body;
}

export function registerSparql(router: Router, deps: Deps, replica: SparqlEndpoint): void {
  const base = deps.config.baseUrl;
  const retryAfterS = Math.ceil(deps.config.sparqlTimeoutMs / 1000);
  const prefixes = deps.vocab.prefixes();
  const withPrefixes = (dataset: QueryDataset): QueryOptions => ({ ...dataset, prefixes });

  router.get("/sparql", async (ctx) => {
    const params = new URLSearchParams(ctx.querystring);
    const query = queryParam(params);
    if (query === undefined) {
      if (wantsHtml(ctx)) {
        ctx.vary("Accept");
        ctx.type = "text/html; charset=utf-8";
        ctx.body = sparqlHtml({ base, prefixes });
        return;
      }
      // The service description (SPARQL 1.1 Service Description §2) for a client that takes RDF.
      const takesRdf = ctx.query.format !== undefined || ctx.get("Accept") === "" || typeof ctx.accepts(...RDF_TYPES) === "string";
      if (!takesRdf) {
        ctx.vary("Accept");
        throw new BadRequest("missing the 'query' parameter (SPARQL 1.1 Protocol §2.1.1); without it the endpoint answers its service description in RDF (Accept: text/turtle)", { field: "query" });
      }
      await respond(ctx, rdfReps(() => textSource(serviceDescriptionNt(deps, deps.config.sparqlTimeoutMs)), deps));
      return;
    }
    const options = withPrefixes(datasetOf([params]));
    // HTML is offered after the protocol's formats: only a client that prefers it gets the page.
    const form = queryForm(query);
    const offers = [...offersFor(form), "text/html"];
    if (form ? negotiate(ctx, offers) === "text/html" : wantsHtml(ctx)) return answerHtml(ctx, replica, retryAfterS, query, options, base);
    await answer(ctx, replica, retryAfterS, query, options);
  });

  router.post("/sparql", async (ctx) => {
    const { type, charset } = bodyType(ctx);
    const urlParams = new URLSearchParams(ctx.querystring);
    if (type === "application/sparql-update") throw readOnly("Content-Type");
    if (charset && charset !== "utf-8" && charset !== "us-ascii") {
      throw new UnsupportedMediaType(`the request body must be UTF-8, not ${charset}`, { field: "Content-Type" });
    }
    if (type === "application/x-www-form-urlencoded") {
      const form = new URLSearchParams(await readBody(ctx.req));
      const query = queryParam(form);
      if (query === undefined) throw new BadRequest("missing the 'query' field of the form (SPARQL 1.1 Protocol §2.1.2)", { field: "query" });
      await answer(ctx, replica, retryAfterS, query, withPrefixes(datasetOf([form, urlParams])));
      return;
    }
    if (type === "application/sparql-query") {
      if (urlParams.has("update")) throw readOnly("update");
      await answer(ctx, replica, retryAfterS, await readBody(ctx.req), withPrefixes(datasetOf([urlParams])));
      return;
    }
    throw new UnsupportedMediaType(
      `POST /sparql takes application/x-www-form-urlencoded or application/sparql-query, not '${type || "(none)"}'`,
      { field: "Content-Type" },
    );
  });
}
