/**
 * Page times on Kazius-sized data (issue 17: every page ≤ 300 ms): the real server with a fresh
 * data directory, Kazius (4069 compounds) uploaded, BBRC mined on it, the default model and a
 * lazar model (weighted majority vote) built, a compound predicted by each, one 10-fold
 * cross-validation with its report, and `--datasets=N` more small datasets (hamster, default 30)
 * so that the lists have more than one page. Then every kind of page is fetched as a browser
 * does (Accept: text/html) `--runs=N` times (default 7) and the median, the slowest and the size
 * are printed. Server-side time only counts what the service does: the body is read in full.
 *
 *   nice -n 5 npx tsx bench/pages.ts [--runs=7] [--datasets=30]
 */
import { HAMSTER, KAZIUS, postForm, removeDir, runTask, startServer, uploadDataset } from "../test/helpers/server.ts";

const arg = (name: string, d: number): number => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d);
const RUNS = arg("runs", 7);
const EXTRA = arg("datasets", 30);
const ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function timed(url: string): Promise<{ ms: number; bytes: number; status: number }> {
  const t0 = performance.now();
  const r = await fetch(url, { headers: { Accept: ACCEPT } });
  const body = await r.arrayBuffer();
  return { ms: performance.now() - t0, bytes: body.byteLength, status: r.status };
}

/** A prediction of `smiles` by `model` (the prediction dataset's URI), as the predict box posts it. */
async function predict(model: string, smiles: string): Promise<string> {
  const r = await postForm(model, { structure: smiles });
  const body = (await r.text()).trim();
  if (r.status !== 200 && r.status !== 201) throw new Error(`predict ${smiles} with ${model}: ${r.status} ${body}`);
  return body;
}

const srv = await startServer();
try {
  const t0 = performance.now();
  const kazius = await uploadDataset(srv.base, KAZIUS);
  const bbrc = await runTask(`${srv.base}/algorithm/fminer/bbrc`, { dataset_uri: kazius });
  const model = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: kazius });
  const lazar = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: kazius, feature_dataset_uri: bbrc, prediction_algorithm: "weighted_majority_vote" });
  const predicted = await predict(model, "c1ccccc1NN");
  const predictedLazar = await predict(lazar, "c1ccccc1NN");
  const cv = await runTask(`${srv.base}/validation/crossvalidation`, { dataset_uri: kazius, algorithm_uri: `${srv.base}/algorithm/qsar` }, 1_800_000);
  const report = await runTask(`${srv.base}/validation/report/crossvalidation`, { validation_uris: cv });
  for (let i = 0; i < EXTRA; i++) await uploadDataset(srv.base, HAMSTER, `hamster-${i}.csv`);
  const features = (await (await fetch(`${bbrc}/features`, { headers: { Accept: "text/uri-list" } })).text()).split(/\r?\n/).filter(Boolean);
  const compound = (await (await fetch(kazius, { headers: { Accept: "text/uri-list" } })).text()).split(/\r?\n/).find(Boolean)!;
  const tasks = (await (await fetch(`${srv.base}/task`, { headers: { Accept: "text/uri-list" } })).text()).split(/\r?\n/).filter(Boolean);
  console.log(`set up in ${((performance.now() - t0) / 1000).toFixed(0)} s: Kazius ${kazius}, ${features.length} BBRC features, ${EXTRA} more datasets`);

  const pages: [string, string][] = [
    ["home", `${srv.base}/`],
    ["dataset list", `${srv.base}/dataset`],
    ["dataset list sorted by size", `${srv.base}/dataset?sort=size`],
    ["Kazius dataset page", kazius],
    ["BBRC feature dataset page", bbrc],
    ["a BBRC fragment page", features[0]!],
    ["compound list", `${srv.base}/compound`],
    ["compound page", compound],
    ["compound search by SMILES", `${srv.base}/compound?q=${encodeURIComponent("c1ccccc1N")}`],
    ["model list", `${srv.base}/model`],
    ["default model page", model],
    ["lazar model page", lazar],
    ["prediction page (default model)", predicted],
    ["prediction page (lazar)", predictedLazar],
    ["qsar form", `${srv.base}/algorithm/qsar?dataset_uri=${encodeURIComponent(kazius)}`],
    ["bbrc form", `${srv.base}/algorithm/fminer/bbrc`],
    ["cross-validation form", `${srv.base}/validation/crossvalidation`],
    ["validation list", `${srv.base}/validation`],
    ["cross-validation page", cv],
    ["report page", report],
    ["task list", `${srv.base}/task`],
    ["task page", tasks[0]!],
    ["SPARQL page", `${srv.base}/sparql`],
    ["SPARQL results page", `${srv.base}/sparql?query=${encodeURIComponent("SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 100")}`],
  ];
  console.log(`\n${RUNS} runs each (Accept: text/html), median / slowest:`);
  console.log("| page | status | median ms | slowest ms | KB |\n|---|---|---|---|---|");
  for (const [name, url] of pages) {
    await timed(url); // warm: the first reading of a graph
    const runs: { ms: number; bytes: number; status: number }[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timed(url));
    const ms = runs.map((r) => r.ms);
    console.log(`| ${name} | ${runs[0]!.status} | ${median(ms).toFixed(0)} | ${Math.max(...ms).toFixed(0)} | ${(runs[0]!.bytes / 1024).toFixed(0)} |`);
  }
} finally {
  await srv.stop();
  removeDir(srv.dataDir);
}
