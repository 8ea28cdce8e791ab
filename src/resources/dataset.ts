/**
 * Dataset resource → quads, in the OpenTox 1.1 shape that OpenTox clients read
 * (docs/opentox-api.md "RDF shapes"):
 *
 *   <ds> a ot:Dataset ; dc:title ; dc:source "file.csv" ; ot:dataEntry <ds#e{line}> ; qg:warning <ds#w{k}> .
 *   <ds#e{line}> a ot:DataEntry ; ot:compound <c> ; qg:line L ; ot:values <ds#e{line}v{j}> .
 *   <ds#e{line}v{j}> ot:feature <f> ; ot:value "v"^^xsd:double|xsd:string .
 *   <ds/feature/{name}> a ot:Feature, ot:NominalFeature?, ot:NumericFeature? ; dc:title ; ot:acceptValue … .
 *   <c> rdfs:label "name" .   (an upload with a name column, tabular/names.ts: the compound's name in this dataset)
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
import type { DatasetContent, DatasetHeader, Entry, FeatureDef, Warning } from "../tabular/table.ts";
import { parseNumber } from "../tabular/typing.ts";
import { nameColumn } from "../tabular/names.ts";
import { concatBodies } from "../store/journal.ts";
import { toNQuads, toNTriples } from "../store/ntriples.ts";
import { dateTime, dc, int, iri, ot, rdf, rdfs, str, Vocab, xsd } from "../store/vocab.ts";
import { Uris } from "./uris.ts";
import { slicer } from "../threads/turns.ts";

const { quad, literal } = DataFactory;

export interface DatasetMeta {
  readonly uri: string;
  readonly fileName: string;
  readonly created: Date;
  readonly base: string;
}

/** The compounds' own graphs as one N-Quads body; compound i is bytes [ends[i-1], ends[i]). */
export interface CompoundGraphs {
  readonly uris: readonly string[];
  readonly nquads: Uint8Array;
  readonly ends: readonly number[];
}

/** Graph bodies as UTF-8 bytes, so that a worker can hand them over without a copy. */
export interface BuiltDataset {
  readonly datasetNTriples: Uint8Array;
  readonly compounds: CompoundGraphs;
}

const XSD_DOUBLE = /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

