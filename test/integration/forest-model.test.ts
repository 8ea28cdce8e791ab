/**
 * The random forest over HTTP (`POST /algorithm/qsar` with prediction_algorithm=random_forest;
 * algorithms/forest/, learn/forest.ts, docs/conformal.md): a classification model on lazar's
 * hamster set and a regression model on EPAFHM.medi, their records and pages, predictions of
 * single compounds with the same triples as the kernel model's (p-values of both classes or an
 * interval, the confidence, the domain, the five nearest training compounds by Tanimoto on Morgan
 * bits), a training compound answered with its measured value, a dataset predicted as a task,
 * parameters that do not apply or are out of range (400 naming them), a 10-fold cross-validation,
 * and the model after a restart (trained again from its record: the same predictions).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { EPAFHM, get, HAMSTER, compoundUri, postForm as post, runTask as runTaskFor, sparqlSelect, uploadCsv } from "../helpers/server.ts";
import { assertHamsterPredictions, crossValidationStatistic, predictionEntry as entry } from "../helpers/predictions.ts";
import { useServer } from "../helpers/use-server.ts";
import { QG_NS } from "../../src/store/vocab.ts";

const runTask = (url: string, params: Record<string, string>): Promise<string> => runTaskFor(url, params, 300_000);

/** A model's parameter as recorded (ot:parameters). */
async function parameter(base: string, model: string, name: string): Promise<string | undefined> {
  const rows = await sparqlSelect(base, `PREFIX ot: <http://www.opentox.org/api/1.1#> PREFIX dc: <http://purl.org/dc/elements/1.1/> SELECT ?v WHERE { GRAPH <${model}> { <${model}> ot:parameters ?p . ?p dc:title "${name}" ; ot:paramValue ?v } }`);
  return rows[0]?.v?.value;
}

