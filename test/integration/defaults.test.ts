/**
 * Defaults that finish (docs/ARCHITECTURE.md "Algorithms", its mining budget): the default lazar
 * model and its cross-validation on a ~1,000-compound regression set, with only the dataset and the
 * endpoint given, finish with progress that moves while they work; a search that would not finish
 * stops with a 400 naming the parameter to change.
 *
 * Data: LOAEL (rat, chronic), lazar-public-data/regression/training_log10.csv, 998 rows (671
 * distinct structures) with columns LOAEL and Dataset (SOURCES.md). The reference lazar mined paths
 * for a numeric endpoint unless feature_type was given (opentox/algorithm : lazar.rb @ bc73e23,
 * release/v3.2.0; docs/lazar-method.md "Substructures"); before this default the model sat at 0.9 %
 * for 13 minutes (BBRC over trees cannot prune in regression: more than a million frequent trees at
 * minimum support 4).
 */
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { assertServesNormally, DATA, get, parseTaskEvents, postForm, sparqlSelect } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";

const OT = "http://www.opentox.org/api/1.1#";
const FILE = `${DATA}lazar-public-data/regression/training_log10.csv`;

interface Run {
  readonly status: number;
  readonly body: string;
  /** percentageCompleted of every progress event while the task was Running. */
  readonly running: number[];
}

/**
 * POST, then follow the task's event stream to its end, recording every progress the task
 * published while Running (an event per update, so the record does not depend on how often a
 * client polls or how busy the machine is).
 */
async function follow(url: string, params: Record<string, string>): Promise<Run> {
  const r = await postForm(url, params);
  assert.equal(r.status, 202, await r.clone().text());
  const task = (await r.text()).trim();
  const stream = await fetch(task, { headers: { Accept: "text/event-stream" }, signal: AbortSignal.timeout(900_000) });
  assert.equal(stream.status, 200);
  const events = parseTaskEvents(await stream.text()); // ends when the task does
  const running = events.filter((e) => e.event === "progress" && e.data.status === "Running").map((e) => e.data.percentageCompleted);
  const end = await fetch(task, { headers: { Accept: "text/uri-list" } });
  return { status: end.status, body: (await end.text()).trim(), running };
}

/** The progress moved while the task ran: rising, and some values strictly between 0 and 100. */
function assertMoved(run: Run, atLeast: number, what: string): number[] {
  for (let i = 1; i < run.running.length; i++) assert.ok(run.running[i]! >= run.running[i - 1]!, `${what}: progress went back (${run.running.join(", ")})`);
  const between = [...new Set(run.running.filter((p) => p > 0 && p < 100))];
  assert.ok(between.length >= atLeast, `${what}: ${between.length} distinct progress values while running (${run.running.join(", ")})`);
  return between;
}

/** An ot:parameters value of a resource (model, feature dataset). */
async function parameter(base: string, uri: string, name: string): Promise<string | undefined> {
  const rows = await sparqlSelect(base, `PREFIX ot: <${OT}> PREFIX dc: <http://purl.org/dc/elements/1.1/> SELECT ?v WHERE { GRAPH <${uri}> { <${uri}> ot:parameters ?p . ?p dc:title "${name}" ; ot:paramValue ?v } }`);
  return rows[0]?.v?.value;
}

