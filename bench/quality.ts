/**
 * Quality of every algorithm through the service itself: for each data set (bench/quality-data.ts)
 * the bench starts the real server with a fresh data directory, uploads the set (its structure and
 * endpoint columns), builds each algorithm's model over HTTP (timed: `POST /algorithm/qsar`) and
 * runs its 10-fold cross-validation with `POST /validation/crossvalidation` (seed 1), polling the
 * task as a client does (the progress values seen while it ran are counted). The figures printed
 * are the cross-validation resource's own statistics (validate/statistics.ts computes them when the
 * CV is stored; for a conformal model its observed error rate at significance 0.1 and 0.2,
 * validate/conformal.ts) and, from its stored predictions, the accuracy or RMSE of the most confident
 * predictions (validate/curves.ts, the same curve the report draws).
 *
 * Algorithms (`--algorithms=a,b`; default: all that apply):
 *   default  — `/algorithm/qsar` without parameters: the kernel model (kernel_svm)
 *   wmv      — lazar's classic: BBRC features mined per training fold + weighted majority vote
 *              (classes); printed besides its accuracy on the predictions with confidence above
 *              0.2 and their share (the form the lazar papers reported)
 *   lsvm     — lazar's local SVM regression on BBRC paths (numbers)
 *   forest   — the random forest (random_forest: Morgan bits for classes, and descriptors for numbers)
 *
 *   nice -n 5 npx tsx bench/quality.ts [kazius epafhm hansen loael …] [--algorithms=default,wmv] [--seed=N] [--no-build]
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postForm, removeDir, sparqlSelect, startServer, taskState, uploadDataset } from "../test/helpers/server.ts";
import { accuracyByConfidence, rmseByConfidence } from "../src/validate/curves.ts";
import { DATASETS, readDatasetRows } from "./quality-data.ts";
import { QG_NS } from "../src/store/vocab.ts";

const SEED = Number(process.argv.find((a) => a.startsWith("--seed="))?.slice(7) ?? 1);
const ALGORITHMS = process.argv.find((a) => a.startsWith("--algorithms="))?.slice(13).split(",");
const BUILD = !process.argv.includes("--no-build");
const names = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const which = names.length > 0 ? names : ["kazius", "epafhm"];

/** The algorithms: their model parameters (as algorithm_params) and which endpoint kind they fit. */
const CHOICES: Record<string, { readonly params: Record<string, string>; readonly kinds: readonly ("classification" | "regression")[]; readonly title: string }> = {
  default: { params: {}, kinds: ["classification", "regression"], title: "default (kernel_svm)" },
  wmv: { params: { prediction_algorithm: "weighted_majority_vote" }, kinds: ["classification"], title: "lazar BBRC + weighted majority vote" },
  lsvm: { params: { prediction_algorithm: "local_svm_regression" }, kinds: ["regression"], title: "lazar BBRC paths + local SVM regression" },
  forest: { params: { prediction_algorithm: "random_forest" }, kinds: ["classification", "regression"], title: "random forest (random_forest, 200 trees)" },
};

/** POST, then poll the task every 500 ms until it ends: its result, wall time and the distinct progress values seen while it ran. */
async function follow(url: string, params: Record<string, string>): Promise<{ uri: string; seconds: number; progress: number }> {
  const t0 = performance.now();
  const r = await postForm(url, params);
  const task = (await r.text()).trim();
  if (r.status !== 202) throw new Error(`${url} answered ${r.status}: ${task}`);
  const seen = new Set<number>();
  for (;;) {
    const s = await taskState(task);
    if (s.status === "Running" && s.percentageCompleted > 0 && s.percentageCompleted < 100) seen.add(s.percentageCompleted);
    if (s.status !== "Running" && s.status !== "Queued") break;
    await new Promise((res) => setTimeout(res, 500));
  }
  const end = await fetch(task, { headers: { Accept: "text/uri-list" } });
  const body = (await end.text()).trim();
  if (end.status !== 200) throw new Error(`task ${task} ended ${end.status}: ${body}`);
  return { uri: body, seconds: (performance.now() - t0) / 1000, progress: seen.size };
}

const fmt = (x: number | undefined, d = 3): string => (x === undefined || Number.isNaN(x) ? "–" : x.toFixed(d));

