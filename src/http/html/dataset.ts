/**
 * HTML of datasets: the list (paged), one dataset (summary, warnings, and its table paged in both
 * directions: a page of rows × a page of columns, with the features section showing the same
 * columns' metadata), one feature.
 */
import type { CompoundView, DatasetSummary, EntryView, FeatureView } from "../../resources/dataset-read.ts";
import { pageNav, pageParams, ROWS, type Page, type PageSpec } from "../paging.ts";
import { dl, esc, link, page } from "./layout.ts";

/** Columns (features) of a dataset's table. */
export const COLUMNS: PageSpec = { pageParam: "column_page", sizeParam: "column_page_size", defaultSize: 100, maxSize: 500, items: "features" };

export function datasetListHtml(list: readonly { uri: string; title: string }[], p: Page, base: string): string {
  const rows = list.map((d) => `<tr><td>${link(d.uri, d.title || d.uri)}</td><td class="mono">${esc(d.uri)}</td></tr>`).join("");
  const form = `<h2>Upload a CSV or SD file</h2><form method="post" action="${esc(base)}/dataset" enctype="multipart/form-data"><input type="file" name="file" accept=".csv,.tsv,.txt,text/csv,.sdf,.sd,.mol,chemical/x-mdl-sdfile"> <button>Upload</button></form>`;
  const nav = pageNav(p, { ...ROWS, items: "datasets" });
  return page("Datasets", `${nav}<table><tr><th>Title</th><th>URI</th></tr>${rows}</table>${nav}${form}`, { base, self: `${base}/dataset`, formats: ["uri", "ttl", "json"] });
}

function propertyText(f: FeatureView): string {
  return f.properties.map(([k, v]) => `${esc(k)}: <span class="mono">${esc(v)}</span>`).join("<br>");
}

function featureRows(f: FeatureView, computed: boolean): string {
  const extra = computed ? `<td>${propertyText(f)}</td>` : "";
  return `<tr id="${esc("f-" + f.index)}"><td>${link(f.uri, f.title)}</td><td>${esc(f.types.join(", "))}</td><td>${esc(f.acceptValues.join(", "))}</td><td>${esc(f.description)}</td>${extra}<td>${link(f.source)}</td></tr>`;
}

/** The features of one page of columns (`nav` moves between them). */
export function featuresSection(features: readonly FeatureView[], total: number, nav: string): string {
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
  return page(`Dataset: ${s.title}`, summary + featuresSection(d.features, s.featureCount, columnNav) + warningsSection(s.warnings) + table, {
    base,
    self: s.uri,
    formats: ["ttl", "nt", "jsonld", "json", "rdf", "csv", "uri"],
  });
}

export function featureHtml(f: FeatureView, datasetUri: string, base: string): string {
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
