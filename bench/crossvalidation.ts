/**
 * 10-fold cross-validation of BBRC + weighted majority vote on kazius.csv (4069 rows) over HTTP
 * (issue "Cross-validation": goal ≤ 60 s on 2 cores, accuracy ≥ 0.84): wall time from the POST to
 * the completed task, with the pooled accuracy and AUC read from the cross-validation resource.
 *
 *   npx tsx bench/crossvalidation.ts [runs]
 */
import { readFileSync } from "node:fs";
import { DATA, removeDir, startServer, uploadDataset, waitForTask } from "../test/helpers/server.ts";

const runs = Number(process.argv[2] ?? 1);
const srv = await startServer();
const times: number[] = [];
try {
  const kazius = await uploadDataset(srv.base, `${DATA}lazar/test/data/kazius.csv`);
  for (let run = 1; run <= runs; run++) {
    const t0 = performance.now();
    const r = await fetch(`${srv.base}/validation/crossvalidation`, {
      method: "POST",
      body: new URLSearchParams({ algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: kazius, random_seed: String(run) }),
      headers: { Accept: "text/uri-list" },
    });
    const cv = (await waitForTask((await r.text()).trim(), 1_800_000)).body;
    const s = (performance.now() - t0) / 1000;
    times.push(s);
    const nt = await (await fetch(cv, { headers: { Accept: "application/n-triples" } })).text();
    const stat = (name: string): string => new RegExp(`#${name}> "([^"]+)"`).exec(nt)?.[1] ?? "?";
    console.log(`run ${run} (seed ${run}): ${s.toFixed(1)} s; accuracy ${Number(stat("accuracy")).toFixed(3)}, AUC ${Number(stat("averageAreaUnderRoc")).toFixed(3)}, unpredicted ${stat("numUnpredicted")} of ${stat("numInstances")}`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1] ?? "?";
  console.log(`\nmachine: ${cpu}, node ${process.version}; median wall time of ${runs} run(s): ${sorted[sorted.length >> 1]!.toFixed(1)} s`);
} finally {
  await srv.stop();
  removeDir(srv.dataDir);
}
