/**
 * Worker-side jobs of an upload (orchestrated by algorithms/upload/operation.ts): parse the CSV and
 * find the structure column, or read the SD file's records (its molblocks are the structure
 * cells); turn structure cells into standard InChIs with RDKit (in chunks, on every worker);
 * assemble the typed dataset and its N-Triples.
 */
import { loadRDKit } from "../../chem/rdkit.ts";
import { parseMolfile, parseStructure, type StructureResult } from "../../chem/structure.ts";
import { parseCsv } from "../../tabular/csv.ts";
import type { UploadFormat } from "../../tabular/format.ts";
import { parseSdf, sdTable } from "../../tabular/sdf.ts";
import { assembleDataset, prepareTable, summarise, type Entry, type FeatureDef, type PreparedTable, type TableSummary } from "../../tabular/table.ts";
import { buildDataset, compoundGraphs, EntryWriter, headerNTriples, type BuiltDataset, type CompoundGraphs, type DatasetMeta, type Part } from "../../resources/dataset.ts";
import { checkUploadLimits, type UploadLimits } from "../../resources/upload-limits.ts";
import { Vocab } from "../../store/vocab.ts";
import type { JobContext } from "../../tasks/job.ts";

/**
 * The file as a prepared table. An SD file's record and tag counts are checked against `limits`
 * before its table is made (a table of records × tags cells; sdf.ts bounds it too).
 */
function prepare(bytes: Uint8Array, format: UploadFormat, limits?: UploadLimits): PreparedTable {
  const text = new TextDecoder("utf-8").decode(bytes);
  if (format === "csv") return prepareTable(parseCsv(text));
  const sd = parseSdf(text);
  if (limits) checkUploadLimits({ rows: sd.records.length, columns: sd.tags.length + 1, values: 0, structures: 0 }, { ...limits, triples: Infinity }, { records: true });
  return prepareTable(sdTable(sd), sd);
}

/** Distinct structure cells per chunk job: small enough to balance the workers and report progress. */
export const CHUNK = 250;

/** What the data entries' triples need to know of a feature. */
export type EntryFeature = Pick<FeatureDef, "name" | "column" | "numeric">;

/**
 * A chunk's structure cells: a CSV's SMILES and InChIs as text; an SD file's molblocks as UTF-8,
 * one after another, with the byte offset where each ends. The molblocks are most of an SD file:
 * as bytes (one buffer per chunk, moved, not copied, from the worker that read the file) they
 * never become strings on the main thread, which only passes them on to the chunk jobs (cloning
 * 200 MB of molblock strings into the main thread held it for ≈ 0.4 s, measured with
 * v8.deserialize).
 */
export type ChunkCells = { readonly text: readonly string[] } | { readonly molblocks: Uint8Array; readonly ends: Uint32Array };

/** The number of cells of a chunk. */
export function cellCount(cells: ChunkCells): number {
  return "text" in cells ? cells.text.length : cells.ends.length;
}

function chunkCells(structures: readonly string[], molfile: boolean): ChunkCells[] {
  const out: ChunkCells[] = [];
  for (let i = 0; i < structures.length; i += CHUNK) {
    const cells = structures.slice(i, i + CHUNK);
    if (!molfile) {
      out.push({ text: cells });
      continue;
    }
    const encoded = cells.map((c) => Buffer.from(c, "utf8"));
    const molblocks = new Uint8Array(encoded.reduce((n, b) => n + b.length, 0));
    const ends = new Uint32Array(cells.length);
    let at = 0;
    encoded.forEach((b, k) => {
      molblocks.set(b, at);
      ends[k] = at += b.length;
    });
    out.push({ molblocks, ends });
  }
  return out;
}

/** The cells of a chunk as strings. */
export function cellTexts(cells: ChunkCells): readonly string[] {
  if ("text" in cells) return cells.text;
  const decoder = new TextDecoder("utf-8");
  const out: string[] = [];
  let from = 0;
  for (const end of cells.ends) {
    out.push(decoder.decode(cells.molblocks.subarray(from, end)));
    from = end;
  }
  return out;
}

export interface PreparedUpload {
  /** Distinct structure cells (SMILES or InChI; an SD file's molblocks), in order of first appearance. */
  readonly count: number;
  /** Per chunk, its cells: chunk k holds the distinct cells [k·CHUNK, (k+1)·CHUNK). */
  readonly cells: readonly ChunkCells[];
  /**
   * Per chunk, its rows as JSON `[line, structure index within the chunk, value…][]` (a row goes
   * with the chunk of its structure cell; one value per feature): one string per chunk clones
   * cheaply between threads.
   */
  readonly rows: readonly string[];
  /**
   * The table typed over every row with a structure cell. The final typing counts only the rows
   * whose structure parses; when some do not, the header job types again, and if the skipped
   * rows decided a column's type the upload builds the entries again.
   */
  readonly summary: TableSummary;
}

