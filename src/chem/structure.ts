/**
 * Structure cells → compound identity (standard InChI, InChIKey, canonical SMILES), plus
 * depiction and molfile export, on RDKit MinimalLib.
 *
 * As lazar's upload did, a structure cell holds an InChI or a SMILES, and the compound is
 * identified by its InChI. Differences from lazar: only *standard* InChIs (`InChI=1S/`) are
 * accepted as identifiers — non-standard ones (`InChI=1/…`, as in the reference's
 * batch_prediction_inchi_small.csv) are rejected with a message, because the compound URI is the
 * standard InChI; a SMILES cell must be one token (RDKit would otherwise read `c1ccccc1 Tost` as
 * benzene named "Tost"). URL-encoded InChIs (`InChI%3D1S%2F…`, as lazar's own CSV export wrote
 * them under a `SMILES` header) are decoded first.
 *
 * `parseStructure` is the hot path of dataset uploads: one `get_mol`, `get_inchi` and
 * `get_inchikey_for_inchi` per distinct cell, nothing else. The compound keeps the SMILES it was
 * given (the spelling RDKit read; see withPyrroleHydrogen), not RDKit's canonical SMILES: writing
 * that cost as much as a third of the work per structure (MUV's upload: 62 → 52 CPU-seconds).
 * The InChI is the identity; the SMILES is one valid spelling of it.
 *
 * **Isolation** (docs/ARCHITECTURE.md "Isolation of chemistry"). Every structure is measured
 * against chem/limits.ts before RDKit sees it; a refusal names the limit
 * (`StructureResult.limit`). Every exception from RDKit goes to `toolkitFailed`
 * (chem/rdkit.ts), which replaces a broken instance; the structure that broke it fails with a
 * message saying so, and the caller's next `loadRDKit()` gets the fresh instance. After a
 * structure of more than HEALTH_CHECK_ATOMS atoms, and after every InChI decoding (which
 * catches everything itself), a tiny parse checks that RDKit was not silently broken.
 */

import { BadRequest, UnprocessableEntity } from "../errors.ts";
import { decodeInchi } from "./inchi/index.ts";
import { HEALTH_CHECK_ATOMS, measureInchi, measureMolfile, measureSmiles, type LimitName, type Measured } from "./limits.ts";
import { describeToolkitError, loadRDKit, rdkitHealthy, toolkitFailed, type RDKit, type RDKitMol } from "./rdkit.ts";

export interface StructureRecord {
  /** Standard InChI (`InChI=1S/…`). */
  readonly inchi: string;
  readonly inchikey: string;
  /**
   * A SMILES RDKit reads as this compound: the SMILES cell as given (trimmed, with the implicit
   * pyrrole hydrogen made explicit when needed), RDKit's canonical SMILES for a molfile, the
   * decoded structure for an InChI (chem/inchi), null when an InChI could not be decoded.
   */
  readonly smiles: string | null;
}

/**
 * A failure says why: `limit`, refused before parsing for this limit (chem/limits.ts); `toolkit`,
 * RDKit failed on it (the instance was replaced); else the structure is not valid.
 */
export type StructureResult =
  | { readonly ok: true; readonly value: StructureRecord }
  | { readonly ok: false; readonly error: string; readonly limit?: LimitName; readonly toolkit?: true };

/**
 * Parser options for SMILES cells: full sanitisation (valence, aromaticity, kekulisation), explicit
 * hydrogens folded into their heavy atoms. Built once; these are RDKit's defaults, spelled out so
 * that a change of defaults in a new RDKit release does not silently change identities.
 */
const SMILES_OPTIONS = JSON.stringify({ sanitize: true, kekulize: true, removeHs: true, assignStereo: true });
/** Molfile options: the same, and a molfile that violates the format is an error. */
const MOLFILE_OPTIONS = JSON.stringify({ sanitize: true, kekulize: true, removeHs: true, strictParsing: true });

export const NON_STANDARD_INCHI =
  "non-standard InChI (InChI=1/…) is not accepted; give a standard InChI (InChI=1S/…) or SMILES";

function fail(error: string): StructureResult {
  return { ok: false, error };
}

/** Thrown inside this module when an RDKit call failed and left the instance unusable. */
class ToolkitBroken extends Error {
  constructor(readonly reason: unknown) {
    super("RDKit failed");
  }
}

