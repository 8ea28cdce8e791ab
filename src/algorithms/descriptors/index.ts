/**
 * Physico-chemical descriptors as an algorithm (`/algorithm/pc/AllDescriptors`), and the same
 * work for a resource named in the path: a dataset (`POST /dataset/{id}/pc`, a task) or one
 * compound (`POST /compound/{InChI}/pc`, answered directly).
 */
import type { Algorithm, Services } from "../algorithm.ts";
import type { RunRequestJob } from "../jobs.ts";
import { requireDataset } from "../checks.ts";
import { actingCreator, withCreator } from "../../resources/creator.ts";
import type { Params } from "../../resources/params.ts";
import type { TaskState } from "../../resources/task.ts";
import { newId } from "../../resources/uris.ts";
import { describe, descriptorOperation } from "./operation.ts";
import { ALL_DESCRIPTORS, compoundDescriptorRequest, datasetDescriptorRequest } from "./spec.ts";

/** The descriptors of dataset `dataset` as a task; `algorithm` names what computed them. */
export async function describeDataset(dataset: string, params: Params, algorithm: string, { store, uris, vocab, tasks }: Services): Promise<TaskState> {
  const request = await store.withRoom(() => datasetDescriptorRequest(dataset, params, algorithm, store, vocab));
  return tasks.submit(request.title, "descriptors", descriptorOperation(store, request, uris.dataset(newId()), vocab.base));
}

/** One compound's descriptors (computed by `run`), committed as a one-compound feature dataset; its URI. */
export async function describeCompound(compound: { readonly uri: string; readonly smiles: string }, params: Params, algorithm: string, { store, uris, vocab }: Services, run: RunRequestJob): Promise<string> {
  const request = compoundDescriptorRequest(compound.uri, compound.smiles, params, algorithm);
  const datasetUri = uris.dataset(newId());
  const body = await describe(request, datasetUri, vocab.base, (input, onProgress) => run("descriptors.chunk", input, onProgress), () => undefined);
  await store.commit(await withCreator([{ graph: datasetUri, ntriples: body }], actingCreator(), vocab, (g) => !store.has(g)));
  return datasetUri;
}

export const allDescriptors: Algorithm = {
  spec: ALL_DESCRIPTORS,
  async submit(params, _raw, uri, s) {
    const dataset = params.string("dataset_uri")!;
    requireDataset(dataset, "dataset_uri", s.store, s.uris);
    return describeDataset(dataset, params, uri, s);
  },
};
