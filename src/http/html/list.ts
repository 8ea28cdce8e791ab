/**
 * The one list table of the collections' pages (/dataset, /model, /validation, /task, …): a
 * table whose column headers are sort links, its rows one page of the sorted items, and the page
 * navigation around it (http/paging.ts).
 *
 * Sorting: `?sort=<key>` (a column's key: `title`, `date`, `size`, …) and `?order=asc|desc`.
 * Without `order`, each key sorts in its natural direction: text A→Z, dates newest first, sizes
 * largest first. Without `sort`, the list's default (newest first). The header link of the
 * column the list is sorted by flips the order; the page links keep the sort. An unknown key or
 * order → 400 naming the parameter and what it takes.
 */
import type { ParsedUrlQuery } from "node:querystring";
import { BadRequest } from "../../errors.ts";
import { pageNav, readPage, ROWS, type Page, type PageSpec } from "../paging.ts";
import { esc } from "./layout.ts";

export type SortValue = string | number | undefined;

/** One column of a list: its header, its cell (HTML), and, when sortable, its sort key's value for an item. */
export interface ListColumn<T> {
  readonly title: string;
  readonly cell: (item: T) => string;
  /** A sortable column: the key in `?sort=` and the item's value (undefined sorts last). */
  readonly sort?: { readonly key: string; readonly value: (item: T) => SortValue; readonly natural: "asc" | "desc" };
  /** Right-aligned (numbers). */
  readonly numeric?: boolean;
}

export interface ListSort {
  readonly key: string;
  readonly order: "asc" | "desc";
}

/** The lists' default: newest first (a `date` column). */
export const NEWEST_FIRST: ListSort = { key: "date", order: "desc" };

function oneParam(query: ParsedUrlQuery, name: string): string | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw new BadRequest(`parameter '${name}' is given ${raw.length} times; give it once`, { field: name });
  return raw;
}

/** The requested sort of a list whose sortable columns are `columns` (checked: 400 naming `sort` or `order`). */
export function readSort<T>(query: ParsedUrlQuery, columns: readonly ListColumn<T>[], dflt: ListSort): ListSort {
  const keys = columns.flatMap((c) => (c.sort ? [c.sort] : []));
  const key = oneParam(query, "sort");
  const order = oneParam(query, "order");
  const chosen = key === undefined ? keys.find((k) => k.key === dflt.key) : keys.find((k) => k.key === key);
  if (!chosen) throw new BadRequest(`parameter 'sort' must be one of ${keys.map((k) => k.key).join(", ")}; got '${String(key).slice(0, 40)}'`, { field: "sort" });
  if (order !== undefined && order !== "asc" && order !== "desc") throw new BadRequest(`parameter 'order' must be asc or desc; got '${order.slice(0, 40)}'`, { field: "order" });
  return { key: chosen.key, order: order ?? (key === undefined ? dflt.order : chosen.natural) };
}

function compareValues(a: SortValue, b: SortValue): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), "en", { sensitivity: "base", numeric: true });
}

/**
 * The items in the order `sort` asks for; ties keep the given order (a stable sort), missing
 * values last in either direction.
 */
export function sortItems<T>(items: readonly T[], columns: readonly ListColumn<T>[], sort: ListSort): T[] {
  const column = columns.find((c) => c.sort?.key === sort.key)?.sort;
  if (!column) return items.slice();
  const sign = sort.order === "asc" ? 1 : -1;
  const keyed = items.map((item, i) => ({ item, i, v: column.value(item) }));
  keyed.sort((x, y) => {
    if (x.v === undefined || y.v === undefined) return compareValues(x.v, y.v) || x.i - y.i;
    return sign * compareValues(x.v, y.v) || x.i - y.i;
  });
  return keyed.map((k) => k.item);
}

/** The query string of a list link with this sort and page. */
function listHref(sort: ListSort, page: number, size: number): string {
  return `?sort=${encodeURIComponent(sort.key)}&order=${sort.order}&page=${page}&page_size=${size}`;
}

export interface ListPage<T> {
  /** The items of the page, sorted. */
  readonly items: readonly T[];
  readonly page: Page;
  readonly sort: ListSort;
}

/** Sort `items` as the query asks and take the page it asks for (both checked). */
export function listPage<T>(query: ParsedUrlQuery, items: readonly T[], columns: readonly ListColumn<T>[], dflt: ListSort, spec: PageSpec = ROWS): ListPage<T> {
  const sort = readSort(query, columns, dflt);
  const page = readPage(query, spec, items.length);
  const sorted = sortItems(items, columns, sort);
  return { items: sorted.slice(page.offset, page.offset + page.count), page, sort };
}

/**
 * The table of a list page: a caption, column headers (sortable ones as links; the sorted one
 * marked with aria-sort and flipping the order), one row per item, the page navigation above and
 * below (its links keep the sort).
 */
export function listTable<T>(caption: string, p: ListPage<T>, columns: readonly ListColumn<T>[], spec: PageSpec = ROWS): string {
  const head = columns
    .map((c) => {
      const cls = c.numeric ? ` class="num"` : "";
      if (!c.sort) return `<th scope="col"${cls}>${esc(c.title)}</th>`;
      const current = c.sort.key === p.sort.key;
      const next: ListSort = { key: c.sort.key, order: current ? (p.sort.order === "asc" ? "desc" : "asc") : c.sort.natural };
      const aria = current ? ` aria-sort="${p.sort.order === "asc" ? "ascending" : "descending"}"` : "";
      const arrow = current ? (p.sort.order === "asc" ? " ▲" : " ▼") : "";
      const label = `sort by ${c.title.toLowerCase()}, ${next.order === "asc" ? "ascending" : "descending"}`;
      return `<th scope="col"${cls}${aria}><a href="${esc(listHref(next, 1, p.page.size))}" title="${esc(label)}">${esc(c.title)}${arrow}</a></th>`;
    })
    .join("");
  const rows = p.items.map((item) => `<tr>${columns.map((c) => `<td${c.numeric ? ` class="num"` : ""}>${c.cell(item)}</td>`).join("")}</tr>`).join("");
  const keep: [string, string][] = [
    ["sort", p.sort.key],
    ["order", p.sort.order],
  ];
  const nav = pageNav(p.page, spec, keep);
  const empty = p.items.length === 0 ? `<tr><td colspan="${columns.length}" class="muted">none yet</td></tr>` : "";
  return `${nav}<table><caption>${esc(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${rows}${empty}</tbody></table>${nav}`;
}

/** A date (ISO 8601 text or a Date) as `YYYY-MM-DD HH:MM` UTC, in a <time> element; empty when unknown. */
export function dateCell(d: string | Date | undefined): string {
  if (d === undefined || d === "") return "";
  const date = typeof d === "string" ? new Date(d) : d;
  if (Number.isNaN(date.getTime())) return esc(String(d));
  const iso = date.toISOString();
  return `<time datetime="${esc(iso)}">${esc(iso.slice(0, 16).replace("T", " "))}</time>`;
}

/** A date's sort value (milliseconds; undefined when unknown). */
export function dateValue(d: string | Date | undefined): number | undefined {
  if (d === undefined || d === "") return undefined;
  const t = (typeof d === "string" ? new Date(d) : d).getTime();
  return Number.isNaN(t) ? undefined : t;
}
