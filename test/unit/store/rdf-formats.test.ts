/**
 * The RDF serialisations (src/store/rdf-formats.ts): every format of a graph given in several
 * slices of N-Triples lines must hold exactly the input's triples. Each output is parsed back
 * with an independent library (n3 for Turtle and N-Triples, Oxigraph for RDF/XML, jsonld.js
 * `toRDF` for JSON-LD, with the published context supplied by a document loader) and compared,
 * as canonical triples (test/helpers/rdf.ts), with the input parsed by n3. The input is written
 * here by hand: typed, language-tagged and Unicode literals, a subject whose triples fall into
 * different slices, and a blank node used in two slices.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import jsonld from "jsonld";
import { Parser } from "n3";
import * as ox from "oxigraph";
import { contextUrl, jsonldContext, RDF_TYPES, serialiseRdf, type RdfType } from "../../../src/store/rdf-formats.ts";
import { Vocab } from "../../../src/store/vocab.ts";
import { canonical, type TripleLike } from "../../helpers/rdf.ts";
import { QG_NS } from "../../../src/store/vocab.ts";

const BASE = "http://localhost:8080";
const v = new Vocab(BASE);
const OT = "http://www.opentox.org/api/1.1#";
const XSD = "http://www.w3.org/2001/XMLSchema#";
const DS = `${BASE}/dataset/abcdefghijkm`;

/** Three slices of whole lines; <DS> and _:b1 occur in more than one. */
const SLICES = [
  `<${DS}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${OT}Dataset> .\n<${DS}> <http://purl.org/dc/elements/1.1/title> "Benzol – C₆H₆ für 5 € 中文 🧪"@de .\n<${DS}> <${OT}dataEntry> <${DS}#e1> .\n<${DS}#e1> <${OT}values> _:b1 .\n`,
  `_:b1 <${OT}value> "1.5E1"^^<${XSD}double> .\n_:b1 <${OT}feature> <${DS}/feature/x%20y> .\n<${DS}> <${OT}dataEntry> <${DS}#e2> .\n<${DS}#e2> <${QG_NS}line> "2"^^<${XSD}integer> .\n`,
  `<${DS}#e2> <${OT}compound> <${BASE}/compound/InChI=1S/C2H4O/c1-2-3/h2H,1H3> .\n<${DS}> <http://purl.org/dc/terms/date> "2026-01-02T03:04:05.678Z"^^<${XSD}dateTime> .\n<${DS}#e2> <http://www.w3.org/2000/01/rdf-schema#comment> "a \\"quoted\\" line\\nbreak" .\n`,
];

const triplesOf = (qs: readonly TripleLike[]): string[] => qs.map(canonical).sort();

async function parseBack(body: string, type: RdfType): Promise<string[]> {
  switch (type) {
    case "text/turtle":
    case "application/n-triples":
      return triplesOf(new Parser({ format: type === "text/turtle" ? "Turtle" : "N-Triples" }).parse(body));
    case "application/rdf+xml":
      return triplesOf(ox.parse(body, { format: "application/rdf+xml", base_iri: BASE }));
    default: {
      const documentLoader = async (url: string): Promise<unknown> => {
        assert.equal(url, contextUrl(v), "the only document loaded is the published context");
        return { contextUrl: undefined, documentUrl: url, document: jsonldContext(v) };
      };
      const nquads = (await jsonld.toRDF(JSON.parse(body) as object, { format: "application/n-quads", documentLoader } as never)) as unknown as string;
      return triplesOf(new Parser({ format: "N-Quads" }).parse(nquads));
    }
  }
}

describe("serialiseRdf", () => {
  const expected = triplesOf(new Parser({ format: "N-Triples" }).parse(SLICES.join("")));

  it("the input has what the test needs: 11 triples, a blank node and a subject in several slices", () => {
    assert.equal(expected.length, 11);
    assert.ok(SLICES.filter((s) => s.includes("_:b1")).length === 2);
    assert.ok(SLICES.filter((s) => s.startsWith(`<${DS}>`) || s.includes(`\n<${DS}> `)).length === 3);
  });

  for (const type of RDF_TYPES) {
    it(`${type}: the same triples as the input, from three slices`, async () => {
      const body = await serialiseRdf(SLICES, type, v);
      assert.deepEqual(await parseBack(body, type), expected);
    });
  }

  it("Turtle uses the published prefixes; JSON-LD inlines the context (ld+json) or names its URL (json) and has one @graph", async () => {
    assert.match(await serialiseRdf(SLICES, "text/turtle", v), /@prefix ot: <http:\/\/www\.opentox\.org\/api\/1\.1#>/);
    const ld = JSON.parse(await serialiseRdf(SLICES, "application/ld+json", v)) as Record<string, unknown>;
    assert.deepEqual(ld["@context"], jsonldContext(v)["@context"]);
    assert.ok(Array.isArray(ld["@graph"]));
    const json = JSON.parse(await serialiseRdf(SLICES, "application/json", v)) as Record<string, unknown>;
    assert.equal(json["@context"], `${BASE}/ontology/context.jsonld`);
  });

  it("an empty graph is a valid empty document in every format", async () => {
    for (const type of RDF_TYPES) assert.deepEqual(await parseBack(await serialiseRdf([], type, v), type), [], type);
  });

  it("JSON-LD of a 20,000-triple dataset graph holds exactly its triples (n3 parses it: jsonld.js's own N-Quads parser took 17 s)", async () => {
    let nt = "";
    for (let i = 0; i < 2000; i++) {
      nt += `<${DS}> <${OT}dataEntry> <${DS}#e${i}> .\n`;
      for (let j = 0; j < 3; j++) nt += `<${DS}#e${i}> <${OT}values> <${DS}#e${i}v${j}> .\n<${DS}#e${i}v${j}> <${OT}value> "${i * j}"^^<${XSD}double> .\n<${DS}#e${i}v${j}> <${OT}feature> <${DS}/feature/f${j}> .\n`;
    }
    const body = await serialiseRdf([nt], "application/ld+json", v);
    assert.deepEqual(await parseBack(body, "application/ld+json"), triplesOf(new Parser({ format: "N-Triples" }).parse(nt)));
  });
});
