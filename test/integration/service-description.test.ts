/**
 * The service described for generic Linked Data clients (issue 18), over HTTP on a real server
 * with hamster_carcinogenicity.csv uploaded:
 *
 * - `GET /sparql` without a query: the SPARQL 1.1 Service Description for an RDF client (Turtle
 *   by default, the other RDF types on request, HEAD too), the form for a browser, 400 for a
 *   client that takes neither; what it claims is true of the endpoint (each listed result format
 *   is served; the default graph is the union of the graphs);
 * - `/.well-known/void`: a void:Dataset with the endpoint, URI space, vocabularies, title and the
 *   class partition of the datasets (one uploaded: one ot:Dataset);
 * - `/`: the standard terms next to its own (void:sparqlEndpoint, the VoID document, /validation
 *   among the collections), each link answering 200;
 * - result formats: application/json answered by SPARQL JSON results (SELECT, ASK) or JSON-LD
 *   (CONSTRUCT), each labelled with its precise type; CONSTRUCT as JSON-LD and N-Quads.
 *
 * References: the terms and their IRIs from SPARQL 1.1 Service Description
 * (https://www.w3.org/TR/sparql11-service-description/, namespace
 * http://www.w3.org/ns/sparql-service-description#), VoID (https://www.w3.org/TR/void/, namespace
 * http://rdfs.org/ns/void#, §7.2 the well-known URI /.well-known/void), the format IRIs and their
 * media types from https://www.w3.org/ns/formats/; the JSON result shapes from SPARQL 1.1 Query
 * Results JSON Format §3 (SELECT) and §3.4 (ASK: `boolean`). Turtle is parsed with n3's parser.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Parser, Store, type Quad_Object } from "n3";
import { HAMSTER } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { QG_NS } from "../../src/store/vocab.ts";

const SD = "http://www.w3.org/ns/sparql-service-description#";
const VOID = "http://rdfs.org/ns/void#";
const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const OT = "http://www.opentox.org/api/1.1#";
const DC_TITLE = "http://purl.org/dc/elements/1.1/title";
const DCTERMS_TITLE = "http://purl.org/dc/terms/title";
const RDFS_SEE_ALSO = "http://www.w3.org/2000/01/rdf-schema#seeAlso";
const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

/** https://www.w3.org/ns/formats/: each format's IRI and its media type. */
const FORMATS: Record<string, string> = {
  "http://www.w3.org/ns/formats/SPARQL_Results_JSON": "application/sparql-results+json",
  "http://www.w3.org/ns/formats/SPARQL_Results_XML": "application/sparql-results+xml",
  "http://www.w3.org/ns/formats/SPARQL_Results_CSV": "text/csv",
  "http://www.w3.org/ns/formats/SPARQL_Results_TSV": "text/tab-separated-values",
  "http://www.w3.org/ns/formats/Turtle": "text/turtle",
  "http://www.w3.org/ns/formats/N-Triples": "application/n-triples",
  "http://www.w3.org/ns/formats/RDF_XML": "application/rdf+xml",
  "http://www.w3.org/ns/formats/JSON-LD": "application/ld+json",
  "http://www.w3.org/ns/formats/N-Quads": "application/n-quads",
};
const SOLUTION_RESULTS = new Set(["SPARQL_Results_JSON", "SPARQL_Results_XML", "SPARQL_Results_CSV", "SPARQL_Results_TSV"].map((n) => `http://www.w3.org/ns/formats/${n}`));

async function turtle(r: Response, base: string): Promise<Store> {
  assert.equal(r.status, 200);
  assert.equal(r.headers.get("content-type"), "text/turtle; charset=utf-8");
  return new Store(new Parser({ baseIRI: base }).parse(await r.text()));
}

function objects(store: Store, s: Quad_Object | string | null, p: string): string[] {
  return store.getObjects(s as never, p, null).map((o) => o.value);
}

