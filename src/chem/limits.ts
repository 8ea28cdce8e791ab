/**
 * The size limits on structures, checked before RDKit sees them, so that no structure can break
 * a thread's RDKit instance (docs/ARCHITECTURE.md "Isolation of chemistry"). One place: the
 * upload (chem/structure.ts parseStructure), POST /compound, GET /compound/{InChI}, depiction,
 * molfile export and the jobs that read stored structures all check here.
 *
 * Why: RDKit MinimalLib (2026.9.1, WebAssembly) keeps its call stack in a fixed region of its
 * linear memory. A structure deep enough overflows it: either a trap (`RuntimeError: memory
 * access out of bounds`) after which every call on that instance fails, or — worse — a call
 * that returns normally but has written over memory, so that the *next* call fails (a linear
 * chain of 590 carbons: `get_smiles` returns, then RDKit cannot parse ethanol). A V3000 molfile
 * of 150 bytes with `COUNTS 99999999` made RDKit allocate 3 GB (never returned) and hold the
 * thread 8–13 s before it failed.
 *
 * Measured (probe scripts, fresh instance per failure, with the service's parser options; the
 * shapes as SMILES of n atoms): every call the service makes — parse, InChI + InChIKey, SMILES
 * (`get_smiles`), molblock, SVG, RDKit descriptors, CommonChem JSON, Morgan fingerprint, the
 * miners' encoding (chem/labelled-graph.ts), a molblock read back (molfile path), InChI decoding
 * (chem/inchi) — at n = 150, 300, 450, 600, 750, 900, followed by a tiny parse:
 *
 *   shape                         smallest n that failed      everything passed at
 *   linear chain C…C              590 (get_smiles, silently   450 (parse traps at ≈ 860)
 *                                 broken after; traps ≥ 640)
 *   macrocycle C1…C1              750 (get_smiles trap)       600
 *   methyl comb CC(C)C(C)…        599 (miners' encoding)      450
 *   nested branches C(C(C(…)))    750 (get_smiles)            600
 *   acene c1ccc2cc3…              750 (get_smiles)            600 (decoding: 5 s limit ≥ 450)
 *   polyphenylene, peptide,       none up to 815–900          815–900
 *   polystyrene, NaCl salt × n/2,
 *   n methane components
 *   dendrimer C(C(…)(…))…         none up to 364              364
 *   molfiles with explicit H      none for C300H602 (902 atoms, V2000 and V3000)
 *
 * So no shape failed below 590 atoms other than hydrogen; the limit of 300 keeps a factor of
 * 1.97 below the weakest call. Time grows faster than the size: at ≈ 300 atoms the slowest
 * calls took ≤ 0.7 s (parse), ≤ 1.8 s (InChI), ≤ 4.3 s (SVG, methyl comb), ≤ 5.5 s (molfile
 * path), at 600 up to 26 s (SVG of polystyrene) — on the shared 2-core test machine at a load
 * of ≈ 13, so several times slower than on a quiet one.
 *
 * The largest structures of every CSV and SDF of the public QSAR collection fixtures/data was
 * taken from (fixtures/data/SOURCES.md lists its repositories; 248,147 structure cells,
 * 134 files): 222 atoms other than hydrogen (RDKit's count; moleculenet/HIV.csv), 580 SMILES
 * characters (HIV.csv), 222 SMILES atom tokens, 457 InChI characters and 91 formula atoms
 * (lazar rat_feature_dataset.csv), molfiles of 417 atoms / 420 bonds, 219 of them heavy
 * (lazar cas_4337.sdf). All pass. InChIs of 300-atom structures measured 1,121–1,890
 * characters (chain, ring, peptide); get_inchikey_for_inchi only hashes its input (a
 * 6,400-character InChI took 87 ms).
 *
 * The limits are pure text checks (no parsing), linear in the input.
 */

/** The limits (see the measurements above). */
export const LIMITS = {
  /** Atoms of one structure other than hydrogen: SMILES atom tokens, InChI formula atoms, molfile atom lines. */
  atoms: 300,
  /** Characters of a SMILES (7 × the largest in the shared data). */
  smilesChars: 4000,
  /** Characters of an InChI (4 × the longest InChI of a 300-atom structure measured). */
  inchiChars: 8000,
  /** Atoms of a molfile, hydrogens included (C300H602 has 902). */
  molfileAtoms: 1000,
  /** Bonds of a molfile. */
  molfileBonds: 1100,
} as const;

/**
 * After a structure of more atoms than this, the caller checks that RDKit still parses a tiny
 * molecule: a deep structure can overflow RDKit's stack without trapping and break the next call
 * (measured above), which must not be a valid row's.
 */
export const HEALTH_CHECK_ATOMS = 100;

