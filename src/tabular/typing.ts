/**
 * Feature typing of a dataset column: nominal (classes) and/or numeric, and its accept values.
 *
 * Follows lazar's rule that a column with at most 3 distinct values is nominal (and numeric as
 * well when they are all numbers), without its quirks: missing cells are ignored instead of
 * counting as one of the three values, numbers are recognised by one strict decimal syntax
 * (below) instead of Ruby `Float()`, and a column that is all missing is reported as empty
 * instead of getting a `#MissingFeature` placeholder type.
 *
 * Accept values (only for nominal columns) are sorted like lazar's `value_map`, which numbers the
 * classes 1…k in this order: numerically when every value is a number, else by UTF-16 code
 * units (= byte order for ASCII, as Ruby's `sort`). Values are compared as the raw trimmed
 * strings, so `1` and `1.0` are two distinct values.
 */

/** At most this many distinct values make a column nominal even when all are numbers. */
export const MAX_CLASS_VALUES = 3;
/** A text column with more distinct values than this gets no accept-value list. */
export const MAX_ACCEPT_VALUES = 1000;

export interface ColumnType {
  readonly nominal: boolean;
  readonly numeric: boolean;
  /** Distinct values, sorted; empty unless nominal (and ≤ MAX_ACCEPT_VALUES). */
  readonly acceptValues: string[];
  /** Some values are numbers and some are not. */
  readonly mixed: boolean;
  /** Every value is missing. */
  readonly empty: boolean;
}

/** Decimal number: optional sign, digits with optional fraction (or `.5`), optional exponent. */
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The value of a cell written as a finite decimal number (`1`, `-3`, `1.0`, `.5`, `1.13E-02`),
 * else null. Not numbers here: hex (`0x10`), `Infinity`, `NaN`, empty text, thousands separators,
 * decimal commas, surrounding spaces, and values that overflow to ±Infinity (`1e999`).
 */
export function parseNumber(s: string): number | null {
  if (!NUMBER.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

/** Type one column from its cells (null = missing; the caller decides what counts as missing). */
export function typeColumn(values: readonly (string | null)[]): ColumnType {
  const distinct = new Map<string, number | null>();
  for (const v of values) {
    if (v === null || v === "" || distinct.has(v)) continue;
    distinct.set(v, parseNumber(v));
  }
  if (distinct.size === 0) return { nominal: false, numeric: false, acceptValues: [], mixed: false, empty: true };

  let numbers = 0;
  for (const n of distinct.values()) if (n !== null) numbers++;
  const allNumeric = numbers === distinct.size;
  const mixed = numbers > 0 && !allNumeric;

  if (distinct.size <= MAX_CLASS_VALUES) {
    return { nominal: true, numeric: allNumeric, acceptValues: sortValues(distinct, allNumeric), mixed, empty: false };
  }
  if (allNumeric) return { nominal: false, numeric: true, acceptValues: [], mixed: false, empty: false };
  const acceptValues = distinct.size <= MAX_ACCEPT_VALUES ? sortValues(distinct, false) : [];
  return { nominal: true, numeric: false, acceptValues, mixed, empty: false };
}

function sortValues(distinct: ReadonlyMap<string, number | null>, numeric: boolean): string[] {
  return sortAcceptValues(distinct.keys(), numeric);
}

/** Accept values in their documented order: numeric (ties by text) for numeric features, else by code units. */
export function sortAcceptValues(values: Iterable<string>, numeric: boolean): string[] {
  const keys = [...values];
  if (numeric) {
    // Numeric order; equal numbers written differently (1 / 1.0) by their text.
    return keys.sort((a, b) => (parseNumber(a) ?? 0) - (parseNumber(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0));
  }
  return keys.sort();
}
