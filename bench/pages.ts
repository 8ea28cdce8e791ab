/**
 * Page times on Kazius-sized data (issue 17: every page ≤ 300 ms): the real server with a fresh
 * data directory, Kazius (4069 compounds) uploaded, BBRC mined on it, the default model and a
 * lazar model (weighted majority vote) built, a compound predicted by each, one 10-fold
 * cross-validation with its report, and `--datasets=N` more small datasets (hamster, default 30)
 * so that the lists have more than one page. Then every kind of page is fetched as a browser
 * does (Accept: text/html): once (the first view, printed), then `--runs=N` times (default 7),
 * whose median and slowest are printed with the page's size. Server-side time only counts what the service does: the body is read in full.
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

/**
 * A prediction by `model` (the prediction dataset's URI), as the predict box posts it, of the first
 * of these structures that is not a training compound (whose page would show its measured value
 * only, not neighbours and fragments).
 */
const QUERIES = ["c1ccccc1NN", "O=C(Nc1ccc(cc1)[N+](=O)[O-])C1CCCCC1", "Clc1ccc(cc1)C(=O)NN", "CC1=CC(=O)c2ccccc2C1=O"];
async function predict(model: string): Promise<string> {
  for (const smiles of QUERIES) {
    const r = await postForm(model, { structure: smiles });
    const body = (await r.text()).trim();
    if (r.status !== 200 && r.status !== 201) throw new Error(`predict ${smiles} with ${model}: ${r.status} ${body}`);
    const page = await (await fetch(body, { headers: { Accept: "text/html" } })).text();
    if (!page.includes("a training compound")) return body;
  }
  throw new Error(`every query is a training compound of ${model}`);
}

const srv = await startServer();
try {
  const t0 = performance.now();
  const kazius = await uploadDataset(srv.base, KAZIUS);
  const bbrc = await runTask(`${srv.base}/algorithm/fminer/bbrc`, { dataset_uri: kazius });
  const model = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: kazius });
  const lazar = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: kazius, feature_dataset_uri: bbrc, prediction_algorithm: "weighted_majority_vote" });
  const predicted = await predict(model);
  const predictedLazar = await predict(lazar);
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
  console.log(`\nthe first request of each page, then ${RUNS} more (Accept: text/html): median and slowest of those:`);
  console.log("| page | status | first ms | median ms | slowest ms | KB |\n|---|---|---|---|---|---|");
  for (const [name, url] of pages) {
    const first = await timed(url); // the first reading of a graph (a page may keep what it read)
    const runs: { ms: number; bytes: number; status: number }[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await timed(url));
    const ms = runs.map((r) => r.ms);
    console.log(`| ${name} | ${runs[0]!.status} | ${first.ms.toFixed(0)} | ${median(ms).toFixed(0)} | ${Math.max(...ms).toFixed(0)} | ${(runs[0]!.bytes / 1024).toFixed(0)} |`);
  }
} finally {
  await srv.stop();
  removeDir(srv.dataDir);
}
