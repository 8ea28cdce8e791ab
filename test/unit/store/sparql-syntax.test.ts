/**
 * The lexical SPARQL helpers (src/store/sparql-syntax.ts): query form after the prologue, update
 * detection, SERVICE / FROM detection that is not fooled by strings, IRIs, comments or names;
 * positioned tokens, the prologue's prefixes, predeclared prefixes inserted so that only the query
 * form's line shifts, and syntax errors in one sentence at a line and column (the columns below
 * are counted by hand).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { explainSyntaxError, lineColumn, looksLikeUpdate, offsetOf, prologue, queryForm, tokens, usedPrefixes, usesFrom, usesService, withPredeclaredPrefixes } from "../../../src/store/sparql-syntax.ts";

describe("queryForm", () => {
  const cases: [string, string | undefined][] = [
    ["SELECT * WHERE { ?s ?p ?o }", "SELECT"],
    ["  select*{?s ?p ?o}", "SELECT"],
    ["ASK{}", "ASK"],
    ["PREFIX ex: <http://e/#select> PREFIX : <http://x/>\nCONSTRUCT WHERE { ?s ?p ?o }", "CONSTRUCT"],
    ["# CONSTRUCT in a comment\nBASE <http://b/> describe <x>", "DESCRIBE"],
    ["prefix ASK: <http://a/> SELECT ?ASK { ?ASK ASK:p 'CONSTRUCT' }", "SELECT"],
    ["INSERT DATA { <a> <b> <c> }", undefined],
    ["", undefined],
    ["# only a comment", undefined],
    ["<http://x> SELECT", undefined],
  ];
  for (const [text, form] of cases) {
    it(`${JSON.stringify(text)} → ${form ?? "none"}`, () => assert.equal(queryForm(text), form));
  }
});

describe("looksLikeUpdate", () => {
  const yes = ["INSERT DATA {}", "PREFIX x: <y:> delete where { ?s ?p ?o }", "WITH <g> DELETE {} WHERE {}", "LOAD <x:y>", "clear all", "DROP SILENT GRAPH <g>", "CREATE GRAPH <g>", "ADD <a> TO <b>", "MOVE DEFAULT TO <b>", "COPY <a> TO DEFAULT"];
  const no = ["SELECT * { ?s <http://x/INSERT> ?o }", "ASK { FILTER('DELETE' = ?x) }", "# INSERT\nSELECT * {}"];
  for (const t of yes) it(`update: ${t}`, () => assert.equal(looksLikeUpdate(t), true));
  for (const t of no) it(`not an update: ${t}`, () => assert.equal(looksLikeUpdate(t), false));
});

describe("usesService / usesFrom", () => {
  const cases: [string, boolean, boolean][] = [
    ["SELECT * { SERVICE <http://x/> { ?s ?p ?o } }", true, false],
    ["select * { service silent ?ep { ?s ?p ?o } }", true, false],
    ["SELECT * {SERVICE<http://x/>{?s ?p ?o}}", true, false],
    ['SELECT * { ?s ?p "SERVICE FROM" }', false, false],
    ["SELECT * { ?s ?p '''multi\nline SERVICE \\''' FROM''' }", false, false],
    ["SELECT * { ?s <http://x/SERVICE> ?o } # SERVICE FROM", false, false],
    ["PREFIX ex: <http://x/> SELECT ?service ?from { ?service ex:SERVICE $from }", false, false],
    ["SELECT * FROM <http://g/> { ?s ?p ?o }", false, true],
    ["SELECT * FROM NAMED <http://g/> { GRAPH ?g { ?s ?p ?o } }", false, true],
    ["SELECT * { ?s ?p ?o FILTER(?o < 3 && ?o > 1) SERVICE <http://x/> {} }", true, false],
    ['SELECT * { ?s ?p "unterminated\n} SERVICE <http://x/> {}', true, false],
  ];
  for (const [text, service, from] of cases) {
    it(JSON.stringify(text), () => {
      assert.equal(usesService(text), service);
      assert.equal(usesFrom(text), from);
    });
  }
});

describe("tokens, prologue, used prefixes", () => {
  it("keeps every token with its offsets, brackets included; a string to the end of its line is open", () => {
    const t = [...tokens('SELECT ?x { <a:b> ex:p "s" . # c\n ?x ex:q "open }')];
    assert.deepEqual(t.map((x) => [x.kind, x.text]), [["word", "SELECT"], ["var", "?x"], ["punct", "{"], ["iri", "<a:b>"], ["word", "ex:p"], ["string", '"s"'], ["word", "."], ["var", "?x"], ["word", "ex:q"], ["open-string", '"open }']]);
    assert.equal(t[4]!.start, 18);
  });
  it("reads the prologue's declarations and where the query form starts", () => {
    const q = "BASE <http://b/> PREFIX ex: <http://e/>\nprefix : <http://x/> SELECT * { ?s ex:p ?o }";
    const p = prologue(q);
    assert.deepEqual([...p.declared].sort(), ["", "ex"]);
    assert.equal(q.slice(p.end, p.end + 6), "SELECT");
  });
  it("finds prefixes in names, not in IRIs, strings, comments, variables or blank nodes", () => {
    assert.deepEqual([...usedPrefixes('SELECT * { ?s ot:a qg:b ; <ex:c> "dc:d" . _:b rdf:type ?o # owl:x\n FILTER(?o = xsd:int) }').keys()], ["ot", "qg", "rdf", "xsd"]);
  });
});

describe("withPredeclaredPrefixes", () => {
  const P = { ot: "http://www.opentox.org/api/1.1#", dc: "http://purl.org/dc/elements/1.1/" };
  it("declares the used, undeclared ones just before the query form, on its line", () => {
    const r = withPredeclaredPrefixes("# a comment\nSELECT ?t WHERE { ?d a ot:Dataset ; dc:title ?t }", P);
    assert.equal(r.text, "# a comment\nPREFIX ot: <http://www.opentox.org/api/1.1#> PREFIX dc: <http://purl.org/dc/elements/1.1/> SELECT ?t WHERE { ?d a ot:Dataset ; dc:title ?t }");
    assert.deepEqual([r.at, r.added], [12, r.text.length - "# a comment\nSELECT ?t WHERE { ?d a ot:Dataset ; dc:title ?t }".length]);
  });
  it("leaves a query's own declaration and unknown prefixes alone", () => {
    const own = "PREFIX ot: <http://example.org/> SELECT * { ?d a ot:Dataset ; ex:p ?o }";
    assert.equal(withPredeclaredPrefixes(own, P).text, own);
    assert.equal(withPredeclaredPrefixes("SELECT * { ?s ?p ?o }", P).added, 0);
  });
});

describe("lineColumn / offsetOf", () => {
  it("are 1-based and inverse of each other", () => {
    const t = "ab\ncd\n\nef";
    for (let o = 0; o <= t.length; o++) {
      const { line, column } = lineColumn(t, o);
      assert.equal(offsetOf(t, line, column), o);
    }
    assert.deepEqual(lineColumn(t, 4), { line: 2, column: 2 });
  });
});

describe("explainSyntaxError", () => {
  const cases: [string, number, string, { line: number; column: number; reason: RegExp }][] = [
    // Oxigraph: "error at 1:34: expected one of Prefix not found, …" (the end of ex:Dataset)
    ["SELECT ?d WHERE { ?d a ex:Dataset }", 33, "one of Prefix not found, ['%']", { line: 1, column: 24, reason: /^the prefix 'ex' is not declared/ }],
    // an undeclared prefix Oxigraph does not name (it says "expected OPTIONAL" at 3:10, further on)
    ["SELECT * WHERE {\n ?s ?p ?o .\n ?s ex:y ?z }", 38, "OPTIONAL", { line: 3, column: 5, reason: /^the prefix 'ex' is not declared/ }],
    ["SELEC * WHERE {}", 9, "CONSTRUCT", { line: 1, column: 1, reason: /^a query starts with SELECT, ASK, CONSTRUCT or DESCRIBE .*not 'SELEC'$/ }],
    ['SELECT * WHERE { ?s ?p "abc }', 29, "[_]", { line: 1, column: 24, reason: /^the string '"abc }' is not closed/ }],
    ["SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o", 40, "[_]", { line: 1, column: 31, reason: /^this '\{' is never closed/ }],
    ["SELECT * WHERE { ?s ?p ?o ) }", 29, "[_]", { line: 1, column: 27, reason: /^'\)' does not close the '\{' of line 1, column 16$/ }],
    ["ASK { ?s ?p ?o } }", 18, "[_]", { line: 1, column: 18, reason: /^'\}' closes nothing/ }],
    ["PREFIX ot: <x> SELECT * WHERE { ?s ot:a ?o }", 14, "IRI parsing failed", { line: 1, column: 12, reason: /^'<x>' is not a valid IRI/ }],
    // Oxigraph points past the '}' of line 4 (4:2): the last token before it is named
    ["SELECT ?s\nWHERE {\n  ?s ?p\n}", 27, "one of LATERAL, SERVICE, [_]", { line: 4, column: 1, reason: /^the query is not valid SPARQL at '\}'$/ }],
    ["SELECT * WHERE { ?s ?p ?o } LIMT 3", 34, "one of HAVING, OFFSET, OPTIONAL, VALUES", { line: 1, column: 34, reason: /^the query is not valid SPARQL at '3', in '\} LIMT 3'$/ }],
  ];
  for (const [query, offset, expected, want] of cases) {
    it(`${JSON.stringify(query)} → line ${want.line}, column ${want.column}`, () => {
      const p = explainSyntaxError(query, offset, expected, { ot: "http://o/" });
      assert.deepEqual([p.line, p.column], [want.line, want.column], p.reason);
      assert.match(p.reason, want.reason);
    });
  }
  it("a predeclared prefix is no error", () => {
    const p = explainSyntaxError("SELECT * WHERE { ?s a ot:X ; ?p }", 32, "[_]", { ot: "http://o/" });
    assert.doesNotMatch(p.reason, /prefix/);
  });
});
