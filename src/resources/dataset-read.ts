/**
 * Reading datasets back from their graphs (for HTML, CSV and uri-list representations).
 * Queries are built from RDF terms of our own IRIs (ids validated by the routes), never from
 * client text.
 */
import { parse as parseCsv } from "csv-parse/sync";
import * as ox from "oxigraph";
import { withTemporaryStore } from "../store/apply.ts";
import { dc, ot, rdf, rdfs, xsd, type Vocab } from "../store/vocab.ts";
import { sortAcceptValues } from "../tabular/typing.ts";
import { substructureFacts, type SubstructureFacts } from "./feature-explain.ts";

export interface FeatureView {
  readonly uri: string;
  readonly title: string;
  readonly types: readonly string[];
  readonly acceptValues: readonly string[];
  readonly description: string;
  readonly source: string;
  readonly index: number;
  /** What a computed feature says of itself (SMARTS, p-value, effect, support, …), as label → value. */
  readonly properties: readonly (readonly [string, string])[];
  /** A mined substructure's stored facts (SMARTS, p-value, statistic, support, effect, class counts). */
  readonly substructure?: SubstructureFacts;
}

export interface WarningView {
  readonly kind: string;
  readonly message: string;
  readonly lines: readonly number[];
  readonly column?: string;
  readonly count?: number;
}

export interface DatasetSummary {
  readonly uri: string;
  readonly title: string;
  readonly fileName: string;
  readonly created: string;
  readonly compounds: number;
  readonly entries: number;
  readonly features: readonly FeatureView[];
  readonly warnings: readonly WarningView[];
  /** For a computed dataset: the dataset it was computed from, the algorithm and its parameters. */
  readonly source?: string;
  readonly algorithm?: string;
  readonly parameters: readonly (readonly [string, string])[];
}

export interface EntryView {
  readonly line: number;
  readonly compound: string;
  /** The row's own SMILES when it spells the compound differently from the compound's graph. */
  readonly smiles?: string;
  /** feature URI → values */
  readonly values: ReadonlyMap<string, readonly string[]>;
}

export interface CompoundView {
  readonly uri: string;
  readonly inchi: string;
  readonly inchikey: string;
  readonly smiles?: string;
}

type Props = Map<string, string[]>;

function props(store: ox.Store, subject: string, graph: string): Props {
  const out: Props = new Map();
  for (const q of store.match(ox.namedNode(subject), null, null, ox.namedNode(graph))) {
    const l = out.get(q.predicate.value) ?? [];
    l.push(q.object.value);
    out.set(q.predicate.value, l);
  }
  return out;
}

/**
 * The given properties of `subject` only (one match each): a dataset's node also links every data
 * entry (`ot:dataEntry`, 93k for MUV), which `props` would read too — on an external store that
 * is pages of remote rows just to find a title.
 */
function someProps(store: ox.Store, subject: string, graph: string, predicates: readonly { readonly value: string }[]): Props {
  const out: Props = new Map();
  const s = ox.namedNode(subject);
  const g = ox.namedNode(graph);
  for (const p of predicates) {
    const values = store.match(s, ox.namedNode(p.value), null, g).map((q) => q.object.value);
    if (values.length > 0) out.set(p.value, values);
  }
  return out;
}

export function readDatasetSummary(store: ox.Store, uri: string, v: Vocab): DatasetSummary {
  const g = ox.namedNode(uri);
  const features = store
    .match(null, ox.namedNode(rdf.type.value), ox.namedNode(ot.Feature.value), g)
    .map((q) => readFeature(store, q.subject.value, uri, v))
    .sort((a, b) => a.index - b.index);
  return { ...readDatasetInfo(store, uri, v), features };
}

