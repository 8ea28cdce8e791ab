/**
 * Physico-chemical descriptors: entry points.
 *
 *   const values = computeDescriptors(rdkit, "CCO", { pcTypes: ["topological"], lib: "cdk" });
 *
 * The molecule is parsed once; lib `cdk` reads RDKit's CommonChem JSON once into a compact
 * typed-array graph (graph.ts) and every CDK-compatible 2D descriptor works on a shared
 * context (distance matrix, charges, subgraph sums computed at most once); lib `rdkit` calls
 * `get_descriptors()` once. Values that cannot be computed are absent from the result map.
 */

import type { RDKit, RDKitMol } from "../rdkit.ts";
import { DescriptorContext } from "./context.ts";
import { graphFromJson } from "./graph.ts";
import { rdkitDescriptors } from "./rdkitlib.ts";
import { CDK_2D } from "./registry.ts";
import { LIBS, PC_TYPES, type DescriptorValues, type Lib, type PcType } from "./types.ts";

export interface ComputeOptions {
  /** Categories to compute (default: all). 3D-only categories yield nothing here. */
  readonly pcTypes?: Iterable<PcType>;
  /** Library or libraries (default: all). */
  readonly lib?: Lib | Iterable<Lib>;
}

function libSet(lib: ComputeOptions["lib"]): Set<Lib> {
  if (lib === undefined) return new Set(LIBS);
  return typeof lib === "string" ? new Set([lib]) : new Set(lib);
}

/** Descriptors of one parsed molecule (not deleted here). */
export function computeForMol(mol: RDKitMol, options: ComputeOptions = {}): DescriptorValues {
  const pcTypes = new Set(options.pcTypes ?? PC_TYPES);
  const libs = libSet(options.lib);
  const out: DescriptorValues = new Map();
  if (libs.has("cdk")) {
    const ctx = new DescriptorContext(graphFromJson(mol.get_json()));
    for (const d of CDK_2D) if (pcTypes.has(d.pcType)) d.compute(ctx, out);
  }
  if (libs.has("rdkit")) rdkitDescriptors(mol, pcTypes, out);
  for (const [k, v] of out) if (!Number.isFinite(v)) out.delete(k);
  return out;
}

/** Descriptors of a SMILES (or molfile) RDKit can parse; null when it cannot. */
export function computeDescriptors(rdkit: RDKit, smiles: string, options: ComputeOptions = {}): DescriptorValues | null {
  const mol = rdkit.get_mol(smiles);
  if (mol === null) return null;
  try {
    return computeForMol(mol, options);
  } finally {
    mol.delete();
  }
}

export { DESCRIPTORS, CDK_2D, CDK_3D, valueNames, featureName, isLib, isPcType } from "./registry.ts";
export { LIBS, PC_TYPES } from "./types.ts";
export type { DescriptorDef, DescriptorValues, Lib, PcType } from "./types.ts";
export { DescriptorContext } from "./context.ts";
export { graphFromJson } from "./graph.ts";
