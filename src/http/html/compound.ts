/**
 * HTML of compounds: one compound (its depiction, identifiers, the datasets it is in with its
 * values there, the predictions made for it), the compound list (paged, with structures), and the
 * compound search — by identifier or name (resources/compound-query.ts) and by substructure
 * (chem/substructure-search.ts).
 */
import type { CompoundResolution } from "../../resources/compound-query.ts";
import type { CompoundView } from "../../resources/dataset-read.ts";
import type { CompoundOccurrence } from "../../resources/listings.ts";
import { ROWS, pageNav, type Page, type PageSpec } from "../paging.ts";
import { dl, esc, link, page } from "./layout.ts";
import { dateCell, listTable, type ListColumn, type ListPage } from "./list.ts";
import { MAX_PATTERN_ATOMS, MAX_PATTERN_CHARS } from "../../chem/substructure-search.ts";

export const COMPOUND_LIST: PageSpec = { ...ROWS, items: "compounds" };

/** A structure thumbnail (the compound's SVG depiction, drawn by the service). */
export function thumbnail(c: Pick<CompoundView, "uri" | "smiles" | "inchi">, width = 150, height = 100): string {
  return `<img src="${esc(c.uri)}?format=svg&amp;width=${width}&amp;height=${height}" alt="${esc(c.smiles ?? c.inchi)}" width="${width}" height="${height}" loading="lazy">`;
}

/** The search boxes: one for an identifier or a name, one for a substructure. */
export function compoundSearchForm(base: string, q = "", substructure = ""): string {
  return `<form id="compound-search" method="get" action="${esc(base)}/compound" role="search"><p><label for="compound-q">SMILES, InChI, InChIKey or name</label> <input id="compound-q" name="q" size="50" value="${esc(q)}" required maxlength="4000" spellcheck="false" autocapitalize="off"> <button type="submit">Find</button></p></form>
<form id="substructure-search" method="get" action="${esc(base)}/compound" role="search"><p><label for="compound-substructure">Compounds containing a substructure (SMILES or SMARTS)</label> <input id="compound-substructure" name="substructure" size="40" value="${esc(substructure)}" required maxlength="${MAX_PATTERN_CHARS}" spellcheck="false" autocapitalize="off"> <button type="submit">Search</button></p></form>
<p class="muted">A substructure is matched as the miners match their fragments: heavy atoms and bonds, aromatic or not (no charges, hydrogen counts or stereo); at most ${MAX_PATTERN_ATOMS} atoms.</p>`;
}

/** The compound list's columns: structure, SMILES, InChIKey, InChI (the order). */
export const COMPOUND_COLUMNS: readonly ListColumn<CompoundView>[] = [
  { title: "Structure", cell: (c) => thumbnail(c) },
  { title: "SMILES", cell: (c) => link(c.uri, c.smiles ?? "(given as an InChI)") },
  { title: "InChIKey", cell: (c) => `<span class="mono">${esc(c.inchikey)}</span>` },
  { title: "InChI", cell: (c) => `<span class="mono">${esc(c.inchi)}</span>`, sort: { key: "inchi", value: (c) => c.inchi, natural: "asc" } },
];

export function compoundListHtml(p: ListPage<CompoundView>, base: string): string {
  return page("Compounds", `${compoundSearchForm(base)}<p>${p.page.total.toLocaleString("en")} compounds, by standard InChI.</p>${listTable("Compounds", p, COMPOUND_COLUMNS, COMPOUND_LIST)}`, {
    base,
    self: `${base}/compound`,
    formats: ["uri", "ttl"],
  });
}

const VIA: Readonly<Record<string, string>> = { structure: "its structure", inchikey: "its InChIKey", name: "a name" };

/** The hits of a search by identifier or name (none, or several: one stored hit goes straight to its page). */
export function compoundSearchHtml(r: CompoundResolution, base: string): string {
  const rows = r.hits
    .map((h) => {
      const names = h.names.length > 0 ? `<br>named ${h.names.map((n) => `“${esc(n)}”`).join(", ")}` : "";
      const where = h.stored ? "" : `<br><span class="muted">not in any dataset of this service</span>`;
      return `<tr><td>${thumbnail(h.compound)}</td><td>${link(h.compound.uri, h.compound.smiles ?? h.compound.inchikey)}${names}${where}</td><td><span class="mono">${esc(h.compound.inchikey)}</span></td><td>${esc(h.via.map((v) => VIA[v] ?? v).join(", "))}</td></tr>`;
    })
    .join("");
  const found =
    r.hits.length === 0
      ? `<p>No compound found for <code>${esc(r.query)}</code>${r.structureError ? `: it is no name the service knows, and not a structure it can read (${esc(r.structureError)})` : ""}.</p>`
      : `<table><caption>${r.hits.length} compound${r.hits.length === 1 ? "" : "s"} for “${esc(r.query)}”</caption><thead><tr><th scope="col">Structure</th><th scope="col">Compound</th><th scope="col">InChIKey</th><th scope="col">Found by</th></tr></thead><tbody>${rows}</tbody></table>`;
  return page("Compound search", `${compoundSearchForm(base, r.query)}${found}`, { base, self: `${base}/compound?q=${encodeURIComponent(r.query)}` });
}

export interface SubstructurePage {
  readonly pattern: string;
  readonly compounds: readonly CompoundView[];
  readonly page: Page;
  /** Compounds searched, of how many. */
  readonly searched: number;
  readonly of: number;
  readonly stopped?: "matches" | "time";
  readonly maxMatches: number;
}

