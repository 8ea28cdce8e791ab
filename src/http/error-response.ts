/**
 * The error → response mapping (docs/opentox-api.md "Errors"): every error leaves through here,
 * negotiated as `text/plain` (curl, uri-list clients), `application/problem+json` (RFC 9457), an
 * `ot:ErrorReport` in RDF, or HTML. No stack traces; unexpected errors are logged server-side.
 */
import type { Context, Next } from "koa";
import { DataFactory } from "n3";
import type { Quad } from "@rdfjs/types";
import { BadRequest, PayloadTooLarge, ServiceError, toReport, toServiceError, UnsupportedMediaType, type ErrorReport } from "../errors.ts";
import { errorReportNode } from "../resources/task.ts";
import { toNTriples } from "../store/ntriples.ts";
import type { Vocab } from "../store/vocab.ts";
import { esc, page } from "./html/layout.ts";
import { negotiateLenient } from "./negotiate.ts";
import { isRdfType, RDF_TYPES } from "./render-rdf.ts";
import { serialiseRdf } from "../store/rdf-formats.ts";

/** What an error is negotiated among (a uri-list client gets text/plain: an error report is no URI list). */
export const ERROR_OFFERS: readonly string[] = ["text/plain", "application/problem+json", "text/html", ...RDF_TYPES, "text/uri-list"];

export function reportText(r: ErrorReport, indent = ""): string {
  const where = [r.line !== undefined ? `line ${r.line}` : "", r.column !== undefined ? `column ${r.column}` : "", r.field !== undefined ? `field ${r.field}` : ""]
    .filter(Boolean)
    .join(", ");
  let s = `${indent}${r.status} ${r.code}: ${r.message}${where ? ` (${where})` : ""}\n`;
  for (const c of r.causes ?? []) s += reportText(c, indent + "  ");
  return s;
}

/** An RFC 9457 problem object for an error report (causes nested the same way). */
export function problem(r: ErrorReport, instance: string): Record<string, unknown> {
  return {
    type: `about:blank`,
    title: r.code,
    status: r.status,
    detail: r.message,
    instance,
    ...(r.line !== undefined ? { line: r.line } : {}),
    ...(r.column !== undefined ? { column: r.column } : {}),
    ...(r.field !== undefined ? { field: r.field } : {}),
    ...(r.causes ? { causes: r.causes.map((c) => problem(c, instance)) } : {}),
  };
}

function htmlReport(r: ErrorReport): string {
  const causes = (r.causes ?? []).map((c) => `<li>${htmlReport(c)}</li>`).join("");
  const where = [r.line !== undefined ? `line ${r.line}` : "", r.column !== undefined ? `column ${esc(r.column)}` : "", r.field !== undefined ? `field <code>${esc(r.field)}</code>` : ""].filter(Boolean).join(", ");
  return `<div class="err"><strong>${r.status} ${esc(r.code)}</strong>: ${esc(r.message)}${where ? ` (${where})` : ""}${causes ? `<ul>${causes}</ul>` : ""}</div>`;
}

/**
 * Map errors thrown by libraries (koa, co-body/raw-body under koa-body, http-errors) into our
 * hierarchy by their status. Formidable's multipart errors never get here: http/upload.ts answers
 * each limit precisely (too many parts is not too large).
 */
function normalise(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  const e = err as { status?: unknown; statusCode?: unknown; message?: unknown; limit?: unknown; length?: unknown } | undefined;
  const status = typeof e?.status === "number" ? e.status : typeof e?.statusCode === "number" ? e.statusCode : undefined;
  const msg = typeof e?.message === "string" ? e.message : "";
  if (status === 413) {
    // raw-body's "request entity too large" carries the limit and the declared length
    const of = typeof e?.length === "number" ? ` of ${e.length} bytes` : "";
    return new PayloadTooLarge(typeof e?.limit === "number" ? `the request body${of} exceeds the limit of ${e.limit} bytes` : `the request body is too large${msg ? `: ${msg}` : ""}`, { field: "body" });
  }
  if (status === 415) return new UnsupportedMediaType(msg || "unsupported media type", { field: "Content-Type" });
  if (status !== undefined && status >= 400 && status < 500) return new BadRequest(msg ? `malformed request: ${msg}` : "malformed request");
  return toServiceError(err);
}

/** Errors → responses; a `retryAfter` (e.g. a full task queue) is sent as Retry-After. */
export function errorMiddleware(vocab: Vocab) {
  return async function handleErrors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (err) {
      const se = normalise(err);
      if (se.code === "InternalError") console.error(`${ctx.method} ${ctx.url}:`, err);
      if (se.details.retryAfter !== undefined) ctx.set("Retry-After", String(se.details.retryAfter));
      await renderError(ctx, toReport(se), vocab);
    }
  };
}

export async function renderError(ctx: Context, r: ErrorReport, vocab: Vocab): Promise<void> {
  const type = negotiateLenient(ctx, ERROR_OFFERS);
  ctx.status = r.status;
  ctx.vary("Accept");
  const instance = `${vocab.base}${ctx.path}`;
  if (type === "application/problem+json") {
    ctx.type = type;
    ctx.body = JSON.stringify(problem(r, instance));
  } else if (type === "text/html") {
    ctx.type = type;
    ctx.body = page(`Error ${r.status}`, htmlReport(r), { base: vocab.base });
  } else if (isRdfType(type)) {
    const q: Quad[] = [];
    errorReportNode(`${instance}#error`, r, instance, vocab, DataFactory.defaultGraph() as never, q);
    const triples = q.map((x) => DataFactory.quad(x.subject, x.predicate, x.object));
    ctx.type = type;
    // A few triples: serialised here.
    ctx.body = await serialiseRdf([toNTriples(triples)], type, vocab);
  } else {
    ctx.type = "text/plain";
    ctx.body = reportText(r);
  }
}
