/**
 * Every form of the service, submitted as a browser submits it with only its required fields
 * filled in (docs/opentox-api.md "Forms"): the field names and the values a browser would send
 * are read from the served form's HTML (not from the specs) — every field is sent, the optional
 * ones empty, a select with the value of its selected option — as
 * application/x-www-form-urlencoded (the upload form: multipart) with a browser's Accept header.
 * Each is answered 303 to its task, the task completes with a result of the right kind, and the
 * result records the defaults (the values documented in the specs and docs/lazar-method.md:
 * the default model is the kernel SVM at confidence level 0.8; BBRC min_frequency 5pm, LAST-PM
 * 80pm, which on hamster's 85 compounds are max(2, ⌊5·85/1000⌋) = 2 and ⌊80·85/1000⌋ = 6 compounds;
 * descriptors: every pc_type of the CDK set; a cross-validation: 10 folds, seed 1, not stratified).
 * The aliases' pages (/algorithm/lazar, /algorithm/fminer/bbrc, …) serve the same form as their
 * algorithm. Forms are prefilled from the query string.
 *
 * Data: hamster_carcinogenicity.csv (85 compounds, true/false; SOURCES.md).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { get, HAMSTER, KAZIUS, sparqlSelect, uploadCsv, waitForTask } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { QG_NS } from "../../src/store/vocab.ts";

/** What Chromium sends as Accept with a form submission. */
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";
const OT = "http://www.opentox.org/api/1.1#";

const unescape = (s: string): string => s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"');
const attr = (tag: string, name: string): string | undefined => {
  const m = new RegExp(`\\s${name}(?:="([^"]*)")?(?=[\\s>])`).exec(tag);
  return m ? unescape(m[1] ?? "") : undefined;
};

/** A field of a served form, as a browser sees it. */
interface Field {
  readonly name: string;
  readonly tag: "input" | "select" | "textarea";
  readonly type: string;
  /** Marked required (`required` or `aria-required="true"`). */
  readonly required: boolean;
  /** What the browser sends when nobody touches it (null: nothing, an unchecked checkbox). */
  readonly value: string | null;
  /** A select's option values. */
  readonly options: readonly string[];
}

/** The form posting to `action` on the HTML page at `url`: its attributes and its fields in document order. */
async function servedForm(url: string, action: string): Promise<{ html: string; enctype: string; fields: Field[] }> {
  const r = await get(url, "text/html");
  const page = await r.text();
  assert.equal(r.status, 200, page);
  const forms = [...page.matchAll(/<form\b[^>]*>[\s\S]*?<\/form>/g)].map((m) => m[0]);
  const html = forms.find((f) => attr(/<form\b[^>]*>/.exec(f)![0], "action") === action);
  assert.ok(html, `a form posting to ${action} on ${url} (forms: ${forms.map((f) => attr(/<form\b[^>]*>/.exec(f)![0], "action")).join(", ")})`);
  const open = /<form\b[^>]*>/.exec(html)![0];
  assert.equal(attr(open, "method"), "post");
  const fields: Field[] = [];
  for (const m of html.matchAll(/<(select)\b[^>]*>([\s\S]*?)<\/select>|<(input|textarea)\b[^>]*>/g)) {
    const tag = (m[1] ?? m[3]) as Field["tag"];
    const name = attr(m[0], "name");
    if (name === undefined) continue;
    const type = tag === "input" ? (attr(m[0], "type") ?? "text") : tag;
    const required = attr(m[0], "required") !== undefined || attr(m[0], "aria-required") === "true";
    let value: string | null = attr(m[0], "value") ?? "";
    let options: string[] = [];
    if (tag === "select") {
      const opts = [...(m[2] ?? "").matchAll(/<option\b[^>]*>/g)].map((o) => ({ value: attr(o[0], "value") ?? "", selected: attr(o[0], "selected") !== undefined }));
      options = opts.map((o) => o.value);
      value = (opts.find((o) => o.selected) ?? opts[0])?.value ?? "";
    }
    if (type === "checkbox") value = attr(m[0], "checked") !== undefined ? value : null;
    fields.push({ name, tag, type, required, value, options });
  }
  return { html, enctype: attr(open, "enctype") ?? "application/x-www-form-urlencoded", fields };
}

