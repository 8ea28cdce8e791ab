/**
 * The entries of a large dataset in their order (file line), read without holding the event
 * loop. Sorting them takes one query over every entry: for a 93,000-row dataset, a page of 50
 * rows cost 0.5 s of CPU and all the rows 1.7 s, on a busy machine, each time. Instead the
 * dataset's line numbers are found once by looking up candidate numbers in blocks (each a VALUES
 * lookup of BLOCK numbers, with a pause between blocks) until all its entries are found, and kept (as an
 * Int32Array: 4 bytes an entry) for the next request; a page or step then looks up just its
 * lines.
 */
import { nextTurn } from "../threads/turns.ts";
import * as ox from "oxigraph";
import { NotFound } from "../errors.ts";
import type { GraphStore } from "../store/graph-store.ts";
import { ot, type Vocab } from "../store/vocab.ts";
import { readDatasetInfo, sparqlCsvRows, type EntryRef } from "./dataset-read.ts";

/** Line numbers looked up per step. */
const BLOCK = 2000;
/** Datasets whose order is kept. */
const KEPT = 8;
/** Entries read per step of `inBlocks` (≈ 10–20 ms). */
const COLUMN_BLOCK = 500;


/** Features read per step of `EntryOrder.features` (≈ 10–20 ms each). */
const FEATURES_PER_STEP = 500;

export class EntryOrder {
  private readonly kept = new Map<string, { key: string; lines: Int32Array }>();

  constructor(
    readonly store: GraphStore,
    readonly v: Vocab,
  ) {}

  /** The entries `limit` from `offset` in line order. */
  async refs(uri: string, offset: number, limit: number): Promise<EntryRef[]> {
    return this.refsOn(uri, (await this.lines(uri)).subarray(offset, offset + limit));
  }

  /** The dataset's compounds in the order of their first line (each once), in steps. */
  async *compounds(uri: string): AsyncGenerator<string> {
    const lines = await this.lines(uri);
    const seen = new Set<string>();
    for (let i = 0; i < lines.length; i += BLOCK) {
      if (i > 0) await this.pauseFor(uri);
      for (const r of this.refsOn(uri, lines.subarray(i, i + BLOCK))) {
        if (seen.has(r.compound)) continue;
        seen.add(r.compound);
        yield r.compound;
      }
    }
  }

  /** The line numbers of a dataset's entries, ascending (found once, then kept). */
  async lines(uri: string): Promise<Int32Array> {
    const at = this.store.storedBody(uri);
    const key = `${this.store.graphSize(uri)} ${at?.path}:${at?.offset}`;
    const known = this.kept.get(uri);
    if (known?.key === key) {
      this.kept.delete(uri);
      this.kept.set(uri, known);
      return known.lines;
    }
    // Scan until as many entries as the dataset states are found; the largest line (a query over
    // every entry, ~0.15 s for 93,000) is asked only when it states none, or the scan runs far past it.
    const stated = this.store.ox.match(ox.namedNode(uri), ox.namedNode(this.v.qg.numberOfEntries.value), null, ox.namedNode(uri))[0]?.object.value;
    const target = stated === undefined ? Infinity : Number(stated);
    let max = stated === undefined ? this.maxLine(uri) : Infinity;
    const found: number[] = [];
    for (let from = 0; from <= max && found.length < target; from += BLOCK) {
      if (from > 0) await this.pauseFor(uri);
      if (max === Infinity && from > 4 * target + 10_000) max = this.maxLine(uri);
      const numbers = Array.from({ length: Math.min(BLOCK, max + 1 - from) }, (_, k) => from + k).join(" ");
      // (Entries: a warning lists the lines it is about with qg:line too.)
      const rows = sparqlCsvRows(
        this.store.ox.query(`SELECT DISTINCT ?e ?line WHERE { GRAPH <${uri}> { VALUES ?line { ${numbers} } ?e <${this.v.qg.line.value}> ?line ; <${ot.compound.value}> ?c } }`, { results_format: "text/csv" }) as unknown as string,
      );
      for (const [, l] of rows) found.push(Number(l));
    }
    const lines = Int32Array.from(found).sort();
    this.kept.set(uri, { key, lines });
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
    return lines;
  }

  private maxLine(uri: string): number {
    const csv = this.store.ox.query(`SELECT (MAX(?line) AS ?m) WHERE { GRAPH <${uri}> { ?e <${this.v.qg.line.value}> ?line ; <${ot.compound.value}> ?c } }`, { results_format: "text/csv" }) as unknown as string;
    return Number(sparqlCsvRows(csv)[0]?.[0] || -1);
  }

