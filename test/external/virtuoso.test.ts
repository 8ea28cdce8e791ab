/**
 * Probes of Virtuoso Open Source 7.2 (Debian's virtuoso-opensource), the store that
 * `--store sparql` (issue 19) is tested against. Each test states one fact the SPARQL backend's
 * design relies on and asserts it, so that a Virtuoso that behaves otherwise fails here first.
 * The expected values are what the SPARQL 1.1 / XSD / RDF 1.1 specifications say a store may
 * keep or must return, or hand-written figures; where Virtuoso departs from them, the test
 * asserts what it does and docs/virtuoso.md says what follows for the backend.
 * Not part of `npm test`: `npm run test:external` (CI's .ci/run calls it).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Parser, type Quad } from "n3";
import { encodeInchiForPath } from "../../src/resources/uris.ts";
import { startVirtuoso, virtuosoVersion, type Virtuoso } from "../helpers/virtuoso.ts";

const XSD = "http://www.w3.org/2001/XMLSchema#";
const T = "http://probe.test/";
const NT = "application/n-triples";

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: string;
  readonly ms: number;
}

async function send(url: string, init: RequestInit = {}): Promise<Reply> {
  const t0 = performance.now();
  const r = await fetch(url, { ...init, signal: AbortSignal.timeout(180_000) });
  const body = await r.text();
  return { status: r.status, headers: r.headers, body, ms: Math.round(performance.now() - t0) };
}

/** A client of one Virtuoso: SPARQL query/update and Graph Store Protocol calls. */
function client(v: Virtuoso) {
  const gspUrl = (g: string): string => `${v.gsp}?graph-uri=${encodeURIComponent(g)}`;
  const c = {
    update: (update: string) => send(v.update, { method: "POST", body: new URLSearchParams({ update }) }),
    query: (query: string, accept = "application/sparql-results+json", params: Record<string, string> = {}) =>
      send(v.sparql, { method: "POST", headers: { accept }, body: new URLSearchParams({ query, ...params }) }),
    async select(query: string, params: Record<string, string> = {}): Promise<Record<string, { type: string; value: string; datatype?: string; "xml:lang"?: string }>[]> {
      const r = await c.query(query, "application/sparql-results+json", params);
      assert.equal(r.status, 200, r.body);
      return (JSON.parse(r.body) as { results: { bindings: [] } }).results.bindings;
    },
    async count(where: string, params: Record<string, string> = {}): Promise<number> {
      const rows = await c.select(`SELECT (COUNT(*) AS ?n) WHERE { ${where} }`, params);
      return Number(rows[0]!.n!.value);
    },
    graphSize: (g: string) => c.count(`GRAPH <${g}> { ?s ?p ?o }`),
    put: (g: string, body: string, type = NT) => send(gspUrl(g), { method: "PUT", headers: { "content-type": type }, body }),
    post: (g: string, body: string, type = NT) => send(gspUrl(g), { method: "POST", headers: { "content-type": type }, body }),
    get: (g: string, accept = NT) => send(gspUrl(g), { headers: { accept } }),
    delete: (g: string) => send(gspUrl(g), { method: "DELETE" }),
  };
  return c;
}

function expectStatus(r: Reply, status: number, what = ""): void {
  assert.equal(r.status, status, `${what} ${r.body.slice(0, 500)}`);
}

const parseNt = (text: string): Quad[] => new Parser({ format: "N-Triples" }).parse(text);

/** `n` triples `<T{tag}{i}> <T v> i`, as N-Triples. */
function numbered(tag: string, n: number, from = 0): string {
  let s = "";
  for (let i = from; i < from + n; i++) s += `<${T}${tag}${i}> <${T}v> "${i}"^^<${XSD}integer> .\n`;
  return s;
}

