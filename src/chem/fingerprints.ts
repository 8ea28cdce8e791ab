/**
 * Structural fingerprints of one molecule as the ascending ids of its ON bits / features
 * (docs/fingerprints.md), for model input and similarity:
 *
 * - `morgan`: RDKit's Morgan (ECFP-like) bit vector, radius 1–3 (default 2), 512–8192 bits
 *   (default 2048); ids are bit positions;
 * - `atompair`: RDKit's hashed atom-pair bit vector (Carhart et al. 1985; with RDKit's count
 *   simulation), 512–8192 bits (default 2048), pairs of atoms 1–30 bonds apart (`minLength`,
 *   `maxLength`, RDKit's defaults 1 and 30); ids are bit positions;
 * - `rdkit`: RDKit's path ("Daylight-like") fingerprint, 512–8192 bits (default 2048), subgraphs
 *   of 1–7 bonds (`minPath`, `maxPath`, RDKit's defaults 1 and 7), two bits per subgraph;
 *   ids are bit positions;
 * - `maccs`: RDKit's 166 public MACCS keys; ids are key numbers 1–166 (bit 0 is never set);
 * - `mp2d`: MolPrint2D-style atom environments (Bender et al. 2004), computed here on RDKit's
 *   heavy-atom graph: per atom its type and the counts of the types at topological distance 1
 *   and 2, written as a canonical string and hashed (FNV-1a, 31 bits) to a sparse feature id.
 *
 * Also RDKit's own 2D descriptors (`get_descriptors`) as a fixed, named vector
 * (`descriptorNames`, `descriptorValues`).
 *
 * Pure: RDKit (a molecule of this thread's instance) in, typed arrays out. Runs in workers only
 * (chem/jobs.ts `fingerprintsJob`, `featuresJob`); nothing here bounds the input (the jobs
 * measure every structure against chem/limits.ts first).
 */
import { BadRequest } from "../errors.ts";
import type { RDKit, RDKitMol } from "./rdkit.ts";

export type FingerprintKind = "morgan" | "atompair" | "rdkit" | "maccs" | "mp2d";

/**
 * What a caller asks for: `radius` applies to `morgan`; `bits` to `morgan`, `atompair` and
 * `rdkit`; `minLength`/`maxLength` to `atompair`; `minPath`/`maxPath` to `rdkit`.
 */
export interface FingerprintSpec {
  readonly kind: FingerprintKind;
  readonly radius?: number;
  readonly bits?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minPath?: number;
  readonly maxPath?: number;
}

/**
 * A checked spec, defaults filled in. `maccs` and `mp2d` carry `radius` and `bits` as 0 (they
 * have neither); the other kinds carry exactly their own parameters.
 */
export type ResolvedFingerprintSpec =
  | { readonly kind: "morgan"; readonly radius: number; readonly bits: number }
  | { readonly kind: "atompair"; readonly bits: number; readonly minLength: number; readonly maxLength: number }
  | { readonly kind: "rdkit"; readonly bits: number; readonly minPath: number; readonly maxPath: number }
  | { readonly kind: "maccs" | "mp2d"; readonly radius: 0; readonly bits: 0 };

