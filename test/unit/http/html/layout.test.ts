/**
 * The page frame's header (src/http/html/layout.ts): every collection in order, the current one
 * marked — `aria-current="page"` on the collection's own page, "location" within it — and a skip
 * link to the content. Paths and expected sections written here by hand.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { currentSection, page, siteNav } from "../../../../src/http/html/layout.ts";

const B = "http://localhost:8080";

describe("the header", () => {
  it("the section of a page: the longest collection path its URI starts with; the home page only for /", () => {
    assert.equal(currentSection(B, `${B}/`), "/");
    assert.equal(currentSection(B, `${B}/dataset`), "/dataset");
    assert.equal(currentSection(B, `${B}/dataset/abcdefghijkm?page=2`), "/dataset");
    assert.equal(currentSection(B, `${B}/validation/report/crossvalidation/abcdefghijkm`), "/validation");
    assert.equal(currentSection(B, `${B}/compound?q=CCO`), "/compound");
    assert.equal(currentSection(B, `${B}/datasets`), undefined, "a prefix of a word is not a section");
    assert.equal(currentSection(B, undefined), undefined);
    assert.equal(currentSection(B, "http://elsewhere/dataset"), undefined);
  });
  it("every collection, in order; the current one marked", () => {
    const nav = siteNav(B, `${B}/model/abcdefghijkm`);
    assert.deepEqual([...nav.matchAll(/>([^<]+)<\/a>/g)].map((m) => m[1]), ["qsargraph", "Datasets", "Compounds", "Models", "Validations", "Algorithms", "Tasks", "SPARQL", "Ontology", "API description"]);
    assert.deepEqual([...nav.matchAll(/aria-current="(\w+)">([^<]+)</g)].map((m) => [m[1], m[2]]), [["location", "Models"]]);
    assert.deepEqual([...siteNav(B, `${B}/model`).matchAll(/aria-current="(\w+)">([^<]+)</g)].map((m) => [m[1], m[2]]), [["page", "Models"]]);
    assert.deepEqual([...siteNav(B, `${B}/`).matchAll(/aria-current="(\w+)">([^<]+)</g)].map((m) => [m[1], m[2]]), [["page", "qsargraph"]]);
    assert.doesNotMatch(siteNav(B), /aria-current/);
  });
  it("a page has the skip link before the header and the content as its target", () => {
    const html = page("T", "<p>x</p>", { base: B, self: `${B}/task` });
    assert.ok(html.indexOf(`<a class="skip" href="#main">`) < html.indexOf("<header>"));
    assert.match(html, /<main id="main"><h1>T<\/h1>/);
    assert.match(html, /@media print\{header,/);
  });
});

describe("alternate links", () => {
  it("one <link rel=alternate> per format, with its media type, in the head", () => {
    const html = page("T", "", { base: B, self: `${B}/dataset/abc`, formats: ["ttl", "jsonld", "csv"] });
    const head = html.slice(0, html.indexOf("</head>"));
    assert.deepEqual([...head.matchAll(/<link rel="alternate" type="([^"]+)" href="([^"]+)">/g)].map((m) => [m[1], m[2]]), [
      ["text/turtle", `${B}/dataset/abc?format=ttl`],
      ["application/ld+json", `${B}/dataset/abc?format=jsonld`],
      ["text/csv", `${B}/dataset/abc?format=csv`],
    ]);
    assert.doesNotMatch(page("T", "", { base: B }), /rel="alternate"/);
  });
});