describe("Virtuoso 7.2 as the store of --store sparql", () => {
  let v: Virtuoso;
  let c: ReturnType<typeof client>;
  before(async () => {
    // ResultSetMaxRows 10,000 (Virtuoso's own default) so that truncation shows on small graphs.
    v = await startVirtuoso({ resultSetMaxRows: 10_000 });
    c = client(v);
  });
  after(async () => {
    // Virtuoso's own error lines, for a failure on CI.
    const log = v ? join(v.dir, "virtuoso.log") : "";
    const errors = `${v?.output() ?? ""}\n${log && existsSync(log) ? readFileSync(log, "utf8") : ""}`.split("\n").filter((l) => /error/i.test(l));
    if (errors.length > 0) console.log(`# virtuoso-t logged:\n${errors.slice(0, 20).map((l) => `#   ${l}`).join("\n")}`);
    await v?.stop();
  });

  test("starts with an empty database in seconds", (t) => {
    t.diagnostic(`virtuoso-t ${virtuosoVersion()} online after ${Math.round(v.startMs)} ms`);
    // The issue measured ≈12 s; a minute means something is wrong (the helper's own limit).
    assert.ok(v.startMs < 60_000);
  });

  test("a FROM-less query's default graph is the union of all graphs, Virtuoso's system graphs included; FROM, default-graph-uri and input:default-graph-uri restrict it", async (t) => {
    // Before any data: the three graphs Virtuoso creates itself (observed on 7.2.5; SPARQL 1.1
    // leaves the default dataset to the store).
    const graphs = await c.select("SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g ORDER BY ?g");
    const byGraph = Object.fromEntries(graphs.map((b) => [b.g!.value, Number(b.n!.value)]));
    t.diagnostic(`system graphs before any data: ${JSON.stringify(byGraph)}`);
    assert.deepEqual(Object.keys(byGraph).sort(), ["http://localuriqaserver/sparql", "http://www.openlinksw.com/schemas/virtrdf#", "http://www.w3.org/ns/ldp#"]);
    const system = Object.values(byGraph).reduce((a, b) => a + b, 0);
    assert.equal(await c.count("?s ?p ?o"), system, "the default graph is the union of the system graphs");
    assert.ok(system > 1000, `${system} system triples`);

    expectStatus(await c.put(`${T}dg1`, numbered("dg", 3)), 201);
    assert.equal(await c.count("?s ?p ?o"), system + 3, "new data joins the union");
    // Ways to restrict the dataset to the service's graphs:
    assert.equal(await c.count("?s ?p ?o", { "default-graph-uri": `${T}dg1` }), 3, "protocol parameter default-graph-uri");
    assert.equal(await c.count("?s ?p ?o", { "default-graph-uri": `${T}none` }), 0, "default-graph-uri of a graph that does not exist: empty");
    assert.equal(Number((await c.select(`SELECT (COUNT(*) AS ?n) FROM <${T}dg1> WHERE { ?s ?p ?o }`))[0]!.n!.value), 3, "FROM");
    assert.equal(Number((await c.select(`DEFINE input:default-graph-uri <${T}dg1> SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }`))[0]!.n!.value), 3, "DEFINE input:default-graph-uri");
    assert.equal(await c.count("GRAPH ?g { ?s ?p ?o }", { "named-graph-uri": `${T}dg1` }), 3, "named-graph-uri limits GRAPH ?g");
    assert.equal(await c.count(`GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "${T}"))`), 3, "a prefix filter on GRAPH ?g");
    expectStatus(await c.delete(`${T}dg1`), 200);
  });

  test("literals come back canonicalised: numbers, booleans, fractional seconds and language tags are rewritten; strings and other datatypes are kept", async (t) => {
    const long = `He said "hi"\nline 2\ttab \\ back ü 水 😀 ${"x".repeat(5000)}`;
    const esc = (s: string): string => s.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\t/g, "\\t");
    // [predicate, as written, as Virtuoso returns it]. The right-hand column is XSD 1.1's
    // canonical mapping (Part 2 §3.3) — except float (XSD: "1.0E3"), which Virtuoso writes its own
    // way, and fractional seconds, where it drops ".000" but keeps ".250" (XSD: ".25") — and
    // BCP 47's case-insensitive tags lower-cased.
    const cases: [string, string, string][] = [
      ["double", `"1.50"^^<${XSD}double>`, `"1.5"^^<${XSD}double>`],
      ["integer", `"0100"^^<${XSD}integer>`, `"100"^^<${XSD}integer>`],
      ["decimal", `"0.10"^^<${XSD}decimal>`, `"0.1"^^<${XSD}decimal>`],
      ["float", `"1e3"^^<${XSD}float>`, `"1000.0"^^<${XSD}float>`],
      ["boolean", `"1"^^<${XSD}boolean>`, `"true"^^<${XSD}boolean>`],
      ["nan", `"NaN"^^<${XSD}double>`, `"NaN"^^<${XSD}double>`],
      ["dateTimeZ", `"2026-11-27T10:00:00Z"^^<${XSD}dateTime>`, `"2026-11-27T10:00:00Z"^^<${XSD}dateTime>`],
      ["dateTimeMs", `"2026-11-27T10:00:00.000+01:00"^^<${XSD}dateTime>`, `"2026-11-27T10:00:00+01:00"^^<${XSD}dateTime>`],
      ["dateTimeMs2", `"2026-11-27T10:00:00.250Z"^^<${XSD}dateTime>`, `"2026-11-27T10:00:00.250Z"^^<${XSD}dateTime>`],
      ["lang", `"Bonjour"@fr-CA`, `"Bonjour"@fr-ca`],
      ["xsdString", `"plain"^^<${XSD}string>`, `"plain"^^<${XSD}string>`],
      ["plain", `"plain"`, `"plain"`],
      ["long", `"${esc(long)}"`, `"${esc(long)}"`],
      ["custom", `"abc"^^<${T}type>`, `"abc"^^<${T}type>`],
    ];
    const body = cases.map(([p, o]) => `<${T}s> <${T}${p}> ${o} .\n`).join("");
    const expected = new Map(parseNt(cases.map(([p, , o]) => `<${T}s> <${T}${p}> ${o} .\n`).join("")).map((q) => [q.predicate.value, q.object]));
    // SPARQL JSON results write a boolean as "1" where GSP GET and CONSTRUCT write "true".
    const inSelect = new Map(parseNt(`<${T}s> <${T}boolean> "1"^^<${XSD}boolean> .\n`).map((q) => [q.predicate.value, q.object]));
    const check = (what: string, got: Quad[], overrides = new Map<string, Quad["object"]>()): void => {
      assert.equal(got.length, cases.length, what);
      const wrong = got
        .map((q) => ({ p: q.predicate.value, got: q.object, expected: overrides.get(q.predicate.value) ?? expected.get(q.predicate.value)! }))
        .filter((x) => !x.got.equals(x.expected))
        .map((x) => `${x.p}: got ${JSON.stringify(x.got.toJSON())}, expected ${JSON.stringify(x.expected.toJSON())}`);
      assert.deepEqual(wrong, [], what);
    };
    // Written by GSP PUT and by INSERT DATA; read by GSP GET, CONSTRUCT and SELECT (JSON).
    expectStatus(await c.put(`${T}lit-gsp`, body), 201);
    expectStatus(await c.update(`INSERT DATA { GRAPH <${T}lit-upd> { ${body} } }`), 200);
    for (const g of ["lit-gsp", "lit-upd"]) {
      const got = await c.get(`${T}${g}`);
      assert.equal(got.status, 200);
      check(`${g} GSP GET`, parseNt(got.body));
      const con = await c.query(`CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${T}${g}> { ?s ?p ?o } }`, NT);
      check(`${g} CONSTRUCT`, parseNt(con.body));
      const rows = await c.select(`SELECT ?p ?o WHERE { GRAPH <${T}${g}> { ?s ?p ?o } }`);
      const asNt = rows.map((b) => {
        const o = b.o!;
        const lit = `"${esc(o.value)}"${o["xml:lang"] ? `@${o["xml:lang"]}` : o.datatype ? `^^<${o.datatype}>` : ""}`;
        return `<${T}s> <${b.p!.value}> ${lit} .\n`;
      });
      check(`${g} SELECT`, parseNt(asNt.join("")), inSelect);
    }
    // Non-ASCII comes back \u-escaped in N-Triples (valid; the parser above undoes it).
    assert.match((await c.get(`${T}lit-gsp`)).body, /\\u00FC \\u6C34 \\U0001F600/);
    // An integer beyond 64 bits: INSERT DATA refuses it; GSP stores it as a decimal.
    const big = `<${T}s> <${T}big> "123456789012345678901234567890"^^<${XSD}integer> .\n`;
    const refused = await c.update(`INSERT DATA { GRAPH <${T}lit-big> { ${big} } }`);
    assert.equal(refused.status, 400);
    assert.match(refused.body, /SR341/);
    expectStatus(await c.put(`${T}lit-big`, big), 201);
    const bigBack = parseNt((await c.get(`${T}lit-big`)).body)[0]!.object;
    assert.deepEqual([bigBack.value, (bigBack as { datatype?: { value: string } }).datatype?.value], ["123456789012345678901234567890", `${XSD}decimal`]);
    // SPARQL CSV results drop datatypes and language tags (SPARQL 1.1 CSV §3.2 allows it).
    const csv = await c.query(`SELECT ?o WHERE { GRAPH <${T}lit-gsp> { <${T}s> ?p ?o FILTER(?p IN (<${T}integer>, <${T}lang>)) } }`, "text/csv");
    t.diagnostic(`CSV: ${JSON.stringify(csv.body)}`);
    const [head, ...csvRows] = csv.body.trim().split("\n");
    assert.equal(head, '"o"');
    assert.deepEqual(csvRows.sort(), ['"Bonjour"', "100"]);
  });

  test("Graph Store Protocol: PUT replaces, POST appends, GET offers Turtle, N-Triples, RDF/XML and JSON-LD (not N-Quads), DELETE removes", async () => {
    const g = `${T}gsp`;
    assert.equal((await c.get(g)).status, 404, "a graph that does not exist");
    expectStatus(await c.put(g, numbered("a", 3), "text/turtle"), 201);
    assert.equal(await c.graphSize(g), 3);
    assert.equal((await c.post(g, numbered("b", 2), "application/n-triples")).status, 200, "POST to an existing graph");
    assert.equal(await c.graphSize(g), 5);
    assert.equal((await c.post(g, numbered("b", 2))).status, 200, "POST of triples already there");
    assert.equal(await c.graphSize(g), 5, "an RDF graph is a set: a repeated batch adds nothing");
    assert.equal((await c.post(`${T}gsp-new`, numbered("n", 2))).status, 201, "POST creating a graph");
    assert.equal((await c.put(g, numbered("c", 4))).status, 200, "PUT over an existing graph");
    assert.equal(await c.graphSize(g), 4, "PUT replaced the graph");

    const types: [string, number, string | null][] = [
      [NT, 200, NT],
      ["text/turtle", 200, "text/turtle"],
      ["text/plain", 200, "text/plain"],
      ["application/rdf+xml", 200, "application/rdf+xml"],
      ["application/ld+json", 200, "application/ld+json"],
      ["*/*", 200, "text/turtle"],
      ["application/n-quads", 406, null],
      ["application/trig", 406, null],
    ];
    for (const [accept, status, type] of types) {
      const r = await c.get(g, accept);
      assert.equal(r.status, status, accept);
      if (type) assert.equal(r.headers.get("content-type")?.split(";")[0], type, accept);
    }
    const nt = await c.get(g, "text/plain");
    assert.equal(parseNt(nt.body).length, 4, "text/plain is N-Triples");
    const ttl = await c.get(g, "text/turtle");
    assert.equal(new Parser({ format: "Turtle" }).parse(ttl.body).length, 4);

    expectStatus(await c.delete(g), 200);
    assert.equal((await c.get(g)).status, 404);
    assert.equal((await c.delete(g)).status, 404, "DELETE of a graph that is gone");
  });

  test("Graph Store Protocol: batch appends of 50k triples, and single PUTs of 100k and 400k triples; counting a large graph's triples can be slow", async (t) => {
    const g = `${T}batches`;
    const times: number[] = [];
    for (let b = 0; b < 4; b++) {
      const r = await c.post(g, numbered(`b${b}_`, 50_000));
      assert.ok(r.status === 200 || r.status === 201, r.body);
      times.push(r.ms);
    }
    t.diagnostic(`POST of 50k triples (≈4.3 MB): ${times.join(", ")} ms`);
    for (const n of [100_000, 400_000]) {
      const body = numbered(`p${n}_`, n);
      const r = await c.put(`${T}put${n}`, body);
      t.diagnostic(`PUT of ${n} triples (${(body.length / 1e6).toFixed(1)} MB): ${r.status} in ${r.ms} ms`);
      expectStatus(r, 201);
    }
    // Counting all triples of a large graph, GRAPH <g> { ?s ?p ?o }, has taken 10–25 s here and
    // several times ran past the 60 s limit (SR171), even after a checkpoint, while the same count
    // with the predicate bound took milliseconds (docs/virtuoso.md, finding 3). The first is
    // recorded under a 5 s anytime limit, not asserted: it does not happen every time.
    for (const [graph, n] of [[g, 200_000], [`${T}put100000`, 100_000], [`${T}put400000`, 400_000]] as const) {
      const t0 = performance.now();
      assert.equal(await c.count(`GRAPH <${graph}> { ?s <${T}v> ?o }`), n);
      t.diagnostic(`COUNT of ${graph} (${n}), predicate bound: ${Math.round(performance.now() - t0)} ms`);
      const unbound = await c.query(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graph}> { ?s ?p ?o } }`, "text/csv", { timeout: "5000" });
      t.diagnostic(`  predicate unbound: ${unbound.ms} ms, ${unbound.headers.get("x-sql-state") === "S1TAT" ? "cut off at 5 s" : `complete: ${unbound.body.split("\n")[1]}`}`);
    }
  });

  test("DROP SILENT GRAPH of 100k triples, with and without DEFINE sql:log-enable 3 (accepted over HTTP)", async (t) => {
    for (const [g, define] of [[`${T}drop1`, ""], [`${T}drop2`, "DEFINE sql:log-enable 3 "]] as const) {
      expectStatus(await c.put(g, numbered("d", 100_000)), 201);
      const r = await c.update(`${define}DROP SILENT GRAPH <${g}>`);
      t.diagnostic(`${define}DROP SILENT GRAPH of 100k triples: ${r.ms} ms`);
      assert.equal(r.status, 200, r.body);
      assert.equal(await c.graphSize(g), 0);
    }
    const ins = await c.update(`DEFINE sql:log-enable 3 INSERT DATA { GRAPH <${T}logenable> { <${T}a> <${T}b> 1 } }`);
    assert.equal(ins.status, 200, ins.body);
    assert.equal(await c.graphSize(`${T}logenable`), 1);
  });

  test("ResultSetMaxRows truncates SELECT (saying so in X-SPARQL-MaxRows), CONSTRUCT and GSP GET (saying nothing); OFFSET/LIMIT pages get past it", async (t) => {
    const g = `${T}rows`;
    expectStatus(await c.put(g, numbered("r", 12_000)), 201);
    const sel = await c.query(`SELECT ?s WHERE { GRAPH <${g}> { ?s ?p ?o } }`);
    assert.equal(sel.status, 200);
    assert.equal((JSON.parse(sel.body) as { results: { bindings: unknown[] } }).results.bindings.length, 10_000);
    assert.equal(sel.headers.get("x-sparql-maxrows"), "10000");
    const con = await c.query(`CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${g}> { ?s ?p ?o } }`, NT);
    const get = await c.get(g);
    for (const [what, r] of [["CONSTRUCT", con], ["GSP GET", get]] as const) {
      const n = parseNt(r.body).length;
      t.diagnostic(`${what} of a 12,000-triple graph: ${r.status}, ${n} triples, X-SPARQL-MaxRows ${r.headers.get("x-sparql-maxrows")}`);
      assert.equal(r.status, 200, what);
      assert.ok(n >= 10_000 && n <= 10_001, `${what}: ${n} triples`);
      assert.equal(r.headers.get("x-sparql-maxrows"), null, `${what} does not say it truncated`);
    }
    // Paging past ResultSetMaxRows: with ORDER BY, Virtuoso refuses to sort more rows than the
    // limit (SR353); without it, OFFSET/LIMIT pages reach every row (each page ≤ the limit).
    const ordered = await c.query(`SELECT ?s WHERE { GRAPH <${g}> { ?s ?p ?o } } ORDER BY ?s OFFSET 10000 LIMIT 5000`);
    assert.equal(ordered.status, 500);
    assert.match(ordered.body, /SR353/);
    const seen = new Set<string>();
    for (let offset = 0; ; offset += 5000) {
      const rows = await c.select(`SELECT ?s WHERE { GRAPH <${g}> { ?s ?p ?o } } OFFSET ${offset} LIMIT 5000`);
      for (const b of rows) seen.add(b.s!.value);
      if (rows.length < 5000) break;
    }
    assert.equal(seen.size, 12_000);
  });

  test("IRIs longer than 1,880 bytes are stored as their first 1,847 bytes plus 32 hex digits: a compound IRI with a 2,000-character InChI is found but does not come back as written", async () => {
    const keep = (`${T}` + "a".repeat(3000)).slice(0, 1880);
    const cut = (`${T}` + "a".repeat(3000)).slice(0, 1881);
    for (const iri of [keep, cut]) expectStatus(await c.put(iri, `<${iri}> <${T}len> "${iri.length}" .\n`), 201);
    const back = async (len: number): Promise<{ g: string; s: string }> => {
      const rows = await c.select(`SELECT ?g ?s WHERE { GRAPH ?g { ?s <${T}len> "${len}" } }`);
      assert.equal(rows.length, 1);
      return { g: rows[0]!.g!.value, s: rows[0]!.s!.value };
    };
    assert.deepEqual(await back(1880), { g: keep, s: keep });
    const cutBack = await back(1881);
    assert.equal(cutBack.s, cutBack.g);
    assert.equal(cutBack.s.length, 1879);
    assert.equal(cutBack.s.slice(0, 1847), cut.slice(0, 1847));
    assert.match(cutBack.s.slice(1847), /^[0-9a-f]{32}$/, "32 hex digits (not the MD5 of the IRI)");

    // A compound IRI as the service writes it (resources/uris.ts), from a 2,000-character InChI
    // (the length of a ~300-atom structure's; made up: Virtuoso does not read it).
    const inchi = ("InChI=1S/C150H302/" + Array.from({ length: 600 }, (_, i) => `c${i + 1}-${i + 2}`).join(",")).slice(0, 2000);
    const iri = `http://127.0.0.1:8080/compound/${encodeInchiForPath(inchi)}`;
    expectStatus(await c.put(iri, `<${iri}> <${T}inchi> "${inchi}" .\n`), 201);
    // Found by its full IRI, as graph and as subject…
    assert.equal((await c.get(iri)).status, 200);
    assert.equal(await c.count(`GRAPH <${iri}> { <${iri}> <${T}inchi> "${inchi}" }`), 1);
    assert.equal((await c.query(`ASK { GRAPH <${iri}> { <${iri}> ?p ?o } }`, "text/plain")).body.trim(), "true");
    // …but every answer carries the shortened form, which is not the service's IRI.
    const rows = await c.select(`SELECT ?g ?s WHERE { GRAPH ?g { ?s <${T}inchi> ?o } }`);
    assert.equal(rows.length, 1);
    const short = rows[0]!.s!.value;
    assert.equal(rows[0]!.g!.value, short);
    assert.equal(short.length, 1879);
    assert.equal(short.slice(0, 1847), iri.slice(0, 1847));
    assert.equal(parseNt((await c.get(iri)).body)[0]!.subject.value, short);
    // The shortened IRI names the same node: a query with it finds the triple too.
    assert.equal(await c.count(`GRAPH <${short}> { <${short}> <${T}inchi> ?o }`), 1);
  });
});

