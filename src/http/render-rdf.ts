/**
 * RDF serialisations of a graph (DESIGN §6), all through libraries: Turtle with prefixes by n3's
 * writer, N-Triples and RDF/XML by Oxigraph's serialisers, JSON-LD by jsonld.js (`application/json`
 * = compacted against the published context `/ontology/context.jsonld`; `application/ld+json` =
 * compacted with the context inlined). Input is N-Triples text, as the store holds it.
 */
import { Parser, Writer } from "n3";
import * as ox from "oxigraph";
import jsonld from "jsonld";
import { NotAcceptable } from "../errors.ts";
import { withTemporaryStore } from "../store/apply.ts";
import { countStatements } from "../store/graph-store.ts";
import type { Vocab } from "../store/vocab.ts";

/** Largest RDF/XML rendering (its temporary store shares the main store's WebAssembly memory). */
const MAX_RDFXML_TRIPLES = 1_000_000;

export const RDF_TYPES = ["text/turtle", "application/n-triples", "application/ld+json", "application/json", "application/rdf+xml"] as const;
export type RdfType = (typeof RDF_TYPES)[number];

export function isRdfType(t: string): t is RdfType {
  return (RDF_TYPES as readonly string[]).includes(t);
}

export function jsonldContext(v: Vocab): Record<string, unknown> {
  return { "@context": { ...v.prefixes() } };
}

export function contextUrl(v: Vocab): string {
  return `${v.base}/ontology/context.jsonld`;
}

export async function renderRdf(ntriples: string, type: RdfType, v: Vocab): Promise<string> {
  switch (type) {
    case "application/n-triples":
      return ntriples;
    case "text/turtle": {
      const quads = new Parser({ format: "N-Triples" }).parse(ntriples);
      return new Promise<string>((resolve, reject) => {
        const w = new Writer({ format: "Turtle", prefixes: v.prefixes() });
        w.addQuads(quads);
        w.end((err, out: string) => (err ? reject(err) : resolve(out)));
      });
    }
    case "application/rdf+xml": {
      // Oxigraph's writer needs the triples in a (temporary) store, in the main store's memory.
      const n = countStatements(ntriples);
      if (n > MAX_RDFXML_TRIPLES) {
        throw new NotAcceptable(["application/n-triples", "text/turtle", "application/ld+json", "text/html"], type, `this resource has ${n} triples; RDF/XML is rendered for at most ${MAX_RDFXML_TRIPLES} (Oxigraph's writer holds them in memory)`);
      }
      return withTemporaryStore((s) => {
        s.load(ntriples, { format: "application/n-triples" });
        return s.dump({ format: "application/rdf+xml", from_graph_name: ox.defaultGraph() });
      });
    }
    case "application/ld+json":
    case "application/json": {
      const expanded = await jsonld.fromRDF(ntriples, { format: "application/n-quads" });
      const ctx = jsonldContext(v);
      const compacted = (await jsonld.compact(expanded, ctx["@context"] as jsonld.ContextDefinition)) as Record<string, unknown>;
      if (type === "application/json") compacted["@context"] = contextUrl(v);
      return JSON.stringify(compacted, null, 1);
    }
  }
}
