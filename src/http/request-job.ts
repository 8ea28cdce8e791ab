/**
 * Work a request waits for (a structure read, a depiction, one compound's descriptors or
 * prediction) runs in the request-time pool (`Deps.chem`, one worker of its own), never in the
 * task pool, where it could wait behind long task jobs; each job within the request's wait and
 * budget (chem/limits.ts: REQUEST_CHEM_WAIT_MS for a free worker, REQUEST_CHEM_BUDGET_MS running;
 * past either, 503).
 */
import { REQUEST_CHEM_BUDGET_MS, REQUEST_CHEM_WAIT_MS } from "../chem/limits.ts";
import type { JobInput, JobOutput, RequestJobKind } from "../algorithms/jobs.ts";
import type { Deps } from "./deps.ts";

export function requestJob<K extends RequestJobKind>(deps: Deps, kind: K, input: JobInput<K>, onProgress?: (f: number) => void): Promise<JobOutput<K>> {
  return deps.chem.run(kind, input, { timeoutMs: REQUEST_CHEM_BUDGET_MS, maxWaitMs: REQUEST_CHEM_WAIT_MS, ...(onProgress ? { onProgress } : {}) });
}