describe("Virtuoso 7.2: update requests that fail part-way", () => {
  // A database of its own: after such failures, later inserts into the same database have failed
  // with "out of seg data" in some runs (docs/virtuoso.md, finding 8), which would fail the
  // probes above for a reason that is not theirs.
  let v: Virtuoso;
  let c: ReturnType<typeof client>;
  before(async () => {
    v = await startVirtuoso();
    c = client(v);
  });
  after(async () => {
    await v?.stop();
  });

  test("an update request of several operations is NOT atomic: an operation failing at run time leaves the earlier ones done; only errors found at compile time store nothing", async () => {
    const a = `${T}atomic-a`;
    const first = `INSERT DATA { GRAPH <${a}> { <${T}s> <${T}p> "kept?" } }`;
    // SPARQL 1.1 Update §2.2 (and Protocol §2.2.3): a request should be executed atomically.
    const compileTime = [
      ["a syntax error", `INSERT DATA { GRAPH <${T}atomic-b> { <${T}s> <${T}p> } }`],
      ["an integer literal that is no integer", `INSERT DATA { GRAPH <${T}atomic-b> { <${T}s> <${T}p> "abc"^^<${XSD}integer> } }`],
    ] as const;
    for (const [what, second] of compileTime) {
      const r = await c.update(`${first} ; ${second}`);
      assert.equal(r.status, 400, `${what}: ${r.body}`);
      assert.equal(await c.graphSize(a), 0, `${what}: nothing of <a> stored`);
    }
    const runTime = [
      ["CREATE GRAPH of a graph that has triples", `CREATE GRAPH <${a}>`, /SPARUL_CREATE\(\) failed/],
      ["DROP GRAPH of a graph never created", `DROP GRAPH <${T}never>`, /SPARUL_DROP\(\) failed/],
      ["LOAD from a closed port", `LOAD <http://127.0.0.1:1/x.ttl> INTO GRAPH <${T}atomic-b>`, /HC001/],
    ] as const;
    for (const [what, second, message] of runTime) {
      expectStatus(await c.update(`DROP SILENT GRAPH <${a}>`), 200);
      const r = await c.update(`${first} ; ${second}`);
      assert.equal(r.status, 500, `${what}: ${r.body}`);
      assert.match(r.body, message);
      assert.equal(await c.graphSize(a), 1, `${what}: the first operation's triple stays stored`);
    }
    // …and the failed request leaves no open transaction behind: the next write goes through.
    expectStatus(await c.update(`DROP SILENT GRAPH <${a}>`), 200);
    assert.equal(await c.graphSize(a), 0);
  });
});

