/**
 * Worker-side jobs of request-time chemistry (routes/compounds.ts, models.ts): reading one
 * structure, drawing one as SVG and writing one as a molfile. They run in the chem pool
 * (app.ts: a worker of its own, so that a request does not wait behind task jobs), never on the
 * main thread; chem/structure.ts bounds the input and guards the toolkit. Also the fingerprints
 * of a list of compounds (`fingerprintsJob`, chem/fingerprints.ts), for models and similarity,
 * and a model's whole feature set of a list (`featuresJob`: several fingerprints and RDKit's 2D
 * descriptors from one parse of each structure).
 */
import { BadRequest } from "../errors.ts";
import {
  checkFingerprintSpec,
  descriptorNames,
  descriptorValues,
  fingerprint,
  fingerprintSpace,
  type FingerprintSpec,
  type ResolvedFingerprintSpec,
} from "./fingerprints.ts";
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
 * `chem.fingerprints`: the spec and the list are checked first (BadRequest naming `kind`, a
 * parameter, or `smiles`); then every SMILES is measured against chem/limits.ts before
 * RDKit sees it, and one that is refused, does not parse, or that RDKit fails on gets its error
 * while the others get their ids (a broken RDKit instance is replaced for the next one).
 */
export async function fingerprintsJob(input: FingerprintsInput): Promise<FingerprintsOutput> {
  const spec = checkFingerprintSpec(input.spec);
  const list = checkSmilesList(input.smiles, "fingerprint");
  const n = list.length;
  const offsets = new Int32Array(n + 1);
  const errors = new Array<string | null>(n).fill(null);
  const rows: Int32Array[] = [];
  for (let i = 0; i < n; i++) {
    const r = await featuresOne(list[i], [spec], null);
    let count = 0;
    if (typeof r === "string") errors[i] = r;
    else {
      const ids = r.fingerprints[0]!;
      rows.push(ids);
      count = ids.length;
    }
    offsets[i + 1] = offsets[i]! + count;
  }
  return { offsets, idx: concat(rows, offsets[n]!), errors, space: fingerprintSpace(spec) };
}

/** Fingerprint specs of one `chem.features` job at most. */
export const MAX_FEATURE_FINGERPRINTS = 8;

export interface FeaturesInput {
  /** SMILES, one per compound (at most MAX_FINGERPRINT_BATCH; each measured against chem/limits.ts). */
  readonly smiles: readonly string[];
  /** The fingerprints to compute (at most MAX_FEATURE_FINGERPRINTS; may be empty with `descriptors`). */
  readonly fingerprints: readonly FingerprintSpec[];
  /** Whether to compute RDKit's 2D descriptors too. */
  readonly descriptors: boolean;
}

/** One fingerprint of every compound, in compressed sparse rows (as `FingerprintsOutput`). */
export interface FingerprintMatrix {
  /** The spec as checked, defaults filled in. */
  readonly spec: ResolvedFingerprintSpec;
  readonly offsets: Int32Array;
  readonly idx: Int32Array;
  readonly space: number;
}

/** RDKit's 2D descriptors of every compound: row i is compound i, column j is `names[j]`. */
export interface DescriptorMatrix {
  readonly names: readonly string[];
  /** Row-major, n × names.length; NaN for a value RDKit did not give, and the whole row of a compound with an error. */
  readonly values: Float64Array;
}

export interface FeaturesOutput {
  /** One per requested spec, in the order asked. */
  readonly fingerprints: readonly FingerprintMatrix[];
  /** Null unless `descriptors` was asked for. */
  readonly descriptors: DescriptorMatrix | null;
  /** Per compound: null when it has all its features, else why it has none (empty rows, NaN row). */
  readonly errors: readonly (string | null)[];
}

/**
 * `chem.features`: the feature set of a model for a list of compounds, each structure parsed
 * once. The input is checked first (BadRequest naming `smiles`, `descriptors`, `fingerprints` or
 * `fingerprints[i].<parameter>`); then every SMILES is measured against chem/limits.ts before
 * RDKit sees it, and one that is refused, does not parse, or that RDKit fails on gets its error
 * (and no features at all) while the others get every fingerprint and their descriptors.
 */
