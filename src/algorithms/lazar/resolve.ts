/**
 * Text a person typed for a structure → a compound of this service: the one place where the
 * predict box's text (the `structure` parameter of `POST /model/{id}`, README "Predicting") is
 * read. Today a line is a SMILES or a standard InChI, read by `chem.identify` in the request-time
 * chem pool (as `POST /compound` reads its body; never on the main thread); a lookup by name
 * belongs here too, so that every caller gets it at once.
 */
import { BadRequest } from "../../errors.ts";
import type { StructureRecord } from "../../chem/structure.ts";
import type { Uris } from "../../resources/uris.ts";
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

/**
 * One line's text → a compound: a SMILES or a standard InChI (chem.identify). The place for a
 * name lookup: a text that is neither would be looked up among the names the service knows.
 */
export async function resolveStructure(text: string, run: RunRequestJob, uris: Uris): Promise<Resolved> {
  const r = await run("chem.identify", { cell: text });
  if (!r.ok) return { ok: false, error: r.error };
  return { ok: true, uri: uris.compound(r.value.inchi), compound: r.value };
}

/** How many structures are read at once (the chem pool queues them; a few in flight keep its worker busy). */
const IN_FLIGHT = 8;
/** Lines named in one refusal at most. */
const SHOWN_ERRORS = 5;

/**
 * Every line resolved, or a BadRequest naming the lines that could not be read (the first
 * SHOWN_ERRORS of them, with why; `details.line` is the first). Nothing is stored here.
 */
export async function resolveLines(lines: readonly StructureLine[], run: RunRequestJob, uris: Uris, field = "structure"): Promise<{ readonly line: number; readonly text: string; readonly uri: string; readonly compound: StructureRecord }[]> {
  const results = new Array<Resolved>(lines.length);
  for (let i = 0; i < lines.length; i += IN_FLIGHT) {
    const part = lines.slice(i, i + IN_FLIGHT);
    (await Promise.all(part.map((l) => resolveStructure(l.text, run, uris)))).forEach((r, k) => (results[i + k] = r));
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
