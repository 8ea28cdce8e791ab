/**
 * The SPARQL page and the endpoint's words (README "SPARQL"; issue 17, "SPARQL page") over HTTP on
 * a real server with hamster_carcinogenicity.csv uploaded:
 *
 * - the form: the service's prefixes declared in the text area, example queries as links that
 *   answer 200 (SELECT, ASK, CONSTRUCT as pages);
 * - results as a table whose links (IRIs of the service) answer 200, ASK as a sentence,
 *   CONSTRUCT as a table of triples; the query kept in the form;
 * - a syntax error as one sentence with line and column, for a browser (above the form, the
 *   query kept) and for every other client (text, problem+json); a good query right after it
 *   is answered;
 * - the prefixes the endpoint declares for a query that uses them undeclared (a declaration of
 *   the query's own wins);
 * - the protocol's answers unchanged: the same media types and bodies for SPARQL clients as
 *   before the page (JSON by default and for `*\/*`, CSV as Oxigraph writes it).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { HAMSTER } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { unescapeHtml } from "../helpers/html.ts";
import { QG_NS } from "../../src/store/vocab.ts";
import { readFileSync } from "node:fs";
import { Parser } from "n3";

const OT = "http://www.opentox.org/api/1.1#";
/** What a browser sends (Chromium's Accept for a page). */
const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

/** A SPARQL client that reads errors as text or problem+json (a query's own formats first, as in bad-input.test.ts). */
const TEXT = "application/sparql-results+json, text/plain;q=0.1";
const PROBLEM = "application/sparql-results+json, application/problem+json;q=0.1";


