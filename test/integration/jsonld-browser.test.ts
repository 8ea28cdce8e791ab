/**
 * The JSON-LD context used from another origin by the reference JSON-LD processor (issue 18
 * "Done when": the context loads in jsonld.js from another origin in headless Chromium). A page
 * served by a second, tiny HTTP server on another port of 127.0.0.1 (another origin than the
 * service's) loads jsonld.js (the package's browser build, dist/jsonld.min.js) and, in headless
 * Debian Chromium through playwright-core:
 *
 * - expands a small document whose `@context` is the service's `/ontology/context.jsonld`:
 *   jsonld.js fetches the context cross-origin with its browser document loader (XMLHttpRequest),
 *   and `qg:`/`ot:` terms expand to the namespace + local name (qg: the one Vocab gives for the
 *   base; ot: http://www.opentox.org/api/1.1#, OpenTox API 1.1);
 * - fetches a dataset's JSON-LD (`Accept: application/json`, whose `@context` is the context's
 *   URL, and `application/ld+json`, with the context inline) cross-origin, compacts it with the
 *   context URL, and turns it into RDF: the triples equal those of the dataset's N-Triples answer
 *   (read by n3 in the test process).
 *
 * No console error, failed request or HTTP error may occur (a missing CORS header shows as both).
 * Input: fixtures/data hamster_carcinogenicity.csv (SOURCES.md; 85 distinct compounds, as
 * test/helpers/server.ts assertServesNormally says).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { Parser, type Quad, type Term } from "n3";
import type { Browser } from "playwright-core";
import { launchBrowser, recordedPage } from "../helpers/browser.ts";
import { HAMSTER } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { Vocab } from "../../src/store/vocab.ts";

const OT = "http://www.opentox.org/api/1.1#";
// the browser build of the jsonld package (a UMD bundle that defines window.jsonld)
const JSONLD_JS = readFileSync(createRequire(import.meta.url).resolve("jsonld/dist/jsonld.min.js"), "utf8");
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>jsonld.js from another origin</title><script src="/jsonld.min.js"></script></head><body><p>jsonld.js</p></body></html>`;

/** A second origin: the page and jsonld.js, nothing else (favicon: 204). */
function pageServer(): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === "/") res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(PAGE);
    else if (req.url === "/jsonld.min.js") res.writeHead(200, { "Content-Type": "text/javascript; charset=utf-8" }).end(JSONLD_JS);
    else res.writeHead(204).end();
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function key(t: Term): string {
  if (t.termType === "Literal") return `${JSON.stringify(t.value)}${t.language ? `@${t.language}` : `^^<${t.datatype.value}>`}`;
  return t.termType === "BlankNode" ? "_:" : `<${t.value}>`;
}
const lines = (quads: readonly Quad[]): string[] => [...new Set(quads.map((q) => `${key(q.subject)} ${key(q.predicate)} ${key(q.object)}`))].sort();

declare const jsonld: {
  expand(doc: unknown): Promise<Record<string, unknown>[]>;
  compact(doc: unknown, ctx: unknown): Promise<Record<string, unknown>>;
  toRDF(doc: unknown, o: { format: string }): Promise<string>;
};

describe("the JSON-LD context in jsonld.js, in a page of another origin", () => {
  const srv = useServer({ upload: { hamster: HAMSTER } });
  let browser: Browser;
  let other: Server;
  let origin: string;

  before(async () => {
    other = await pageServer();
    origin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await new Promise((resolve) => other?.close(resolve));
  });

  test("expand with the service's context URL; compact and read a dataset's JSON-LD fetched cross-origin", { timeout: 120_000 }, async () => {
    const qgNs = new Vocab(srv.base).qgNs;
    const context = `${srv.base}/ontology/context.jsonld`;
    const dataset = srv.datasets.hamster;
    assert.notEqual(new URL(origin).origin, new URL(srv.base).origin, "the page is of another origin");
    const { page, problems } = await recordedPage(browser);
    const requests: string[] = [];
    page.on("request", (r) => requests.push(`${r.method()} ${r.url()}`));
    const opened = await page.goto(`${origin}/`, { waitUntil: "load" });
    assert.equal(opened?.status(), 200);
    assert.equal(await page.evaluate(() => typeof (window as unknown as { jsonld?: { expand?: unknown } }).jsonld?.expand), "function", "jsonld.js loaded");

    // 1. expansion against the remote context
    const expanded = await page.evaluate(
      (ctx) => jsonld.expand({ "@context": ctx, "@id": "http://example.org/d", "@type": "ot:Dataset", "qg:numberOfCompounds": 85, "ot:dataEntry": { "@id": "http://example.org/d#e1" } }),
      context,
    );
    assert.equal(expanded.length, 1);
    const node = expanded[0]!;
    assert.deepEqual(node["@type"], [`${OT}Dataset`]);
    assert.deepEqual(node[`${qgNs}numberOfCompounds`], [{ "@value": 85 }]);
    assert.deepEqual(node[`${OT}dataEntry`], [{ "@id": "http://example.org/d#e1" }]);
    assert.ok(requests.includes(`GET ${context}`), `jsonld.js fetched the context itself: ${requests.join(", ")}`);

    // 2. a dataset's JSON-LD, fetched cross-origin, compacted with the context URL and read as RDF
    const reference = lines(new Parser({ format: "N-Triples" }).parse(await (await fetch(dataset, { headers: { Accept: "application/n-triples" } })).text()));
    for (const accept of ["application/json", "application/ld+json"]) {
      const out = await page.evaluate(
        async ({ url, accept, ctx }) => {
          const r = await fetch(url, { headers: { Accept: accept } });
          const doc: unknown = await r.json();
          const compacted = await jsonld.compact(doc, ctx);
          return { status: r.status, type: r.headers.get("content-type"), contextOfDoc: (doc as { "@context": unknown })["@context"], compacted, nquads: await jsonld.toRDF(compacted, { format: "application/n-quads" }) };
        },
        { url: dataset, accept, ctx: context },
      );
      assert.equal(out.status, 200, accept);
      assert.equal(out.type?.split(";")[0], accept);
      if (accept === "application/json") assert.equal(out.contextOfDoc, context, "application/json names the context by its URL");
      assert.equal(out.compacted["@context"], context);
      const graph = (out.compacted["@graph"] ?? [out.compacted]) as Record<string, unknown>[];
      const ds = graph.find((n) => n["@id"] === dataset);
      assert.ok(ds, `the dataset's node (${accept})`);
      assert.deepEqual(ds["qg:numberOfCompounds"], { "@type": "xsd:integer", "@value": "85" }, JSON.stringify(ds["qg:numberOfCompounds"]));
      const got = lines(new Parser({ format: "N-Quads" }).parse(out.nquads));
      assert.equal(got.length, reference.length, `${accept}: jsonld.js ${got.length} triples, N-Triples ${reference.length}`);
      assert.deepEqual(got, reference, accept);
    }
    assert.deepEqual(problems, []);
  });
});
