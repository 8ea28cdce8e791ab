/**
 * Physico-chemical descriptors: entry points.
 *
 *   const values = computeDescriptors(rdkit, "CCO", { pcTypes: ["topological"], lib: "cdk" });
 *
 * The molecule is parsed once; lib `cdk` reads RDKit's CommonChem JSON once into a compact
 * typed-array graph (graph.ts) and every CDK-compatible 2D descriptor works on a shared
 * context (distance matrix, charges, subgraph sums computed at most once); lib `rdkit` calls
 * `get_descriptors()` once. Values that cannot be computed are absent from the result map.
 *
 * 3D: when pc_type geometrical, cpsa or hybrid (WHIM) is requested, one conformer with all
 * hydrogens is generated per molecule (conformer.ts: distance geometry + force-field clean-up,
 * seeded, with a per-molecule time bound) and the CDK 3D classes are computed on it; when no
 * conformer can be made in time, those values are absent. `computeFromMolblock` uses the
 * coordinates of a 3D molfile instead. PetitjeanShapeIndex's geomShape (pc_type topological)
 * is produced whenever a conformer is at hand (a 3D pc_type requested too, or `threeD: true`).
 */

import type { RDKit, RDKitMol } from "../rdkit.ts";
import type { ConformerOptions } from "./conformer.ts";
import { DescriptorContext } from "./descriptor-context.ts";
import { geomShape } from "./geometrical.ts";
import { mol3DFromMolblock, withoutHydrogens, type Mol3D } from "./geometry3d.ts";
import { graphFromJson } from "./graph.ts";
import { rdkitDescriptors } from "./rdkitlib.ts";
import { CDK_2D, CDK_3D } from "./registry.ts";
import { LIBS, PC_TYPES, type DescriptorValues, type Lib, type PcType } from "./types.ts";

export interface ComputeOptions {
  /** Categories to compute (default: all). 3D-only categories yield nothing here. */
  readonly pcTypes?: Iterable<PcType>;
  /** Library or libraries (default: all). */
  readonly lib?: Lib | Iterable<Lib>;
  /**
   * 3D values: `undefined` (default) = compute them when a 3D pc_type (geometrical, cpsa,
   * hybrid) is requested; `false` = never (no conformer is generated); `true` = also when only
   * topological is requested (for geomShape).
   */
  readonly threeD?: boolean;
  /** Conformer generation: seed (default 42), time bound per molecule (default 500 ms), … */
  readonly conformer?: ConformerOptions;
  /**
   * Atoms the 3D descriptors see: `all` (default: the conformer with its hydrogens, CDK on a
   * complete structure) or `heavy` (hydrogens removed first, as lazar's 2012 service did — then
   * GRAVH = GRAV and CPSA uses charges of the H-depleted graph).
   */
  readonly hydrogens3D?: "all" | "heavy";
}

const PC_3D: readonly PcType[] = ["geometrical", "cpsa", "hybrid"];

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
    computeCdk(ctx, pcTypes, options, out);
  }
  if (libs.has("rdkit")) rdkitDescriptors(mol, pcTypes, out);
  for (const [k, v] of out) if (!Number.isFinite(v)) out.delete(k);
  return out;
}

/** The CDK-compatible values for `pcTypes` on a prepared context (2D, then 3D). */
function computeCdk(ctx: DescriptorContext, pcTypes: Set<PcType>, options: ComputeOptions, out: DescriptorValues): void {
  for (const d of CDK_2D) if (pcTypes.has(d.pcType)) d.compute(ctx, out);
  if (options.threeD === false) return;
  const want3D = PC_3D.some((p) => pcTypes.has(p)) || (options.threeD === true && pcTypes.has("topological"));
  if (!want3D) return;
  if (options.conformer !== undefined) ctx.conformerOptions = options.conformer;
  let mol: Mol3D | null = ctx.conformer;
  if (mol === null) return;
  if (options.hydrogens3D === "heavy") mol = withoutHydrogens(mol);
  for (const d of CDK_3D) if (pcTypes.has(d.pcType)) d.compute3D(ctx, mol, out);
  if (pcTypes.has("topological")) geomShape(mol, out);
}

/**
 * Descriptors of a V2000 molfile with 3D coordinates: the 3D values are computed on the file's
 * coordinates and atoms (with the hydrogens the file has), the 2D values on its structure.
 * Null when RDKit cannot parse it.
 */
export function computeFromMolblock(rdkit: RDKit, molblock: string, options: ComputeOptions = {}): DescriptorValues | null {
  const mol = rdkit.get_mol(molblock, JSON.stringify({ removeHs: false }));
  if (mol === null) return null;
  try {
    const pcTypes = new Set(options.pcTypes ?? PC_TYPES);
    const libs = libSet(options.lib);
    const out: DescriptorValues = new Map();
    if (libs.has("cdk")) {
      const ctx = new DescriptorContext(graphFromJson(mol.get_json()));
      ctx.setConformer(mol3DFromMolblock(ctx.g, molblock));
      computeCdk(ctx, pcTypes, { ...options, threeD: options.threeD ?? true }, out);
    }
    if (libs.has("rdkit")) {
      const noH = rdkit.get_mol(molblock);
      if (noH !== null) {
        try {
          rdkitDescriptors(noH, pcTypes, out);
        } finally {
          noH.delete();
        }
      }
    }
    for (const [k, v] of out) if (!Number.isFinite(v)) out.delete(k);
    return out;
  } finally {
    mol.delete();
  }
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
export { generateConformer, conformerMolblock } from "./conformer.ts";
export type { ConformerInfo, ConformerOptions } from "./conformer.ts";
export { mol3DFromMolblock, withoutHydrogens } from "./geometry3d.ts";
export type { Mol3D } from "./geometry3d.ts";
export { LIBS, PC_TYPES } from "./types.ts";
export type { Cdk3DDescriptor, DescriptorDef, DescriptorValues, Lib, PcType } from "./types.ts";
export { DescriptorContext } from "./descriptor-context.ts";
export { graphFromJson } from "./graph.ts";
