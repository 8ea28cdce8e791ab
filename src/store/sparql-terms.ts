/**
 * Oxigraph terms ↔ SPARQL text and SPARQL 1.1 JSON results, for the SPARQL backend's reads
 * (sparql-read-worker.ts): a term written into a query is checked or escaped (an IRI that could
 * end its `<…>` is refused, a literal's lexical form is escaped, its datatype or language tag
 * kept); a JSON binding comes back as the Oxigraph term the read functions would see on the
 * embedded store. Pure functions: unit-tested in test/unit/store/sparql-terms.test.ts.
 */
import * as ox from "oxigraph";
import { tokens } from "./sparql-syntax.ts";

const XSD_STRING = "http://www.w3.org/2001/XMLSchema#string";
const XSD_DATETIME = "http://www.w3.org/2001/XMLSchema#dateTime";
const XSD_DOUBLE = "http://www.w3.org/2001/XMLSchema#double";
const XSD_FLOAT = "http://www.w3.org/2001/XMLSchema#float";
const RDF_LANG_STRING = "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString";

/** `<iri>`, refusing characters an IRIREF may not hold (SPARQL 1.1 grammar, IRIREF). */
export function iriText(iri: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[<>"{}|^`\\\x00-\x20]/.test(iri)) throw new Error(`not a valid IRI for a SPARQL query: ${JSON.stringify(iri.slice(0, 200))}`);
  return `<${iri}>`;
}

/** A string as a SPARQL STRING_LITERAL_QUOTE. */
export function stringText(s: string): string {
  return `"${s.replace(/[\\"\n\r\t\f\b]/g, (c) => ({ "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t", "\f": "\\f", "\b": "\\b" })[c]!)}"`;
}

/**
 * A term as SPARQL text. A literal of xsd:string is written plain: RDF 1.1 makes the two one,
 * but Virtuoso keeps `"x"` and `"x"^^xsd:string` apart (docs/virtuoso.md finding 2) and the
 * service writes plain ones. Blank nodes cannot be named in a query (a blank node there is a
 * variable): refused.
 */
export function termText(t: ox.Term): string {
  switch (t.termType) {
    case "NamedNode":
      return iriText(t.value);
    case "Literal": {
      const lit = t as ox.Literal;
      if (lit.language) {
        if (!/^[a-zA-Z]+(-[a-zA-Z0-9]+)*$/.test(lit.language)) throw new Error(`not a valid language tag: ${lit.language}`);
        return `${stringText(lit.value)}@${lit.language}`;
      }
      const dt = lit.datatype.value;
      return dt === XSD_STRING ? stringText(lit.value) : `${stringText(lit.value)}^^${iriText(dt)}`;
    }
    case "BlankNode":
      throw new Error("a blank node cannot be named in a query to the SPARQL store");
    default:
      throw new Error(`a ${t.termType} cannot be written into a query`);
  }
}

/** One value of a SPARQL 1.1 JSON result (W3C "SPARQL 1.1 Query Results JSON Format" §3.2.2; `typed-literal` is SPARQL 1.0's, which Virtuoso still sends). */
export interface JsonTerm {
  readonly type: "uri" | "literal" | "typed-literal" | "bnode";
  readonly value: string;
  readonly datatype?: string;
  readonly "xml:lang"?: string;
}

/** A blank node label of the store (Virtuoso: `nodeID://b10006`) as a valid Oxigraph blank node id. */
function blankId(label: string): string {
  return `b${label.replace(/[^A-Za-z0-9]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)}`;
}

/**
 * The variable that carries `STR(?v)` beside `?v` (`withLexicalForms`): Virtuoso writes an
 * xsd:double in every result format with 6 significant digits ("0.9691362229291531" comes back
 * as "0.969136", "1" as "1.0"), but keeps the value whole and gives it back whole through STR
 * (docs/virtuoso.md "How the SPARQL backend reads").
 */
export const STR_PREFIX = "__str_";

/**
 * A SELECT with `(STR(?v) AS ?__str_v)` added to its projection for each variable it projects
 * as such (not `*`, not the aliases of expressions, whose values are computed: counts, minima).
 * A query that is not a plain SELECT is returned unchanged.
 */
export function withLexicalForms(query: string): string {
  return withLexicalFormsOfQuery(query).text;
}

/**
 * `withLexicalForms`, by the query's tokens (a user's query of the proxied `/sparql` may have
 * comments, strings and subqueries; the reads' own queries go the same way): the outer SELECT's projected
 * variables each get `(STR(?v) AS ?__str_v)`, inserted on the projection's line (the lines the
 * store's messages name stay the user's). Unchanged (`added` false) when the query is not a
 * SELECT, projects `*` or no variable, or already uses a variable named `__str_…`.
 */
export function withLexicalFormsOfQuery(query: string): { readonly text: string; readonly added: boolean } {
  const unchanged = { text: query, added: false };
  let select = false;
  let depth = 0;
  const vars: string[] = [];
  let at = -1;
  for (const t of tokens(query)) {
    if (t.kind === "var" && t.text.slice(1).startsWith(STR_PREFIX)) return unchanged;
    if (at >= 0) continue; // the rest is only looked through for `__str_` variables
    const word = t.kind === "word" ? t.text.toUpperCase() : "";
    if (!select) {
      if (word === "SELECT") select = true;
      else if (word === "CONSTRUCT" || word === "ASK" || word === "DESCRIBE") return unchanged;
      continue;
    }
    if (t.kind === "punct" && (t.text === "(" || t.text === "[")) depth++;
    else if (t.kind === "punct" && (t.text === ")" || t.text === "]")) depth--;
    else if (depth === 0 && ((t.kind === "punct" && t.text === "{") || word === "WHERE" || word === "FROM")) at = t.start;
    else if (depth === 0 && t.kind === "punct" && t.text === "*") return unchanged;
    else if (depth === 0 && t.kind === "var") vars.push(t.text.slice(1));
  }
  if (at < 0 || vars.length === 0) return unchanged;
  const extra = [...new Set(vars)].map((v) => `(STR(?${v}) AS ?${STR_PREFIX}${v}) `).join("");
  return { text: `${query.slice(0, at)}${extra}${query.slice(at)}`, added: true };
}

/**
 * SPARQL JSON results of a query sent `withLexicalFormsOfQuery`: each xsd:double and xsd:float
 * with the lexical form its `__str_` companion gives (the whole value; Virtuoso writes 6
 * significant digits, docs/virtuoso.md finding 2), the companions taken out of the head and the
 * rows. Other terms stay as the store wrote them.
 */
export function foldLexicalForms<T extends { readonly type: string; readonly value: string; readonly datatype?: string }>(r: { readonly head?: { readonly vars?: readonly string[] }; readonly results?: { readonly bindings?: readonly Record<string, T>[] } }): { vars: string[]; bindings: Record<string, T>[] } {
  const all = r.head?.vars ?? [];
  const names = new Set(all);
  const vars = all.filter((v) => !(v.startsWith(STR_PREFIX) && names.has(v.slice(STR_PREFIX.length))));
  const bindings = (r.results?.bindings ?? []).map((b) => {
    const out: Record<string, T> = {};
    for (const v of vars) {
      const t = b[v];
      if (t === undefined) continue;
      const lexical = b[`${STR_PREFIX}${v}`];
      out[v] = (t.datatype === XSD_DOUBLE || t.datatype === XSD_FLOAT) && lexical?.type === "literal" ? { ...t, value: lexical.value } : t;
    }
    return out;
  });
  return { vars, bindings };
}

/** A JSON result value → the Oxigraph term; `lexical`, when given, is the literal's lexical form (STR of it). */
export function fromJson(t: JsonTerm, lexical?: JsonTerm): ox.NamedNode | ox.Literal | ox.BlankNode {
  switch (t.type) {
    case "uri":
      return ox.namedNode(t.value);
    case "bnode":
      return ox.blankNode(blankId(t.value));
    case "literal":
    case "typed-literal": {
      let value = lexical?.value ?? t.value;
      // Virtuoso pads a fraction of seconds to milliseconds (".24Z" → ".240Z"): its canonical form, as the service writes it, has no trailing zeros.
      if (t.datatype === XSD_DATETIME) value = value.replace(/\.(\d*?)0+(?=Z|[+-]\d\d:\d\d|$)/, (_m, d: string) => (d ? `.${d}` : ""));
      const lang = t["xml:lang"];
      if (lang) return ox.literal(value, lang);
      if (t.datatype && t.datatype !== XSD_STRING && t.datatype !== RDF_LANG_STRING) return ox.literal(value, ox.namedNode(t.datatype));
      return ox.literal(value);
    }
    default:
      throw new Error(`unknown term type in a SPARQL JSON result: ${(t as { type: string }).type}`);
  }
}

export interface JsonResults {
  readonly head?: { readonly vars?: readonly string[] };
  readonly results?: { readonly bindings: readonly Record<string, JsonTerm>[] };
  readonly boolean?: boolean;
}

/** A SELECT's rows as Oxigraph gives them from `store.query`: one Map per row, unbound variables absent (and the STR companions of `withLexicalForms` taken in). */
export function rowsFromJson(r: JsonResults): Map<string, ox.Term>[] {
  return (r.results?.bindings ?? []).map((b) => {
    const row = new Map<string, ox.Term>();
    for (const [k, v] of Object.entries(b)) if (!k.startsWith(STR_PREFIX)) row.set(k, fromJson(v, b[`${STR_PREFIX}${k}`]));
    return row;
  });
}

/** A CSV field as the SPARQL 1.1 CSV results format writes it (RFC 4180 quoting). */
function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * A SELECT's rows as SPARQL 1.1 CSV results, as Oxigraph writes them (`results_format:
 * "text/csv"`): a header of the variables, CRLF line ends, IRIs and literals as their plain
 * value, blank nodes as `_:id`, unbound as empty. Written here from the JSON results rather than
 * asked of the store: Virtuoso's CSV differs (it quotes literals, docs/virtuoso.md finding 2).
 */
export function csvFromJson(r: JsonResults): string {
  const vars = (r.head?.vars ?? []).filter((v) => !v.startsWith(STR_PREFIX));
  let out = `${vars.map(csvField).join(",")}\r\n`;
  for (const b of r.results?.bindings ?? []) {
    out += `${vars
      .map((v) => {
        const t = b[v];
        if (!t) return "";
        return csvField(t.type === "bnode" ? `_:${blankId(t.value)}` : t.type === "uri" ? t.value : (b[`${STR_PREFIX}${v}`]?.value ?? t.value));
      })
      .join(",")}\r\n`;
  }
  return out;
}

/** The one graph a query names when it names exactly one, by IRI, and no other (no `GRAPH ?g`, `FROM`, `SERVICE`); else undefined. */
export function soleGraph(query: string): string | undefined {
  if (/\b(FROM|SERVICE)\b/i.test(query) || /\bGRAPH\s*[?$]/i.test(query)) return undefined;
  const named = new Set<string>();
  for (const m of query.matchAll(/\bGRAPH\s*<([^>]*)>/gi)) named.add(m[1]!);
  return named.size === 1 ? [...named][0] : undefined;
}

/**
 * Whether a SELECT can be read in pages by appending `LIMIT n OFFSET k`: its WHERE group is
 * followed by nothing but GROUP BY / HAVING (no ORDER BY — Virtuoso cannot sort past its row
 * limit, docs/virtuoso.md finding 5 —, no LIMIT or OFFSET of its own, no trailing VALUES).
 * Read by the query's tokens (sparql-syntax.ts): braces and words inside strings, IRIs and
 * comments do not count.
 */
export function pageable(query: string): boolean {
  const list = [...tokens(query)];
  const word = (k: number): string => (list[k]?.kind === "word" ? list[k]!.text.toUpperCase() : "");
  const select = list.findIndex((t, k) => t.kind === "word" && ["SELECT", "ASK", "CONSTRUCT", "DESCRIBE"].includes(word(k)));
  if (select < 0 || word(select) !== "SELECT") return false;
  let depth = 0;
  let end = -1;
  for (let k = select; k < list.length && end < 0; k++) {
    const t = list[k]!;
    if (t.kind !== "punct") continue;
    if (t.text === "{") depth++;
    else if (t.text === "}" && --depth === 0) end = k;
  }
  if (end < 0) return false;
  return !list.slice(end + 1).some((t, i) => (t.kind === "punct" && (t.text === "{" || t.text === "}")) || ["ORDER", "LIMIT", "OFFSET", "VALUES"].includes(word(end + 1 + i)));
}
