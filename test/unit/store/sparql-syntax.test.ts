/**
 * The lexical SPARQL helpers (src/store/sparql-syntax.ts): query form after the prologue, update
 * detection, SERVICE / FROM detection that is not fooled by strings, IRIs, comments or names.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { looksLikeUpdate, queryForm, usesFrom, usesService } from "../../../src/store/sparql-syntax.ts";

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
