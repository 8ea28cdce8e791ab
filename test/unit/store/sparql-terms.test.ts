/**
 * Terms ↔ SPARQL text and SPARQL JSON results (src/store/sparql-terms.ts). Reference values: the
 * SPARQL 1.1 grammar (IRIREF, STRING_LITERAL_QUOTE, ECHAR), the SPARQL 1.1 Query Results JSON and
 * CSV formats (W3C Recommendations, 2013) — and Oxigraph itself: a query's text built here is run
 * on an Oxigraph store holding the term, and the CSV built here is compared with the CSV
 * Oxigraph writes for the same query.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as ox from "oxigraph";
import { csvFromJson, foldLexicalForms, fromJson, iriText, pageable, rowsFromJson, soleGraph, termText, withLexicalForms, withLexicalFormsOfQuery, type JsonResults } from "../../../src/store/sparql-terms.ts";

const XSD = "http://www.w3.org/2001/XMLSchema#";
const G = ox.namedNode("http://example.org/g");
const S = ox.namedNode("http://example.org/s");
const P = ox.namedNode("http://example.org/p");

describe("terms written into a query", () => {
  test("IRIs that could end their <…> or hold spaces are refused", () => {
    assert.equal(iriText("http://example.org/a#b"), "<http://example.org/a#b>");
    for (const bad of ["http://x/>", "http://x/<", 'http://x/"', "http://x/ y", "http://x/{", "http://x/\\", "http://x/\n"]) assert.throws(() => iriText(bad), /not a valid IRI/, bad);
  });

  test("each literal, written by termText, matches itself in Oxigraph (escapes, language tags, datatypes kept)", () => {
    const literals = [
      ox.literal('quote " backslash \\ newline \n tab \t return \r'),
      ox.literal("Bonjour", "fr-CA"),
      ox.literal("1.50", ox.namedNode(`${XSD}decimal`)),
      ox.literal("0.9691362229291531", ox.namedNode(`${XSD}double`)),
      ox.literal("ü 水 😀"),
      ox.literal("abc", ox.namedNode("http://example.org/custom")),
    ];
    const store = new ox.Store();
    literals.forEach((o, i) => store.add(ox.quad(ox.namedNode(`http://example.org/s${i}`), P, o, G)));
    literals.forEach((o, i) => {
      const rows = store.query(`SELECT ?s WHERE { GRAPH <${G.value}> { ?s <${P.value}> ${termText(o)} } }`) as Map<string, ox.Term>[];
      assert.deepEqual(
        rows.map((r) => r.get("s")!.value),
        [`http://example.org/s${i}`],
        termText(o),
      );
    });
    assert.equal(termText(ox.literal("x")), '"x"', "xsd:string written plain (Virtuoso keeps the two apart)");
    assert.throws(() => termText(ox.blankNode("b")), /blank node/);
  });
});

describe("JSON results read back", () => {
  test("terms: IRIs, plain, language-tagged and typed literals (SPARQL 1.0's typed-literal too), blank nodes", () => {
    assert.ok(fromJson({ type: "uri", value: "http://x/a" }).equals(ox.namedNode("http://x/a")));
    assert.ok(fromJson({ type: "literal", value: "a" }).equals(ox.literal("a")));
    assert.ok(fromJson({ type: "literal", value: "a", datatype: `${XSD}string` }).equals(ox.literal("a")));
    assert.ok(fromJson({ type: "literal", value: "a", "xml:lang": "fr-ca" }).equals(ox.literal("a", "fr-ca")));
    assert.ok(fromJson({ type: "typed-literal", value: "1.5", datatype: `${XSD}decimal` }).equals(ox.literal("1.5", ox.namedNode(`${XSD}decimal`))));
    assert.equal(fromJson({ type: "bnode", value: "nodeID://b10006" }).termType, "BlankNode");
  });

  test("a literal's lexical form from its STR companion (Virtuoso writes doubles with 6 digits); dateTime fractions without trailing zeros", () => {
    const d = fromJson({ type: "typed-literal", value: "0.969136", datatype: `${XSD}double` }, { type: "literal", value: "0.9691362229291531" });
    assert.ok(d.equals(ox.literal("0.9691362229291531", ox.namedNode(`${XSD}double`))));
    assert.equal(fromJson({ type: "typed-literal", value: "2026-11-27T21:11:41.240Z", datatype: `${XSD}dateTime` }).value, "2026-11-27T21:11:41.24Z");
    assert.equal(fromJson({ type: "typed-literal", value: "2026-11-27T21:11:41.000+01:00", datatype: `${XSD}dateTime` }).value, "2026-11-27T21:11:41+01:00");
    assert.equal(fromJson({ type: "typed-literal", value: "2026-11-27T21:11:41Z", datatype: `${XSD}dateTime` }).value, "2026-11-27T21:11:41Z");
  });

  test("withLexicalForms adds STR(?v) for the plain projected variables only", () => {
    assert.equal(withLexicalForms("SELECT ?a ?b WHERE { ?a ?b ?c }"), "SELECT ?a ?b (STR(?a) AS ?__str_a) (STR(?b) AS ?__str_b) WHERE { ?a ?b ?c }");
    assert.equal(withLexicalForms("SELECT DISTINCT ?c (MIN(?l) AS ?first) WHERE { } GROUP BY ?c"), "SELECT DISTINCT ?c (MIN(?l) AS ?first) (STR(?c) AS ?__str_c) WHERE { } GROUP BY ?c");
    assert.equal(withLexicalForms("SELECT (COUNT(?f) AS ?n) WHERE { }"), "SELECT (COUNT(?f) AS ?n) WHERE { }");
    assert.equal(withLexicalForms("SELECT * WHERE { }"), "SELECT * WHERE { }");
    assert.equal(withLexicalForms("ASK { }"), "ASK { }");
  });

  test("withLexicalFormsOfQuery (a user's query on the proxied /sparql): the outer SELECT's variables, by tokens; the rewritten query parses", () => {
    const q = 'PREFIX ot: <http://www.opentox.org/api/1.1#> # select ?z here is a comment\nSELECT DISTINCT ?c $x (COUNT(?y) AS ?n) WHERE { GRAPH ?g { ?c ot:p ?x ; ot:q "a ( ?w" . { SELECT ?y WHERE { ?y ?p ?o } } } } GROUP BY ?c ?x';
    const r = withLexicalFormsOfQuery(q);
    assert.equal(r.added, true);
    assert.equal(r.text, q.replace(" WHERE {", " (STR(?c) AS ?__str_c) (STR(?x) AS ?__str_x) WHERE {"), "inserted before the outer WHERE, on its line");
    const store = new ox.Store();
    store.add(ox.quad(S, ox.namedNode("http://www.opentox.org/api/1.1#p"), ox.literal("0.30000000000000004", ox.namedNode(`${XSD}double`)), G));
    assert.ok(Array.isArray(store.query(r.text)), "Oxigraph parses and runs it");
    for (const same of ["SELECT * WHERE { ?s ?p ?o }", "ASK { ?s ?p ?o }", "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", "SELECT ?__str_a WHERE { ?__str_a ?p ?o }", "SELECT ?a WHERE { ?a ?p ?__str_a }"]) {
      assert.deepEqual(withLexicalFormsOfQuery(same), { text: same, added: false }, same);
    }
    assert.equal(withLexicalFormsOfQuery("SELECT ?a{?a ?p ?o}").text, "SELECT ?a(STR(?a) AS ?__str_a) {?a ?p ?o}");
  });

  test("foldLexicalForms: doubles and floats take their STR companion's lexical form; the companions go", () => {
    const json: JsonResults = {
      head: { vars: ["a", "b", "c", "__str_a", "__str_b", "__str_c"] },
      results: {
        bindings: [
          {
            a: { type: "literal", value: "0.3", datatype: `${XSD}double` },
            __str_a: { type: "literal", value: "0.30000000000000004" },
            b: { type: "literal", value: "2026-11-27T21:11:41.240Z", datatype: `${XSD}dateTime` },
            __str_b: { type: "literal", value: "2026-11-27T21:11:41.24Z" },
            c: { type: "uri", value: "http://x/c" },
            __str_c: { type: "literal", value: "http://x/c" },
          },
          { a: { type: "literal", value: "1.0", datatype: `${XSD}float` }, __str_a: { type: "literal", value: "1" } },
        ],
      },
    };
    assert.deepEqual(foldLexicalForms(json), {
      vars: ["a", "b", "c"],
      bindings: [
        { a: { type: "literal", value: "0.30000000000000004", datatype: `${XSD}double` }, b: { type: "literal", value: "2026-11-27T21:11:41.240Z", datatype: `${XSD}dateTime` }, c: { type: "uri", value: "http://x/c" } },
        { a: { type: "literal", value: "1", datatype: `${XSD}float` } },
      ],
    });
    assert.equal(Number(foldLexicalForms(json).bindings[0]!.a!.value), 0.1 + 0.2, "the whole double (IEEE 754 arithmetic as the reference)");
  });

  test("rows and CSV as Oxigraph gives them for the same query (companions left out)", () => {
    const store = new ox.Store();
    store.add(ox.quad(S, P, ox.literal('a, "quoted"\nline'), G));
    store.add(ox.quad(ox.namedNode("http://example.org/t"), P, ox.literal("2", ox.namedNode(`${XSD}integer`)), G));
    const q = `SELECT ?s ?o ?none WHERE { GRAPH <${G.value}> { ?s <${P.value}> ?o } } ORDER BY ?s`;
    const json: JsonResults = {
      head: { vars: ["s", "o", "none", "__str_o"] },
      results: {
        bindings: [
          { s: { type: "uri", value: S.value }, o: { type: "literal", value: 'a, "quoted"\nline' }, __str_o: { type: "literal", value: 'a, "quoted"\nline' } },
          { s: { type: "uri", value: "http://example.org/t" }, o: { type: "typed-literal", value: "2", datatype: `${XSD}integer` } },
        ],
      },
    };
    assert.equal(csvFromJson(json), store.query(q, { results_format: "text/csv" }) as unknown as string);
    const want = store.query(q) as Map<string, ox.Term>[];
    const got = rowsFromJson(json);
    assert.equal(got.length, want.length);
    got.forEach((row, i) => {
      assert.deepEqual([...row.keys()], [...want[i]!.keys()]);
      for (const [k, t] of row) assert.ok(t.equals(want[i]!.get(k)!), k);
    });
  });
});

test("soleGraph: the one graph a query names, when it names no other", () => {
  assert.equal(soleGraph("SELECT ?s WHERE { GRAPH <http://x/g> { ?s ?p ?o } }"), "http://x/g");
  assert.equal(soleGraph("SELECT ?s WHERE { GRAPH <http://x/g> { ?s ?p ?o } GRAPH <http://x/g> { ?s ?p ?o } }"), "http://x/g");
  assert.equal(soleGraph("SELECT ?s WHERE { GRAPH <http://x/g> { ?s ?p ?o } OPTIONAL { GRAPH ?c { ?c ?p ?o } } }"), undefined);
  assert.equal(soleGraph("SELECT ?s WHERE { GRAPH <http://x/g> { ?s ?p ?o } GRAPH <http://x/h> { ?s ?p ?o } }"), undefined);
  assert.equal(soleGraph("SELECT ?s FROM <http://x/h> WHERE { GRAPH <http://x/g> { ?s ?p ?o } }"), undefined);
});

test("pageable: a SELECT is read in pages only when nothing but GROUP BY / HAVING follows its WHERE group", () => {
  // The reads' own queries (src/resources/dataset-read.ts): featureValues, compoundsWithFirstLine, the feature page.
  assert.equal(pageable("SELECT ?c ?f ?x WHERE { GRAPH <http://x/g> { ?e <http://x/c> ?c ; <http://x/v> ?v . ?v <http://x/f> ?f ; <http://x/x> ?x } }"), true);
  assert.equal(pageable("SELECT ?val (COUNT(*) AS ?n) WHERE { GRAPH <http://x/g> { ?x <http://x/f> ?val } } GROUP BY ?val"), true);
  assert.equal(pageable("SELECT ?c (MIN(?line) AS ?first) WHERE { GRAPH <http://x/g> { ?e <http://x/l> ?line ; <http://x/c> ?c } } GROUP BY ?c ORDER BY ?first"), false);
  assert.equal(pageable("SELECT ?f ?t WHERE { GRAPH <http://x/g> { ?f a <http://x/F> OPTIONAL { ?f <http://x/i> ?i } } } ORDER BY ?i ?f LIMIT 10 OFFSET 20"), false);
  assert.equal(pageable("SELECT ?s WHERE { GRAPH <http://x/g> { ?s ?p ?o } } LIMIT 5"), false);
  assert.equal(pageable("SELECT ?s WHERE { GRAPH <http://x/g> { ?s ?p ?o } } OFFSET 5"), false);
  assert.equal(pageable("SELECT ?s WHERE { GRAPH <http://x/g> { ?s ?p ?o } } VALUES ?s { <http://x/a> }"), false, "a trailing VALUES: LIMIT may not follow it");
  // A brace inside a string literal does not end the WHERE group.
  assert.equal(pageable('SELECT ?s WHERE { GRAPH <http://x/g> { ?s ?p ?o FILTER(?o != "}") } } ORDER BY ?s'), false);
  assert.equal(pageable('SELECT ?s WHERE { GRAPH <http://x/g> { ?s ?p ?o FILTER(?o != "\\"}") } }'), true);
  assert.equal(pageable("ASK { GRAPH <http://x/g> { ?s ?p ?o } }"), false);
  assert.equal(pageable("SELECT ?s WHERE { GRAPH <http://x/g> { ?s ?p ?o }"), false, "unbalanced");
});