function readFeature(store: ox.Store, feature: string, graph: string, v: Vocab): FeatureView {
  const fp = props(store, feature, graph);
  const types = fp.get(rdf.type.value) ?? [];
  const substructure = substructureFacts(fp, v, fp.get(dc.creator.value)?.[0]);
  return {
    uri: feature,
    title: fp.get(dc.title.value)?.[0] ?? "",
    types: types.filter((t) => t !== ot.Feature.value).map((t) => t.replace(/^.*#/, "")).sort(),
    // the graph holds a set of values: show them in the order typing.ts documents
    acceptValues: sortAcceptValues(fp.get(ot.acceptValue.value) ?? [], types.includes(ot.NumericFeature.value)),
    description: fp.get(dc.description.value)?.[0] ?? "",
    source: fp.get(ot.hasSource.value)?.[0] ?? "",
    index: Number(fp.get(v.qg.index.value)?.[0] ?? 0),
    properties: featureProperties(fp, v),
    ...(substructure ? { substructure } : {}),
  };
}

/** A dataset's title (the dataset lists show only that). */
export function readDatasetTitle(store: ox.Store, uri: string): string {
  return store.match(ox.namedNode(uri), ox.namedNode(dc.title.value), null, ox.namedNode(uri))[0]?.object.value ?? "";
}

/** Everything the dataset says of itself but its features, and how many features it has. */
export function readDatasetInfo(store: ox.Store, uri: string, v: Vocab): Omit<DatasetSummary, "features"> & { readonly featureCount: number } {
  const p = someProps(store, uri, uri, [dc.title, v.qg.fileName, dc.date, v.qg.numberOfCompounds, v.qg.numberOfEntries, v.qg.numberOfFeatures, v.qg.warning, ot.parameters, ot.hasSource, v.qg.algorithm]);
  const one = (k: { value: string }): string => p.get(k.value)?.[0] ?? "";
  const warnings = (p.get(v.qg.warning.value) ?? [])
    .map((w) => {
      const wp = props(store, w, uri);
      const column = wp.get(v.qg.column.value)?.[0];
      const count = wp.get(v.qg.count.value)?.[0];
      return {
        order: Number(w.slice(w.lastIndexOf("#w") + 2)),
        kind: wp.get(v.qg.warningKind.value)?.[0] ?? "",
        message: wp.get(rdfs.comment.value)?.[0] ?? "",
        lines: (wp.get(v.qg.line.value) ?? []).map(Number).sort((a, b) => a - b),
        ...(column !== undefined ? { column } : {}),
        ...(count !== undefined ? { count: Number(count) } : {}),
      };
    })
    .sort((a, b) => a.order - b.order)
    .map(({ order: _o, ...w }) => w);
  const parameters = (p.get(ot.parameters.value) ?? [])
    .map((x) => {
      const pp = props(store, x, uri);
      return [pp.get(dc.title.value)?.[0] ?? "", pp.get(ot.paramValue.value)?.[0] ?? ""] as const;
    })
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const source = p.get(ot.hasSource.value)?.[0];
  const algorithm = p.get(v.qg.algorithm.value)?.[0];
  return {
    uri,
    title: one(dc.title),
    fileName: one(v.qg.fileName),
    created: one(dc.date),
    compounds: Number(one(v.qg.numberOfCompounds) || 0),
    entries: Number(one(v.qg.numberOfEntries) || 0),
    featureCount: featureCount(store, uri, Number(one(v.qg.numberOfFeatures) || 0), v),
    warnings,
    ...(source !== undefined && algorithm !== undefined ? { source, algorithm } : {}),
    parameters,
  };
}

/** Above this many features, a page of them is looked up by its index range (readFeaturePage). */
const SORTED_FEATURES = 1000;

/**
 * How many features a dataset has: as it states (qg:numberOfFeatures) when that is more than
 * SORTED_FEATURES and its features are numbered 0…n−1 (counting 50,000 took ~60 ms on a busy
 * machine), else counted (a prediction dataset states 2 but also types its endpoint as a feature).
 */
function featureCount(store: ox.Store, uri: string, stated: number, v: Vocab): number {
  const numbered = (k: number): boolean => store.match(null, ox.namedNode(v.qg.index.value), ox.literal(String(k), ox.namedNode(xsd.integer.value)), ox.namedNode(uri)).length > 0;
  return stated > SORTED_FEATURES && numbered(stated - 1) && !numbered(stated) ? stated : countFeatures(store, uri);
}

function countFeatures(store: ox.Store, uri: string): number {
  const csv = store.query(`SELECT (COUNT(?f) AS ?n) WHERE { GRAPH <${uri}> { ?f a <${ot.Feature.value}> } }`, { results_format: "text/csv" }) as unknown as string;
  return Number(sparqlCsvRows(csv)[0]?.[0] ?? 0);
}

/** One feature of a dataset, or null when the dataset has no such feature. */
export function readFeatureOf(store: ox.Store, uri: string, feature: string, v: Vocab): FeatureView | null {
  if (!store.has(ox.quad(ox.namedNode(feature), ox.namedNode(rdf.type.value), ox.namedNode(ot.Feature.value), ox.namedNode(uri)))) return null;
  return readFeature(store, feature, uri, v);
}

/** A feature's URI and title (for lists and the CSV header). */
export interface FeatureTitle {
  readonly uri: string;
  readonly title: string;
}

/**
 * Features `limit` from `offset` of `total` in their order (qg:index; those without one first),
 * with what each says of itself. Sorting 50,000 features for every page took ~0.5 s on a busy
 * machine, so a page of a dataset with more than SORTED_FEATURES is looked up by its index
 * range: every dataset the service writes numbers its features 0…n−1 (only a prediction
 * dataset, with 3 features, has one without a number, its endpoint). Should the range not give
 * the whole page, the features are sorted after all.
 */
export function readFeaturePage(store: ox.Store, uri: string, v: Vocab, offset: number, limit: number, total: number): FeatureView[] {
  return readFeatureTitles(store, uri, v, offset, limit, total).map((f) => readFeature(store, f.uri, uri, v));
}

/** The URIs and titles of features `limit` from `offset` of `total`, in order (see readFeaturePage). */
export function readFeatureTitles(store: ox.Store, uri: string, v: Vocab, offset: number, limit: number, total: number): FeatureTitle[] {
  const expected = Math.max(0, Math.min(limit, total - offset));
  const [from, to] = [Math.trunc(offset), Math.trunc(offset + limit)];
  const title = `OPTIONAL { ?f <${dc.title.value}> ?t }`;
  // The page's numbers as VALUES: looked up one by one (a FILTER on the range visited all 50,000).
  const numbers = Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k).join(" ");
  const ranged =
    total > SORTED_FEATURES
      ? sparqlCsvRows(store.query(`SELECT ?f ?t ?i WHERE { GRAPH <${uri}> { VALUES ?i { ${numbers} } ?f <${v.qg.index.value}> ?i ; a <${ot.Feature.value}> ${title} } }`, { results_format: "text/csv" }) as unknown as string)
      : [];
  const rows =
    total > SORTED_FEATURES && ranged.length === expected
      ? ranged.sort((a, b) => Number(a[2]) - Number(b[2]) || (a[0]! < b[0]! ? -1 : 1))
      : sparqlCsvRows(
          store.query(`SELECT ?f ?t WHERE { GRAPH <${uri}> { ?f a <${ot.Feature.value}> OPTIONAL { ?f <${v.qg.index.value}> ?i } ${title} } } ORDER BY ?i ?f LIMIT ${Math.trunc(limit)} OFFSET ${from}`, {
            results_format: "text/csv",
          }) as unknown as string,
        );
  return rows.map(([f, t]) => ({ uri: f!, title: t ?? "" }));
}

/** The properties computed features carry, in a fixed order, with short labels. */
function featureProperties(fp: Props, v: Vocab): [string, string][] {
  const out: [string, string][] = [];
  const shown: [string, string][] = [
    ["SMARTS", ot.smarts.value],
    ["p-value", ot.pValue.value],
    ["effect", ot.effect.value],
    ["statistic", v.qg.statistic.value],
    ["support", v.qg.support.value],
    ["class counts", v.qg.classCount.value],
  ];
  for (const [label, p] of shown) {
    const values = fp.get(p);
    if (values) out.push([label, [...values].sort().join(", ")]);
  }
  return out;
}

/** A data entry without its values: its line in the file, its compound and the row's SMILES. */
export interface EntryRef {
  readonly entry: string;
  readonly line: number;
  readonly compound: string;
  /** The row's own SMILES when it spells the compound differently from the compound's graph. */
  readonly smiles?: string;
}

/**
 * Some of a dataset's columns, for reading a block of its table (entries × these features): the
 * features, and the dataset's number of entries and values per entry, which decide from which
 * side the values are looked up.
 */
export interface Columns {
  readonly features: readonly string[];
  readonly totalEntries: number;
  /** Values per entry, on average (the graph's triples / 3 / entries). */
  readonly valuesPerEntry: number;
}

/**
 * The values of some entries of a dataset (feature URI → values), in the entries' order: all of
 * their values, or those of `columns` only. One query, its result as SPARQL CSV text (one lookup
 * per value took minutes for a 10,000-compound descriptor dataset, and result objects cost 3–4×
 * the text: 250 entries × 263 values, 1.4 s against 0.38 s). It starts from the entries (visiting
 * all their values) or, for a few columns of a wide dataset, from the features (visiting their
 * values in every entry), whichever visits fewer: 3 entries × 50,000 features took 5.8 s from
 * the entries and 0.003 s from 100 features, on a busy machine.
 */
export function readEntryValues(store: ox.Store, uri: string, refs: readonly EntryRef[], columns?: Columns): EntryView[] {
  if (refs.length === 0) return [];
  const values = new Map<string, Map<string, string[]>>(refs.map((r) => [r.entry, new Map()]));
  const wanted = columns ? new Set(columns.features) : undefined;
  const pattern = `?e <${ot.values.value}> ?x . ?x <${ot.feature.value}> ?f ; <${ot.value.value}> ?val`;
  // Either way the other side is filtered here: two VALUES blocks, or a FILTER on the other
  // variable, made Oxigraph visit far more (measured).
  const byFeature = columns !== undefined && columns.features.length * columns.totalEntries < refs.length * columns.valuesPerEntry;
  const query = byFeature
    ? `SELECT ?e ?f ?val WHERE { GRAPH <${uri}> { VALUES ?f { ${columns.features.map((f) => `<${f}>`).join(" ")} } ${pattern} } }`
    : `SELECT ?e ?f ?val WHERE { GRAPH <${uri}> { VALUES ?e { ${refs.map((r) => `<${r.entry}>`).join(" ")} } ${pattern} } }`;
  const csv = store.query(query, { results_format: "text/csv" }) as unknown as string;
  for (const [e, f, val] of sparqlCsvRows(csv)) {
    const byF = values.get(e!);
    if (byF === undefined || f === undefined || val === undefined || (wanted && !wanted.has(f))) continue;
    const l = byF.get(f);
    if (l) l.push(val);
    else byF.set(f, [val]);
  }
  return refs.map(({ entry, ...r }) => ({ ...r, values: values.get(entry)! }));
}

/**
 * The rows of a SPARQL CSV result, without its header. The writer quotes a literal only when it
 * holds a comma, a quote or a line break (SPARQL 1.1 CSV results §4.2), so text without any quote
 * character is split on CRLF and commas (Oxigraph does not quote an IRI with a comma in it: only
 * results whose IRIs cannot hold one — entries, features, values — are read this way); anything else goes through csv-parse. Descriptor values
 * never need quotes, and the split is 5× faster than the parser on them (0.67 s of a 1000-compound
 * all-descriptor export).
 */
export function sparqlCsvRows(csv: string): string[][] {
  if (csv.includes('"')) return parseCsv(csv, { from_line: 2 }) as string[][];
  const lines = csv.split("\r\n");
  const out: string[][] = [];
  for (let i = 1; i < lines.length; i++) if (lines[i] !== "") out.push(lines[i]!.split(","));
  return out;
}

/**
 * The value of one feature in every data entry that has one, in line order (one row per value),
 * with the row's own spelling of its structure when it differs from the compound's SMILES.
 */
export function readFeatureColumn(store: ox.Store, uri: string, feature: string, v: Vocab): { line: number; compound: string; value: string; smiles?: string }[] {
  const rows = store.query(
    `SELECT ?line ?c ?val ?s WHERE { GRAPH <${uri}> { ?e <${v.qg.line.value}> ?line ; <${ot.compound.value}> ?c ; <${ot.values.value}> ?x . ?x <${ot.feature.value}> <${feature}> ; <${ot.value.value}> ?val . OPTIONAL { ?e <${v.qg.smiles.value}> ?s } } } ORDER BY ?line`,
  ) as Map<string, ox.Term>[];
  return rows.map((r) => {
    const s = r.get("s")?.value;
    return { line: Number(r.get("line")!.value), compound: r.get("c")!.value, value: r.get("val")!.value, ...(s !== undefined ? { smiles: s } : {}) };
  });
}

/** Unique compounds of a dataset with the line of their first row, in that order. */
export function compoundsWithFirstLine(store: ox.Store, uri: string, v: Vocab): { compound: string; line: number }[] {
  const rows = store.query(
    `SELECT ?c (MIN(?line) AS ?first) WHERE { GRAPH <${uri}> { ?e <${v.qg.line.value}> ?line ; <${ot.compound.value}> ?c } } GROUP BY ?c ORDER BY ?first`,
  ) as Map<string, ox.Term>[];
  return rows.map((r) => ({ compound: r.get("c")!.value, line: Number(r.get("first")!.value) }));
}

export function readCompound(store: ox.Store, uri: string, v: Vocab): CompoundView | null {
  const p = props(store, uri, uri);
  const inchi = p.get(v.qg.inchi.value)?.[0];
  if (!inchi) return null;
  const smiles = p.get(v.qg.smiles.value)?.[0];
  return { uri, inchi, inchikey: p.get(v.qg.inchikey.value)?.[0] ?? "", ...(smiles ? { smiles } : {}) };
}

/** N-Triples of the triples about one subject in a graph (e.g. a feature inside its dataset). */
export function describeInGraph(store: ox.Store, subject: string, graph: string): string {
  const quads = store.match(ox.namedNode(subject), null, null, ox.namedNode(graph)).map((q) => ox.quad(q.subject, q.predicate, q.object));
  return withTemporaryStore((s) => s.dump({ format: "application/n-triples", from_graph_name: ox.defaultGraph() }), quads);
}

/** Numeric values of a dataset's features per compound (the first value per compound and feature). */
export function readFeatureValues(store: ox.Store, uri: string, features: readonly FeatureView[]): Map<string, Float64Array> {
  const column = new Map(features.map((f, j) => [f.uri, j]));
  const out = new Map<string, Float64Array>();
  const rows = store.query(
    `SELECT ?c ?f ?x WHERE { GRAPH <${uri}> { ?e <${ot.compound.value}> ?c ; <${ot.values.value}> ?v . ?v <${ot.feature.value}> ?f ; <${ot.value.value}> ?x } }`,
  ) as Map<string, ox.Term>[];
  for (const r of rows) {
    const j = column.get(r.get("f")!.value);
    const x = Number(r.get("x")!.value);
    if (j === undefined || r.get("x")!.value.trim() === "" || !Number.isFinite(x)) continue;
    const c = r.get("c")!.value;
    let row = out.get(c);
    if (!row) out.set(c, (row = new Float64Array(features.length).fill(NaN)));
    if (Number.isNaN(row[j]!)) row[j] = x;
  }
  return out;
}

/*
 * Entries by their line in the file: the steps of resources/entry-order.ts, each a function of
 * the store that answers one step (one query), read through resources/reads.ts.
 */

/** The number of entries the dataset states (qg:numberOfEntries), if it states one. */
export function statedEntries(store: ox.Store, uri: string, v: Vocab): number | undefined {
  const stated = store.match(ox.namedNode(uri), ox.namedNode(v.qg.numberOfEntries.value), null, ox.namedNode(uri))[0]?.object.value;
  return stated === undefined ? undefined : Number(stated);
}

/** The largest line of an entry (a query over every entry, ~0.15 s for 93,000); -1 without entries. */
export function maxEntryLine(store: ox.Store, uri: string, v: Vocab): number {
  const csv = store.query(`SELECT (MAX(?line) AS ?m) WHERE { GRAPH <${uri}> { ?e <${v.qg.line.value}> ?line ; <${ot.compound.value}> ?c } }`, { results_format: "text/csv" }) as unknown as string;
  return Number(sparqlCsvRows(csv)[0]?.[0] || -1);
}

/** The lines from `from` to `from + count − 1` that hold an entry (a VALUES lookup of those numbers), unordered. */
export function entryLinesIn(store: ox.Store, uri: string, v: Vocab, from: number, count: number): number[] {
  const numbers = Array.from({ length: count }, (_, k) => from + k).join(" ");
  // (Entries: a warning lists the lines it is about with qg:line too.)
  const rows = sparqlCsvRows(
    store.query(`SELECT DISTINCT ?e ?line WHERE { GRAPH <${uri}> { VALUES ?line { ${numbers} } ?e <${v.qg.line.value}> ?line ; <${ot.compound.value}> ?c } }`, { results_format: "text/csv" }) as unknown as string,
  );
  return rows.map(([, l]) => Number(l));
}

/** The entries on these lines, in line order. */
export function entryRefsOn(store: ox.Store, uri: string, v: Vocab, lines: Int32Array | readonly number[]): EntryRef[] {
  if (lines.length === 0) return [];
  // As terms, not SPARQL CSV text: Oxigraph's CSV does not quote an IRI with a comma in it, and
  // a compound's IRI holds its InChI ("…/h2H,1H3").
  const rows = store.query(
    `SELECT ?e ?line ?c ?s WHERE { GRAPH <${uri}> { VALUES ?line { ${lines.join(" ")} } ?e <${v.qg.line.value}> ?line ; <${ot.compound.value}> ?c . OPTIONAL { ?e <${v.qg.smiles.value}> ?s } } }`,
  ) as Map<string, ox.Term>[];
  return rows
    .map((r) => {
      const smiles = r.get("s")?.value;
      return { entry: r.get("e")!.value, line: Number(r.get("line")!.value), compound: r.get("c")!.value, ...(smiles !== undefined ? { smiles } : {}) };
    })
    .sort((a, b) => a.line - b.line || (a.entry < b.entry ? -1 : 1));
}

/**
 * The entries on these lines with their values (all, or those of `columns`: readEntryValues),
 * in line order; with `withCompounds`, also each of their compounds as its graph gives it (null
 * when it is not stored). One step of a table: a page of the HTML, a block of the CSV export or
 * of a model's training data.
 */
export function readEntryTable(
  store: ox.Store,
  uri: string,
  v: Vocab,
  lines: Int32Array | readonly number[],
  columns?: Columns,
  withCompounds = false,
): { entries: EntryView[]; compounds: Map<string, CompoundView | null> } {
  const entries = readEntryValues(store, uri, entryRefsOn(store, uri, v, lines), columns);
  const compounds = new Map<string, CompoundView | null>();
  if (withCompounds) for (const e of entries) if (!compounds.has(e.compound)) compounds.set(e.compound, readCompound(store, e.compound, v));
  return { entries, compounds };
}

/** One value of a feature in a data entry, with the entry's compound as the store knows it. */
export interface ColumnRow {
  readonly line: number;
  readonly compound: string;
  readonly value: string;
  /** The row's own SMILES when it spells the compound differently from the compound's graph. */
  readonly smiles?: string;
  /** The compound's standard InChI and SMILES (absent when the compound's graph is not stored). */
  readonly inchi?: string;
  readonly compoundSmiles?: string;
}

/** The compound's standard InChI and SMILES, from its own graph (absent when it is not stored). */
function structurePattern(v: Vocab): string {
  return `OPTIONAL { GRAPH ?c { ?c <${v.qg.inchi.value}> ?ci . OPTIONAL { ?c <${v.qg.smiles.value}> ?cs } } }`;
}

function structureOf(r: Map<string, ox.Term>): { inchi?: string; compoundSmiles?: string } {
  const ci = r.get("ci")?.value;
  const cs = r.get("cs")?.value;
  return ci === undefined ? {} : { inchi: ci, ...(cs !== undefined ? { compoundSmiles: cs } : {}) };
}

/** The values of one feature in the entries on `lines` (numbers separated by spaces), unordered: one step of entry-order.ts `readColumn`. */
export function readColumnOn(store: ox.Store, uri: string, v: Vocab, feature: string, lines: string): ColumnRow[] {
  return (
    store.query(
      `SELECT ?line ?c ?val ?s ?ci ?cs WHERE {
          GRAPH <${uri}> {
            VALUES ?line { ${lines} }
            ?e <${v.qg.line.value}> ?line ; <${ot.compound.value}> ?c ; <${ot.values.value}> ?x .
            ?x <${ot.feature.value}> <${feature}> ; <${ot.value.value}> ?val .
            OPTIONAL { ?e <${v.qg.smiles.value}> ?s }
          }
          ${structurePattern(v)}
        }`,
    ) as Map<string, ox.Term>[]
  ).map((r): ColumnRow => {
    const s = r.get("s")?.value;
    return { line: Number(r.get("line")!.value), compound: r.get("c")!.value, value: r.get("val")!.value, ...(s !== undefined ? { smiles: s } : {}), ...structureOf(r) };
  });
}

/** A dataset's compound at its first line, with its SMILES and InChI as its graph gives them. */
export interface OrderedCompound {
  readonly compound: string;
  readonly line: number;
  readonly inchi?: string;
  readonly smiles?: string;
}

/** The compounds of the entries on `lines` (numbers separated by spaces) with their structures, unordered: one step of entry-order.ts `readCompoundsInOrder`. */
export function readCompoundsOn(store: ox.Store, uri: string, v: Vocab, lines: string): OrderedCompound[] {
  return (
    store.query(
      `SELECT ?line ?c ?ci ?cs WHERE {
          GRAPH <${uri}> { VALUES ?line { ${lines} } ?e <${v.qg.line.value}> ?line ; <${ot.compound.value}> ?c }
          ${structurePattern(v)}
        }`,
    ) as Map<string, ox.Term>[]
  ).map((r) => {
    const { inchi, compoundSmiles } = structureOf(r);
    return { compound: r.get("c")!.value, line: Number(r.get("line")!.value), ...(inchi !== undefined ? { inchi } : {}), ...(compoundSmiles !== undefined ? { smiles: compoundSmiles } : {}) };
  });
}
