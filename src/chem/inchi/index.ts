/**
 * Standard InChI → structure, verified by an RDKit round trip.
 *
 * RDKit MinimalLib cannot read InChI, so the layers are decoded here (parse.ts): formula and
 * connections give the heavy-atom graph, `/h` the fixed hydrogens and the mobile-H groups, `/q`
 * the component charges, `/p` the protons added to or removed from the main-layer structure,
 * `/i` the isotopes. search.ts chooses charges, protons and radicals (cheapest first; radicals
 * and carbon charges only in later passes) and kekule.ts the bond orders and mobile-H places;
 * stereo.ts turns `/t` `/m` `/b` into SMILES marks. Each candidate is written as SMILES
 * (smiles.ts), read by RDKit and accepted only when the standard InChI RDKit computes for it
 * equals the requested one; at most `maxCandidates` candidates, `maxNodes` search nodes and
 * `timeLimitMs` per decode. `/p` protons no atom can take (HBF4) become separate `[H+]`.
 *
 * Equality checked (`exact`):
 *   - exact: true  — RDKit's InChI of the structure is the requested string, character for
 *     character (all layers, stereo and isotopes included);
 *   - exact: false — the requested InChI has stereo layers (`/b`, `/t`, `/m`, `/s`) that could
 *     not be reproduced, and the two InChIs are equal once those layers are removed from both
 *     (stereo.ts tries to reproduce them first). No other difference is ever accepted.
 */
import type { RDKit } from "../rdkit.ts";
import { buildGraph, type Graph } from "./graph.ts";
import { InchiError, parseInchi, stripStereo, type ParsedInchi } from "./parse.ts";
import { searchStructures, type SearchMode, type Solution } from "./search.ts";
import { atomSpecs, writeSmiles } from "./smiles.ts";
import { stereoMarks } from "./stereo.ts";

export { InchiError, parseInchi, stripStereo } from "./parse.ts";

export type DecodeResult =
  | {
      readonly ok: true;
      /** A SMILES RDKit reads as the compound. */
      readonly smiles: string;
      /** V2000 molfile of the structure (RDKit's, with 2D coordinates) when asked for. */
      readonly molblock?: string;
      /** False when stereo layers of the InChI are not reproduced (see the module comment). */
      readonly exact: boolean;
    }
  | { readonly ok: false; readonly error: string };

export interface DecodeOptions {
  /** Structures verified with RDKit at most (default 200). */
  readonly maxCandidates?: number;
  /** Search nodes at most in the first pass (default 300000; the later passes get a third). */
  readonly maxNodes?: number;
  /** Wall-clock bound in milliseconds (default 5000): the decode gives up after it. */
  readonly timeLimitMs?: number;
  /** Also return RDKit's molblock. */
  readonly molblock?: boolean;
}

/** Further candidates tried for exact stereo once a stereo-less match is found. */
const STEREO_RETRIES = 8;

const MODES: readonly SearchMode[] = ["normal", "radicals", "full"];

const MOL_OPTIONS = JSON.stringify({ sanitize: true, kekulize: true, removeHs: true });

interface Verified {
  readonly smiles: string;
  readonly exact: boolean;
  readonly molblock?: string;
}

