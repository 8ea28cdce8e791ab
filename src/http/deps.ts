/**
 * What route modules receive from the composition root (app.ts): plain constructor injection.
 */
import type { Config } from "../config.ts";
import type { StoreBackend } from "../store/backend.ts";
import type { Vocab } from "../store/vocab.ts";
import type { Uris } from "../resources/uris.ts";
import type { TaskRunner } from "../tasks/runner.ts";
import type { JobPool, WorkerPool } from "../tasks/pool.ts";
import type { Jobs } from "../algorithms/jobs.ts";

export interface Deps {
  readonly config: Config;
  readonly store: StoreBackend;
  readonly vocab: Vocab;
  readonly uris: Uris;
  readonly tasks: TaskRunner<Jobs>;
  readonly pool: JobPool<Jobs>;
  /**
   * Request-time chemistry (reading, drawing, writing one structure): a worker of its own, so that
   * requests do not wait behind task jobs; each job with the budget REQUEST_CHEM_BUDGET_MS
   * (http/request-job.ts): structures, depictions, one compound's descriptors and predictions.
   */
  readonly chem: WorkerPool<Jobs>;
  /** Worker threads that serialise large RDF representations (http/render-rdf.ts), apart from the task pool. */
  readonly renderPool: WorkerPool<Jobs>;
}
