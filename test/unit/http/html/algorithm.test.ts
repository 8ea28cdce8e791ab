/**
 * html/algorithm.ts: the widgets of the forms generated from AlgorithmSpecs, on choices this test
 * makes (two uploads, one computed dataset). Checked: one widget per parameter kind as documented
 * in the module; every optional field sends nothing until filled (empty value, or a select whose
 * selected option is ""), required ones say so; every field has a label and its help text; values
 * from the query string are filled in; every served algorithm's form (and the cross-validation's)
 * holds every parameter of its spec.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ALGORITHMS } from "../../../../src/algorithms/index.ts";
import { CROSSVALIDATION } from "../../../../src/algorithms/crossvalidation/spec.ts";
import type { ParamSpec } from "../../../../src/resources/algorithm.ts";
import type { DatasetChoices } from "../../../../src/resources/form-choices.ts";
import { algorithmHtml, datasetLabel, helpText, paramRow, paramsForm, paramWidget, prefillOf, type FormContext } from "../../../../src/http/html/algorithm.ts";

const BASE = "http://localhost:8080";
const H = `${BASE}/dataset/hhhhhhhhhhhh`;
const E = `${BASE}/dataset/eeeeeeeeeeee`;
const F = `${BASE}/dataset/ffffffffffff`;
const datasets: DatasetChoices = {
  total: 5,
  datasets: [
    { uri: H, title: "hamster", created: "2026-02-03T04:05:06.000Z", compounds: 85, computed: false, features: [{ uri: `${H}/feature/active`, title: "active" }], featureCount: 1 },
    { uri: E, title: "EPAFHM", created: "2026-02-01T00:00:00.000Z", compounds: 1, computed: false, features: [{ uri: `${E}/feature/LC50`, title: "LC50" }], featureCount: 1 },
    { uri: F, title: "descriptors", created: "", compounds: 85, computed: true, features: [], featureCount: 300 },
  ],
};
const ctx: FormContext = { datasets, uriChoices: { algorithm_uri: [{ uri: `${BASE}/algorithm/qsar`, label: "qsar" }] } };

const p = (kind: ParamSpec["kind"], o: Partial<ParamSpec> = {}): ParamSpec => ({ name: "x", description: "what x is", required: false, kind, ...o });

/** The fields of some HTML with the value a browser would send untouched (selects: the selected or first option). */
function fields(html: string): { name: string; value: string; tag: string; id?: string; describedBy?: string }[] {
  const out: { name: string; value: string; tag: string; id?: string; describedBy?: string }[] = [];
  for (const m of html.matchAll(/<select\b([^>]*)>([\s\S]*?)<\/select>|<input\b([^>]*)>/g)) {
    const attrs = m[1] ?? m[3]!;
    const get = (n: string): string | undefined => new RegExp(`\\s${n}="([^"]*)"`).exec(attrs)?.[1];
    let value = get("value") ?? "";
    if (m[1] !== undefined) {
      const opts = [...m[2]!.matchAll(/<option value="([^"]*)"( selected)?>/g)];
      value = (opts.find((o) => o[2]) ?? opts[0])?.[1] ?? "";
    }
    out.push({ name: get("name")!, value, tag: m[1] !== undefined ? "select" : "input", id: get("id"), describedBy: get("aria-describedby") });
  }
  return out;
}

