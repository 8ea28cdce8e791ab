/**
 * The vocabulary: every IRI the service writes is built here (docs/opentox-api.md "RDF shapes").
 *
 * OpenTox ontology 1.1 (`ot:`), Dublin Core elements (`dc:`), RDF/RDFS/OWL/XSD, and the service's
 * own additions in `QG_NS` (`qg:`, declared in `ontology/qsargraph.ttl`): one namespace for every
 * deployment, whatever its base URL, so data and queries carry over between installations
 * (docs/vocabulary.md). Terms are n3 DataFactory terms: they are cheap plain objects, and n3's
 * writer turns them into N-Triples.
 */
import { DataFactory } from "n3";
import type { NamedNode, Literal } from "@rdfjs/types";

const { namedNode, literal } = DataFactory;

export const NS = {
  ot: "http://www.opentox.org/api/1.1#",
  ota: "http://www.opentox.org/algorithmTypes.owl#",
  dc: "http://purl.org/dc/elements/1.1/",
  dcterms: "http://purl.org/dc/terms/",
  rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
  rdfs: "http://www.w3.org/2000/01/rdf-schema#",
  owl: "http://www.w3.org/2002/07/owl#",
  xsd: "http://www.w3.org/2001/XMLSchema#",
} as const;

/**
 * The service's own vocabulary: a persistent IRI (w3id.org) that does not depend on `BASE_URL`.
 * Each deployment serves its copy of the vocabulary at `<BASE_URL>/ontology` (http/routes/service.ts).
 */
export const QG_ONTOLOGY = "https://w3id.org/qsargraph/ontology";
export const QG_NS = `${QG_ONTOLOGY}#`;

/**
 * Where data directories written before the stable namespace kept the vocabulary: under the
 * deployment's own base (store/migrate-vocabulary.ts rewrites them once).
 */
export function legacyQgNs(base: string): string {
  return `${base.replace(/\/+$/, "")}/ontology#`;
}

type Terms<K extends string> = { readonly [k in K]: NamedNode };

function terms<K extends string>(ns: string, names: readonly K[]): Terms<K> {
  const out = {} as Record<K, NamedNode>;
  for (const n of names) out[n] = namedNode(ns + n);
  return out;
}

export const ot = terms(NS.ot, [
  "Dataset", "DataEntry", "FeatureValue", "Feature", "NominalFeature", "NumericFeature", "StringFeature",
  "Compound", "Task", "ErrorReport", "Algorithm", "Model", "Parameter", "Substructure",
  "dataEntry", "compound", "values", "feature", "value", "acceptValue", "hasSource",
  "hasStatus", "percentageCompleted", "resultURI", "errorReport", "statusCode", "errorCode", "message",
  "actor", "errorCause", "smarts", "pValue", "effect", "parameters", "paramValue", "paramScope",
  "Completed", "Running", "Queued", "Error", "Cancelled", "Warnings",
] as const);

export const dc = terms(NS.dc, ["title", "description", "creator", "date", "identifier", "source", "format"] as const);
export const dcterms = terms(NS.dcterms, ["created", "modified", "hasPart", "isPartOf", "title", "description"] as const);
export const rdf = terms(NS.rdf, ["type"] as const);
export const rdfs = terms(NS.rdfs, ["label", "comment", "seeAlso", "isDefinedBy", "Class", "member"] as const);
export const owl = terms(NS.owl, ["sameAs"] as const);

/**
 * The vocabularies that describe the service to generic clients (http/service-description.ts):
 * SPARQL 1.1 Service Description, VoID, and the W3C format IRIs. Not among the prefixes
 * predeclared for queries (NS), which stay as documented.
 */
export const DESCRIBE_NS = {
  sd: "http://www.w3.org/ns/sparql-service-description#",
  void: "http://rdfs.org/ns/void#",
  formats: "http://www.w3.org/ns/formats/",
  entailment: "http://www.w3.org/ns/entailment/",
  foaf: "http://xmlns.com/foaf/0.1/",
} as const;

