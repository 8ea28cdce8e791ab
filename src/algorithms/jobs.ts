/**
 * The service's job module: every job its worker pools run, kind → function (runs in a worker
 * thread; plain input, plain output; the types of inputs and outputs follow from the functions),
 * and what a worker does around them: load and warm up RDKit before the first job (unless the
 * pool runs no chemistry: the render pool), check RDKit after every job (a broken instance is
 * dropped, so the next job gets a fresh one), and ask to be replaced when a job left RDKit's
 * WebAssembly memory larger than `recycleWasmBytes` (default RECYCLE_WASM_BYTES in
 * chem/limits.ts): that memory never shrinks, and ending the thread is what returns it.
 * `servicePool` makes a pool of this module (tasks/pool.ts is generic over its module).
 */
import { buildDatasetJob, datasetHeader, parseChunk, prepareUpload } from "./upload/job.ts";
import { depictJob, featuresJob, fingerprintsJob, identifyStructure, molfileJob } from "../chem/jobs.ts";
import { mineEntriesJob, mineFeaturesJob, mineJob } from "./mining/job.ts";
import { descriptorChunk } from "./descriptors/job.ts";
import { predictJob } from "./lazar/job.ts";
import { kernelFoldJob, kernelPredictJob, kernelTrainJob } from "./kernel/job.ts";
import { modelFeaturesJob } from "./global/features.ts";
import { forestFinishJob, forestFoldJob, forestPredictJob, forestTrainJob } from "./forest/job.ts";
import { crossValidationFold, crossValidationFoldStored, crossValidationGraphJob } from "./crossvalidation/job.ts";
import { renderJob } from "../store/render-job.ts";
import { substructureJob } from "../chem/substructure-search.ts";
import { depictPatternJob } from "../chem/depict-pattern.ts";
import { highlightJob } from "../chem/depict-highlight.ts";
import { rfeResampleJob } from "./rfe/job.ts";

import { checkRDKit, loadRDKit, wasmMemoryBytes } from "../chem/rdkit.ts";
import { warmUp } from "../chem/warmup.ts";
import { RECYCLE_WASM_BYTES } from "../chem/limits.ts";
import type * as job from "../tasks/job.ts";
import type * as runner from "../tasks/runner.ts";
import { WorkerPool } from "../tasks/pool.ts";

export const jobs = {
  "dataset.prepare": prepareUpload,
  "chem.identify": identifyStructure,
  "chem.depict": depictJob,
  "chem.depictPattern": depictPatternJob,
  "chem.molfile": molfileJob,
  "chem.substructure": substructureJob,
  "chem.highlight": highlightJob,
  "chem.fingerprints": fingerprintsJob,
  "kernel.train": kernelTrainJob,
  "kernel.predict": kernelPredictJob,
  "model.features": modelFeaturesJob,
  "forest.train": forestTrainJob,
  "forest.finish": forestFinishJob,
  "forest.predict": forestPredictJob,
  "chem.features": featuresJob,
  "dataset.chunk": parseChunk,
  "dataset.header": datasetHeader,
  "dataset.build": buildDatasetJob,
  "mine": mineJob,
  "mine.features": mineFeaturesJob,
  "mine.entries": mineEntriesJob,
  "descriptors.chunk": descriptorChunk,
  "model.predict": predictJob,
  "cv.fold": crossValidationFold,
  "cv.fold.stored": crossValidationFoldStored,
  "cv.fold.kernel": kernelFoldJob,
  "cv.graph": crossValidationGraphJob,
  "cv.fold.forest": forestFoldJob,
  "rfe.resample": rfeResampleJob,
  "rdf.render": renderJob,
} as const;

export type Jobs = typeof jobs;
export type JobKind = job.JobKind<Jobs>;
export type JobInput<K extends JobKind> = job.JobInput<Jobs, K>;
export type JobOutput<K extends JobKind> = job.JobOutput<Jobs, K>;
/** The jobs a request may wait for (a structure read, a depiction, one compound's descriptors or prediction). */
export type RequestJobKind = Extract<JobKind, "chem.identify" | "chem.depict" | "chem.depictPattern" | "chem.highlight" | "chem.molfile" | "chem.substructure" | "descriptors.chunk" | "model.predict">;
/** Runs one of them for a waiting request (the HTTP layer's request-time pool, with its budgets). */
export type RunRequestJob = <K extends RequestJobKind>(kind: K, input: JobInput<K>, onProgress?: (f: number) => void) => Promise<JobOutput<K>>;
/** Runs a job on the task pool (a task's `ctx.run`; for a request that must train a model again, the pool itself). */
export type RunJob = <K extends JobKind>(kind: K, input: JobInput<K>, onProgress?: (f: number) => void) => Promise<JobOutput<K>>;
/** A task's operation that runs these jobs. */
export type Operation = runner.Operation<Jobs>;
export type OperationContext = runner.OperationContext<Jobs>;

/** A worker's set-up (the pool's `setup`): RDKit or not, and the memory past which a worker is replaced. */
interface Setup {
  readonly rdkit: boolean;
  readonly recycleWasmBytes: number;
}

/** Start and warm up RDKit now, not in the first job that needs it (see chem/warmup.ts). */
export async function setUp(setup: unknown): Promise<void> {
  if ((setup as Setup).rdkit) await warmUp(await loadRDKit());
}

/** The toolkit check after a job; `recycle` when its memory grew past the threshold. */
export function afterJob(kind: string, setup: unknown): { recycle?: true } {
  if (!checkRDKit()) console.error(`job ${kind} left RDKit unusable; it was replaced`);
  const bytes = wasmMemoryBytes();
  const limit = (setup as Setup).recycleWasmBytes;
  if (bytes <= limit) return {};
  console.error(`job ${kind} grew RDKit's memory to ${Math.round(bytes / 2 ** 20)} MiB; the worker is replaced to return it`);
  return { recycle: true };
}

export interface ServicePoolOptions {
  /** Load and warm up RDKit when a worker starts (default true; the render pool needs no RDKit). */
  readonly rdkit?: boolean;
  /** A worker whose RDKit memory passed this many bytes after a job is replaced (default RECYCLE_WASM_BYTES). */
  readonly recycleWasmBytes?: number;
  /** How much lower than the main thread the workers run (threads/spawn.ts; default WORKER_NICE). */
  readonly nice?: number;
}

/** A pool of `size` workers running this module's jobs. */
export function servicePool(size: number, options: ServicePoolOptions = {}): WorkerPool<Jobs> {
  const setup: Setup = { rdkit: options.rdkit !== false, recycleWasmBytes: options.recycleWasmBytes ?? RECYCLE_WASM_BYTES };
  return new WorkerPool<Jobs>(size, { module: new URL(import.meta.url), setup, ...(options.nice !== undefined ? { nice: options.nice } : {}) });
}
