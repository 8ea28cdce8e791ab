/**
 * Finding compounds in the store by what identifies them (compound-query.ts resolves a person's
 * query with these): by InChIKey, by a name a dataset gives them, and the structures of all of
 * them for a substructure search. Index lookups by object; run where the store lives
 * (resources/reads.ts).
 */
import * as ox from "oxigraph";
import { rdfs, type Vocab } from "../store/vocab.ts";

/** Compound graphs (URIs) whose InChIKey is `key`. */
export function compoundsByKey(store: ox.Store, key: string, v: Vocab): string[] {
  const out = new Set<string>();
  for (const q of store.match(null, ox.namedNode(v.qg.inchikey.value), ox.literal(key), null)) {
    if (q.graph.termType === "NamedNode" && q.subject.value === q.graph.value) out.add(q.subject.value);
  }
  return [...out].sort();
}

/** Most name hits returned (a name shared by very many compounds is not an identifier). */
export const MAX_NAME_HITS = 500;

/**
 * Compounds a dataset names with one of `names` exactly (`<compound> rdfs:label "name"` in the
 * dataset's graph, written for a dataset's name column: tabular/names.ts), with the name matched.
 */
export function compoundsByName(store: ox.Store, names: readonly string[], v: Vocab): { compound: string; name: string }[] {
  const out = new Map<string, string>();
  const prefix = `${v.base}/compound/`;
  for (const name of names) {
    for (const q of store.match(null, ox.namedNode(rdfs.label.value), ox.literal(name), null)) {
      if (q.subject.termType !== "NamedNode" || !q.subject.value.startsWith(prefix) || out.has(q.subject.value)) continue;
      out.set(q.subject.value, name);
      if (out.size >= MAX_NAME_HITS) break;
    }
  }
  return [...out].map(([compound, name]) => ({ compound, name }));
}

/** Every stored compound with a SMILES, in URI order (what a substructure search searches). */
export function compoundStructures(store: ox.Store, v: Vocab): { uris: string[]; smiles: string[] } {
  const rows: [string, string][] = [];
  for (const q of store.match(null, ox.namedNode(v.qg.smiles.value), null, null)) {
    if (q.graph.termType === "NamedNode" && q.subject.value === q.graph.value) rows.push([q.subject.value, q.object.value]);
  }
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { uris: rows.map((r) => r[0]), smiles: rows.map((r) => r[1]) };
}