describe("the service described for generic clients", () => {
  const srv = useServer({ upload: { hamster: HAMSTER } });
  const sparql = (query: string, accept: string): Promise<Response> => fetch(`${srv.base}/sparql?query=${encodeURIComponent(query)}`, { headers: { Accept: accept } });

  test("GET /sparql without a query: the service description (Turtle by default) with the endpoint, language, formats, union default graph", async () => {
    const store = await turtle(await fetch(`${srv.base}/sparql`), `${srv.base}/sparql`);
    const services = store.getSubjects(RDF_TYPE, `${SD}Service`, null);
    assert.equal(services.length, 1);
    const s = services[0]!;
    assert.deepEqual(objects(store, s, `${SD}endpoint`), [`${srv.base}/sparql`]);
    assert.deepEqual(objects(store, s, `${SD}supportedLanguage`), [`${SD}SPARQL11Query`]);
    assert.deepEqual(objects(store, s, `${SD}feature`), [`${SD}UnionDefaultGraph`]);
    assert.deepEqual(objects(store, s, `${SD}resultFormat`).sort(), Object.keys(FORMATS).sort());
    const [dataset] = store.getObjects(s, `${SD}defaultDataset`, null);
    assert.ok(dataset);
    assert.deepEqual(objects(store, dataset, RDF_TYPE), [`${SD}Dataset`]);
    const [graph] = store.getObjects(dataset, `${SD}defaultGraph`, null);
    assert.ok(graph);
    const triples = Number(objects(store, graph, `${VOID}triples`)[0]);
    assert.ok(Number.isInteger(triples) && triples > 100, `void:triples ${triples} (the upload alone writes more)`);

    // The other RDF types and HEAD; a browser still gets the form; a client that takes neither a 400.
    for (const type of ["application/n-triples", "application/ld+json", "application/rdf+xml"]) {
      const r = await fetch(`${srv.base}/sparql`, { headers: { Accept: type } });
      assert.equal(r.status, 200, type);
      assert.ok(r.headers.get("content-type")!.startsWith(type), `${type}: ${r.headers.get("content-type")}`);
      assert.ok((await r.text()).includes(`${SD}SPARQL11Query`) || type === "application/rdf+xml", type);
    }
    const head = await fetch(`${srv.base}/sparql`, { method: "HEAD", headers: { Accept: "text/turtle" } });
    assert.deepEqual([head.status, head.headers.get("content-type"), await head.text()], [200, "text/turtle; charset=utf-8", ""]);
    const page = await fetch(`${srv.base}/sparql`, { headers: { Accept: BROWSER } });
    assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
    assert.match(await page.text(), /<textarea/);
    assert.equal((await fetch(`${srv.base}/sparql`, { headers: { Accept: "application/sparql-results+json" } })).status, 400);
  });

  test("what the description claims holds: each result format is served; the default graph is the union of the graphs", async () => {
    const store = await turtle(await fetch(`${srv.base}/sparql`, { headers: { Accept: "text/turtle" } }), `${srv.base}/sparql`);
    const [s] = store.getSubjects(RDF_TYPE, `${SD}Service`, null);
    for (const f of objects(store, s!, `${SD}resultFormat`)) {
      const query = SOLUTION_RESULTS.has(f) ? "SELECT ?d WHERE { ?d a ot:Dataset }" : "CONSTRUCT WHERE { ?d a ot:Dataset }";
      const r = await sparql(query, FORMATS[f]!);
      assert.equal(r.status, 200, f);
      assert.ok(r.headers.get("content-type")!.startsWith(FORMATS[f]!), `${f}: ${r.headers.get("content-type")}`);
      assert.ok((await r.text()).includes(srv.datasets.hamster), f);
    }
    // Union: the dataset's title is in the dataset's own graph, yet found without FROM or GRAPH.
    const r = await sparql(`SELECT ?t WHERE { <${srv.datasets.hamster}> <${DC_TITLE}> ?t }`, "text/csv");
    assert.equal(await r.text(), "t\r\nhamster_carcinogenicity\r\n");
  });

  test("/.well-known/void: the dataset with its endpoint, URI space, vocabularies, title and one ot:Dataset", async () => {
    const store = await turtle(await fetch(`${srv.base}/.well-known/void`), `${srv.base}/.well-known/void`);
    const datasets = store.getSubjects(RDF_TYPE, `${VOID}Dataset`, null);
    assert.equal(datasets.length, 1);
    const d = datasets[0]!;
    assert.deepEqual(objects(store, d, `${VOID}sparqlEndpoint`), [`${srv.base}/sparql`]);
    assert.deepEqual(objects(store, d, `${VOID}uriSpace`), [`${srv.base}/`]);
    assert.deepEqual(objects(store, d, DCTERMS_TITLE), ["qsargraph"]);
    const vocabularies = objects(store, d, `${VOID}vocabulary`);
    // the service's own by its stable IRI (docs/vocabulary.md), not this deployment's copy
    assert.ok(vocabularies.includes(OT) && vocabularies.includes("https://w3id.org/qsargraph/ontology"), vocabularies.join(" "));
    // the document names itself and what it describes (VoID §7.2)
    const doc = `${srv.base}/.well-known/void`;
    assert.deepEqual(objects(store, doc, RDF_TYPE), [`${VOID}DatasetDescription`]);
    assert.deepEqual(objects(store, doc, "http://xmlns.com/foaf/0.1/primaryTopic"), [d.value]);
    const partitions = store.getObjects(d, `${VOID}classPartition`, null);
    const ofDataset = partitions.filter((p) => objects(store, p, `${VOID}class`)[0] === `${OT}Dataset`);
    assert.equal(ofDataset.length, 1);
    assert.deepEqual(objects(store, ofDataset[0]!, `${VOID}entities`), ["1"]);
    // The endpoint knows as many datasets as the partition says.
    const count = await (await sparql("SELECT (COUNT(DISTINCT ?d) AS ?n) WHERE { ?d a ot:Dataset }", "text/csv")).text();
    assert.equal(count, "n\r\n1\r\n");
  });

  test("/ names the endpoint and the VoID description with the standard terms, keeps its own, and lists /validation", async () => {
    const store = await turtle(await fetch(`${srv.base}/`, { headers: { Accept: "text/turtle" } }), `${srv.base}/`);
    const root = `${srv.base}/`;
    const qg = QG_NS;
    assert.deepEqual(objects(store, root, `${VOID}sparqlEndpoint`), [`${srv.base}/sparql`]);
    assert.deepEqual(objects(store, root, `${qg}sparqlEndpoint`), [`${srv.base}/sparql`]);
    assert.ok(objects(store, root, RDFS_SEE_ALSO).includes(`${srv.base}/.well-known/void`));
    const collections = objects(store, root, `${qg}collection`);
    assert.ok(collections.includes(`${srv.base}/validation`) && collections.includes(`${srv.base}/dataset`), collections.join(" "));
    for (const u of [`${srv.base}/.well-known/void`, `${srv.base}/validation`]) assert.equal((await fetch(u)).status, 200, u);
  });

  test("result formats: application/json is SPARQL JSON results for SELECT and ASK; CONSTRUCT as JSON-LD and N-Quads", async () => {
    const select = await sparql(`SELECT ?t WHERE { <${srv.datasets.hamster}> <${DC_TITLE}> ?t }`, "application/json");
    // labelled with the precise type of its body (a JSON type the client can read as JSON)
    assert.equal(select.headers.get("content-type"), "application/sparql-results+json");
    assert.deepEqual(await select.json(), { head: { vars: ["t"] }, results: { bindings: [{ t: { type: "literal", value: "hamster_carcinogenicity" } }] } });
    const ask = await sparql(`ASK { <${srv.datasets.hamster}> <${DC_TITLE}> "hamster_carcinogenicity" }`, "application/json");
    assert.deepEqual(await ask.json(), { head: {}, boolean: true });
    const construct = `CONSTRUCT WHERE { <${srv.datasets.hamster}> <${DC_TITLE}> ?t }`;
    for (const type of ["application/ld+json", "application/json"]) {
      const r = await sparql(construct, type);
      assert.ok(r.headers.get("content-type")!.startsWith("application/ld+json"), `${type}: ${r.headers.get("content-type")}`);
      assert.deepEqual(await r.json(), [{ "@id": srv.datasets.hamster, [DC_TITLE]: [{ "@value": "hamster_carcinogenicity" }] }], type);
    }
    const nq = await sparql(construct, "application/n-quads");
    assert.equal(nq.headers.get("content-type"), "application/n-quads");
    assert.equal((await nq.text()).trim(), `<${srv.datasets.hamster}> <${DC_TITLE}> "hamster_carcinogenicity" .`);
  });
});
