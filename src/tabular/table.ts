/**
 * From a parsed CSV table to dataset content: structure column, compounds, typed features,
 * values per row and the warnings a person needs to check the upload. Pure; no RDF.
 *
 * Follows lazar's upload rules (line 1 is the header, the structure column, every other column a
 * feature, duplicate structures all kept, unreadable structures skipped with a warning) with
 * these changes (the README's "CSV rules" state the result for users):
 * - structure column: a header named `SMILES` or `InChI` (any case) anywhere; else a header whose
 *   last word is one of these (`STRUCTURE_SMILES`, `Canonical SMILES`, `Canonical_Smiles`, …,
 *   /(^|[^a-z])(smiles|inchi)$/i); the first exact match wins, then the first loose one; if none,
 *   the first column (the reference always used the first column);
 * - every other column is a feature (also ID columns, as in the reference), typed by typing.ts;
 *   an all-missing column is dropped with an "empty-column" warning;
 * - missing values: an empty cell or exactly `NA`, `NaN`, `N/A` (case-sensitive); rows are kept;
 * - ragged rows are warnings, not a failed upload: a short row gets empty cells, a long row is
 *   skipped unless its extra cells are all empty (then they are dropped);
 * - a row whose structure cannot be parsed is skipped with a warning; duplicate structures are all
 *   kept (one warning per compound naming all its lines), as lazar kept them;
 * - no usable row at all → BadRequest.
 * An SD file (sdf.ts) comes as the same table: one row per record at its first line, the molblock
 * in the structure column (the first), one column per tag; its messages name records ("record 3
 * (line 45)") and SD tags where a CSV's name lines and columns (`Places`).
 * The work is split so that structure parsing (the slow part) can run in worker threads:
 * `prepareTable` → parse `prepared.structures` (chunks, chem/structure.ts) → `assembleDataset`.
 * All stage data is plain (structured-clone safe).
 */

import type { StructureRecord, StructureResult } from "../chem/structure.ts";
import { BadRequest } from "../errors.ts";
import type { CsvTable } from "./csv.ts";
import { parseNumber, typeColumn } from "./typing.ts";

export type WarningKind =
  | "unparseable-structure"
  | "wrong-cell-count"
  | "duplicate-structure"
  | "missing-values"
  | "mixed-column"
  | "empty-column"
  | "sd-data-item";

export interface Warning {
  readonly kind: WarningKind;
  readonly message: string;
  /** File line numbers (for column-wide warnings at most the first LINES_LIMIT). */
  readonly lines: readonly number[];
  /** Column (header text) the warning is about. */
  readonly column?: string;
  /** Total number of affected cells/rows when `lines` may be truncated. */
  readonly count?: number;
}

export interface FeatureDef {
  /** Trimmed header text. */
  readonly name: string;
  /** 0-based column index in the file. */
  readonly column: number;
  readonly nominal: boolean;
  readonly numeric: boolean;
  /** Empty unless nominal. */
  readonly acceptValues: readonly string[];
}

export interface Entry {
  readonly line: number;
  readonly compound: StructureRecord;
  /** One per feature: the raw trimmed cell, null = missing. */
  readonly values: readonly (string | null)[];
}

/** What a dataset says about itself, apart from its entries. */
export interface DatasetHeader {
  readonly title: string;
  readonly structureColumn: string;
  readonly features: readonly FeatureDef[];
  /** Number of data entries (rows kept). */
  readonly entryCount: number;
  /** Number of unique InChIs. */
  readonly compounds: number;
  readonly warnings: readonly Warning[];
}

export interface DatasetContent extends DatasetHeader {
  readonly entries: readonly Entry[];
}

export interface PreparedRow {
  readonly line: number;
  /** Trimmed structure cell (never empty). */
  readonly structure: string;
  /** All cells of the row, exactly one per header column. */
  readonly cells: readonly string[];
}

export interface PreparedTable {
  readonly header: readonly string[];
  readonly structureIndex: number;
  readonly structureMatchedBy: "header" | "first-column" | "molfile";
  /** An SD file's: the first line of every record, in order (record k at index k − 1); null for a CSV. */
  readonly records: Int32Array | null;
  /** Rows with a structure cell, in file order. */
  readonly rows: readonly PreparedRow[];
  /** Distinct structure cells in order of first appearance: the work for the structure parser. */
  readonly structures: readonly string[];
  /** Row warnings so far (wrong cell count, empty structure cell; an SD file's data items). */
  readonly warnings: readonly Warning[];
  /** Data rows in the file (non-blank lines after the header). */
  readonly dataRows: number;
}

