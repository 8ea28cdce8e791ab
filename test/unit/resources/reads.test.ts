/**
 * The named reads of the store (src/resources/reads.ts), on a real GraphStore in a temp dir:
 * graphs written by the service's own writers with values this test chooses — a dataset of two
 * numeric features ("logP", "MW") and three entries (lines 2, 3, 4: ethanol, benzene, ethanol
 * again; benzene has no MW), created by "alice"; the two compounds' graphs; a model trained on
 * the dataset; a prediction of ethanol by that model; a task; a cross-validation of two
 * predictions and a report of it; the dataset names benzene "Benzene" (rdfs:label, as a name column
 * does). Every read is run through `read`, so GraphStore checks each
 * result is plain data; the expected values are the ones written here. Also: an unknown name is
 * refused, and every name used in src/ is a read (and every read is used).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { creatorNTriples } from "../../../src/resources/creator.ts";
import { compoundQuads } from "../../../src/resources/dataset.ts";
import { featureDatasetNTriples } from "../../../src/resources/feature-dataset.ts";
import { modelNTriples, type ModelRecord } from "../../../src/resources/model.ts";
import { read, READ_NAMES, type ReadArgs, type ReadName } from "../../../src/resources/reads.ts";
import { taskQuads, type TaskState } from "../../../src/resources/task.ts";
import { Uris } from "../../../src/resources/uris.ts";
import { crossValidationNTriples, crossValidationResultOf, reportNTriples, type CrossValidationParameters } from "../../../src/resources/validation.ts";
import { GraphStore } from "../../../src/store/graph-store.ts";
import { toNTriples } from "../../../src/store/ntriples.ts";
import { Vocab } from "../../../src/store/vocab.ts";

const BASE = "http://localhost:8080";
const v = new Vocab(BASE);
const uris = new Uris(BASE);
const DS = `${BASE}/dataset/abcdefghijkm`;
const M = `${BASE}/model/mmmmmmmmmmmm`;
const P = `${BASE}/dataset/pppppppppppp`;
const T = `${BASE}/task/tttttttttttt`;
const CV = `${BASE}/validation/crossvalidation/cccccccccccc`;
const R = `${BASE}/validation/report/crossvalidation/rrrrrrrrrrrr`;
const NOWHERE = `${BASE}/dataset/nnnnnnnnnnnn`;
// Standard InChIs of ethanol and benzene (PubChem CID 702 and 241).
const ETHANOL = { inchi: "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3", inchikey: "LFQSCWFLJHTTHZ-UHFFFAOYSA-N", smiles: "CCO" };
const BENZENE = { inchi: "InChI=1S/C6H6/c1-2-4-6-5-3-1/h1-6H", inchikey: "UHOVQNZJYSORNB-UHFFFAOYSA-N", smiles: "c1ccccc1" };
const C1 = uris.compound(ETHANOL.inchi);
const C2 = uris.compound(BENZENE.inchi);
const F0 = `${DS}/feature/logP`;
const F1 = `${DS}/feature/MW`;

const features = [
  { name: "logP", title: "logP", numeric: true, types: [], properties: [] },
  { name: "MW", title: "MW", numeric: true, types: [], properties: [] },
];
const entries = [
  { line: 2, compound: C1, values: ["-0.31", "46.07"] },
  { line: 3, compound: C2, values: ["2.13", null] },
  { line: 4, compound: C1, values: ["-0.14", "46.07"] },
];
const model: ModelRecord = {
  uri: M,
  title: "lazar model for logP",
  created: new Date("2026-01-02T03:04:05.000Z"),
  algorithm: `${BASE}/algorithm/lazar`,
  trainingDataset: DS,
  featureDataset: DS,
  endpoint: F0,
  endpointTitle: "logP",
  classes: [],
  predictionAlgorithm: "local_svm_regression",
  minSim: 0.3,
  minTrainPerformance: 0.1,
  featureKind: "descriptor",
  nrHits: false,
  version: "1.0.0",
  parameters: [["min_sim", "0.3"]],
  trainingCompounds: 2,
  features: 1,
};
const task: TaskState = {
  id: "tttttttttttt",
  uri: T,
  title: "Upload of test.csv",
  operation: "upload",
  status: "Completed",
  percentageCompleted: 100,
  resultUri: DS,
  createdAt: new Date("2026-01-02T03:00:00.000Z"),
  finishedAt: new Date("2026-01-02T03:00:07.000Z"),
  createdBy: "alice",
};
const cvParams: CrossValidationParameters & { title: string } = {
  title: "Cross-validation of lazar model for logP",
  algorithmUri: `${BASE}/algorithm/lazar`,
  datasetUri: DS,
  endpoint: F0,
  algorithmParams: "min_sim=0.3",
  numFolds: 2,
  seed: 7,
  stratified: false,
  classes: [],
};
const cvPredictions = [
  { compound: C1, fold: 0, measured: -0.31, predicted: -0.2, confidence: 0.5 },
  { compound: C2, fold: 1, measured: 2.13, predicted: null, confidence: null },
];
/** A prediction dataset as lazar/predict.ts writes its head: of model M, for compound_uri C1, by alice. */
const prediction = [
  `<${P}> <${v.qg.model.value}> <${M}> .`,
  `<${P}> <http://www.opentox.org/api/1.1#parameters> <${P}#param-compound_uri> .`,
  `<${P}#param-compound_uri> <http://purl.org/dc/elements/1.1/title> "compound_uri" .`,
  `<${P}#param-compound_uri> <http://www.opentox.org/api/1.1#paramValue> "${C1}" .`,
  `<${P}> <${v.qg.createdBy.value}> "alice" .`,
].join("\n");

