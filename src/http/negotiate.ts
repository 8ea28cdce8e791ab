/**
 * Content negotiation for every route (docs/opentox-api.md "Representations"): RFC 9110 q-values
 * and specificity through koa's `ctx.accepts` (the `negotiator` package), `Vary: Accept` always,
 * 406 listing what is available. The first offer is the default for `*\/*` or a missing Accept. A
 * `?format=` query parameter (e.g. `?format=ttl`) overrides the header, for browsers and `<img>`
 * tags.
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
