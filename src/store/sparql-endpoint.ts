/**
 * The read-only SPARQL endpoint as the HTTP routes hold it (`/sparql`, the service description):
 * the embedded store's read replicas (replica.ts `SparqlReplica`) or, with `--store sparql`, the
 * proxy to the external store (sparql-proxy.ts `SparqlProxy`). Both keep the same limits and
 * errors (sparql-exec.ts): read-only (400), no SERVICE (400), the time limit (503 `QueryTimeout`,
 * or 503 when a query cannot start within it), the result limit (400), the predeclared prefixes,
 * the protocol's dataset parameters, the same result formats written by the same code, and a
 * query stopped when its client goes away (`Cancelled`).
 */
import type { QueryDataset, QueryOptions, ReplicaResult } from "./replica.ts";

export type { QueryDataset, QueryOptions, ReplicaResult };

/** What the endpoint does now and has done since start (service description, home page). */
export interface SparqlEndpointFigures {
  /** `replica`: queries run on copies of the embedded store; `proxy`: on the external SPARQL store. */
  readonly kind: "replica" | "proxy";
  /** Queries that may run at once (replica worker threads; the proxy's concurrent requests to the store). */
  readonly workers: number;
  /** Running queries. */
  readonly busy: number;
  /** Workers loading the data (always 0 for the proxy). */
  readonly loading: number;
  /** Queries waiting for a free place. */
  readonly queued: number;
  /** Queries started. */
  readonly started: number;
  /** Replica workers replaced because of a query (time limit, client gone, crash); 0 for the proxy. */
  readonly restarts: number;
  /** Queries stopped at the time limit or refused for not starting within it. */
  readonly timeouts: number;
  /** Queries whose client went away. */
  readonly cancelled: number;
}

export interface SparqlEndpoint {
  /**
   * Run one query; `format` is a media type of SOLUTION_FORMATS or GRAPH_FORMATS, or TABLE_FORMAT
   * (the HTML page's rows). When `signal` aborts (the client went away) the query is stopped and
   * fails with `Cancelled`.
   */
  query(query: string, format: string, options?: QueryOptions, signal?: AbortSignal): Promise<ReplicaResult>;
  readonly figures: SparqlEndpointFigures;
  close(): Promise<void>;
}
