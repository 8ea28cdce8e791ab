/**
 * The service described for generic Linked Data clients, as N-Triples (rendered like any graph):
 *
 * - the SPARQL 1.1 Service Description (https://www.w3.org/TR/sparql11-service-description/)
 *   answered by `GET /sparql` without a query to a client that takes RDF: the endpoint, the
 *   language (SPARQL 1.1 Query only: the endpoint is read-only), every result format it serves
 *   (W3C format IRIs, https://www.w3.org/ns/formats/), the feature sd:UnionDefaultGraph (without
 *   `default-graph-uri` the default graph is the union of all graphs, store/sparql-exec.ts), and
 *   the default dataset with its size. Named graphs are not listed one by one: every resource is
 *   its own named graph, named by its URI.
 * - the VoID description (https://www.w3.org/TR/void/) at `/.well-known/void` (VoID §7.2): the
 *   dataset of everything the service holds, its SPARQL endpoint, URI space, vocabularies,
 *   size and the classes of its main resources.
 *
 * Both read only figures that the store keeps (no query), so they answer at once.
 */
import { DataFactory } from "n3";
import type { BlankNode, NamedNode, Quad } from "@rdfjs/types";
import { toNTriples } from "../store/ntriples.ts";
import { GRAPH_FORMATS, SOLUTION_FORMATS } from "../store/sparql-syntax.ts";
import { DESCRIBE_NS, NS, QG_ONTOLOGY, dcterms, foaf, int, iri, ot, rdf, rdfs, sd, str, voiD } from "../store/vocab.ts";
import { isId } from "../resources/uris.ts";
import type { Deps } from "./deps.ts";

const { quad, blankNode } = DataFactory;

/** The W3C format IRI (https://www.w3.org/ns/formats/) of each result media type the endpoint serves. */
export const FORMAT_IRIS: Readonly<Record<string, string>> = {
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

function formatIri(type: string): NamedNode {
  const name = FORMAT_IRIS[type];
  if (name === undefined) throw new Error(`no W3C format IRI for ${type}`);
  return iri(DESCRIBE_NS.formats + name);
}

/** The path of the VoID description (VoID §7.2, the well-known URI). */
export const VOID_PATH = "/.well-known/void";

type DescribeDeps = Pick<Deps, "uris" | "vocab" | "store">;

/** The IRI of the VoID dataset: everything the service holds. */
export function voidDatasetIri(deps: DescribeDeps): string {
  return `${deps.vocab.base}${VOID_PATH}#dataset`;
}

/** The SPARQL 1.1 Service Description of `/sparql`, as N-Triples. */
export function serviceDescriptionNt(deps: DescribeDeps, timeLimitMs: number): string {
  const s: BlankNode = blankNode("service");
  const dataset = blankNode("dataset");
  const graph = blankNode("defaultGraph");
  const q: Quad[] = [
    quad(s, rdf.type, sd.Service),
    quad(s, sd.endpoint, iri(deps.uris.sparql())),
    quad(s, sd.supportedLanguage, sd.SPARQL11Query),
    quad(s, sd.feature, sd.UnionDefaultGraph),
    quad(s, sd.defaultEntailmentRegime, iri(`${DESCRIBE_NS.entailment}Simple`)),
    quad(s, dcterms.title, str("qsargraph SPARQL endpoint")),
    quad(
      s,
      rdfs.comment,
      str(`Read-only SPARQL 1.1 Query over every graph of the service (an update is a 400; SERVICE is a 400). A query that cannot start or end within ${timeLimitMs} ms is refused with 503. Every resource is its own named graph, named by its URI; without default-graph-uri the default graph is the union of all graphs.`),
    ),
  ];
  for (const f of [...SOLUTION_FORMATS, ...GRAPH_FORMATS]) q.push(quad(s, sd.resultFormat, formatIri(f)));
  q.push(
    quad(s, sd.defaultDataset, dataset),
    quad(dataset, rdf.type, sd.Dataset),
    quad(dataset, rdfs.seeAlso, iri(voidDatasetIri(deps))),
    quad(dataset, sd.defaultGraph, graph),
    quad(graph, rdf.type, sd.Graph),
    quad(graph, voiD.triples, int(deps.store.capacity().live)),
  );
  return toNTriples(q);
}

/** The VoID description of the service's data, as N-Triples. */
export function voidNt(deps: DescribeDeps): string {
  const { uris, vocab } = deps;
  const d = iri(voidDatasetIri(deps));
  // the document itself (VoID §7.2: a description names what it describes)
  const doc = iri(`${vocab.base}${VOID_PATH}`);
  const q: Quad[] = [
    quad(doc, rdf.type, voiD.DatasetDescription),
    quad(doc, dcterms.title, str("VoID description of the qsargraph service's data")),
    quad(doc, foaf.primaryTopic, d),
    quad(d, rdf.type, voiD.Dataset),
    quad(d, dcterms.title, str("qsargraph")),
    quad(d, dcterms.description, str("Datasets of compounds and their measured endpoints, QSAR models, their predictions and cross-validations, as served by this qsargraph service.")),
    quad(d, voiD.sparqlEndpoint, iri(uris.sparql())),
    quad(d, voiD.uriSpace, str(`${vocab.base}/`)),
    quad(d, voiD.rootResource, iri(uris.service())),
    quad(d, voiD.triples, int(deps.store.capacity().live)),
    quad(d, rdfs.seeAlso, iri(uris.sparql())),
  ];
  // the service's own vocabulary by its ontology's stable IRI (each service serves a copy at /ontology), the others by namespace
  for (const ns of [NS.ot, NS.ota, QG_ONTOLOGY, NS.dc, NS.dcterms]) q.push(quad(d, voiD.vocabulary, iri(ns)));
  // The main classes; each one's instances are counted where the store keeps a graph per instance.
  const members = (prefix: string): number => deps.store.graphsWithPrefix(`${prefix}/`).filter((g) => isId(g.slice(prefix.length + 1))).length;
  const partitions: [NamedNode, number | undefined][] = [
    [ot.Dataset, members(uris.datasets())],
    [ot.Model, members(uris.models())],
    [ot.Compound, undefined],
    [ot.Feature, undefined],
    [ot.Algorithm, undefined],
    [ot.Task, undefined],
  ];
  partitions.forEach(([cls, n], i) => {
    const p = blankNode(`class${i}`);
    q.push(quad(d, voiD.classPartition, p), quad(p, voiD.class, cls));
    if (n !== undefined) q.push(quad(p, voiD.entities, int(n)));
  });
  return toNTriples(q);
}
