/**
 * HTML of datasets: the list (sorted, paged), one dataset (summary, the models, cross-validations
 * and predictions made from it, what can be done with it, warnings, and its table paged in both
 * directions: a page of rows × a page of columns, with the features section showing the same
 * columns' metadata), one feature.
 */
import type { CompoundView, DatasetSummary, EntryView, FeatureView } from "../../resources/dataset-read.ts";
import type { DatasetRow, ModelRow, ValidationRow } from "../../resources/listings.ts";
import { explainSubstructure, type MinedEndpoint } from "../../resources/feature-explain.ts";
import { pageNav, pageParams, ROWS, type Page, type PageSpec } from "../paging.ts";
import { dl, esc, link, page, withFormat } from "./layout.ts";
import { LIBS, PC_TYPES } from "../../chem/descriptors/index.ts";
import { modelLabel } from "./predict.ts";
import { dateCell, dateValue, listTable, type ListColumn, type ListPage } from "./list.ts";

/** Columns (features) of a dataset's table. */
export const COLUMNS: PageSpec = { pageParam: "column_page", sizeParam: "column_page_size", defaultSize: 100, maxSize: 500, items: "features" };

/** Rows of the dataset list. */
export const DATASET_LIST: PageSpec = { ...ROWS, items: "datasets" };

const KIND: Readonly<Record<DatasetRow["kind"], string>> = { upload: "upload", computed: "computed from", prediction: "predictions of" };

/** An integer for a table cell ("" when unknown). */
export function count(n: number | undefined): string {
  return n === undefined ? "" : n.toLocaleString("en");
}

/** The dataset list's columns: title, kind (and where from), date, compounds (the size), rows, features. */
export const DATASET_COLUMNS: readonly ListColumn<DatasetRow>[] = [
  { title: "Title", cell: (d) => link(d.uri, d.title || d.uri), sort: { key: "title", value: (d) => d.title || d.uri, natural: "asc" } },
  { title: "Kind", cell: (d) => `${esc(KIND[d.kind])}${d.from ? ` ${link(d.from, d.from.slice(d.from.lastIndexOf("/") + 1))}` : ""}` },
  { title: "Created", cell: (d) => dateCell(d.created), sort: { key: "date", value: (d) => dateValue(d.created), natural: "desc" } },
  { title: "Compounds", cell: (d) => count(d.compounds), numeric: true, sort: { key: "size", value: (d) => d.compounds, natural: "desc" } },
  { title: "Rows", cell: (d) => count(d.entries), numeric: true },
  { title: "Features", cell: (d) => count(d.features), numeric: true },
];

/** The upload form (multipart `file`), on the dataset list and the home page. */
export function uploadForm(base: string, heading = "h2"): string {
  return `<${heading} id="upload-heading">Upload a CSV or SD file</${heading}><form method="post" id="upload" action="${esc(base)}/dataset" enctype="multipart/form-data" aria-labelledby="upload-heading"><p><label for="upload-file">File (CSV with a SMILES or InChI column, or SD file)</label> <input type="file" name="file" accept=".csv,.tsv,.txt,text/csv,.sdf,.sd,.mol,chemical/x-mdl-sdfile" id="upload-file" required> <button type="submit">Upload</button></p></form>`;
}

export function datasetListHtml(p: ListPage<DatasetRow>, base: string): string {
  return page("Datasets", `${listTable("Datasets, with their size", p, DATASET_COLUMNS, DATASET_LIST)}${uploadForm(base)}`, { base, self: `${base}/dataset`, formats: ["uri", "ttl", "json"] });
}

function propertyText(f: FeatureView): string {
  return f.properties.map(([k, v]) => `${esc(k)}: <span class="mono">${esc(v)}</span>`).join("<br>");
}

function featureRows(f: FeatureView, computed: boolean): string {
  const extra = computed ? `<td>${propertyText(f)}</td>` : "";
  return `<tr id="${esc("f-" + f.index)}"><td>${link(f.uri, f.title)}</td><td>${esc(f.types.join(", "))}</td><td>${esc(f.acceptValues.join(", "))}</td><td>${esc(f.description)}</td>${extra}<td>${link(f.source)}</td></tr>`;
}

