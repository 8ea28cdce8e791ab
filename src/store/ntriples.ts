/**
 * Quads → N-Triples text with n3's writer (never by hand): the form in which resource modules
 * hand graphs to the store (GraphStore.commit) and to workers. Graph names are dropped: the
 * store puts the triples into the graph the commit names.
 */
import { DataFactory, Writer } from "n3";
import type { Quad } from "@rdfjs/types";

export function toNTriples(quads: readonly Quad[]): string {
  const triples = quads.map((q) => (q.graph.termType === "DefaultGraph" ? q : DataFactory.quad(q.subject, q.predicate, q.object)));
  return new Writer({ format: "N-Triples" }).quadsToString(triples);
}

/** Triples → N-Quads text in graph `graph` (n3's writer). */
export function toNQuads(triples: readonly Quad[], graph: Quad["graph"]): string {
  return new Writer({ format: "N-Quads" }).quadsToString(triples.map((q) => DataFactory.quad(q.subject, q.predicate, q.object, graph)));
}
