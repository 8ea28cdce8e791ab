/**
 * HTML building blocks: escaping and the page frame shared by every HTML representation.
 * Pages are plain server-rendered HTML with a small inline stylesheet; printable and readable
 * without scripts. A page may name scripts of html/scripts.ts (served by the service itself);
 * the Content-Security-Policy (http/security-headers.ts) allows exactly the inline stylesheets
 * by hash and the service's own script files: a page needing another stylesheet must add it there.
 */
import { FORM_TOKEN_FIELD } from "../auth.ts";
import { FORMAT_ALIASES } from "../negotiate.ts";
import { scriptUri } from "./scripts.ts";

export function esc(s: unknown): string {
  return String(s ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An `<a>` to a URI of the service, shown relative to the base when possible. */
export function link(href: string, text?: string): string {
  return `<a href="${esc(href)}">${esc(text ?? href)}</a>`;
}

export interface PageOptions {
  readonly base: string;
  /** Self URI; links to the other representations are shown for it. */
  readonly self?: string;
  readonly formats?: readonly string[];
  readonly head?: string;
  /** Scripts of html/scripts.ts the page loads (deferred). */
  readonly scripts?: readonly string[];
}

/** The stylesheet of every page (its hash is in the pages' Content-Security-Policy). */
export const PAGE_STYLE = `
body{font-family:system-ui,sans-serif;margin:0;color:#222}
header{background:#234;color:#fff;padding:.5em 1em}header a{color:#fff;margin-right:1em;text-decoration:none}
main{padding:1em;max-width:80em}table{border-collapse:collapse;margin:.5em 0}
#terms th[scope=row]{white-space:nowrap}
td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}th{background:#f3f3f3}
code,.mono{font-family:ui-monospace,monospace;font-size:.9em;word-break:break-all}
.warn{background:#fff6e0}.err{background:#fde8e8;padding:.5em}.formats a{margin-right:.6em}
progress{width:20em}nav.pages a{margin:0 .3em}
.dt{color:#595959;font-size:.8em}textarea{max-width:100%}
.drawing{min-height:1.5em}.note{color:#555}figure{margin:.5em 0}.domain-outside,.domain-none{background:#fff6e0}
header nav{display:flex;flex-wrap:wrap;row-gap:.3em}
header a[aria-current]{text-decoration:underline;font-weight:bold}
.skip{position:absolute;left:-999em}.skip:focus{position:static;display:inline-block;background:#fff;color:#234;padding:.25em}
th a{color:inherit}th a[aria-sort]{font-weight:bold}td.num{text-align:right;font-variant-numeric:tabular-nums}
.steps>li{margin:.75em 0}.actions>li{margin:.4em 0}.muted{color:#666}
@media print{header,.formats,nav.pages,.skip,form{display:none}}
`;

let tokenFields = false;

/**
 * With API tokens (README "Access control"), every POST form of every page gets a field for the
 * token (`api_token`, read like the Authorization header): a browser cannot send headers with
 * a form. Set once at start (app.ts).
 */
export function setFormTokenFields(on: boolean): void {
  tokenFields = on;
}

const TOKEN_FIELD = `<p><label>API token <input type="password" name="${FORM_TOKEN_FIELD}" autocomplete="current-password" required></label></p>`;

/** The body with the token field added at the start of every POST form (when tokens are on). */
function withTokenFields(body: string): string {
  return tokenFields ? body.replace(/<form\b[^>]*\bmethod="post"[^>]*>/gi, (open) => open + TOKEN_FIELD) : body;
}

export function page(title: string, body: string, o: PageOptions): string {
  const formats = o.self && o.formats && o.formats.length > 0
    ? `<p class="formats">Also as: ${o.formats.map((f) => `<a href="${esc(withFormat(o.self!, f))}">${esc(f)}</a>`).join(" ")}</p>`
    : "";
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)} — qsargraph</title>
<meta name="viewport" content="width=device-width, initial-scale=1">${alternates(o)}
<style>${PAGE_STYLE}</style>${o.head ?? ""}${(o.scripts ?? []).map((n) => `<script src="${esc(scriptUri(o.base, n))}" defer></script>`).join("")}</head>
<body><a class="skip" href="#main">Skip to the content</a><header>${siteNav(o.base, o.self)}</header>
<main id="main"><h1>${esc(title)}</h1>${formats}
${withTokenFields(body)}
</main></body></html>`;
}

/**
 * `<link rel="alternate">` to every other representation a page offers (its `formats`), with the
 * media type, so that a client that fetched the HTML finds the RDF (HTML 5 "alternate" link type).
 */
export function alternates(o: PageOptions): string {
  if (!o.self || !o.formats) return "";
  return o.formats
    .map((f) => [f, FORMAT_ALIASES[f]] as const)
    .filter((e): e is readonly [string, string] => e[1] !== undefined)
    .map(([f, type]) => `\n<link rel="alternate" type="${esc(type)}" href="${esc(withFormat(o.self!, f))}">`)
    .join("");
}

/** The collections of the header, in order: path under the base → label. */
export const SECTIONS: readonly (readonly [string, string])[] = [
  ["/", "qsargraph"],
  ["/dataset", "Datasets"],
  ["/compound", "Compounds"],
  ["/model", "Models"],
  ["/validation", "Validations"],
  ["/algorithm", "Algorithms"],
  ["/task", "Tasks"],
  ["/sparql", "SPARQL"],
  ["/ontology", "Ontology"],
  ["/openapi.json", "API description"],
];

/** The section a page belongs to: the header entry whose path is the longest prefix of its path (the home page only for `/` itself). */
export function currentSection(base: string, self: string | undefined): string | undefined {
  if (self === undefined || !self.startsWith(base)) return undefined;
  const path = self.slice(base.length).replace(/[?#].*$/, "") || "/";
  if (path === "/") return "/";
  return SECTIONS.find(([p]) => p !== "/" && (path === p || path.startsWith(`${p}/`)))?.[0];
}

/** The header's navigation: every collection, the current one marked with aria-current. */
export function siteNav(base: string, self?: string): string {
  const current = currentSection(base, self);
  const path = self?.slice(base.length).replace(/[?#].*$/, "");
  // "page" on the collection's own page, "location" on a page within it (a dataset, a model)
  const mark = (p: string): string => (p !== current ? "" : ` aria-current="${path === p || (p === "/" && path === "") ? "page" : "location"}"`);
  const items = SECTIONS.map(([p, label]) => `<a href="${esc(base + p)}"${mark(p)}>${esc(label)}</a>`);
  return `<nav aria-label="Collections">${items.join(" ")}</nav>`;
}

export function withFormat(uri: string, format: string): string {
  return `${uri}${uri.includes("?") ? "&" : "?"}format=${encodeURIComponent(format)}`;
}

/** A two-column table of label → HTML value. */
export function dl(rows: readonly (readonly [string, string])[]): string {
  return `<table>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`).join("")}</table>`;
}
