/**
 * Bad input over HTTP against the real server (README "Errors"; docs/opentox-api.md "Errors"),
 * table-driven. Every failure case asserts the status, the error as `text/plain` and as
 * `application/problem+json` (naming the line/field at fault), and that nothing is left behind:
 * `GET /dataset` and the number of quads outside task graphs are unchanged (task graphs record the
 * failed tasks, by design). Inputs that are not failures (ragged rows, quoted cells spanning lines)
 * are checked for their warnings and line numbers.
 *
 * Expected values come from the inputs: wrong_dataset.csv (fixtures/data; SOURCES.md: invalid
 * SMILES "Tost", "Is", "A", …) has no parseable structure; a file that starts with the PNG
 * signature (89 50 4E 47) is an image, neither CSV nor SDF (415); line numbers of the hand-made CSVs are counted in their
 * literals; the 406/415/413/404 statuses from RFC 9110 and the README's "Errors" table; SPARQL
 * update from the SPARQL 1.1 Protocol (the endpoint is read-only: README "SPARQL").
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DATA, get, sparqlSelect, storeSnapshot, uploadCsv, uploadFile, waitForTask } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { QG_NS } from "../../src/store/vocab.ts";

const WRONG = `${DATA}lazar/test/data/wrong_dataset.csv`;
const FIXTURES = new URL("../../fixtures/", import.meta.url).pathname;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, ...new Array<number>(4096).fill(0)]);
const TEXT_THEN_NUL = `SMILES,act\nCCO,1\nCC${"\u0000".repeat(64)}\n`;
const TWO_MB = `SMILES,act\n${"CCO,1\n".repeat(350_000)}`;
const INSERT = 'INSERT DATA { <http://example.org/s> <http://example.org/p> "o" }';

type Send = (base: string, accept: string) => Promise<Response>;

interface Case {
  readonly name: string;
  /** The server started with MAX_UPLOAD_MB=1. */
  readonly small?: boolean;
  readonly send: Send;
  readonly status: number;
  /** The POST answers 202 and the task ends in this error (the task is then asked for its report). */
  readonly viaTask?: boolean;
  /** Accept headers for the two error representations (default text/plain, application/problem+json). */
  readonly accept?: { readonly text: string; readonly problem: string };
  readonly text: RegExp;
  readonly problem: { readonly title: string; readonly detail: RegExp; readonly line?: number; readonly field?: string };
  /** Further checks on the problem+json body (e.g. causes). */
  readonly more?: (p: Problem) => void;
}

interface Problem {
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly line?: number;
  readonly field?: string;
  readonly causes?: readonly { readonly detail: string; readonly line?: number }[];
}

const upload = (bytes: Uint8Array | string, name: string, field = "file"): Send => (base, accept) => uploadFile(base, bytes, name, field, accept);
const post = (path: string, body: BodyInit, type: string): Send => (base, accept) =>
  fetch(`${base}${path}`, { method: "POST", body, headers: { "Content-Type": type, Accept: accept } });
const getAs = (path: string): Send => (base, accept) => get(`${base}${path}`, accept);
const sparqlForm = (field: string, q: string): Send => post("/sparql", new URLSearchParams({ [field]: q }).toString(), "application/x-www-form-urlencoded");
const chunked = (text: string): Send => (base, accept) => {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(c): void {
      for (let i = 0; i < bytes.length; i += 65536) c.enqueue(bytes.slice(i, i + 65536));
      c.close();
    },
  });
  return fetch(`${base}/dataset`, { method: "POST", body, duplex: "half", headers: { "Content-Type": "text/csv", Accept: accept } } as RequestInit);
};

const wrongLines = readFileSync(WRONG, "utf8").split(/\r?\n/);