interface Range {
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

/** Bits of the hashed kinds (morgan, atompair, rdkit): RDKit's default 2048. */
const BITS: Range = { min: 512, max: 8192, default: 2048 };

/** The ranges and defaults of the Morgan parameters. */
export const MORGAN = {
  radius: { min: 1, max: 3, default: 2 },
  bits: BITS,
} as const;

/**
 * The atom-pair parameters: the bond distances of the pairs counted. RDKit encodes a distance in
 * 5 bits, so 30 is its largest (and its default `maxLength`).
 */
export const ATOM_PAIR = {
  bits: BITS,
  minLength: { min: 1, max: 30, default: 1 },
  maxLength: { min: 1, max: 30, default: 30 },
} as const;

/**
 * The path-fingerprint parameters: the sizes (in bonds) of the subgraphs hashed. The longest is
 * RDKit's default, 7: the number of branched subgraphs grows steeply with their size, so a larger
 * `maxPath` could hold a worker for long on one big structure.
 */
export const RDKIT_PATH = {
  bits: BITS,
  minPath: { min: 1, max: 7, default: 1 },
  maxPath: { min: 1, max: 7, default: 7 },
} as const;

/** Bits of RDKit's MACCS vector: keys 1–166 at their own positions, bit 0 unused. */
export const MACCS_BITS = 167;

/** Feature ids of `mp2d` are 31-bit hashes: 0 ≤ id < MP2D_SPACE (so they fit an Int32Array). */
export const MP2D_SPACE = 2 ** 31;

/**
 * The feature set of the default model (bench/quality-explore.ts, issue 16): an SVM on the mean
 * of the Tanimoto kernels of these four fingerprints and an RBF kernel on RDKit's 2D descriptors.
 */
export const DEFAULT_MODEL_FEATURES = {
  fingerprints: [
    { kind: "morgan", radius: 2, bits: 2048 },
    { kind: "atompair", bits: 2048 },
    { kind: "rdkit", bits: 2048 },
    { kind: "maccs" },
  ] as readonly FingerprintSpec[],
  descriptors: true,
} as const;

/** The parameters each kind takes (besides `kind`), in the order the messages list them. */
const PARAMETERS: Readonly<Record<FingerprintKind, readonly string[]>> = {
  morgan: ["radius", "bits"],
  atompair: ["bits", "minLength", "maxLength"],
  rdkit: ["bits", "minPath", "maxPath"],
  maccs: [],
  mp2d: [],
};
const KINDS = Object.keys(PARAMETERS) as FingerprintKind[];
const ALL_PARAMETERS = ["kind", "radius", "bits", "minLength", "maxLength", "minPath", "maxPath"];

function integerIn(value: unknown, field: string, range: { readonly min: number; readonly max: number }): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < range.min || value > range.max) {
    throw new BadRequest(`${field} must be an integer from ${range.min} to ${range.max} (got ${JSON.stringify(value) ?? String(value)})`, { field });
  }
  return value;
}

/** A parameter's value, or its default when absent. */
function param(s: Record<string, unknown>, field: string, range: Range): number {
  return s[field] === undefined ? range.default : integerIn(s[field], field, range);
}

/** `lo` ≤ `hi`, else a BadRequest naming the upper bound's field (RDKit throws on lo > hi). */
function ordered(lo: number, hi: number, loField: string, hiField: string): void {
  if (lo > hi) throw new BadRequest(`${hiField} (${hi}) must not be less than ${loField} (${lo})`, { field: hiField });
}

/**
 * Check a fingerprint spec (plain data, e.g. from a request or a job's input): BadRequest naming
 * the field (`kind`, a parameter, or an unknown one) when it is not one this module computes.
 */
export function checkFingerprintSpec(spec: unknown): ResolvedFingerprintSpec {
  if (spec === null || typeof spec !== "object" || Array.isArray(spec)) throw new BadRequest("the fingerprint spec must be an object with a kind", { field: "kind" });
  const s = spec as Record<string, unknown>;
  for (const key of Object.keys(s)) {
    if (!ALL_PARAMETERS.includes(key)) throw new BadRequest(`unknown fingerprint parameter '${key}' (the parameters are ${ALL_PARAMETERS.join(", ")})`, { field: key });
  }
  const kind = s.kind;
  if (typeof kind !== "string" || !(KINDS as readonly string[]).includes(kind)) {
    throw new BadRequest(`kind must be one of ${KINDS.join(", ")} (got ${JSON.stringify(kind) ?? String(kind)})`, { field: "kind" });
  }
  const k = kind as FingerprintKind;
  for (const field of ALL_PARAMETERS) {
    if (field === "kind" || s[field] === undefined || PARAMETERS[k].includes(field)) continue;
    const owners = KINDS.filter((o) => PARAMETERS[o].includes(field));
    throw new BadRequest(`${field} applies to ${owners.join(" and ")} fingerprints only, not to ${k}`, { field });
  }
  switch (k) {
    case "morgan":
      return { kind: k, radius: param(s, "radius", MORGAN.radius), bits: param(s, "bits", MORGAN.bits) };
    case "atompair": {
      const bits = param(s, "bits", ATOM_PAIR.bits);
      const minLength = param(s, "minLength", ATOM_PAIR.minLength);
      const maxLength = param(s, "maxLength", ATOM_PAIR.maxLength);
      ordered(minLength, maxLength, "minLength", "maxLength");
      return { kind: k, bits, minLength, maxLength };
    }
    case "rdkit": {
      const bits = param(s, "bits", RDKIT_PATH.bits);
      const minPath = param(s, "minPath", RDKIT_PATH.minPath);
      const maxPath = param(s, "maxPath", RDKIT_PATH.maxPath);
      ordered(minPath, maxPath, "minPath", "maxPath");
      return { kind: k, bits, minPath, maxPath };
    }
    case "maccs":
    case "mp2d":
      return { kind: k, radius: 0, bits: 0 };
  }
}