/**
 * The body a browser sends with every field as served but for `fill` (name → value): a required
 * field's first element (a select: the value must be one of its options, as a person picks it);
 * every field not filled keeps what it shows, i.e. empty.
 */
function browserBody(fields: readonly Field[], fill: Record<string, string>): URLSearchParams {
  const body = new URLSearchParams();
  const filled = new Set<string>();
  for (const f of fields) {
    let value = f.value;
    if (fill[f.name] !== undefined && !filled.has(f.name)) {
      if (f.tag === "select") assert.ok(f.options.includes(fill[f.name]!), `${f.name}: ${fill[f.name]} is one of the select's options (${f.options.join(", ")})`);
      value = fill[f.name]!;
      filled.add(f.name);
    }
    if (value !== null) body.append(f.name, value);
  }
  for (const name of Object.keys(fill)) assert.ok(filled.has(name), `the form has a field ${name}`);
  return body;
}

/** Submit as a browser: 303 to the task; wait for it; it must complete; the result URI. */
async function submit(action: string, body: URLSearchParams | FormData): Promise<string> {
  const r = await fetch(action, { method: "POST", body, redirect: "manual", headers: { Accept: BROWSER_ACCEPT } });
  const text = await r.text();
  assert.equal(r.status, 303, text);
  const task = r.headers.get("location") ?? "";
  assert.match(task, /\/task\/[a-z0-9]{12}$/);
  const done = await waitForTask(task, 600_000);
  assert.equal(done.status, 200, `${task}: ${done.body}`);
  return done.body;
}

/** The required fields of a form are exactly `names` (each filled by the test; all others are sent empty). */
function assertRequired(fields: readonly Field[], names: readonly string[]): void {
  assert.deepEqual([...new Set(fields.filter((f) => f.required).map((f) => f.name))].sort(), [...names].sort());
}

/** ot:parameters of a resource (model, feature dataset) as name → value. */
async function parameters(base: string, uri: string): Promise<Record<string, string>> {
  const rows = await sparqlSelect(base, `PREFIX ot: <${OT}> PREFIX dc: <http://purl.org/dc/elements/1.1/> SELECT ?n ?v WHERE { GRAPH <${uri}> { <${uri}> ot:parameters ?p . ?p dc:title ?n ; ot:paramValue ?v } }`);
  return Object.fromEntries(rows.map((r) => [r.n!.value, r.v!.value]));
}

/** The number of features of a dataset. */
async function featureCount(base: string, uri: string): Promise<number> {
  const [row] = await sparqlSelect(base, `PREFIX ot: <${OT}> SELECT (COUNT(?f) AS ?n) WHERE { GRAPH <${uri}> { ?f a ot:Feature } }`);
  return Number(row?.n?.value ?? 0);
}