describe("widgets by kind", () => {
  test("a dataset: a select of the datasets (uploaded and computed apart; title, size, date) and a text field for another URI, both of its name", () => {
    const html = paramWidget(p({ type: "dataset" }, { name: "dataset_uri", required: true }), ctx, "p-dataset_uri");
    assert.match(html, /<option value="" selected>— choose a dataset —<\/option>/);
    assert.match(html, /<optgroup label="Uploaded datasets \(the 3 newest of 5\)">.*hamster — 85 compounds, 2026-02-03.*EPAFHM — 1 compound, 2026-02-01.*<\/optgroup>/);
    assert.match(html, /<optgroup label="Computed by the service \(the 3 newest of 5\)"><option value="http:\/\/localhost:8080\/dataset\/ffffffffffff">descriptors — 85 compounds<\/option>/);
    assert.match(html, /aria-required="true"/);
    assert.deepEqual(fields(html).map((f) => [f.name, f.tag, f.value]), [["dataset_uri", "select", ""], ["dataset_uri", "input", ""]]);
    assert.equal(datasetLabel(datasets.datasets[2]!), "descriptors — 85 compounds", "no date: none shown");
  });

  test("a dataset given in the query string: selected when listed, else in the text field", () => {
    const spec = p({ type: "dataset" }, { name: "dataset_uri", required: true });
    assert.deepEqual(fields(paramWidget(spec, { ...ctx, prefill: new Map([["dataset_uri", E]]) }, "d")).map((f) => f.value), [E, ""]);
    const other = `${BASE}/dataset/oooooooooooo`;
    assert.deepEqual(fields(paramWidget(spec, { ...ctx, prefill: new Map([["dataset_uri", other]]) }, "d")).map((f) => f.value), ["", other]);
  });

  test("the endpoint: the uploaded datasets' features grouped by dataset (for the script to filter), empty by default", () => {
    const html = paramWidget(p({ type: "feature" }, { name: "prediction_feature" }), ctx, "f");
    assert.match(html, /data-role="feature"/);
    assert.match(html, new RegExp(`<optgroup label="hamster" data-dataset="${H}"><option value="${H}/feature/active">active</option></optgroup><optgroup label="EPAFHM" data-dataset="${E}">`));
    assert.ok(!html.includes(F), "a computed dataset offers no endpoint");
    assert.match(html, /<option value="" selected>default \(the dataset&#39;s only feature\)<\/option>/);
  });

  test("an enum: 'default' sends nothing, the default value is marked; a boolean: default/true/false", () => {
    const e = paramWidget(p({ type: "enum", values: ["trees", "paths"] }, { default: "trees" }), ctx, "e");
    assert.match(e, /<option value="" selected>default \(trees\)<\/option><option value="trees">trees \(default\)<\/option><option value="paths">paths<\/option>/);
    const given = paramWidget(p({ type: "enum", values: ["trees", "paths"] }, { default: "trees" }), { ...ctx, prefill: new Map([["x", "paths"]]) }, "e");
    assert.deepEqual(fields(given).map((f) => f.value), ["paths"]);
    const b = paramWidget(p({ type: "boolean" }, { default: "true" }), ctx, "b");
    assert.deepEqual([...b.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]), ["", "true", "false"]);
    assert.deepEqual(fields(b).map((f) => f.value), [""]);
  });

  test("numbers: number fields with their bounds and step, the default as placeholder; required ones required", () => {
    assert.match(paramWidget(p({ type: "integer", min: 2, max: 100 }, { default: "10" }), ctx, "i"), /type="number" min="2" max="100" step="1" placeholder="10"/);
    assert.match(paramWidget(p({ type: "number", min: 0, max: 1 }), ctx, "n"), /type="number" min="0" max="1" step="any"/);
    assert.match(paramWidget(p({ type: "integer" }, { required: true }), ctx, "r"), / required>$/);
  });

  test("text, lists and frequencies: text fields (a frequency with its pattern); a URI with choices: a select", () => {
    assert.match(paramWidget(p({ type: "frequency" }), ctx, "q"), /type="text" size="60" pattern="\\d\+\(\\\.\\d\+\)\?\(pc\|pm\)\?"/);
    assert.match(paramWidget(p({ type: "list", values: ["a", "b"] }, { default: "a,b" }), ctx, "l"), /type="text" size="60" placeholder="a,b"/);
    const a = paramWidget(p({ type: "feature" }, { name: "algorithm_uri", required: true }), ctx, "a");
    assert.deepEqual(fields(a).map((f) => [f.tag, f.value]), [["select", `${BASE}/algorithm/qsar`]], "required: the first choice selected");
  });

  test("help text: the description, the form of the value, the default or that it is required", () => {
    assert.equal(helpText(p({ type: "list", values: ["a", "b"] }, { default: "a" })), "what x is. One or more of a, b, separated by commas. Empty: the default, a.");
    assert.equal(helpText(p({ type: "integer", min: 2, max: 100 }, { required: true })), "what x is. From 2 to 100. Required.");
    assert.equal(helpText(p({ type: "text" })), "what x is. Empty: the default.");
  });

  test("a row: label for the widget, '(required)' when required, help text referred to by aria-describedby", () => {
    const row = paramRow(p({ type: "integer" }, { name: "num_folds", required: true }), ctx, "cv-");
    assert.match(row, /<label for="cv-num_folds">num_folds<\/label> <span class="required">\(required\)<\/span>/);
    assert.match(row, /aria-describedby="cv-num_folds-help"/);
    assert.match(row, /<small id="cv-num_folds-help">/);
  });

  test("prefillOf: the first non-empty value of each name", () => {
    assert.deepEqual([...prefillOf({ a: ["", " x "], b: "", c: "y" })], [["a", "x"], ["c", "y"]]);
  });
});

describe("the forms of every served algorithm and of the cross-validation", () => {
  const specs = [...ALGORITHMS.map((a) => a.spec), CROSSVALIDATION];
  test("every parameter has a field; untouched, only required fields may send a value; every field is labelled and described", () => {
    for (const spec of specs) {
      const html = paramsForm(spec.parameters, `${BASE}/x`, ctx, "Run");
      const fs = fields(html);
      assert.deepEqual([...new Set(fs.map((f) => f.name))].sort(), spec.parameters.map((x) => x.name).sort(), spec.path);
      for (const f of fs) {
        const param = spec.parameters.find((x) => x.name === f.name)!;
        if (!param.required) assert.equal(f.value, "", `${spec.path} ${f.name} sends nothing untouched`);
        assert.ok(f.id && html.includes(`<label for="${f.id}"`), `${spec.path} ${f.name}: labelled (${f.id})`);
        assert.ok(f.describedBy && html.includes(`id="${f.describedBy}"`), `${spec.path} ${f.name}: help text`);
      }
    }
  });

  test("the optional parameters are folded unless one is given; the page names the forms script and says when there is no dataset", () => {
    const lazar = ALGORITHMS.find((a) => a.spec.path === "qsar")!.spec;
    assert.match(paramsForm(lazar.parameters, "u", ctx, "Run"), /<details><summary>Optional parameters \(16; empty fields take the default\)<\/summary>/);
    assert.match(paramsForm(lazar.parameters, "u", { ...ctx, prefill: new Map([["min_sim", "0.4"]]) }, "Run"), /<details open>/);
    assert.doesNotMatch(paramsForm(CROSSVALIDATION.parameters, "u", ctx, "Run", "cv-", false), /<details/);
    const page = algorithmHtml(lazar, `${BASE}/algorithm/qsar`, BASE, { datasets: { datasets: [], total: 0 } });
    assert.match(page, /<script src="http:\/\/localhost:8080\/static\/forms.js" defer><\/script>/);
    assert.match(page, /There is no dataset yet/);
  });
});