describe("random_forest models over HTTP", () => {
  const srv = useServer({ upload: { hamster: HAMSTER, epafhm: EPAFHM } });
  let classifier = "";

  test("classification (hamster): the record and page name the forest and its features; a new compound gets both classes' p-values, the conformal confidence, the domain and its five nearest training compounds", async () => {
    classifier = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: srv.datasets.hamster, prediction_algorithm: "random_forest" });
    const nt = await (await get(classifier, "application/n-triples")).text();
    assert.match(nt, /ClassificationEagerSingleTarget/);
    assert.match(nt, /#predictionAlgorithm> "random_forest"/);
    assert.doesNotMatch(nt, /#featureDataset>/, "no feature dataset: the model computes its features");
    // the defaults, recorded: 200 trees on Morgan bits for classes; the level of (numeric) intervals
    assert.equal(await parameter(srv.base, classifier, "num_trees"), "200");
    assert.equal(await parameter(srv.base, classifier, "features"), "morgan");
    assert.equal(await parameter(srv.base, classifier, "confidence_level"), "0.8");
    for (const lazar of ["min_sim", "min_train_performance"]) assert.equal(await parameter(srv.base, classifier, lazar), undefined, `lazar's ${lazar} is not the forest's`);
    const html = await (await get(classifier, "text/html")).text();
    assert.match(html, /a random forest of 200 trees/);
    assert.match(html, /Morgan fingerprint bits \(radius 2, 2048 bits\)/);

    await assertHamsterPredictions(srv.base, classifier);
  });

  test("regression (EPAFHM.medi): Morgan bits and descriptors by default; an interval at 0.8 around the prediction; other settings recorded; a dataset predicted as a task", async () => {
    const regressor = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: srv.datasets.epafhm, prediction_algorithm: "random_forest" });
    assert.equal(await parameter(srv.base, regressor, "features"), "morgan+descriptors");
    assert.match(await (await get(regressor, "application/n-triples")).text(), /RegressionEagerSingleTarget/);
    const query = await compoundUri(srv.base, "CCCCCCCCCCO");
    const e = await entry(srv.base, (await (await post(regressor, { compound_uri: query })).text()).trim(), regressor, query);
    assert.equal(e.level, 0.8);
    const v = Number(e.value);
    assert.ok(e.lower! < v && v < e.upper!, `${e.lower} < ${v} < ${e.upper}`);
    assert.ok(e.confidence! >= 0 && e.confidence! <= 1, `confidence ${e.confidence}`);
    assert.equal(e.pValues.size, 0);
    assert.equal(e.neighbours.length, 5);
    assert.ok(e.measuredActivities.every((a) => Number.isFinite(Number(a))), "numbers measured");

    // another level, trees and features: recorded, and the interval at 0.95 is wider
    const other = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: srv.datasets.epafhm, prediction_algorithm: "random_forest", confidence_level: "0.95", num_trees: "50", features: "descriptors" });
    assert.deepEqual([await parameter(srv.base, other, "confidence_level"), await parameter(srv.base, other, "num_trees"), await parameter(srv.base, other, "features")], ["0.95", "50", "descriptors"]);
    assert.match(await (await get(other, "text/html")).text(), /computed by the model: RDKit(&#39;|')s 2D descriptors/);
    const o = await entry(srv.base, (await (await post(other, { compound_uri: query })).text()).trim(), other, query);
    assert.equal(o.level, 0.95);
    assert.ok(o.upper! - o.lower! > 0);

    // the dataset itself: every compound is a training compound (measured)
    const ds = await runTask(regressor, { dataset_uri: srv.datasets.epafhm });
    const counted = await sparqlSelect(srv.base, `PREFIX qg: <${QG_NS}> SELECT (COUNT(?e) AS ?n) WHERE { GRAPH <${ds}> { ?e qg:measured true } }`);
    assert.ok(Number(counted[0]!.n!.value) >= 80, `${counted[0]!.n!.value} entries answered as measured`);
  });

  test("parameters that do not apply or are out of range are a 400 naming them", async () => {
    const bad = async (params: Record<string, string>, field: RegExp, url = `${srv.base}/algorithm/qsar`): Promise<void> => {
      const r = await post(url, { dataset_uri: srv.datasets.hamster, ...params }, "application/problem+json");
      assert.equal(r.status, 400, await r.clone().text());
      assert.match(await r.text(), field);
    };
    await bad({ prediction_algorithm: "random_forest", num_trees: "5" }, /num_trees.*at least 10/);
    await bad({ prediction_algorithm: "random_forest", num_trees: "2000" }, /num_trees/);
    await bad({ prediction_algorithm: "random_forest", features: "maccs" }, /features/);
    await bad({ prediction_algorithm: "random_forest", min_sim: "0.5" }, /'min_sim' configures lazar's features or neighbours; prediction_algorithm=random_forest/);
    await bad({ prediction_algorithm: "kernel_svm", num_trees: "100" }, /'num_trees' applies to prediction_algorithm=random_forest only/);
    await bad({ num_trees: "100" }, /'num_trees' applies to prediction_algorithm=random_forest only/);
    await bad({ prediction_algorithm: "weighted_majority_vote", features: "morgan" }, /'features' applies to prediction_algorithm=random_forest only/);
    const five = await uploadCsv(srv.base, ["SMILES,active", "CCO,true", "CCCO,false", "CCCCO,true", "c1ccccc1,false", "CC(=O)O,true"].join("\n"), "five.csv");
    const r = await post(`${srv.base}/algorithm/qsar`, { dataset_uri: five, prediction_algorithm: "random_forest" }, "application/problem+json");
    assert.equal(r.status, 400);
    assert.match(await r.text(), /5 compounds.*the random forest needs at least 10.*dataset_uri/);
    // the same checks inside a cross-validation's algorithm_params
    const cv = await post(`${srv.base}/validation/crossvalidation`, { dataset_uri: srv.datasets.hamster, algorithm_uri: `${srv.base}/algorithm/qsar`, algorithm_params: "prediction_algorithm=random_forest;num_trees=5" }, "application/problem+json");
    assert.equal(cv.status, 400);
    assert.match(await cv.text(), /num_trees/);
    // the next normal request works
    assert.equal((await get(classifier, "text/uri-list")).status, 200);
  });

  test("10-fold cross-validation of random_forest (hamster): every compound predicted, better than the majority class", async () => {
    const cv = await runTask(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: srv.datasets.hamster, algorithm_params: "prediction_algorithm=random_forest" });
    assert.equal(await crossValidationStatistic(srv.base, cv, "numUnpredicted"), 0, "a global model predicts every compound");
    // hamster: 45 of 85 carcinogenic (fixtures/data/SOURCES.md), so always answering "true" scores 45/85 = 0.529
    const acc = await crossValidationStatistic(srv.base, cv, "accuracy");
    assert.ok(acc > 45 / 85, `accuracy ${acc}`);
    const nt = await (await get(cv, "application/n-triples")).text();
    assert.match(nt, /algorithmParams> "prediction_algorithm=random_forest"/);
    // the conformal output is kept: each of the 85 instances has both classes' p-values, and the calibration is stored
    assert.equal(nt.match(/#forClass> "(true|false)"/g)?.length, 170);
    assert.ok((nt.match(/#calibrationPoint> /g)?.length ?? 0) >= 10, "a calibration point per significance");
  });

  test("after a restart the model is trained again from its record: the same prediction", async () => {
    const query = await compoundUri(srv.base, "CCN(CC)N=O");
    const before = await entry(srv.base, (await (await post(classifier, { compound_uri: query })).text()).trim(), classifier, query);
    await srv.restart();
    // the stored prediction deleted, the service predicts again (the model is no longer in memory)
    const stored = (await (await post(classifier, { compound_uri: query })).text()).trim();
    assert.equal((await fetch(stored, { method: "DELETE" })).status, 200);
    const r = await post(classifier, { compound_uri: query });
    assert.equal(r.status, 201, await r.clone().text());
    const after = await entry(srv.base, (await r.text()).trim(), classifier, query);
    assert.equal(after.value, before.value);
    assert.deepEqual(after.pValues, before.pValues);
    assert.deepEqual(after.neighbours, before.neighbours);
    assert.equal(after.confidence, before.confidence);
  });
});
