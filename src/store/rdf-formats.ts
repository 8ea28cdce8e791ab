/**
 * The RDF serialisations of a graph (docs/opentox-api.md "Representations"), all through libraries:
 * Turtle with prefixes by n3's writer, RDF/XML by Oxigraph's serialiser, JSON-LD by jsonld.js
 * (`application/json` = compacted against the published context `/ontology/context.jsonld`;
 * `application/ld+json` = compacted with the context inlined). Input is N-Triples, as the store
 * holds it, in slices of whole lines, so that a large graph is never parsed into one array of
 * quads. Pure: runs on the main thread for small graphs and in the render workers for large ones
 * (http/render-rdf.ts).
 *
 * Measured (bench/render.ts, triples per CPU second on a shared 2-core machine): Turtle
 * ≈ 120k, RDF/XML ≈ 110k, JSON-LD ≈ 50k (jsonld.js's compaction is most of it, halved by
 * `skipExpansion`: its input is expanded already). jsonld.js's own N-Quads parser is not used:
 * it checks every quad against all earlier ones of its graph (quadratic: 10,000 triples took
 * 3.6 CPU s, 20,000 took 13.4), so the quads come from n3's parser.
 */
import { Parser, Writer, type Quad } from "n3";
import * as ox from "oxigraph";
import jsonld from "jsonld";
import { slices, withTemporaryStore } from "./apply.ts";
import type { Vocab } from "./vocab.ts";

export const RDF_TYPES = ["text/turtle", "application/n-triples", "application/ld+json", "application/json", "application/rdf+xml"] as const;
export type RdfType = (typeof RDF_TYPES)[number];

export function isRdfType(t: string): t is RdfType {
  return (RDF_TYPES as readonly string[]).includes(t);
}

/** The JSON-LD context the service publishes: its prefixes. */
export function jsonldContext(v: Vocab): { "@context": Record<string, string> } {
  return { "@context": { ...v.prefixes() } };
}

export function contextUrl(v: Vocab): string {
  return `${v.base}/ontology/context.jsonld`;
}

/** N-Triples text or bytes, in slices of whole lines (apply.ts `slices`). */
export function ntriplesSlices(body: string | Uint8Array): Iterable<Uint8Array> {
  return slices(body);
}

const decoder = new TextDecoder();
const text = (slice: string | Uint8Array): string => (typeof slice === "string" ? slice : decoder.decode(slice));

/** The quads of one slice; blank node labels are kept as written, so that they match across slices. */
function parse(slice: string | Uint8Array): Quad[] {
  return new Parser({ format: "N-Triples", blankNodePrefix: "" }).parse(text(slice));
}

/** Serialise N-Triples given in slices of whole lines as `type`. */
export async function serialiseRdf(input: Iterable<string | Uint8Array>, type: RdfType, v: Vocab): Promise<string> {
  switch (type) {
    case "application/n-triples": {
      let out = "";
      for (const s of input) out += text(s);
      return out;
    }
    case "text/turtle": {
      const w = new Writer({ format: "Turtle", prefixes: v.prefixes() });
      for (const s of input) w.addQuads(parse(s));
      return new Promise<string>((resolve, reject) => w.end((err, out: string) => (err ? reject(err) : resolve(out))));
    }
    case "application/rdf+xml":
      // Oxigraph's writer needs the triples in a (temporary) store. Blank node labels are scoped
      // to one load call: a body with blank nodes is loaded in one call (the service's graphs have none).
      return withTemporaryStore((s) => {
        const parts = [...input];
        const whole = parts.some((p) => text(p).includes("_:"));
        for (const p of whole ? [parts.map(text).join("")] : parts) s.load(p, { format: "application/n-triples", lenient: true, no_transaction: true });
        return s.dump({ format: "application/rdf+xml", from_graph_name: ox.defaultGraph() });
      });
    case "application/ld+json":
    case "application/json":
      return jsonLd(input, type === "application/json" ? contextUrl(v) : jsonldContext(v)["@context"], v);
  }
}

/**
 * Compacted JSON-LD, one slice at a time: each slice's node objects go into one top-level
 * `@graph`. A subject whose triples fall into two slices appears as two node objects with the
 * same `@id`, which JSON-LD merges (JSON-LD 1.1 §4.1: node objects with the same @id are one
 * node), so the document holds exactly the input's triples.
 */
async function jsonLd(input: Iterable<string | Uint8Array>, context: string | Record<string, string>, v: Vocab): Promise<string> {
  const ctx = jsonldContext(v)["@context"] as jsonld.ContextDefinition;
  const nodes: string[] = [];
  for (const s of input) {
    const quads = parse(s);
    if (quads.length === 0) continue;
    const expanded = await jsonld.fromRDF(quads as never, {});
    const compacted = (await jsonld.compact(expanded, ctx, { skipExpansion: true, graph: true } as jsonld.Options.Compact)) as { "@graph"?: unknown[] };
    for (const n of compacted["@graph"] ?? []) nodes.push(JSON.stringify(n, null, 1).replace(/\n/g, "\n  "));
  }
  return `{\n "@context": ${JSON.stringify(context, null, 1).replace(/\n/g, "\n ")},\n "@graph": [${nodes.length > 0 ? `\n  ${nodes.join(",\n  ")}\n ` : ""}]\n}\n`;
}
