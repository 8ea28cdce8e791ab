/**
 * The shape of an upload from its bytes, cheaply, before any parsing: the number of columns of
 * its header line and the number of data lines after it, counted only up to a limit. The upload
 * limits (resources/upload-limits.ts) are checked with these counts in the POST request itself,
 * so that a file too large for the service is refused before a task exists.
 *
 * - Columns: the separators outside quotes of the first non-blank record, the same rule as the
 *   CSV reader (csv.ts HeaderScanner): its chosen separator's count + 1, or 1 without any.
 * - Rows: the non-empty physical lines after the header. A quoted cell spanning lines, and a line
 *   of spaces or separators only, count here but are no row of the parsed file: the count can only
 *   be too high, never too low (the upload job checks the exact number again).
 * - Line breaks: LF or CRLF; a file whose header line ends in a lone CR is counted by CRs.
 *
 * The bytes are scanned in slices with a pause between them (by default a macrotask turn), so a
 * 200 MiB body does not hold the event loop: the header byte by byte, the lines with
 * `indexOf` (native memchr).
 */
import { headerColumns, HeaderScanner, pickDelimiter, type Delimiter } from "./csv.ts";

export interface CsvShape {
  readonly delimiter: Delimiter;
  /** Columns of the header line. */
  readonly columns: number;
  /** Non-empty lines after the header, counted up to `maxRows + 1` (then the scan stops). */
  readonly rows: number;
  /** False when the count stopped at `maxRows + 1`: the file has more rows than that. */
  readonly complete: boolean;
}

/** Bytes scanned between two pauses. */
export const SLICE_BYTES = 4 * 1024 * 1024;

const LF = 10;
const CR = 13;

export const macrotask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function scanShape(bytes: Uint8Array, maxRows: number, pause: () => Promise<void> = macrotask): Promise<CsvShape> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const scanner = new HeaderScanner();
  let end = -1;
  for (let i = 0, next = SLICE_BYTES; i < buf.length; i++) {
    if (i === next) {
      await pause();
      next += SLICE_BYTES;
    }
    if (scanner.feed(buf[i]!)) {
      end = i;
      break;
    }
  }
  const delimiter = pickDelimiter(scanner);
  const columns = headerColumns(scanner);
  if (end < 0) return { delimiter, columns, rows: 0, complete: true };
  // The line break of the header decides how lines end.
  const crOnly = buf[end] === CR && buf[end + 1] !== LF;
  const brk = crOnly ? CR : LF;
  let pos = buf[end] === CR && !crOnly ? end + 2 : end + 1;
  let rows = 0;
  let next = pos + SLICE_BYTES;
  while (pos < buf.length) {
    const at = buf.indexOf(brk, pos);
    const stop = at < 0 ? buf.length : at;
    const length = stop - pos - (!crOnly && stop > pos && buf[stop - 1] === CR ? 1 : 0);
    if (length > 0 && ++rows > maxRows) return { delimiter, columns, rows, complete: false };
    pos = stop + 1;
    if (pos >= next) {
      await pause();
      next = pos + SLICE_BYTES;
    }
  }
  return { delimiter, columns, rows, complete: true };
}