/** Decode a standard InChI to a structure whose RDKit InChI equals it. Never throws for bad input. */
export function decodeInchi(rdkit: RDKit, inchi: string, options: DecodeOptions = {}): DecodeResult {
  try {
    return decode(rdkit, inchi, options);
  } catch (e) {
    // Not expected; a resource limit (e.g. the call stack on a huge structure) must not escape.
    return { ok: false, error: `InChI could not be decoded: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function decode(rdkit: RDKit, inchi: string, options: DecodeOptions): DecodeResult {
  const target = inchi.trim();
  let parsed: ParsedInchi;
  try {
    parsed = parseInchi(target);
  } catch (e) {
    if (e instanceof InchiError) return { ok: false, error: `InChI could not be parsed: ${e.message}` };
    throw e;
  }
  const maxCandidates = options.maxCandidates ?? 200;
  const maxNodes = options.maxNodes ?? 300000;
  const deadline = performance.now() + (options.timeLimitMs ?? 5000);
  const wantStereo = parsed.hasStereo;
  const targetFlat = wantStereo ? stripStereo(target) : target;

  const check = (smiles: string): Verified | "mismatch" | "unreadable" => {
    let mol = null;
    try {
      mol = rdkit.get_mol(smiles, MOL_OPTIONS);
    } catch {
      mol = null;
    }
    if (mol === null) return "unreadable";
    try {
      const out = mol.get_inchi();
      const exact = out === target;
      if (!exact && !(wantStereo && stripStereo(out) === targetFlat)) return "mismatch";
      return options.molblock === true ? { smiles, exact, molblock: mol.get_molblock() } : { smiles, exact };
    } finally {
      mol.delete();
    }
  };

  // The bare proton(s): InChI=1S/p+1.
  if (parsed.components.length === 0) {
    if (parsed.protons <= 0) return { ok: false, error: "InChI could not be parsed: proton layer (/p) without a formula must be positive" };
    const smiles = Array.from({ length: parsed.protons }, () => "[H+]").join(".");
    const r = check(smiles);
    return typeof r === "string" ? { ok: false, error: "InChI did not round-trip" } : { ok: true, ...r };
  }

  let graph: Graph;
  try {
    graph = buildGraph(parsed);
  } catch (e) {
    if (e instanceof InchiError) return { ok: false, error: `InChI could not be parsed: ${e.message}` };
    throw e;
  }

  let tries = 0;
  let lastError = "";
  const found: { result: Verified | null; fallback: Verified | null; fallbackAt: number } = {
    result: null,
    fallback: null,
    fallbackAt: 0,
  };
  // Free protons: when no atom can take the /p protons (HBF4: InChI=1S/BF4/c…/q-1/p+1), they
  // are written as separate [H+] components.
  let freeProtons = "";
  let net = graph;
  const visit = (sol: Solution): boolean => {
    tries++;
    let specs;
    try {
      specs = atomSpecs(
        net,
        sol.atoms.map((s) => s.hydrogens),
        sol.atoms.map((s) => s.charge),
        parsed.exchangeD,
        parsed.exchangeT,
      );
    } catch (e) {
      lastError = e instanceof Error ? e.message : String(e);
      return true;
    }
    if (wantStereo) {
      for (const marks of stereoMarks(net, parsed, sol)) {
        const r = check(writeSmiles(net, sol.orders, specs, marks) + freeProtons);
        if (typeof r !== "string") {
          if (r.exact) {
            found.result = r;
            return true;
          }
          if (found.fallback === null) {
            found.fallback = r;
            found.fallbackAt = tries;
          }
        }
      }
      // The structure is right but its stereo is not: a few more tautomers/Kekulé forms may
      // carry the stereo bonds, then give up on exact stereo.
      if (found.fallback !== null && tries - found.fallbackAt >= STEREO_RETRIES) return true;
    } else {
      const r = check(writeSmiles(net, sol.orders, specs) + freeProtons);
      if (typeof r !== "string") {
        found.result = r;
        return true;
      }
    }
    return tries >= maxCandidates || performance.now() > deadline;
  };
  const done = (): boolean => found.result !== null || found.fallback !== null || tries >= maxCandidates || lastError !== "";
  for (const mode of MODES) {
    searchStructures(net, mode, visit, mode === "normal" ? maxNodes : Math.ceil(maxNodes / 3), deadline);
    if (done() || performance.now() > deadline) break;
  }
  if (!done() && graph.protons > 0 && graph.protons <= 4 && performance.now() <= deadline) {
    net = { ...graph, protons: 0 };
    freeProtons = ".[H+]".repeat(graph.protons);
    searchStructures(net, "normal", visit, maxNodes, deadline);
  }
  const best = found.result ?? found.fallback;
  if (best !== null) return { ok: true, ...best };
  if (lastError !== "") return { ok: false, error: `InChI could not be decoded: ${lastError}` };
  if (performance.now() > deadline) {
    return { ok: false, error: `InChI could not be decoded within ${options.timeLimitMs ?? 5000} ms` };
  }
  return {
    ok: false,
    error:
      tries === 0
        ? "InChI could not be decoded: no structure satisfies its valences and charges"
        : `InChI could not be decoded: none of ${tries} candidate structures has this InChI`,
  };
}
