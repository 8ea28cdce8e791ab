/**
 * HTML of datasets: the list, one dataset (summary, features section with each feature's
 * metadata, warnings, a paged table of compounds with depictions and values), one feature.
 */
import type { CompoundView, DatasetSummary, EntryView, FeatureView } from "../../resources/dataset-read.ts";
import { dl, esc, link, page } from "./layout.ts";

export function datasetListHtml(list: readonly { uri: string; title: string }[], base: string): string {
  const rows = list.map((d) => `<tr><td>${link(d.uri, d.title || d.uri)}</td><td class="mono">${esc(d.uri)}</td></tr>`).join("");
  const form = `<h2>Upload a CSV</h2><form method="post" action="${esc(base)}/dataset" enctype="multipart/form-data"><input type="file" name="file" accept=".csv,.tsv,text/csv"> <button>Upload</button></form>`;
  return page("Datasets", `<table><tr><th>Title</th><th>URI</th></tr>${rows}</table>${form}`, { base, self: `${base}/dataset`, formats: ["uri", "ttl", "json"] });
}

function propertyText(f: FeatureView): string {
  return f.properties.map(([k, v]) => `${esc(k)}: <span class="mono">${esc(v)}</span>`).join("<br>");
}

function featureRows(f: FeatureView, computed: boolean): string {
  const extra = computed ? `<td>${propertyText(f)}</td>` : "";
  return `<tr id="${esc("f-" + f.index)}"><td>${link(f.uri, f.title)}</td><td>${esc(f.types.join(", "))}</td><td>${esc(f.acceptValues.join(", "))}</td><td>${esc(f.description)}</td>${extra}<td>${link(f.source)}</td></tr>`;
}

export function featuresSection(features: readonly FeatureView[]): string {
  const computed = features.some((f) => f.properties.length > 0);
  return `<section id="features"><h2>Features (${features.length})</h2><table><tr><th>Feature</th><th>Types</th><th>Accept values</th><th>Description</th>${computed ? "<th>Properties</th>" : ""}<th>Source</th></tr>${features.map((f) => featureRows(f, computed)).join("")}</table></section>`;
}

function warningsSection(ws: DatasetSummary["warnings"]): string {
  if (ws.length === 0) return `<section id="warnings"><h2>Warnings</h2><p>None.</p></section>`;
  const rows = ws
    .map((w) => `<tr class="warn"><td>${esc(w.kind)}</td><td>${esc(w.message)}</td><td>${esc(w.lines.slice(0, 20).join(", "))}${w.lines.length > 20 ? " …" : ""}</td></tr>`)
    .join("");
  return `<section id="warnings"><h2>Warnings (${ws.length})</h2><table><tr><th>Kind</th><th>Message</th><th>Lines</th></tr>${rows}</table></section>`;
}

export function datasetHtml(
  s: DatasetSummary,
  entries: readonly EntryView[],
  compounds: ReadonlyMap<string, CompoundView | null>,
  paging: { page: number; pageSize: number },
  base: string,
): string {
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
    ["Features", String(s.features.length)],
  ]);
  const pages = Math.max(1, Math.ceil(s.entries / paging.pageSize));
  const nav = `<nav class="pages">Page ${paging.page} of ${pages}${paging.page > 1 ? ` <a href="?page=${paging.page - 1}&amp;page_size=${paging.pageSize}">previous</a>` : ""}${paging.page < pages ? ` <a href="?page=${paging.page + 1}&amp;page_size=${paging.pageSize}">next</a>` : ""}</nav>`;
  const head = `<tr><th>Line</th><th>Structure</th><th>Identifiers</th>${s.features.map((f) => `<th>${esc(f.title)}</th>`).join("")}</tr>`;
  const body = entries
    .map((e) => {
      const c = compounds.get(e.compound);
      const img = `<img src="${esc(e.compound)}?format=svg" alt="${esc(c?.smiles ?? c?.inchi ?? "")}" width="150" height="100" loading="lazy">`;
      const ids = c ? `${link(e.compound, c.smiles ?? c.inchikey)}<br><span class="mono">${esc(c.inchi)}</span><br><span class="mono">${esc(c.inchikey)}</span>` : link(e.compound);
      return `<tr><td>${e.line}</td><td>${img}</td><td>${ids}</td>${s.features.map((f) => `<td>${esc((e.values.get(f.uri) ?? []).join(", "))}</td>`).join("")}</tr>`;
    })
    .join("");
  const table = `<section id="compounds"><h2>Compounds</h2>${nav}<table>${head}${body}</table>${nav}</section>`;
  return page(`Dataset: ${s.title}`, summary + featuresSection(s.features) + warningsSection(s.warnings) + table, {
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
