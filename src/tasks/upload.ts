/**
 * The CSV upload operation (issue "Service foundation" §6): CSV → prepared table (worker) →
 * structures parsed in parallel chunks on every worker → typed dataset and its graphs (worker) →
 * one commit of the dataset graph, the new compound graphs and the task's completion.
 * Progress: 0–10 % parsing the file, 10–85 % structures, 85–100 % building.
 */
import type { StructureResult } from "../chem/structure.ts";
import type { GraphOp } from "../store/journal.ts";
import type { GraphStore } from "../store/graph-store.ts";
import type { Operation } from "./runner.ts";

const CHUNK = 1000;

export interface UploadInput {
  readonly bytes: Uint8Array;
  readonly fileName: string;
  readonly datasetUri: string;
  readonly base: string;
}

export function titleOf(fileName: string): string {
  return fileName.replace(/\.(csv|tsv|txt)$/i, "") || "dataset";
}

export function uploadOperation(store: GraphStore, input: UploadInput): Operation {
  return async (ctx) => {
    const prepared = await ctx.run("csv.prepare", { bytes: input.bytes });
    ctx.progress(0.1);
    const cells = prepared.structures;
    const chunks: string[][] = [];
    for (let i = 0; i < cells.length; i += CHUNK) chunks.push(cells.slice(i, i + CHUNK));
    const done = new Array<number>(chunks.length).fill(0);
    const report = (): void => ctx.progress(0.1 + (0.75 * done.reduce((a, b) => a + b, 0)) / Math.max(1, cells.length));
    const results = await Promise.all(
      chunks.map((chunk, k) =>
        ctx.run("chem.parse", { cells: chunk }, (f) => {
          done[k] = f * chunk.length;
          report();
        }),
      ),
    );
    const parsed: [string, StructureResult][] = [];
    chunks.forEach((chunk, k) => chunk.forEach((cell, i) => parsed.push([cell, results[k]![i]!])));
    ctx.progress(0.85);
    const built = await ctx.run("dataset.build", {
      prepared,
      parsed,
      title: titleOf(input.fileName),
      meta: { uri: input.datasetUri, fileName: input.fileName, created: new Date(), base: input.base },
    });
    const ops: GraphOp[] = [{ graph: input.datasetUri, ntriples: built.datasetNTriples }];
    const fresh = built.compounds.filter((c) => !store.has(c.uri));
    if (fresh.length > 0) ops.push({ graphs: fresh.map((c) => c.uri), nquads: fresh.map((c) => c.nquads).join("") });
    return { ops, resultUri: input.datasetUri };
  };
}
