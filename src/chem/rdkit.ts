/**
 * Loading the RDKit MinimalLib WebAssembly module (`@rdkit/rdkit`), once per thread.
 *
 * The chemistry cores (DESIGN §2 `chem/`) call RDKit through the small typed interface below
 * instead of the package's full emscripten typings, so that what we depend on is visible in one
 * place and tests can see which calls exist. The module is initialised lazily and the promise is
 * cached per module instance — i.e. once per worker thread, because every `worker_threads` Worker
 * has its own module graph. A failed initialisation is not cached, so a later call retries.
 *
 * WASM objects (`RDKitMol`) live outside the JS heap: every molecule must be `delete()`d.
 */

import rdkitPackage from "@rdkit/rdkit";

// The package is CommonJS: `module.exports` is the factory and `module.exports.default` is the
// same function. TypeScript (NodeNext) types the default import as the CJS namespace, so the
// factory is taken from `.default`, which exists at run time too.
const initRDKitModule = rdkitPackage.default;

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
   * `CrippenClogP`, `chi0v`…`chi4v`, `kappa1`…`kappa3`, …; spec descriptors.md §3.1), computed
   * on the molecule as stored (so on the H-suppressed molecule `get_mol` returns by default).
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

let cached: Promise<RDKit> | null = null;

/** The RDKit module of this thread, initialised on first use (≈ 100 ms, then cached). */
export function loadRDKit(): Promise<RDKit> {
  if (cached === null) {
    const pending: Promise<RDKit> = initRDKitModule().then((mod): RDKit => mod);
    cached = pending;
    pending.catch(() => {
      if (cached === pending) cached = null;
    });
  }
  return cached;
}
