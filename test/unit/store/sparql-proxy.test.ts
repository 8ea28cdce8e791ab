/**
 * The proxy's pure parts: the FROM clauses taken out of a query (store/sparql-proxy.ts
 * `takeFrom`) and an external store's answer written as a local result (store/sparql-exec.ts
 * `executeRemote`). Expected values: the answers are written by hand in SPARQL 1.1 Query Results
 * JSON (W3C Recommendation §3) and N-Triples, shaped as Virtuoso writes them (`typed-literal`,
 * tabs, `\u` escapes: docs/virtuoso.md findings 2 and 10); the local results are what Oxigraph
 * gives for the same solutions on the embedded endpoint (executeQuery on a store holding them).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import * as ox from "oxigraph";
import { BadRequest } from "../../../src/errors.ts";
import { executeQuery, executeRemote, TABLE_FORMAT } from "../../../src/store/sparql-exec.ts";
import { graphsAsVariables, graphsAsVariablesRefusal, onlyConstantGraphs, selectsStar, takeFrom } from "../../../src/store/sparql-proxy.ts";

describe("takeFrom: constant graphs and counting (queries Virtuoso answers wrongly: docs/virtuoso.md finding 11)", () => {
  const c = (q: string): { graphs: string[]; counting: boolean } => {
    const r = takeFrom(q, { ex: "http://ex/" });
    return { graphs: r.graphs, counting: r.counting };
  };
  test("constant graphs (IRI or prefixed name, resolved) and ASK, an aggregate or EXISTS", () => {
    assert.deepEqual(c("ASK { GRAPH <http://g/a> { ?s ?p ?o } }"), { graphs: ["http://g/a"], counting: true });
    assert.deepEqual(c("SELECT (COUNT(*) AS ?n) WHERE { graph ex:a { ?s ?p ?o } }"), { graphs: ["http://ex/a"], counting: true });
    assert.deepEqual(c("SELECT ?s WHERE { ?s ?p ?o FILTER NOT EXISTS { GRAPH <http://g/a> { ?s ?p ?o } } }"), { graphs: ["http://g/a"], counting: true });
    assert.deepEqual(c("SELECT (MAX(?o) AS ?m) WHERE { GRAPH ?g { ?s ?p ?o } }"), { graphs: [], counting: true });
  });
  test("rows only, and words inside strings and IRIs: not counting", () => {
    assert.deepEqual(c("SELECT ?s WHERE { GRAPH <http://g/a> { ?s ?p ?o } }"), { graphs: ["http://g/a"], counting: false });
    assert.deepEqual(c('SELECT ?s WHERE { GRAPH <http://g/count> { ?s ?p "ASK COUNT" } }'), { graphs: ["http://g/count"], counting: false });
  });
});

describe("onlyConstantGraphs: every triple pattern inside GRAPH <constant>", () => {
  test("yes: patterns in constant graphs, with FILTER, BIND, VALUES, OPTIONAL and solution modifiers outside", () => {
    assert.equal(onlyConstantGraphs("SELECT (COUNT(?e) AS ?n) WHERE { GRAPH <http://g/d> { <http://g/d> ot:dataEntry ?e } }"), true);
    assert.equal(onlyConstantGraphs("SELECT ?v (COUNT(*) AS ?n) WHERE { GRAPH ex:d { ?e ot:values ?x . ?x ot:value ?v } } GROUP BY ?v ORDER BY ?v"), true);
    assert.equal(onlyConstantGraphs("ASK { VALUES ?s { <http://s/1> } GRAPH <http://g/a> { ?s ?p ?o } FILTER(?o > 1) BIND(2 AS ?b) OPTIONAL { GRAPH <http://g/b> { ?s ?q ?r } } }"), true);
  });
  test("no: GRAPH ?g, a pattern in the default graph, or a sub-SELECT's projection", () => {
    assert.equal(onlyConstantGraphs("ASK { GRAPH ?g { ?s ?p ?o } }"), false);
    assert.equal(onlyConstantGraphs("SELECT (COUNT(*) AS ?n) WHERE { { GRAPH <http://g/d> { ?s ?p ?o } } UNION { GRAPH ?g { ?s ?p ?o } } }"), false);
    assert.equal(onlyConstantGraphs("ASK { GRAPH <http://g/a> { ?s ?p ?o } ?o ?q ?r }"), false);
    assert.equal(onlyConstantGraphs("ASK { ?s a ot:Dataset }"), false);
    assert.equal(onlyConstantGraphs("SELECT (COUNT(*) AS ?n) WHERE { { SELECT ?s WHERE { GRAPH <http://g/a> { ?s ?p ?o } } } }"), false);
  });
});

describe("graphsAsVariables: GRAPH <g> { P } as { GRAPH ?_gN { P } VALUES ?_gN { <g> } } (docs/virtuoso.md finding 11)", () => {
  // The reference is Oxigraph (the embedded endpoint's engine): the rewritten query must give the
  // original's solutions on the same data, where <http://g/hidden> plays a graph the service does
  // not serve: the original runs on a store without it; the rewritten one on a store with it, its
  // GRAPH ?g kept to the served graphs as Virtuoso's exclusion pragmas keep it (a dataset of the
  // default graph and the served named graphs), and its constant graphs not so kept: the rewrite
  // alone must make a block of the hidden graph match nothing.
  const E = "http://e/";
  const data = `
    <http://g/d> { <${E}d> <${E}entry> <${E}e1> , <${E}e2> . <${E}e1> <${E}compound> <${E}c1> . <${E}e2> <${E}compound> <${E}c2> . <${E}e1> <${E}value> 1 . }
    <http://g/c1> { <${E}c1> <${E}name> "one" . <${E}c1> <${E}in> <http://g/d> . }
    <http://g/c2> { <${E}c2> <${E}name> "two" ; <${E}name> "deux"@fr . }
    <http://g/hidden> { <${E}c1> <${E}name> "hidden" . <${E}e1> <${E}compound> <${E}c9> . }
    { <${E}c1> <${E}mass> 10 . <${E}c2> <${E}mass> 20 . <${E}c3> <${E}mass> 30 . }`;
  const full = new ox.Store();
  full.load(data, { format: "application/trig" });
  const served = new ox.Store();
  served.load(data, { format: "application/trig" });
  for (const q of served.match(null, null, null, ox.namedNode("http://g/hidden"))) served.delete(q);
  const NONE = "http://store/.store/none";
  const prefixes = { ex: E };
  const prologue = `PREFIX ex: <${E}>\nPREFIX g: <http://g/>\n`;
  const solutions = (store: ox.Store, q: string, dataset: { default_graph?: ox.DefaultGraph; named_graphs?: ox.NamedNode[] } = {}): unknown => {
    const r = store.query(prologue + q, { use_default_graph_as_union: false, ...dataset });
    if (typeof r === "boolean") return r;
    return (r as Map<string, ox.Term>[]).map((m) => JSON.stringify([...m].map(([k, v]) => [k, v.termType, v.value]).sort())).sort();
  };
  const rewrite = (q: string, projection?: string[]): string | undefined => {
    const text = prologue + q;
    const taken = takeFrom(text, prefixes);
    const out = graphsAsVariables(text, taken.graphNames, (g) => g !== "http://g/hidden", NONE, projection);
    return out === undefined ? undefined : out.slice(prologue.length);
  };
  const same = (q: string, projection?: string[]): string => {
    const r = rewrite(q, projection);
    assert.ok(r !== undefined, q);
    assert.doesNotMatch(r, /GRAPH\s*(<|g:)/, "no constant graph left");
    // with VALUES ?_gN { <hidden> } the restricted dataset would hide it: only a GRAPH ?var the user wrote gets the restriction
    const userGraphVariable = /GRAPH\s*\?(?!_+g\d)/i.test(r);
    const dataset = userGraphVariable ? { default_graph: ox.defaultGraph(), named_graphs: ["http://g/d", "http://g/c1", "http://g/c2"].map((g) => ox.namedNode(g)) } : {};
    assert.deepEqual(solutions(full, r, dataset), solutions(served, q), `${q}\n→ ${r}`);
    return r;
  };
  const vars = (q: string): string[] => {
    const r = served.query(prologue + q) as Map<string, ox.Term>[];
    return [...new Set(r.flatMap((m) => [...m.keys()]))];
  };

  test("a constant graph with GRAPH ?g, the default graph, OPTIONAL, MINUS, NOT EXISTS, UNION, a sub-SELECT, nested GRAPH: the same solutions", () => {
    same("SELECT ?c ?n WHERE { GRAPH <http://g/d> { <http://e/d> ex:entry ?e . ?e ex:compound ?c } GRAPH ?c2 { ?c ex:name ?n } }");
    same("SELECT ?c ?n ?m WHERE { GRAPH g:d { ?e ex:compound ?c } ?c ex:mass ?m OPTIONAL { GRAPH ?g { ?c ex:name ?n FILTER(LANG(?n) = \"fr\") } } }");
    same("SELECT ?c ?v WHERE { ?c ex:mass ?m OPTIONAL { GRAPH g:d { ?e ex:compound ?c ; ex:value ?v } FILTER(?m > 5) } }");
    same("SELECT ?c WHERE { ?c ex:mass ?m MINUS { GRAPH g:d { ?e ex:compound ?c } } }");
    same("SELECT ?c WHERE { ?c ex:mass ?m FILTER NOT EXISTS { GRAPH g:d { ?e ex:compound ?c } } }");
    same("SELECT ?c ?n WHERE { { GRAPH g:c1 { ?c ex:name ?n } } UNION { GRAPH ?g { ?c ex:name ?n } } }");
    same("SELECT ?c ?m WHERE { { SELECT ?c WHERE { GRAPH g:d { ?e ex:compound ?c } } } ?c ex:mass ?m }");
    same("SELECT ?c ?g WHERE { GRAPH ?g { ?c ex:in ?d GRAPH g:d { ?e ex:compound ?c } } }");
    same("SELECT (COUNT(*) AS ?n) WHERE { GRAPH g:d { ?e ex:compound ?c } ?c ex:mass ?m }");
    same("ASK { GRAPH g:d { ?e ex:compound ex:c2 } ?s ?p ?o }");
    same("ASK { GRAPH g:d { ?e ex:compound ex:c9 } ?s ?p ?o }");
  });

  test("a graph not served matches nothing (rows, COUNT 0, ASK false), also beside one that is", () => {
    same("SELECT ?c ?n WHERE { GRAPH <http://g/hidden> { ?c ex:name ?n } ?c ex:mass ?m }");
    same("SELECT (COUNT(*) AS ?k) WHERE { GRAPH g:hidden { ?s ?p ?o } ?s ?q ?r }");
    same("ASK { GRAPH g:hidden { ?s ?p ?o } ?s ?q ?r }");
    same("SELECT ?c ?x WHERE { GRAPH g:d { ?e ex:compound ?c } ?c ex:mass ?m OPTIONAL { GRAPH g:hidden { ?c ex:name ?x } } }");
    assert.match(rewrite("ASK { GRAPH g:hidden { ?s ?p ?o } ?s ?q ?r }")!, new RegExp(`VALUES \\?_g1 \\{ <${NONE}> \\}`));
  });

  test("SELECT *: the star replaced by the query's own variables (the graph variables not among them); DISTINCT * at the top too", () => {
    const q = "SELECT * WHERE { GRAPH g:d { ?e ex:compound ?c } GRAPH ?g { ?c ex:name ?n } }";
    assert.equal(selectsStar(q), true);
    const r = same(q, vars(q));
    assert.deepEqual(vars(r).sort(), ["c", "e", "g", "n"]);
    const d = "SELECT DISTINCT * WHERE { { GRAPH g:c1 { ?c ex:name ?n } } UNION { GRAPH g:c2 { ?c ex:name ?n } } ?c ex:mass ?m }";
    same(d, ["c", "n", "m"]);
    // without its variables, no rewrite
    assert.equal(rewrite(q), undefined);
    assert.equal(selectsStar("SELECT ?s WHERE { { SELECT * WHERE { ?s ?p ?o } } }"), false);
  });

  test("the graph variables are named apart from the query's; what the rewrite would change is refused with the reason", () => {
    const r = rewrite("SELECT ?_g1 ?c WHERE { GRAPH g:d { ?_g1 ex:compound ?c } ?c ex:mass ?m }")!;
    assert.match(r, /GRAPH \?__g1 \{/);
    same("SELECT ?_g1 ?c WHERE { GRAPH g:d { ?_g1 ex:compound ?c } ?c ex:mass ?m }");
    assert.match(graphsAsVariablesRefusal("DESCRIBE * WHERE { GRAPH <http://g/d> { ?s ?p ?o } ?s ?q ?r }")!, /^DESCRIBE \*/);
    assert.match(graphsAsVariablesRefusal("SELECT ?s WHERE { { SELECT DISTINCT * WHERE { GRAPH <http://g/d> { ?s ?p ?o } } } ?s ?q ?r }")!, /DISTINCT \*/);
    assert.match(graphsAsVariablesRefusal("SELECT (COUNT(DISTINCT *) AS ?n) WHERE { GRAPH <http://g/d> { ?s ?p ?o } ?s ?q ?r }")!, /DISTINCT \*/);
    assert.equal(graphsAsVariablesRefusal("SELECT DISTINCT * WHERE { GRAPH <http://g/d> { ?s ?p ?o } ?s ?q ?r }"), undefined);
    assert.equal(rewrite("DESCRIBE * WHERE { GRAPH <http://g/d> { ?s ?p ?o } ?s ?q ?r }"), undefined);
  });
});

