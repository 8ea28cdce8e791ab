/**
 * The shape of an upload from its bytes, cheaply, before any parsing: the columns of its header
 * line, the data lines after it and the non-empty cells on them, each counted only up to a limit
 * (an SD file's records, tags and values: `scanSdShape` below).
 * The upload limits (resources/upload-limits.ts) are checked with these counts in the POST request
 * itself, so that a file too large for the service is refused before a task exists.
 *
 * - Columns: the separators outside quotes of the first non-blank record, the same rule as the
 *   CSV reader (csv.ts HeaderScanner): its chosen separator's count + 1, or 1 without any.
 * - Rows: the non-empty physical lines after the header.
 * - Values: the cells of those lines that are not empty or blank, less one per line (its
 *   structure cell); cells are split at every separator, quoted or not.
 * The counts can only be too high, never too low: a quoted cell spanning lines counts as several
 * rows, a line of separators only counts as a row, a quoted separator splits a cell in two, and
 * `NA` counts as a value. The upload job checks the exact numbers again.
 * Line breaks: LF or CRLF; a file whose header line ends in a lone CR is counted by CRs.
 *
 * The bytes are scanned in slices of at most 4 MiB and 20 ms with a pause between them (by
 * default a macrotask turn), so a 200 MiB body does not hold the event loop: the header byte by
 * byte, the rest with `indexOf` (native) for each line break and separator, stopping as soon as a
 * count passes its limit.
 */
import { setImmediate } from "node:timers/promises";
import { headerColumns, HeaderScanner, pickDelimiter, type Delimiter } from "./csv.ts";

export interface CsvShape {
  readonly delimiter: Delimiter;
  /** Columns of the header line. */
  readonly columns: number;
  /** Non-empty lines after the header. */
  readonly rows: number;
  /** Non-empty cells of those lines less one per line (the structure cell). */
  readonly values: number;
  /** The count that passed its limit and stopped the scan (the counts are then partial), or null. */
  readonly stopped: "columns" | "rows" | "values" | null;
}

export interface ShapeLimits {
  /** Stop reading the header once its columns pass this. */
  readonly maxColumns?: number;
  /** Stop once the rows pass this. */
  readonly maxRows: number;
  /** Stop once the values pass this. */
  readonly maxValues: number;
}

/** Bytes scanned between two pauses at most. */
export const SLICE_BYTES = 4 * 1024 * 1024;
/** Milliseconds of scanning between two pauses at most (checked every few hundred lines). */
const SLICE_MS = 20;

const LF = 10;
const CR = 13;
const SPACE = 32;
/** Longer cells are not checked for being blank (they count as values). */
const BLANK_CHECK = 64;
const TAB = 9;


export async function scanShape(bytes: Uint8Array, limits: ShapeLimits, pause: () => Promise<unknown> = setImmediate): Promise<CsvShape> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const scanner = new HeaderScanner();
  let end = -1;
  let since = performance.now();
  for (let i = 0, next = SLICE_BYTES; i < buf.length; i++) {
    if (i === next || (i % 65536 === 0 && performance.now() - since > SLICE_MS)) {
      await pause();
      next = i + SLICE_BYTES;
      since = performance.now();
    }
    if (scanner.feed(buf[i]!)) {
      end = i;
      break;
    }
    // The chosen separator is the most frequent: past the limit, more header cannot bring it back.
    if (limits.maxColumns !== undefined && Math.max(scanner.comma, scanner.semicolon, scanner.tab) >= limits.maxColumns) {
      return { delimiter: pickDelimiter(scanner), columns: headerColumns(scanner), rows: 0, values: 0, stopped: "columns" };
    }
  }
  const delimiter = pickDelimiter(scanner);
  const columns = headerColumns(scanner);
  if (end < 0) return { delimiter, columns, rows: 0, values: 0, stopped: null };
  // The line break of the header decides how lines end.
  const crOnly = buf[end] === CR && buf[end + 1] !== LF;
  const brk = crOnly ? CR : LF;
  // A one-column file has no separator: its cells may hold commas (InChIs).
  const sep = columns === 1 ? -1 : delimiter.charCodeAt(0);
  /** A cell [from, to) with something other than spaces and tabs (a long cell counts as filled). */
  const filled = (from: number, to: number): boolean => {
    if (to - from > BLANK_CHECK) return true;
    for (let k = from; k < to; k++) if (buf[k] !== SPACE && buf[k] !== TAB) return true;
    return false;
  };
  let pos = buf[end] === CR && !crOnly ? end + 2 : end + 1;
  // The next separator at or after a position (searched once per separator, not once per line:
  // a line without separators must not search the rest of the file each time).
  let nextSep = -1;
  const separatorFrom = (from: number): number => {
    if (nextSep !== Infinity && nextSep < from) {
      const s = buf.indexOf(sep, from);
      nextSep = s < 0 ? Infinity : s;
    }
    return nextSep;
  };
  let rows = 0;
  let values = 0;
  let next = pos + SLICE_BYTES;
  while (pos < buf.length) {
    const at = buf.indexOf(brk, pos);
    const stop0 = at < 0 ? buf.length : at;
    const stop = !crOnly && stop0 > pos && buf[stop0 - 1] === CR ? stop0 - 1 : stop0;
    if (stop > pos) {
      rows++;
      let cells = 0;
      if (sep < 0) cells = filled(pos, stop) ? 1 : 0;
      else {
        for (let from = pos; ; ) {
          const to = Math.min(separatorFrom(from), stop);
          if (filled(from, to)) cells++;
          if (to === stop) break;
          from = to + 1;
        }
      }
      values += Math.max(0, cells - 1);
      if (rows > limits.maxRows) return { delimiter, columns, rows, values, stopped: "rows" };
      if (values > limits.maxValues) return { delimiter, columns, rows, values, stopped: "values" };
    }
    pos = stop0 + 1;
    if (pos >= next || (rows % 256 === 0 && performance.now() - since > SLICE_MS)) {
      await pause();
      next = pos + SLICE_BYTES;
      since = performance.now();
    }
  }
  return { delimiter, columns, rows, values, stopped: null };
}