  /** The entries on these lines (a part of `lines(uri)`), in line order. */
  refsOn(uri: string, lines: Int32Array): EntryRef[] {
    if (lines.length === 0) return [];
    // As terms, not SPARQL CSV text: Oxigraph's CSV does not quote an IRI with a comma in it, and
    // a compound's IRI holds its InChI ("…/h2H,1H3").
    const rows = this.store.ox.query(
      `SELECT ?e ?line ?c ?s WHERE { GRAPH <${uri}> { VALUES ?line { ${lines.join(" ")} } ?e <${this.v.qg.line.value}> ?line ; <${ot.compound.value}> ?c . OPTIONAL { ?e <${this.v.qg.smiles.value}> ?s } } }`,
    ) as Map<string, ox.Term>[];
    return rows
      .map((r) => {
        const smiles = r.get("s")?.value;
        return { entry: r.get("e")!.value, line: Number(r.get("line")!.value), compound: r.get("c")!.value, ...(smiles !== undefined ? { smiles } : {}) };
      })
      .sort((a, b) => a.line - b.line || (a.entry < b.entry ? -1 : 1));
  }

  /**
   * The dataset's entries in blocks of COLUMN_BLOCK lines, in line order: `read(lines)` looks up
   * one block (a query naming its lines), with a pause between blocks.
   */
  async inBlocks<T extends { readonly line: number }>(uri: string, read: (lines: string) => T[]): Promise<T[]> {
    const lines = await this.lines(uri);
    const out: T[] = [];
    for (let i = 0; i < lines.length; i += COLUMN_BLOCK) {
      if (i > 0) await this.pauseFor(uri);
      out.push(...read(lines.subarray(i, i + COLUMN_BLOCK).join(" ")).sort((a, b) => a.line - b.line));
    }
    return out;
  }

  /**
   * Every feature of dataset `uri` in its order, read in pages of FEATURES_PER_STEP with a pause
   * between them (a wide dataset has 50,000): `page(offset, count, total)` reads one
   * (dataset-read.ts readFeaturePage for the whole description, readFeatureTitles for less).
   */
  async features<T>(uri: string, page: (offset: number, count: number, total: number) => T[]): Promise<T[]> {
    const total = readDatasetInfo(this.store.ox, uri, this.v).featureCount;
    const out: T[] = [];
    for (let offset = 0; offset < total; offset += FEATURES_PER_STEP) {
      if (offset > 0) await this.pauseFor(uri);
      out.push(...page(offset, FEATURES_PER_STEP, total));
    }
    return out;
  }

  /** Serve the event loop between two steps of reading `uri`; NotFound when it was deleted meanwhile. */
  async pauseFor(uri: string): Promise<void> {
    await nextTurn();
    if (!this.store.has(uri)) throw new NotFound(`${uri} was deleted while it was being read`);
  }
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

/**
 * The value of one feature in every data entry that has one, in line order (one row per value),
 * with each entry's compound: the training data of a miner, a model or a cross-validation. Read
 * in steps of COLUMN_BLOCK entries with a pause between them, on the lines `order` knows: in one
 * piece, Kazius (4,069 rows) held the event loop for 0.5–0.6 s (one query, then one lookup per
 * compound), on a quiet machine.
 */
export async function readColumn(order: EntryOrder, uri: string, feature: string): Promise<ColumnRow[]> {
  const { store, v } = order;
  return order.inBlocks(uri, (lines) =>
    (
      store.ox.query(
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
    }),
  );
}

/** A dataset's compound at its first line, with its SMILES and InChI as its graph gives them. */
export interface OrderedCompound {
  readonly compound: string;
  readonly line: number;
  readonly inchi?: string;
  readonly smiles?: string;
}

/**
 * A dataset's compounds in the order of their first line, each once, with their structures: the
 * compounds to describe or to predict. Read in steps of COLUMN_BLOCK entries, as `readColumn`.
 */
export async function readCompoundsInOrder(order: EntryOrder, uri: string): Promise<OrderedCompound[]> {
  const { store, v } = order;
  const rows = await order.inBlocks(uri, (lines) =>
    (
      store.ox.query(
        `SELECT ?line ?c ?ci ?cs WHERE {
          GRAPH <${uri}> { VALUES ?line { ${lines} } ?e <${v.qg.line.value}> ?line ; <${ot.compound.value}> ?c }
          ${structurePattern(v)}
        }`,
      ) as Map<string, ox.Term>[]
    ).map((r) => {
      const { inchi, compoundSmiles } = structureOf(r);
      return { compound: r.get("c")!.value, line: Number(r.get("line")!.value), ...(inchi !== undefined ? { inchi } : {}), ...(compoundSmiles !== undefined ? { smiles: compoundSmiles } : {}) };
    }),
  );
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.compound) && (seen.add(r.compound), true));
}