describe("every form submitted with only its required fields", () => {
  const srv = useServer({ upload: { hamster: HAMSTER } });
  let descriptors = "";

  test("the upload form (multipart): 303 to the task, a dataset of 85 compounds", async () => {
    const { enctype, fields } = await servedForm(`${srv.base}/dataset`, `${srv.base}/dataset`);
    assert.equal(enctype, "multipart/form-data");
    assert.deepEqual(fields.map((f) => [f.name, f.type]), [["file", "file"]]);
    const form = new FormData();
    form.set("file", new Blob([readFileSync(HAMSTER)], { type: "text/csv" }), "hamster_carcinogenicity.csv");
    const dataset = await submit(`${srv.base}/dataset`, form);
    assert.match(dataset, /\/dataset\/[a-z0-9]{12}$/);
    assert.equal((await (await get(`${dataset}/compounds`, "text/uri-list")).text()).split(/\r?\n/).filter(Boolean).length, 85);
  });

  test("/algorithm/qsar: the dataset chosen from the select, all else empty → the default model (kernel SVM, confidence level 0.8)", async () => {
    const url = `${srv.base}/algorithm/qsar`;
    const { fields } = await servedForm(url, url);
    assertRequired(fields, ["dataset_uri"]);
    assert.ok(fields.length >= 18, `${fields.length} fields: one per parameter, two for a dataset or the endpoint`);
    for (const f of fields) if (f.name !== "dataset_uri") assert.equal(f.value, "", `${f.name} starts empty`);
    const model = await submit(url, browserBody(fields, { dataset_uri: srv.datasets.hamster }));
    assert.match(model, /\/model\/[a-z0-9]{12}$/);
    const p = await parameters(srv.base, model);
    assert.equal(p.prediction_algorithm, "kernel_svm");
    assert.equal(p.confidence_level, "0.8");
    assert.equal(p.prediction_feature, `${srv.datasets.hamster}/feature/Hamster%20Carcinogenicity`, "the dataset's only feature");
  });

  test("/algorithm/qsar with only prediction_algorithm=weighted_majority_vote chosen → lazar with BBRC features and lazar's defaults (no 'pc_type does not apply')", async () => {
    const url = `${srv.base}/algorithm/qsar`;
    const { fields } = await servedForm(url, url);
    const model = await submit(url, browserBody(fields, { dataset_uri: srv.datasets.hamster, prediction_algorithm: "weighted_majority_vote" }));
    const p = await parameters(srv.base, model);
    assert.equal(p.prediction_algorithm, "weighted_majority_vote");
    assert.equal(p.feature_generation_uri, `${srv.base}/algorithm/miner/bbrc`);
    assert.equal(p.min_sim, "0.3", "docs/lazar-method.md: 0.3 for substructures");
    assert.equal(p.nr_hits, "false", "the weighted majority vote's default");
  });

  test("BBRC (/algorithm/miner/bbrc): min_frequency 5pm → 2 compounds, backbone, trees, the visit limit", async () => {
    const url = `${srv.base}/algorithm/miner/bbrc`;
    const { fields } = await servedForm(url, url);
    assertRequired(fields, ["dataset_uri"]);
    const fd = await submit(url, browserBody(fields, { dataset_uri: srv.datasets.hamster }));
    assert.match(fd, /\/dataset\/[a-z0-9]{12}$/);
    const p = await parameters(srv.base, fd);
    assert.deepEqual([p.min_frequency, p.absolute_min_frequency, p.backbone, p.feature_type, p.max_visited, p.nr_hits], ["5pm", "2", "true", "trees", "500000", "false"]);
    assert.ok((await featureCount(srv.base, fd)) > 0, "substructures found");
  });

  test("LAST-PM (/algorithm/miner/last): min_frequency 80pm → 6 compounds", async () => {
    const url = `${srv.base}/algorithm/miner/last`;
    const { fields } = await servedForm(url, url);
    assertRequired(fields, ["dataset_uri"]);
    const fd = await submit(url, browserBody(fields, { dataset_uri: srv.datasets.hamster }));
    const p = await parameters(srv.base, fd);
    assert.deepEqual([p.min_frequency, p.absolute_min_frequency, p.max_visited], ["80pm", "6", "500000"]);
  });

  test("descriptors (/algorithm/pc/AllDescriptors): every pc_type of the CDK set", async () => {
    const url = `${srv.base}/algorithm/pc/AllDescriptors`;
    const { fields } = await servedForm(url, url);
    assertRequired(fields, ["dataset_uri"]);
    descriptors = await submit(url, browserBody(fields, { dataset_uri: srv.datasets.hamster }));
    const p = await parameters(srv.base, descriptors);
    assert.deepEqual([p.pc_type, p.lib], ["constitutional,electronic,topological,geometrical,cpsa,hybrid", "cdk"]);
  });

  test("feature selection (/algorithm/fs/rfe): the descriptors chosen from the select (computed datasets), seed 1, del_missing false", async () => {
    assert.ok(descriptors, "the descriptors test ran first");
    const url = `${srv.base}/algorithm/fs/rfe`;
    const { fields } = await servedForm(url, url);
    assertRequired(fields, ["dataset_uri", "feature_dataset_uri"]);
    const fd = await submit(url, browserBody(fields, { dataset_uri: srv.datasets.hamster, feature_dataset_uri: descriptors }));
    const p = await parameters(srv.base, fd);
    assert.deepEqual([p.random_seed, p.del_missing], ["1", "false"]);
    const selected = await featureCount(srv.base, fd);
    assert.ok(selected > 0 && selected < (await featureCount(srv.base, descriptors)), `${selected} features selected`);
  });

  test("every alias serves its algorithm's form (same fields, posting to the algorithm's URI)", async () => {
    const aliases: [string, string][] = [
      ["lazar", "qsar"],
      ["fminer/bbrc", "miner/bbrc"],
      ["fminer", "miner/bbrc"],
      ["fminer/last", "miner/last"],
      ["feature_selection/rfe", "fs/rfe"],
    ];
    for (const [alias, path] of aliases) {
      const action = `${srv.base}/algorithm/${path}`;
      const own = await servedForm(action, action);
      const other = await servedForm(`${srv.base}/algorithm/${alias}`, action);
      assert.deepEqual(other.fields, own.fields, alias);
    }
  });

  let cv = "";
  test("the cross-validation form (GET /validation/crossvalidation): qsar preselected, the dataset chosen → 10 folds, seed 1, not stratified, the kernel model", async () => {
    const action = `${srv.base}/validation/crossvalidation`;
    const { fields } = await servedForm(action, action);
    assertRequired(fields, ["algorithm_uri", "dataset_uri"]);
    const algorithm = fields.find((f) => f.name === "algorithm_uri")!;
    assert.equal(algorithm.value, `${srv.base}/algorithm/qsar`, "qsar first, selected");
    for (const f of fields) if (!["algorithm_uri", "dataset_uri"].includes(f.name)) assert.equal(f.value, "", `${f.name} starts empty`);
    cv = await submit(action, browserBody(fields, { dataset_uri: srv.datasets.hamster }));
    assert.match(cv, /\/validation\/crossvalidation\/[a-z0-9]{12}$/);
    const [row] = await sparqlSelect(
      srv.base,
      `PREFIX qg: <${QG_NS}> SELECT ?k ?s ?st ?a (COUNT(DISTINCT ?f) AS ?folds) WHERE { GRAPH <${cv}> { <${cv}> qg:numFolds ?k ; qg:randomSeed ?s ; qg:stratified ?st ; qg:predictionAlgorithm ?a ; qg:prediction ?p . ?p qg:fold ?f } } GROUP BY ?k ?s ?st ?a`,
    );
    assert.deepEqual([row?.k?.value, row?.s?.value, row?.st?.value, row?.a?.value, row?.folds?.value], ["10", "1", "false", "kernel_svm", "10"], "ten folds, each with predictions");
  });

  test("the report form (on /validation and /validation/crossvalidation): the newest cross-validation checked → its report", async () => {
    const action = `${srv.base}/validation/report/crossvalidation`;
    for (const page of [`${srv.base}/validation`, `${srv.base}/validation/crossvalidation`]) {
      const { fields } = await servedForm(page, action);
      assert.deepEqual(fields.map((f) => [f.name, f.type, f.value]), [["validation_uris", "checkbox", cv]], page);
    }
    const { fields } = await servedForm(`${srv.base}/validation`, action);
    const report = await submit(action, browserBody(fields, {}));
    assert.match(report, /\/validation\/report\/crossvalidation\/[a-z0-9]{12}$/);
    const html = await (await get(report, "text/html")).text();
    assert.ok(html.includes(`href="${cv}"`), "the report shows the cross-validation");
  });

  test("the report form with two cross-validations checked (the parameter repeated) → a comparison of both", async () => {
    const action = `${srv.base}/validation/report/crossvalidation`;
    const second = await submit(`${srv.base}/validation/crossvalidation`, new URLSearchParams({ algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: srv.datasets.hamster, prediction_feature: "", algorithm_params: "", num_folds: "2", random_seed: "", stratified: "" }));
    const { fields } = await servedForm(`${srv.base}/validation/crossvalidation`, action);
    assert.deepEqual(fields.map((f) => f.value), [second, null], "the newest first, checked");
    const body = new URLSearchParams([["validation_uris", second], ["validation_uris", cv]]);
    const report = await submit(action, body);
    const html = await (await get(report, "text/html")).text();
    assert.match(html, /Comparison of 2 cross-validations/);
  });

  test("forms are prefilled from the query string: a listed dataset is selected, an unlisted URI goes to the text field, a value to its field", async () => {
    const endpoint = `${srv.datasets.hamster}/feature/Hamster%20Carcinogenicity`;
    const q = new URLSearchParams({ dataset_uri: srv.datasets.hamster, prediction_feature: endpoint, algorithm_params: "prediction_algorithm=weighted_majority_vote", num_folds: "5" });
    const action = `${srv.base}/validation/crossvalidation`;
    const { fields } = await servedForm(`${action}?${q}`, action);
    const values = (name: string): (string | null)[] => fields.filter((f) => f.name === name).map((f) => f.value);
    assert.deepEqual(values("dataset_uri"), [srv.datasets.hamster, ""], "selected in the select, the text field empty");
    assert.deepEqual(values("prediction_feature"), [endpoint, ""]);
    assert.deepEqual(values("algorithm_params"), ["prediction_algorithm=weighted_majority_vote"]);
    assert.deepEqual(values("num_folds"), ["5"]);
    const unlisted = `${srv.base}/dataset/nnnnnnnnnnnn`;
    const qsar = await servedForm(`${srv.base}/algorithm/qsar?dataset_uri=${encodeURIComponent(unlisted)}&prediction_algorithm=weighted_majority_vote`, `${srv.base}/algorithm/qsar`);
    assert.deepEqual(qsar.fields.filter((f) => f.name === "dataset_uri").map((f) => f.value), ["", unlisted]);
    assert.deepEqual(qsar.fields.filter((f) => f.name === "prediction_algorithm").map((f) => f.value), ["weighted_majority_vote"]);
    assert.match(qsar.html, /<details open>/, "an optional parameter given: its section is open");
  });

  test("a submit with a required field left empty is refused with 400 naming it, and nothing runs", async () => {
    const url = `${srv.base}/algorithm/qsar`;
    const { fields } = await servedForm(url, url);
    const r = await fetch(url, { method: "POST", body: browserBody(fields, {}), redirect: "manual", headers: { Accept: BROWSER_ACCEPT } });
    assert.equal(r.status, 400);
    assert.match(await r.text(), /dataset_uri/);
  });
});

