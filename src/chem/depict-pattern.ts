/**
 * Drawing a substructure pattern (a mined feature's SMARTS) as an SVG picture with the pattern's
 * atoms and bonds highlighted: RDKit MinimalLib's `get_qmol` (RDKit's SMARTS reader) and its SVG
 * writer. The chem pool's job `chem.depictPattern` (algorithms/jobs.ts), run for a waiting request
 * with the request budget (http/request-job.ts), never on the main thread.
 *
 * The SMARTS is bounded before RDKit sees it: at most MAX_PATTERN_CHARS characters, brackets and
 * parentheses (recursive `$(…)` included) nested at most MAX_PATTERN_DEPTH deep (RDKit's SMARTS
 * reader recurses), at most LIMITS.atoms atoms. The miners' patterns are far below these (BBRC on
 * Kazius: the longest SMARTS 98 characters; LAST-PM's recursive ones a few hundred).
 */
import { UnprocessableEntity } from "../errors.ts";
import { LIMITS } from "./limits.ts";
import { loadRDKit, toolkitFailed, type RDKit, type RDKitMol } from "./rdkit.ts";
import { depictionDetails } from "./structure.ts";

export const MAX_PATTERN_CHARS = 2000;
export const MAX_PATTERN_DEPTH = 32;

/** Why a pattern is not drawn (a limit), or null when it may be given to RDKit. */
export function patternRefusal(smarts: string): string | null {
  if (smarts.length === 0) return "the pattern is empty";
  if (smarts.length > MAX_PATTERN_CHARS) return `the pattern has ${smarts.length} characters; at most ${MAX_PATTERN_CHARS} are drawn`;
  let depth = 0;
  let deepest = 0;
  let atoms = 0;
  for (let i = 0; i < smarts.length; i++) {
    const c = smarts[i]!;
    if (c === "(" || c === "[") {
      depth++;
      if (c === "[" && depth === 1) atoms++;
      deepest = Math.max(deepest, depth);
    } else if (c === ")" || c === "]") depth = Math.max(0, depth - 1);
    else if (depth === 0 && /[A-Za-z*]/.test(c)) atoms++;
  }
  if (deepest > MAX_PATTERN_DEPTH) return `the pattern nests brackets ${deepest} deep; at most ${MAX_PATTERN_DEPTH} are drawn`;
  if (atoms > LIMITS.atoms) return `the pattern has about ${atoms} atoms; at most ${LIMITS.atoms} are drawn`;
  return null;
}

function release(mol: RDKitMol): void {
  try {
    mol.delete();
  } catch {
    // a broken instance is being replaced
  }
}

/**
 * A standalone SVG document (UTF-8) of the pattern, every atom and bond highlighted; null when
 * RDKit cannot read the SMARTS. UnprocessableEntity past a limit, or when RDKit failed on it (the
 * instance is then replaced); BadRequest for a size outside DEPICTION_SIZE.
 */
export function depictPattern(rdkit: RDKit, smarts: string, width = 240, height = 160): string | null {
  const refusal = patternRefusal(smarts);
  if (refusal) throw new UnprocessableEntity(`the pattern is not drawn: ${refusal}`, { field: "smarts" });
  const size = JSON.parse(depictionDetails(width, height)) as { width: number; height: number };
  let q: RDKitMol | null = null;
  try {
    q = rdkit.get_qmol(smarts);
    if (q === null) return null;
    const atoms = q.get_num_atoms();
    const bonds = (JSON.parse(q.get_json()) as { molecules?: { bonds?: unknown[] }[] }).molecules?.[0]?.bonds?.length ?? 0;
    const details = { ...size, atoms: [...Array(atoms).keys()], bonds: [...Array(bonds).keys()], highlightColour: [0.6, 0.8, 1.0] };
    const svg = q.get_svg_with_highlights(JSON.stringify(details));
    if (!svg.includes("</svg>")) return null;
    // RDKit declares iso-8859-1; the service sends UTF-8.
    return `<?xml version='1.0' encoding='UTF-8'?>\n${svg.slice(svg.indexOf("<svg"))}`;
  } catch (e) {
    if (toolkitFailed(rdkit, e)) throw new UnprocessableEntity("RDKit failed while drawing the pattern (it was restarted)", { field: "smarts" });
    return null;
  } finally {
    if (q) release(q);
  }
}

/** The chem pool's job: the picture of a SMARTS (null: RDKit cannot read it). */
export async function depictPatternJob(input: { readonly smarts: string; readonly width: number; readonly height: number }): Promise<string | null> {
  return depictPattern(await loadRDKit(), input.smarts, input.width, input.height);
}
