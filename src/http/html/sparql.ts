/**
 * The SPARQL page (GET /sparql with a browser): a form whose text area starts with the service's
 * prefixes declared, example queries as plain links (`?query=…`, no script), and below the form
 * the result of the query in it — SELECT as a table of terms, ASK as a sentence, CONSTRUCT and
 * DESCRIBE as a table of triples — one page at a time, or the syntax error in one sentence above
 * the form, which keeps the query. IRIs of this service are links; other http(s) IRIs are links
 * that leave the service (`rel="noopener noreferrer"`); everything else is escaped text.
 */
import type { QueryTable, TableTerm } from "../../store/sparql-exec.ts";
import { GRAPH_FORMATS, SOLUTION_FORMATS } from "../../store/sparql-syntax.ts";
import { esc, page } from "./layout.ts";
import { QG_NS } from "../../store/vocab.ts";

/** Rows per page of a result (`page_size`: 1 … MAX_PAGE_SIZE). */
export const PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;
/** Longest literal shown whole in a cell (the rest is elided; the other formats carry it all). */
const MAX_LITERAL_CHARS = 400;

export interface SparqlPage {
  readonly base: string;
  /** The prefixes the endpoint declares for queries that use them undeclared: name → namespace. */
  readonly prefixes: Readonly<Record<string, string>>;
  /** The query as sent (absent: the text area starts with the prefixes and an example). */
  readonly query?: string;
  /** A refused query: the sentence (with its line and column) shown above the form. */
  readonly error?: string;
  /** The result of the query: one page of it. */
  readonly result?: QueryTable;
  /** Page number (1-based) and size of `result`. */
  readonly page?: number;
  readonly pageSize?: number;
}

/** The prologue that declares `prefixes`, one a line. */
export function prefixBlock(prefixes: Readonly<Record<string, string>>): string {
  return Object.entries(prefixes)
    .map(([p, ns]) => `PREFIX ${p}: <${ns}>`)
    .join("\n");
}

/** Example queries: a title and the query (without the prologue: the endpoint declares the prefixes). */
export const EXAMPLES: readonly (readonly [string, string])[] = [
  ["Datasets, newest first", "SELECT ?dataset ?title ?date\nWHERE { ?dataset a ot:Dataset ; dc:title ?title ; dc:date ?date }\nORDER BY DESC(?date)\nLIMIT 50"],
  ["Models and the datasets they were trained on", "SELECT ?model ?title ?training\nWHERE { ?model a ot:Model ; dc:title ?title . OPTIONAL { ?model ot:trainingDataset ?training } }\nLIMIT 50"],
  [
    "The most significant substructures (ot:pValue is the χ² distribution function: larger is more significant)",
    "SELECT ?feature ?smarts ?pValue ?support\nWHERE { ?feature ot:smarts ?smarts ; ot:pValue ?pValue ; qg:support ?support }\nORDER BY DESC(?pValue)\nLIMIT 25",
  ],
  ["The largest graphs", "SELECT ?graph (COUNT(*) AS ?triples)\nWHERE { GRAPH ?graph { ?s ?p ?o } }\nGROUP BY ?graph\nORDER BY DESC(?triples)\nLIMIT 20"],
  ["Has any task failed?", "ASK { ?task a ot:Task ; ot:hasStatus \"Error\" }"],
  ["One dataset's own description, as triples", "CONSTRUCT { ?d ?p ?o }\nWHERE { { SELECT ?d WHERE { ?d a ot:Dataset } LIMIT 1 } ?d ?p ?o }"],
];

/** The first example, with the prologue: what the text area holds before any query. */
export function startingQuery(prefixes: Readonly<Record<string, string>>): string {
  return `${prefixBlock(prefixes)}\n\n${EXAMPLES[0]![1]}`;
}

function queryLink(base: string, query: string, extra = ""): string {
  return `${base}/sparql?query=${encodeURIComponent(query)}${extra}`;
}

/** An IRI shortened with a prefix when one fits (`ot:Dataset`), else itself. */
function compact(iri: string, prefixes: Readonly<Record<string, string>>): string {
  for (const [p, ns] of Object.entries(prefixes)) {
    if (iri.startsWith(ns) && /^[A-Za-z_][A-Za-z0-9_\-]*$/.test(iri.slice(ns.length))) return `${p}:${iri.slice(ns.length)}`;
  }
  return iri;
}

