/**
 * Work that runs as one pool job per chunk and whose result is a graph body: every chunk job
 * returns its entries as N-Triples bytes; with a stage (StoreBackend.stage), each chunk's entries
 * are loaded into the store while later chunks still compute, so that the commit only journals
 * them. Uploads, descriptors and dataset predictions work this way. A stage that keeps its own
 * copy (`keepsBody`: the SPARQL store) lets every chunk's bytes go once loaded, and the body
 * returned is then empty: the 93k-compound MUV set's descriptors (≈ 7 GB of N-Triples) are
 * never in memory at once.
 */
import type { StagedGraph } from "../store/backend.ts";
import { concatBodies } from "../store/journal.ts";

const EMPTY = new Uint8Array(0);

/** `items` in chunks of `size` (the last one shorter). */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Chunks computed ahead of their load into a stage. Each is held in memory until it is loaded, so a
 * store slower to write than the pool is to compute (the SPARQL store: the MUV set's descriptors
 * grew the service by 10 MB/s) would otherwise end up holding the whole result.
 */
const AHEAD = 16;

/**
 * Run every chunk (`run`; the pool queues them; with a stage, at most AHEAD of them computed and
 * not yet loaded) and, with a stage, load each one's entries as it arrives. Progress: the chunks'
 * progress weighted by `weight` (e.g. their rows), as a share of the whole in [0, 1]. The loads in
 * flight are returned to be awaited (or the stage discarded); a failed load is reported there. No
 * chunk starts after a failed chunk or load: runChunks then rejects with that failure.
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
  let free = stage ? AHEAD : Infinity;
  const waiting: (() => void)[] = [];
  let failure: { readonly error: unknown } | undefined;
  const release = (): void => {
    free++;
    waiting.shift()?.();
  };
  const outputs = await Promise.all(
    chunks.map(async (chunk, k) => {
      while (free === 0) await new Promise<void>((r) => waiting.push(r));
      if (failure) throw failure.error;
      free--;
      let out: O;
      try {
        out = await run(chunk, (f) => {
          done[k] = f * weight(chunk);
          progress(done.reduce((a, b) => a + b, 0) / total);
        });
      } catch (err) {
        failure ??= { error: err };
        release();
        throw err;
      }
      if (!stage) return out;
      const loaded = stage.load(out.entries);
      loaded.then(release, (err: unknown) => {
        failure ??= { error: err };
        release();
      }); // the load itself is awaited by the caller
      loads.push(loaded);
      return stage.keepsBody ? { ...out, entries: EMPTY } : out;
    }),
  );
  return { outputs, loads };
}

/**
 * The whole body: `header`, then every chunk's entries; with a stage, the header is loaded too
 * and every load awaited, and a stage that keeps its body gets an empty one (see above).
 */
export async function chunkedBody(header: Uint8Array, outputs: readonly { readonly entries: Uint8Array }[], loads: Promise<void>[], stage?: StagedGraph): Promise<Uint8Array> {
  if (stage) {
    loads.push(stage.load(header));
    await Promise.all(loads);
    if (stage.keepsBody) return EMPTY;
  }
  return concatBodies([header, ...outputs.map((o) => o.entries)]);
}
