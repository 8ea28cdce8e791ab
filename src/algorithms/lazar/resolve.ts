/**
 * Text a person typed for a structure → a compound of this service: the one place where the
 * predict box's text (the `structure` parameter of `POST /model/{id}`, README "Predicting") is
 * read. A line is what the compound search takes (resources/compound-query.ts, the one
 * resolution of a compound box): a SMILES or a standard InChI, read by `chem.identify` in the
 * request-time chem pool (never on the main thread), an InChIKey or a name the service knows.
 */
import { BadRequest } from "../../errors.ts";
import type { StructureRecord } from "../../chem/structure.ts";
import { resolveCompoundQuery } from "../../resources/compound-query.ts";
import type { Uris } from "../../resources/uris.ts";
import type { StoreBackend } from "../../store/backend.ts";
import type { Vocab } from "../../store/vocab.ts";
import type { RunRequestJob } from "../jobs.ts";
import { MAX_STRUCTURE_LINE_CHARS, MAX_STRUCTURE_LINES } from "./spec.ts";

/** One non-empty line of the text: its number (1-based, empty lines counted) and its text, trimmed. */
export interface StructureLine {
  readonly line: number;
  readonly text: string;
}

/**
 * The non-empty lines of a `structure` text, bounded before anything reads them: at most
 * MAX_STRUCTURE_LINES of them, each of at most MAX_STRUCTURE_LINE_CHARS characters (400 naming
 * the parameter and the line); at least one.
 */
export function structureLines(text: string, field = "structure"): StructureLine[] {
  const out: StructureLine[] = [];
  const all = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < all.length; i++) {
    const t = all[i]!.trim();
    if (t === "") continue;
    if (t.length > MAX_STRUCTURE_LINE_CHARS) throw new BadRequest(`parameter '${field}', line ${i + 1}: ${t.length} characters; a line holds one structure of at most ${MAX_STRUCTURE_LINE_CHARS}`, { field, line: i + 1 });
    out.push({ line: i + 1, text: t });
    if (out.length > MAX_STRUCTURE_LINES) throw new BadRequest(`parameter '${field}' has more than ${MAX_STRUCTURE_LINES} structures; upload a CSV or SD file instead (a file part 'file', or POST /dataset and then dataset_uri)`, { field });
  }
  if (out.length === 0) throw new BadRequest(`parameter '${field}' holds no structure`, { field });
  return out;
}

/** A structure read: the compound's URI and identity, or why it could not be read. */
export type Resolved = { readonly ok: true; readonly uri: string; readonly compound: StructureRecord } | { readonly ok: false; readonly error: string };

/** What reading a line needs: the store (names, InChIKeys), the vocabulary, the URIs, the request-time jobs. */
export interface ResolveServices {
  readonly store: StoreBackend;
  readonly vocab: Vocab;
  readonly uris: Uris;
  readonly run: RunRequestJob;
}

/**
 * One line's text → one compound (resolveCompoundQuery): the structure it spells, else the one
 * stored compound its InChIKey or name finds; a name or key of several compounds is refused with
 * their number (a structure says which is meant).
 */
export async function resolveStructure(text: string, s: ResolveServices): Promise<Resolved> {
  const r = await resolveCompoundQuery(text, { store: s.store, vocab: s.vocab, uris: s.uris, identify: (cell) => s.run("chem.identify", { cell }) });
  const hit = r.hits.find((h) => h.via.includes("structure")) ?? (r.hits.length === 1 ? r.hits[0] : undefined);
  if (hit) return { ok: true, uri: hit.compound.uri, compound: { inchi: hit.compound.inchi, inchikey: hit.compound.inchikey, smiles: hit.compound.smiles ?? null } };
  if (r.hits.length > 1) return { ok: false, error: `'${text}' names ${r.hits.length} compounds (${r.hits.slice(0, 3).map((h) => h.compound.smiles ?? h.compound.inchikey).join(", ")}${r.hits.length > 3 ? ", …" : ""}): give its SMILES` };
  return { ok: false, error: r.structureError ?? `'${text}' is no structure, InChIKey or name the service knows` };
}

/** How many structures are read at once (the chem pool queues them; a few in flight keep its worker busy). */
const IN_FLIGHT = 8;
/** Lines named in one refusal at most. */
const SHOWN_ERRORS = 5;

/**
 * Every line resolved, or a BadRequest naming the lines that could not be read (the first
 * SHOWN_ERRORS of them, with why; `details.line` is the first). Nothing is stored here.
 */
export async function resolveLines(lines: readonly StructureLine[], services: ResolveServices, field = "structure"): Promise<{ readonly line: number; readonly text: string; readonly uri: string; readonly compound: StructureRecord }[]> {
  const results = new Array<Resolved>(lines.length);
  for (let i = 0; i < lines.length; i += IN_FLIGHT) {
    const part = lines.slice(i, i + IN_FLIGHT);
    (await Promise.all(part.map((l) => resolveStructure(l.text, services)))).forEach((r, k) => (results[i + k] = r));
  }
  const bad = lines.flatMap((l, i) => {
    const r = results[i]!;
    return r.ok ? [] : [{ line: l.line, error: r.error }];
  });
  if (bad.length > 0) {
    const shown = bad.slice(0, SHOWN_ERRORS).map((b) => `line ${b.line}: ${b.error}`).join("; ");
    const more = bad.length > SHOWN_ERRORS ? ` (and ${bad.length - SHOWN_ERRORS} more lines)` : "";
    throw new BadRequest(`parameter '${field}': ${bad.length === 1 ? "a line" : `${bad.length} lines`} could not be read as a structure, nothing was stored: ${shown}${more}`, { field, line: bad[0]!.line });
  }
  return lines.map((l, i) => {
    const r = results[i] as Extract<Resolved, { ok: true }>;
    return { line: l.line, text: l.text, uri: r.uri, compound: r.compound };
  });
}