const CASES: readonly Case[] = [
  { name: "empty file (multipart)", send: upload("", "empty.csv"), status: 400, text: /^400 BadRequest: .*empty.*\(field file\)/, problem: { title: "BadRequest", detail: /empty/, field: "file" } },
  { name: "empty body (text/csv)", send: post("/dataset", "", "text/csv"), status: 400, text: /^400 BadRequest: .*empty/, problem: { title: "BadRequest", detail: /empty/ } },
  { name: "binary file (PNG header + NULs)", send: upload(PNG, "image.png"), status: 415, text: /^415 UnsupportedMediaType: the uploaded file is a PNG image; .*CSV.*SDF.*\(field file\)/, problem: { title: "UnsupportedMediaType", detail: /PNG image/, field: "file" } },
  { name: "NUL bytes after two text lines", send: upload(TEXT_THEN_NUL, "nul.csv"), viaTask: true, status: 400, text: /not text.*\(line 3\)/, problem: { title: "BadRequest", detail: /not text/, line: 3 } },
  { name: "wrong multipart part name", send: upload("SMILES,act\nCCO,1\n", "a.csv", "data"), status: 400, text: /^400 BadRequest: .*'file'.*'data'.*\(field file\)/, problem: { title: "BadRequest", detail: /'file'.*'data'/, field: "file" } },
  {
    name: "no usable structure (wrong_dataset.csv)",
    send: upload(readFileSync(WRONG), "wrong_dataset.csv"),
    viaTask: true,
    status: 400,
    text: /^400 BadRequest: no usable row[^\n]*\n {2}400 BadRequest: .*Tost.*\(line 2/,
    problem: { title: "BadRequest", detail: /no usable row.*SMILES/ },
    more: (p) => {
      assert.ok((p.causes ?? []).length > 0, "causes name the rejected rows");
      for (const c of p.causes ?? []) {
        assert.ok(typeof c.line === "number" && c.line >= 2, "each cause has its line");
        const cell = wrongLines[c.line - 1]!.split(",")[0]!;
        assert.ok(c.detail.includes(cell), `cause for line ${c.line} names its structure '${cell}'`);
      }
    },
  },
  { name: "unsupported Content-Type on POST /dataset", send: post("/dataset", "{}", "application/json"), status: 415, text: /^415 UnsupportedMediaType: .*application\/json.*\(field Content-Type\)/, problem: { title: "UnsupportedMediaType", detail: /multipart\/form-data/, field: "Content-Type" } },
  { name: "over the size limit (multipart)", small: true, send: upload(TWO_MB, "big.csv"), status: 413, text: /^413 PayloadTooLarge: .*1 MiB/, problem: { title: "PayloadTooLarge", detail: /size limit/ } },
  { name: "over the size limit (text/csv body)", small: true, send: post("/dataset", TWO_MB, "text/csv"), status: 413, text: /^413 PayloadTooLarge: .*1 MiB/, problem: { title: "PayloadTooLarge", detail: /size limit/ } },
  { name: "over the size limit (chunked text/csv, no Content-Length)", small: true, send: chunked(TWO_MB), status: 413, text: /^413 PayloadTooLarge: .*1 MiB/, problem: { title: "PayloadTooLarge", detail: /size limit/ } },
  { name: "unknown dataset", send: getAs("/dataset/aaaaaaaaaaaa"), status: 404, text: /^404 NotFound: .*\/dataset\/aaaaaaaaaaaa/, problem: { title: "NotFound", detail: /dataset\/aaaaaaaaaaaa/ } },
  { name: "unknown task", send: getAs("/task/aaaaaaaaaaaa"), status: 404, text: /^404 NotFound: .*\/task\/aaaaaaaaaaaa/, problem: { title: "NotFound", detail: /task\/aaaaaaaaaaaa/ } },
  { name: "not a compound URI", send: getAs("/compound/benzene"), status: 404, text: /^404 NotFound: .*'benzene' is not an InChI/, problem: { title: "NotFound", detail: /is not an InChI/ } },
  { name: "an InChI that is no compound", send: getAs("/compound/InChI=1S/garbage"), status: 422, text: /^422 UnprocessableEntity: InChI=1S\/garbage is not a compound .*invalid syntax/, problem: { title: "UnprocessableEntity", detail: /invalid syntax/, field: "InChI" } },
  { name: "unknown path", send: getAs("/nonexistent"), status: 404, text: /^404 NotFound: .*\/nonexistent/, problem: { title: "NotFound", detail: /\/nonexistent/ } },
  { name: "SPARQL update as form field update=", send: sparqlForm("update", INSERT), status: 400, text: /^400 BadRequest: .*read-only.*\(field update\)/, problem: { title: "BadRequest", detail: /read-only/, field: "update" } },
  { name: "SPARQL update as form field query=", send: sparqlForm("query", INSERT), status: 400, text: /^400 BadRequest: .*read-only.*\(field query\)/, problem: { title: "BadRequest", detail: /read-only/, field: "query" } },
  { name: "SPARQL update as application/sparql-update", send: post("/sparql", INSERT, "application/sparql-update"), status: 400, text: /^400 BadRequest: .*read-only/, problem: { title: "BadRequest", detail: /read-only/ } },
  {
    // The object of the triple pattern is missing: the parser finds out at the `}` on line 4.
    name: "malformed SPARQL (names line 4)",
    send: sparqlForm("query", "SELECT ?s\nWHERE {\n  ?s ?p\n}"),
    accept: { text: "application/sparql-results+json, text/plain;q=0.1", problem: "application/sparql-results+json, application/problem+json;q=0.1" },
    status: 400,
    text: /^400 BadRequest: invalid SPARQL query.*\(line 4, column \d+, field query\)/,
    problem: { title: "BadRequest", detail: /invalid SPARQL/, line: 4, field: "query" },
  },
];

describe("bad input", () => {
  const srv = useServer();
  const small = useServer({ env: { MAX_UPLOAD_MB: "1" } });

  async function runCase(c: Case, base: string): Promise<void> {
    const accept = c.accept ?? { text: "text/plain", problem: "application/problem+json" };
    let text: Response;
    let problem: Response;
    if (c.viaTask) {
      const r = await c.send(base, "text/uri-list");
      const task = (await r.text()).trim();
      assert.equal(r.status, 202, task);
      const done = await waitForTask(task);
      // uri-list clients see the error status and the report, not the task URI
      // (docs/opentox-api.md "Long operations are tasks").
      assert.equal(done.status, c.status, done.body);
      assert.notEqual(done.body, task);
      assert.match(done.body, c.text);
      text = await get(task, accept.text);
      problem = await get(task, accept.problem);
    } else {
      text = await c.send(base, accept.text);
      problem = await c.send(base, accept.problem);
    }
    const body = await text.text();
    assert.equal(text.status, c.status, body);
    assert.equal(text.headers.get("content-type")?.split(";")[0], "text/plain");
    assert.match(body, c.text);
    assert.doesNotMatch(body, /\n\s+at .*\.ts:\d+/, "no stack trace");
    assert.equal(problem.status, c.status);
    assert.equal(problem.headers.get("content-type")?.split(";")[0], "application/problem+json");
    const p = (await problem.json()) as Problem;
    assert.equal(p.status, c.status);
    assert.equal(p.title, c.problem.title);
    assert.match(p.detail, c.problem.detail);
    if (c.problem.line !== undefined) assert.equal(p.line, c.problem.line);
    if (c.problem.field !== undefined) assert.equal(p.field, c.problem.field);
    c.more?.(p);
  }

  for (const c of CASES) {
    test(`${c.name} → ${c.status}, nothing stored`, async () => {
      const base = (c.small ? small : srv).base;
      const before = await storeSnapshot(base);
      await runCase(c, base);
      assert.deepEqual(await storeSnapshot(base), before, "GET /dataset and the quads outside task graphs are unchanged");
    });
  }

  test("Accept: image/png on a dataset → 406 listing the available types; nothing stored", async () => {
    const ds = await uploadCsv(srv.base, "SMILES,act\nCC=O,1\nCCO,0\n", "tiny.csv");
    const before = await storeSnapshot(srv.base);
    const r = await get(ds, "image/png");
    assert.equal(r.status, 406);
    const body = await r.text();
    assert.match(body, /^406 NotAcceptable: .*image\/png.*available: /);
    for (const t of ["text/turtle", "application/n-triples", "application/ld+json", "application/json", "application/rdf+xml", "text/html", "text/uri-list"]) {
      assert.ok(body.includes(t), `406 lists ${t}`);
    }
    assert.deepEqual(await storeSnapshot(srv.base), before);
  });

  test("ragged rows: the upload succeeds with wrong-cell-count warnings naming the lines", async () => {
    // fixtures/ragged.csv: line 1 header (3 cells); 2 ok; 3 short; 4 long with a value; 5 long but the extra cell is empty; 6 ok
    const csv = readFileSync(`${FIXTURES}ragged.csv`, "utf8");
    const ds = await uploadCsv(srv.base, csv, "ragged.csv");
    const warned = await sparqlSelect(srv.base, `SELECT ?l ?m WHERE { GRAPH <${ds}> { <${ds}> <${QG_NS}warning> ?w . ?w <${QG_NS}warningKind> "wrong-cell-count" ; <${QG_NS}line> ?l . OPTIONAL { ?w ?p ?m FILTER(CONTAINS(STR(?m), "cells")) } } } ORDER BY ?l`);
    assert.deepEqual(warned.map((w) => Number(w.l!.value)), [3, 4, 5]);
    for (const w of warned) if (w.m) assert.match(w.m.value, new RegExp(`\\b${w.l!.value}\\b`), "the message names its line");
    // Documented rule (src/tabular/table.ts): a short row is kept, a long row with values is skipped.
    const lines = await entryLines(srv.base, ds);
    assert.deepEqual(lines, [2, 3, 5, 6]);
    const html = await (await get(ds, "text/html")).text();
    const section = /<section id="warnings">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
    assert.match(section, /wrong-cell-count/);
  });

  test("quoted cells spanning lines: each entry's qg:line is the line where its record starts", async () => {
    // fixtures/quoted-newlines.csv: line 2 opens a quoted cell closed on line 3; line 5's quoted
    // cell holds a blank line 6 and ends on 7.
    const csv = readFileSync(`${FIXTURES}quoted-newlines.csv`, "utf8");
    const ds = await uploadCsv(srv.base, csv, "newlines.csv");
    assert.deepEqual(await entryLines(srv.base, ds), [2, 4, 5, 8]);
    const notes = await sparqlSelect(srv.base, `SELECT ?v WHERE { GRAPH <${ds}> { ?e <http://www.opentox.org/api/1.1#values> ?x . ?x <http://www.opentox.org/api/1.1#feature> <${ds}/feature/note> ; <http://www.opentox.org/api/1.1#value> ?v } } ORDER BY ?v`);
    assert.deepEqual(notes.map((n) => n.v!.value), ['a, b\n\nc "q"', "first\nsecond", "plain", "x"]);
  });
});

async function entryLines(base: string, ds: string): Promise<number[]> {
  const rows = await sparqlSelect(base, `SELECT ?l WHERE { GRAPH <${ds}> { <${ds}> <http://www.opentox.org/api/1.1#dataEntry> ?e . ?e <${QG_NS}line> ?l } } ORDER BY ?l`);
  return rows.map((r) => Number(r.l!.value));
}
