/**
 * The home page as the service's workflow: upload a dataset → build a model → validate it →
 * predict, each step a sentence and the form or link that does it; a compound search box; the
 * most recent datasets, models and validations; then the collections and the service's figures.
 */
import type { DatasetRow, ModelRow, ValidationRow } from "../../resources/listings.ts";
import { uploadForm, count, headline } from "./dataset.ts";
import { esc, link, page } from "./layout.ts";
import { dateCell } from "./list.ts";
import { PREDICT_SCRIPTS, predictForm } from "./predict.ts";
import { compoundSearchForm } from "./compound.ts";

export interface HomePage {
  readonly version: string;
  /** Newest first; the page shows a few. */
  readonly datasets: readonly DatasetRow[];
  readonly models: readonly ModelRow[];
  readonly validations: readonly ValidationRow[];
  /** The collections: URI, title, what they hold. */
  readonly collections: readonly (readonly [string, string, string])[];
  readonly apiDescription: string;
  /** The service's figures (HTML paragraphs). */
  readonly facts: string;
}

/** Recent items the home page lists of each kind. */
export const RECENT = 5;

function recentTable(caption: string, head: readonly string[], rows: readonly string[], more: string): string {
  if (rows.length === 0) return "";
  return `<table><caption>${esc(caption)}</caption><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table><p>${more}</p>`;
}

export function homeHtml(h: HomePage, base: string): string {
  const uploads = h.datasets.filter((d) => d.kind === "upload").slice(0, RECENT);
  const q = (d: DatasetRow): string => `dataset_uri=${encodeURIComponent(d.uri)}`;
  const buildFrom = uploads.length === 0 ? "" : `<p>From a recent dataset: ${uploads.map((d) => link(`${base}/algorithm/qsar?${q(d)}`, d.title || d.uri)).join(", ")}.</p>`;
  const validateFrom = uploads.length === 0 ? "" : `<p>From a recent dataset: ${uploads.map((d) => link(`${base}/validation/crossvalidation?${q(d)}`, d.title || d.uri)).join(", ")}.</p>`;
  const predict = h.models.length === 0 ? `<p>Build a model first (step 2): then a box for a structure appears here.</p>` : predictForm({ base, models: h.models.map((m) => ({ uri: m.uri, title: m.title, endpoint: m.endpointTitle, algorithm: m.algorithm, ...(m.created !== undefined ? { created: m.created } : {}) })) });
  const steps = `<ol class="steps">
<li><h3>Upload your data</h3><p>A CSV file with a SMILES (or InChI) column and a measured endpoint — classes such as active/inactive or numbers — or an SD file. Every other column becomes a feature; a column headed "Name" names the compounds.</p>${uploadForm(base, "h4")}</li>
<li><h3>Build a model</h3><p>${link(`${base}/algorithm/qsar`, "The model form")} trains the default model on a dataset's endpoint; every parameter has a default.</p>${buildFrom}</li>
<li><h3>Validate it</h3><p>${link(`${base}/validation/crossvalidation`, "A cross-validation")} builds the model on nine tenths of the data and predicts the rest, ten times; its report shows how well the model predicts compounds it has not seen.</p>${validateFrom}</li>
<li><h3>Predict</h3><p>Give a structure to a model: the answer names the prediction, its confidence, and the training compounds it was based on.</p>${predict}</li>
</ol>`;
  const recent =
    recentTable("Recent datasets", ["Dataset", "Compounds", "Created"], h.datasets.slice(0, RECENT).map((d) => `<tr><td>${link(d.uri, d.title || d.uri)}</td><td class="num">${count(d.compounds)}</td><td>${dateCell(d.created)}</td></tr>`), link(`${base}/dataset`, "All datasets")) +
    recentTable("Recent models", ["Model", "Endpoint", "Created"], h.models.slice(0, RECENT).map((m) => `<tr><td>${link(m.uri, m.title || m.uri)}</td><td>${esc(m.endpointTitle)}</td><td>${dateCell(m.created)}</td></tr>`), link(`${base}/model`, "All models")) +
    recentTable("Recent validations", ["Validation", "Result", "Created"], h.validations.slice(0, RECENT).map((v) => `<tr><td>${link(v.uri, v.title || v.uri)}</td><td>${esc(headline(v))}</td><td>${dateCell(v.created)}</td></tr>`), link(`${base}/validation`, "All validations"));
  const collections = `<ul>${h.collections.map(([u, t, d]) => `<li>${link(u, t)}: ${esc(d)}</li>`).join("")}<li>${link(h.apiDescription, "API description")}: every path, parameter and answer of this service's HTTP API (OpenAPI 3.1, JSON)</li></ul>`;
  const body = `<p>QSAR modelling service (version ${esc(h.version)}): build models that predict a property of compounds from their structure, check how well they predict, and use them.</p>
<section id="workflow"><h2>From data to predictions</h2>${steps}</section>
<section id="find"><h2>Find a compound</h2>${compoundSearchForm(base)}</section>
${recent ? `<section id="recent"><h2>Recent work</h2>${recent}</section>` : ""}
<section id="collections"><h2>Everything the service holds</h2>${collections}</section>
<section id="service"><h2>The service</h2>${h.facts}</section>`;
  return page("qsargraph", body, { base, self: `${base}/`, formats: ["ttl", "json", "rdf"], scripts: PREDICT_SCRIPTS });
}
