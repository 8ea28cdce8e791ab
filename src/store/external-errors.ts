/**
 * The external store's failures as the client should see them: a request that needs the SPARQL
 * store while it does not answer, or answers 5xx, fails with 503 `ServiceUnavailable` and the
 * store's message (not 500): nothing is wrong with the request or the service, and the next
 * request works once the store is back (SparqlStore keeps no state a failed request breaks: a
 * failed commit is rolled back or its clean-up runs before the next commit).
 *
 * `withExternalErrors(store)` wraps a StoreBackend; every method is the store's own, and the
 * errors of those that reach the store (commit, dump, read) are translated: an error that is
 * already a ServiceError passes unchanged, one whose message names the SPARQL store becomes 503.
 */
import { ServiceError, ServiceUnavailable } from "../errors.ts";
import type { CommitOptions, DumpFormat, OpenInfo, StagedGraph, StoreBackend, StoreCapacity } from "./backend.ts";
import type { BodyLocation, GraphOp } from "./journal.ts";

/**
 * The messages of SparqlStore's failures to reach the store (sparql-store.ts `request`,
 * `runCommit`), and of reads the store did not answer in their time (sparql-reads.ts,
 * sparql-read-worker.ts): a store too slow now, not a fault of the request or the service.
 */
const STORE_FAILURE = /SPARQL store (did not answer|answered 5\d\d|is not reachable|ran out of time)|clean-up of an earlier failed commit is still refused|out of time on the SPARQL store|took longer than [\d.]+ s on the SPARQL store/;

export function externalError(err: unknown): unknown {
  if (err instanceof ServiceError || !(err instanceof Error) || !STORE_FAILURE.test(err.message)) return err;
  return new ServiceUnavailable(`the external SPARQL store is not available: ${err.message}; try again later`);
}

async function translated<T>(p: () => Promise<T>): Promise<T> {
  try {
    return await p();
  } catch (err) {
    throw externalError(err);
  }
}

class ExternalErrors implements StoreBackend {
  constructor(private readonly store: StoreBackend) {}
  has(graph: string): boolean {
    return this.store.has(graph);
  }
  graphsWithPrefix(prefix: string): string[] {
    return this.store.graphsWithPrefix(prefix);
  }
  graphSize(graph: string): number {
    return this.store.graphSize(graph);
  }
  storedBody(graph: string): BodyLocation | undefined {
    return this.store.storedBody(graph);
  }
  dump(graph: string, format: DumpFormat): Promise<string> {
    return translated(() => this.store.dump(graph, format));
  }
  commit(ops: readonly GraphOp[], options?: CommitOptions): Promise<number> {
    return translated(() => this.store.commit(ops, options));
  }
  stage(graph: string): StagedGraph {
    return this.store.stage(graph);
  }
  read<T>(module: URL, name: string, args: readonly unknown[]): Promise<T> {
    return translated(() => this.store.read<T>(module, name, args));
  }
  capacity(): StoreCapacity {
    return this.store.capacity();
  }
  withRoom<T>(build: () => T | Promise<T>): Promise<T> {
    return this.store.withRoom(build);
  }
  ensureRoom(n: number, whole?: number, what?: string): void {
    this.store.ensureRoom(n, whole, what);
  }
  get openInfo(): OpenInfo {
    return this.store.openInfo;
  }
  close(): Promise<void> {
    return this.store.close();
  }
}

export function withExternalErrors(store: StoreBackend): StoreBackend {
  return new ExternalErrors(store);
}