/** The picture of a mined substructure (its feature's SVG, drawn by the chem pool when the browser asks). */
function patternImg(f: FeatureView, width: number, height: number, lazy: boolean): string {
  return `<img src="${esc(`${f.uri}?format=svg&width=${width}&height=${height}`)}" alt="${esc(`substructure ${f.substructure?.smarts ?? f.title}`)}" width="${width}" height="${height}"${lazy ? ' loading="lazy"' : ""}>`;
}

/** "false: 5 of 40, true: 0 of 45": the compounds with the pattern per class, of the class's training compounds. */
function classCountsText(f: FeatureView, endpoint: MinedEndpoint | null | undefined): string {
  const counts = new Map(f.substructure?.classCounts ?? []);
  if (!endpoint || endpoint.classes.length === 0) return [...counts].map(([c, n]) => `${c}: ${n}`).join(", ");
  return endpoint.classes.map((c, i) => `${c}: ${counts.get(c) ?? 0} of ${endpoint.sizes[i] ?? 0}`).join(", ");
}

const PATTERN_NOTE = `<p>Each substructure was mined from the training data; the sentence says in which class it is more frequent (or, for a numeric endpoint, whether compounds that contain it have lower or higher values), with the p-value of the miner's test: χ² (fminer's statistic; BBRC with one degree of freedom, LAST-PM with one less than the number of classes) or Kuiper's test. The stored <code>ot:pValue</code> is lazar's weight, 1 − p; <code>ot:effect</code> is the class number. Both are on each feature's page.</p>`;

/** The features of a mined dataset: each substructure's picture and what it says. */
function substructureSection(features: readonly FeatureView[], total: number, nav: string, endpoint: MinedEndpoint | null | undefined): string {
  const classified = endpoint ? endpoint.classes.length > 0 : features.some((f) => f.substructure && f.substructure.classCounts.length > 0);
  const rows = features
    .map((f) => {
      if (!f.substructure) return `<tr id="${esc("f-" + f.index)}"><td></td><td>${link(f.uri, f.title)}</td><td>${esc(f.description)}</td>${classified ? "<td></td>" : ""}</tr>`;
      const x = explainSubstructure(f.substructure, endpoint ?? null);
      return `<tr id="${esc("f-" + f.index)}"><td>${patternImg(f, 160, 110, true)}</td><td><a href="${esc(f.uri)}" class="mono">${esc(f.substructure.smarts)}</a></td><td>${esc(x.sentence)}</td>${classified ? `<td>${esc(classCountsText(f, endpoint))}</td>` : ""}</tr>`;
    })
    .join("");
  const head = `<tr><th scope="col">Substructure</th><th scope="col">SMARTS</th><th scope="col">What it says</th>${classified ? `<th scope="col">Compounds with it, by class</th>` : ""}</tr>`;
  return `<section id="features"><h2>Features (${total})</h2>${PATTERN_NOTE}${nav}<table>${head}${rows}</table></section>`;
}

/** The features of one page of columns (`nav` moves between them); a miner's substructures with pictures and words. */
export function featuresSection(features: readonly FeatureView[], total: number, nav: string, endpoint?: MinedEndpoint | null): string {
  if (features.some((f) => f.substructure)) return substructureSection(features, total, nav, endpoint);
  const computed = features.some((f) => f.properties.length > 0);
  return `<section id="features"><h2>Features (${total})</h2>${nav}<table><tr><th>Feature</th><th>Types</th><th>Accept values</th><th>Description</th>${computed ? "<th>Properties</th>" : ""}<th>Source</th></tr>${features.map((f) => featureRows(f, computed)).join("")}</table></section>`;
}

function warningsSection(ws: DatasetSummary["warnings"]): string {
  if (ws.length === 0) return `<section id="warnings"><h2>Warnings</h2><p>None.</p></section>`;
  const rows = ws
    .map((w) => `<tr class="warn"><td>${esc(w.kind)}</td><td>${esc(w.message)}</td><td>${esc(w.lines.slice(0, 20).join(", "))}${w.lines.length > 20 ? " …" : ""}</td></tr>`)
    .join("");
  return `<section id="warnings"><h2>Warnings (${ws.length})</h2><table><tr><th>Kind</th><th>Message</th><th>Lines</th></tr>${rows}</table></section>`;
}

