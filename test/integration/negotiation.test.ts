/**
 * Content negotiation over HTTP against the real server (docs/opentox-api.md "Representations";
 * README "Representations (every resource)"): a table of resources (`/`, `/dataset`, a dataset, a
 * feature, a compound, a task, `/ontology`) × Accept headers. Every answer has `Vary: Accept`;
 * every RDF body is parsed with an independent library (n3, Oxigraph, jsonld.js) and must hold the
 * resource's typing triple, and the five RDF formats of one resource must carry the same triples.
 * Errors negotiate too.
 *
 * Expected values: media types and defaults from docs/opentox-api.md "Representations" (`*\/*` or
 * no Accept → Turtle for RDF resources, uri-list for collections and tasks; q-values per RFC 9110;
 * `?format=` override); classes from the OpenTox ontology 1.1 and ontology/qsargraph.ttl; the data
 * from hamster_carcinogenicity.csv (85 distinct structures, first row `CC=O` = acetaldehyde, whose
 * standard InChI is InChI=1S/C2H4O/c1-2-3/h2H,1H3 per PubChem CID 177; the column
 * " Hamster Carcinogenicity" holds true/false, two distinct values, hence an ot:NominalFeature:
 * docs/lazar-method.md "Training data", the rule of lazar's CSV parser, opentox/opentox-ruby :
 * lib/parser.rb @ v4.0.0).
 */
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Parser } from "n3";
import { HAMSTER, uploadFile, waitForTask } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { parseRdf } from "../helpers/rdf.ts";
import { QG_NS } from "../../src/store/vocab.ts";

const OT = "http://www.opentox.org/api/1.1#";
const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const RDF_TYPES = ["text/turtle", "application/n-triples", "application/ld+json", "application/json", "application/rdf+xml"];

interface Resource {
  readonly name: string;
  readonly url: string;
  /** The subject and class every RDF form must state. */
  readonly subject: string;
  readonly cls: string;
  /** What `*\/*` and a missing Accept give (docs/opentox-api.md "Representations"). */
  readonly dflt: "text/turtle" | "text/uri-list";
  /** Check of the uri-list body. */
  readonly uris: (lines: string[]) => void;
}