/** The ids of a spec lie in [0, space): the bits of a hashed kind, MACCS's 167, or MP2D_SPACE. */
export function fingerprintSpace(spec: ResolvedFingerprintSpec): number {
  return spec.kind === "maccs" ? MACCS_BITS : spec.kind === "mp2d" ? MP2D_SPACE : spec.bits;
}

/** The fingerprint of a molecule of this thread's RDKit: ascending ON-bit / feature ids. */
export function fingerprint(mol: RDKitMol, spec: ResolvedFingerprintSpec): Int32Array {
  switch (spec.kind) {
    case "morgan":
      return morganBits(mol, spec.radius, spec.bits);
    case "atompair":
      return atomPairBits(mol, spec.bits, spec.minLength, spec.maxLength);
    case "rdkit":
      return rdkitPathBits(mol, spec.bits, spec.minPath, spec.maxPath);
    case "maccs":
      return maccsKeys(mol);
    case "mp2d":
      return mp2dFeatures(mol);
  }
}

/**
 * The ON bits of RDKit's packed bit vector (`get_*_fp_as_uint8array`): bit i is bit i % 8 of
 * byte ⌊i / 8⌋, least significant bit first (the order RDKit's MinimalLib tests check against
 * the '0'/'1' string form). Bits at or past `nBits` (padding of the last byte) are ignored.
 */
export function decodeBitVector(bytes: Uint8Array, nBits: number): Int32Array {
  let n = 0;
  for (let i = 0; i < bytes.length; i++) n += popcount8(bytes[i]!);
  const out = new Int32Array(n);
  let k = 0;
  for (let i = 0; i < bytes.length; i++) {
    let b = bytes[i]!;
    while (b !== 0) {
      const low = b & -b;
      const bit = i * 8 + (31 - Math.clz32(low));
      if (bit < nBits) out[k++] = bit;
      b ^= low;
    }
  }
  return k === n ? out : out.slice(0, k);
}

function popcount8(b: number): number {
  let n = 0;
  for (let x = b; x !== 0; x &= x - 1) n++;
  return n;
}

/** Morgan bits (RDKit's default atom invariants, bond types used, no chirality). */
export function morganBits(mol: RDKitMol, radius: number, nBits: number): Int32Array {
  return decodeBitVector(mol.get_morgan_fp_as_uint8array(JSON.stringify({ radius, nBits })), nBits);
}

/**
 * RDKit's hashed atom-pair bits: every pair of heavy atoms `minLength`…`maxLength` bonds apart
 * (atom code: element, heavy neighbours, π electrons), with RDKit's count simulation (a pair
 * seen more often sets more bits).
 */
export function atomPairBits(mol: RDKitMol, nBits: number, minLength: number = ATOM_PAIR.minLength.default, maxLength: number = ATOM_PAIR.maxLength.default): Int32Array {
  return decodeBitVector(mol.get_atom_pair_fp_as_uint8array(JSON.stringify({ nBits, minLength, maxLength })), nBits);
}