export const sd = terms(DESCRIBE_NS.sd, [
  "Service", "endpoint", "supportedLanguage", "SPARQL11Query", "resultFormat", "feature", "UnionDefaultGraph",
  "defaultDataset", "Dataset", "defaultGraph", "Graph", "defaultEntailmentRegime",
] as const);
export const voiD = terms(DESCRIBE_NS.void, [
  "Dataset", "DatasetDescription", "sparqlEndpoint", "uriSpace", "vocabulary", "rootResource", "triples", "classPartition", "class", "entities",
] as const);
export const foaf = terms(DESCRIBE_NS.foaf, ["primaryTopic"] as const);

export const xsd = terms(NS.xsd, ["string", "integer", "double", "boolean", "dateTime", "float", "decimal"] as const);

/** Names in the service's own namespace (see ontology/qsargraph.ttl). */
export const QG_NAMES = [
  // datasets
  "line", "warning", "Warning", "warningKind", "column", "count", "structureColumn", "fileName",
  "numberOfCompounds", "numberOfEntries", "numberOfFeatures", "smiles", "inchi", "inchikey", "index",
  "mixedValues",
  // tasks
  "startedAt", "finishedAt", "createdAt", "operation", "queuedAt", "timeLimitSeconds", "deadline",
  // access control
  "createdBy",
  // service
  "Service", "collection", "Collection", "sparqlEndpoint", "ontology", "apiDescription", "version", "member",
  "storeCapacity", "triplesLoaded", "triplesCurrent", "storeRenewals",
  "sparqlWorkers", "sparqlTimeLimitMs", "sparqlWorkerRestarts",
  // errors
  "errorLine", "errorColumn", "errorField",
  // algorithms and computed features
  "algorithm", "paramType", "allowedValue", "support", "classCount", "statistic", "minFrequency",
  "pcType", "lib", "valueName",
  // models and predictions
  "predictionAlgorithm", "predicts", "minSim", "minTrainPerformance", "featureKind", "nrHits", "endpointTitle", "classValue",
  "neighbour", "similarity", "measuredActivity", "measured", "reason", "matchedFeature", "model", "Neighbour", "numberOfNeighbours",
  "pValue", "forClass", "intervalLower", "intervalUpper", "confidenceLevel",
  "nearestSimilarity", "insideDomain", "domainThreshold", "domainNote",
  // validation
  "CrossValidation", "algorithmParams", "numFolds", "randomSeed", "stratified", "runtimeMs", "prediction", "fold",
  "predictedValue", "confidence", "Report", "validation", "rank",
  "truthPValue", "coverageOrder", "coveragePoint", "coverage", "actualCoverage", "confidenceThreshold", "intervalWidthThreshold",
  "calibrationPoint", "significance", "numErrors", "errorRate", "meanSetSize", "singleClassRate", "emptySetRate",
  "conformalInstances", "meanIntervalWidth", "intervalErrorRate",
] as const;
export type QgName = (typeof QG_NAMES)[number];

const QG = terms(QG_NS, QG_NAMES);

/** The vocabulary with the service's base URL (the resources' IRIs; the `qg:` terms do not depend on it). */
export class Vocab {
  readonly base: string;
  readonly qgNs: string = QG_NS;
  readonly qg: Terms<QgName> = QG;

  constructor(base: string) {
    this.base = base.replace(/\/+$/, "");
  }

  /** Prefixes used when writing Turtle and compacting JSON-LD. */
  prefixes(): Record<string, string> {
    return { ...NS, qg: this.qgNs };
  }
}

export function str(value: string): Literal {
  return literal(value);
}

export function int(value: number): Literal {
  return literal(String(Math.trunc(value)), xsd.integer);
}

export function dbl(value: number): Literal {
  return literal(String(value), xsd.double);
}

export function bool(value: boolean): Literal {
  return literal(value ? "true" : "false", xsd.boolean);
}

/** xsd:dateTime in canonical form (no trailing zeros in the fraction), as Oxigraph writes it back. */
export function dateTime(d: Date): Literal {
  return literal(d.toISOString().replace(/\.?0+Z$/, "Z"), xsd.dateTime);
}

export function iri(value: string): NamedNode {
  return namedNode(value);
}