/** Parse the file: its distinct structure cells, its rows per chunk and the provisional features (the table itself stays here: the header job parses the file again rather than cloning the table through the main thread). */
export function prepareUpload(input: { readonly bytes: Uint8Array; readonly format: UploadFormat; readonly limits?: UploadLimits }): PreparedUpload {
  const prepared = prepare(input.bytes, input.format, input.limits);
  const counts = { rows: prepared.dataRows, columns: prepared.header.length, structures: prepared.structures.length };
  const records = input.format === "sdf";
  // The upload's limits with the real counts, before any structure is parsed: rows and columns
  // first (summarising costs rows × columns), then the triples from the values present.
  if (input.limits) checkUploadLimits({ ...counts, values: 0, structures: 0 }, { ...input.limits, triples: Infinity }, { records });
  const { summary, keep, values } = summarise(prepared);
  if (input.limits) {
    let present = 0;
    for (const row of values) for (const k of keep) if (row[k] !== null) present++;
    checkUploadLimits({ ...counts, values: present }, input.limits, { records });
  }
  const chunks: unknown[][][] = Array.from({ length: Math.ceil(prepared.structures.length / CHUNK) }, () => []);
  values.forEach((v, r) => {
    const i = summary.structureOf[r]!;
    chunks[Math.floor(i / CHUNK)]!.push([summary.lines[r]!, i % CHUNK, ...keep.map((k) => v[k] ?? null)]);
  });
  return { count: prepared.structures.length, cells: chunkCells(prepared.structures, records), rows: chunks.map((c) => JSON.stringify(c)), summary };
}

export interface ChunkInput {
  /** PreparedUpload.cells of this chunk (molblocks are read as molfiles). */
  readonly cells: ChunkCells;
  /** This chunk's rows (PreparedUpload.rows). */
  readonly rows: string;
  readonly features: readonly EntryFeature[];
  readonly datasetUri: string;
  readonly base: string;
}

export interface ChunkOutput {
  readonly results: StructureResult[];
  /** N-Triples of the data entries of the chunk's rows whose structure parsed. */
  readonly entries: Uint8Array;
  /** The graphs of the chunk's compounds (each once, in order of first appearance). */
  readonly compounds: CompoundGraphs;
}

/** Parse a chunk of structure cells and write the data entries of their rows. */
export async function parseChunk(input: ChunkInput, ctx: JobContext): Promise<ChunkOutput> {
  const results = await parseStructures({ cells: cellTexts(input.cells), ...("molblocks" in input.cells ? { molfile: true } : {}) }, ctx);
  const writer = new EntryWriter(input.datasetUri, input.base, input.features, { names: true });
  const entries: Entry[] = [];
  for (const [line, s, ...values] of JSON.parse(input.rows) as [number, number, ...(string | null)[]][]) {
    const r = results[s]!;
    if (r.ok) entries.push({ line, compound: r.value, values });
  }
  const compounds = new Map<string, Entry["compound"]>();
  for (const r of results) {
    if (!r.ok) continue;
    const uri = writer.compoundUri({ compound: r.value });
    if (!compounds.has(uri)) compounds.set(uri, r.value);
  }
  return { results, entries: writer.entries(entries), compounds: compoundGraphs([...compounds], new Vocab(input.base)) };
}

/** The structure results in the order of the distinct cells (the file's order), by cell. */
function resultsByCell(prepared: PreparedTable, results: readonly StructureResult[]): Map<string, StructureResult> {
  if (results.length !== prepared.structures.length) throw new Error(`${results.length} structure results for ${prepared.structures.length} distinct cells`);
  return new Map(prepared.structures.map((cell, i) => [cell, results[i]!]));
}

export interface HeaderInput {
  readonly bytes: Uint8Array;
  readonly format: UploadFormat;
  /** The results of every distinct structure cell, in order (the chunks' results one after another). */
  readonly results: readonly StructureResult[];
  readonly title: string;
  readonly meta: DatasetMeta;
}

/** The dataset's header triples (dataset node, features, warnings) and its final features. */
export function datasetHeader(input: HeaderInput): { header: Uint8Array; features: EntryFeature[] } {
  const prepared = prepare(input.bytes, input.format);
  const content = assembleDataset(prepared, resultsByCell(prepared, input.results), input.title);
  return { header: headerNTriples(content, input.meta), features: content.features.map(({ name, column, numeric }) => ({ name, column, numeric })) };
}

/**
 * Parse structure cells in order (SMILES or InChIs; molblocks with `molfile`). RDKit is fetched
 * for every cell: when a cell broke the instance (chem/structure.ts drops it), the cells after it
 * are parsed by a fresh one. A cell on which RDKit failed is parsed once more on the fresh
 * instance — the instance may have been broken before it, silently — and reported for its rows
 * only when it fails there too.
 */
export async function parseStructures(input: { readonly cells: readonly string[]; readonly molfile?: boolean }, ctx: JobContext): Promise<StructureResult[]> {
  const parse = input.molfile ? parseMolfile : parseStructure;
  const out: StructureResult[] = [];
  for (let i = 0; i < input.cells.length; i++) {
    const cell = input.cells[i]!;
    const r = parse(await loadRDKit(), cell);
    out.push(r.ok || r.toolkit !== true ? r : parse(await loadRDKit(), cell));
    if (i % 200 === 0) ctx.progress(i / input.cells.length);
  }
  return out;
}

export interface BuildInput {
  readonly bytes: Uint8Array;
  readonly format: UploadFormat;
  /** As HeaderInput.results. */
  readonly results: readonly StructureResult[];
  readonly title: string;
  readonly meta: DatasetMeta;
  readonly part: Part;
}

export function buildDatasetJob(input: BuildInput): BuiltDataset {
  const prepared = prepare(input.bytes, input.format);
  const content = assembleDataset(prepared, resultsByCell(prepared, input.results), input.title);
  return buildDataset(content, input.meta, input.part);
}
