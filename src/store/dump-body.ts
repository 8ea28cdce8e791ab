/**
 * One graph's N-Triples body → the graph serialised by Oxigraph's writer, loaded and dumped as the
 * embedded store's thread loads and dumps it (memory-worker.ts, apply.ts): the same slices, the
 * same order of insertion, the same call, so the same bytes for the same writes (Oxigraph's order
 * within a graph depends only on the order of insertion). Used by the SPARQL backend's `dump`
 * (sparql-store.ts), inline for small graphs and in dump-worker.ts for larger ones.
 */
import * as ox from "oxigraph";
import { slices, withTemporaryStore } from "./apply.ts";

export function dumpBody(bytes: Uint8Array, graph: string, format: string): string {
  const g = ox.namedNode(graph);
  return withTemporaryStore((s) => {
    for (const part of slices(bytes)) s.load(part, { format: "application/n-triples", to_graph_name: g, lenient: true, no_transaction: true });
    return s.dump({ format: format as "application/n-triples", from_graph_name: g });
  });
}
