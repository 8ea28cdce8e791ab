/**
 * HTML of datasets: the list (paged), one dataset (summary, warnings, and its table paged in both
 * directions: a page of rows × a page of columns, with the features section showing the same
 * columns' metadata), one feature.
 */
import type { CompoundView, DatasetSummary, EntryView, FeatureView } from "../../resources/dataset-read.ts";
import { explainSubstructure, type MinedEndpoint } from "../../resources/feature-explain.ts";
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
  return page(`Dataset: ${s.title}`, summary + featuresSection(d.features, s.featureCount, columnNav, d.endpoint) + warningsSection(s.warnings) + table, {
    base,
    self: s.uri,
    formats: ["ttl", "nt", "jsonld", "json", "rdf", "csv", "uri"],
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
