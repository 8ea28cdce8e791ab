/**
 * parse → operate → write: the "write" step. A route hands over the representations it can
 * produce (ordered, default first); the negotiated one is rendered and sent.
 */
import type { Readable } from "node:stream";
import type { Context } from "koa";
import { DataFactory } from "n3";
import type { NamedNode } from "@rdfjs/types";
import { toNTriples } from "../store/ntriples.ts";
import { iri, rdf, rdfs, type Vocab } from "../store/vocab.ts";
import { negotiate } from "./negotiate.ts";
import { RDF_TYPES, renderRdf } from "./render-rdf.ts";

/** A representation's body; a stream is sent as it is produced (chunked), e.g. a large CSV export. */
export type Body = string | Buffer | Readable;
export type Renderer = () => Body | Promise<Body>;
export type Representations = readonly (readonly [string, Renderer])[];

export async function respond(ctx: Context, reps: Representations, status = 200): Promise<void> {
  const type = negotiate(
    ctx,
    reps.map(([t]) => t),
  );
  const render = reps.find(([t]) => t === type)![1];
  const body = await render();
  ctx.status = status;
  ctx.type = type === "text/html" || type.startsWith("text/") ? `${type}; charset=utf-8` : type;
  ctx.body = body;
}

/** The RDF representations of an N-Triples graph, in the order DESIGN §6 gives. */
export function rdfReps(ntriples: () => string, v: Vocab): Representations {
  return RDF_TYPES.map((t) => [t, () => renderRdf(ntriples(), t, v)] as const);
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
export function collectionReps(collection: string, members: readonly string[], type: NamedNode, v: Vocab): Representations {
  const nt = (): string => {
    const c = iri(collection);
    const q = [DataFactory.quad(c, rdf.type, v.qg.Collection)];
    for (const m of members) q.push(DataFactory.quad(c, rdfs.member, iri(m)), DataFactory.quad(iri(m), rdf.type, type));
    return toNTriples(q);
  };
  return [["text/uri-list", () => uriList(members)], ...rdfReps(nt, v)];
}
