/**
 * The mining task (main thread): one `mine` job (the search and the dataset's header), then the
 * entries written by `mine.entries` jobs of ENTRY_CHUNK and loaded as they arrive.
 */
import type { StoreBackend } from "../../store/backend.ts";
import { concatBodies } from "../../store/journal.ts";
import type { Operation } from "../jobs.ts";
import type { Vocab } from "../../store/vocab.ts";
import { miningInput, type MiningRequest } from "./spec.ts";

/** Entries written per `mine.entries` job (a Kazius BBRC result: 4069 entries, 800k triples). */
const ENTRY_CHUNK = 500;

/**
 * The task's work: read the training data (spec.ts `miningInput`); mine in a worker; write the
 * feature dataset's entries in chunks on every worker, loading each chunk into the store (staged)
 * as it arrives; commit. Writing the 800k triples of a Kazius BBRC result took as long as the
 * mining (4.5 CPU s, in the one worker that mined), and loading them as long again on the main
 * thread after that, in one piece.
 */
export function mineOperation(store: StoreBackend, v: Vocab, request: MiningRequest, datasetUri: string): Operation {
  return async (ctx) => {
    const stage = store.stage(datasetUri);
    try {
      const input = await miningInput(request, store, v);
      ctx.progress(0.05);
      const dataset = { ...input.dataset, uri: datasetUri, created: new Date() };
      const mined = await ctx.run("mine.features", { ...input, dataset }, (f) => ctx.progress(0.05 + 0.75 * f));
      const chunks: (typeof mined.entries)[] = [];
      for (let i = 0; i < mined.entries.length; i += ENTRY_CHUNK) chunks.push(mined.entries.slice(i, i + ENTRY_CHUNK));
      let written = 0;
      const loads: Promise<void>[] = [stage.load(mined.header)];
      const bodies = await Promise.all(
        chunks.map(async (entries) => {
          const out = await ctx.run("mine.entries", { datasetUri, base: dataset.base, columns: mined.columns, entries });
          const loaded = stage.load(out.ntriples);
          loaded.catch(() => undefined); // awaited below
          loads.push(loaded);
          ctx.progress(0.8 + (0.15 * ++written) / chunks.length);
          return out.ntriples;
        }),
      );
      await Promise.all(loads);
      const body = await concatBodies([mined.header, ...bodies]);
      return { ops: [{ graph: datasetUri, ntriples: body }], resultUri: datasetUri, preloaded: [stage] };
    } catch (err) {
      await stage.discard();
      throw err;
    }
  };
}