describe("content negotiation", () => {
  const srv = useServer();
  let base = "";
  const resources: Resource[] = [];

  // The resources of one upload, its task among them (hence the upload here, not by useServer).
  before(async () => {
    base = srv.base;
    const r = await uploadFile(base, readFileSync(HAMSTER), "hamster_carcinogenicity.csv");
    const task = (await r.text()).trim();
    const done = await waitForTask(task);
    assert.equal(done.status, 200, done.body);
    const ds = done.body;
    const feature = `${ds}/feature/Hamster%20Carcinogenicity`;
    const compound = `${base}/compound/InChI=1S/C2H4O/c1-2-3/h2H,1H3`;
    const ontology = `${base}/ontology`;
    resources.push(
      { name: "service /", url: `${base}/`, subject: `${base}/`, cls: `${QG_NS}Service`, dflt: "text/turtle", uris: (l) => assert.ok(l.includes(`${base}/dataset`) && l.includes(`${base}/task`) && l.includes(`${base}/sparql`), l.join(" ")) },
      { name: "/dataset", url: `${base}/dataset`, subject: ds, cls: `${OT}Dataset`, dflt: "text/uri-list", uris: (l) => assert.deepEqual(l, [ds]) },
      { name: "a dataset", url: ds, subject: ds, cls: `${OT}Dataset`, dflt: "text/turtle", uris: (l) => {
        assert.equal(l.length, 85);
        assert.ok(l.includes(compound), "row 1 (CC=O) is among the compounds");
      } },
      { name: "a feature", url: feature, subject: feature, cls: `${OT}NominalFeature`, dflt: "text/turtle", uris: (l) => assert.deepEqual(l, [feature]) },
      { name: "a compound", url: compound, subject: compound, cls: `${OT}Compound`, dflt: "text/turtle", uris: (l) => assert.deepEqual(l, [compound]) },
      { name: "a task", url: task, subject: task, cls: `${OT}Task`, dflt: "text/uri-list", uris: (l) => assert.deepEqual(l, [ds], "a completed task lists its result") },
      // this service serves its copy of the vocabulary, whose IRI is the stable one (docs/vocabulary.md)
      { name: "/ontology", url: ontology, subject: "https://w3id.org/qsargraph/ontology", cls: "http://www.w3.org/2002/07/owl#Ontology", dflt: "text/turtle", uris: (l) => assert.deepEqual(l, [ontology]) },
    );
  });

  /** One request; checks status 200, Vary and the media type; returns the body. */
  async function fetchAs(url: string, accept: string | undefined, expectType: string): Promise<string> {
    const r = await fetch(url, { headers: accept === undefined ? {} : { Accept: accept } });
    const body = await r.text();
    assert.equal(r.status, 200, `${url} (${accept}): ${body.slice(0, 300)}`);
    assert.match(r.headers.get("vary") ?? "", /\bAccept\b/i, "Vary: Accept");
    assert.equal(r.headers.get("content-type")?.split(";")[0]?.trim(), expectType, `${url} with Accept ${accept}`);
    return body;
  }

  async function checkBody(res: Resource, type: string, body: string): Promise<string[] | undefined> {
    if (RDF_TYPES.includes(type)) {
      const triples = await parseRdf(body, type, base);
      assert.ok(triples.includes(`<${res.subject}> <${RDF_TYPE}> <${res.cls}>`), `${res.name} as ${type} states <${res.subject}> a <${res.cls}>`);
      return triples;
    }
    if (type === "text/html") {
      assert.match(body, /^<!DOCTYPE html>/i);
      assert.match(body, /<\/html>\s*$/);
      return undefined;
    }
    assert.equal(type, "text/uri-list");
    const lines = body.split(/\r?\n/).filter(Boolean);
    for (const l of lines) assert.match(l, /^https?:\/\/\S+$/, "one absolute URI a line");
    res.uris(lines);
    return undefined;
  }

  const table: readonly { accept: string | undefined; expect: (r: Resource) => string; url?: (u: string) => string }[] = [
    ...[...RDF_TYPES, "text/html", "text/uri-list"].map((t) => ({ accept: t, expect: () => t })),
    { accept: "*/*", expect: (r) => r.dflt },
    { accept: undefined, expect: (r) => r.dflt },
    { accept: "text/html;q=0.1, text/turtle;q=0.9", expect: () => "text/turtle" },
    { accept: "application/rdf+xml;q=0.5, text/turtle;q=0.4, image/png", expect: () => "application/rdf+xml" },
    { accept: "text/html", expect: () => "text/turtle", url: (u) => `${u}${u.includes("?") ? "&" : "?"}format=ttl` },
    { accept: "text/turtle", expect: () => "application/rdf+xml", url: (u) => `${u}?format=rdf` },
  ];

  test("every resource × every Accept: status, Vary, media type and a valid body", async () => {
    for (const res of resources) {
      for (const row of table) {
        const type = row.expect(res);
        const url = row.url ? row.url(res.url) : res.url;
        const body = await fetchAs(url, row.accept, type);
        await checkBody(res, type, body);
      }
    }
  });

  test("the five RDF formats of each resource carry the same triples", async () => {
    for (const res of resources) {
      const byType = new Map<string, string[]>();
      for (const t of RDF_TYPES) byType.set(t, (await checkBody(res, t, await fetchAs(res.url, t, t)))!);
      const turtle = byType.get("text/turtle")!;
      assert.ok(turtle.length > 0, `${res.name} has triples`);
      for (const [t, triples] of byType) {
        assert.equal(triples.length, turtle.length, `${res.name}: ${t} has as many triples as Turtle`);
        assert.deepEqual(triples, turtle, `${res.name}: ${t} = Turtle`);
      }
    }
  });

  test("application/json is compacted JSON-LD with the published @context URL; ld+json inlines it", async () => {
    const contextUrl = `${base}/ontology/context.jsonld`;
    for (const res of resources) {
      const j = JSON.parse(await fetchAs(res.url, "application/json", "application/json")) as Record<string, unknown>;
      assert.equal(j["@context"], contextUrl, res.name);
      const ld = JSON.parse(await fetchAs(res.url, "application/ld+json", "application/ld+json")) as Record<string, unknown>;
      assert.equal(typeof ld["@context"], "object", `${res.name}: ld+json has an inline context`);
    }
    const ctx = JSON.parse(await fetchAs(contextUrl, "application/ld+json", "application/ld+json")) as { "@context"?: Record<string, unknown> };
    assert.equal(ctx["@context"]?.ot, OT, "the context maps ot: to the OpenTox 1.1 namespace");
  });

  test("the dataset's RDF holds the OpenTox shape: 85 distinct compounds through ot:dataEntry/ot:compound", async () => {
    const ds = resources.find((r) => r.name === "a dataset")!.subject;
    const quads = new Parser({ format: "N-Triples" }).parse(await fetchAs(ds, "application/n-triples", "application/n-triples"));
    const entries = new Set(quads.filter((q) => q.subject.value === ds && q.predicate.value === `${OT}dataEntry`).map((q) => q.object.value));
    const compounds = new Set(quads.filter((q) => entries.has(q.subject.value) && q.predicate.value === `${OT}compound`).map((q) => q.object.value));
    assert.equal(entries.size, 85);
    assert.equal(compounds.size, 85);
  });

  const errorTable: readonly { accept: string; type: string; check: (body: string, url: string) => Promise<void> }[] = [
    { accept: "application/problem+json", type: "application/problem+json", check: async (b) => {
      const p = JSON.parse(b) as { status: number; title: string; detail: string };
      assert.equal(p.status, 404);
      assert.equal(p.title, "NotFound");
      assert.match(p.detail, /aaaaaaaaaaaa/);
    } },
    { accept: "text/turtle", type: "text/turtle", check: async (b) => {
      const q = new Parser({ format: "Turtle" }).parse(b);
      const report = q.find((x) => x.predicate.value === RDF_TYPE && x.object.value === `${OT}ErrorReport`)?.subject.value;
      assert.ok(report, "an ot:ErrorReport");
      const status = q.find((x) => x.subject.value === report && x.predicate.value === `${OT}statusCode`)?.object.value;
      assert.equal(status, "404");
    } },
    { accept: "application/rdf+xml", type: "application/rdf+xml", check: async (b) => {
      const triples = await parseRdf(b, "application/rdf+xml", base);
      assert.ok(triples.some((t) => t.endsWith(`<${RDF_TYPE}> <${OT}ErrorReport>`)));
      assert.ok(triples.some((t) => t.includes(`<${OT}statusCode> "404"^^<http://www.w3.org/2001/XMLSchema#integer>`)));
    } },
    { accept: "text/html", type: "text/html", check: async (b) => {
      assert.match(b, /^<!DOCTYPE html>/i);
      assert.match(b, /404/);
      assert.match(b, /aaaaaaaaaaaa/);
    } },
    { accept: "text/plain", type: "text/plain", check: async (b) => assert.match(b, /^404 NotFound: .*aaaaaaaaaaaa/) },
    { accept: "*/*", type: "text/plain", check: async (b) => assert.match(b, /^404 NotFound/) },
  ];

  test("errors negotiate: a 404 as problem+json, ot:ErrorReport, HTML, text/plain — all with Vary: Accept", async () => {
    for (const url of [`${base}/dataset/aaaaaaaaaaaa`, `${base}/task/aaaaaaaaaaaa`]) {
      for (const row of errorTable) {
        const r = await fetch(url, { headers: { Accept: row.accept } });
        const body = await r.text();
        assert.equal(r.status, 404, `${url} ${row.accept}`);
        assert.match(r.headers.get("vary") ?? "", /\bAccept\b/i);
        assert.equal(r.headers.get("content-type")?.split(";")[0], row.type, `${url} ${row.accept}`);
        await row.check(body, url);
      }
    }
  });

  test("an Accept nothing satisfies → 406 that names the available types", async () => {
    const ds = resources.find((r) => r.name === "a dataset")!.url;
    const r = await fetch(ds, { headers: { Accept: "application/problem+json, image/png" } });
    assert.equal(r.status, 406);
    assert.match(r.headers.get("vary") ?? "", /\bAccept\b/i);
    const p = (await r.json()) as { status: number; detail: string };
    assert.equal(p.status, 406);
    for (const t of [...RDF_TYPES, "text/html", "text/uri-list"]) assert.ok(p.detail.includes(t), `406 lists ${t}`);
  });
});
