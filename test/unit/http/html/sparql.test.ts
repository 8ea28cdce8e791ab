/**
 * The SPARQL page's terms and frame (src/http/html/sparql.ts): IRIs of the service are links, other
 * http(s) IRIs external links (rel noopener noreferrer), anything else text; literals escaped with
 * their datatype or language shown apart; the prefixes in the text area; an error above the form.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { prefixBlock, sparqlHtml, termHtml } from "../../../../src/http/html/sparql.ts";
import { QG_NS } from "../../../../src/store/vocab.ts";

const BASE = "http://q.example";
const P = { ot: "http://www.opentox.org/api/1.1#", xsd: "http://www.w3.org/2001/XMLSchema#", qg: QG_NS };

describe("termHtml", () => {
  it("links the service's IRIs, shortens with prefixes, marks external links, escapes everything", () => {
    assert.equal(termHtml({ type: "uri", value: `${BASE}/dataset/abc` }, BASE, P), `<a href="${BASE}/dataset/abc" class="mono">/dataset/abc</a>`);
    assert.equal(termHtml({ type: "uri", value: `${QG_NS}line` }, BASE, P), `<a href="${BASE}/ontology#line" class="mono">qg:line</a>`, "a qg: term links to its row on this service's vocabulary page");
    assert.equal(termHtml({ type: "uri", value: "http://www.opentox.org/api/1.1#Dataset" }, BASE, P), `<a href="http://www.opentox.org/api/1.1#Dataset" rel="noopener noreferrer" class="mono ext">ot:Dataset</a>`);
    assert.equal(termHtml({ type: "uri", value: "urn:x:<y>" }, BASE, P), `<span class="mono">urn:x:&#60;y&#62;</span>`);
    assert.equal(termHtml({ type: "uri", value: "javascript:alert(1)" }, BASE, P), `<span class="mono">javascript:alert(1)</span>`, "no link for other schemes");
    assert.equal(termHtml({ type: "literal", value: "<b>&", datatype: `${P.xsd}string` }, BASE, P), "&#60;b&#62;&#38;");
    assert.equal(termHtml({ type: "literal", value: "85", datatype: `${P.xsd}integer` }, BASE, P), `85 <span class="dt">^^xsd:integer</span>`);
    assert.equal(termHtml({ type: "literal", value: "chat", "xml:lang": "fr" }, BASE, P), `chat <span class="dt">@fr</span>`);
    assert.equal(termHtml({ type: "bnode", value: "b0" }, BASE, P), `<span class="mono">_:b0</span>`);
    assert.equal(termHtml(null, BASE, P), "");
  });
});

describe("sparqlHtml", () => {
  it("the form starts with the prefixes; an error goes above the form with the query kept", () => {
    const form = sparqlHtml({ base: BASE, prefixes: P });
    assert.ok(form.includes(prefixBlock(P).replace(/</g, "&#60;").replace(/>/g, "&#62;")));
    const err = sparqlHtml({ base: BASE, prefixes: P, query: "SELECT <", error: "invalid SPARQL query at line 1, column 8: x" });
    assert.ok(err.indexOf('id="error"') < err.indexOf("<textarea"));
    assert.ok(err.includes(">SELECT &#60;</textarea>"));
  });
  it("ASK as a sentence; a page of rows with its navigation", () => {
    assert.ok(sparqlHtml({ base: BASE, prefixes: P, query: "ASK {}", result: { form: "ASK", vars: [], rows: [], total: 0, boolean: true } }).includes("<p>Yes: the pattern of the ASK query matches the data.</p>"));
    const rows = Array.from({ length: 2 }, (_, i) => [{ type: "literal" as const, value: String(i) }]);
    const html = sparqlHtml({ base: BASE, prefixes: P, query: "SELECT ?x {}", result: { form: "SELECT", vars: ["x"], rows, total: 5 }, page: 2, pageSize: 2 });
    assert.ok(html.includes("rows 3–4 of 5 (page 2 of 3)"));
    assert.ok(html.includes(`href="${BASE}/sparql?query=SELECT%20%3Fx%20%7B%7D&#38;page=3&#38;page_size=2">next</a>`));
  });
});
