/**
 * Loading the RDKit MinimalLib WebAssembly module (`@rdkit/rdkit`), once per thread, and
 * replacing it when it breaks.
 *
 * The chemistry cores (src/chem/) call RDKit through the small typed interface below
 * instead of the package's full emscripten typings, so that what we depend on is visible in one
 * place and tests can see which calls exist. The module is initialised lazily and the promise is
 * cached per module instance — i.e. once per worker thread, because every `worker_threads` Worker
 * has its own module graph. A failed initialisation is not cached, so a later call retries.
 *
 * **A broken instance is replaced.** RDKit's WebAssembly stack is a fixed region of its linear
 * memory; a structure deep enough to overflow it (a linear chain of ≈ 860 carbons, see
 * limits.ts) traps (`WebAssembly.RuntimeError: memory access out of bounds`), after which, in
 * a fresh instance, every later call traps too; a slightly smaller one may return normally
 * and break later calls (590 carbons through `get_smiles`). Callers report every exception
 * from RDKit to `toolkitFailed`: after a trap the instance is dropped at once, after any other
 * exception the health check (`rdkitHealthy`: ethanol through the parse, InChI and SMILES
 * paths) decides; the next `loadRDKit()` then starts a fresh instance. The compiled
 * WebAssembly module is kept, so a fresh instance costs an instantiation, not a compilation.
 *
 * WASM objects (`RDKitMol`) live outside the JS heap: every molecule must be `delete()`d. The
 * instance's linear memory only grows (WebAssembly memory never shrinks); `wasmMemoryBytes`
 * tells how large it is, so that a worker can be recycled after a job that grew it (worker.ts).
 */

import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import rdkitPackage from "@rdkit/rdkit";

// The package is CommonJS: `module.exports` is the factory and `module.exports.default` is the
// same function. TypeScript (NodeNext) types the default import as the CJS namespace, so the
// factory is taken from `.default`, which exists at run time too.
const initRDKitModule = rdkitPackage.default as unknown as (moduleArg?: object) => Promise<RDKit>;

/** A molecule handle in WASM memory. Call `delete()` when done, also on error paths. */
export interface RDKitMol {
  /** RDKit canonical SMILES. */
  get_smiles(): string;
  /** Standard InChI (empty string when InChI generation fails, e.g. for `*` atoms). */
  get_inchi(): string;
  /** V2000 molfile; 2D coordinates are computed when the molecule has none. */
  get_molblock(): string;
  get_num_atoms(): number;
  /**
   * CommonChem JSON (`{"molecules":[{"atoms":[…],"bonds":[…],"extensions":[…]}]}`): atoms
   * and Kekulé bonds, plus RDKit's `aromaticAtoms` / `aromaticBonds` in the `rdkitRepresentation`
   * extension. Used by the subgraph miners (src/mining) to read the heavy-atom graph.
   */
  get_json(): string;
  /** Morgan (ECFP-like) fingerprint as a string of '0'/'1'; `details` e.g. {"radius":2,"nBits":2048}. */
  get_morgan_fp(details?: string): string;
  /**
   * The same Morgan fingerprint packed into bytes: bit i is bit (i % 8), least significant first,
   * of byte ⌊i / 8⌋ (chem/fingerprints.ts decodes it); `details` e.g. {"radius":2,"nBits":2048}.
   */
  get_morgan_fp_as_uint8array(details?: string): Uint8Array;
  /**
   * RDKit's hashed atom-pair fingerprint as a bit vector (with count simulation), packed as the
   * Morgan bytes; `details` e.g. {"nBits":2048,"minLength":1,"maxLength":30} (RDKit's defaults).
   */
  get_atom_pair_fp_as_uint8array(details?: string): Uint8Array;
  /**
   * RDKit's path ("RDKit", Daylight-like) fingerprint, packed as the Morgan bytes; `details` e.g.
   * {"nBits":2048,"minPath":1,"maxPath":7} (RDKit's defaults; also nBitsPerHash 2, useHs,
   * branchedPaths, useBondOrder, all true by default).
   */
  get_rdkit_fp_as_uint8array(details?: string): Uint8Array;
  /** RDKit's 166 public MACCS keys as 167 bits (bit 0 unused), packed as the Morgan bytes. */
  get_maccs_fp_as_uint8array(): Uint8Array;
  /** SVG depiction; `details` is a JSON object (width, height, atoms, bonds, …). */
  get_svg_with_highlights(details: string): string;
  /**
   * Substructure matches of a query molecule (from `get_qmol`): JSON array of
   * `{"atoms":[…],"bonds":[…]}` (atom indices in query-atom order), or `{}` when there is none.
   * `details` is a JSON object of RDKit's SubstructMatchParameters, e.g.
   * `{"uniquify":false,"maxMatches":100000}` to list automorphic images separately.
   */
  get_substruct_matches(query: RDKitMol, details?: string): string;
  /** The first substructure match as `{"atoms":[…],"bonds":[…]}`, or `{}`. */
  get_substruct_match(query: RDKitMol, details?: string): string;
  /**
   * RDKit's own 2D descriptors as a JSON object of 43 numbers (`exactmw`, `tpsa`,
   * `CrippenClogP`, `chi0v`…`chi4v`, `kappa1`…`kappa3`, …; docs/descriptors.md "RDKit's own
   * values"), computed on the molecule as stored (so on the H-suppressed molecule `get_mol`
   * returns by default).
   */
  get_descriptors(): string;
  delete(): void;
}

