/**
 * parse → operate → write: the "write" step. A route hands over the representations it can
 * produce (ordered, default first); the negotiated one is rendered and sent. A renderer gets a
 * signal that aborts when the client goes away (a long render then stops).
 */
import type { Readable } from "node:stream";
import type { Context } from "koa";
import type { NamedNode } from "@rdfjs/types";
import { NotAcceptable } from "../errors.ts";
import { negotiate, negotiateLenient } from "./negotiate.ts";
import { collectionSource, fitting, OverBudget, RDF_TYPES, renderRdf, type RdfSource, type RenderDeps } from "./render-rdf.ts";

/** A representation's body; a stream is sent as it is produced (chunked), e.g. a large CSV export. */
export type Body = string | Buffer | Readable;
export type Renderer = (signal: AbortSignal) => Body | Promise<Body>;
export type Representations = readonly (readonly [string, Renderer])[];

export async function respond(ctx: Context, reps: Representations, status = 200): Promise<void> {
  const offers = reps.map(([t]) => t);
  const type = negotiate(ctx, offers);
  const render = reps.find(([t]) => t === type)![1];
  // The response closes before it is written only when the client went away.
  const gone = new AbortController();
  const abort = (): void => gone.abort();
  ctx.res.once("close", abort);
  let body: Body;
  try {
    body = await render(gone.signal);
  } catch (err) {
    // Name every representation of this resource that can be had instead.
    if (err instanceof OverBudget) {
      const rdfFits = fitting(err.triples);
      const available = offers.filter((t) => t !== type && (!(RDF_TYPES as readonly string[]).includes(t) || (rdfFits as string[]).includes(t)));
      throw new NotAcceptable(available, type, err.why);
    }
    throw err;
  } finally {
    ctx.res.off("close", abort);
  }
  ctx.status = status;
  ctx.type = type === "text/html" || type.startsWith("text/") ? `${type}; charset=utf-8` : type;
  ctx.body = body;
}

/**
 * The RDF representations of a graph, in RDF_TYPES' order: Turtle first (the default of a route
 * that offers RDF first), then N-Triples, JSON-LD, JSON and RDF/XML. `source` is called only for
 * the representation chosen (it may read the store).
 */
export function rdfReps(source: () => RdfSource | Promise<RdfSource>, deps: RenderDeps): Representations {
  return RDF_TYPES.map((t) => [t, async (signal: AbortSignal) => renderRdf(await source(), t, deps, signal)] as const);
}

export function uriList(uris: Iterable<string>): string {
  let s = "";
  for (const u of uris) s += `${u}\r\n`;
  return s;
}

/**
 * The representations of a collection: its members as a uri-list (the default), and as RDF
 * (`<collection> rdfs:member <m>`, each member typed with `type`).
 */
export function collectionReps(collection: string, members: readonly string[], type: NamedNode, deps: RenderDeps): Representations {
  return [["text/uri-list", () => uriList(members)], ...rdfReps(() => collectionSource({ uri: collection, members, memberType: type.value }), deps)];
}

/**
 * A browser's form POST (one that takes HTML) is answered with `303 See Other` to the resource it
 * made or started (a task, a prediction), so that the browser shows that page and a reload does
 * not post again; returns false for every other client, which gets the route's own answer.
 */
export function seeOther(ctx: Context, uri: string): boolean {
  if (negotiateLenient(ctx, ["text/uri-list", "text/html"]) !== "text/html") return false;
  ctx.status = 303;
  ctx.set("Location", uri);
  ctx.type = "text/html; charset=utf-8";
  ctx.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>See other</title></head><body><p>See <a href="${uri.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}">the result</a>.</p></body></html>`;
  return true;
}