/**
 * RDKit's path fingerprint: every subgraph (branched paths included) of `minPath`…`maxPath`
 * bonds, with bond orders and hydrogen counts, hashed to two bits each (RDKit's defaults).
 */
export function rdkitPathBits(mol: RDKitMol, nBits: number, minPath: number = RDKIT_PATH.minPath.default, maxPath: number = RDKIT_PATH.maxPath.default): Int32Array {
  return decodeBitVector(mol.get_rdkit_fp_as_uint8array(JSON.stringify({ nBits, minPath, maxPath })), nBits);
}

/** The MACCS keys (1–166) a molecule has. */
export function maccsKeys(mol: RDKitMol): Int32Array {
  return decodeBitVector(mol.get_maccs_fp_as_uint8array(), MACCS_BITS);
}

// ---------------------------------------------------------------------------------------------
// RDKit's 2D descriptors

/** The names `get_descriptors` gives in this thread (one RDKit build: computed once). */
let cachedNames: readonly string[] | null = null;

/**
 * The names of RDKit's 2D descriptors (`get_descriptors`) in this build, sorted by code unit
 * (`NumAtoms` before `amw`): 43 for @rdkit/rdkit 2026.9.1. The set does not depend on the
 * molecule (RDKit's Properties list is fixed; a test checks it over many structures), so it is
 * read once, from ethanol.
 */
export function descriptorNames(rdkit: RDKit): readonly string[] {
  if (cachedNames !== null) return cachedNames;
  const mol = rdkit.get_mol("CCO");
  if (mol === null) throw new Error("RDKit could not read ethanol");
  try {
    cachedNames = Object.freeze([...readDescriptorJson(mol.get_descriptors()).keys()].sort());
  } finally {
    mol.delete();
  }
  return cachedNames;
}

/**
 * A molecule's descriptors in the order of `names`: NaN for a name RDKit did not give or gave
 * as a value that is not a finite number.
 */
export function descriptorValues(mol: RDKitMol, names: readonly string[]): Float64Array {
  const got = readDescriptorJson(mol.get_descriptors());
  const out = new Float64Array(names.length);
  for (let j = 0; j < names.length; j++) {
    const v = got.get(names[j]!);
    out[j] = v !== undefined && Number.isFinite(v) ? v : NaN;
  }
  return out;
}

/** One `"name":number` member of RDKit's descriptor JSON. */
const MEMBER = /"([^"\\]+)"\s*:\s*(-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)/g;

/**
 * RDKit's descriptor JSON → name → value. RDKit writes it with rapidjson, whose writer stops
 * at a NaN or infinite value and leaves the text unfinished; then the members before it are read
 * one by one (the rest are missing, so NaN for `descriptorValues`).
 */
export function readDescriptorJson(text: string): Map<string, number> {
  const out = new Map<string, number>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    for (const m of text.matchAll(MEMBER)) out.set(m[1]!, Number(m[2]));
    return out;
  }
  if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
    for (const [k, v] of Object.entries(parsed)) if (typeof v === "number") out.set(k, v);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// MolPrint2D-style atom environments

/** FNV-1a, 32 bits, of a string's UTF-8 bytes (the environments are ASCII: one byte a character). */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) return fnv1a32Bytes(new TextEncoder().encode(text));
    h = Math.imul(h ^ c, 0x01000193);
  }
  return h >>> 0;
}

function fnv1a32Bytes(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193);
  return h >>> 0;
}

/** The feature id of an environment string: its FNV-1a hash with the top bit cleared. */
export function mp2dFeatureId(environment: string): number {
  return fnv1a32(environment) & 0x7fffffff;
}

/** The MolPrint2D features of a molecule: ids of its distinct atom environments, ascending. */
export function mp2dFeatures(mol: RDKitMol): Int32Array {
  const ids = new Set<number>();
  for (const env of mp2dEnvironments(mol)) ids.add(mp2dFeatureId(env));
  return Int32Array.from(ids).sort();
}

const SYMBOLS = (
  "H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr " +
  "Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu " +
  "Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr " +
  "Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og"
).split(" ");