/**
 * Time budget of one request's chemistry (reading, drawing or writing one structure, or the
 * descriptors of one compound) once the chem pool's worker runs it: past it the worker is
 * stopped and the request answered 503. The InChI decoder stops itself after 5 s
 * (chem/inchi); drawing a 300-atom structure took ≤ 4.3 s on the loaded test machine (above).
 */
export const REQUEST_CHEM_BUDGET_MS = 15_000;

/** Longest wait of a request's chemistry for the chem pool's worker (busy, or starting): then 503. */
export const REQUEST_CHEM_WAIT_MS = 30_000;

/**
 * A worker whose RDKit WebAssembly memory passed this after a job is replaced (tasks/worker.ts):
 * that memory never shrinks. Measured after normal jobs (one thread, in order): the upload
 * chunks of MUV (93,087 structures) and HIV (41,127), all descriptors (3D included) of 300
 * Kazius compounds and BBRC on Kazius left it at its initial 16 MiB; LAST-PM on Kazius, which
 * holds all 4069 molecules while matching, took it to 69 MiB; 200 drawings at 4096 × 4096 and a
 * 300-carbon chain's added nothing. The V3000 molfile with COUNTS 99999999 (now refused) grew it
 * by 3 GB.
 */
export const RECYCLE_WASM_BYTES = 256 * 2 ** 20;

/** A limit, or `molfileCounts`: a molfile whose counts do not match the lines that follow. */
export type LimitName = keyof typeof LIMITS | "molfileCounts";

/** A structure refused before parsing: which limit, and a message naming it and the size found. */
export interface Refusal {
  readonly limit: LimitName;
  readonly message: string;
}

function refuse(limit: LimitName, message: string): Refusal {
  return { limit, message };
}

const C_A = 65, C_Z = 90;

/**
 * Atoms written in a SMILES: bracket atoms (`[nH]`, `[Na+]`, `[2H]`), the organic subset
 * (`B C N O P S F Cl Br I`, aromatic `b c n o p s`) and `*`. An upper bound of RDKit's heavy-atom
 * count (explicit `[H]` atoms count here and are removed by RDKit). Counting stops at `stop`.
 */
export function smilesAtoms(smiles: string, stop = Infinity): number {
  let n = 0;
  for (let i = 0; i < smiles.length && n < stop; i++) {
    const c = smiles.charCodeAt(i);
    if (c === 91 /* [ */) {
      const close = smiles.indexOf("]", i + 1);
      if (close < 0) return n + 1; // unterminated: RDKit refuses it
      i = close;
      n++;
    } else if (c === 42 /* * */) n++;
    else if ((c >= C_A && c <= C_Z) || (c >= 97 && c <= 122)) {
      // B, C, N, O, P, S, F, I (Cl, Br: the second letter is skipped); b, c, n, o, p, s.
      if ("BCNOPSFIbcnops".includes(smiles[i]!)) n++;
      if ((c === 67 && smiles.charCodeAt(i + 1) === 108) || (c === 66 && smiles.charCodeAt(i + 1) === 114)) i++;
    }
  }
  return n;
}

/** The atoms of a structure other than hydrogen (an estimate from the text), and its refusal when past a limit. */
export interface Measured {
  readonly atoms: number;
  readonly refusal: Refusal | null;
}

function measured(atoms: number, refusal: Refusal | null = null): Measured {
  return { atoms, refusal };
}

/** A SMILES: its atoms (`smilesAtoms`), refused past `smilesChars` or `atoms`. */
export function measureSmiles(smiles: string): Measured {
  if (smiles.length > LIMITS.smilesChars) return measured(Infinity, refuse("smilesChars", `SMILES too long: ${smiles.length} characters (the limit is ${LIMITS.smilesChars} characters)`));
  const atoms = smilesAtoms(smiles);
  if (atoms > LIMITS.atoms) return measured(atoms, refuse("atoms", `structure too large: the SMILES has ${atoms} atoms (the limit is ${LIMITS.atoms} atoms other than hydrogen)`));
  return measured(atoms);
}

/**
 * Atoms other than hydrogen in an InChI's formula layer (`InChI=1S/C6H6/…`, `2CH4`, `ClH.Na`), the
 * components' multipliers applied; null when there is no formula layer.
 */
export function inchiFormulaAtoms(inchi: string): number | null {
  const start = inchi.indexOf("/");
  if (start < 0) return null;
  const end = inchi.indexOf("/", start + 1);
  const formula = inchi.slice(start + 1, end < 0 ? undefined : end);
  if (!/^\d*[A-Z]/.test(formula)) return null;
  let total = 0;
  for (const component of formula.split(".")) {
    const m = /^(\d*)(.*)$/.exec(component)!;
    const times = m[1] === "" ? 1 : Number(m[1]);
    let atoms = 0;
    for (const e of m[2]!.matchAll(/([A-Z][a-z]?)(\d*)/g)) if (e[1] !== "H") atoms += e[2] === "" ? 1 : Number(e[2]);
    total += times * atoms;
  }
  return total;
}