/** What one page of a dataset shows: its summary, a page of rows × a page of columns. */
export interface DatasetPage {
  readonly summary: Omit<DatasetSummary, "features"> & { readonly featureCount: number };
  readonly features: readonly FeatureView[];
  readonly entries: readonly EntryView[];
  readonly compounds: ReadonlyMap<string, CompoundView | null>;
  readonly rows: Page;
  readonly columns: Page;
  /** A mined dataset's endpoint (the words of its features), when it has substructures. */
  readonly endpoint?: MinedEndpoint | null;
  /** What was made from the dataset and what can be done with it (resources/listings.ts). */
  readonly related: DatasetRelated;
}

export interface DatasetRelated {
  /** Models trained on it, cross-validations of it, predictions of it (datasets), newest first. */
  readonly models: readonly ModelRow[];
  readonly validations: readonly ValidationRow[];
  readonly predictions: readonly DatasetRow[];
  /** Models to predict it with, newest first (a few). */
  readonly predictWith: readonly ModelRow[];
  /** The models and cross-validations naming it as training or feature dataset (it cannot be deleted while there are any). */
  readonly usedBy: number;
}

/** A number with at most `digits` decimals ("" when unknown). */
export function decimal(x: number | undefined, digits = 3): string {
  return x === undefined || !Number.isFinite(x) ? "" : String(Number(x.toFixed(digits)));
}

/** A cross-validation's headline figure: accuracy (classification) or RMSE (regression). */
export function headline(v: ValidationRow): string {
  if (v.accuracy !== undefined) return `accuracy ${decimal(v.accuracy)}`;
  if (v.rmse !== undefined) return `RMSE ${decimal(v.rmse)}`;
  return "";
}

function modelsSection(models: readonly ModelRow[]): string {
  const rows = models.map((m) => `<tr><td>${link(m.uri, m.title || m.uri)}</td><td>${esc(m.algorithm)}</td><td>${esc(m.endpointTitle)}</td><td class="num">${count(m.trainingCompounds)}</td><td>${dateCell(m.created)}</td></tr>`).join("");
  const body = models.length === 0 ? "<p>No model has been trained on this dataset yet.</p>" : `<table><thead><tr><th scope="col">Model</th><th scope="col">Algorithm</th><th scope="col">Endpoint</th><th scope="col" class="num">Training compounds</th><th scope="col">Created</th></tr></thead><tbody>${rows}</tbody></table>`;
  return `<section id="models"><h2>Models (${models.length})</h2>${body}</section>`;
}

function validationsSection(vs: readonly ValidationRow[]): string {
  const rows = vs.map((v) => `<tr><td>${link(v.uri, v.title || v.uri)}</td><td>${esc(v.algorithm ?? "")}</td><td class="num">${count(v.folds)}</td><td class="num">${count(v.instances)}</td><td>${esc(headline(v))}</td><td>${dateCell(v.created)}</td></tr>`).join("");
  const body = vs.length === 0 ? "<p>No cross-validation of this dataset yet.</p>" : `<table><thead><tr><th scope="col">Cross-validation</th><th scope="col">Algorithm</th><th scope="col" class="num">Folds</th><th scope="col" class="num">Compounds</th><th scope="col">Result</th><th scope="col">Created</th></tr></thead><tbody>${rows}</tbody></table>`;
  return `<section id="validations"><h2>Cross-validations (${vs.length})</h2>${body}</section>`;
}

