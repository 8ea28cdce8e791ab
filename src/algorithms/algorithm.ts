/**
 * An algorithm as the service runs it: its one description (an AlgorithmSpec: path, aliases,
 * parameters — GET /algorithm/{path} renders it, a POST is checked against it) and how a checked
 * request becomes a task. Each folder under algorithms/ exports its algorithm objects from its
 * index.ts; algorithms/index.ts lists those served under /algorithm, and the routes loop over them.
 */
import type { Config } from "../config.ts";
import type { AlgorithmSpec } from "../resources/algorithm.ts";
import type { Params } from "../resources/params.ts";
import type { TaskState } from "../resources/task.ts";
import type { Uris } from "../resources/uris.ts";
import type { StoreBackend } from "../store/backend.ts";
import type { Vocab } from "../store/vocab.ts";
import type { TaskRunner } from "../tasks/runner.ts";
import type { Jobs } from "./jobs.ts";

/** What an algorithm works with (the HTTP layer's Deps has all of it). */
export interface Services {
  readonly store: StoreBackend;
  readonly vocab: Vocab;
  readonly uris: Uris;
  readonly tasks: TaskRunner<Jobs>;
  readonly config: Pick<Config, "workers">;
}

/** A request's parameters as given (name → values), before they are checked against a spec. */
export type RawParams = ReadonlyMap<string, readonly string[]>;

export interface Algorithm {
  readonly spec: AlgorithmSpec;
  /**
   * Check the request (its parameters, checked against `spec`, and what they name in the store)
   * and start its task; a bad request is refused (400) before anything is created. `uri` is the
   * algorithm's own URI (a result may name it).
   */
  submit(params: Params, raw: RawParams, uri: string, s: Services): Promise<TaskState>;
}