/** The part of the RDKit MinimalLib module this service uses. */
export interface RDKit {
  version(): string;
  /**
   * Parse SMILES, a molfile (when the text contains `M  END`) or CommonChem JSON; `details` is a
   * JSON object with parser options. Returns null when the input cannot be parsed.
   */
  get_mol(input: string, details?: string): RDKitMol | null;
  /** InChIKey for an InChI string; empty string when the InChI library rejects the input. */
  get_inchikey_for_inchi(inchi: string): string;
  /** Parse a SMARTS into a query molecule (RDKit's SMARTS semantics); null when it cannot. */
  get_qmol(smarts: string): RDKitMol | null;
}

/** One instance with the linear memory it runs in. */
interface Instance {
  readonly rdkit: RDKit;
  readonly memory: WebAssembly.Memory | null;
}

let cached: Promise<Instance> | null = null;
/** The instance `cached` resolved to (null while none is loaded). */
let current: Instance | null = null;
let compiled: Promise<WebAssembly.Module> | null = null;
let replacements = 0;
/** Bytes of the linear memories of the instances dropped in this thread (not returned, see wasmMemoryBytes). */
let retired = 0;

/** The compiled RDKit WebAssembly module of this thread (compiled once, instantiated per instance). */
function compiledModule(): Promise<WebAssembly.Module> {
  if (compiled === null) {
    const pending = readFile(fileURLToPath(import.meta.resolve("@rdkit/rdkit/RDKit_minimal.wasm"))).then((bytes) => WebAssembly.compile(bytes));
    compiled = pending;
    pending.catch(() => {
      if (compiled === pending) compiled = null;
    });
  }
  return compiled;
}

/** A fresh RDKit instance on the compiled module, with a handle on its memory. */
async function newInstance(): Promise<Instance> {
  const module = await compiledModule();
  let memory: WebAssembly.Memory | null = null;
  let failed: (err: unknown) => void = () => undefined;
  const instantiation = new Promise<never>((_, reject) => (failed = reject));
  const init = initRDKitModule({
    // emscripten's hook: we instantiate the compiled module ourselves and hand the instance back.
    instantiateWasm(imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void): object {
      WebAssembly.instantiate(module, imports).then((instance) => {
        memory = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory) ?? null;
        done(instance);
      }, failed);
      return {};
    },
  });
  const rdkit = await Promise.race([init, instantiation]);
  return { rdkit, memory };
}

