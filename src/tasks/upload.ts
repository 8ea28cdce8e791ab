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
import { joinParts, selectCompounds } from "../resources/dataset.ts";

/** Structures per pool job: small enough to balance the workers and report progress. */
const CHUNK = 250;

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
    const lap = timer(input.fileName);
    const prepared = await ctx.run("csv.prepare", { bytes: input.bytes });
    lap("csv");
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
    lap("structures");
    // Large datasets are built in two halves on two workers.
    const count = cells.length > 20_000 ? 2 : 1;
    const meta = { uri: input.datasetUri, fileName: input.fileName, created: new Date(), base: input.base };
    const parts = await Promise.all(
      Array.from({ length: count }, (_, index) => ctx.run("dataset.build", { bytes: input.bytes, parsed, title: titleOf(input.fileName), meta, part: { index, count } })),
    );
    const built = joinParts(parts);
    lap("build");
    const ops: GraphOp[] = [{ graph: input.datasetUri, ntriples: built.datasetNTriples }];
    const fresh = selectCompounds(built.compounds, (uri) => !store.has(uri));
    if (fresh.graphs.length > 0) ops.push({ graphs: fresh.graphs, nquads: fresh.nquads });
    return { ops, resultUri: input.datasetUri };
  };
}

/** With QSARGRAPH_TIMING=1, log how long each phase of an upload took (for bench/upload). */
function timer(label: string): (phase: string) => void {
  if (!process.env.QSARGRAPH_TIMING) return () => undefined;
  let t = performance.now();
  return (phase) => {
    const now = performance.now();
    console.log(`[timing] ${label} ${phase} ${Math.round(now - t)} ms`);
    t = now;
  };
}