export function substructureHtml(s: SubstructurePage, base: string): string {
  const rows = s.compounds.map((c) => `<tr><td>${thumbnail(c)}</td><td>${link(c.uri, c.smiles ?? c.inchikey)}</td><td><span class="mono">${esc(c.inchikey)}</span></td></tr>`).join("");
  const stopped =
    s.stopped === "matches"
      ? `<p class="warn">The search stopped at ${s.maxMatches.toLocaleString("en")} matches, after ${s.searched.toLocaleString("en")} of ${s.of.toLocaleString("en")} compounds: make the pattern more specific to see the others.</p>`
      : s.stopped === "time"
        ? `<p class="warn">The search stopped at its time limit, after ${s.searched.toLocaleString("en")} of ${s.of.toLocaleString("en")} compounds: the matches below are those of the compounds searched.</p>`
        : "";
  const nav = pageNav(s.page, COMPOUND_LIST, [["substructure", s.pattern]]);
  const table = s.page.total === 0 ? `<p>No compound contains <code>${esc(s.pattern)}</code>.</p>` : `${nav}<table><caption>Compounds containing ${esc(s.pattern)}</caption><thead><tr><th scope="col">Structure</th><th scope="col">Compound</th><th scope="col">InChIKey</th></tr></thead><tbody>${rows}</tbody></table>${nav}`;
  const head = `<p>${s.page.total.toLocaleString("en")} of the ${s.searched.toLocaleString("en")} compounds searched contain <code>${esc(s.pattern)}</code>.</p>`;
  return page("Substructure search", `${compoundSearchForm(base, "", s.pattern)}${head}${stopped}${table}`, { base, self: `${base}/compound?substructure=${encodeURIComponent(s.pattern)}` });
}

const KIND: Readonly<Record<CompoundOccurrence["dataset"]["kind"], string>> = { upload: "upload", computed: "computed", prediction: "prediction" };

function occurrencesSection(occ: readonly CompoundOccurrence[], total: number): string {
  const measured = occ.filter((o) => o.dataset.kind !== "prediction");
  const predictions = occ.filter((o) => o.dataset.kind === "prediction");
  const values = (o: CompoundOccurrence): string =>
    o.values.map(([f, xs]) => `${esc(f)}: <span class="mono">${esc(xs.join(", "))}</span>`).join("<br>") + (o.moreValues > 0 ? `<br><span class="muted">and the values of ${o.moreValues} more features</span>` : "");
  const inData =
    measured.length === 0
      ? "<p>This compound is in no dataset of the service.</p>"
      : `<table><thead><tr><th scope="col">Dataset</th><th scope="col">Kind</th><th scope="col">Lines</th><th scope="col">Name</th><th scope="col">Values</th><th scope="col">Created</th></tr></thead><tbody>${measured
          .map((o) => `<tr><td>${link(o.dataset.uri, o.dataset.title || o.dataset.uri)}</td><td>${esc(KIND[o.dataset.kind])}</td><td>${esc(o.lines.join(", "))}</td><td>${esc(o.names.join(", "))}</td><td>${values(o)}</td><td>${dateCell(o.dataset.created)}</td></tr>`)
          .join("")}</tbody></table>`;
  const predicted =
    predictions.length === 0
      ? "<p>No prediction has been made for it yet.</p>"
      : `<table><thead><tr><th scope="col">Prediction</th><th scope="col">Model</th><th scope="col">Values</th><th scope="col">Created</th></tr></thead><tbody>${predictions
          .map((o) => `<tr><td>${link(o.dataset.uri, o.dataset.title || o.dataset.uri)}</td><td>${o.dataset.from ? link(o.dataset.from) : ""}</td><td>${values(o)}</td><td>${dateCell(o.dataset.created)}</td></tr>`)
          .join("")}</tbody></table>`;
  const more = total > occ.length ? `<p class="muted">${total - occ.length} more datasets hold it (not listed).</p>` : "";
  return `<section id="datasets"><h2>Datasets with this compound (${measured.length})</h2>${inData}${more}</section><section id="predictions"><h2>Predictions for this compound (${predictions.length})</h2>${predicted}</section>`;
}

/** A compound's page; `occurrences`: the datasets and predictions it is in (absent for a compound the service does not store). */
export function compoundHtml(c: CompoundView, base: string, occurrences?: { readonly occurrences: readonly CompoundOccurrence[]; readonly total: number }): string {
  const img = c.smiles ? `<p><img src="${esc(c.uri)}?format=svg" alt="${esc(c.smiles)}" width="300" height="200"></p>` : "";
  const names = [...new Set(occurrences?.occurrences.flatMap((o) => o.names) ?? [])];
  const related = occurrences ? occurrencesSection(occurrences.occurrences, occurrences.total) : `<p>This compound is in no dataset of the service (its page is drawn from the structure).</p>`;
  return page(`Compound ${c.smiles ?? c.inchikey}`, img + dl([
    ["URI", `<span class="mono">${esc(c.uri)}</span>`],
    ...(names.length > 0 ? ([["Names", esc(names.join("; "))]] as [string, string][]) : []),
    ["SMILES", `<span class="mono">${esc(c.smiles ?? "(not known: the compound was given as an InChI)")}</span>`],
    ["InChI", `<span class="mono">${esc(c.inchi)}</span>`],
    ["InChIKey", `<span class="mono">${esc(c.inchikey)}</span>`],
  ]) + related, { base, self: c.uri, formats: ["ttl", "json", "rdf", "smi", "inchi", "mol", "svg"] });
}