/** The heavy-atom graph with what the atom typing needs. */
interface AtomGraph {
  readonly z: Int32Array;
  readonly charge: Int32Array;
  readonly aromatic: Uint8Array;
  /** Per atom its bonds: neighbour and bond (1, 2, 3 as written Kekulé; 4 aromatic). */
  readonly nbrs: readonly (readonly { readonly atom: number; readonly order: number }[])[];
}

interface CommonChem {
  defaults?: { atom?: { z?: number; chg?: number }; bond?: { bo?: number } };
  molecules: {
    atoms: { z?: number; chg?: number }[];
    bonds: { bo?: number; atoms: [number, number] }[];
    extensions?: { name: string; aromaticAtoms?: number[]; aromaticBonds?: number[] }[];
  }[];
}

/** RDKit's CommonChem JSON → the heavy-atom graph (hydrogens, explicit or isotopic, left out). */
function atomGraph(mol: RDKitMol): AtomGraph {
  const json = JSON.parse(mol.get_json()) as CommonChem;
  const m = json.molecules[0] ?? { atoms: [], bonds: [] };
  const defZ = json.defaults?.atom?.z ?? 6;
  const defChg = json.defaults?.atom?.chg ?? 0;
  const defBo = json.defaults?.bond?.bo ?? 1;
  const ext = m.extensions?.find((e) => e.name === "rdkitRepresentation");
  const aromAtoms = new Set(ext?.aromaticAtoms ?? []);
  const aromBonds = new Set(ext?.aromaticBonds ?? []);
  const index = new Int32Array(m.atoms.length).fill(-1);
  const z: number[] = [], charge: number[] = [], aromatic: number[] = [];
  m.atoms.forEach((a, i) => {
    const zi = a.z ?? defZ;
    if (zi === 1) return;
    index[i] = z.length;
    z.push(zi);
    charge.push(a.chg ?? defChg);
    aromatic.push(aromAtoms.has(i) ? 1 : 0);
  });
  const nbrs: { atom: number; order: number }[][] = z.map(() => []);
  m.bonds.forEach((b, i) => {
    const x = index[b.atoms[0]]!, y = index[b.atoms[1]]!;
    if (x < 0 || y < 0) return;
    const order = aromBonds.has(i) ? 4 : (b.bo ?? defBo);
    nbrs[x]!.push({ atom: y, order });
    nbrs[y]!.push({ atom: x, order });
  });
  return { z: Int32Array.from(z), charge: Int32Array.from(charge), aromatic: Uint8Array.from(aromatic), nbrs };
}

const C = 6, N = 7, O = 8, P = 15, S = 16;

/** Non-aromatic bonds of atom `a` of the given order. */
function bondsOf(g: AtomGraph, a: number, order: number): number {
  let n = 0;
  for (const b of g.nbrs[a]!) if (b.order === order) n++;
  return n;
}

/** Whether atom `a` has a non-aromatic double bond to an oxygen. */
function hasCarbonylO(g: AtomGraph, a: number): boolean {
  return g.nbrs[a]!.some((b) => b.order === 2 && g.z[b.atom] === O);
}

/** Terminal oxygens (no other heavy neighbour) bound to atom `a`, and how many of them by a double bond. */
function terminalOxygens(g: AtomGraph, a: number): { all: number; double: number } {
  let all = 0, double = 0;
  for (const b of g.nbrs[a]!) {
    if (g.z[b.atom] !== O || g.nbrs[b.atom]!.length !== 1) continue;
    all++;
    if (b.order === 2) double++;
  }
  return { all, double };
}

/**
 * The atom type of atom `a`: Sybyl-like (Tripos mol2 names) from element, aromaticity, bond
 * orders, charge and neighbours; the rules are in docs/fingerprints.md "Atom types".
 */
