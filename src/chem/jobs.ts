/**
 * Worker-side jobs of request-time chemistry (routes/compounds.ts, models.ts): reading one
 * structure, drawing one as SVG and writing one as a molfile. They run in the chem pool
 * (app.ts: a worker of its own, so that a request does not wait behind task jobs), never on the
 * main thread; chem/structure.ts bounds the input and guards the toolkit.
 */
import { loadRDKit } from "./rdkit.ts";
import { depictSvg, parseMolfile, parseStructure, toMolfile, type StructureResult } from "./structure.ts";

/** One structure (SMILES or standard InChI; with `molfile`, a molfile) → its identity and structure. */
export async function identifyStructure(input: { readonly cell: string; readonly molfile?: boolean }): Promise<StructureResult> {
  const rdkit = await loadRDKit();
  return input.molfile === true ? parseMolfile(rdkit, input.cell) : parseStructure(rdkit, input.cell);
}

/** SVG depiction of a SMILES (null when it does not parse). */
export async function depictJob(input: { readonly smiles: string; readonly width: number; readonly height: number }): Promise<string | null> {
  return depictSvg(await loadRDKit(), input.smiles, input.width, input.height);
}

/** V2000 molfile of a SMILES (null when it does not parse). */
export async function molfileJob(input: { readonly smiles: string }): Promise<string | null> {
  return toMolfile(await loadRDKit(), input.smiles);
}
