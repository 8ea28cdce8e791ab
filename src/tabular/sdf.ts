/**
 * SD file reading for dataset uploads (MDL CTfile format, "SDfile"): text → records, each a
 * molblock and its data items, and then the same table the CSV reader gives (table.ts takes it
 * from there: one row per record, the molblock in the structure column, one column per SD tag).
 *
 * The rules (README "SDF rules" states them for users):
 * - A record ends at a line `$$$$`. The last record needs none: text after the last `$$$$` is a
 *   record when it has a non-blank line (lines that are all blank there are not a record).
 * - A record's molblock runs from its first line (the title, which may be blank or look like a
 *   data header: it is never read as one) to its first line starting with `M  END`, inclusive;
 *   V2000 and V3000 alike (the parser, chem/structure.ts, reads both). The molblock is passed on
 *   as written; nothing here checks it (chem/limits.ts measures it, RDKit reads it, in a worker).
 *   A record without `M  END` is cut before its first data header after line 4 (or at its end):
 *   its molblock then fails to parse and the record is reported.
 * - After the molblock, data items: a header line starting with `>` that names the field in angle
 *   brackets (`>  <Tag>`, `> 25  <Tag>  (ID)`; the name is the text between the first `<` and the
 *   next `>`, trimmed), then the value's lines up to a blank line, the record's end, or the next
 *   data header (a missing blank line is tolerated). A value of several lines keeps its line
 *   breaks (`\n`); values are trimmed; an empty value is a missing value (as an empty CSV cell).
 * - Problems with data items are warnings, at most one per record (kind `sd-data-item`), and the
 *   record is kept: a tag repeated in one record (the first value is used), a header that names
 *   no field (its value is ignored), a non-blank line outside any data item (ignored).
 * - Line breaks: LF, CRLF or CR, as the file's first line break says; a UTF-8 BOM is ignored.
 *   Line numbers are physical lines.
 * - Columns: the tags in order of their first appearance in the file; a record without a tag has
 *   a missing value there. The structure column is called `molfile`.
 *
 * Records are numbered from 1 in file order, every record counted (an empty or malformed one
 * too), and each is identified by the line where it starts (its title line): that line is the
 * data entry's line, as a CSV row's line is.
 */
import { BadRequest, PayloadTooLarge } from "../errors.ts";
import { checkText, type CsvRow } from "./csv.ts";
import type { Warning } from "./table.ts";

/** The name of an SD table's structure column (its cells are molblocks). */
export const MOLFILE_COLUMN = "molfile";

/**
 * Cells (records × distinct tags) an SD file's table may have at most. A CSV holds every cell it
 * has in its bytes; an SD file names only the tags a record has, so a few records with distinct
 * tags followed by many records would make a table far larger than the file (200,000 records ×
 * 5,000 tags: 10⁹ cells, GBs in the worker). 50 M cells (a few hundred MB at most) allow e.g.
 * 200,000 records with 250 tags.
 */
export const MAX_SD_CELLS = 50_000_000;

export interface SdRecord {
  /** 1-based record number. */
  readonly number: number;
  /** The physical line of its first line (its title). */
  readonly line: number;
  /** The molblock (title to `M  END`, lines joined with `\n`), or "" for a record whose lines are all blank. */
  readonly molblock: string;
  /** Values by tag index (into SdFile.tags), the first of a repeated tag. */
  readonly values: ReadonlyMap<number, string>;
}

export interface SdFile {
  /** Distinct tags in order of first appearance. */
  readonly tags: readonly string[];
  readonly records: readonly SdRecord[];
  /** `sd-data-item` warnings, at most one per record, in record order. */
  readonly warnings: readonly Warning[];
}

const RECORD_END = /^\$\$\$\$[ \t]*$/;
/** A data header: `>` then, somewhere on the line, `<name>` (the first `<`, and the `>` after it). */
const DATA_HEADER = /^>.*?<([^>]*)>/;
const M_END = "M  END";

/** "record 3 (line 45)" */
function recordPlace(number: number, line: number): string {
  return `record ${number} (line ${line})`;
}

/** The first 5 of a list, then "…" (a message stays short however bad the record). */
function firstFive(items: readonly (string | number)[]): string {
  return items.slice(0, 5).join(", ") + (items.length > 5 ? ", …" : "");
}

/** Parse SD text (decoded from UTF-8). Throws BadRequest for a file that is empty or not text. */
export function parseSdf(text: string): SdFile {
  const unbommed = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  checkText(unbommed, "SDF");
  const lines = splitLines(unbommed);
  // A final line break leaves an empty last element, which is no line.
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const tags: string[] = [];
  const tagIndex = new Map<string, number>();
  const records: SdRecord[] = [];
  const warnings: Warning[] = [];
  let start = 0;
  const close = (end: number): void => {
    // lines[start, end) are one record
    const number = records.length + 1;
    const line = start + 1;
    const r = readRecord(lines, start, end, tags, tagIndex);
    records.push({ number, line, molblock: r.molblock, values: r.values });
    if (r.problems.length > 0) {
      warnings.push({
        kind: "sd-data-item",
        message: `${capitalise(recordPlace(number, line))}: ${r.problems.join("; ")}`,
        lines: [line],
      });
    }
  };
  for (let i = 0; i < lines.length; i++) {
    if (!RECORD_END.test(lines[i]!)) continue;
    close(i);
    start = i + 1;
  }
  // The last record without its `$$$$`, if it has anything.
  let rest = false;
  for (let i = start; i < lines.length && !rest; i++) rest = lines[i]!.trim() !== "";
  if (rest) close(lines.length);
  if (records.length === 0) throw new BadRequest("the file is empty: it has no SD record", { line: 1 });
  return { tags, records, warnings };
}

