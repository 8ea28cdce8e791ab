/**
 * Computing descriptors (main thread): chunks of compounds as pool jobs, loaded (staged) as
 * they arrive; the task of a dataset's descriptors.
 */
import { featureDatasetHeader } from "../../resources/feature-dataset.ts";
import type { GraphStore, Stage } from "../../store/graph-store.ts";
import { concatBodies } from "../../store/journal.ts";
import type { DescriptorChunkInput, DescriptorChunkOutput } from "./job.ts";
import type { Operation } from "../jobs.ts";
import { selectedFeatures, type DescriptorRequest } from "./spec.ts";

/** Compounds per pool job. */
const CHUNK = 100;

type RunJob = (input: DescriptorChunkInput, onProgress: (f: number) => void) => Promise<DescriptorChunkOutput>;

/**
 * Compute in chunks on the pool and build the feature dataset's body. With a stage, each
 * chunk's entries are loaded while later chunks compute (large datasets).
 */
export async function describe(request: DescriptorRequest, datasetUri: string, base: string, runJob: RunJob, progress: (f: number) => void, stage?: Stage): Promise<Uint8Array> {
  const { values, features } = selectedFeatures(request.pcTypes, request.libs);
  const chunks: DescriptorRequest["rows"][] = [];
  for (let i = 0; i < request.rows.length; i += CHUNK) chunks.push(request.rows.slice(i, i + CHUNK));
  const done = new Array<number>(chunks.length).fill(0);
  const loads: Promise<void>[] = [];
  const outputs = await Promise.all(
    chunks.map(async (rows, k) => {
      const out = await runJob({ rows, pcTypes: request.pcTypes, libs: request.libs, values, datasetUri, base }, (f) => {
        done[k] = f * rows.length;
        progress((0.95 * done.reduce((a, b) => a + b, 0)) / request.rows.length);
      });
      if (stage) {
        const loaded = stage.load(out.entries);
        loaded.catch(() => undefined); // awaited below
        loads.push(loaded);
      }
      return out;
    }),
  );
  const header = featureDatasetHeader({
    uri: datasetUri,
    base,
    title: request.title,
    created: new Date(),
    source: request.source,
    algorithm: request.algorithm,
    parameters: request.parameters,
    features,
    entryCount: request.rows.length,
    compounds: request.rows.length,
  });
  if (stage) {
    loads.push(stage.load(header));
    await Promise.all(loads);
  }
  return concatBodies([header, ...outputs.map((o) => o.entries)]);
}

/** The task of a dataset's descriptors: compute, load while computing, commit. */
export function descriptorOperation(store: GraphStore, request: DescriptorRequest, datasetUri: string, base: string): Operation {
  return async (ctx) => {
    const stage = store.stage(datasetUri);
    try {
      const body = await describe(request, datasetUri, base, (input, onProgress) => ctx.run("descriptors.chunk", input, onProgress), (f) => ctx.progress(f), stage);
      return { ops: [{ graph: datasetUri, ntriples: body }], resultUri: datasetUri, preloaded: [stage] };
    } catch (err) {
      await stage.discard();
      throw err;
    }
  };
}
