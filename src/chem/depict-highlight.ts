/**
 * `chem.highlight`: a structure drawn with the atoms and bonds of a substructure highlighted —
 * a lazar model's fragment (a SMARTS) found in a query compound, on the prediction page. RDKit
 * MinimalLib finds the first match (`get_substruct_match` of the SMARTS's query molecule) and
 * draws it (`get_svg_with_highlights`, RDKit's default highlight colour, #FF7F7F). Runs in the
 * request-time chem pool. The SMILES is measured against chem/limits.ts and the SMARTS by
 * `measureSmarts` before RDKit sees them; a toolkit failure replaces the instance
 * (readSmilesGuarded).
 */
import { BadRequest } from "../errors.ts";
import { toolkitFailed } from "./rdkit.ts";
import { depictionDetails, readSmilesGuarded } from "./structure.ts";

/** Characters of a SMARTS drawn at most (the miners' fragments have tens). */
export const MAX_SMARTS_CHARS = 2000;
/** Nesting of brackets, parentheses and recursive SMARTS at most. */
export const MAX_SMARTS_DEPTH = 32;

/** Why a SMARTS is refused before RDKit reads it, or null: too long, brackets unbalanced or nested too deep. */
export function measureSmarts(smarts: string): string | null {
  if (smarts.trim() === "") return "empty SMARTS";
  if (smarts.length > MAX_SMARTS_CHARS) return `the SMARTS has ${smarts.length} characters; at most ${MAX_SMARTS_CHARS} are drawn`;
  let depth = 0;
  for (const c of smarts) {
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    if (depth < 0) return "the SMARTS closes a bracket it did not open";
    if (depth > MAX_SMARTS_DEPTH) return `the SMARTS nests brackets deeper than ${MAX_SMARTS_DEPTH}`;
  }
  return depth === 0 ? null : "the SMARTS leaves a bracket open";
}

export interface HighlightInput {
  readonly smiles: string;
  readonly smarts: string;
  readonly width: number;
  readonly height: number;
}

/** The drawing (a standalone SVG, UTF-8) and the atoms highlighted (none when the SMARTS does not match). */
export interface HighlightOutput {
  readonly svg: string;
  readonly atoms: readonly number[];
}

/**
 * The SMILES drawn with the first match of the SMARTS highlighted; null when the SMILES cannot be
 * read. A SMARTS refused by `measureSmarts` or that RDKit cannot read is a BadRequest (field `highlight`).
 */
export async function highlightJob(input: HighlightInput): Promise<HighlightOutput | null> {
  const details = { width: input.width, height: input.height };
  depictionDetails(details.width, details.height); // 400 for a bad size
  const refused = measureSmarts(input.smarts);
  if (refused !== null) throw new BadRequest(refused, { field: "highlight" });
  let badSmarts = false;
  const out = await readSmilesGuarded(input.smiles.trim(), (rdkit, smiles): HighlightOutput | null => {
    if (smiles === "" || /\s/.test(smiles)) return null;
    const mol = rdkit.get_mol(smiles);
    if (mol === null) return null;
    let query: ReturnType<typeof rdkit.get_qmol> = null;
    try {
      try {
        query = rdkit.get_qmol(input.smarts);
      } catch (e) {
        if (toolkitFailed(rdkit, e)) throw e;
        query = null;
      }
      if (query === null) {
        badSmarts = true;
        return null;
      }
      const match = JSON.parse(mol.get_substruct_match(query)) as { atoms?: number[]; bonds?: number[] };
      const atoms = match.atoms ?? [];
      const svg = mol.get_svg_with_highlights(JSON.stringify({ ...details, atoms, bonds: match.bonds ?? [] }));
      if (!svg.includes("</svg>")) return null;
      return { svg: `<?xml version='1.0' encoding='UTF-8'?>\n${svg.slice(svg.indexOf("<svg"))}`, atoms };
    } finally {
      for (const m of [mol, query]) {
        try {
          m?.delete();
        } catch {
          // the instance is being replaced (the exception that broke it is reported)
        }
      }
    }
  });
  if (badSmarts) throw new BadRequest(`RDKit cannot read the SMARTS '${input.smarts.slice(0, 80)}'`, { field: "highlight" });
  return out;
}
