/**
 * The capacity model (docs/capacity.md): how many triples each kind of stored value costs, counted
 * on a real server through the service description's `qg:triplesCurrent`, before and after each
 * step, on Kazius (4,069 rows, 4,068 distinct structures; fixtures/data SOURCES.md):
 *
 * - an upload: triples per data entry (row) and per distinct compound;
 * - descriptors (all CDK and RDKit types): triples per compound × descriptor value;
 * - a BBRC feature dataset: triples per fragment, per fragment occurrence;
 * - a lazar model and one prediction; a 10-fold cross-validation (triples per predicted compound).
 *
 *   npx tsx bench/capacity-model.ts
 */
import { cpus } from "node:os";
import { KAZIUS, postForm, removeDir, runTask, sparqlSelect, startServer, uploadDataset } from "../test/helpers/server.ts";

const srv = await startServer({ env: { MAX_QUADS: "9000000" } });
const current = async (): Promise<number> => {
  const nt = await (await fetch(`${srv.base}/`, { headers: { Accept: "application/n-triples" } })).text();
  return Number(/#triplesCurrent> "(\d+)"/.exec(nt)?.[1]);
};
const count = async (query: string): Promise<number> => Number((await sparqlSelect(srv.base, query))[0]?.n?.value ?? NaN);
const OT = "http://www.opentox.org/api/1.1#";
const rows: string[] = [];
const line = (what: string, triples: number, unit: string, units: number): void => {
  rows.push(`| ${what} | ${triples.toLocaleString("en")} | ${units.toLocaleString("en")} ${unit} | ${(triples / units).toFixed(2)} |`);
};
try {
  await new Promise((r) => setTimeout(r, 3000));
  let before = await current();
  const ds = await uploadDataset(srv.base, KAZIUS);
  let after = await current();
  const entries = await count(`SELECT (COUNT(?e) AS ?n) WHERE { GRAPH <${ds}> { <${ds}> <${OT}dataEntry> ?e } }`);
  const compounds = await count(`SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { GRAPH <${ds}> { ?e <${OT}compound> ?c } }`);
  const datasetGraph = await count(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${ds}> { ?s ?p ?o } }`);
  line("upload: dataset graph", datasetGraph, "entries", entries);
  line("upload: compound graphs", after - before - datasetGraph, "compounds", compounds);

  before = after;
  const pc = await runTask(`${srv.base}/algorithm/pc/AllDescriptors`, { dataset_uri: ds, pc_type: "constitutional,topological,geometrical,electronic,hybrid,cpsa", lib: "cdk,rdkit" }, 1_800_000);
  after = await current();
  const values = await count(`SELECT (COUNT(?v) AS ?n) WHERE { GRAPH <${pc}> { ?e <${OT}values> ?v } }`);
  line("descriptors (all types, CDK + RDKit)", after - before, "values", values);

  before = after;
  const bbrc = await runTask(`${srv.base}/algorithm/fminer/bbrc`, { dataset_uri: ds }, 1_800_000);
  after = await current();
  const occurrences = await count(`SELECT (COUNT(?v) AS ?n) WHERE { GRAPH <${bbrc}> { ?e <${OT}values> ?v } }`);
  const fragments = await count(`SELECT (COUNT(DISTINCT ?f) AS ?n) WHERE { GRAPH <${bbrc}> { ?f a <${OT}Feature> } }`);
  line("BBRC feature dataset", after - before, "occurrences", occurrences);
  rows.push(`| (the same) | | ${fragments.toLocaleString("en")} fragments | ${((after - before) / fragments).toFixed(1)} |`);

  before = after;
  const model = await runTask(`${srv.base}/algorithm/lazar`, { dataset_uri: ds, feature_dataset_uri: bbrc }, 1_800_000);
  after = await current();
  line("lazar model (on that feature dataset)", after - before, "model", 1);
  before = after;
  const r = await postForm(model, { compound_uri: `${srv.base}/compound/${encodeURIComponent("InChI=1S/C6H8N2/c7-8-6-4-2-1-3-5-6/h1-5,8H,7H2")}` });
  if (r.status !== 201 && r.status !== 200 && r.status !== 202) throw new Error(`prediction answered ${r.status}`);
  await new Promise((res) => setTimeout(res, 2000));
  after = await current();
  line("one prediction (with its neighbours)", after - before, "prediction", 1);

  before = after;
  await runTask(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/lazar`, dataset_uri: ds, num_folds: "10" }, 3_600_000);
  after = await current();
  line("10-fold cross-validation (lazar)", after - before, "compounds", compounds);

  console.log(`${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model} ×${cpus().length}, Node ${process.version}; Kazius: ${entries} entries, ${compounds} compounds`);
  console.log("| what | triples | per | triples each |\n|---|---|---|---|");
  for (const r of rows) console.log(r);
} finally {
  await srv.stop();
  removeDir(srv.dataDir);
}
