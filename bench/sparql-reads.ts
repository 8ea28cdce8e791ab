/**
 * What the named reads cost on the SPARQL store (src/store/sparql-reads.ts) against the embedded
 * store, on the hamster workload of the external tests (test/helpers/sparql-workload.ts: a
 * dataset, a model with its BBRC feature dataset, a prediction, a 2-fold cross-validation and its
 * report, their tasks) copied into a Virtuoso started for the bench (ResultSetMaxRows 10,000, its
 * default). Each read runs `--runs` times in a row on: the embedded store; the SPARQL store with
 * every call remote (no cache); the SPARQL store with the cache of small graphs, without local
 * copies of the graphs (an empty body cache: the thread fetches each small graph from the store,
 * as every read did before the read threads took the local copies), cold (a fresh store whose
 * thread has started: the first run fetches the graphs) and warm (the later runs); the same with
 * the local copies the commits wrote (the thread loads small graphs from them). Printed per read:
 * median ms and the remote calls of one run.
 *
 *   npx tsx bench/sparql-reads.ts [--runs N]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ReadArgs, ReadName } from "../src/resources/reads.ts";
import { SparqlStore, type SparqlEndpoints } from "../src/store/sparql-store.ts";
import type { StoreBackend } from "../src/store/backend.ts";
import { Vocab } from "../src/store/vocab.ts";
import { hamsterWorkload } from "../test/helpers/sparql-workload.ts";
import { startVirtuoso } from "../test/helpers/virtuoso.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const RUNS = Math.max(2, Number(values.runs));
const MODULE = new URL("../src/resources/reads.ts", import.meta.url);

const [virtuoso, w] = await Promise.all([startVirtuoso({ resultSetMaxRows: 10_000 }), hamsterWorkload()]);
try {
  const v = new Vocab(w.base);
  const endpoints: SparqlEndpoints = { query: virtuoso.sparql, update: virtuoso.update, gsp: virtuoso.gsp, base: w.base };
  const copies = join(virtuoso.dir, "bodies-loader");
  const loader = await SparqlStore.open(endpoints, { bodies: copies });
  await w.copyTo(loader);
  await loader.close();
  const readOn = <K extends ReadName>(s: StoreBackend, name: K, ...args: ReadArgs<K>): Promise<any> => s.read(MODULE, name, [v.base, ...args]); // eslint-disable-line @typescript-eslint/no-explicit-any
  const M = w.of("model/")[0]!;
  const m = await readOn(w.embedded, "model", M);
  const DS = m.trainingDataset as string;
  const cv = w.of("validation/crossvalidation/")[0]!;
  let P = "";
  for (const d of w.of("dataset/")) if (!P && (await readOn(w.embedded, "predictionHeader", d)) !== null) P = d;
  const cases: [string, ReadName, unknown[]][] = [
    ["model", "model", [M]],
    ["datasetInfo (dataset)", "datasetInfo", [DS]],
    ["datasetSummary (features)", "datasetSummary", [m.featureDataset]],
    ["crossValidation", "crossValidation", [cv]],
    ["predictionDetail", "predictionDetail", [P, 1]],
    ["tasks (all)", "tasks", [w.of("task/")]],
    ["datasetRows (all datasets)", "datasetRows", [w.of("dataset/")]],
    ["modelValidations", "modelValidations", [{ trainingDataset: m.trainingDataset, endpoint: m.endpoint, predictionAlgorithm: m.predictionAlgorithm, parameters: m.parameters }]],
    ["compoundsByKey (every graph)", "compoundsByKey", ["LFQSCWFLJHTTHZ-UHFFFAOYSA-N"]],
  ];
  const uncached = await SparqlStore.open(endpoints, { bodies: join(virtuoso.dir, "bodies-uncached"), reads: { cacheGraphTriples: 0 } });
  console.log(`${w.graphs.length} graphs; ${RUNS} runs per read; median ms (remote calls of one run)`);
  console.log(["read", "embedded", "SPARQL, no cache", "cache from the store, cold", "warm", "cache from local copies, cold", "warm"].join(" | "));
  for (const [label, name, args] of cases) {
    const time = async (s: StoreBackend, runs: number): Promise<{ ms: number[]; calls: number[] }> => {
      const ms: number[] = [];
      const calls: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        await (readOn as (s: StoreBackend, n: ReadName, ...a: unknown[]) => Promise<unknown>)(s, name, ...args);
        ms.push(performance.now() - t0);
        if (s instanceof SparqlStore) calls.push(s.reads.lastStats?.remoteCalls ?? 0);
      }
      return { ms, calls };
    };
    const median = (xs: number[]): string => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(1);
    const e = await time(w.embedded, RUNS);
    const u = await time(uncached, RUNS);
    const cachedOn = async (bodies: string): Promise<{ ms: number[]; calls: number[] }> => {
      const cached = await SparqlStore.open(endpoints, { bodies, reads: { threads: 1 } }); // one thread: every run meets the same cache
      try {
        await readOn(cached, "creator", `${w.base}/nothing`); // the thread started and the reads loaded (no remote call: not a graph)
        return await time(cached, RUNS);
      } finally {
        await cached.close();
      }
    };
    const c = await cachedOn(join(virtuoso.dir, "bodies-cached"));
    const l = await cachedOn(copies);
    const cold = (x: { ms: number[]; calls: number[] }): string => `${x.ms[0]!.toFixed(1)} (${x.calls[0]})`;
    const warm = (x: { ms: number[]; calls: number[] }): string => `${median(x.ms.slice(1))} (${x.calls[x.calls.length - 1]})`;
    console.log([label, median(e.ms), `${median(u.ms)} (${u.calls[0]})`, cold(c), warm(c), cold(l), warm(l)].join(" | "));
  }
  await uncached.close();
} finally {
  await w.close();
  await virtuoso.stop();
}
