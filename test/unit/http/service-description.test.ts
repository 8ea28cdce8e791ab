/**
 * http/service-description.ts: every result format the endpoint serves is named in the service
 * description by its W3C format IRI. Reference: https://www.w3.org/ns/formats/ (each format's
 * IRI and media type, written out here by hand from that page).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { FORMAT_IRIS } from "../../../src/http/service-description.ts";
import { GRAPH_FORMATS, SOLUTION_FORMATS } from "../../../src/store/sparql-syntax.ts";

const W3C: Record<string, string> = {
  "application/sparql-results+json": "SPARQL_Results_JSON",
  "application/sparql-results+xml": "SPARQL_Results_XML",
  "text/csv": "SPARQL_Results_CSV",
  "text/tab-separated-values": "SPARQL_Results_TSV",
  "text/turtle": "Turtle",
  "application/n-triples": "N-Triples",
  "application/rdf+xml": "RDF_XML",
  "application/ld+json": "JSON-LD",
  "application/n-quads": "N-Quads",
};

test("every result format served has its W3C format IRI", () => {
  for (const type of [...SOLUTION_FORMATS, ...GRAPH_FORMATS]) assert.equal(FORMAT_IRIS[type], W3C[type], type);
});
