/**
 * Computing descriptors (main thread): chunks of compounds as pool jobs, loaded (staged) as
 * they arrive; the task of a dataset's descriptors.
 */
import { featureDatasetHeader } from "../../resources/feature-dataset.ts";
import type { StoreBackend, StagedGraph } from "../../store/backend.ts";
import type { DescriptorChunkInput, DescriptorChunkOutput } from "./job.ts";
import type { Operation } from "../jobs.ts";
import { selectedFeatures, type DescriptorRequest } from "./spec.ts";
import { chunked, chunkedBody, runChunks } from "../chunks.ts";

/** Compounds per pool job. */
const CHUNK = 100;

type RunJob = (input: DescriptorChunkInput, onProgress: (f: number) => void) => Promise<DescriptorChunkOutput>;

/**
 * Compute in chunks on the pool and build the feature dataset's body. With a stage, each
 * chunk's entries are loaded while later chunks compute (large datasets).
 */
export async function describe(request: DescriptorRequest, datasetUri: string, base: string, runJob: RunJob, progress: (f: number) => void, stage?: StagedGraph): Promise<Uint8Array> {
  const { values, features } = selectedFeatures(request.pcTypes, request.libs);
  const { outputs, loads } = await runChunks(
    chunked(request.rows, CHUNK),
    (rows) => rows.length,
    (rows, onProgress) => runJob({ rows, pcTypes: request.pcTypes, libs: request.libs, values, datasetUri, base }, onProgress),
    (f) => progress(0.95 * f),
    stage,
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
  return chunkedBody(header, outputs, loads, stage);
}

/** The task of a dataset's descriptors: compute, load while computing, commit. */
export function descriptorOperation(store: StoreBackend, request: DescriptorRequest, datasetUri: string, base: string): Operation {
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
