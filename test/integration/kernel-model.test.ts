/**
 * The global kernel model over HTTP (`POST /algorithm/qsar` with prediction_algorithm=kernel_svm;
 * algorithms/kernel/, learn/kernel-model.ts, docs/conformal.md): a classification model on
 * lazar's hamster set and a regression model on EPAFHM.medi, predictions of single compounds
 * (p-values of both classes, or an interval at the model's confidence level; the nearest training
 * compounds), a training compound answered with its measured value, a dataset predicted as a
 * task, the model's record, parameters that do not apply (400 naming them), 10-fold
 * cross-validation, and the model after a restart (trained again from its record: the same
 * predictions).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { DATA, EPAFHM, get, HAMSTER, compoundUri, postForm as post, runTask as runTaskFor, sparqlSelect, uploadCsv, uploadDataset } from "../helpers/server.ts";
import { assertHamsterPredictions, crossValidationStatistic, predictionEntry as entry } from "../helpers/predictions.ts";
import { useServer } from "../helpers/use-server.ts";
import { QG_NS } from "../../src/store/vocab.ts";

const runTask = (url: string, params: Record<string, string>): Promise<string> => runTaskFor(url, params, 300_000);


describe("kernel_svm models over HTTP", () => {
  const srv = useServer({ upload: { hamster: HAMSTER, epafhm: EPAFHM } });
  let classifier = "";
  let regressor = "";

  test("classification (hamster): the model's record; a new compound gets both classes' p-values, the conformal confidence and its nearest training compounds", async () => {
    classifier = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: srv.datasets.hamster, prediction_algorithm: "kernel_svm" });
    const nt = await (await get(classifier, "application/n-triples")).text();
    assert.match(nt, /ClassificationEagerSingleTarget/);
    assert.match(nt, /#predictionAlgorithm> "kernel_svm"/);
    assert.doesNotMatch(nt, /#featureDataset>/, "no feature dataset: the model computes its features");
    const html = await (await get(classifier, "text/html")).text();
    assert.match(html, /Morgan \(radius 2\), atom-pair, RDKit path and MACCS fingerprints/);

    await assertHamsterPredictions(srv.base, classifier);
  });

  test("regression (EPAFHM.medi): an interval at the default confidence level 0.8 around the prediction; a dataset predicted as a task", async () => {
    regressor = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: srv.datasets.epafhm, prediction_algorithm: "kernel_svm" });
    const query = await compoundUri(srv.base, "CCCCCCCCCCO");
    const pd = (await (await post(regressor, { compound_uri: query })).text()).trim();
    const e = await entry(srv.base, pd, regressor, query);
    assert.equal(e.level, 0.8);
    const v = Number(e.value);
    assert.ok(e.lower! < v && v < e.upper!, `${e.lower} < ${v} < ${e.upper}`);
    // the confidence of a number: the mean similarity of the 10 most similar training compounds, so at most the nearest one's
    assert.ok(e.confidence! > 0 && e.confidence! <= e.nearest! + 1e-9, `confidence ${e.confidence}, nearest ${e.nearest}`);
    // the dataset itself: every compound is a training compound (measured)
    const ds = await runTask(regressor, { dataset_uri: srv.datasets.epafhm });
    const counted = await sparqlSelect(srv.base, `PREFIX qg: <${QG_NS}> SELECT (COUNT(?e) AS ?n) WHERE { GRAPH <${ds}> { ?e qg:measured true } }`);
    assert.ok(Number(counted[0]!.n!.value) >= 80, `${counted[0]!.n!.value} entries answered as measured`);
  });

  test("parameters that configure lazar are refused with 400 naming them; confidence_level applies to the global models only", async () => {
    const bad = async (params: Record<string, string>, field: RegExp): Promise<void> => {
      const r = await post(`${srv.base}/algorithm/qsar`, { dataset_uri: srv.datasets.hamster, ...params }, "application/problem+json");
      assert.equal(r.status, 400, await r.clone().text());
      assert.match(await r.text(), field);
    };
    await bad({ prediction_algorithm: "kernel_svm", min_sim: "0.5" }, /min_sim/);
    await bad({ prediction_algorithm: "kernel_svm", feature_generation_uri: `${srv.base}/algorithm/miner/bbrc` }, /feature_generation_uri/);
    await bad({ prediction_algorithm: "weighted_majority_vote", confidence_level: "0.9" }, /'confidence_level' applies to prediction_algorithm=kernel_svm or random_forest only/);
    await bad({ prediction_algorithm: "kernel_svm", confidence_level: "1.5" }, /confidence_level/);
    const cv = await post(`${srv.base}/validation/crossvalidation`, { dataset_uri: srv.datasets.hamster, algorithm_uri: `${srv.base}/algorithm/qsar`, algorithm_params: "prediction_algorithm=kernel_svm;min_sim=0.3" }, "application/problem+json");
    assert.equal(cv.status, 400, "the same check inside algorithm_params");
    assert.match(await cv.text(), /min_sim/);
    // the next normal request works
    assert.equal((await get(classifier, "text/uri-list")).status, 200);
  });

  test("the default of /algorithm/qsar: kernel_svm, unless lazar's parameters are given; fewer than 10 training compounds are a 400", async () => {
    const algorithmOf = async (params: Record<string, string>): Promise<string> => {
      const m = await runTask(`${srv.base}/algorithm/qsar`, params);
      const rows = await sparqlSelect(srv.base, `PREFIX qg: <${QG_NS}> SELECT ?a WHERE { GRAPH <${m}> { <${m}> qg:predictionAlgorithm ?a } }`);
      return rows[0]!.a!.value;
    };
    assert.equal(await algorithmOf({ dataset_uri: srv.datasets.hamster }), "kernel_svm");
    assert.equal(await algorithmOf({ dataset_uri: srv.datasets.hamster, confidence_level: "0.9" }), "kernel_svm");
    assert.equal(await algorithmOf({ dataset_uri: srv.datasets.hamster, min_sim: "0.4" }), "weighted_majority_vote", "min_sim configures lazar");
    const mini = await uploadDataset(srv.base, `${DATA}lazar/test/data/hamster_carcinogenicity.mini.csv`);
    assert.equal(await algorithmOf({ dataset_uri: mini }), "kernel_svm", "10 compounds are enough");
    // fewer than 10: a 400 naming the dataset, at once (not a failed task); the next request works
    const five = await uploadCsv(srv.base, ["SMILES,active", "CCO,true", "CCCO,false", "CCCCO,true", "c1ccccc1,false", "CC(=O)O,true"].join("\n"), "five.csv");
    const r = await post(`${srv.base}/algorithm/qsar`, { dataset_uri: five }, "application/problem+json");
    assert.equal(r.status, 400);
    const problem = (await r.json()) as { detail?: string; field?: string };
    assert.match(JSON.stringify(problem), /5 compounds.*at least 10/);
    assert.match(JSON.stringify(problem), /dataset_uri/);
    assert.equal(await algorithmOf({ dataset_uri: srv.datasets.hamster }), "kernel_svm");
  });

  test("three classes (ISSCAN, 58 compounds): one SVM per class; a prediction carries three p-values; its cross-validation beats the majority class", async () => {
    const isscan = await uploadDataset(srv.base, `${DATA}lazar/test/data/ISSCAN-multi.csv`);
    const model = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: isscan });
    const query = await compoundUri(srv.base, "ClCC(Cl)CCl");
    const e = await entry(srv.base, (await (await post(model, { compound_uri: query })).text()).trim(), model, query);
    assert.deepEqual([...e.pValues.keys()].sort(), ["0", "1", "2"]);
    assert.ok(["0", "1", "2"].includes(e.value!));
    const others = [...e.pValues].filter(([c]) => c !== e.value).map(([, p]) => p);
    assert.ok(Math.abs(e.confidence! - (1 - Math.max(...others))) < 1e-9, "confidence = 1 − the largest p-value of the other classes");
    const cv = await runTask(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: isscan });
    const nt = await (await get(cv, "application/n-triples")).text();
    const acc = Number(/ontology#accuracy> "([^"]+)"/.exec(nt)?.[1]);
    // the file's classes: 23 / 10 / 25 (fixtures/data/SOURCES.md): always answering "2" scores 25/58 = 0.431
    assert.ok(acc > 25 / 58, `accuracy ${acc}`);
  });

  test("10-fold cross-validation of kernel_svm (hamster, EPAFHM.medi): every compound predicted, statistics stored", async () => {
    const stat = (cv: string, name: string): Promise<number> => crossValidationStatistic(srv.base, cv, name);
    // hamster: 45 of 85 carcinogenic, so always answering "true" scores 0.529; a model must do better (measured: 0.706)
    const c = await runTask(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: srv.datasets.hamster, algorithm_params: "prediction_algorithm=kernel_svm" });
    assert.equal(await stat(c, "numUnpredicted"), 0, "a global model predicts every compound");
    const acc = await stat(c, "accuracy");
    assert.ok(acc > 45 / 85 + 0.1, `accuracy ${acc}`);
    // EPAFHM.medi (91): issue 16 asks that the default model predict ≥ 80 % of it in CV with RMSE ≤ 1.2 (lazar predicted 3 of 91); measured 0.89, all predicted
    const r = await runTask(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: srv.datasets.epafhm, algorithm_params: "prediction_algorithm=kernel_svm" });
    assert.equal(await stat(r, "numUnpredicted"), 0);
    const rmse = await stat(r, "rootMeanSquaredError");
    assert.ok(rmse > 0 && rmse <= 1.2, `RMSE ${rmse}`);
  });

  test("after a restart the model is trained again from its record: the same prediction", async () => {
    const query = await compoundUri(srv.base, "CCN(CC)N=O");
    const before = await entry(srv.base, (await (await post(classifier, { compound_uri: query })).text()).trim(), classifier, query);
    await srv.restart();
    const other = await compoundUri(srv.base, "CCN(CC)N=O");
    assert.equal(other, query);
    // a different request (a new dataset): the DELETE of the stored one makes the service predict again
    const stored = (await (await post(classifier, { compound_uri: query })).text()).trim();
    assert.equal((await fetch(stored, { method: "DELETE" })).status, 200);
    const r = await post(classifier, { compound_uri: query });
    assert.equal(r.status, 201, await r.clone().text());
    const after = await entry(srv.base, (await r.text()).trim(), classifier, query);
    assert.equal(after.value, before.value);
    assert.deepEqual(after.pValues, before.pValues);
  });
});
