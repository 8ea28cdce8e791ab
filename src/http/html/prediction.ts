/**
 * HTML of a prediction dataset (what `POST /model/{id}` made; README "Predicting"): for one
 * compound, the prediction in words with its confidence, the applicability domain and why, the
 * conformal p-values or interval, the neighbours it was read across from (structure, similarity,
 * measured value, link) and, for a substructure model, the model's fragments found in the query
 * drawn with the matched atoms highlighted (GET /depiction?highlight=, chem/depict-highlight.ts);
 * for a dataset, a paged table of its compounds. Images are separate requests (the page's CSP
 * allows no inline style, and RDKit's SVG has style attributes), loaded lazily.
 */
import type { ModelRecord } from "../../resources/model.ts";
import type { FragmentView, NeighbourView, PredictionEntryView, PredictionHeader } from "../../resources/prediction-read.ts";
import type { CompoundView } from "../../resources/dataset-read.ts";
import { pageNav, ROWS, type Page, type PageSpec } from "../paging.ts";
import { dl, esc, link, page } from "./layout.ts";

/** The neighbours of one prediction, a page at a time. */
export const NEIGHBOURS: PageSpec = { ...ROWS, defaultSize: 20, maxSize: 200, items: "neighbours" };
/** The compounds of a dataset's prediction, a page at a time. */
export const PREDICTED_ROWS: PageSpec = { ...ROWS, defaultSize: 50, maxSize: 200, items: "compounds" };
/** Fragments drawn at most on one page (a Kazius model may match hundreds; the rest are listed in the RDF). */
export const MAX_FRAGMENTS = 60;

/** A number with three significant digits, as people read it (0.935, 1.68, −9.29, 0.0113). */
export function sig3(x: number): string {
  if (!Number.isFinite(x)) return x > 0 ? "∞" : x < 0 ? "−∞" : "—";
  const s = String(Number(x.toPrecision(3)));
  return s.replace(/^-/, "−");
}

/** A value as written (a class, or a number shown with three significant digits). */
export function valueText(value: string, numeric: boolean): string {
  if (!numeric) return value;
  const x = Number(value);
  return value.trim() !== "" && Number.isFinite(x) ? sig3(x) : value;
}

/** What the model behind a prediction is, as the page needs it (the model may have been deleted). */
export interface ModelInfo {
  readonly uri: string;
  readonly title: string;
  readonly classes: readonly string[];
  readonly predictionAlgorithm: string;
  readonly featureKind: ModelRecord["featureKind"];
  readonly minSim: number;
  readonly trainingDataset: string;
}

/** The applicability domain of one entry in words: [inside, outside or unknown; why]. */
export function domainInWords(e: PredictionEntryView, m: Pick<ModelInfo, "minSim" | "featureKind"> | null): { readonly verdict: "inside" | "outside" | "training" | "none"; readonly why: string } {
  if (e.measured.length > 0) return { verdict: "training", why: "The query is a compound of the training data: its measured value is the answer, nothing is predicted." };
  if (e.insideDomain !== undefined) {
    const nearest = e.nearestSimilarity === undefined ? "" : `the most similar training compound has similarity ${sig3(e.nearestSimilarity)}`;
    const threshold = e.domainThreshold === undefined ? "" : `the domain's threshold is ${sig3(e.domainThreshold)}`;
    if (e.insideDomain) return { verdict: "inside", why: `Inside the applicability domain: ${[nearest, threshold].filter(Boolean).join("; ")}.` };
    return { verdict: "outside", why: `Outside the applicability domain: ${e.domainNote ?? [nearest, threshold].filter(Boolean).join("; ")}.` };
  }
  if (e.reason !== undefined) {
    const why = `${e.reason.charAt(0).toUpperCase()}${e.reason.slice(1)}.`;
    if (e.reason.startsWith("the query's structure")) return { verdict: "none", why };
    // lazar: neighbours above min_sim, but its algorithm gave no prediction (e.g. a local SVM below min_train_performance)
    if ((e.neighbours ?? 0) > 0) return { verdict: "inside", why: `Inside the applicability domain: ${e.neighbours} training compound${e.neighbours === 1 ? " is a neighbour" : "s are neighbours"}; no prediction: ${e.reason}.` };
    return { verdict: "outside", why };
  }
  if (e.neighbours !== undefined) {
    const min = m ? ` (similarity above min_sim = ${sig3(m.minSim)})` : "";
    return { verdict: "inside", why: `Inside the applicability domain: ${e.neighbours} training compound${e.neighbours === 1 ? " is a neighbour" : "s are neighbours"}${min}.` };
  }
  return { verdict: "none", why: "Nothing is known of the applicability domain." };
}