describe("takeFrom", () => {
  test("FROM and FROM NAMED with IRIs, prefixed names (declared or predeclared) and a BASE; the text keeps its length", () => {
    const q = "BASE <http://b.example/d/>\nPREFIX g: <http://g.example/>\nSELECT * FROM <x> FROM g:one FROM NAMED ot:two FROM NAMED <http://abs.example/three> WHERE { ?s ?p \"FROM <no>\" }";
    const r = takeFrom(q, { ot: "http://www.opentox.org/api/1.1#" });
    assert.deepEqual(r.from, ["http://b.example/d/x", "http://g.example/one"]);
    assert.deepEqual(r.fromNamed, ["http://www.opentox.org/api/1.1#two", "http://abs.example/three"]);
    assert.equal(r.text.length, q.length);
    assert.doesNotMatch(r.text.slice(0, r.text.indexOf("WHERE")), /FROM/);
    assert.match(r.text, /WHERE \{ \?s \?p "FROM <no>" \}$/);
  });

  test("no FROM: the text unchanged", () => {
    const q = "SELECT ?from WHERE { ?from ?p ?o }";
    assert.deepEqual(takeFrom(q, {}), { text: q, from: [], fromNamed: [], graphs: [], graphNames: [], counting: false });
  });
});

describe("executeRemote: an external answer written by the embedded endpoint's code", () => {
  const select = "SELECT ?s ?n ?b WHERE { ?s <http://e/n> ?n OPTIONAL { ?s <http://e/b> ?b } }";
  // Virtuoso's JSON: typed-literal, an unbound variable left out, a blank node twice in one row
  const remote = JSON.stringify({
    head: { link: [], vars: ["s", "n", "b"] },
    results: {
      distinct: false,
      ordered: true,
      bindings: [
        { s: { type: "uri", value: "http://e/x" }, n: { type: "typed-literal", datatype: "http://www.w3.org/2001/XMLSchema#integer", value: "2" }, b: { type: "bnode", value: "nodeID://b1" } },
        { s: { type: "uri", value: "http://e/y" }, n: { type: "literal", value: "bü \"q\"\n", "xml:lang": "fr" } },
      ],
    },
  });

  test("SELECT: the same text as Oxigraph writes for the same solutions, in every format; rows in the store's order", () => {
    const local = new ox.Store();
    local.load('<http://e/x> <http://e/n> "2"^^<http://www.w3.org/2001/XMLSchema#integer> .\n<http://e/x> <http://e/b> _:k .\n<http://e/y> <http://e/n> "bü \\"q\\"\\n"@fr .\n', { format: "application/n-triples", to_graph_name: ox.namedNode("http://e/g") });
    for (const format of ["text/csv", "text/tab-separated-values"]) {
      const got = executeRemote({ query: select, format, remote }, 10).body;
      const want = executeQuery(local, { query: `${select} ORDER BY ?s`, format }, 10).body;
      // blank node labels are made afresh on both sides: compare with them blanked
      const blank = (s: string): string => s.replace(/_:[A-Za-z0-9]+/g, "_:B");
      assert.equal(blank(got), blank(want), format);
    }
    const json = JSON.parse(executeRemote({ query: select, format: "application/sparql-results+json", remote }, 10).body) as { head: { vars: string[] }; results: { bindings: Record<string, { type: string; value: string; datatype?: string; "xml:lang"?: string }>[] } };
    assert.deepEqual(json.head.vars, ["s", "n", "b"]);
    assert.equal(json.results.bindings[0]!.b!.type, "bnode");
    assert.deepEqual(json.results.bindings[0]!.n, { type: "literal", value: "2", datatype: "http://www.w3.org/2001/XMLSchema#integer" });
    assert.deepEqual(json.results.bindings[1], { s: { type: "uri", value: "http://e/y" }, n: { type: "literal", value: "bü \"q\"\n", "xml:lang": "fr" } });
  });

  test("ASK, the page's table, and CONSTRUCT from Virtuoso's N-Triples", () => {
    assert.equal(executeRemote({ query: "ASK {}", format: "application/sparql-results+json", remote: '{  "head": { "link": [] }, "boolean": false}' }, 10).body, '{"head":{},"boolean":false}');
    const table = JSON.parse(executeRemote({ query: select, format: TABLE_FORMAT, remote, table: { offset: 1, limit: 5 } }, 10).body) as { total: number; rows: unknown[][] };
    assert.equal(table.total, 2);
    assert.deepEqual(table.rows, [[{ type: "uri", value: "http://e/y" }, { type: "literal", value: "bü \"q\"\n", "xml:lang": "fr" }, null]]);
    const nt = "<http://e/x>\t<http://e/n>\t\"b\\u00FC\" .\n<http://e/x>\t<http://e/m>\t<http://e/y> .\n";
    assert.equal(executeRemote({ query: "CONSTRUCT WHERE { ?s ?p ?o }", format: "text/turtle", remote: nt }, 10).body, '<http://e/x> <http://e/n> "bü" ;\n\t<http://e/m> <http://e/y> .\n');
  });

  test("the result limit is counted on the answer: 400 as on the embedded endpoint", () => {
    assert.throws(() => executeRemote({ query: select, format: "text/csv", remote }, 1), (e: unknown) => e instanceof BadRequest && e.message === "the result has more than 1 rows (2); add LIMIT 1 or narrow the query");
    assert.throws(() => executeRemote({ query: "CONSTRUCT WHERE { ?s ?p ?o }", format: "text/turtle", remote: "# a comment\n<a:x> <a:p> <a:y> .\n<a:x> <a:p> <a:z> .\n" }, 1), (e: unknown) => e instanceof BadRequest && /more than 1 triples \(2\)/.test(e.message));
  });
});
