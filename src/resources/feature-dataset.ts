/**
 * Computed feature datasets → N-Triples: the result of an algorithm run over a source dataset
 * (mined substructures now; descriptors and predictions use the same shape). The OpenTox shape
 * in which lazar's services wrote computed features (docs/opentox-api.md "RDF shapes"):
 *
 *   <fd> a ot:Dataset ; dc:title ; dc:date ; ot:hasSource <source dataset> ;
 *        qg:algorithm <algorithm> ; ot:parameters <fd#param-{name}> ; ot:dataEntry <fd#e{line}> .
 *   <fd#param-{name}> a ot:Parameter ; dc:title "{name}" ; ot:paramValue "{value}" .
 *   <fd/feature/{name}> a ot:Feature, ot:NumericFeature, <more types> ; dc:title ; dc:description ;
 *        ot:hasSource <source dataset> ; dc:creator <algorithm> ; qg:index i ;
 *        <feature-specific properties, e.g. ot:smarts, ot:pValue, ot:effect> .
 *
 * One entry per compound of the source (by the line of its first row there, which is also the
 * entry's IRI and order), with the values it has (sparse: absent = no value node).
 * Pure: runs in a worker.
 */
import { DataFactory } from "n3";
import type { Literal, NamedNode, Quad } from "@rdfjs/types";
import { toNTriples } from "../store/ntriples.ts";
import { dateTime, dc, int, iri, ot, rdf, str, Vocab } from "../store/vocab.ts";
import { EntryWriter, type EntryRow } from "./dataset.ts";
import { Uris } from "./uris.ts";

const { quad } = DataFactory;

export interface ComputedFeature {
  /** Name in the feature's URI (`<fd>/feature/{name}`), unique in the dataset. */
  readonly name: string;
  readonly title: string;
  readonly description?: string;
  /** Values are numbers (xsd:double); else strings. */
  readonly numeric: boolean;
  /** Further rdf:types (IRIs), e.g. ot:Substructure. */
  readonly types: readonly string[];
  /** Further properties: predicate IRI → literal or IRI. */
  readonly properties: readonly (readonly [string, Literal | NamedNode])[];
}

export interface FeatureDatasetHeader {
  readonly uri: string;
  readonly base: string;
  readonly title: string;
  readonly created: Date;
  /** The dataset the features were computed from. */
  readonly source: string;
  /** The algorithm that computed them. */
  readonly algorithm: string;
  /** The parameters of the run as given or defaulted, in a stable order. */
  readonly parameters: readonly (readonly [string, string])[];
  readonly features: readonly ComputedFeature[];
  /** Number of entries and of distinct compounds among them. */
  readonly entryCount: number;
  readonly compounds: number;
}

export interface FeatureDatasetSpec extends Omit<FeatureDatasetHeader, "entryCount"> {
  /** Values parallel to `features`. */
  readonly entries: readonly EntryRow[];
}

/** A whole feature dataset: header and entries. */
export function featureDatasetNTriples(spec: FeatureDatasetSpec): Uint8Array {
  const header = featureDatasetHeader({ ...spec, entryCount: spec.entries.length });
  return Buffer.concat([header, new EntryWriter(spec.uri, spec.base, spec.features).rows(spec.entries)]);
}

/** The dataset node, its parameters and features (entries are written apart, e.g. per chunk). */
export function featureDatasetHeader(spec: FeatureDatasetHeader): Uint8Array {
  const v = new Vocab(spec.base);
  const uris = new Uris(spec.base);
  const ds = iri(spec.uri);
  const alg = iri(spec.algorithm);
  const q: Quad[] = [
    quad(ds, rdf.type, ot.Dataset),
    quad(ds, dc.title, str(spec.title)),
    quad(ds, dc.date, dateTime(spec.created)),
    quad(ds, ot.hasSource, iri(spec.source)),
    quad(ds, v.qg.algorithm, alg),
    quad(ds, v.qg.numberOfCompounds, int(spec.compounds)),
    quad(ds, v.qg.numberOfEntries, int(spec.entryCount)),
    quad(ds, v.qg.numberOfFeatures, int(spec.features.length)),
  ];
  for (const [name, value] of spec.parameters) {
    const p = iri(`${spec.uri}#param-${encodeURIComponent(name)}`);
    q.push(quad(ds, ot.parameters, p), quad(p, rdf.type, ot.Parameter), quad(p, dc.title, str(name)), quad(p, ot.paramValue, str(value)));
  }
  spec.features.forEach((f, i) => {
    const fn = iri(uris.feature(spec.uri, f.name));
    q.push(quad(fn, rdf.type, ot.Feature));
    if (f.numeric) q.push(quad(fn, rdf.type, ot.NumericFeature));
    for (const t of f.types) q.push(quad(fn, rdf.type, iri(t)));
    q.push(quad(fn, dc.title, str(f.title)), quad(fn, ot.hasSource, iri(spec.source)), quad(fn, dc.creator, alg), quad(fn, v.qg.index, int(i)));
    if (f.description !== undefined) q.push(quad(fn, dc.description, str(f.description)));
    for (const [p, o] of f.properties) q.push(quad(fn, iri(p), o));
  });
  return new TextEncoder().encode(toNTriples(q));
}