const dir = mkdtempSync(join(tmpdir(), "qsargraph-reads-"));
let store: GraphStore;

before(async () => {
  store = await GraphStore.open(dir);
  const dataset = featureDatasetNTriples({ uri: DS, base: BASE, title: "Readable title", created: new Date(0), source: `${BASE}/dataset/source`, algorithm: `${BASE}/algorithm/x`, parameters: [], features, entries, compounds: 2 });
  await store.commit([
    { graph: DS, ntriples: creatorNTriples(DS, "alice", v) + Buffer.from(dataset).toString("utf8") + `<${C2}> <http://www.w3.org/2000/01/rdf-schema#label> "Benzene" .\n` },
    { graph: C1, ntriples: toNTriples(compoundQuads(C1, ETHANOL, v)) },
    { graph: C2, ntriples: toNTriples(compoundQuads(C2, BENZENE, v)) },
    { graph: M, ntriples: modelNTriples(model, v) },
    { graph: P, ntriples: `${prediction}\n` },
    { graph: T, ntriples: toNTriples(taskQuads(task, v)) },
    { graph: CV, ntriples: crossValidationNTriples(CV, cvParams, cvPredictions, crossValidationResultOf(cvParams, CV, cvPredictions, 1234), 1234, v) },
    { graph: R, ntriples: reportNTriples(R, [CV], v) },
  ]);
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("reads of a store with a dataset, compounds, a model, a prediction, a task and a cross-validation", () => {
  test("datasets: titles, what the dataset says of itself, its features", async () => {
    const info = await read(store, v, "datasetInfo", DS);
    assert.deepEqual([info.title, info.entries, info.compounds, info.featureCount], ["Readable title", 3, 2, 2]);
    assert.deepEqual((await read(store, v, "datasetSummary", DS)).features.map((f) => [f.uri, f.title, f.index]), [[F0, "logP", 0], [F1, "MW", 1]]);
    assert.deepEqual((await read(store, v, "featurePage", DS, 1, 5, 2)).map((f) => f.title), ["MW"]);
    assert.deepEqual(await read(store, v, "featureTitles", DS, 0, 5, 2), [{ uri: F0, title: "logP" }, { uri: F1, title: "MW" }]);
    assert.equal((await read(store, v, "featureOf", DS, [`${DS}/feature/none`, F1]))?.uri, F1, "the first candidate that is a feature");
    assert.equal(await read(store, v, "featureOf", DS, [`${DS}/feature/none`]), null);
  });

  test("describeInGraph answers N-Triples text (never quads)", async () => {
    const nt = await read(store, v, "describeInGraph", F0, DS);
    assert.equal(typeof nt, "string");
    assert.ok(nt.includes(`<${F0}> <http://purl.org/dc/elements/1.1/title> "logP" .`), nt);
    assert.ok(!nt.includes("MW"), "only the subject's triples");
  });

  test("compounds, and the entries in line order with their values", async () => {
    assert.deepEqual(await read(store, v, "compound", C1), { uri: C1, ...ETHANOL });
    assert.deepEqual((await read(store, v, "compounds", [C2, NOWHERE])).map((c) => c?.smiles ?? null), ["c1ccccc1", null]);
    assert.equal(await read(store, v, "statedEntries", DS), 3);
    assert.equal(await read(store, v, "maxEntryLine", DS), 4);
    assert.deepEqual((await read(store, v, "entryLinesIn", DS, 0, 4)).sort(), [2, 3]);
    const refs = await read(store, v, "entryRefsOn", DS, Int32Array.from([4, 2]));
    assert.deepEqual(refs.map((r) => [r.entry, r.line, r.compound]), [[`${DS}#e2`, 2, C1], [`${DS}#e4`, 4, C1]]);
    const values = await read(store, v, "entryValues", DS, refs, { features: [F1], totalEntries: 3, valuesPerEntry: 2 });
    assert.deepEqual(values.map((e) => [e.line, [...e.values]]), [[2, [[F1, ["46.07"]]]], [4, [[F1, ["46.07"]]]]]);
    const table = await read(store, v, "entryTable", DS, Int32Array.from([2, 3, 4]), undefined, true);
    assert.deepEqual(table.entries.map((e) => [e.line, e.values.get(F0), e.values.get(F1)]), [[2, ["-0.31"], ["46.07"]], [3, ["2.13"], undefined], [4, ["-0.14"], ["46.07"]]]);
    assert.deepEqual([...table.compounds.keys()], [C1, C2]);
    assert.equal(table.compounds.get(C2)?.inchi, BENZENE.inchi);
    assert.equal((await read(store, v, "entryTable", DS, Int32Array.from([3]))).compounds.size, 0, "compounds only when asked");
  });

  test("columns and compounds of a dataset", async () => {
    assert.deepEqual((await read(store, v, "featureColumn", DS, F0)).map((r) => [r.line, r.value]), [[2, "-0.31"], [3, "2.13"], [4, "-0.14"]]);
    const column = (await read(store, v, "columnOn", DS, F1, "2 3 4")).sort((a, b) => a.line - b.line);
    assert.deepEqual(column.map((r) => [r.line, r.value, r.inchi, r.compoundSmiles]), [[2, "46.07", ETHANOL.inchi, "CCO"], [4, "46.07", ETHANOL.inchi, "CCO"]]);
    assert.deepEqual((await read(store, v, "compoundsOn", DS, "3")).map((c) => [c.compound, c.smiles]), [[C2, "c1ccccc1"]]);
    assert.deepEqual(await read(store, v, "compoundsWithFirstLine", DS), [{ compound: C1, line: 2 }, { compound: C2, line: 3 }]);
    const fv = await read(store, v, "featureValues", DS, (await read(store, v, "datasetSummary", DS)).features);
    assert.deepEqual([...fv.get(C2)!], [2.13, NaN], "no MW for benzene");
    assert.equal(fv.get(C1)![1], 46.07);
  });

  test("models, predictions, creators, tasks, cross-validations and reports", async () => {
    const m = await read(store, v, "model", M);
    assert.deepEqual([m?.title, m?.created.toISOString(), m?.minSim, m?.parameters], ["lazar model for logP", "2026-01-02T03:04:05.000Z", 0.3, [["min_sim", "0.3"]]]);
    // Every graph naming DS as ot:trainingDataset or ot:featureDataset: the cross-validation names its dataset so too.
    assert.deepEqual(await read(store, v, "modelsUsing", DS), [M, CV]);
    assert.deepEqual(await read(store, v, "storedPredictions", M, C1, "alice"), [P]);
    assert.deepEqual(await read(store, v, "storedPredictions", M, C1, undefined), [], "another creator's prediction is not the answer");
    assert.deepEqual(await read(store, v, "storedPredictions", M, C2, "alice"), []);
    assert.equal(await read(store, v, "creator", DS), "alice");
    assert.equal(await read(store, v, "creator", C1), undefined);
    const [t, none] = await read(store, v, "tasks", [T, DS]);
    assert.deepEqual([t?.status, t?.resultUri, t?.createdBy, t?.finishedAt?.toISOString()], ["Completed", DS, "alice", "2026-01-02T03:00:07.000Z"]);
    assert.equal(none, null);
    const cv = await read(store, v, "crossValidation", CV);
    assert.deepEqual([cv?.parameters.numFolds, cv?.parameters.seed, cv?.runtimeMs], [2, 7, 1234]);
    assert.deepEqual(cv?.predictions, cvPredictions);
    assert.deepEqual((await read(store, v, "crossValidations", [CV, DS])).map((x) => x?.predictions.length ?? null), [2, null]);
    assert.deepEqual(await read(store, v, "reportValidations", R), [CV]);
  });

  test("what the forms offer: datasets (a computed one lists no features) and cross-validations", async () => {
    const choices = await read(store, v, "datasetChoices", [DS], 200, 30);
    assert.equal(choices.total, 1);
    const [d] = choices.datasets;
    assert.deepEqual([d?.uri, d?.title, d?.compounds, d?.computed, d?.featureCount, d?.features], [DS, "Readable title", 2, true, 2, []]);
    assert.match(d?.created ?? "", /^1970-01-01T00:00:00/);
    assert.deepEqual((await read(store, v, "datasetChoices", [DS], 0, 30)).datasets, [], "limit 0");
    const cvs = await read(store, v, "crossValidationChoices", [CV], 200);
    assert.deepEqual(cvs.validations.map((c) => [c.uri, c.title, c.dataset, c.algorithmParams, c.numFolds]), [[CV, cvParams.title, DS, "min_sim=0.3", 2]]);
  });
});

/** Arguments for every read (each must be here: a new read gets a case). */
const CASES: { readonly [K in ReadName]: ReadArgs<K> } = {
  datasetInfo: [DS],
  datasetSummary: [DS],
  featurePage: [DS, 0, 10, 2],
  featureTitles: [DS, 0, 10, 2],
  featureOf: [DS, [F0]],
  describeInGraph: [F0, DS],
  compound: [C1],
  compounds: [[C1, C2]],
  entryValues: [DS, [{ entry: `${DS}#e2`, line: 2, compound: C1 }]],
  entryTable: [DS, Int32Array.from([2, 3, 4]), undefined, true],
  featureColumn: [DS, F0],
  featureValues: [DS, []],
  compoundsWithFirstLine: [DS],
  minedEndpoint: [DS],
  statedEntries: [DS],
  maxEntryLine: [DS],
  entryLinesIn: [DS, 0, 10],
  entryRefsOn: [DS, Int32Array.from([2, 3])],
  columnOn: [DS, F0, "2 3 4"],
  compoundsOn: [DS, "2 3 4"],
  model: [M],
  modelsUsing: [DS],
  storedPredictions: [M, C1, "alice"],
  creator: [DS],
  tasks: [[T]],
  crossValidation: [CV],
  crossValidations: [[CV]],
  reportValidations: [R],
  datasetRows: [[DS, P, NOWHERE]],
  modelRows: [[M, DS]],
  validationRows: [[CV, R, DS]],
  datasetRelated: [DS],
  compoundOccurrences: [C1],
  compoundsByKey: [ETHANOL.inchikey],
  compoundsByName: [["Benzene", "benzene"]],
  compoundStructures: [],
  datasetChoices: [[DS], 200, 30],
  crossValidationChoices: [[CV], 200],
  predictionHeader: [P],
  predictionEntries: [P, [1], M, F0],
  predictionDetail: [P, 1],
  structures: [[C1, C2]],
  modelValidations: [{ trainingDataset: DS, endpoint: F0, predictionAlgorithm: "weighted_majority_vote", parameters: [] }],
};

describe("reads of the list pages and the compound search (resources/listings.ts, compound-lookup.ts)", () => {
  test("list rows: title, date, sizes and kind of datasets; models; cross-validations and reports", async () => {
    const [ds, p, none] = await read(store, v, "datasetRows", [DS, P, NOWHERE]);
    assert.deepEqual([ds?.title, ds?.created, ds?.compounds, ds?.entries, ds?.features, ds?.kind, ds?.from], ["Readable title", "1970-01-01T00:00:00Z", 2, 3, 2, "computed", `${BASE}/dataset/source`]);
    assert.deepEqual([p?.kind, p?.from], ["prediction", M], "a dataset naming a model is a prediction");
    assert.equal(none, null);
    const [m, notModel] = await read(store, v, "modelRows", [M, DS]);
    assert.deepEqual([m?.title, m?.created, m?.trainingCompounds, m?.algorithm, m?.endpointTitle, m?.trainingDataset, m?.classification], ["lazar model for logP", "2026-01-02T03:04:05Z", 2, "local_svm_regression", "logP", DS, false]);
    assert.equal(notModel, null);
    const [cv, report, neither] = await read(store, v, "validationRows", [CV, R, DS]);
    // RMSE of the one predicted instance: |−0.2 − (−0.31)| = 0.11; 2 instances, 1 predicted
    assert.deepEqual([cv?.kind, cv?.title, cv?.dataset, cv?.folds, cv?.instances, cv?.predicted], ["crossvalidation", cvParams.title, DS, 2, 2, 1]);
    assert.ok(Math.abs(cv!.rmse! - 0.11) < 1e-9, `rmse ${cv?.rmse}`);
    assert.equal(cv?.accuracy, undefined);
    assert.deepEqual([report?.kind, report?.validations], ["report", [CV]]);
    assert.equal(neither?.kind, undefined, "a dataset is neither a cross-validation nor a report");
  });

  test("a dataset's models, cross-validations and predictions; a compound's datasets with its values and names", async () => {
    const related = await read(store, v, "datasetRelated", DS);
    assert.deepEqual(related.models.map((m) => m.uri), [M]);
    assert.deepEqual(related.validations.map((x) => x.uri), [CV]);
    assert.deepEqual(related.predictions, [], "P predicts a compound, not DS");
    const { occurrences, total } = await read(store, v, "compoundOccurrences", C1);
    assert.equal(total, 1);
    assert.deepEqual(occurrences.map((o) => [o.dataset.uri, o.lines, o.values, o.names]), [[DS, [2, 4], [["logP", ["-0.31", "-0.14"]], ["MW", ["46.07", "46.07"]]], []]]);
    const benzene = await read(store, v, "compoundOccurrences", C2);
    assert.deepEqual(benzene.occurrences.map((o) => [o.lines, o.names]), [[[3], ["Benzene"]]]);
  });

  test("compounds by InChIKey, by name (exact spellings only), and every structure", async () => {
    assert.deepEqual(await read(store, v, "compoundsByKey", ETHANOL.inchikey), [C1]);
    assert.deepEqual(await read(store, v, "compoundsByKey", "AAAAAAAAAAAAAA-BBBBBBBBBB-N"), []);
    assert.deepEqual(await read(store, v, "compoundsByName", ["benzene", "Benzene"]), [{ compound: C2, name: "Benzene" }]);
    assert.deepEqual(await read(store, v, "compoundsByName", ["benzene", "BENZENE"]), [], "the lookup is exact: the variants are the caller's");
    assert.deepEqual(await read(store, v, "compoundStructures"), { uris: [C1, C2].sort(), smiles: [C1, C2].sort().map((u) => (u === C1 ? "CCO" : "c1ccccc1")) });
  });
});

describe("every read", () => {
  test("answers plain data that crosses a thread unchanged (structuredClone), with data and without", async () => {
    assert.deepEqual(Object.keys(CASES).sort(), [...READ_NAMES].sort());
    const empty = await GraphStore.open(mkdtempSync(join(tmpdir(), "qsargraph-reads-empty-")));
    try {
      for (const name of READ_NAMES) {
        for (const s of [store, empty]) {
          const args = CASES[name] as unknown[];
          // GraphStore.read throws when a result is not plain data (store/plain-data.ts).
          const out = await (read as (st: GraphStore, vv: Vocab, n: ReadName, ...a: unknown[]) => Promise<unknown>)(s, v, name, ...args);
          assert.deepEqual(structuredClone(out), out, name);
        }
      }
    } finally {
      await empty.close();
      rmSync(empty.dir, { recursive: true, force: true });
    }
  });

  test("an unknown name is refused, also one of Object's own properties", async () => {
    const module = new URL("../../../src/resources/reads.ts", import.meta.url);
    for (const name of ["noSuchRead", "toString", "constructor", "__proto__"]) {
      await assert.rejects(store.read(module, name, [BASE]), new RegExp(`no store read named ${name}`));
    }
  });

  test("every read named in src/ exists, and every read is named somewhere in src/", () => {
    const root = new URL("../../../src/", import.meta.url).pathname;
    const files = (function walk(d: string): string[] {
      return readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : n.endsWith(".ts") ? [join(d, n)] : []));
    })(root);
    const used = new Set<string>();
    for (const f of files) for (const m of readFileSync(f, "utf8").matchAll(/\bread\(\s*[\w.]+\s*,\s*[\w.]+\s*,\s*"(\w+)"/g)) used.add(m[1]!);
    assert.ok(used.size > 10, `found ${used.size} reads`);
    assert.deepEqual([...used].filter((n) => !(READ_NAMES as string[]).includes(n)), []);
    assert.deepEqual(READ_NAMES.filter((n) => !used.has(n)), []);
  });
});