/** Cell texts that mean "no value" (case-sensitive), besides the empty cell. */
export const MISSING_TOKENS: ReadonlySet<string> = new Set(["", "NA", "NaN", "N/A"]);
/** Column-wide warnings list at most this many line numbers (`count` has the total). */
export const LINES_LIMIT = 100;

const LOOSE_STRUCTURE_HEADER = /(^|[^a-z])(smiles|inchi)$/i;

/** Which column holds the structures (see the module comment for the rule). */
export function findStructureColumn(header: readonly string[]): { index: number; matchedBy: "header" | "first-column" } {
  let loose = -1;
  for (let i = 0; i < header.length; i++) {
    const name = (header[i] ?? "").trim();
    const lower = name.toLowerCase();
    if (lower === "smiles" || lower === "inchi") return { index: i, matchedBy: "header" };
    if (loose < 0 && LOOSE_STRUCTURE_HEADER.test(name)) loose = i;
  }
  return loose >= 0 ? { index: loose, matchedBy: "header" } : { index: 0, matchedBy: "first-column" };
}

/** A table to prepare: a CSV's, or an SD file's (sdf.ts sdTable). */
export type SourceTable = Pick<CsvTable, "header" | "rows">;

/**
 * Stage 1: structure column, cell-count checks, distinct structure cells. `sd`: the table is an
 * SD file's (its structure column is the first, its rows are records), with the reader's warnings.
 */
export function prepareTable(table: SourceTable, sd?: { readonly warnings: readonly Warning[] }): PreparedTable {
  const { header } = table;
  const { index, matchedBy } = sd ? { index: 0, matchedBy: "molfile" as const } : findStructureColumn(header);
  const columnName = header[index] ?? "";
  const width = header.length;
  const rows: PreparedRow[] = [];
  const warnings: Warning[] = sd ? [...sd.warnings] : [];
  const records = sd ? Int32Array.from(table.rows, (r) => r.line) : null;
  const places = new Places(records);
  const seen = new Set<string>();
  const structures: string[] = [];

  for (const row of table.rows) {
    let cells = row.cells;
    if (cells.length !== width) {
      const found = `line ${row.line} has ${cells.length} cell${cells.length === 1 ? "" : "s"}, expected ${width}`;
      if (cells.length < width) {
        cells = [...cells, ...new Array<string>(width - cells.length).fill("")];
        warnings.push(cellCount(row.line, `${cap(found)}; the missing cells are treated as empty`));
      } else if (cells.slice(width).every((c) => c === "")) {
        cells = cells.slice(0, width);
        warnings.push(cellCount(row.line, `${cap(found)}; the extra cells are empty and were ignored`));
      } else {
        warnings.push(cellCount(row.line, `${cap(found)}; row skipped`));
        continue;
      }
    }
    const structure = cells[index] ?? "";
    if (structure === "") {
      warnings.push({
        kind: "unparseable-structure",
        message: records ? `${places.row(row.line)} is empty (no molfile); record skipped` : `Line ${row.line}: the structure cell (column '${columnName}') is empty; row skipped`,
        lines: [row.line],
        column: columnName,
      });
      continue;
    }
    if (!seen.has(structure)) {
      seen.add(structure);
      structures.push(structure);
    }
    rows.push({ line: row.line, structure, cells });
  }
  return { header, structureIndex: index, structureMatchedBy: matchedBy, records, rows, structures, warnings, dataRows: table.rows.length };
}

/**
 * How messages name rows and columns: a CSV's lines and columns ("line 5", "lines 4, 6", "column
 * 'X'"), or an SD file's records, each with its first line, and tags ("record 3 (line 45)",
 * "records 2 (line 20), 4 (line 40)", "SD tag 'X'").
 */
export class Places {
  constructor(private readonly records: Int32Array | null) {}

  /** The record number of the record starting at `line` (SD only). */
  private recordAt(line: number): number {
    const r = this.records!;
    let lo = 0;
    let hi = r.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (r[mid]! < line) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  }

  /** "Line 5" / "Record 3 (line 45)", to start a sentence. */
  row(line: number): string {
    return this.records ? `Record ${this.recordAt(line)} (line ${line})` : `Line ${line}`;
  }