/** An InChI: the atoms of its formula (0 without one), refused past `inchiChars` or `atoms`. */
export function measureInchi(inchi: string): Measured {
  if (inchi.length > LIMITS.inchiChars) return measured(Infinity, refuse("inchiChars", `InChI too long: ${inchi.length} characters (the limit is ${LIMITS.inchiChars} characters)`));
  const atoms = inchiFormulaAtoms(inchi) ?? 0;
  if (atoms > LIMITS.atoms) return measured(atoms, refuse("atoms", `structure too large: the InChI's formula has ${atoms} atoms other than hydrogen (the limit is ${LIMITS.atoms})`));
  return measured(atoms);
}

/** Hydrogen symbols of a molfile atom (deuterium and tritium too). */
const HYDROGEN = new Set(["H", "D", "T"]);

function tooMany(atoms: number, bonds: number): Measured | null {
  if (atoms > LIMITS.molfileAtoms) return measured(Infinity, refuse("molfileAtoms", `molfile too large: ${atoms} atoms (the limit is ${LIMITS.molfileAtoms} atoms, hydrogens included)`));
  if (bonds > LIMITS.molfileBonds) return measured(Infinity, refuse("molfileBonds", `molfile too large: ${bonds} bonds (the limit is ${LIMITS.molfileBonds} bonds)`));
  return null;
}

function heavy(count: number): Measured {
  return measured(count, count > LIMITS.atoms ? refuse("atoms", `structure too large: the molfile has ${count} atoms other than hydrogen (the limit is ${LIMITS.atoms})`) : null);
}

/**
 * A molfile (V2000 or V3000, up to its `M  END`): its atoms other than hydrogen, refused past a
 * limit or when its counts do not match the atom and bond lines that follow (RDKit allocates
 * for the counts before it reads a line). Not a validation of the format — RDKit does that; a
 * text that is not a molfile measures 0 atoms and is left to RDKit to refuse.
 */
export function measureMolfile(block: string): Measured {
  const lines = block.split(/\r?\n/);
  const counts = lines[3];
  if (counts === undefined) return measured(0);
  if (/V3000\s*$/.test(counts)) return measureV3000(lines);
  const atoms = Number(counts.slice(0, 3));
  const bonds = Number(counts.slice(3, 6));
  if (!Number.isInteger(atoms) || !Number.isInteger(bonds)) return measured(0);
  const size = tooMany(atoms, bonds);
  if (size) return size;
  const end = lines.findIndex((l, i) => i > 3 && l.startsWith("M  END"));
  const present = (end < 0 ? lines.length : end) - 4;
  if (present < atoms + bonds) {
    return measured(Infinity, refuse("molfileCounts", `molfile inconsistent: the counts line gives ${atoms} atoms and ${bonds} bonds, but only ${present} atom and bond lines follow`));
  }
  let h = 0;
  for (let i = 4; i < 4 + atoms; i++) h += HYDROGEN.has(lines[i]!.slice(31, 34).trim()) ? 0 : 1;
  return heavy(h);
}

/** The entries of a V3000 block (`M  V30 BEGIN ATOM` … `M  V30 END ATOM`), continuation lines joined. */
function v3000Block(lines: readonly string[], name: string): string[] | null {
  const begin = lines.findIndex((l) => l.trimEnd() === `M  V30 BEGIN ${name}`);
  if (begin < 0) return null;
  const out: string[] = [];
  let pending = "";
  for (let i = begin + 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (!l.startsWith("M  V30 ")) break;
    const body = l.slice(7);
    if (pending === "" && body.trim() === `END ${name}`) return out;
    if (body.endsWith("-")) pending += body.slice(0, -1);
    else {
      out.push(pending + body);
      pending = "";
    }
  }
  return out;
}

function measureV3000(lines: readonly string[]): Measured {
  const countsLine = lines.find((l) => l.startsWith("M  V30 COUNTS "));
  if (countsLine === undefined) return measured(0);
  const [atoms, bonds] = countsLine.slice(14).trim().split(/\s+/).map(Number) as [number, number];
  if (!Number.isInteger(atoms) || !Number.isInteger(bonds)) return measured(0);
  const size = tooMany(atoms, bonds);
  if (size) return size;
  const atomLines = v3000Block(lines, "ATOM") ?? [];
  const bondLines = v3000Block(lines, "BOND") ?? [];
  if (atomLines.length !== atoms || bondLines.length !== bonds) {
    return measured(Infinity, refuse("molfileCounts", `molfile inconsistent: the COUNTS line gives ${atoms} atoms and ${bonds} bonds, but the atom block has ${atomLines.length} and the bond block ${bondLines.length} entries`));
  }
  // An atom entry: index, element, x, y, z, atom-atom mapping, properties.
  let h = 0;
  for (const a of atomLines) h += HYDROGEN.has(a.trim().split(/\s+/)[1] ?? "") ? 0 : 1;
  return heavy(h);
}