/** `f()`, an RDKit call; when it throws, `fallback` — or ToolkitBroken when the instance broke. */
function call<T>(rdkit: RDKit, f: () => T, fallback: T): T {
  try {
    return f();
  } catch (e) {
    if (toolkitFailed(rdkit, e)) throw new ToolkitBroken(e);
    return fallback;
  }
}

/** Delete a molecule; on a broken instance that may throw too, and the instance is replaced anyway. */
function release(mol: RDKitMol): void {
  try {
    mol.delete();
  } catch {
    // the instance is being replaced (the exception that broke it is reported)
  }
}

/** Why a guarded parse failed: a refusal (with its limit) or an RDKit failure (`toolkit`). */
interface Failure {
  readonly error: string;
  readonly limit?: LimitName;
  readonly toolkit?: true;
}

/**
 * Run `parse` on a measured structure: refused past a limit; an RDKit failure — an exception that
 * left the instance unusable, or (after a large structure, or when `check`) a toolkit that no
 * longer parses ethanol — fails this structure through `failed`, and the instance is replaced
 * for the next one. Any other exception is a fault of this service and is thrown.
 */
function guarded<T>(rdkit: RDKit, size: Measured, parse: () => T, failed: (f: Failure) => T, check = false): T {
  if (size.refusal) return failed({ error: size.refusal.message, limit: size.refusal.limit });
  let failure: Failure;
  try {
    const r = parse();
    if (!(check || size.atoms > HEALTH_CHECK_ATOMS) || rdkitHealthy(rdkit)) return r;
    toolkitFailed(rdkit, new Error("RDKit no longer parses ethanol"));
    failure = { error: "RDKit was left unusable by this structure (it was restarted)", toolkit: true };
  } catch (e) {
    const reason = e instanceof ToolkitBroken ? e.reason : e;
    if (!toolkitFailed(rdkit, reason)) throw e;
    failure = { error: `RDKit failed on this structure (${describeToolkitError(reason)}; it was restarted)`, toolkit: true };
  }
  return failed(failure);
}

function failedResult(f: Failure): StructureResult {
  return { ok: false, ...f };
}

/** Parse one structure cell (SMILES or standard InChI). Never throws for bad input. */
export function parseStructure(rdkit: RDKit, cell: string): StructureResult {
  const text = cell.trim();
  if (text === "") return fail("empty structure");
  const c0 = text.charCodeAt(0);
  // Cheap pre-test ("I"/"i") before the case-insensitive prefix test.
  if ((c0 === 73 || c0 === 105) && /^inchi(=|%3d)/i.test(text)) return parseInchi(rdkit, text);
  return guarded(rdkit, measureSmiles(text), () => parseSmiles(rdkit, text), failedResult);
}

function parseSmiles(rdkit: RDKit, smiles: string): StructureResult {
  // A SMILES is one token. Whitespace would let RDKit read the rest as a name or CXSMILES
  // extension, a newline a molfile, and `{` a CommonChem JSON document.
  if (/\s/.test(smiles) || smiles.charCodeAt(0) === 123) return fail("SMILES could not be parsed");
  const read = readSmiles(rdkit, smiles) ?? withPyrroleHydrogen(rdkit, smiles);
  if (read === null) return fail("SMILES could not be parsed");
  return identify(rdkit, read.mol, read.smiles);
}

/** The molecule and the SMILES it was read from. */
interface Read {
  readonly mol: RDKitMol;
  readonly smiles: string;
}

function readSmiles(rdkit: RDKit, smiles: string): Read | null {
  const mol = call(rdkit, () => rdkit.get_mol(smiles, SMILES_OPTIONS), null);
  return mol === null ? null : { mol, smiles };
}

/** Bare aromatic nitrogens (`n` outside brackets) of a SMILES, as string offsets. */
const BARE_AROMATIC_N = /\[[^\]]*\]|n/g;
const MAX_N_TRIES = 8;