describe("the form pages on a Kazius-sized store with many datasets", () => {
  const srv = useServer({ upload: { kazius: KAZIUS } });

  test("the forms list every dataset (Kazius: 4068 compounds) and answer quickly (times printed; docs/benchmarks.md)", async () => {
    // 40 more small datasets, so that the selects list many
    for (let k = 0; k < 40; k++) await uploadCsv(srv.base, `SMILES,activity\nCCO,${k}\nc1ccccc1,${k + 1}\nCCN,${k + 2}\n`, `small-${k}.csv`);
    const pages = [`${srv.base}/algorithm/qsar`, `${srv.base}/algorithm/fs/rfe`, `${srv.base}/validation/crossvalidation`, `${srv.base}/validation`];
    for (const url of pages) {
      await (await get(url, "text/html")).text(); // warm
      const times: number[] = [];
      let html = "";
      for (let i = 0; i < 5; i++) {
        const t0 = performance.now();
        const r = await get(url, "text/html");
        html = await r.text();
        times.push(performance.now() - t0);
        assert.equal(r.status, 200);
      }
      times.sort((a, b) => a - b);
      console.log(`${url.slice(srv.base.length)}: median ${times[2]!.toFixed(1)} ms, max ${times[4]!.toFixed(1)} ms (${html.length} bytes)`);
      if (url.includes("/algorithm/") || url.endsWith("/crossvalidation")) {
        assert.match(html, /kazius — 4068 compounds/, "4069 rows, 4068 compounds: one tautomer pair shares a standard InChI (datasets.test.ts)");
        assert.equal((html.match(/small-\d+ — 3 compounds/g) ?? []).length / (html.match(/name="feature_dataset_uri"/) ? 2 : 1), 40, "every small dataset in each dataset select");
      }
    }
  });
});
