/**
 * The HTTP a generic client needs, against the real server (issue 18; README "Access control" →
 * "Cross-origin requests", "Representations (every resource)" → "Caching"): CORS, Accept headers
 * with parameters, conditional requests, compression, 405/OPTIONS with Allow, and the HTML pages'
 * alternate links.
 *
 * Expected values come from the standards, not from the code: the Fetch standard's CORS protocol
 * (a preflight is an OPTIONS with Origin and Access-Control-Request-Method, answered with an ok
 * status and Access-Control-Allow-*; `*` allows any origin), RFC 9110 §12.5.1 (an Accept media
 * range may carry parameters), §13.1.2 / §15.4.5 (If-None-Match naming the current ETag → 304, same
 * ETag), §15.5.6 and §10.2.1 (405 carries Allow), §9.3.7 (OPTIONS), RFC 1952 and RFC 7932 (gzip and Brotli, undone here by
 * node's zlib: an independent decoder), HTML 5 "alternate" links. The data:
 * hamster_carcinogenicity.csv (85 distinct structures, fixtures/data/SOURCES.md); acetaldehyde's
 * standard InChI InChI=1S/C2H4O/c1-2-3/h2H,1H3 is PubChem CID 177's.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { HAMSTER, uploadCsv } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";

const ACETALDEHYDE = "/compound/InChI=1S/C2H4O/c1-2-3/h2H,1H3";
const ORIGIN = "https://client.example";

/** A raw GET (fetch would undo the compression itself): status, headers and the bytes as sent. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("HTTP semantics for generic clients", () => {
  const srv = useServer({ upload: { hamster: HAMSTER } });

  describe("CORS", () => {
    for (const path of ["/", "/dataset", "/ontology/context.jsonld", "/sparql", ACETALDEHYDE]) {
      test(`a preflight of ${path} is answered 204 with the methods, headers and max-age`, async () => {
        const r = await fetch(srv.base + path, { method: "OPTIONS", headers: { Origin: ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type" } });
        assert.equal(r.status, 204);
        assert.equal(r.headers.get("access-control-allow-origin"), "*");
        const methods = r.headers.get("access-control-allow-methods")!.split(/,\s*/);
        for (const m of ["GET", "POST", "DELETE"]) assert.ok(methods.includes(m), `${m} in ${methods}`);
        const allowed = r.headers.get("access-control-allow-headers")!.toLowerCase().split(/,\s*/);
        for (const h of ["accept", "content-type", "authorization"]) assert.ok(allowed.includes(h), `${h} in ${allowed}`);
        assert.ok(Number(r.headers.get("access-control-max-age")) > 0);
      });
    }

    test("simple requests get Allow-Origin * and the exposed headers, errors too", async () => {
      const query = encodeURIComponent("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }");
      for (const [path, status] of [["/ontology/context.jsonld", 200], [`/sparql?query=${query}`, 200], ["/dataset", 200], ["/no-such-thing", 404]] as const) {
        const r = await fetch(srv.base + path, { headers: { Origin: ORIGIN, Accept: "*/*" } });
        await r.arrayBuffer();
        assert.equal(r.status, status, path);
        assert.equal(r.headers.get("access-control-allow-origin"), "*", path);
        const exposed = r.headers.get("access-control-expose-headers")!.split(/,\s*/);
        for (const h of ["Location", "Link", "ETag", "Content-Location", "Allow"]) assert.ok(exposed.includes(h), `${h} exposed on ${path}`);
      }
    });
  });

  test("Accept with media-type parameters is negotiated, not refused with 406", async () => {
    const ds = srv.datasets.hamster;
    const turtle = await fetch(ds, { headers: { Accept: "text/turtle; charset=utf-8" } });
    assert.equal(turtle.status, 200, await turtle.clone().text());
    assert.match(turtle.headers.get("content-type")!, /^text\/turtle/);
    await turtle.text();
    const expanded = await fetch(`${srv.base}${ACETALDEHYDE}`, { headers: { Accept: 'application/ld+json; profile="http://www.w3.org/ns/json-ld#expanded"' } });
    assert.equal(expanded.status, 200);
    assert.match(expanded.headers.get("content-type")!, /^application\/ld\+json/);
    JSON.parse(await expanded.text());
    // q still counts: Turtle at 0.1, N-Triples (with a parameter) at 0.9 → N-Triples
    const q = await fetch(ds, { headers: { Accept: "text/turtle; charset=utf-8; q=0.1, application/n-triples; charset=utf-8; q=0.9" } });
    await q.text();
    assert.match(q.headers.get("content-type")!, /^application\/n-triples/);
  });

  describe("conditional requests", () => {
    test("If-None-Match with the ETag → 304 and the same ETag; a change → 200 and a new ETag", async () => {
      const url = `${srv.base}/dataset`;
      const first = await fetch(url, { headers: { Accept: "text/uri-list" } });
      const before = await first.text();
      const etag = first.headers.get("etag");
      assert.ok(etag, "an ETag");
      assert.match(first.headers.get("vary") ?? "", /Accept/);
      const again = await fetch(url, { headers: { Accept: "text/uri-list", "If-None-Match": etag } });
      assert.equal(again.status, 304);
      assert.equal(again.headers.get("etag"), etag);
      assert.equal(await again.text(), "");
      // another representation has another ETag (so a cache keyed on Vary: Accept stays right)
      const turtle = await fetch(url, { headers: { Accept: "text/turtle", "If-None-Match": etag } });
      assert.equal(turtle.status, 200);
      assert.notEqual(turtle.headers.get("etag"), etag);
      await turtle.text();
      // a change: one more dataset in the collection
      const added = await uploadCsv(srv.base, "SMILES,activity\nCCO,1\nc1ccccc1,2\nCCN,3\n", "etag.csv");
      const after = await fetch(url, { headers: { Accept: "text/uri-list", "If-None-Match": etag } });
      assert.equal(after.status, 200);
      const body = await after.text();
      assert.notEqual(after.headers.get("etag"), etag);
      assert.deepEqual(body.trim().split(/\r?\n/).sort(), [...before.trim().split(/\r?\n/), added].sort());
      // deleted again: the list is what it was before, and so is its ETag (a hash of the body)
      const del = await fetch(added, { method: "DELETE", headers: { Accept: "text/uri-list" } });
      assert.equal(del.status, 200, await del.text());
      const restored = await fetch(url, { headers: { Accept: "text/uri-list", "If-None-Match": etag } });
      assert.equal(restored.status, 304);
    });

    test("a task says no-cache and gets an ETag", async () => {
      const tasks = (await (await fetch(`${srv.base}/task`, { headers: { Accept: "text/uri-list" } })).text()).trim().split(/\r?\n/);
      const r = await fetch(tasks[0]!, { headers: { Accept: "text/turtle" } });
      await r.text();
      assert.equal(r.status, 200);
      assert.match(r.headers.get("cache-control") ?? "", /no-cache/);
      const etag = r.headers.get("etag")!;
      const again = await fetch(tasks[0]!, { headers: { Accept: "text/turtle", "If-None-Match": etag } });
      assert.equal(again.status, 304);
    });
  });

  test("a large SPARQL result is gzipped when asked and unzips to the same text", async (t) => {
    const url = `${srv.base}/sparql?query=${encodeURIComponent("SELECT ?s ?p ?o WHERE { ?s ?p ?o }")}`;
    const accept = "application/sparql-results+json";
    const plain = await rawGet(url, { Accept: accept });
    const zipped = await rawGet(url, { Accept: accept, "Accept-Encoding": "gzip" });
    assert.equal(plain.status, 200);
    assert.equal(zipped.status, 200);
    assert.equal(plain.headers["content-encoding"], undefined);
    assert.equal(zipped.headers["content-encoding"], "gzip");
    assert.match(String(zipped.headers.vary), /Accept-Encoding/);
    assert.ok(plain.body.length > 100_000, `a large result: ${plain.body.length} bytes`);
    assert.ok(zipped.body.length < plain.body.length / 3, `${zipped.body.length} vs ${plain.body.length} bytes`);
    assert.equal(gunzipSync(zipped.body).toString("utf8"), plain.body.toString("utf8"));
    t.diagnostic(`SPARQL JSON result ${plain.body.length} bytes, gzipped ${zipped.body.length} bytes`);
  });

  // A page held in memory is compressed in one piece (http/compress.ts): sent with its
  // Content-Length (RFC 9112 §6.3: the length of the bytes as sent, i.e. compressed), not chunked;
  // the ETag is the representation's, the same compressed or not (weak, RFC 9110 §8.8.1).
  test("a page is gzipped or Brotli-compressed in one piece, with its Content-Length and the same ETag", async () => {
    const url = `${srv.base}/`;
    const plain = await rawGet(url, { Accept: "text/html" });
    const zipped = await rawGet(url, { Accept: "text/html", "Accept-Encoding": "gzip, deflate" });
    const br = await rawGet(url, { Accept: "text/html", "Accept-Encoding": "gzip;q=0.5, br" });
    assert.ok(plain.body.length > 1024, `the home page is over the 1 KiB threshold: ${plain.body.length} bytes`);
    assert.equal(plain.headers["content-encoding"], undefined, "no Accept-Encoding: not compressed");
    assert.equal(zipped.headers["content-encoding"], "gzip");
    assert.equal(zipped.headers["transfer-encoding"], undefined, "not chunked");
    assert.equal(Number(zipped.headers["content-length"]), zipped.body.length);
    assert.match(String(zipped.headers["content-type"]), /^text\/html/);
    assert.match(String(zipped.headers.vary), /Accept-Encoding/);
    assert.equal(gunzipSync(zipped.body).toString("utf8"), plain.body.toString("utf8"));
    assert.equal(zipped.headers.etag, plain.headers.etag);
    // br has the higher q-value (RFC 9110 §12.5.3)
    assert.equal(br.headers["content-encoding"], "br");
    assert.equal(Number(br.headers["content-length"]), br.body.length);
    assert.equal(brotliDecompressSync(br.body).toString("utf8"), plain.body.toString("utf8"));
    // If-None-Match with that ETag → 304 for the compressed representation too
    const again = await rawGet(url, { Accept: "text/html", "Accept-Encoding": "gzip", "If-None-Match": String(zipped.headers.etag) });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
  });

  test("an answer under 1 KiB, identity-only clients and HEAD are not compressed", async () => {
    const url = `${srv.base}${ACETALDEHYDE}`;
    const small = await rawGet(url, { Accept: "text/uri-list", "Accept-Encoding": "gzip" });
    assert.equal(small.status, 200);
    assert.ok(small.body.length < 1024, `${small.body.length} bytes`);
    assert.equal(small.headers["content-encoding"], undefined);
    const identity = await rawGet(`${srv.base}/`, { Accept: "text/html", "Accept-Encoding": "identity, gzip;q=0" });
    assert.equal(identity.headers["content-encoding"], undefined);
    assert.match(identity.body.toString("utf8"), /<html/i);
    const head = await fetch(`${srv.base}/`, { method: "HEAD", headers: { Accept: "text/html", "Accept-Encoding": "gzip" } });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-encoding"), null);
  });

  describe("methods", () => {
    test("a method a path does not have → 405 with Allow", async () => {
      const r = await fetch(`${srv.base}/dataset`, { method: "PUT", headers: { Accept: "application/problem+json" } });
      assert.equal(r.status, 405);
      assert.deepEqual(r.headers.get("allow")!.split(/,\s*/).sort(), ["GET", "HEAD", "OPTIONS", "POST"]);
      assert.equal(JSON.parse(await r.text()).status, 405);
      const ds = await fetch(srv.datasets.hamster, { method: "POST", headers: { Accept: "text/plain" } });
      await ds.text();
      assert.equal(ds.status, 405);
      assert.ok(ds.headers.get("allow")!.split(/,\s*/).includes("DELETE"));
    });

    test("OPTIONS on a resource → 204 with Allow", async () => {
      for (const [path, must] of [["/dataset", "POST"], [new URL(srv.datasets.hamster).pathname, "DELETE"], ["/sparql", "POST"], [ACETALDEHYDE, "GET"]] as const) {
        const r = await fetch(srv.base + path, { method: "OPTIONS" });
        assert.equal(r.status, 204, path);
        const allow = r.headers.get("allow")!.split(/,\s*/);
        assert.ok(allow.includes(must) && allow.includes("OPTIONS"), `${path}: ${allow}`);
      }
    });

    test("DELETE on a stored compound is 405, not 404", async () => {
      const r = await fetch(`${srv.base}${ACETALDEHYDE}`, { method: "DELETE", headers: { Accept: "text/plain" } });
      await r.text();
      assert.equal(r.status, 405);
      assert.deepEqual(r.headers.get("allow")!.split(/,\s*/), ["GET", "HEAD", "OPTIONS"]);
    });

    test("a path that does not exist stays 404 for OPTIONS", async () => {
      const r = await fetch(`${srv.base}/no-such-thing`, { method: "OPTIONS" });
      await r.text();
      assert.equal(r.status, 404);
    });
  });

  test("an HTML page links its RDF forms as alternates", async () => {
    const r = await fetch(srv.datasets.hamster, { headers: { Accept: "text/html" } });
    const html = await r.text();
    const head = html.slice(0, html.indexOf("</head>"));
    const links = [...head.matchAll(/<link rel="alternate" type="([^"]+)" href="([^"]+)">/g)].map((m) => [m[1]!, m[2]!.replace(/&#38;/g, "&")] as const);
    const types = links.map(([t]) => t);
    for (const t of ["text/turtle", "application/n-triples", "application/ld+json", "application/rdf+xml"]) assert.ok(types.includes(t), `${t} in ${types}`);
    // each alternate gives what it says
    for (const [type, href] of links.filter(([t]) => t === "text/turtle" || t === "application/ld+json")) {
      const alt = await fetch(href);
      await alt.text();
      assert.equal(alt.status, 200, href);
      assert.ok(alt.headers.get("content-type")!.startsWith(type), `${href}: ${alt.headers.get("content-type")}`);
    }
  });
});