export async function featuresJob(input: FeaturesInput): Promise<FeaturesOutput> {
  const rawSpecs: unknown = input.fingerprints;
  if (!Array.isArray(rawSpecs)) throw new BadRequest("fingerprints must be a list of fingerprint specs", { field: "fingerprints" });
  if (rawSpecs.length > MAX_FEATURE_FINGERPRINTS) {
    throw new BadRequest(`too many fingerprints for one job: ${rawSpecs.length} (the limit is ${MAX_FEATURE_FINGERPRINTS})`, { field: "fingerprints" });
  }
  const specs = rawSpecs.map((spec: unknown, i) => {
    try {
      return checkFingerprintSpec(spec);
    } catch (e) {
      if (!(e instanceof BadRequest)) throw e;
      throw new BadRequest(`fingerprints[${i}]: ${e.message}`, { field: `fingerprints[${i}].${e.details.field ?? "kind"}` });
    }
  });
  const withDescriptors: unknown = input.descriptors;
  if (typeof withDescriptors !== "boolean") throw new BadRequest("descriptors must be true or false", { field: "descriptors" });
  if (specs.length === 0 && !withDescriptors) throw new BadRequest("ask for at least one fingerprint or for the descriptors", { field: "fingerprints" });
  const list = checkSmilesList(input.smiles, "feature");

  const n = list.length;
  const names = withDescriptors ? descriptorNames(await loadRDKit()) : null;
  const d = names?.length ?? 0;
  const values = names === null ? null : new Float64Array(n * d).fill(NaN);
  const offsets = specs.map(() => new Int32Array(n + 1));
  const rows = specs.map((): Int32Array[] => []);
  const errors = new Array<string | null>(n).fill(null);
  for (let i = 0; i < n; i++) {
    const r = await featuresOne(list[i], specs, names);
    for (let f = 0; f < specs.length; f++) {
      const ids = typeof r === "string" ? null : r.fingerprints[f]!;
      if (ids !== null) rows[f]!.push(ids);
      offsets[f]![i + 1] = offsets[f]![i]! + (ids?.length ?? 0);
    }
    if (typeof r === "string") errors[i] = r;
    else if (values !== null && r.descriptors !== null) values.set(r.descriptors, i * d);
  }
  return {
    fingerprints: specs.map((spec, f) => ({ spec, offsets: offsets[f]!, idx: concat(rows[f]!, offsets[f]![n]!), space: fingerprintSpace(spec) })),
    descriptors: names === null ? null : { names: [...names], values: values! },
    errors,
  };
}

/** The list of SMILES of a job: an array of at most MAX_FINGERPRINT_BATCH, else BadRequest (field `smiles`). */
function checkSmilesList(list: unknown, what: string): readonly unknown[] {
  if (!Array.isArray(list)) throw new BadRequest("smiles must be a list of SMILES", { field: "smiles" });
  if (list.length > MAX_FINGERPRINT_BATCH) {
    throw new BadRequest(`too many structures for one ${what} job: ${list.length} (the limit is ${MAX_FINGERPRINT_BATCH})`, { field: "smiles" });
  }
  return list;
}

/** Rows joined into one array of `total` ids (a fresh buffer, so the worker can move it). */
function concat(rows: readonly Int32Array[], total: number): Int32Array {
  const out = new Int32Array(total);
  let at = 0;
  for (const r of rows) {
    out.set(r, at);
    at += r.length;
  }
  return out;
}

/** One compound's features. */
interface CompoundFeatures {
  readonly fingerprints: readonly Int32Array[];
  readonly descriptors: Float64Array | null;
}

/** One compound's fingerprints (one per spec) and descriptors (with `names`), from one parse; or why it has none. */
async function featuresOne(smiles: unknown, specs: readonly ResolvedFingerprintSpec[], names: readonly string[] | null): Promise<CompoundFeatures | string> {
  if (typeof smiles !== "string") return "not a SMILES string";
  const text = smiles.trim();
  if (text === "") return "empty structure";
  // As for a SMILES cell (chem/structure.ts): one token, not a CommonChem JSON document.
  if (/\s/.test(text) || text.charCodeAt(0) === 123) return "SMILES could not be parsed";
  const size = measureSmiles(text);
  if (size.refusal) return size.refusal.message;
  let problem: string | null = null;
  const features = await readSmilesGuarded(text, (rdkit, s): CompoundFeatures | null => {
    const mol = rdkit.get_mol(s, FINGERPRINT_PARSE);
    if (mol === null) {
      problem = "SMILES could not be parsed";
      return null;
    }
    let step = "fingerprint";
    try {
      const fingerprints = specs.map((spec) => fingerprint(mol, spec));
      step = "descriptors";
      const descriptors = names === null ? null : descriptorValues(mol, names);
      return { fingerprints, descriptors };
    } catch (e) {
      // A broken instance: readSmilesGuarded replaces it and fails this structure.
      if (toolkitFailed(rdkit, e)) throw e;
      problem = `RDKit could not compute the ${step === "fingerprint" ? "fingerprint" : "descriptors"} (${describeToolkitError(e)})`;
      return null;
    } finally {
      try {
        mol.delete();
      } catch {
        // the instance is being replaced (the exception that broke it is reported)
      }
    }
  });
  if (features !== null) return features;
  return problem ?? "RDKit failed on this structure (it was restarted)";
}