/** One term of a result as a table cell's content. */
export function termHtml(t: TableTerm | null, base: string, prefixes: Readonly<Record<string, string>>): string {
  if (t === null) return "";
  switch (t.type) {
    case "uri": {
      const shown = compact(t.value, prefixes);
      // the service's vocabulary: its row on this service's /ontology (the namespace IRI does not resolve yet)
      if (t.value.startsWith(QG_NS)) return `<a href="${esc(`${base}/ontology#${t.value.slice(QG_NS.length)}`)}" class="mono">${esc(shown)}</a>`;
      if (t.value === base || t.value.startsWith(`${base}/`)) return `<a href="${esc(t.value)}" class="mono">${esc(shown === t.value ? t.value.slice(base.length) || "/" : shown)}</a>`;
      if (/^https?:\/\//i.test(t.value)) return `<a href="${esc(t.value)}" rel="noopener noreferrer" class="mono ext">${esc(shown)}</a>`;
      return `<span class="mono">${esc(shown)}</span>`;
    }
    case "literal": {
      const text = t.value.length > MAX_LITERAL_CHARS ? `${t.value.slice(0, MAX_LITERAL_CHARS)}…` : t.value;
      const lang = t["xml:lang"];
      const type = t.datatype && t.datatype !== "http://www.w3.org/2001/XMLSchema#string" ? `^^${compact(t.datatype, prefixes)}` : "";
      const note = lang ? `@${lang}` : type;
      return `${esc(text)}${note ? ` <span class="dt">${esc(note)}</span>` : ""}`;
    }
    case "bnode":
      return `<span class="mono">_:${esc(t.value)}</span>`;
    default:
      return `<span class="mono">${esc(t.value)}</span>`;
  }
}

function resultHtml(o: SparqlPage, r: QueryTable): string {
  const query = o.query ?? "";
  if (r.boolean !== undefined) {
    return `<section id="result"><h2>Result</h2><p>${r.boolean ? "Yes: the pattern of the ASK query matches the data." : "No: the pattern of the ASK query does not match the data."}</p></section>`;
  }
  const graph = r.form === "CONSTRUCT" || r.form === "DESCRIBE";
  const unit = graph ? "triples" : "rows";
  const size = o.pageSize ?? PAGE_SIZE;
  const pageNo = o.page ?? 1;
  const pages = Math.max(1, Math.ceil(r.total / size));
  const from = (pageNo - 1) * size;
  const nav = (): string => {
    const to = (p: number, text: string): string => `<a href="${esc(queryLink(o.base, query, `&page=${p}&page_size=${size}`))}">${text}</a>`;
    const links = [pageNo > 1 ? to(1, "first") : "", pageNo > 1 ? to(pageNo - 1, "previous") : "", pageNo < pages ? to(pageNo + 1, "next") : "", pageNo < pages ? to(pages, "last") : ""].filter(Boolean);
    const range = r.total === 0 ? `no ${unit}` : r.rows.length === 0 ? `no ${unit} on page ${pageNo} (${r.total} in all)` : `${unit} ${from + 1}–${from + r.rows.length} of ${r.total}`;
    return `<nav class="pages">${esc(range)}${pages > 1 ? ` (page ${pageNo} of ${pages})` : ""}${links.length > 0 ? ` ${links.join(" ")}` : ""}</nav>`;
  };
  const formats = (graph ? GRAPH_FORMATS : SOLUTION_FORMATS).map((f) => `<a href="${esc(queryLink(o.base, query, `&format=${encodeURIComponent(f)}`))}">${esc(f)}</a>`).join(" ");
  const head = `<tr>${r.vars.map((v) => `<th scope="col">${esc(graph ? v : `?${v}`)}</th>`).join("")}</tr>`;
  const body = r.rows.map((row) => `<tr>${row.map((t) => `<td>${termHtml(t, o.base, o.prefixes)}</td>`).join("")}</tr>`).join("");
  const table = r.rows.length > 0 ? `<table>${head}${body}</table>${nav()}` : "";
  return `<section id="result"><h2>Result</h2>${nav()}${table}<p class="formats">The whole result as: ${formats}</p></section>`;
}

export function sparqlHtml(o: SparqlPage): string {
  const text = o.query ?? startingQuery(o.prefixes);
  const error = o.error ? `<div class="err" role="alert" id="error"><strong>The query was not run.</strong> ${esc(o.error)}</div>` : "";
  const form = `<form method="get" action="${esc(o.base)}/sparql" id="query-form">
<p><label for="query">Query (read-only SPARQL 1.1)</label><br><textarea id="query" name="query" rows="14" cols="100" class="mono" spellcheck="false">${esc(text)}</textarea></p>
<p><button type="submit">Run query</button></p>
</form>`;
  const examples = `<section id="examples"><h2>Examples</h2><ul>${EXAMPLES.map(([title, q]) => `<li><a href="${esc(queryLink(o.base, q))}">${esc(title)}</a></li>`).join("")}</ul></section>`;
  const about = `<section id="about"><h2>About this endpoint</h2><p>The default graph is the union of all graphs; every resource is a named graph, named by its URI. These prefixes are declared for any query that uses them without declaring them: ${Object.entries(o.prefixes)
    .map(([p, ns]) => `<code>${esc(p)}:</code> <span class="mono">${esc(ns)}</span>`)
    .join(", ")}. SPARQL clients get the protocol's formats: SELECT and ASK as ${SOLUTION_FORMATS.map((f) => `<code>${esc(f)}</code>`).join(", ")}; CONSTRUCT and DESCRIBE as ${GRAPH_FORMATS.map((f) => `<code>${esc(f)}</code>`).join(", ")} (with <code>Accept</code>, or <code>format=</code>).</p></section>`;
  const result = o.result ? resultHtml(o, o.result) : "";
  return page("SPARQL", `${error}${form}${result}${examples}${about}`, { base: o.base, self: `${o.base}/sparql` });
}