describe("defaults that finish on a 1,000-compound regression set", () => {
  const srv = useServer({ upload: { loael: FILE } });
  let endpoint = "";

  before(() => {
    endpoint = `${srv.datasets.loael}/feature/LOAEL`;
  });

  test("the default model (dataset and endpoint only) is the kernel model: it finishes, its progress moving, and stores no feature dataset", async () => {
    const run = await follow(`${srv.base}/algorithm/qsar`, { dataset_uri: srv.datasets.loael, prediction_feature: endpoint });
    assert.equal(run.status, 200, run.body);
    assertMoved(run, 3, "model");
    const model = run.body;
    assert.equal(await parameter(srv.base, model, "prediction_algorithm"), "kernel_svm");
    assert.equal(await parameter(srv.base, model, "confidence_level"), "0.8");
    const fd = await sparqlSelect(srv.base, `PREFIX ot: <${OT}> SELECT ?fd WHERE { GRAPH <${model}> { <${model}> ot:featureDataset ?fd } }`);
    assert.equal(fd.length, 0, "no feature dataset");
  });

  test("lazar's local SVM regression with BBRC (asked for by name) finishes, its progress moving; BBRC mined paths, recorded", async () => {
    const run = await follow(`${srv.base}/algorithm/qsar`, { dataset_uri: srv.datasets.loael, prediction_feature: endpoint, prediction_algorithm: "local_svm_regression" });
    assert.equal(run.status, 200, run.body);
    assertMoved(run, 2, "model");
    const model = run.body;
    assert.equal(await parameter(srv.base, model, "feature_type"), "paths");
    assert.equal(await parameter(srv.base, model, "prediction_algorithm"), "local_svm_regression");
    const [fd] = await sparqlSelect(srv.base, `PREFIX ot: <${OT}> SELECT ?fd WHERE { GRAPH <${model}> { <${model}> ot:featureDataset ?fd } }`);
    const featureDataset = fd!.fd!.value;
    assert.equal(await parameter(srv.base, featureDataset, "feature_type"), "paths");
    assert.equal(await parameter(srv.base, featureDataset, "max_visited"), "500000");
    // max(2, floor(5 ‰ · 998)): lazar's rule (opentox/opentox-ruby : lib/utils.rb min_frequency
    // @ v4.0.0; docs/lazar-method.md "Substructures")
    assert.equal(await parameter(srv.base, featureDataset, "absolute_min_frequency"), "4");
    // paths only: no branch in any SMARTS
    const smarts = await sparqlSelect(srv.base, `PREFIX ot: <${OT}> SELECT ?s WHERE { GRAPH <${featureDataset}> { ?f ot:smarts ?s } }`);
    assert.ok(smarts.length > 100, `${smarts.length} features`);
    assert.ok(smarts.every((r) => !r.s!.value.includes("(")), "a tree among the features");
  });

  test("its 10-fold cross-validation finishes, progress moving fold by fold; better than predicting the mean", async () => {
    const run = await follow(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: srv.datasets.loael, prediction_feature: endpoint });
    assert.equal(run.status, 200, run.body);
    const between = assertMoved(run, 10, "cross-validation");
    assert.ok(Math.max(...between) >= 50, `the progress passed half-way before the end (${Math.max(...between)} %)`);
    const nt = await (await get(run.body, "application/n-triples")).text();
    const rmse = Number(/ontology#rootMeanSquaredError> "([^"]+)"/.exec(nt)?.[1]);
    // Independent reference: the population standard deviation of the file's LOAEL values, the
    // RMSE of always predicting their mean (0.995).
    const values = (parse(readFileSync(FILE, "utf8"), { columns: true }) as { LOAEL: string }[]).map((r) => Number(r.LOAEL));
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
    assert.ok(rmse < sd, `RMSE ${rmse} against the standard deviation ${sd}`);
  });

  test("feature_type=trees: the search stops at max_visited with a 400 naming feature_type (model and cross-validation)", async () => {
    // A small max_visited makes the stop come early; at the default (500,000) it comes the same
    // way after minutes (LOAEL has over a million frequent trees at support 4).
    const model = await follow(`${srv.base}/algorithm/qsar`, { dataset_uri: srv.datasets.loael, prediction_feature: endpoint, feature_type: "trees", max_visited: "20000" });
    assert.equal(model.status, 400, model.body);
    assert.match(model.body, /max_visited=20000/);
    assert.match(model.body, /feature_type=paths/);
    assert.match(model.body, /\(field feature_type\)/);
    const cv = await follow(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: srv.datasets.loael, prediction_feature: endpoint, algorithm_params: "feature_type=trees;max_visited=20000" });
    assert.equal(cv.status, 400, cv.body);
    assert.match(cv.body, /\(field feature_type\)/);
  });

  test("max_visited: described with its default; a value out of range is refused at once, naming it", async () => {
    const nt = await (await get(`${srv.base}/algorithm/miner/bbrc`, "application/n-triples")).text();
    assert.match(nt, /#max_visited> <http:\/\/www\.opentox\.org\/api\/1\.1#paramValue> "500000"/);
    const before = await (await get(`${srv.base}/model`, "text/uri-list")).text();
    const r = await postForm(`${srv.base}/algorithm/qsar`, { dataset_uri: srv.datasets.loael, prediction_feature: endpoint, max_visited: "0" }, "text/plain");
    assert.equal(r.status, 400);
    assert.match(await r.text(), /max_visited.*at least 1.*\(field max_visited\)/);
    assert.equal(await (await get(`${srv.base}/model`, "text/uri-list")).text(), before);
  });

  test("afterwards the service serves normally", async () => {
    await assertServesNormally(srv.base);
  });
});
