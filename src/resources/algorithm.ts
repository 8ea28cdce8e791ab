/**
 * Algorithm resources (docs/opentox-api.md "Algorithms": `GET /algorithm/{path}` describes the
 * parameters as an `ot:Algorithm`; `POST` runs it). An algorithm is described once, by an
 * `AlgorithmSpec`, which serves both the description and the validation of a request's parameters
 * (resources/params.ts), so the two cannot disagree.
 *
 *   <alg> a ot:Algorithm, <algorithm types> ; dc:title ; dc:description ; ot:parameters <alg#{name}> .
 *   <alg#{name}> a ot:Parameter ; dc:title "{name}" ; dc:description ; ot:paramScope "mandatory"|"optional" ;
 *        ot:paramValue "{default}" ; qg:paramType "{type}" ; qg:allowedValue "{v}" … .
 */
import { DataFactory } from "n3";
import type { Quad } from "@rdfjs/types";
import { DESCRIPTORS } from "../chem/descriptors/index.ts";
import { toNTriples } from "../store/ntriples.ts";
import { dc, dcterms, iri, NS, ot, rdf, str, type Vocab } from "../store/vocab.ts";

const { quad } = DataFactory;

/** What a parameter's value must be. */
export type ParamKind =
  /** URI of a dataset of this service that exists. */
  | { readonly type: "dataset" }
  /** URI of a feature of the dataset given in `dataset_uri`. */
  | { readonly type: "feature" }
  | { readonly type: "boolean" }
  | { readonly type: "integer"; readonly min?: number; readonly max?: number }
  | { readonly type: "number"; readonly min?: number; readonly max?: number }
  | { readonly type: "enum"; readonly values: readonly string[] }
  /** Free text (its meaning checked by the algorithm). */
  | { readonly type: "text" }
  /** A comma-separated subset of `values` (at least one; repeats ignored). */
  | { readonly type: "list"; readonly values: readonly string[] }
  /** Minimum support: an absolute count (`5`), per cent (`2pc`) or per mil (`5pm`) of the compounds. */
  | { readonly type: "frequency" };

export interface ParamSpec {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  /** The value used when the parameter is absent (as a client would write it). */
  readonly default?: string;
  readonly kind: ParamKind;
}

export interface AlgorithmSpec {
  /** Path below `/algorithm/`, e.g. `miner/bbrc`. */
  readonly path: string;
  /** Further paths below `/algorithm/` that answer the same (e.g. OpenTox 1.1 `fminer/bbrc`). */
  readonly aliases: readonly string[];
  readonly title: string;
  readonly description: string;
  /** rdf:types besides ot:Algorithm (IRIs, e.g. of the OpenTox algorithm types ontology). */
  readonly types: readonly string[];
  readonly parameters: readonly ParamSpec[];
}

/** OpenTox algorithm types (http://www.opentox.org/algorithmTypes.owl). */
export const ALGORITHM_TYPES = {
  patternMiningSupervised: `${NS.ota}PatternMiningSupervised`,
  substructure: `${NS.ota}Substructure`,
  descriptorCalculation: `${NS.ota}DescriptorCalculation`,
} as const;

export function kindName(kind: ParamKind): string {
  return kind.type;
}

export function algorithmNTriples(spec: AlgorithmSpec, uri: string, v: Vocab): string {
  const a = iri(uri);
  const q: Quad[] = [quad(a, rdf.type, ot.Algorithm)];
  for (const t of spec.types) q.push(quad(a, rdf.type, iri(t)));
  q.push(quad(a, dc.title, str(spec.title)), quad(a, dc.description, str(spec.description)));
  for (const p of spec.parameters) {
    const pn = iri(`${uri}#${encodeURIComponent(p.name)}`);
    q.push(
      quad(a, ot.parameters, pn),
      quad(pn, rdf.type, ot.Parameter),
      quad(pn, dc.title, str(p.name)),
      quad(pn, dc.description, str(p.description)),
      quad(pn, ot.paramScope, str(p.required ? "mandatory" : "optional")),
      quad(pn, v.qg.paramType, str(kindName(p.kind))),
    );
    if (p.default !== undefined) q.push(quad(pn, ot.paramValue, str(p.default)));
    if (p.kind.type === "enum" || p.kind.type === "list") for (const value of p.kind.values) q.push(quad(pn, v.qg.allowedValue, str(value)));
  }
  return toNTriples(q);
}

/** The IRI of one descriptor's description (`GET /algorithm/pc/{id}`, as lazar served it). */
export function descriptorUri(algorithms: string, id: string): string {
  return `${algorithms}/pc/${encodeURIComponent(id)}`;
}

function descriptorQuads(d: (typeof DESCRIPTORS)[number], algorithms: string, vocab: Vocab): Quad[] {
  const s = iri(descriptorUri(algorithms, d.id));
  const q: Quad[] = [
    quad(s, rdf.type, ot.Algorithm),
    quad(s, rdf.type, iri(ALGORITHM_TYPES.descriptorCalculation)),
    quad(s, dc.title, str(d.title)),
    quad(s, vocab.qg.pcType, str(d.pcType)),
    quad(s, vocab.qg.lib, str(d.lib)),
    quad(s, dcterms.isPartOf, iri(`${algorithms}/pc`)),
  ];
  for (const v of d.values) q.push(quad(s, vocab.qg.valueName, str(v)));
  return q;
}

/**
 * GET /algorithm/pc as RDF: the list describes itself (an ot:Algorithm of the descriptor
 * calculation type, `dcterms:hasPart` each descriptor) and every descriptor with its pc_type, lib
 * and value names.
 */
export function pcListNTriples(algorithms: string, vocab: Vocab): string {
  const self = iri(`${algorithms}/pc`);
  const q: Quad[] = [
    quad(self, rdf.type, ot.Algorithm),
    quad(self, rdf.type, iri(ALGORITHM_TYPES.descriptorCalculation)),
    quad(self, dc.title, str("Physico-chemical descriptors")),
    quad(self, dc.description, str(`The ${DESCRIPTORS.length} physico-chemical descriptors the service computes, each with its pc_type, lib and value names; run them with ${algorithms}/pc/AllDescriptors.`)),
    quad(self, dcterms.hasPart, iri(`${algorithms}/pc/AllDescriptors`)),
  ];
  for (const d of DESCRIPTORS) q.push(quad(self, dcterms.hasPart, iri(descriptorUri(algorithms, d.id))), ...descriptorQuads(d, algorithms, vocab));
  return toNTriples(q);
}

/** GET /algorithm/pc/{id} as RDF: one descriptor; null if there is none of that id. */
export function descriptorNTriples(algorithms: string, id: string, vocab: Vocab): string | null {
  const d = DESCRIPTORS.find((x) => x.id === id);
  return d ? toNTriples(descriptorQuads(d, algorithms, vocab)) : null;
}
