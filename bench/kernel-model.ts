/**
 * The kernel model over HTTP (prediction_algorithm=kernel_svm): building a model on kazius.csv
 * (4069 compounds) and EPAFHM_log10.csv (580) as tasks, the first prediction after the build,
 * single-compound predictions (EPAFHM's compounds as queries: new compounds for the Kazius
 * model), a dataset prediction as a task, and the 10-fold cross-validation of each through
 * `POST /validation/crossvalidation` (seed 1) with its conformal error rates at ε = 0.1 and 0.2.
 * One run per figure; medians of single predictions.
 *
 *   nice -n 5 npx tsx bench/kernel-model.ts
 */
import { DATA, postForm, removeDir, runTask, startServer, uploadDataset } from "../test/helpers/server.ts";

const srv = await startServer();
try {
  const kazius = await uploadDataset(srv.base, `${DATA}lazar/test/data/kazius.csv`);
  const epa = await uploadDataset(srv.base, `${DATA}lazar/test/data/EPAFHM_log10.csv`);
  for (const [name, ds] of [["kazius", kazius], ["EPAFHM_log10", epa]] as const) {
    const t0 = performance.now();
    const model = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: ds, prediction_algorithm: "kernel_svm" });
    console.log(`${name}: model built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const queries = (await (await fetch(name === "kazius" ? epa : kazius, { headers: { Accept: "text/uri-list" } })).text()).split(/\r?\n/).filter(Boolean).slice(0, 200);
    const ms: number[] = [];
    for (const c of queries) {
      const t = performance.now();
      const r = await postForm(model, { compound_uri: c });
      await r.text();
      if (r.status !== 201) throw new Error(`prediction answered ${r.status}`);
      ms.push(performance.now() - t);
    }
    const sorted = [...ms.slice(1)].sort((a, b) => a - b);
    console.log(`  first prediction after the build ${ms[0]!.toFixed(0)} ms; then p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, p99 ${sorted[Math.floor(sorted.length * 0.99)]!.toFixed(1)} ms (${sorted.length} compounds)`);
    const t1 = performance.now();
    await runTask(model, { dataset_uri: name === "kazius" ? epa : kazius });
    const n = name === "kazius" ? 580 : 4069;
    console.log(`  dataset of ${n} compounds predicted in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    const t2 = performance.now();
    const cv = await runTask(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: ds, algorithm_params: "prediction_algorithm=kernel_svm" }, 1_800_000);
    const nt = await (await fetch(cv, { headers: { Accept: "application/n-triples" } })).text();
    const stat = (k: string): string => new RegExp(`^<${cv}> <${srv.base}/ontology#${k}> "([^"]+)"`, "m").exec(nt)?.[1] ?? "?";
    // the conformal calibration the cross-validation stores: the observed error rate at ε = 0.1 and 0.2
    const errorAt = (eps: string): string => {
      const node = new RegExp(`^<([^>]+)> <${srv.base}/ontology#significance> "${eps}"`, "m").exec(nt)?.[1];
      return new RegExp(`^<${node}> <${srv.base}/ontology#errorRate> "([^"]+)"`, "m").exec(nt)?.[1]?.slice(0, 5) ?? "?";
    };
    const figures = `${name === "kazius" ? `accuracy ${stat("accuracy")}, AUC ${stat("averageAreaUnderRoc")}` : `RMSE ${stat("rootMeanSquaredError")}, R² ${stat("rSquare")}`}, conformal error at ε 0.1 / 0.2: ${errorAt("0.1")} / ${errorAt("0.2")}`;
    console.log(`  10-fold cross-validation (seed 1) over HTTP in ${((performance.now() - t2) / 1000).toFixed(1)} s: ${figures}, unpredicted ${stat("numUnpredicted")}`);
  }
} finally {
  await srv.stop();
  removeDir(srv.dataDir);
}