function predictionsSection(ps: readonly DatasetRow[]): string {
  if (ps.length === 0) return "";
  const rows = ps.map((p) => `<tr><td>${link(p.uri, p.title || p.uri)}</td><td>${p.from ? link(p.from) : ""}</td><td>${dateCell(p.created)}</td></tr>`).join("");
  return `<section id="predictions"><h2>Predictions of this dataset (${ps.length})</h2><table><thead><tr><th scope="col">Prediction dataset</th><th scope="col">Model</th><th scope="col">Created</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** The links and small forms of "What you can do with this dataset". */
function actionsSection(s: DatasetPage["summary"], r: DatasetRelated, base: string): string {
  const q = `dataset_uri=${encodeURIComponent(s.uri)}`;
  const pcTypes = PC_TYPES.map((t) => `<option value="${esc(t)}">${esc(t)}</option>`).join("");
  const libs = LIBS.map((l) => `<option value="${esc(l)}">${esc(l)}</option>`).join("");
  const predict =
    r.predictWith.length === 0
      ? `<li>Predict this dataset with a model: no model yet.</li>`
      : `<li><form id="predict-dataset" method="post" action="${esc(base)}/model"><input type="hidden" name="dataset_uri" value="${esc(s.uri)}"><p><label for="predict-dataset-model">Predict this dataset with the model</label> <select id="predict-dataset-model" name="model_uri" required>${r.predictWith.map((m) => `<option value="${esc(m.uri)}">${esc(modelLabel({ uri: m.uri, title: m.title, endpoint: m.endpointTitle, algorithm: m.algorithm, ...(m.created !== undefined ? { created: m.created } : {}) }))}</option>`).join("")}</select> <button type="submit">Predict the dataset</button> (a task; its result is a prediction dataset)</p></form></li>`;
  const del =
    r.usedBy > 0
      ? `<li>Delete: not while ${r.usedBy} model${r.usedBy === 1 ? " or cross-validation uses" : "s or cross-validations use"} it (the DELETE answers 409 until they are deleted).</li>`
      : `<li><form id="delete" data-delete="${esc(s.uri)}" data-next="${esc(base)}/dataset" data-confirm="${esc(`Delete the dataset “${s.title}”? This cannot be undone.`)}" method="post" action="${esc(s.uri)}" hidden><p><button type="submit">Delete this dataset…</button> <output></output></p></form><noscript>Delete: <code>curl -X DELETE ${esc(s.uri)}</code> (deleting from the page needs JavaScript).</noscript> <span class="muted">With API tokens, only its creator or an admin may delete it.</span></li>`;
  return `<section id="actions"><h2>What you can do with this dataset</h2><ul class="actions">
<li>${link(`${base}/algorithm/qsar?${q}`, "Build a model")} (the model form, with this dataset filled in)</li>
<li>${link(`${base}/validation/crossvalidation?${q}`, "Cross-validate a model")} (the cross-validation form, with this dataset filled in)</li>
<li><form id="descriptors" method="post" action="${esc(s.uri)}/pc"><p>Compute physico-chemical descriptors: <label for="pc-type">categories</label> <select id="pc-type" name="pc_type"><option value="">all (default)</option>${pcTypes}</select> <label for="pc-lib">library</label> <select id="pc-lib" name="lib"><option value="">cdk (default)</option>${libs}</select> <button type="submit">Compute descriptors</button></p></form></li>
<li>Mine substructures: ${link(`${base}/algorithm/miner/bbrc?${q}`, "BBRC")}, ${link(`${base}/algorithm/miner/last?${q}`, "LAST-PM")} (the miners' forms, with this dataset filled in)</li>
${predict}
<li>${link(withFormat(s.uri, "csv"), "Download as CSV")}</li>
${del}
</ul></section>`;
}

export function datasetHtml(d: DatasetPage, base: string): string {
  const s = d.summary;
  const origin: [string, string][] =
    s.source !== undefined && s.algorithm !== undefined
      ? [
          ["Computed from", link(s.source)],
          ["Algorithm", link(s.algorithm)],
          ["Parameters", s.parameters.map(([k, v]) => `<code>${esc(k)}</code> = <span class="mono">${esc(v)}</span>`).join("<br>")],
        ]
      : [["File", esc(s.fileName)]];
  const summary = dl([
    ["URI", `<span class="mono">${esc(s.uri)}</span>`],
    ...origin,
    ["Created", esc(s.created)],
    ["Compounds", String(s.compounds)],
    ["Rows", String(s.entries)],
    ["Features", String(s.featureCount)],
  ]);
  // Each dimension's links keep the other's page.
  const rowNav = pageNav(d.rows, ROWS, pageParams(d.columns, COLUMNS));
  const columnNav = pageNav(d.columns, COLUMNS, pageParams(d.rows, ROWS));
  const head = `<tr><th>Line</th><th>Structure</th><th>Identifiers</th>${d.features.map((f) => `<th>${esc(f.title)}</th>`).join("")}</tr>`;
  const body = d.entries
    .map((e) => {
      const c = d.compounds.get(e.compound);
      const img = `<img src="${esc(e.compound)}?format=svg" alt="${esc(c?.smiles ?? c?.inchi ?? "")}" width="150" height="100" loading="lazy">`;
      const ids = c ? `${link(e.compound, c.smiles ?? c.inchikey)}<br><span class="mono">${esc(c.inchi)}</span><br><span class="mono">${esc(c.inchikey)}</span>` : link(e.compound);
      return `<tr><td>${e.line}</td><td>${img}</td><td>${ids}</td>${d.features.map((f) => `<td>${esc((e.values.get(f.uri) ?? []).join(", "))}</td>`).join("")}</tr>`;
    })
    .join("");
  const table = `<section id="compounds"><h2>Compounds</h2>${rowNav}${columnNav}<table>${head}${body}</table>${rowNav}${columnNav}</section>`;
  const related = actionsSection(s, d.related, base) + modelsSection(d.related.models) + validationsSection(d.related.validations) + predictionsSection(d.related.predictions);
  return page(`Dataset: ${s.title}`, summary + related + featuresSection(d.features, s.featureCount, columnNav, d.endpoint) + warningsSection(s.warnings) + table, {
    base,
    self: s.uri,
    formats: ["ttl", "nt", "jsonld", "json", "rdf", "csv", "uri"],
    scripts: ["delete.js"],
  });
}

export function featureHtml(f: FeatureView, datasetUri: string, base: string, endpoint: MinedEndpoint | null = null): string {
  const sub = f.substructure;
  if (sub) {
    const x = explainSubstructure(sub, endpoint);
    const words = `<p>${patternImg(f, 300, 200, false)}</p><p id="explanation"><strong>${esc(x.sentence.charAt(0).toUpperCase() + x.sentence.slice(1))}.</strong></p>`;
    const rows: [string, string][] = [
      ["SMARTS", `<span class="mono">${esc(sub.smarts)}</span>`],
      ["p-value", `${esc(x.pText)} (${esc(x.test)}${x.df !== undefined ? `, ${x.df} degree${x.df === 1 ? "" : "s"} of freedom` : ""}): the probability of an association at least this strong by chance`],
      ["Effect", esc(x.effectClass !== undefined ? `more frequent in compounds with ${endpoint?.title ?? "the endpoint"} = ${x.effectClass}` : x.direction ? `compounds with it have ${x.direction} values of ${endpoint?.title ?? "the endpoint"} than the training data as a whole` : "none")],
      ["Compounds with it", `${esc(sub.support ?? "–")}${endpoint ? ` of ${endpoint.instances}` : ""}${sub.classCounts.length > 0 ? ` (${esc(classCountsText(f, endpoint))})` : ""}`],
      ["Endpoint", endpoint ? link(endpoint.uri, endpoint.title) : "unknown"],
      ["Stored ot:pValue", esc(x.storedPValue)],
      ["Stored ot:effect", esc(x.storedEffect)],
      ["Statistic", `<span class="mono">${esc(sub.statistic ?? "–")}</span>`],
      ["URI", `<span class="mono">${esc(f.uri)}</span>`],
      ["Dataset", link(datasetUri)],
      ["Source", link(f.source)],
    ];
    return page(`Substructure ${sub.smarts}`, words + dl(rows), { base, self: f.uri, formats: ["ttl", "json", "rdf", "svg"] });
  }
  return page(`Feature: ${f.title}`, dl([
    ["URI", `<span class="mono">${esc(f.uri)}</span>`],
    ["Dataset", link(datasetUri)],
    ["Types", esc(f.types.join(", "))],
    ["Accept values", esc(f.acceptValues.join(", "))],
    ["Description", esc(f.description)],
    ...f.properties.map(([k, v]): [string, string] => [k, `<span class="mono">${esc(v)}</span>`]),
    ["Source", link(f.source)],
  ]), { base, self: f.uri, formats: ["ttl", "json", "rdf"] });
}