/** The RDKit module of this thread, initialised on first use and after a replacement (then cached). */
export function loadRDKit(): Promise<RDKit> {
  if (cached === null) {
    const pending = newInstance();
    cached = pending;
    pending.then(
      (instance) => {
        if (cached === pending) current = instance;
      },
      () => {
        if (cached === pending) cached = null;
      },
    );
  }
  return cached.then((instance) => instance.rdkit);
}

/** Drop this thread's instance: the next `loadRDKit()` starts a fresh one (its memory is freed once unreferenced). */
export function replaceRDKit(): void {
  if (cached === null) return;
  retired += current?.memory?.buffer.byteLength ?? 0;
  cached = null;
  current = null;
  replacements++;
}

/** Parser options of the health check: a JSON details string, as the service's parses pass one. */
const PROBE_OPTIONS = JSON.stringify({ sanitize: true, removeHs: true });
/** Ethanol's standard InChI (PubChem CID 702). */
const ETHANOL_INCHI = "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3";

/**
 * Whether `rdkit` still works on a tiny molecule: ethanol parsed with parser options, its atom
 * count, InChI and SMILES. A stack overflow that did not trap can break one code path and not
 * another (measured: after `get_smiles` of a 600-carbon chain, `get_mol("CCO")` still worked but
 * `get_mol("CCO", options)` threw), so the check takes the paths the service uses.
 */
export function rdkitHealthy(rdkit: RDKit): boolean {
  try {
    const mol = rdkit.get_mol("CCO", PROBE_OPTIONS);
    if (mol === null) return false;
    try {
      return mol.get_num_atoms() === 3 && mol.get_inchi() === ETHANOL_INCHI && mol.get_smiles() === "CCO";
    } finally {
      mol.delete();
    }
  } catch {
    return false;
  }
}

/** Check this thread's instance, if one is loaded, and drop it when broken; false when it was dropped. */
export function checkRDKit(): boolean {
  if (current === null || rdkitHealthy(current.rdkit)) return true;
  replaceRDKit();
  return false;
}

/**
 * Report an exception thrown by a call on `rdkit`. A WebAssembly trap (`RuntimeError`) breaks the
 * instance for good (and may have written over its memory before trapping): it is replaced
 * without asking. After any other exception (a C++ exception RDKit lets through, e.g. from the
 * InChI writer on some unsanitisable molecules) the instance is replaced only when a tiny parse
 * fails. Returns true when the instance was replaced; a caller that holds `rdkit` must then get
 * the fresh one with `loadRDKit()` before its next call.
 */
export function toolkitFailed(rdkit: RDKit, err: unknown): boolean {
  const broken = err instanceof WebAssembly.RuntimeError || !rdkitHealthy(rdkit);
  if (!broken) return false;
  if (current?.rdkit === rdkit) replaceRDKit();
  return true;
}

/** A short description of an exception from RDKit, for error messages. */
export function describeToolkitError(err: unknown): string {
  if (err instanceof WebAssembly.RuntimeError) return `WebAssembly trap: ${err.message}`;
  if (err instanceof Error) return err.message;
  return "an exception in the toolkit";
}

/**
 * Bytes of linear memory this thread's RDKit instances hold: the current one's and those of the
 * instances dropped before it. Dropping an instance does not give its memory back (measured: a
 * worker whose instance had grown to 3 GB kept its 3 GB RSS after the instance was dropped and
 * garbage collected; terminating the worker returned it), so they count until the thread ends.
 */
export function wasmMemoryBytes(): number {
  return retired + (current?.memory?.buffer.byteLength ?? 0);
}

/** Instances replaced in this thread since it started (after failures or memory growth). */
export function rdkitReplacements(): number {
  return replacements;
}
