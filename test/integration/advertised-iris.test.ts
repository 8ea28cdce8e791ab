/**
 * IRIs the service advertises answer (issue 18 point 4): every `/algorithm/pc/<Descriptor>` that
 * `/algorithm/pc` lists is described at its own IRI (as lazar served `GET /algorithm/pc/<name>`:
 * ../shared/spec lazar.md §"Descriptors", Era A); `/algorithm/pc` describes itself; an alias IRI
 * (OpenTox 1.1's `/algorithm/lazar`, `/algorithm/fminer/bbrc`, a percent-encoded compound IRI)
 * names the canonical IRI in `Content-Location` (RFC 9110 §8.7) and a POST to the alias still runs.
 *
 * Expected values: ALOGPDescriptor's pc_type, lib and value names from lazar's descriptor list
 * (../shared/spec descriptors.md §2.4: "ALOGPDescriptor | constitutional | ALogP, ALogp2, AMR");
 * the caffeine InChI from PubChem CID 2519.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Parser, type Quad } from "n3";
import { get } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";

const OT = "http://www.opentox.org/api/1.1#";
const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const HAS_PART = "http://purl.org/dc/terms/hasPart";
const CAFFEINE = "InChI=1S/C8H10N4O2/c1-10-4-9-6-5(10)7(13)12(3)8(14)11(6)2/h4H,1-3H3";

async function turtle(url: string): Promise<{ status: number; quads: Quad[]; headers: Headers }> {
  const r = await get(url, "text/turtle");
  const text = await r.text();
  return { status: r.status, headers: r.headers, quads: r.ok ? new Parser({ format: "Turtle", baseIRI: url }).parse(text) : [] };
}

describe("advertised IRIs answer", () => {
  const srv = useServer();

  test("every descriptor /algorithm/pc lists answers with its own description (Turtle, HTML, uri-list); an unknown one 404", async () => {
    const listed = (await (await get(`${srv.base}/algorithm/pc`, "text/uri-list")).text()).trim().split(/\r?\n/);
    assert.ok(listed.length > 80, `the descriptors are listed (${listed.length})`);
    for (const uri of listed) {
      const { status, quads } = await turtle(uri);
      assert.equal(status, 200, uri);
      assert.ok(quads.some((q) => q.subject.value === uri && q.predicate.value === RDF_TYPE && q.object.value === `${OT}Algorithm`), `${uri} is an ot:Algorithm in its own document`);
    }
    const alogp = `${srv.base}/algorithm/pc/ALOGPDescriptor`;
    assert.ok(listed.includes(alogp));
    const { quads } = await turtle(alogp);
    const values = (p: string): string[] => quads.filter((q) => q.subject.value === alogp && q.predicate.value.endsWith(p)).map((q) => q.object.value).sort();
    assert.deepEqual(values("#pcType"), ["constitutional"]);
    assert.deepEqual(values("#lib"), ["cdk"]);
    assert.deepEqual(values("#valueName"), ["ALogP", "ALogp2", "AMR"]);
    const html = await get(alogp, "text/html");
    assert.equal(html.status, 200);
    assert.match(await html.text(), /constitutional/);
    assert.deepEqual((await (await get(alogp, "text/uri-list")).text()).trim(), alogp);
    const none = await get(`${srv.base}/algorithm/pc/NoSuchDescriptor`, "text/turtle");
    assert.equal(none.status, 404);
    await none.text();
  });

  test("/algorithm/pc describes itself: an ot:Algorithm with dcterms:hasPart every listed descriptor", async () => {
    const self = `${srv.base}/algorithm/pc`;
    const listed = (await (await get(self, "text/uri-list")).text()).trim().split(/\r?\n/);
    const { quads } = await turtle(self);
    assert.ok(quads.some((q) => q.subject.value === self && q.predicate.value === RDF_TYPE && q.object.value === `${OT}Algorithm`));
    assert.ok(quads.some((q) => q.subject.value === self && q.predicate.value === "http://purl.org/dc/elements/1.1/title"));
    const parts = quads.filter((q) => q.subject.value === self && q.predicate.value === HAS_PART).map((q) => q.object.value).sort();
    assert.deepEqual(parts, [...listed].sort());
  });

  test("alias IRIs name the canonical IRI in Content-Location and serve its graph; the canonical IRI has none", async () => {
    for (const [alias, canonical] of [
      ["lazar", "qsar"],
      ["fminer/bbrc", "miner/bbrc"],
    ] as const) {
      const a = await turtle(`${srv.base}/algorithm/${alias}`);
      assert.equal(a.status, 200);
      assert.equal(a.headers.get("content-location"), `${srv.base}/algorithm/${canonical}`, alias);
      assert.ok(a.quads.some((q) => q.subject.value === `${srv.base}/algorithm/${canonical}`), `${alias}: the document is about ${canonical}`);
      const c = await get(`${srv.base}/algorithm/${canonical}`);
      assert.equal(c.headers.get("content-location"), null);
      await c.text();
    }
    const plain = `${srv.base}/compound/${CAFFEINE}`;
    const encoded = `${srv.base}/compound/${encodeURIComponent(CAFFEINE)}`;
    assert.notEqual(encoded, plain);
    const e = await turtle(encoded);
    assert.equal(e.status, 200);
    assert.equal(e.headers.get("content-location"), plain);
    assert.ok(e.quads.some((q) => q.subject.value === plain));
    const p = await get(plain);
    assert.equal(p.headers.get("content-location"), null);
    await p.text();
  });

  test("a POST to an alias still runs the algorithm (a bad request shows the alias reaches its checks)", async () => {
    const r = await fetch(`${srv.base}/algorithm/lazar`, { method: "POST", headers: { Accept: "text/plain" }, body: new URLSearchParams({}) });
    assert.equal(r.status, 400);
    assert.match(await r.text(), /dataset_uri/);
  });
});