const srv = await startServer();
const dir = mkdtempSync(join(tmpdir(), "qg-quality-"));
try {
  for (const name of which) {
    const spec = DATASETS[name];
    if (!spec) throw new Error(`unknown data set ${name}; known: ${Object.keys(DATASETS).join(", ")}`);
    const kind = spec.positive !== undefined ? "classification" : "regression";
    // the structure and endpoint columns only, as read by the benches (rows without a value left out)
    const rows = readDatasetRows(spec);
    const file = join(dir, `${name}.csv`);
    const quote = (x: string): string => (/[",\n]/.test(x) ? `"${x.replaceAll('"', '""')}"` : x);
    writeFileSync(file, [`SMILES,${quote(spec.value)}`, ...rows.map((r) => `${quote(r.smiles)},${quote(r.value)}`)].join("\n") + "\n");
    const dataset = await uploadDataset(srv.base, file);
    console.log(`${name}: ${rows.length} rows (${spec.path}), ${kind}; 10 folds, seed ${SEED}`);
    for (const [algorithm, choice] of Object.entries(CHOICES)) {
      if (ALGORITHMS ? !ALGORITHMS.includes(algorithm) : !choice.kinds.includes(kind)) continue;
      if (!choice.kinds.includes(kind)) continue;
      if (BUILD) {
        const m = await follow(`${srv.base}/algorithm/qsar`, { dataset_uri: dataset, ...choice.params });
        console.log(`  ${choice.title}: model built in ${fmt(m.seconds, 1)} s (${m.progress} progress values while it ran)`);
        await fetch(m.uri, { method: "DELETE" });
      }
      const algorithmParams = Object.entries(choice.params).map(([k, v]) => `${k}=${v}`).join(";");
      const cv = await follow(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: dataset, algorithm_params: algorithmParams, random_seed: String(SEED) });
      const nt = await (await fetch(cv.uri, { headers: { Accept: "application/n-triples" } })).text();
      const stat = (k: string): number => Number(new RegExp(`^<${cv.uri}> <${QG_NS}${k}> "([^"]+)"`, "m").exec(nt)?.[1] ?? NaN);
      // the conformal calibration the cross-validation stores (conformal models): the observed error rate at ε
      const errorAt = (eps: string): string => {
        const node = new RegExp(`^<([^>]+)> <${QG_NS}significance> "${eps}"`, "m").exec(nt)?.[1];
        return node === undefined ? "–" : fmt(Number(new RegExp(`^<${node.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}> <${QG_NS}errorRate> "([^"]+)"`, "m").exec(nt)?.[1]));
      };
      const conformal = errorAt("0.1") === "–" ? "" : `; conformal error rate at ε 0.1 / 0.2: ${errorAt("0.1")} / ${errorAt("0.2")}`;
      const n = stat("numInstances");
      const unpredicted = stat("numUnpredicted");
      const head = `  ${choice.title}: CV ${fmt(cv.seconds, 1)} s (runtime ${fmt(stat("runtimeMs") / 1000, 1)} s, ${cv.progress} progress values), ${n - unpredicted} of ${n} predicted`;
      const qg = QG_NS;
      const predictions = (
        await sparqlSelect(srv.base, `PREFIX qg: <${qg}> SELECT ?m ?p ?c WHERE { GRAPH <${cv.uri}> { ?x qg:measuredActivity ?m . OPTIONAL { ?x qg:predictedValue ?p } OPTIONAL { ?x qg:confidence ?c } } }`)
      ).map((r) => ({ measured: r.m!.value, predicted: r.p?.value ?? null, confidence: r.c ? Number(r.c.value) : null }));
      if (kind === "classification") {
        console.log(`${head}: accuracy ${fmt(stat("accuracy"))}, AUC ${fmt(stat("averageAreaUnderRoc"))}${conformal}`);
        const curve = accuracyByConfidence(predictions.map((p, i) => ({ compound: String(i), fold: 0, ...p })));
        const above = (t: number): { accuracy: number; coverage: number } | undefined => {
          const pt = [...curve].reverse().find((c) => c.confidence > t);
          return pt && { accuracy: pt.value, coverage: pt.n / n };
        };
        if (algorithm === "wmv") {
          const a = above(0.2);
          console.log(`    predictions with confidence > 0.2: accuracy ${fmt(a?.accuracy)} on ${fmt(a && 100 * a.coverage, 0)} % of the instances`);
        }
        const half = curve.find((c) => c.n >= n / 2);
        console.log(`    the most confident half: accuracy ${fmt(half?.value)} (confidence ≥ ${fmt(half?.confidence)}, ${fmt(half && (100 * half.n) / n, 0)} %)`);
      } else {
        console.log(`${head}: RMSE ${fmt(stat("rootMeanSquaredError"))}, R² ${fmt(stat("rSquare"))}${conformal}`);
        const curve = rmseByConfidence(predictions.map((p, i) => ({ compound: String(i), fold: 0, measured: Number(p.measured), predicted: p.predicted === null ? null : Number(p.predicted), confidence: p.confidence })));
        const half = curve.find((c) => c.n >= n / 2);
        if (half && half.n < n) console.log(`    the most confident half: RMSE ${fmt(half.value)} (${fmt((100 * half.n) / n, 0)} %)`);
      }
      await fetch(cv.uri, { method: "DELETE" });
    }
  }
} finally {
  await srv.stop();
  removeDir(srv.dataDir);
  removeDir(dir);
}
