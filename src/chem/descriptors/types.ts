/** Shared types of the descriptor library. */

import type { DescriptorContext } from "./descriptor-context.ts";
import type { Mol3D } from "./geometry3d.ts";

/** lazar's single-valued descriptor categories (the values of its pc_type parameter). */
export const PC_TYPES = ["constitutional", "electronic", "topological", "geometrical", "cpsa", "hybrid"] as const;
export type PcType = (typeof PC_TYPES)[number];

/**
 * Descriptor libraries: `cdk` = the CDK-compatible set lazar exposed (CDK class ids and value
 * names, computed by our own code); `rdkit` = RDKit MinimalLib's `get_descriptors()` values.
 */
export const LIBS = ["cdk", "rdkit"] as const;
export type Lib = (typeof LIBS)[number];

/** Output of a computation: value name → finite number. Values that cannot be computed are absent. */
export type DescriptorValues = Map<string, number>;

export interface DescriptorDef {
  /** Identifier: the CDK class name for lib cdk (lazar's id), e.g. `WienerNumbersDescriptor`. */
  readonly id: string;
  /** Human-readable name. */
  readonly title: string;
  readonly pcType: PcType;
  readonly lib: Lib;
  /** Value names in output order (CDK `getDescriptorNames()` at default parameters). */
  readonly values: readonly string[];
  /** Value names that need 3D coordinates and are never produced by the 2D code. */
  readonly needs3D?: readonly string[];
}

/** A 2D CDK-compatible descriptor with its computation on the shared molecule context. */
export interface CdkDescriptor extends DescriptorDef {
  readonly lib: "cdk";
  /** Put every computable value into `out` (never NaN/±Infinity; the caller filters anyway). */
  compute(ctx: DescriptorContext, out: DescriptorValues): void;
}

/**
 * A CDK-compatible descriptor that needs 3D coordinates: computed on the context's conformer
 * (`ctx.conformer`: generated, or given coordinates). Nothing is produced without one.
 */
export interface Cdk3DDescriptor extends DescriptorDef {
  readonly lib: "cdk";
  readonly needs3D: readonly string[];
  compute3D(ctx: DescriptorContext, mol: Mol3D, out: DescriptorValues): void;
}

/** Set `name` when `v` is a finite number. */
export function put(out: DescriptorValues, name: string, v: number): void {
  if (Number.isFinite(v)) out.set(name, v);
}
