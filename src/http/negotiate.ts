/**
 * Content negotiation for every route (docs/opentox-api.md "Representations"): RFC 9110 q-values
 * and specificity through koa's `ctx.accepts` (the `negotiator` package), `Vary: Accept` always,
 * 406 listing what is available. The first offer is the default for `*\/*` or a missing Accept. A
 * `?format=` query parameter (e.g. `?format=ttl`) overrides the header, for browsers and `<img>`
 * tags.
 *
 * Media-type parameters of an Accept header other than `q` (`text/turtle; charset=utf-8`,
 * `application/ld+json; profile="…#expanded"`) are dropped before negotiation (acceptParams, a
 * middleware): the service's offers carry no parameters, and negotiator would otherwise match
 * nothing and answer 406. The charset is always UTF-8 anyway; a JSON-LD profile is not honoured
 * (the service writes one form of JSON-LD), which RFC 9110 allows: a server may ignore what it
 * does not support rather than refuse.
 */
import type { Context } from "koa";
import { BadRequest, NotAcceptable } from "../errors.ts";

export const FORMAT_ALIASES: Readonly<Record<string, string>> = {
  ttl: "text/turtle",
  turtle: "text/turtle",
  nt: "application/n-triples",
  ntriples: "application/n-triples",
  jsonld: "application/ld+json",
  json: "application/json",
  rdf: "application/rdf+xml",
  rdfxml: "application/rdf+xml",
  xml: "application/rdf+xml",
  html: "text/html",
  csv: "text/csv",
  uri: "text/uri-list",
  urilist: "text/uri-list",
  txt: "text/plain",
  svg: "image/svg+xml",
  smi: "chemical/x-daylight-smiles",
  smiles: "chemical/x-daylight-smiles",
  inchi: "chemical/x-inchi",
  mol: "chemical/x-mdl-molfile",
  sdf: "chemical/x-mdl-molfile",
  events: "text/event-stream",
  problem: "application/problem+json",
};

/** One media range of an Accept header: the type, then `;`-separated parameters (a quoted value may hold `,` or `;`). */
const MEDIA_RANGE = /\s*([^\s,;]+)((?:\s*;\s*[^\s=;,]+\s*=\s*(?:"(?:[^"\\]|\\.)*"|[^\s;,]*))*)\s*(?:,|$)/gy;
const PARAM = /;\s*([^\s=;,]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s;,]*)/g;

/**
 * An Accept header with every parameter but `q` removed, e.g. `text/turtle; charset=utf-8;q=0.9,
 * *\/*;q=0.1` → `text/turtle;q=0.9, *\/*;q=0.1`; undefined when it cannot be read (left as is: negotiator
 * then decides).
 */
export function withoutMediaParams(accept: string): string | undefined {
  if (!accept.includes(";")) return accept;
  const out: string[] = [];
  MEDIA_RANGE.lastIndex = 0;
  while (MEDIA_RANGE.lastIndex < accept.length) {
    const m = MEDIA_RANGE.exec(accept);
    if (!m || m[0] === "") return undefined;
    const q = [...m[2]!.matchAll(PARAM)].find((p) => p[1]!.toLowerCase() === "q");
    out.push(q ? `${m[1]};q=${q[2]}` : m[1]!);
  }
  return out.join(", ");
}

/** Middleware: the request's Accept without media-type parameters (see above), before anything reads it. */
export function acceptParams() {
  return async function dropAcceptParams(ctx: Context, next: () => Promise<unknown>): Promise<void> {
    const accept = ctx.req.headers.accept;
    if (typeof accept === "string" && accept.includes(";")) {
      const plain = withoutMediaParams(accept);
      if (plain !== undefined) ctx.req.headers.accept = plain;
    }
    await next();
  };
}

/** Pick the media type to answer with among `offers` (ordered: default first). */
export function negotiate(ctx: Context, offers: readonly string[]): string {
  ctx.vary("Accept");
  const format = typeof ctx.query.format === "string" ? ctx.query.format : undefined;
  if (format !== undefined) {
    const type = FORMAT_ALIASES[format.toLowerCase()] ?? (format.includes("/") ? format : undefined);
    if (!type) throw new BadRequest(`unknown format '${format}'; known: ${Object.keys(FORMAT_ALIASES).join(", ")}`, { field: "format" });
    if (!offers.includes(type)) throw new NotAcceptable(offers, type);
    return type;
  }
  if (!ctx.get("Accept")) return offers[0]!;
  const chosen = ctx.accepts(...offers);
  if (typeof chosen !== "string") throw new NotAcceptable(offers, ctx.get("Accept"));
  return chosen;
}

/** Like negotiate, but never throws: used to render errors (falls back to text/plain). */
export function negotiateLenient(ctx: Context, offers: readonly string[]): string {
  try {
    return negotiate(ctx, offers);
  } catch {
    return "text/plain";
  }
}
