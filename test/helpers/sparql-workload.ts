/**
 * A realistic store content for the SPARQL backend's reads (test/external/sparql-reads.test.ts,
 * bench/sparql-reads.ts): the real service (server.ts) on a temporary data dir uploads the hamster
 * fixture, builds a lazar model (BBRC features, min_frequency 8), predicts one compound, runs a
 * 2-fold cross-validation and its report (each with its task), and stops; its data dir is then
 * opened as an embedded GraphStore, whose graphs `copyTo` commits to another store.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import type { StoreBackend } from "../../src/store/backend.ts";
import { GraphStore } from "../../src/store/graph-store.ts";
import { compoundUri, HAMSTER, postForm, runTask, startServer, uploadDataset } from "./server.ts";

export interface Workload {
  readonly base: string;
  readonly embedded: GraphStore;
  readonly graphs: string[];
  /** Graphs under `<base>/<prefix>`, sorted. */
  of(prefix: string): string[];
  /** Every graph's N-Triples committed to `store`, 50 graphs per commit. */
  copyTo(store: StoreBackend): Promise<void>;
  close(): Promise<void>;
}

export async function hamsterWorkload(): Promise<Workload> {
  const srv = await startServer();
  const base = srv.base;
  try {
    const ds = await uploadDataset(base, HAMSTER);
    const model = await runTask(`${base}/algorithm/lazar`, { dataset_uri: ds, min_frequency: "8" });
    const r = await postForm(model, { compound_uri: await compoundUri(base, "c1ccccc1NN") });
    assert.equal(r.status, 201, await r.clone().text());
    const cv = await runTask(`${base}/validation/crossvalidation`, { algorithm_uri: `${base}/algorithm/qsar`, dataset_uri: ds, num_folds: "2", algorithm_params: "prediction_algorithm=weighted_majority_vote" });
    await runTask(`${base}/validation/report/crossvalidation`, { validation_uris: cv });
  } finally {
    await srv.stop();
  }
  const embedded = await GraphStore.open(srv.dataDir, { maxDumpTriples: 10_000_000 });
  const graphs = embedded.graphsWithPrefix("").sort();
  return {
    base,
    embedded,
    graphs,
    of: (prefix) => graphs.filter((g) => g.startsWith(`${base}/${prefix}`)),
    async copyTo(store) {
      for (let i = 0; i < graphs.length; i += 50) {
        const part = graphs.slice(i, i + 50);
        await store.commit(await Promise.all(part.map(async (g) => ({ graph: g, ntriples: await embedded.dump(g, "application/n-triples") }))));
      }
    },
    async close() {
      await embedded.close();
      rmSync(srv.dataDir, { recursive: true, force: true });
    },
  };
}