/** The literal of one cell: a number keeps its lexical form when it is a valid xsd:double. */
function valueLiteral(f: Pick<FeatureDef, "numeric">, raw: string): Quad["object"] {
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

/** Which share of the rows to build: part `index` of `count` (the header triples go with part 0). */
export interface Part {
  readonly index: number;
  readonly count: number;
}

/** The IRIs a data entry's triples use, made once per dataset (or per chunk of rows). */
export class EntryWriter {
  private readonly v: Vocab;
  private readonly uris: Uris;
  private readonly ds: NamedNode;
  readonly featureNodes: readonly NamedNode[];
  /** The feature whose values name the compounds (an upload's name column, tabular/names.ts), or -1. */
  private readonly names: number;

  /** `o.names`: the features are an upload's columns: a name column's values label the compounds. */
  constructor(
    private readonly datasetUri: string,
    base: string,
    private readonly features: readonly Pick<FeatureDef, "name" | "numeric">[],
    o: { readonly names?: boolean } = {},
  ) {
    this.v = new Vocab(base);
    this.uris = new Uris(base);
    this.ds = iri(datasetUri);
    this.featureNodes = features.map((f) => iri(this.uris.feature(datasetUri, f.name)));
    this.names = o.names === true ? nameColumn(features.map((f) => f.name)) : -1;
  }

  compoundUri(e: Pick<Entry, "compound">): string {
    return this.uris.compound(e.compound.inchi);
  }

  /** The triples of one data entry (one CSV row): its link, compound, line and values; and the compound's name, from a name column. */
  add(e: EntryRow, q: Quad[]): void {
    const en = iri(`${this.datasetUri}#e${e.line}`);
    q.push(quad(this.ds, ot.dataEntry, en), quad(en, rdf.type, ot.DataEntry), quad(en, ot.compound, iri(e.compound)), quad(en, this.v.qg.line, int(e.line)));
    const name = this.names >= 0 ? e.values[this.names] : null;
    if (name != null && name !== "") q.push(quad(iri(e.compound), rdfs.label, literal(name)));
    e.values.forEach((raw, j) => {
      if (raw === null) return;
      const vn = iri(`${this.datasetUri}#e${e.line}v${j}`);
      q.push(quad(en, ot.values, vn), quad(vn, ot.feature, this.featureNodes[j]!), quad(vn, ot.value, valueLiteral(this.features[j]!, raw)));
    });
  }

  /** N-Triples of data entries of parsed rows. */
  entries(entries: readonly Entry[]): Uint8Array {
    return this.rows(entries.map((e) => ({ line: e.line, compound: this.compoundUri(e), values: e.values })));
  }

  /** N-Triples of the entries, written in batches (a short-lived quad array keeps the GC cheap). */
  rows(rows: readonly EntryRow[]): Uint8Array {
    const out: Uint8Array[] = [];
    const enc = new TextEncoder();
    for (let i = 0; i < rows.length; i += ENTRY_BATCH) {
      const q: Quad[] = [];
      for (const e of rows.slice(i, i + ENTRY_BATCH)) this.add(e, q);
      out.push(enc.encode(toNTriples(q)));
    }
    return out.length === 1 ? out[0]! : Buffer.concat(out);
  }
}

/**
 * One data entry: the line it stands for (of the CSV file, or of the source dataset for a
 * computed one; also its IRI `#e{line}` and its order), its compound URI and one value per
 * feature (null = none).
 */
export interface EntryRow {
  readonly line: number;
  readonly compound: string;
  readonly values: readonly (string | null)[];
}

/** Entries serialised per batch by EntryWriter.entries. */
const ENTRY_BATCH = 1000;

/**
 * The graphs of a dataset, or of one part of its rows (so that several workers can build a large
 * dataset side by side; concatenating the parts' bodies gives the whole). A compound's own graph
 * is built by the part holding its first row.
 */
export function buildDataset(content: DatasetContent, meta: DatasetMeta, part: Part = { index: 0, count: 1 }): BuiltDataset {
  const v = new Vocab(meta.base);
  const writer = new EntryWriter(meta.uri, meta.base, content.features, { names: true });
  const n = content.entries.length;
  const from = Math.floor((n * part.index) / part.count);
  const to = Math.floor((n * (part.index + 1)) / part.count);
  const seen = new Set<string>();
  const compounds = new Map<string, Entry["compound"]>();
  content.entries.forEach((e, i) => {
    const cUri = writer.compoundUri(e);
    const first = !seen.has(cUri);
    seen.add(cUri);
    if (i >= from && i < to && first) compounds.set(cUri, e.compound);
  });
  const rows = writer.entries(content.entries.slice(from, to));
  return {
    datasetNTriples: part.index === 0 ? Buffer.concat([headerNTriples(content, meta), rows]) : rows,
    compounds: compoundGraphs([...compounds], v),
  };
}

/**
 * `<ds#e{line}> qg:smiles "…"` for the rows whose structure is written differently from the
 * SMILES their compound's graph keeps (that of the compound's first row ever uploaded): other
 * spellings of a compound, and tautomers the standard InChI makes one compound. Algorithms that
 * read the structure as drawn (the miners: fminer's encoding depends on it, e.g. nitro groups)
 * take a row's own spelling from here. On a fresh upload of distinct compounds there are none.
 */
export async function spellingNTriples(datasetUri: string, base: string, rows: Iterable<{ readonly line: number; readonly compound: string; readonly smiles: string | null }>, stored: (compound: string) => string | undefined): Promise<Uint8Array> {
  const v = new Vocab(base);
  const first = new Map<string, string | null>();
  const q: Quad[] = [];
  const pause = slicer();
  for (const r of rows) {
    await pause();
    if (r.smiles === null) continue;
    if (!first.has(r.compound)) first.set(r.compound, stored(r.compound) ?? r.smiles);
    if (first.get(r.compound) !== r.smiles) q.push(quad(iri(`${datasetUri}#e${r.line}`), v.qg.smiles, str(r.smiles)));
  }
  return new TextEncoder().encode(toNTriples(q));
}

/** The dataset node, its features and its warnings, as N-Triples (the rest are the entries). */
export function headerNTriples(content: DatasetHeader, meta: DatasetMeta): Uint8Array {
  const v = new Vocab(meta.base);
  const uris = new Uris(meta.base);
  const q: Quad[] = [];
  const featureNodes = content.features.map((f) => iri(uris.feature(meta.uri, f.name)));
  headerTriples(content, meta, featureNodes, v, (s, p, o) => void q.push(quad(s, p, o)));
  return new TextEncoder().encode(toNTriples(q));
}

/** The dataset node, its features and its warnings. */
function headerTriples(content: DatasetHeader, meta: DatasetMeta, featureNodes: readonly NamedNode[], v: Vocab, add: (s: NamedNode, p: NamedNode, o: Quad["object"]) => void): void {
  const ds = iri(meta.uri);
  add(ds, rdf.type, ot.Dataset);
  add(ds, dc.title, str(content.title));
  add(ds, dc.date, dateTime(meta.created));
  // the file it was read from is a name, not a resource: dc:source (a literal, as on its features),
  // so that ot:hasSource always names a resource (an IRI) wherever it is used
  add(ds, dc.source, str(meta.fileName));
  add(ds, v.qg.fileName, str(meta.fileName));
  add(ds, v.qg.structureColumn, str(content.structureColumn));
  add(ds, v.qg.numberOfCompounds, int(content.compounds));
  add(ds, v.qg.numberOfEntries, int(content.entryCount));
  add(ds, v.qg.numberOfFeatures, int(content.features.length));
  content.features.forEach((f, i) => {
    const fn = featureNodes[i]!;
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
  });
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
}

/** The compounds' graphs as N-Quads, one after the other, with where each ends. */
export function compoundGraphs(list: readonly (readonly [string, Entry["compound"]])[], v: Vocab): CompoundGraphs {
  const texts = list.map(([uri, c]) => toNQuads(compoundQuads(uri, c, v), iri(uri)));
  const ends: number[] = [];
  let end = 0;
  for (const t of texts) ends.push((end += Buffer.byteLength(t, "utf8")));
  return { uris: list.map(([uri]) => uri), nquads: new TextEncoder().encode(texts.join("")), ends };
}

/**
 * The N-Quads of the compounds whose graphs `keep` selects, from the chunks' graphs in order (all
 * of them without a copy), in steps: consecutive kept graphs are one range, copied together.
 */
export async function selectCompounds(list: readonly CompoundGraphs[], keep: (uri: string) => boolean): Promise<{ graphs: string[]; nquads: Uint8Array }> {
  const graphs: string[] = [];
  const parts: Uint8Array[] = [];
  const pause = slicer();
  for (const c of list) {
    let from = -1;
    for (let i = 0; i < c.uris.length; i++) {
      await pause();
      const uri = c.uris[i]!;
      const start = i === 0 ? 0 : c.ends[i - 1]!;
      if (keep(uri)) {
        graphs.push(uri);
        if (from < 0) from = start;
      } else if (from >= 0) {
        parts.push(c.nquads.subarray(from, start));
        from = -1;
      }
    }
    if (from >= 0) parts.push(c.nquads.subarray(from, c.ends[c.uris.length - 1] ?? 0));
  }
  return { graphs, nquads: parts.length === 1 ? parts[0]! : await concatBodies(parts) };
}