describe("Virtuoso 7.2: queries that run out of time", () => {
  let v: Virtuoso;
  let c: ReturnType<typeof client>;
  before(async () => {
    v = await startVirtuoso({ maxQueryExecutionTime: 3 });
    c = client(v);
    expectStatus(await c.put(`${T}slow`, numbered("s", 20_000)), 201);
  });
  after(async () => {
    await v?.stop();
  });
  // A self-join of 20,000 triples on a string filter: 4·10⁸ comparisons, far beyond 3 s.
  const slow = `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${T}slow> { ?a ?p ?o . ?b ?q ?o2 FILTER(STR(?o) = CONCAT(STR(?o2), "x")) } }`;

  test("with a timeout parameter: HTTP 200 with incomplete results, X-SQL-State S1TAT and an X-SQL-Message", async (t) => {
    const r = await c.query(slow, "application/sparql-results+json", { timeout: "1000" });
    t.diagnostic(`after ${r.ms} ms: ${r.status}, X-SQL-State ${r.headers.get("x-sql-state")}, X-SQL-Message ${r.headers.get("x-sql-message")?.slice(0, 90)}`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("x-sql-state"), "S1TAT");
    assert.match(r.headers.get("x-sql-message") ?? "", /incomplete results/);
    assert.ok(JSON.parse(r.body), "a well-formed (partial) result");
  });

  test("without one: MaxQueryExecutionTime ends it with HTTP 500 and SQL state S1T00 (SR171)", async (t) => {
    const r = await c.query(slow);
    t.diagnostic(`after ${r.ms} ms: ${r.status} ${r.body.split("\n")[0]}`);
    assert.equal(r.status, 500);
    assert.match(r.body, /S1T00 Error SR171: Transaction timed out/);
  });
});
