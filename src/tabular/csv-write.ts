/**
 * Writing CSV (RFC 4180, csv-stringify) with every cell made safe to open in a spreadsheet
 * (README "CSV export"): the one place the service writes CSV cells.
 *
 * A spreadsheet runs a cell as a formula when it starts with `=`, `+`, `-` or `@`, and some also
 * when it starts with a TAB or a carriage return (OWASP "CSV Injection"; CWE-1236). Such a cell
 * gets a leading `'`, which spreadsheets read as "this is text" and do not show. A plain number
 * (`-1.5`, `+3e-2`) is left as it is: a spreadsheet reads it as the number, and quoting it would
 * turn every negative value into text.
 */
import { stringify } from "csv-stringify/sync";

/** Characters that make a spreadsheet read a cell as a formula when they come first. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain decimal number, as a spreadsheet reads one: optional sign, digits, optional exponent. */
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The cell as written: a leading `'` when a spreadsheet would run it as a formula. */
export function neutraliseCell(cell: string): string {
  return FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;
}

/** CSV text of the rows (`\n` line ends, cells quoted where RFC 4180 needs it), every cell neutralised. */
export function csvRows(rows: readonly (readonly string[])[]): string {
  return stringify(rows.map((r) => r.map(neutraliseCell)));
}

/**
 * The cells of one CSV line without its line end, as `csvRows([cells])` writes them: a long line
 * can be written in parts, joined with ",", then ended with "\n".
 */
export function csvFields(cells: readonly string[]): string {
  return csvRows([cells]).slice(0, -1);
}