describe("the SPARQL page", () => {
  const srv = useServer({ upload: { hamster: HAMSTER } });
  const page = (query: string, extra = ""): Promise<Response> => fetch(`${srv.base}/sparql?query=${encodeURIComponent(query)}${extra}`, { headers: { Accept: BROWSER } });

  test("the form: the service's prefixes in the text area; every example link answers a page (200)", async () => {
    const r = await fetch(`${srv.base}/sparql`, { headers: { Accept: BROWSER } });
    assert.equal(r.status, 200);
    const html = await r.text();
    const area = unescapeHtml(/<textarea id="query" name="query"[^>]*>([\s\S]*?)<\/textarea>/.exec(html)?.[1] ?? "");
    for (const [p, ns] of [["ot", OT], ["ota", "http://www.opentox.org/algorithmTypes.owl#"], ["qg", QG_NS], ["dc", "http://purl.org/dc/elements/1.1/"], ["rdf", "http://www.w3.org/1999/02/22-rdf-syntax-ns#"], ["rdfs", "http://www.w3.org/2000/01/rdf-schema#"], ["owl", "http://www.w3.org/2002/07/owl#"], ["xsd", "http://www.w3.org/2001/XMLSchema#"]]) {
      assert.ok(area.includes(`PREFIX ${p}: <${ns}>`), `${p} declared in the form`);
    }
    assert.ok(html.includes('<label for="query">'), "the text area has a label");
    const examples = [...html.matchAll(/<li><a href="([^"]+)">/g)].map((m) => unescapeHtml(m[1]!));
    assert.ok(examples.length >= 5, `${examples.length} examples`);
    for (const href of examples) {
      assert.ok(href.startsWith(`${srv.base}/sparql?query=`), href);
      const e = await fetch(href, { headers: { Accept: BROWSER } });
      const body = await e.text();
      assert.equal(e.status, 200, `${href}: ${body.slice(0, 300)}`);
      assert.ok(body.includes('<section id="result">'), href);
      // The example is in the form above its result.
      const q = new URL(href).searchParams.get("query")!;
      assert.ok(unescapeHtml(body).includes(q), "the query stays in the form");
    }
  });

  test("SELECT as a table with links that answer 200; ASK as a sentence; CONSTRUCT as triples", async () => {
    const query = "SELECT ?dataset ?title ?compounds\nWHERE { ?dataset a ot:Dataset ; dc:title ?title ; qg:numberOfCompounds ?compounds }";
    const r = await page(query);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type"), "text/html; charset=utf-8");
    const html = await r.text();
    assert.ok(unescapeHtml(html).includes(query), "the query stays in the form");
    const table = /<section id="result">([\s\S]*?)<\/section>/.exec(html)![1]!;
    assert.ok(table.includes("<th scope=\"col\">?dataset</th><th scope=\"col\">?title</th><th scope=\"col\">?compounds</th>"));
    // The dataset: a link; its title escaped text; its size a literal with its datatype shown subtly.
    assert.ok(table.includes(`<a href="${srv.datasets.hamster}" class="mono">`), table.slice(0, 500));
    assert.ok(table.includes(`<td>85 <span class="dt">^^xsd:integer</span></td>`));
    const links = [...table.matchAll(/<td><a href="([^"]+)"/g)].map((m) => unescapeHtml(m[1]!));
    assert.ok(links.length >= 1);
    for (const l of links) assert.equal((await fetch(l, { headers: { Accept: BROWSER } })).status, 200, l);

    const ask = await (await page(`ASK { <${srv.datasets.hamster}> a ot:Dataset }`)).text();
    assert.ok(ask.includes("<p>Yes: the pattern of the ASK query matches the data.</p>"));
    const no = await (await page("ASK { ?d a ot:Model }")).text();
    assert.ok(no.includes("<p>No: the pattern of the ASK query does not match the data.</p>"));

    const construct = await (await page(`CONSTRUCT { <${srv.datasets.hamster}> dc:title ?t } WHERE { <${srv.datasets.hamster}> dc:title ?t }`)).text();
    const triples = /<section id="result">([\s\S]*?)<\/section>/.exec(construct)![1]!;
    assert.ok(triples.includes('<th scope="col">subject</th><th scope="col">predicate</th><th scope="col">object</th>'));
    assert.ok(triples.includes(`rel="noopener noreferrer" class="mono ext">dc:title</a>`), "an IRI outside the service: an external link, shown with its prefix");
    assert.ok(triples.includes("<td>hamster_carcinogenicity</td>"));
    assert.ok(triples.includes("triples 1–1 of 1"));
  });

  test("a qg: term links to its row on the vocabulary page, which shows the label and comment of the ontology file", async () => {
    const html = await (await page(`SELECT DISTINCT ?p WHERE { GRAPH <${srv.datasets.hamster}> { <${srv.datasets.hamster}> ?p ?o } }`)).text();
    const table = /<section id="result">([\s\S]*?)<\/section>/.exec(html)![1]!;
    assert.ok(table.includes(`<a href="${srv.base}/ontology#numberOfCompounds" class="mono">qg:numberOfCompounds</a>`), table.slice(0, 800));
    const ontology = await fetch(`${srv.base}/ontology`, { headers: { Accept: BROWSER } });
    assert.equal(ontology.status, 200);
    const rows = await ontology.text();
    // the row's label and comment as the ontology file states them (read here with n3, not through the service)
    const defs = new Parser({ baseIRI: "https://w3id.org/qsargraph/ontology" }).parse(readFileSync(new URL("../../ontology/qsargraph.ttl", import.meta.url), "utf8"));
    const of = (p: string): string => defs.find((q) => q.subject.value === `${QG_NS}numberOfCompounds` && q.predicate.value === `http://www.w3.org/2000/01/rdf-schema#${p}`)!.object.value;
    const row = /<tr id="numberOfCompounds">([\s\S]*?)<\/tr>/.exec(rows)?.[1] ?? "";
    assert.ok(unescapeHtml(row).includes(of("label")) && unescapeHtml(row).includes(of("comment")), row);
  });

  test("paging: page_size rows a page, links to the next page keep the query", async () => {
    const query = "SELECT ?c WHERE { ?e ot:compound ?c } ORDER BY ?c";
    const html = await (await page(query, "&page_size=20&page=2")).text();
    assert.ok(html.includes("rows 21–40 of 85 (page 2 of 5)"), html.slice(html.indexOf('<section id="result">'), html.indexOf('<section id="result">') + 300));
    assert.ok(html.includes(`href="${srv.base}/sparql?query=${encodeURIComponent(query)}&#38;page=3&#38;page_size=20">next</a>`));
    assert.equal((html.match(/<tr><td>/g) ?? []).length, 20);
  });

  test("a syntax error: one sentence with line and column, for the page and for every client; the next query works", async () => {
    // `ex:` is not declared (the service's prefixes are; ex is none of them); "ex:Dataset" starts
    // at line 2, column 8 (counted by hand: two spaces, "?d a " then the name).
    const bad = "SELECT ?d WHERE {\n  ?d a ex:Dataset\n}";
    const sentence = "invalid SPARQL query at line 2, column 8: the prefix 'ex' is not declared (add PREFIX ex: <…> before the query)";
    const r = await page(bad);
    assert.equal(r.status, 400);
    const html = await r.text();
    assert.ok(unescapeHtml(html).includes(`<div class="err" role="alert" id="error"><strong>The query was not run.</strong> ${sentence}</div>`), html.slice(html.indexOf("<main>"), html.indexOf("<main>") + 600));
    assert.ok(html.indexOf('id="error"') < html.indexOf("<textarea"), "the sentence is above the form");
    assert.ok(unescapeHtml(html).includes(`>${bad}</textarea>`), "the query is kept");

    const text = await fetch(`${srv.base}/sparql?query=${encodeURIComponent(bad)}`, { headers: { Accept: TEXT } });
    assert.equal(text.status, 400);
    assert.equal(await text.text(), `400 BadRequest: ${sentence} (line 2, column 8, field query)\n`);
    const problem = await fetch(`${srv.base}/sparql`, { method: "POST", body: bad, headers: { "Content-Type": "application/sparql-query", Accept: PROBLEM } });
    const p = (await problem.json()) as Record<string, unknown>;
    assert.deepEqual([problem.status, p.detail, p.line, p.column, p.field], [400, sentence, 2, 8, "query"]);
    // Another fault: a brace never closed, named where it opens (line 1, column 16).
    const open = await fetch(`${srv.base}/sparql?query=${encodeURIComponent("SELECT * WHERE { ?s ?p ?o")}`, { headers: { Accept: TEXT } });
    assert.equal(await open.text(), "400 BadRequest: invalid SPARQL query at line 1, column 16: this '{' is never closed (the query ends before its '}') (line 1, column 16, field query)\n");

    // The next query is answered (the refusal left nothing behind).
    const good = await page("SELECT (COUNT(*) AS ?n) WHERE { ?d a ot:Dataset }");
    assert.equal(good.status, 200);
    assert.ok((await good.text()).includes("<td>1 <span class=\"dt\">^^xsd:integer</span></td>"));
  });

  test("the service's prefixes are declared for a query that uses them undeclared; the query's own declaration wins", async () => {
    const count = async (query: string): Promise<string> => {
      const r = await fetch(`${srv.base}/sparql?query=${encodeURIComponent(query)}`, { headers: { Accept: "application/sparql-results+json" } });
      assert.equal(r.status, 200, await r.clone().text());
      return ((await r.json()) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]!.n.value;
    };
    assert.equal(await count("SELECT (COUNT(?d) AS ?n) WHERE { ?d a ot:Dataset ; qg:numberOfCompounds 85 }"), "1");
    assert.equal(await count("PREFIX ot: <http://example.org/not-opentox#>\nSELECT (COUNT(?d) AS ?n) WHERE { ?d a ot:Dataset }"), "0");
    // The declarations go on the query's line, before SELECT: an error after them on that line is
    // still named at its column in the text as sent: the object after dc:title is missing, and
    // the sentence names dc:title, column 37 (counted by hand) — the column the same query with
    // its own PREFIX lines gives, less their length.
    const r = await fetch(`${srv.base}/sparql?query=${encodeURIComponent("SELECT ?d WHERE { ?d a ot:Dataset ; dc:title }")}`, { headers: { Accept: PROBLEM } });
    const p = (await r.json()) as Record<string, unknown>;
    assert.deepEqual([r.status, p.line, p.column], [400, 1, 37], String(p.detail));
  });

  test("the protocol's answers are unchanged for SPARQL clients", async () => {
    const query = `SELECT ?t WHERE { <${srv.datasets.hamster}> <http://purl.org/dc/elements/1.1/title> ?t }`;
    const url = `${srv.base}/sparql?query=${encodeURIComponent(query)}`;
    const expected: [string | undefined, string][] = [
      [undefined, "application/sparql-results+json"],
      ["*/*", "application/sparql-results+json"],
      ["application/sparql-results+json", "application/sparql-results+json"],
      ["application/sparql-results+xml", "application/sparql-results+xml"],
      ["text/csv", "text/csv; charset=utf-8"],
      ["text/tab-separated-values", "text/tab-separated-values; charset=utf-8"],
      ["application/json, */*;q=0.5", "application/sparql-results+json"],
    ];
    for (const [accept, type] of expected) {
      const r = await fetch(url, accept ? { headers: { Accept: accept } } : {});
      assert.deepEqual([r.status, r.headers.get("content-type")], [200, type], String(accept));
    }
    // The bodies, as Oxigraph writes them (SPARQL 1.1 Query Results CSV and JSON).
    assert.equal(await (await fetch(url, { headers: { Accept: "text/csv" } })).text(), "t\r\nhamster_carcinogenicity\r\n");
    assert.deepEqual(await (await fetch(url)).json(), { head: { vars: ["t"] }, results: { bindings: [{ t: { type: "literal", value: "hamster_carcinogenicity" } }] } });
    const turtle = await fetch(`${srv.base}/sparql?query=${encodeURIComponent(`CONSTRUCT WHERE { <${srv.datasets.hamster}> <http://purl.org/dc/elements/1.1/title> ?t }`)}`);
    assert.equal(turtle.headers.get("content-type"), "text/turtle; charset=utf-8");
    // POST as before: a form and the query itself.
    const form = await fetch(`${srv.base}/sparql`, { method: "POST", body: new URLSearchParams({ query }), headers: { Accept: "text/csv" } });
    assert.equal(await form.text(), "t\r\nhamster_carcinogenicity\r\n");
    // Without a query, a client that does not ask for HTML still gets the protocol's 400.
    assert.equal((await fetch(`${srv.base}/sparql`, { headers: { Accept: "application/sparql-results+json" } })).status, 400);
  });
});