/**
 * Aromatic SMILES that leave the hydrogen of a pyrrole-type nitrogen implicit (`c1nccc1`, as in
 * the reference's multicolumn.csv) cannot be kekulised. OpenBabel, which the reference used,
 * then puts the hydrogen on one of the aromatic nitrogens; we do the same: try `[nH]` at each
 * bare aromatic `n` in turn and take the first reading RDKit sanitises. With the standard InChI's
 * mobile-H layer the choice does not change the compound's identity for simple heteroaromatics.
 */
function withPyrroleHydrogen(rdkit: RDKit, smiles: string): Read | null {
  const offsets: number[] = [];
  for (const m of smiles.matchAll(BARE_AROMATIC_N)) if (m[0] === "n") offsets.push(m.index);
  for (const at of offsets.slice(0, MAX_N_TRIES)) {
    const read = readSmiles(rdkit, `${smiles.slice(0, at)}[nH]${smiles.slice(at + 1)}`);
    if (read !== null) return read;
  }
  return null;
}

/** InChI and key of a parsed molecule, with its SMILES (RDKit's when not given); deletes the molecule. */
function identify(rdkit: RDKit, mol: RDKitMol, smiles: string | null): StructureResult {
  try {
    return call(rdkit, (): StructureResult => {
      if (mol.get_num_atoms() === 0) return fail("structure has no atoms");
      const inchi = mol.get_inchi();
      if (!inchi.startsWith("InChI=1S/")) return fail("InChI generation failed");
      const inchikey = rdkit.get_inchikey_for_inchi(inchi);
      if (inchikey === "") return fail("InChI generation failed");
      return { ok: true, value: { inchi, inchikey, smiles: smiles ?? mol.get_smiles() } };
    }, fail("InChI generation failed"));
  } finally {
    release(mol);
  }
}

/** Formula layer of a standard InChI: `C6H6`, `2CH4`, `ClH.Na`, `C12H10O.Na`, … */
const FORMULA = /^\d*(?:[A-Z][a-z]?\d*)+(?:\.\d*(?:[A-Z][a-z]?\d*)+)*$/;
/** Any further layer: a lower-case layer letter, then InChI layer characters. */
const LAYER = /^[a-z][A-Za-z0-9,;.+\-()*?]*$/;

function parseInchi(rdkit: RDKit, cell: string): StructureResult {
  let text = cell;
  if (/^inchi%3d/i.test(text)) {
    try {
      text = decodeURIComponent(text);
    } catch {
      return fail("InChI could not be parsed (bad URL encoding)");
    }
  }
  const size = measureInchi(text);
  if (size.refusal) return failedResult({ error: size.refusal.message, limit: size.refusal.limit });
  // The prefix is case-insensitive for detection; the identifier uses the canonical spelling.
  const body = text.slice("InChI=".length);
  if (body.trim() === "") return fail("empty InChI");
  if (body.startsWith("1/")) return fail(NON_STANDARD_INCHI);
  if (!body.startsWith("1S/")) return fail("InChI could not be parsed: expected a standard InChI (InChI=1S/…)");
  const layers = body.slice(3);
  if (layers === "") return fail("empty InChI");
  if (!inchiLayersLookValid(layers)) return fail("InChI could not be parsed (invalid syntax)");
  const inchi = `InChI=1S/${layers}`;
  // The decoder catches every exception itself, so the toolkit's health is checked after it.
  return guarded(rdkit, size, () => identifyInchi(rdkit, inchi), failedResult, true);
}

function identifyInchi(rdkit: RDKit, inchi: string): StructureResult {
  const inchikey = call(rdkit, () => rdkit.get_inchikey_for_inchi(inchi), "");
  if (inchikey === "") return fail("InChI could not be parsed (no InChIKey)");
  // A structure for it (chem/inchi: decoded, and accepted only when RDKit gives this InChI back;
  // stereo layers it cannot reproduce are dropped from the structure, not from the identity).
  const decoded = decodeInchi(rdkit, inchi);
  return { ok: true, value: { inchi, inchikey, smiles: decoded.ok ? decoded.smiles : null } };
}

/** Syntax sanity check of the part after `InChI=1S/` (RDKit cannot parse InChI itself). */
function inchiLayersLookValid(layers: string): boolean {
  if (/^p[+-]\d+$/.test(layers)) return true; // the proton, InChI=1S/p+1, has no formula layer
  const parts = layers.split("/");
  if (!FORMULA.test(parts[0] ?? "")) return false;
  for (let i = 1; i < parts.length; i++) if (!LAYER.test(parts[i] ?? "")) return false;
  return true;
}