/** An SD file's shape (counted as `scanSdShape` says); `columns` counts the structure column too. */
export interface SdShape {
  /** 1 (the molfile) + the distinct tags named on lines starting with `>`. */
  readonly columns: number;
  /** Records: `$$$$` lines, and one more when a non-empty line follows the last. */
  readonly rows: number;
  /** Data headers followed by a non-empty line that is no record end or data header. */
  readonly values: number;
  readonly stopped: "columns" | "rows" | "values" | null;
}

const DOLLAR = 36;
const GT = 62;
const LT = 60;

/**
 * The shape of an SD file from its bytes, with the rules of the SD reader (sdf.ts) made cheap and
 * never lower: records as `$$$$` lines (plus a last one without), tags as the distinct names in
 * `<…>` on any line starting with `>` (a title line that looks like a data header counts too),
 * values as those header lines followed by a non-empty line. No molblock is read. In slices of
 * at most 4 MiB and 20 ms, as `scanShape`; it stops as soon as a count passes its limit.
 */
export async function scanSdShape(bytes: Uint8Array, limits: ShapeLimits, pause: () => Promise<unknown> = setImmediate): Promise<SdShape> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The first line break decides how lines end (a lone CR: old Mac files).
  const lf = buf.indexOf(LF);
  const cr = buf.indexOf(CR);
  const crOnly = cr >= 0 && (lf < 0 || cr < lf) && buf[cr + 1] !== LF;
  const brk = crOnly ? CR : LF;
  const tags = new Set<string>();
  let rows = 0;
  let values = 0;
  /** A non-empty line since the last `$$$$`. */
  let content = false;
  /** The line before was a data header. */
  let afterHeader = false;
  let since = performance.now();
  let next = SLICE_BYTES;
  let lines = 0;
  const result = (stopped: SdShape["stopped"]): SdShape => ({ columns: tags.size + 1, rows: rows + (content && stopped === null ? 1 : 0), values, stopped });
  for (let pos = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0; pos < buf.length; ) {
    const at = buf.indexOf(brk, pos);
    const stop0 = at < 0 ? buf.length : at;
    const stop = !crOnly && stop0 > pos && buf[stop0 - 1] === CR ? stop0 - 1 : stop0;
    const wasHeader = afterHeader;
    afterHeader = false;
    if (stop > pos) {
      const c = buf[pos]!;
      let end = false;
      if (c === DOLLAR && stop - pos >= 4 && buf[pos + 1] === DOLLAR && buf[pos + 2] === DOLLAR && buf[pos + 3] === DOLLAR) {
        end = true;
        for (let k = pos + 4; k < stop && end; k++) end = buf[k] === SPACE || buf[k] === TAB;
      }
      let header = false;
      if (c === GT) {
        // Searched within the line only (a line without `<` must not search the rest of the file).
        const line = buf.subarray(pos, stop);
        const open = line.indexOf(LT);
        const close = open >= 0 ? line.indexOf(GT, open + 1) : -1;
        if (close >= 0) {
          header = true;
          const name = line.toString("utf8", open + 1, close).trim();
          if (name !== "") {
            tags.add(name);
            if (limits.maxColumns !== undefined && tags.size + 1 > limits.maxColumns) return result("columns");
          }
        }
      }
      if (end) {
        rows++;
        content = false;
        if (rows > limits.maxRows) return result("rows");
      } else {
        content = true;
        if (header) afterHeader = true;
        else if (wasHeader && ++values > limits.maxValues) return result("values");
      }
    }
    pos = stop0 + 1;
    if (pos >= next || (++lines % 256 === 0 && performance.now() - since > SLICE_MS)) {
      await pause();
      next = pos + SLICE_BYTES;
      since = performance.now();
    }
  }
  if (content && rows + 1 > limits.maxRows) return { columns: tags.size + 1, rows: rows + 1, values, stopped: "rows" };
  return result(null);
}