/**
 * The lines of the text. The first line break decides how lines end, as in the byte scan
 * (shape.ts scanSdShape), so that both count the same lines: a lone CR, or LF with an optional
 * CR before it.
 */
function splitLines(text: string): string[] {
  const lf = text.indexOf("\n");
  const cr = text.indexOf("\r");
  if (cr >= 0 && (lf < 0 || cr < lf) && text.charCodeAt(cr + 1) !== 10) return text.split("\r");
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) if (lines[i]!.endsWith("\r")) lines[i] = lines[i]!.slice(0, -1);
  return lines;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function quote(s: string): string {
  const t = s.trim();
  return t.length > 40 ? `'${t.slice(0, 39)}…'` : `'${t}'`;
}

/** One record, lines[start, end): its molblock, its values, and what was wrong with its data items. */
function readRecord(lines: readonly string[], start: number, end: number, tags: string[], tagIndex: Map<string, number>): { molblock: string; values: Map<number, string>; problems: string[] } {
  const values = new Map<number, string>();
  const problems: string[] = [];
  let blank = true;
  for (let i = start; i < end && blank; i++) blank = lines[i]!.trim() === "";
  if (blank) return { molblock: "", values, problems };
  // The molblock: to `M  END`; without one, up to the first data header after the counts line.
  let dataFrom = -1;
  for (let i = start; i < end; i++) {
    if (lines[i]!.startsWith(M_END)) {
      dataFrom = i + 1;
      break;
    }
  }
  if (dataFrom < 0) {
    dataFrom = end;
    for (let i = start + 4; i < end; i++) {
      if (DATA_HEADER.test(lines[i]!)) {
        dataFrom = i;
        break;
      }
    }
  }
  const molblock = lines.slice(start, dataFrom).join("\n");
  const repeated = new Map<string, number[]>();
  const nameless: [number, string][] = [];
  const stray: number[] = [];
  for (let i = dataFrom; i < end; ) {
    const l = lines[i]!;
    if (l.trim() === "") {
      i++;
      continue;
    }
    if (!l.startsWith(">")) {
      stray.push(i + 1);
      i++;
      continue;
    }
    const header = i;
    const name = DATA_HEADER.exec(l)?.[1]?.trim() ?? "";
    const valueLines: string[] = [];
    for (i++; i < end && lines[i]!.trim() !== "" && !DATA_HEADER.test(lines[i]!); i++) valueLines.push(lines[i]!);
    if (name === "") {
      nameless.push([header + 1, l]);
      continue;
    }
    let k = tagIndex.get(name);
    if (k === undefined) {
      k = tags.length;
      tags.push(name);
      tagIndex.set(name, k);
    }
    if (values.has(k)) {
      const at = repeated.get(name);
      if (at) at.push(header + 1);
      else repeated.set(name, [header + 1]);
      continue;
    }
    values.set(k, valueLines.join("\n").trim());
  }
  const names = [...repeated];
  for (const [name, at] of names.slice(0, 5)) {
    problems.push(`the SD tag '${name}' occurs again at line${at.length > 1 ? "s" : ""} ${firstFive(at)}; the first value is used`);
  }
  if (names.length > 5) problems.push(`${names.length - 5} more tags occur more than once`);
  if (nameless.length > 0) {
    problems.push(`the data header${nameless.length > 1 ? "s" : ""} at line${nameless.length > 1 ? "s" : ""} ${firstFive(nameless.map(([at]) => at))} (${quote(nameless[0]![1])}${nameless.length > 1 ? ", …" : ""}) name${nameless.length > 1 ? "" : "s"} no field in <…>; ${nameless.length > 1 ? "their values are" : "its value is"} ignored`);
  }
  if (stray.length > 0) {
    problems.push(`line${stray.length > 1 ? "s" : ""} ${firstFive(stray)} ${stray.length > 1 ? "are" : "is"} not part of a data item (a data item starts with a line '>  <name>'); ignored`);
  }
  return { molblock, values, problems };
}

/**
 * The table of an SD file: header `molfile` and its tags; one row per record, at the record's
 * first line, with its molblock and one cell per tag ("" where the record has none). 413 when the
 * table would pass MAX_SD_CELLS.
 */
export function sdTable(sd: SdFile): { header: string[]; rows: CsvRow[] } {
  const width = sd.tags.length + 1;
  const cells = sd.records.length * width;
  if (cells > MAX_SD_CELLS) {
    const fmt = (n: number): string => n.toLocaleString("en");
    throw new PayloadTooLarge(
      `the SD file's table would have ${fmt(sd.records.length)} records × ${fmt(width)} columns (the molfile and ${fmt(sd.tags.length)} distinct tags) = ${fmt(cells)} cells; at most ${fmt(MAX_SD_CELLS)} are accepted (upload fewer records or tags at once)`,
      { field: "file" },
    );
  }
  const rows = sd.records.map((r): CsvRow => {
    const row = new Array<string>(width).fill("");
    row[0] = r.molblock;
    for (const [k, v] of r.values) row[k + 1] = v;
    return { line: r.line, cells: row };
  });
  return { header: [MOLFILE_COLUMN, ...sd.tags], rows };
}
