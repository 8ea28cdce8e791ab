/**
 * Integration-test helper: parse an RDF response body with an independent library per format
 * (n3 for Turtle/N-Triples, Oxigraph for RDF/XML, jsonld.js for JSON-LD) into canonical triple
 * strings, so that the representations of one resource can be compared across formats.
 * Blank nodes are all written `_:` (their labels differ between parsers); xsd:double and
 * xsd:dateTime literals are compared by value.
 */
import jsonld from "jsonld";
import { Parser } from "n3";
import * as ox from "oxigraph";

interface TermLike {
  readonly termType: string;
  readonly value: string;
  readonly language?: string;
  readonly datatype?: { readonly value: string };
}

const XSD_DOUBLE = "http://www.w3.org/2001/XMLSchema#double";
const XSD_DATETIME = "http://www.w3.org/2001/XMLSchema#dateTime";

function term(t: TermLike): string {
  switch (t.termType) {
    case "NamedNode":
      return `<${t.value}>`;
    case "BlankNode":
      return "_:";
    case "Literal": {
      const dt = t.datatype?.value ?? "http://www.w3.org/2001/XMLSchema#string";
      // jsonld.js writes every xsd:double in canonical form ("100" → "1.0E2") and Oxigraph every
      // xsd:dateTime ("…:52.310Z" → "…:52.31Z"): compare those by value.
      const lexical = dt === XSD_DOUBLE ? String(Number(t.value)) : dt === XSD_DATETIME ? new Date(t.value).toISOString() : t.value;
      const v = JSON.stringify(lexical);
      if (t.language) return `${v}@${t.language}`;
      return dt === "http://www.w3.org/2001/XMLSchema#string" ? v : `${v}^^<${dt}>`;
    }
    default:
      return `?${t.value}`;
  }
}

export interface TripleLike {
  readonly subject: TermLike;
  readonly predicate: TermLike;
  readonly object: TermLike;
}

export function canonical(q: TripleLike): string {
  return `${term(q.subject)} ${term(q.predicate)} ${term(q.object)}`;
}

/**
 * JSON-LD contexts are fetched from the server under test (never from anywhere else): a context
 * URL that is not served makes the parse fail.
 */
async function loadDocument(url: string, allowedPrefix: string): Promise<{ contextUrl: undefined; documentUrl: string; document: unknown }> {
  if (!url.startsWith(allowedPrefix)) throw new Error(`refusing to load a remote JSON-LD document: ${url}`);
  const r = await fetch(url, { headers: { Accept: "application/ld+json" } });
  if (r.status !== 200) throw new Error(`JSON-LD context ${url} answered ${r.status}`);
  return { contextUrl: undefined, documentUrl: url, document: await r.json() };
}

/** Parse `body` of media type `type` into sorted canonical triples; `base` = the server's base URL. */
export async function parseRdf(body: string, type: string, base: string): Promise<string[]> {
  let triples: TripleLike[];
  switch (type) {
    case "text/turtle":
      triples = new Parser({ format: "Turtle", baseIRI: base }).parse(body);
      break;
    case "application/n-triples":
      triples = new Parser({ format: "N-Triples" }).parse(body);
      break;
    case "application/rdf+xml":
      triples = ox.parse(body, { format: "application/rdf+xml", base_iri: base });
      break;
    case "application/ld+json":
    case "application/json": {
      const doc = JSON.parse(body) as object;
      const nquads = (await jsonld.toRDF(doc, {
        format: "application/n-quads",
        documentLoader: ((url: string) => loadDocument(url, base)) as never,
      })) as unknown as string;
      triples = new Parser({ format: "N-Quads" }).parse(nquads);
      break;
    }
    default:
      throw new Error(`not an RDF type: ${type}`);
  }
  return triples.map(canonical).sort();
}

/** Of the terms `used`, those the vocabulary `definitions` does not give an rdf:type, an rdfs:label and an rdfs:comment (sorted). */
export function undefinedTerms(used: Iterable<string>, definitions: readonly TripleLike[]): string[] {
  const has = (s: string, p: string): boolean => definitions.some((q) => q.subject.value === s && q.predicate.value === p);
  const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
  const RDFS = "http://www.w3.org/2000/01/rdf-schema#";
  return [...new Set(used)].filter((t) => !has(t, RDF_TYPE) || !has(t, `${RDFS}label`) || !has(t, `${RDFS}comment`)).sort();
}
