/**
 * RFC 4180 CSV reading for dataset uploads: text → header + rows with their file line numbers.
 *
 * Replaces lazar's CSV reading (it deleted every quote character, split lines at any of
 * `, ; TAB`, and failed the whole upload on a row with the wrong number of cells) with a real
 * CSV parser (`csv-parse`):
 * - quoted fields may contain separators, newlines and doubled quotes (`""`);
 * - the separator is detected once from the header record: the one of `,` `;` TAB that occurs
 *   most often outside quotes; ties (including "none") → comma, then semicolon, then tab;
 * - cells are trimmed (the reference files pad cells with spaces, e.g. multicolumn.csv); a quote
 *   after leading spaces still opens a quoted field, a quote inside an unquoted field is a literal;
 * - UTF-8 BOM, CRLF / LF / CR line ends (a CRLF inside a quoted cell becomes LF); lines that are
 *   blank or hold only separators are skipped but still counted, so every row keeps the physical
 *   line number where its record starts;
 * - a header without any separator means a one-column file: every line is one cell (so unquoted
 *   InChIs, which contain commas, stay whole); `delimiter` is then reported as comma;
 * - rows with more or fewer cells than the header are returned as they are (table.ts warns).
 * Errors are `BadRequest` with the line (and 1-based column when known): empty file, binary
 * content, unterminated quote (names the line where the quote opened), text after a closing
 * quote, empty or duplicated header names (all offending 1-based column numbers are named),
 * header without data rows.
 */

import { parse } from "csv-parse/sync";
import { BadRequest } from "../errors.ts";

export type Delimiter = "," | ";" | "\t";

export interface CsvRow {
  /** 1-based physical line where the record starts (line 1 is normally the header). */
  readonly line: number;
  readonly cells: readonly string[];
}

export interface CsvTable {
  readonly delimiter: Delimiter;
  readonly header: readonly string[];
  readonly rows: readonly CsvRow[];
}

interface ParsedRecord {
  readonly record: string[];
  readonly info: { readonly lines: number; readonly empty_lines: number };
}

/** Parse CSV text (already decoded from UTF-8) into trimmed header and rows. */
export function parseCsv(text: string): CsvTable {
  const unbommed = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (unbommed.trim() === "") throw new BadRequest("the file is empty", { line: 1 });
  // CRLF → LF keeps physical line numbers (csv-parse counts a CRLF inside quotes as two lines)
  // and gives cells with embedded line breaks one form.
  const body = unbommed.includes("\r\n") ? unbommed.replace(/\r\n/g, "\n") : unbommed;
  checkText(body);
  const counts = countSeparators(body);
  const delimiter = pickDelimiter(counts);
  // A one-column header means one cell per line: unquoted InChIs keep their commas.
  const oneColumn = counts.comma + counts.semicolon + counts.tab === 0;

  let records: ParsedRecord[];
  try {
    records = parse(body, {
      delimiter: oneColumn ? "\u0000" : delimiter,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      trim: true,
      bom: true,
      skip_empty_lines: true,
    }) as unknown as ParsedRecord[]; // the typings do not model `info: true`
  } catch (err) {
    throw csvError(err, body, oneColumn ? "\u0000" : delimiter);
  }

  const all: CsvRow[] = [];
  let prevEnd = 0;
  let prevEmpty = 0;
  for (const { record, info } of records) {
    // Start line = line after the previous record + blank lines skipped since then.
    const line = prevEnd + 1 + (info.empty_lines - prevEmpty);
    prevEnd = info.lines;
    prevEmpty = info.empty_lines;
    const cells = record.map((c) => c.trim());
    if (cells.every((c) => c === "")) continue; // blank or separators only
    all.push({ line, cells });
  }

  const first = all[0];
  if (first === undefined) throw new BadRequest("the file is empty", { line: 1 });
  checkHeader(first);
  const rows = all.slice(1);
  if (rows.length === 0) throw new BadRequest("no data rows: the file has a header line only", { line: first.line });
  return { delimiter, header: first.cells, rows };
}

/**
 * The separator of the file, from its first non-blank record: the one of `,` `;` TAB that occurs
 * most often outside quotes. Ties (and a one-column header) → comma, then semicolon, then tab.
 */
export function detectDelimiter(text: string): Delimiter {
  return pickDelimiter(countSeparators(text));
}

export interface SeparatorCounts {
  readonly comma: number;
  readonly semicolon: number;
  readonly tab: number;
}

export function pickDelimiter({ comma, semicolon, tab }: SeparatorCounts): Delimiter {
  if (semicolon > comma && semicolon >= tab) return ";";
  if (tab > comma && tab > semicolon) return "\t";
  return ",";
}

/** Columns of a header with these separator counts (none: a one-column file). */
export function headerColumns(counts: SeparatorCounts): number {
  const d = pickDelimiter(counts);
  if (counts.comma + counts.semicolon + counts.tab === 0) return 1;
  return (d === "," ? counts.comma : d === ";" ? counts.semicolon : counts.tab) + 1;
}

const QUOTE = 34;
const COMMA = 44;
const SEMICOLON = 59;
const TAB = 9;
const SPACE = 32;
const LF = 10;
const CR = 13;