/** The prediction in one sentence: the class or value (or why there is none). */
export function predictionInWords(e: PredictionEntryView, endpointTitle: string, numeric: boolean): string {
  if (e.measured.length > 0) return `Measured ${endpointTitle}: ${e.measured.map((x) => valueText(x, numeric)).join(", ")} (a training compound).`;
  if (e.predicted === undefined) return `No prediction of ${endpointTitle}${e.reason ? `: ${e.reason}` : ""}.`;
  return numeric ? `Predicted ${endpointTitle}: ${valueText(e.predicted, true)}.` : `Predicted ${endpointTitle}: ${e.predicted}.`;
}

function img(src: string, alt: string, width: number, height: number): string {
  return `<img src="${esc(src)}" alt="${esc(alt)}" width="${width}" height="${height}" loading="lazy">`;
}

function depiction(base: string, smiles: string, width: number, height: number, highlight?: string): string {
  const q = new URLSearchParams({ smiles, width: String(width), height: String(height), ...(highlight !== undefined ? { highlight } : {}) });
  return `${base}/depiction?${q.toString()}`;
}

/** A compound's drawing (its own SVG representation), linked to its page. */
function compoundImage(uri: string, c: CompoundView | null | undefined, width: number, height: number): string {
  const alt = c?.smiles ?? c?.inchi ?? "structure";
  return `<a href="${esc(uri)}">${img(`${uri}?format=svg&width=${width}&height=${height}`, `structure ${alt}`, width, height)}</a>`;
}

function conformal(e: PredictionEntryView, m: ModelInfo | null): [string, string][] {
  const rows: [string, string][] = [];
  if (e.pValues.length > 0) {
    const order = m?.classes ?? [];
    const sorted = [...e.pValues].sort((a, b) => (order.indexOf(a[0]) - order.indexOf(b[0])) || (a[0] < b[0] ? -1 : 1));
    rows.push(["Conformal p-values", sorted.map(([c, p]) => `${esc(c)}: ${sig3(p)}`).join("; ") + " <small>(a class whose p-value is at most ε is ruled out at significance ε)</small>"]);
  }
  if (e.interval) {
    const level = e.confidenceLevel === undefined ? "" : ` at confidence ${sig3(e.confidenceLevel)}`;
    rows.push(["Prediction interval", `${sig3(e.interval[0])} to ${sig3(e.interval[1])}${esc(level)}`]);
  } else if (e.confidenceLevel !== undefined && e.pValues.length === 0) {
    rows.push(["Prediction interval", "unbounded: too few calibration compounds for this confidence level"]);
  }
  return rows;
}

function neighboursSection(list: readonly { readonly n: NeighbourView; readonly c: CompoundView | null }[], p: Page, numeric: boolean, endpointTitle: string): string {
  if (p.total === 0) return `<section id="neighbours"><h2>Neighbours</h2><p>No training compound was stored as a neighbour of this query.</p></section>`;
  const nav = pageNav(p, NEIGHBOURS);
  const rows = list
    .map(({ n, c }, i) => `<tr><td>${p.offset + i + 1}</td><td>${compoundImage(n.compound, c, 200, 140)}</td><td>${sig3(n.similarity)}</td><td>${esc(valueText(n.measured, numeric))}</td><td>${link(n.compound, c?.smiles ?? "compound")}</td></tr>`)
    .join("");
  return `<section id="neighbours"><h2>Neighbours (${p.total})</h2><p>The training compounds the prediction was read across from, most similar first.</p>${nav}<table><tr><th>#</th><th>Structure</th><th>Similarity</th><th>Measured ${esc(endpointTitle)}</th><th>Compound</th></tr>${rows}</table>${nav}</section>`;
}

function fragmentsSection(fragments: readonly FragmentView[], smiles: string | undefined, base: string): string {
  if (fragments.length === 0) return `<section id="fragments"><h2>Fragments</h2><p>None of the model's substructures occurs in the query.</p></section>`;
  const shown = fragments.slice(0, MAX_FRAGMENTS);
  const rows = shown
    .map((f) => {
      const drawing = smiles === undefined ? "" : img(depiction(base, smiles, 220, 160, f.smarts), `the query with the atoms of ${f.smarts} highlighted`, 220, 160);
      return `<tr><td>${drawing}</td><td>${link(f.uri, f.smarts)}</td><td>${f.support ?? ""}</td><td>${esc(f.classCounts.join(", "))}</td></tr>`;
    })
    .join("");
  const more = fragments.length > shown.length ? `<p>${fragments.length - shown.length} more are listed in the prediction's RDF (qg:matchedFeature).</p>` : "";
  return `<section id="fragments"><h2>Fragments found in the query (${fragments.length})</h2><p>The model's substructures that occur in the query, its atoms of the first match highlighted; the training compounds that contain each (support) and their classes.</p><table><tr><th>Query, fragment highlighted</th><th>SMARTS</th><th>Support</th><th>Training compounds by class</th></tr>${rows}</table>${more}</section>`;
}

export interface SinglePrediction {
  readonly header: PredictionHeader;
  readonly model: ModelInfo | null;
  readonly entry: PredictionEntryView;
  readonly neighbours: readonly { readonly n: NeighbourView; readonly c: CompoundView | null }[];
  readonly neighbourPage: Page;
  readonly fragments: readonly FragmentView[];
}