  /** "lines 4, 6" / "records 2 (line 20), 4 (line 40)"; the first 10, then "…". */
  rows(lines: readonly number[]): string {
    const shown = lines.slice(0, 10);
    const more = lines.length > 10 ? ", …" : "";
    const s = lines.length === 1 ? "" : "s";
    if (!this.records) return `line${s} ${shown.join(", ")}${more}`;
    return `record${s} ${shown.map((l) => `${this.recordAt(l)} (line ${l})`).join(", ")}${more}`;
  }

  /** "Column 'X'" / "SD tag 'X'", to start a sentence. */
  column(name: string): string {
    return this.records ? `SD tag '${name}'` : `Column '${name}'`;
  }

  /** "row" / "record" */
  get unit(): string {
    return this.records ? "record" : "row";
  }
}

function cellCount(line: number, message: string): Warning {
  return { kind: "wrong-cell-count", message, lines: [line] };
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The cells of a row for the feature columns (`columns`), with missing cells as null. */
export function featureValues(cells: readonly string[], columns: readonly number[]): (string | null)[] {
  return columns.map((c) => {
    const cell = cells[c] ?? "";
    return MISSING_TOKENS.has(cell) ? null : cell;
  });
}

/** The columns other than the structure column, in file order. */
export function featureColumns(prepared: PreparedTable): number[] {
  return prepared.header.map((_, i) => i).filter((i) => i !== prepared.structureIndex);
}

/**
 * Type every feature column over the given rows (their `values` follow `columns`); all-missing
 * columns are dropped (`keep` lists the positions in `columns` that became features).
 */
export function typeFeatures(
  header: readonly string[],
  columns: readonly number[],
  rows: readonly { readonly line: number; readonly values: readonly (string | null)[] }[],
  places: Places = new Places(null),
): { features: FeatureDef[]; keep: number[]; warnings: Warning[] } {
  const features: FeatureDef[] = [];
  const keep: number[] = [];
  const warnings: Warning[] = [];
  columns.forEach((column, k) => {
    const name = header[column] ?? "";
    const cells = rows.map((e) => e.values[k] ?? null);
    const type = typeColumn(cells);
    if (type.empty) {
      warnings.push({ kind: "empty-column", message: `${places.column(name)} has no values; it is ignored`, lines: [], column: name });
      return;
    }
    keep.push(k);
    features.push({ name, column, nominal: type.nominal, numeric: type.numeric, acceptValues: type.nominal ? type.acceptValues : [] });
    const missing = missingWarning(name, cells, rows, places);
    if (missing) warnings.push(missing);
    if (type.mixed) warnings.push(mixedWarning(name, cells, rows, places));
  });
  return { features, keep, warnings };
}

/** Stage 3: entries, typed features and all warnings, from the parsed structures. */
export function assembleDataset(
  prepared: PreparedTable,
  parsed: ReadonlyMap<string, StructureResult>,
  title: string,
): DatasetContent {
  const { header, structureIndex } = prepared;
  const structureColumn = header[structureIndex] ?? "";
  const places = new Places(prepared.records);
  const columns = featureColumns(prepared);
  const rowWarnings: Warning[] = [...prepared.warnings];
  const failures: Warning[] = [];
  const rawEntries: { line: number; compound: StructureRecord; values: (string | null)[] }[] = [];

  for (const row of prepared.rows) {
    const result = parsed.get(row.structure);
    if (result === undefined) throw new Error(`assembleDataset: structure not parsed: ${row.structure}`);
    if (!result.ok) {
      const w: Warning = {
        kind: "unparseable-structure",
        // A cell can be megabytes long (a structure refused for its size): the message quotes its
        // start; a molblock is named by its record and title.
        message: prepared.records
          ? `${places.row(row.line)}${titleOf(row.structure)}: cannot use the molfile: ${result.error}; record skipped`
          : `Line ${row.line}: cannot use structure "${row.structure.length > 100 ? `${row.structure.slice(0, 99)}…` : row.structure}": ${result.error}; row skipped`,
        lines: [row.line],
        column: structureColumn,
      };
      rowWarnings.push(w);
      failures.push(w);
      continue;
    }
    rawEntries.push({ line: row.line, compound: result.value, values: featureValues(row.cells, columns) });
  }

  if (rawEntries.length === 0) throw noUsableRow(prepared, structureColumn, failures, rowWarnings);

  const { features, keep, warnings: columnWarnings } = typeFeatures(header, columns, rawEntries, places);
  const entries: Entry[] = rawEntries.map((e) => ({
    line: e.line,
    compound: e.compound,
    values: keep.length === columns.length ? e.values : keep.map((k) => e.values[k] ?? null),
  }));

  const dup = duplicateWarnings(entries.map((e) => ({ line: e.line, inchi: e.compound.inchi })), structureColumn, places);
  return {
    title,
    structureColumn,
    features,
    entries,
    entryCount: entries.length,
    compounds: dup.compounds,
    warnings: [...byLine(rowWarnings), ...dup.warnings, ...columnWarnings],
  };
}

function byLine(warnings: readonly Warning[]): Warning[] {
  return [...warnings].sort((a, b) => (a.lines[0] ?? 0) - (b.lines[0] ?? 0));
}

/** The title of a molblock (its first line) for a message: ` ('title')`, or nothing when it is blank. */
function titleOf(molblock: string): string {
  const end = molblock.indexOf("\n");
  const title = (end < 0 ? molblock : molblock.slice(0, end)).trim();
  if (title === "") return "";
  return ` ('${title.length > 60 ? `${title.slice(0, 59)}…` : title}')`;
}

/** Duplicates: one warning per compound with several rows; and the number of compounds. */
function duplicateWarnings(entries: readonly { line: number; inchi: string }[], structureColumn: string, places: Places): { warnings: Warning[]; compounds: number } {
  return finish(duplicateWarningSteps(entries, structureColumn, places));
}

/** Entries handled between two steps of a `…Steps` generator (a few ms each). */
const STEP_ENTRIES = 4096;

/**
 * Run a generator of steps to its end (in a worker, or where the input is small); on the main
 * thread a caller pauses between the steps instead (algorithms/upload/operation.ts).
 */
export function finish<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

function* duplicateWarningSteps(entries: readonly { line: number; inchi: string }[], structureColumn: string, places: Places): Generator<void, { warnings: Warning[]; compounds: number }> {
  const byInchi = new Map<string, number[]>();
  let n = 0;
  for (const e of entries) {
    if (++n % STEP_ENTRIES === 0) yield;
    const lines = byInchi.get(e.inchi);
    if (lines) lines.push(e.line);
    else byInchi.set(e.inchi, [e.line]);
  }
  const warnings: Warning[] = [];
  for (const [inchi, lines] of byInchi) {
    if (lines.length < 2) continue;
    warnings.push({
      kind: "duplicate-structure",
      message: `Duplicate structure ${inchi} at ${places.unit === "row" ? `lines ${lines.join(", ")}` : places.rows(lines)} (all ${places.unit}s kept; make sure the measurements are independent)`,
      lines,
      column: structureColumn,
      count: lines.length,
    });
  }
  return { warnings, compounds: byInchi.size };
}

/**
 * A prepared table reduced to what the dataset header needs, typed over every row that has a
 * structure cell. Plain data, cheap to send between threads.
 */
export interface TableSummary {
  readonly structureColumn: string;
  /** PreparedTable.records (an SD file's records), for the messages. */
  readonly records: Int32Array | null;
  /** Warnings of the preparation (wrong cell counts, empty structure cells; an SD file's data items). */
  readonly rowWarnings: readonly Warning[];
  readonly features: readonly FeatureDef[];
  readonly columnWarnings: readonly Warning[];
  /** Per prepared row: its file line, and the index of its structure cell in `structures`. */
  readonly lines: Int32Array;
  readonly structureOf: Int32Array;
}

export function summarise(prepared: PreparedTable): { summary: TableSummary; keep: number[]; values: (string | null)[][] } {
  const columns = featureColumns(prepared);
  const rows = prepared.rows.map((r) => ({ line: r.line, values: featureValues(r.cells, columns) }));
  const { features, keep, warnings } = typeFeatures(prepared.header, columns, rows, new Places(prepared.records));
  const index = new Map(prepared.structures.map((cell, i) => [cell, i]));
  const summary: TableSummary = {
    structureColumn: prepared.header[prepared.structureIndex] ?? "",
    records: prepared.records,
    rowWarnings: prepared.warnings,
    features,
    columnWarnings: warnings,
    lines: Int32Array.from(prepared.rows, (r) => r.line),
    structureOf: Int32Array.from(prepared.rows, (r) => index.get(r.structure)!),
  };
  return { summary, keep, values: rows.map((r) => r.values) };
}

/**
 * The header `assembleDataset` gives when every structure cell parsed (then every row is kept and
 * the typing over all rows is final). Null when some structure failed or there is no row: then
 * only `assembleDataset` knows the answer.
 */
export function headerWhenAllParsed(summary: TableSummary, results: readonly StructureResult[], title: string): DatasetHeader | null {
  return finish(headerWhenAllParsedSteps(summary, results, title));
}

/** `headerWhenAllParsed` in steps of STEP_ENTRIES rows (93,000 rows: 0.1–0.2 s in one piece). */
export function* headerWhenAllParsedSteps(summary: TableSummary, results: readonly StructureResult[], title: string): Generator<void, DatasetHeader | null> {
  if (summary.lines.length === 0) return null;
  const entries: { line: number; inchi: string }[] = [];
  for (let i = 0; i < summary.lines.length; i++) {
    if (i > 0 && i % STEP_ENTRIES === 0) yield;
    const r = results[summary.structureOf[i]!];
    if (r === undefined || !r.ok) return null;
    entries.push({ line: summary.lines[i]!, inchi: r.value.inchi });
  }
  const dup = yield* duplicateWarningSteps(entries, summary.structureColumn, new Places(summary.records));
  return {
    title,
    structureColumn: summary.structureColumn,
    features: summary.features,
    entryCount: entries.length,
    compounds: dup.compounds,
    warnings: [...byLine(summary.rowWarnings), ...dup.warnings, ...summary.columnWarnings],
  };
}

function missingWarning(
  name: string,
  cells: readonly (string | null)[],
  entries: readonly { line: number }[],
  places: Places,
): Warning | null {
  const lines: number[] = [];
  let count = 0;
  cells.forEach((v, i) => {
    if (v !== null) return;
    count++;
    if (lines.length < LINES_LIMIT) lines.push(entries[i]?.line ?? 0);
  });
  if (count === 0) return null;
  return {
    kind: "missing-values",
    message: `${places.column(name)} has ${count} missing value${count === 1 ? "" : "s"} (${places.rows(lines)})`,
    lines,
    column: name,
    count,
  };
}

/** Mixed numbers and text: point at the cells of the rarer kind (usually the typos). */
function mixedWarning(
  name: string,
  cells: readonly (string | null)[],
  entries: readonly { line: number }[],
  places: Places,
): Warning {
  let numbers = 0;
  let texts = 0;
  for (const v of cells) {
    if (v === null) continue;
    if (parseNumber(v) === null) texts++;
    else numbers++;
  }
  const wantText = texts <= numbers;
  const lines: number[] = [];
  const examples = new Set<string>();
  cells.forEach((v, i) => {
    if (v === null || (parseNumber(v) === null) !== wantText) return;
    if (lines.length < LINES_LIMIT) lines.push(entries[i]?.line ?? 0);
    if (examples.size < 3) examples.add(v);
  });
  const count = wantText ? texts : numbers;
  const kind = wantText ? "text" : "numbers";
  return {
    kind: "mixed-column",
    message:
      `${places.column(name)} mixes numbers and text: ${count} of ${numbers + texts} values are ${kind} ` +
      `(${[...examples].join(", ")} at ${places.rows(lines)}); the ${places.unit === "row" ? "column" : "tag"} is treated as nominal`,
    lines,
    column: name,
    count,
  };
}

function noUsableRow(prepared: PreparedTable, column: string, failures: readonly Warning[], all: readonly Warning[]): BadRequest {
  const useFailures = failures.length > 0;
  const causes = (useFailures ? failures : all).slice(0, 5).map(
    (w) =>
      new BadRequest(w.message, {
        ...(w.lines[0] !== undefined ? { line: w.lines[0] } : {}),
        ...(useFailures ? { column: prepared.structureIndex + 1 } : {}),
      }),
  );
  const tried = prepared.rows.length + prepared.warnings.filter((w) => w.kind === "unparseable-structure").length;
  const message = prepared.records
    ? `no usable record: none of the ${tried} records has a molfile that could be read`
    : tried > 0
      ? `no usable row: none of the ${tried} structures in column '${column}' could be parsed`
      : `no usable row: all ${prepared.dataRows} data rows were skipped`;
  return new BadRequest(message, { column: prepared.structureIndex + 1, causes });
}
