/**
 * Dataset resource → quads, in the OpenTox shape (spec lazar.md §1.8; DESIGN §4):
 *
 *   <ds> a ot:Dataset ; dc:title ; ot:hasSource "file.csv" ; ot:dataEntry <ds#e{line}> ; qg:warning <ds#w{k}> .
 *   <ds#e{line}> a ot:DataEntry ; ot:compound <c> ; qg:line L ; ot:values <ds#e{line}v{j}> .
 *   <ds#e{line}v{j}> ot:feature <f> ; ot:value "v"^^xsd:double|xsd:string .
 *   <ds/feature/{name}> a ot:Feature, ot:NominalFeature?, ot:NumericFeature? ; dc:title ; ot:acceptValue … .
 *
 * One data entry per CSV row (duplicate structures keep one entry per row, so values measured
 * together stay together); entries and warnings are hash IRIs of the dataset (no blank nodes, so
 * the graph is identical after a restart). Each compound also gets its own graph
 * (`<compound/InChI…>`: ot:Compound with InChI, InChIKey, SMILES) unless the store has it already.
 *
 * Size matters (Oxigraph inserts ≈10^5 quads/s, and a restart reloads them all), so triples
 * that only restate what the graph already says are left out: value nodes carry no
 * `a ot:FeatureValue` (they are the objects of `ot:values`; the ontology gives the range), and the
 * dataset graph does not repeat `<c> a ot:Compound` (the compound's own graph says it).
 * Pure: runs in a worker; no store or HTTP imports.
 */
import { DataFactory } from "n3";
import type { NamedNode, Quad } from "@rdfjs/types";
import type { DatasetContent, Entry, FeatureDef, Warning } from "../tabular/table.ts";
import { parseNumber } from "../tabular/typing.ts";
import { toNQuads, toNTriples } from "../store/ntriples.ts";
import { dateTime, dc, int, iri, ot, rdf, rdfs, str, Vocab, xsd } from "../store/vocab.ts";
import { Uris } from "./uris.ts";

const { quad, literal } = DataFactory;

export interface DatasetMeta {
  readonly uri: string;
  readonly fileName: string;
  readonly created: Date;
  readonly base: string;
}

export interface BuiltDataset {
  readonly datasetNTriples: string;
  /** Each compound's own graph, as N-Quads (so that many can be put in one operation). */
  readonly compounds: readonly { readonly uri: string; readonly nquads: string }[];
  readonly summary: { readonly entries: number; readonly compounds: number; readonly features: number; readonly warnings: number };
}

const XSD_DOUBLE = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

/** The literal of one cell: a number keeps its lexical form when it is a valid xsd:double. */
function valueLiteral(f: FeatureDef, raw: string): Quad["object"] {
  if (f.numeric) {
    const n = parseNumber(raw);
    if (n !== null) return literal(XSD_DOUBLE.test(raw) ? raw : String(n), xsd.double);
  }
  return literal(raw);
}

/** The triples of a compound's own graph. */
export function compoundQuads(uri: string, c: Entry["compound"], v: Vocab): Quad[] {
  const s = iri(uri);
  const q = [quad(s, rdf.type, ot.Compound), quad(s, v.qg.inchi, str(c.inchi)), quad(s, v.qg.inchikey, str(c.inchikey))];
  if (c.smiles) q.push(quad(s, v.qg.smiles, str(c.smiles)));
  return q;
}

export function featureDescription(f: FeatureDef, fileName: string): string {
  const kind = f.nominal && f.numeric ? "nominal and numeric" : f.nominal ? "nominal" : f.numeric ? "numeric" : "without values";
  const values = f.acceptValues.length > 0 ? `; values ${f.acceptValues.join(", ")}` : "";
  return `Column '${f.name}' of ${fileName} (${kind}${values})`;
}

export function buildDataset(content: DatasetContent, meta: DatasetMeta): BuiltDataset {
  const v = new Vocab(meta.base);
  const uris = new Uris(meta.base);
  const ds = iri(meta.uri);
  const q: Quad[] = [];
  const add = (s: NamedNode, p: NamedNode, o: Quad["object"]): void => void q.push(quad(s, p, o));

  add(ds, rdf.type, ot.Dataset);
  add(ds, dc.title, str(content.title));
  add(ds, dc.date, dateTime(meta.created));
  add(ds, ot.hasSource, str(meta.fileName));
  add(ds, v.qg.fileName, str(meta.fileName));
  add(ds, v.qg.structureColumn, str(content.structureColumn));
  add(ds, v.qg.numberOfCompounds, int(content.compounds));
  add(ds, v.qg.numberOfEntries, int(content.entries.length));
  add(ds, v.qg.numberOfFeatures, int(content.features.length));

  const featureNodes = content.features.map((f, i) => {
    const fn = iri(uris.feature(meta.uri, f.name));
    add(fn, rdf.type, ot.Feature);
    if (f.nominal) add(fn, rdf.type, ot.NominalFeature);
    if (f.numeric) add(fn, rdf.type, ot.NumericFeature);
    add(fn, dc.title, str(f.name));
    add(fn, dc.description, str(featureDescription(f, meta.fileName)));
    add(fn, ot.hasSource, ds);
    add(fn, dc.source, str(meta.fileName));
    add(fn, v.qg.column, int(f.column + 1));
    add(fn, v.qg.index, int(i));
    for (const a of f.acceptValues) add(fn, ot.acceptValue, str(a));
    return fn;
  });

  const compounds = new Map<string, Entry["compound"]>();
  for (const e of content.entries) {
    const cUri = uris.compound(e.compound.inchi);
    if (!compounds.has(cUri)) compounds.set(cUri, e.compound);
    const en = iri(`${meta.uri}#e${e.line}`);
    add(ds, ot.dataEntry, en);
    add(en, rdf.type, ot.DataEntry);
    add(en, ot.compound, iri(cUri));
    add(en, v.qg.line, int(e.line));
    e.values.forEach((raw, j) => {
      if (raw === null) return;
      const f = content.features[j]!;
      const vn = iri(`${meta.uri}#e${e.line}v${j}`);
      add(en, ot.values, vn);
      add(vn, ot.feature, featureNodes[j]!);
      add(vn, ot.value, valueLiteral(f, raw));
    });
  }

  content.warnings.forEach((w: Warning, k) => {
    const wn = iri(`${meta.uri}#w${k + 1}`);
    add(ds, v.qg.warning, wn);
    add(wn, rdf.type, v.qg.Warning);
    add(wn, v.qg.warningKind, str(w.kind));
    add(wn, rdfs.comment, str(w.message));
    for (const l of w.lines) add(wn, v.qg.line, int(l));
    if (w.column !== undefined) add(wn, v.qg.column, str(w.column));
    if (w.count !== undefined) add(wn, v.qg.count, int(w.count));
  });

  return {
    datasetNTriples: toNTriples(q),
    compounds: [...compounds].map(([uri, c]) => ({ uri, nquads: toNQuads(compoundQuads(uri, c, v), iri(uri)) })),
    summary: { entries: content.entries.length, compounds: compounds.size, features: content.features.length, warnings: content.warnings.length },
  };
}
