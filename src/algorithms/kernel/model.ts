/**
 * A kernel model's trained state on the main thread (global/model.ts keeps it per model URI and
 * trains it again after a restart with `trainKernel`).
 */
import type { ModelRecord } from "../../resources/model.ts";
import type { RunJob } from "../jobs.ts";
import { globalModelData, type GlobalModelData, type TrainingInput } from "../global/model.ts";
import type { KernelTrainInput, TrainedKernelModel } from "./job.ts";
import { KERNEL_COST, KERNEL_EPSILON, KERNEL_SEED } from "./spec.ts";

/** What `model.predict` needs of a kernel model (plain data: it goes to the worker). */
export type KernelModelData = GlobalModelData<"kernel", TrainedKernelModel>;

/** The `kernel.train` input of a training input. */
export function kernelTrainInput(input: TrainingInput): KernelTrainInput {
  return { smiles: input.smiles, y: input.y, kind: input.kind, nClasses: input.nClasses, cost: KERNEL_COST[input.kind], epsilon: KERNEL_EPSILON, seed: KERNEL_SEED };
}

/** Train model `m` on its training input (`kernel.train` on the task pool), and its data. */
export async function trainKernel(run: RunJob, m: Pick<ModelRecord, "uri" | "endpoint" | "classes" | "parameters">, input: TrainingInput, progress?: (f: number) => void): Promise<KernelModelData> {
  const trained = await run("kernel.train", kernelTrainInput(input), progress);
  return globalModelData("kernel", m, input, trained);
}
