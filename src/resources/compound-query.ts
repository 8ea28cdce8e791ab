/**
 * From what a person types in a compound box to the compounds the service knows (README
 * "Finding compounds"): the one resolution of a query, used by the compound search
 * (GET /compound?q=…) and meant for any other box that takes a compound (the predict box).
 *
 * - an InChIKey (`XXXXXXXXXXXXXX-XXXXXXXXXX-X`): the compounds with that key (an index lookup);
 * - a standard InChI (`InChI=1S/…`): read (off the main thread), its compound;
 * - anything else: a name the service knows — a value of a dataset's name column, kept as the
 *   compound's `rdfs:label` in that dataset (tabular/names.ts) — matched as typed, in lower case,
 *   upper case, with a capital first letter, or with every word capitalised (index lookups, no
 *   scan); and, when it has no white space, a SMILES read off the main thread (any spelling of a
 *   structure finds its compound: compounds are identified by their standard InChI).
 *
 * A structure that reads but that no dataset holds is a hit too, marked `stored: false` (its page
 * is served from the structure; it is in no dataset).
 */
import type { StructureResult } from "../chem/structure.ts";
import { LIMITS } from "../chem/limits.ts";
import { BadRequest } from "../errors.ts";
import type { StoreBackend } from "../store/backend.ts";
import type { Vocab } from "../store/vocab.ts";
import type { CompoundView } from "./dataset-read.ts";
import { read } from "./reads.ts";
import type { Uris } from "./uris.ts";

/** Longest query read (the longest SMILES or InChI the service reads; each kind is then held to its own limit). */
export const MAX_QUERY_CHARS = Math.max(LIMITS.smilesChars, LIMITS.inchiChars);

export type QueryKind = "inchikey" | "inchi" | "text";

const INCHIKEY = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/;

/** What kind of query this is (trimmed text). */
export function queryKind(q: string): QueryKind {
  if (INCHIKEY.test(q)) return "inchikey";
  if (q.startsWith("InChI=")) return "inchi";
  return "text";
}

/** The spellings of a name looked up: as typed, lower, upper, first letter capital, every word capitalised (words split at spaces and hyphens). */
export function nameVariants(q: string): string[] {
  const lower = q.toLowerCase();
  const words = lower.replace(/(^|[\s-])(\p{Ll})/gu, (_, sep: string, c: string) => sep + c.toUpperCase());
  return [...new Set([q, lower, q.toUpperCase(), lower.charAt(0).toUpperCase() + lower.slice(1), words])];
}

export interface CompoundHit {
  readonly compound: CompoundView;
  /** In the service's data (a compound graph), or only read from the query. */
  readonly stored: boolean;
  /** How the query found it. */
  readonly via: readonly ("structure" | "inchikey" | "name")[];
  /** The names the datasets give it that matched the query. */
  readonly names: readonly string[];
}

export interface CompoundResolution {
  readonly query: string;
  readonly kind: QueryKind;
  /** Stored compounds first, in the order found. */
  readonly hits: readonly CompoundHit[];
  /** Why the query was not read as a structure (when it was tried and nothing else matched). */
  readonly structureError?: string;
}

export interface CompoundQueryServices {
  readonly store: StoreBackend;
  readonly vocab: Vocab;
  readonly uris: Uris;
  /** Reads one structure (SMILES or InChI), off the main thread. */
  readonly identify: (text: string) => Promise<StructureResult>;
}

/** The compounds query `raw` names (see the module comment); 400 for an empty or too long query. */
export async function resolveCompoundQuery(raw: string, s: CompoundQueryServices): Promise<CompoundResolution> {
  const q = raw.trim();
  if (q === "") throw new BadRequest("the query 'q' is empty: give a SMILES, an InChI, an InChIKey or a name", { field: "q" });
  if (q.length > MAX_QUERY_CHARS) throw new BadRequest(`the query 'q' has ${q.length} characters; at most ${MAX_QUERY_CHARS} are read`, { field: "q" });
  const kind = queryKind(q);
  const found = new Map<string, { via: Set<CompoundHit["via"][number]>; names: Set<string>; view?: CompoundView }>();
  const add = (uri: string, via: CompoundHit["via"][number], name?: string, view?: CompoundView): void => {
    let h = found.get(uri);
    if (!h) found.set(uri, (h = { via: new Set(), names: new Set() }));
    h.via.add(via);
    if (name !== undefined) h.names.add(name);
    if (view) h.view = view;
  };
  let structureError: string | undefined;
  if (kind === "inchikey") {
    for (const uri of await read(s.store, s.vocab, "compoundsByKey", q)) add(uri, "inchikey");
  } else {
    if (kind === "text") {
      for (const { compound, name } of await read(s.store, s.vocab, "compoundsByName", nameVariants(q))) add(compound, "name", name);
    }
    if (kind === "inchi" || !/\s/.test(q)) {
      const r = await s.identify(q);
      if (r.ok) add(s.uris.compound(r.value.inchi), "structure", undefined, { uri: s.uris.compound(r.value.inchi), inchi: r.value.inchi, inchikey: r.value.inchikey, ...(r.value.smiles ? { smiles: r.value.smiles } : {}) });
      else structureError = r.error;
    }
  }
  const uris = [...found.keys()];
  const stored = uris.filter((u) => s.store.has(u));
  const views = await read(s.store, s.vocab, "compounds", stored);
  const byUri = new Map(stored.map((u, i) => [u, views[i]]));
  const hits: CompoundHit[] = [];
  for (const uri of uris) {
    const h = found.get(uri)!;
    const view = byUri.get(uri) ?? h.view;
    if (!view) continue;
    hits.push({ compound: view, stored: byUri.get(uri) != null, via: [...h.via], names: [...h.names] });
  }
  hits.sort((a, b) => Number(b.stored) - Number(a.stored));
  return { query: q, kind, hits, ...(hits.length === 0 && structureError !== undefined ? { structureError } : {}) };
}
