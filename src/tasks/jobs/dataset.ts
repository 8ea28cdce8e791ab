/**
 * Worker-side jobs of a CSV upload (orchestrated by tasks/upload.ts): parse the CSV and find the
 * structure column; turn structure cells into standard InChIs with RDKit (in chunks, on every
 * worker); assemble the typed dataset and its N-Triples.
 */
import { loadRDKit } from "../../chem/rdkit.ts";
import { parseStructure, type StructureResult } from "../../chem/structure.ts";
import { parseCsv } from "../../tabular/csv.ts";
import { assembleDataset, prepareTable, type PreparedTable } from "../../tabular/table.ts";
import { buildDataset, type BuiltDataset, type DatasetMeta, type Part } from "../../resources/dataset.ts";
import type { JobContext } from "./context.ts";

function prepare(bytes: Uint8Array): PreparedTable {
  return prepareTable(parseCsv(new TextDecoder("utf-8").decode(bytes)));
}

/** Parse the file and return its distinct structure cells (the table itself stays here: the build job parses the file again rather than cloning the table through the main thread). */
export function prepareCsv(input: { readonly bytes: Uint8Array }): { readonly structures: readonly string[] } {
  return { structures: prepare(input.bytes).structures };
}

export async function parseStructures(input: { readonly cells: readonly string[] }, ctx: JobContext): Promise<StructureResult[]> {
  const rdkit = await loadRDKit();
  const out: StructureResult[] = [];
  input.cells.forEach((cell, i) => {
    out.push(parseStructure(rdkit, cell));
    if (i % 200 === 0) ctx.progress(i / input.cells.length);
  });
  return out;
}

export interface BuildInput {
  readonly bytes: Uint8Array;
  readonly parsed: readonly (readonly [string, StructureResult])[];
  readonly title: string;
  readonly meta: DatasetMeta;
  readonly part: Part;
}

export function buildDatasetJob(input: BuildInput): BuiltDataset {
  const content = assembleDataset(prepare(input.bytes), new Map(input.parsed), input.title);
  return buildDataset(content, input.meta, input.part);
}