/** Parse a molfile (V2000/V3000 molblock, e.g. the body of `POST /compound`). */
export function parseMolfile(rdkit: RDKit, molblock: string): StructureResult {
  // Only the first record of an SD file is read; SD data after it is ignored.
  const end = molblock.indexOf("M  END");
  if (end < 0) return fail("molfile could not be parsed (no 'M  END' line)");
  const block = molblock.slice(0, end + "M  END".length) + "\n";
  return guarded(rdkit, measureMolfile(block), () => {
    const mol = call(rdkit, () => rdkit.get_mol(block, MOLFILE_OPTIONS), null);
    if (mol === null) return fail("molfile could not be parsed");
    return identify(rdkit, mol, null);
  }, failedResult);
}

/** The sizes (pixels) a depiction may have. */
export const DEPICTION_SIZE = { min: 16, max: 4096 } as const;

function checkSize(value: number, field: string): number {
  if (!Number.isInteger(value) || value < DEPICTION_SIZE.min || value > DEPICTION_SIZE.max) {
    throw new BadRequest(`${field} must be an integer between ${DEPICTION_SIZE.min} and ${DEPICTION_SIZE.max} (got ${value})`, { field });
  }
  return value;
}

/** The details of a depiction; throws BadRequest (field `width`/`height`) for sizes outside 16…4096. */
export function depictionDetails(width: number, height: number): string {
  return JSON.stringify({ width: checkSize(width, "width"), height: checkSize(height, "height") });
}

/**
 * `write(mol)` on the molecule of a SMILES (a stored compound's), with its toolkit guarded: null
 * when the SMILES does not parse; UnprocessableEntity (field `smiles`) past a limit or when RDKit
 * fails on it (the instance is then replaced).
 */
function withSmilesMol(rdkit: RDKit, smiles: string, write: (mol: RDKitMol) => string | null): string | null {
  const text = smiles.trim();
  if (text === "" || /\s/.test(text) || text.charCodeAt(0) === 123) return null;
  const refused = (f: Failure): never => {
    throw new UnprocessableEntity(`the structure cannot be drawn or written: ${f.error}`, { field: "smiles" });
  };
  return guarded(rdkit, measureSmiles(text), () => {
    const mol = call(rdkit, () => rdkit.get_mol(text, SMILES_OPTIONS), null);
    if (mol === null) return null;
    try {
      return call(rdkit, () => write(mol), null);
    } finally {
      release(mol);
    }
  }, refused, true);
}

/**
 * A standalone SVG document (with XML declaration, UTF-8) depicting the SMILES, or null when the
 * SMILES does not parse. Throws BadRequest (field `width`/`height`) for sizes outside 16…4096.
 */
export function depictSvg(rdkit: RDKit, smiles: string, width = 300, height = 200): string | null {
  const details = depictionDetails(width, height);
  return withSmilesMol(rdkit, smiles, (mol) => {
    const svg = mol.get_svg_with_highlights(details);
    if (!svg.includes("</svg>")) return null;
    // RDKit declares iso-8859-1; we serve UTF-8 text, so say so.
    const start = svg.indexOf("<svg");
    return `<?xml version='1.0' encoding='UTF-8'?>\n${svg.slice(start)}`;
  });
}

/** V2000 molfile with 2D coordinates for the SMILES, or null when the SMILES does not parse. */
export function toMolfile(rdkit: RDKit, smiles: string): string | null {
  return withSmilesMol(rdkit, smiles, (mol) => {
    const block = mol.get_molblock();
    return block === "" ? null : block;
  });
}

/**
 * `read(rdkit, smiles)` with this thread's RDKit, for the jobs that read stored structures
 * (descriptors, predictions, mining, cross-validation): null when the SMILES is past a limit or
 * RDKit failed on it (the instance is then replaced, and the next call gets a fresh one).
 */
export async function readSmilesGuarded<T>(smiles: string, read: (rdkit: RDKit, smiles: string) => T | null): Promise<T | null> {
  const rdkit = await loadRDKit();
  return guarded(rdkit, measureSmiles(smiles), () => read(rdkit, smiles), () => null);
}
