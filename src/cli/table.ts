/**
 * Tables on stdout: aligned text for people (the default), and `tsv`, `csv` or `json` for scripts.
 *
 * - table: a header line, then one line per row; columns separated by two spaces and padded to
 *   their widest cell (right-aligned where the column says so), the last column not padded; an
 *   empty cell shows as `-`. Tabs and line breaks inside a cell become spaces.
 * - tsv: the column keys, then the rows; cells joined by TAB; tabs and line breaks inside a cell
 *   become spaces (TSV has no quoting); an empty cell is empty.
 * - csv: RFC 4180 quoting (a cell with a comma, quote, line break or outer space is quoted,
 *   quotes doubled), lines ended by LF (so `while read` and `$(…)` in a shell need no CR
 *   stripping); cells are written as they are (no spreadsheet-formula escaping).
 * - json: an array of objects keyed by the column keys, numbers as numbers, empty cells as null.
 * Every line, the last included, ends with LF.
 */

export type Cell = string | number | boolean | null;
export type Row = Readonly<Record<string, Cell>>;

export const FORMATS = ["table", "tsv", "csv", "json"] as const;
export type Format = (typeof FORMATS)[number];

export interface Column {
  readonly key: string;
  /** Header of the aligned table (default: the key). */
  readonly title?: string;
  /** How the aligned table shows a value (default: as text). */
  readonly show?: (v: Cell) => string;
  readonly align?: "left" | "right";
}

const oneLine = (s: string): string => s.replace(/[\t\r\n]+/g, " ");

function text(v: Cell): string {
  return v === null ? "" : String(v);
}

/** Display width: code points (good enough for the ASCII and Latin text of URIs, SMILES and messages). */
function width(s: string): number {
  return [...s].length;
}

function pad(s: string, w: number, align: "left" | "right"): string {
  const fill = " ".repeat(Math.max(0, w - width(s)));
  return align === "right" ? fill + s : s + fill;
}

export function csvCell(s: string): string {
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function formatRows(columns: readonly Column[], rows: readonly Row[], format: Format): string {
  switch (format) {
    case "json":
      return `${JSON.stringify(rows.map((r) => Object.fromEntries(columns.map((c) => [c.key, r[c.key] ?? null]))), null, 2)}\n`;
    case "tsv":
      return [columns.map((c) => c.key), ...rows.map((r) => columns.map((c) => oneLine(text(r[c.key] ?? null))))].map((cells) => `${cells.join("\t")}\n`).join("");
    case "csv":
      return [columns.map((c) => c.key), ...rows.map((r) => columns.map((c) => text(r[c.key] ?? null)))].map((cells) => `${cells.map(csvCell).join(",")}\n`).join("");
    case "table": {
      const body = rows.map((r) =>
        columns.map((c) => {
          const v = r[c.key] ?? null;
          const s = oneLine(c.show ? c.show(v) : text(v));
          return s === "" ? "-" : s;
        }),
      );
      const head = columns.map((c) => oneLine(c.title ?? c.key));
      const widths = columns.map((_, j) => Math.max(width(head[j]!), ...body.map((cells) => width(cells[j]!))));
      const line = (cells: readonly string[]): string =>
        `${cells
          .map((s, j) => (j === cells.length - 1 && columns[j]!.align !== "right" ? s : pad(s, widths[j]!, columns[j]!.align ?? "left")))
          .join("  ")
          .trimEnd()}\n`;
      return [head, ...body].map(line).join("");
    }
  }
}
