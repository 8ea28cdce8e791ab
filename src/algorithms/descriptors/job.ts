/**
 * Worker-side job of the physico-chemical descriptors (orchestrated by algorithms/descriptors/operation.ts):
 * compute the descriptors of a chunk of compounds and write their data entries (the features
 * are the value names the request selected, in registry order; a value that cannot be computed
 * has no value node).
 */
import { computeDescriptors, featureName, type Lib, type PcType } from "../../chem/descriptors/index.ts";
import { readSmilesGuarded } from "../../chem/structure.ts";
import { EntryWriter, type EntryRow } from "../../resources/dataset.ts";
import type { JobContext } from "../../tasks/job.ts";

export interface DescriptorChunkInput {
  readonly rows: readonly { readonly line: number; readonly compound: string; readonly smiles: string }[];
  readonly pcTypes: readonly PcType[];
  readonly libs: readonly Lib[];
  /** Value names, one feature each, in feature order. */
  readonly values: readonly string[];
  readonly datasetUri: string;
  readonly base: string;
}

export interface DescriptorChunkOutput {
  readonly entries: Uint8Array;
  /** Lines of rows whose structure RDKit could not read, or that is past a limit (chem/limits.ts; no values). */
  readonly failed: readonly number[];
}

export async function descriptorChunk(input: DescriptorChunkInput, ctx: JobContext): Promise<DescriptorChunkOutput> {
  const writer = new EntryWriter(input.datasetUri, input.base, input.values.map((v) => ({ name: featureName(v), numeric: true })));
  const index = new Map(input.values.map((v, j) => [v, j]));
  const rows: EntryRow[] = [];
  const failed: number[] = [];
  for (let i = 0; i < input.rows.length; i++) {
    const r = input.rows[i]!;
    const values = new Array<string | null>(input.values.length).fill(null);
    const computed = await readSmilesGuarded(r.smiles, (rdkit, smiles) => computeDescriptors(rdkit, smiles, { pcTypes: input.pcTypes, lib: input.libs }));
    if (computed === null) failed.push(r.line);
    for (const [name, x] of computed ?? []) {
      const j = index.get(name);
      if (j !== undefined) values[j] = String(x);
    }
    rows.push({ line: r.line, compound: r.compound, values });
    if (i % 20 === 0) ctx.progress(i / input.rows.length);
  }
  return { entries: writer.rows(rows), failed };
}