function modelRows(h: PredictionHeader, m: ModelInfo | null): [string, string][] {
  return [
    ["Model", m ? `${link(m.uri, m.title)} (${esc(m.predictionAlgorithm)})` : `${esc(h.model)} (deleted)`],
    ...(m ? ([["Training data", link(m.trainingDataset)]] as [string, string][]) : []),
    ["Predicted", esc(h.created)],
  ];
}

/** The page of a one-compound prediction. */
export function singlePredictionHtml(s: SinglePrediction, base: string): string {
  const { header: h, model: m, entry: e } = s;
  const numeric = (m?.classes.length ?? 0) === 0;
  const domain = domainInWords(e, m);
  const smiles = e.structure?.smiles;
  const summary = dl([
    ["Prediction", `<strong>${esc(predictionInWords(e, h.endpointTitle, numeric))}</strong>`],
    ...(e.confidence !== undefined ? ([["Confidence", sig3(e.confidence)]] as [string, string][]) : []),
    ["Applicability domain", `<span class="domain-${domain.verdict}">${esc(domain.why)}</span>`],
    ...conformal(e, m),
    ["Compound", `${link(e.compound, smiles ?? e.structure?.inchi ?? e.compound)}`],
    ...modelRows(h, m),
  ]);
  const structure = `<figure>${compoundImage(e.compound, e.structure, 300, 200)}<figcaption class="mono">${esc(smiles ?? e.structure?.inchi ?? "")}</figcaption></figure>`;
  const fragments = m?.featureKind === "substructure" && e.measured.length === 0 ? fragmentsSection(s.fragments, smiles, base) : "";
  const neighbours = e.measured.length > 0 ? "" : neighboursSection(s.neighbours, s.neighbourPage, numeric, h.endpointTitle);
  const title = `Prediction of ${h.endpointTitle}${smiles ? ` for ${smiles}` : ""}`;
  const download = `<p>${link(`${h.uri}?format=csv`, "Download as CSV")}</p>`;
  return page(title, structure + summary + neighbours + fragments + download, { base, self: h.uri, formats: ["ttl", "csv", "json", "rdf"] });
}

export interface DatasetPrediction {
  readonly header: PredictionHeader;
  readonly model: ModelInfo | null;
  readonly entries: readonly PredictionEntryView[];
  readonly rows: Page;
}

function shortDomain(e: PredictionEntryView, m: ModelInfo | null): string {
  const d = domainInWords(e, m);
  if (d.verdict === "training") return "training compound";
  if (e.insideDomain !== undefined) return `${d.verdict} (nearest ${e.nearestSimilarity === undefined ? "?" : sig3(e.nearestSimilarity)})`;
  if (e.reason !== undefined) return `${d.verdict}: ${e.reason}`;
  if (e.neighbours !== undefined) return `${d.verdict} (${e.neighbours} neighbour${e.neighbours === 1 ? "" : "s"})`;
  return d.verdict;
}

/** The page of a dataset's prediction: a table of its compounds, paged. */
export function datasetPredictionHtml(d: DatasetPrediction, base: string): string {
  const { header: h, model: m } = d;
  const numeric = (m?.classes.length ?? 0) === 0;
  const nav = pageNav(d.rows, PREDICTED_ROWS);
  const rows = d.entries
    .map((e) => {
      const predicted = e.predicted === undefined ? "" : valueText(e.predicted, numeric);
      const measured = e.measured.map((x) => valueText(x, numeric)).join(", ");
      return `<tr><td>${e.line}</td><td>${compoundImage(e.compound, e.structure, 150, 100)}</td><td>${esc(predicted)}</td><td>${e.confidence === undefined ? "" : sig3(e.confidence)}</td><td>${esc(shortDomain(e, m))}</td><td>${esc(measured)}</td><td>${link(e.compound, e.structure?.smiles ?? "compound")}</td></tr>`;
    })
    .join("");
  const source = h.parameter[0] === "dataset_uri" ? ([["Predicted dataset", link(h.parameter[1])]] as [string, string][]) : [];
  const summary = dl([["Compounds", String(h.entries)], ...source, ...modelRows(h, m)]);
  const table = `<section id="predictions"><h2>Predictions</h2>${nav}<table><tr><th>Line</th><th>Structure</th><th>Predicted ${esc(h.endpointTitle)}</th><th>Confidence</th><th>Applicability domain</th><th>Measured ${esc(h.endpointTitle)}</th><th>Compound</th></tr>${rows}</table>${nav}</section>`;
  const download = `<p>${link(`${h.uri}?format=csv`, "Download as CSV")} (predicted value, confidence and the measured value of training compounds in columns of their own).</p>`;
  return page(h.title || "Prediction", summary + download + table, { base, self: h.uri, formats: ["ttl", "csv", "uri"] });
}
