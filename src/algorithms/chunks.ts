/**
 * Work that runs as one pool job per chunk and whose result is a graph body: every chunk job
 * returns its entries as N-Triples bytes; with a stage (StoreBackend.stage), each chunk's entries
 * are loaded into the store while later chunks still compute, so that the commit only journals
 * them. Uploads, descriptors and dataset predictions work this way.
 */
import type { StagedGraph } from "../store/backend.ts";
import { concatBodies } from "../store/journal.ts";

/** `items` in chunks of `size` (the last one shorter). */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Run every chunk (`run`, all at once: the pool queues them) and, with a stage, load each one's
 * entries as it arrives. Progress: the chunks' progress weighted by `weight` (e.g. their rows),
 * as a share of the whole in [0, 1]. The loads in flight are returned to be awaited (or the stage
 * discarded); a failed load is reported there, not here.
 */
export async function runChunks<C, O extends { readonly entries: Uint8Array }>(
  chunks: readonly C[],
  weight: (chunk: C) => number,
  run: (chunk: C, onProgress: (f: number) => void) => Promise<O>,
  progress: (f: number) => void,
  stage?: StagedGraph,
): Promise<{ outputs: O[]; loads: Promise<void>[] }> {
  const total = Math.max(1, chunks.reduce((a, c) => a + weight(c), 0));
  const done = new Array<number>(chunks.length).fill(0);
  const loads: Promise<void>[] = [];
  const outputs = await Promise.all(
    chunks.map(async (chunk, k) => {
      const out = await run(chunk, (f) => {
        done[k] = f * weight(chunk);
        progress(done.reduce((a, b) => a + b, 0) / total);
      });
      if (stage) {
        const loaded = stage.load(out.entries);
        loaded.catch(() => undefined); // awaited by the caller
        loads.push(loaded);
      }
      return out;
    }),
  );
  return { outputs, loads };
}

/** The whole body: `header`, then every chunk's entries; with a stage, the header is loaded too and every load awaited. */
export async function chunkedBody(header: Uint8Array, outputs: readonly { readonly entries: Uint8Array }[], loads: Promise<void>[], stage?: StagedGraph): Promise<Uint8Array> {
  if (stage) {
    loads.push(stage.load(header));
    await Promise.all(loads);
  }
  return concatBodies([header, ...outputs.map((o) => o.entries)]);
}
