/**
 * Worker-side jobs of request-time chemistry (routes/compounds.ts, models.ts): reading one
 * structure, drawing one as SVG and writing one as a molfile. They run in the chem pool
 * (app.ts: a worker of its own, so that a request does not wait behind task jobs), never on the
 * main thread; chem/structure.ts bounds the input and guards the toolkit. Also the fingerprints
 * of a list of compounds (`fingerprintsJob`, chem/fingerprints.ts), for models and similarity.
 */
import { BadRequest } from "../errors.ts";
import { checkFingerprintSpec, fingerprint, fingerprintSpace, type FingerprintSpec, type ResolvedFingerprintSpec } from "./fingerprints.ts";
import { measureSmiles } from "./limits.ts";
import { describeToolkitError, loadRDKit, toolkitFailed } from "./rdkit.ts";
import { depictSvg, parseMolfile, parseStructure, readSmilesGuarded, toMolfile, type StructureResult } from "./structure.ts";

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

/** Structures of one `chem.fingerprints` job at most (a job of 1000 takes well under a second; see docs/fingerprints.md). */
export const MAX_FINGERPRINT_BATCH = 1000;

export interface FingerprintsInput {
  /** SMILES, one per compound (at most MAX_FINGERPRINT_BATCH; each measured against chem/limits.ts). */
  readonly smiles: readonly string[];
  readonly spec: FingerprintSpec;
}

/**
 * The fingerprints of a list of compounds in compressed sparse rows: compound i's ascending ids
 * are `idx[offsets[i] … offsets[i + 1])`; a compound whose structure was refused or could not be
 * read has none, and its message in `errors[i]` (null for the others). The ids lie in [0, space).
 */
export interface FingerprintsOutput {
  readonly offsets: Int32Array;
  readonly idx: Int32Array;
  readonly errors: readonly (string | null)[];
  readonly space: number;
}

/** Parser options of the fingerprints: RDKit's full sanitisation, explicit hydrogens folded in. */
const FINGERPRINT_PARSE = JSON.stringify({ sanitize: true, kekulize: true, removeHs: true });

/**
 * `chem.fingerprints`: the spec and the list are checked first (BadRequest naming `kind`,
 * `radius`, `bits` or `smiles`); then every SMILES is measured against chem/limits.ts before
 * RDKit sees it, and one that is refused, does not parse, or that RDKit fails on gets its error
 * while the others get their ids (a broken RDKit instance is replaced for the next one).
 */
export async function fingerprintsJob(input: FingerprintsInput): Promise<FingerprintsOutput> {
  const spec = checkFingerprintSpec(input.spec);
  const list: unknown = input.smiles;
  if (!Array.isArray(list)) throw new BadRequest("smiles must be a list of SMILES", { field: "smiles" });
  if (list.length > MAX_FINGERPRINT_BATCH) {
    throw new BadRequest(`too many structures for one fingerprint job: ${list.length} (the limit is ${MAX_FINGERPRINT_BATCH})`, { field: "smiles" });
  }
  const n = list.length;
  const offsets = new Int32Array(n + 1);
  const errors = new Array<string | null>(n).fill(null);
  const rows: Int32Array[] = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    const r = await fingerprintOne(list[i] as unknown, spec);
    if (typeof r === "string") errors[i] = r;
    else {
      rows.push(r);
      total += r.length;
    }
    offsets[i + 1] = total;
  }
  const idx = new Int32Array(total);
  let at = 0;
  for (const r of rows) {
    idx.set(r, at);
    at += r.length;
  }
  return { offsets, idx, errors, space: fingerprintSpace(spec) };
}

/** One compound's ids, or why it has none. */
async function fingerprintOne(smiles: unknown, spec: ResolvedFingerprintSpec): Promise<Int32Array | string> {
  if (typeof smiles !== "string") return "not a SMILES string";
  const text = smiles.trim();
  if (text === "") return "empty structure";
  // As for a SMILES cell (chem/structure.ts): one token, not a CommonChem JSON document.
  if (/\s/.test(text) || text.charCodeAt(0) === 123) return "SMILES could not be parsed";
  const size = measureSmiles(text);
  if (size.refusal) return size.refusal.message;
  let problem: string | null = null;
  const ids = await readSmilesGuarded(text, (rdkit, s) => {
    const mol = rdkit.get_mol(s, FINGERPRINT_PARSE);
    if (mol === null) {
      problem = "SMILES could not be parsed";
      return null;
    }
    try {
      return fingerprint(mol, spec);
    } catch (e) {
      // A broken instance: readSmilesGuarded replaces it and fails this structure.
      if (toolkitFailed(rdkit, e)) throw e;
      problem = `RDKit could not compute the fingerprint (${describeToolkitError(e)})`;
      return null;
    } finally {
      try {
        mol.delete();
      } catch {
        // the instance is being replaced (the exception that broke it is reported)
      }
    }
  });
  if (ids !== null) return ids;
  return problem ?? "RDKit failed on this structure (it was restarted)";
}