/**
 * Counts the separators outside quotes of the first non-blank record, fed one character code at
 * a time: the characters of a string, or the bytes of UTF-8 (every character that matters is
 * ASCII, and no byte of a multi-byte sequence is), so that a caller can scan a large upload in
 * slices (tabular/shape.ts). A doubled quote inside quotes is a literal quote.
 */
export class HeaderScanner implements SeparatorCounts {
  comma = 0;
  semicolon = 0;
  tab = 0;
  private inQuotes = false;
  /** Inside quotes, the previous code was a quote: it closes the field unless this one is a quote too. */
  private quoteSeen = false;
  private started = false;

  /** Feed one code; true when it is the line break that ends the first non-blank record. */
  feed(c: number): boolean {
    if (this.inQuotes) {
      if (this.quoteSeen) {
        this.quoteSeen = false;
        if (c === QUOTE) return false;
        this.inQuotes = false;
      } else {
        if (c === QUOTE) this.quoteSeen = true;
        return false;
      }
    }
    if (c === QUOTE) this.inQuotes = true;
    else if (c === LF || c === CR) {
      if (this.started) return true;
      this.tab = 0; // a blank line of spaces/tabs before the header does not count
      return false;
    } else if (c === COMMA) this.comma++;
    else if (c === SEMICOLON) this.semicolon++;
    else if (c === TAB) this.tab++;
    if (c !== SPACE && c !== TAB) this.started = true;
    return false;
  }
}

/** Separators outside quotes in the first non-blank record. */
function countSeparators(text: string): SeparatorCounts {
  const scan = new HeaderScanner();
  for (let i = 0; i < text.length; i++) if (scan.feed(text.charCodeAt(i))) break;
  return scan;
}

/** Reject binary content: NUL, other control bytes or U+FFFD (invalid UTF-8) in the first KB (`expected`: the format, for the message). */
export function checkText(text: string, expected = "CSV"): void {
  const head = text.slice(0, 1024);
  const bad = /[\u0000-\u0008\u000e-\u001f\ufffd]/.exec(head);
  if (bad === null) return;
  const line = lineAt(text, bad.index);
  throw new BadRequest(`the file is not text (${expected} expected)`, { line });
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index && i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) line++;
    else if (ch === 13 && text.charCodeAt(i + 1) !== 10) line++;
  }
  return line;
}

function checkHeader(header: CsvRow): void {
  const empty: number[] = [];
  const positions = new Map<string, number[]>();
  header.cells.forEach((name, i) => {
    if (name === "") empty.push(i + 1);
    else positions.set(name, [...(positions.get(name) ?? []), i + 1]);
  });
  if (empty.length > 0) {
    throw new BadRequest(
      `the header has no column name at column${empty.length > 1 ? "s" : ""} ${empty.join(", ")}; every column needs a name`,
      { line: header.line, column: empty[0] ?? 1 },
    );
  }
  const dups = [...positions].filter(([, cols]) => cols.length > 1);
  if (dups.length > 0) {
    const list = dups.map(([name, cols]) => `'${name}' at columns ${cols.join(", ")}`).join("; ");
    throw new BadRequest(`duplicate column names in the header: ${list}; every column needs a distinct name`, {
      line: header.line,
      column: dups[0]?.[1][1] ?? 1,
    });
  }
}

interface CsvParseError {
  readonly code?: string;
  readonly message?: string;
  readonly lines?: number;
  readonly column?: number | string;
}

function csvError(err: unknown, text: string, delimiter: string): BadRequest {
  const e: CsvParseError = typeof err === "object" && err !== null ? (err as CsvParseError) : {};
  const line = typeof e.lines === "number" ? e.lines : undefined;
  const column = typeof e.column === "number" ? e.column + 1 : undefined;
  const at = { ...(line !== undefined ? { line } : {}), ...(column !== undefined ? { column } : {}) };
  switch (e.code) {
    case "CSV_QUOTE_NOT_CLOSED": {
      const open = openQuoteLine(text, delimiter);
      return new BadRequest(
        `unterminated quoted field: the quote opened at line ${open} is never closed`,
        { line: open },
      );
    }
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
    case "CSV_INVALID_CLOSING_QUOTE":
      return new BadRequest(
        `text after a closing quote at line ${line ?? "?"}${column !== undefined ? `, column ${column}` : ""}; ` +
          `a quoted field must end at a separator (write "" for a quote inside a quoted field)`,
        at,
      );
    default:
      return new BadRequest(`the file could not be read as CSV: ${e.message ?? "unknown error"}`, at);
  }
}

/** Line of the quote that is still open at the end of the text (same rules as the parser). */
function openQuoteLine(text: string, delimiter: string): number {
  let line = 1;
  let openedAt = 1;
  let inQuotes = false;
  let fieldStart = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const newline = ch === "\n" || (ch === "\r" && text[i + 1] !== "\n");
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') i++;
        else inQuotes = false;
      }
    } else if (ch === delimiter || newline) {
      fieldStart = true;
    } else if (fieldStart && ch === '"') {
      inQuotes = true;
      openedAt = line;
      fieldStart = false;
    } else if (ch !== " " && ch !== "\t" && ch !== "\r") {
      fieldStart = false;
    }
    if (newline) line++;
  }
  return openedAt;
}