function atomType(g: AtomGraph, a: number): string {
  const z = g.z[a]!;
  const arom = g.aromatic[a] === 1;
  switch (z) {
    case C: {
      if (arom) return "C.ar";
      const d = bondsOf(g, a, 2), t = bondsOf(g, a, 3);
      if (t > 0 || d > 1) return "C.1";
      if (d === 1) {
        // guanidinium / amidinium: C=N+ with at least two nitrogens around
        const cation = g.nbrs[a]!.some((b) => b.order === 2 && g.z[b.atom] === N && g.charge[b.atom]! > 0);
        const nitrogens = g.nbrs[a]!.filter((b) => g.z[b.atom] === N).length;
        return cation && nitrogens >= 2 ? "C.cat" : "C.2";
      }
      return "C.3";
    }
    case N: {
      if (arom) return "N.ar";
      if (bondsOf(g, a, 3) > 0) return "N.1";
      if (bondsOf(g, a, 2) > 0) return g.charge[a]! > 0 ? "N.pl3" : "N.2";
      if (g.charge[a]! > 0) return "N.4";
      if (g.nbrs[a]!.some((b) => g.z[b.atom] === C && !g.aromatic[b.atom] && hasCarbonylO(g, b.atom))) return "N.am";
      const conjugated = g.nbrs[a]!.some((b) => g.aromatic[b.atom] === 1 || g.nbrs[b.atom]!.some((c) => c.order === 2 || c.order === 3));
      return conjugated ? "N.pl3" : "N.3";
    }
    case O: {
      if (g.nbrs[a]!.length === 1) {
        const centre = g.nbrs[a]![0]!.atom;
        const zc = g.z[centre]!;
        if ((zc === C && !g.aromatic[centre]) || zc === P) {
          const o = terminalOxygens(g, centre);
          if (o.double >= 1 && (zc === C ? o.all === 2 : o.all >= 2)) return "O.co2";
        }
        // nitro groups and N-oxides: both oxygens sp2, as in the Tripos types
        if (zc === N && g.charge[centre]! > 0) return "O.2";
      }
      return !arom && bondsOf(g, a, 2) > 0 ? "O.2" : "O.3";
    }
    case S: {
      if (!arom) {
        const o = terminalOxygens(g, a).double;
        if (o === 1) return "S.O";
        if (o >= 2) return "S.O2";
        if (bondsOf(g, a, 2) > 0) return "S.2";
      }
      return "S.3";
    }
    case P:
      return "P.3";
    default:
      return SYMBOLS[z - 1] ?? "Du";
  }
}

/** `type;1-count-type;…;2-count-type;…` of one layer list, types in code-unit order. */
function layer(depth: number, types: readonly string[], out: string[]): void {
  const counts = new Map<string, number>();
  for (const t of types) counts.set(t, (counts.get(t) ?? 0) + 1);
  for (const t of [...counts.keys()].sort()) out.push(`${depth}-${counts.get(t)!}-${t}`);
}

/**
 * The atom environments of a molecule, one string per heavy atom in atom order:
 * `<type>;1-<n>-<type>;…;2-<n>-<type>;…` — the atom's type, then for distance 1 and 2 (shortest
 * path in bonds, each atom counted once) the count of every type there, types sorted.
 * E.g. ethanol's oxygen: `O.3;1-1-C.3;2-1-C.3`.
 */
export function mp2dEnvironments(mol: RDKitMol): string[] {
  const g = atomGraph(mol);
  const n = g.z.length;
  const types = Array.from({ length: n }, (_, a) => atomType(g, a));
  const seen = new Int32Array(n).fill(-1);
  const out: string[] = [];
  for (let a = 0; a < n; a++) {
    seen[a] = a;
    const first: string[] = [], second: string[] = [];
    for (const b of g.nbrs[a]!) {
      if (seen[b.atom] === a) continue;
      seen[b.atom] = a;
      first.push(types[b.atom]!);
    }
    for (const b of g.nbrs[a]!) {
      for (const c of g.nbrs[b.atom]!) {
        if (seen[c.atom] === a) continue;
        seen[c.atom] = a;
        second.push(types[c.atom]!);
      }
    }
    const parts = [types[a]!];
    layer(1, first, parts);
    layer(2, second, parts);
    out.push(parts.join(";"));
  }
  return out;
}
