/**
 * The registry of worker jobs: kind → function (runs in a worker thread; plain input, plain
 * output). The types of inputs and outputs follow from the functions.
 */
import { buildDatasetJob, datasetHeader, parseChunk, prepareCsv } from "./algorithms/upload/job.ts";
import { depictJob, identifyStructure, molfileJob } from "./chem/jobs.ts";
import { mineEntriesJob, mineFeaturesJob, mineJob } from "./algorithms/mining/job.ts";
import { descriptorChunk } from "./algorithms/descriptors/job.ts";
import { predictJob } from "./algorithms/lazar/job.ts";
import { crossValidationFold, crossValidationFoldStored } from "./algorithms/crossvalidation/job.ts";
import { renderJob } from "./http/render-job.ts";

export type { JobContext } from "./tasks/job.ts";

export const jobs = {
  "csv.prepare": prepareCsv,
  "chem.identify": identifyStructure,
  "chem.depict": depictJob,
  "chem.molfile": molfileJob,
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
  "rdf.render": renderJob,
} as const;

export type JobKind = keyof typeof jobs;
export type JobInput<K extends JobKind> = Parameters<(typeof jobs)[K]>[0];
export type JobOutput<K extends JobKind> = Awaited<ReturnType<(typeof jobs)[K]>>;
