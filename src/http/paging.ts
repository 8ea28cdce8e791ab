/**
 * Pages of HTML lists and tables that grow with the data (datasets' rows and columns, the
 * collections): the `page` / `page_size` query parameters (and their column counterparts),
 * checked before anything is read, and the navigation between pages. A page past the last, a
 * size out of range, an empty, repeated or non-integer value → 400 naming the field and the
 * allowed range.
 */
import type { ParsedUrlQuery } from "node:querystring";
import { BadRequest } from "../errors.ts";
import { esc } from "./html/layout.ts";

/** One paged dimension: its parameters, default and largest page size, and what it counts. */
export interface PageSpec {
  readonly pageParam: string;
  readonly sizeParam: string;
  readonly defaultSize: number;
  readonly maxSize: number;
  /** Plural noun of the items, for messages and navigation ("rows", "datasets"). */
  readonly items: string;
}

/** A page of `total` items: items [offset, offset + size) of them, page `page` of `pages`. */
export interface Page {
  readonly page: number;
  readonly size: number;
  readonly pages: number;
  readonly total: number;
  readonly offset: number;
  /** Items on this page. */
  readonly count: number;
}

/** Rows of lists and tables. */
export const ROWS: PageSpec = { pageParam: "page", sizeParam: "page_size", defaultSize: 50, maxSize: 500, items: "rows" };

/**
 * An integer query parameter in [min, max]; absent → `dflt`. `hint` explains the range (e.g.
 * what it counts) in the message.
 */
export function intParam(query: ParsedUrlQuery, name: string, min: number, max: number, dflt: number, hint = ""): number {
  const raw = query[name];
  if (raw === undefined) return dflt;
  const range = `a whole number from ${min} to ${max}${hint}`;
  if (Array.isArray(raw)) throw new BadRequest(`parameter '${name}' is given ${raw.length} times; give it once, as ${range}`, { field: name });
  if (raw === "") throw new BadRequest(`parameter '${name}' is empty; give ${range}`, { field: name });
  const n = /^[0-9]{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new BadRequest(`parameter '${name}' must be ${range}; got '${raw.length > 40 ? `${raw.slice(0, 40)}…` : raw}'`, { field: name });
  }
  return n;
}

/** The requested page of `total` items (checked: see intParam). */
export function readPage(query: ParsedUrlQuery, spec: PageSpec, total: number): Page {
  const size = intParam(query, spec.sizeParam, 1, spec.maxSize, spec.defaultSize, ` (${spec.items} per page)`);
  const pages = Math.max(1, Math.ceil(total / size));
  const page = intParam(query, spec.pageParam, 1, pages, 1, ` (${total} ${spec.items} in pages of ${size})`);
  const offset = (page - 1) * size;
  return { page, size, pages, total, offset, count: Math.max(0, Math.min(size, total - offset)) };
}

/** The query string of a page link: `params` in order, then page and size of `spec`. */
function href(params: readonly (readonly [string, string | number])[]): string {
  return `?${params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&")}`;
}

/**
 * Navigation for one paged dimension: "rows 51–100 of 230 (page 2 of 5)" with first, previous,
 * next and last links. `keep` = the other dimensions' parameters (or a list's sort), carried along unchanged.
 */
export function pageNav(p: Page, spec: PageSpec, keep: readonly (readonly [string, string | number])[] = []): string {
  const link = (page: number, text: string): string =>
    `<a href="${esc(href([...keep, [spec.pageParam, page], [spec.sizeParam, p.size]]))}">${text}</a>`;
  const range = p.total === 0 ? `no ${spec.items}` : `${spec.items} ${p.offset + 1}–${p.offset + p.count} of ${p.total}`;
  const links = [
    p.page > 1 ? link(1, "first") : "",
    p.page > 1 ? link(p.page - 1, "previous") : "",
    p.page < p.pages ? link(p.page + 1, "next") : "",
    p.page < p.pages ? link(p.pages, "last") : "",
  ].filter(Boolean);
  return `<nav class="pages">${esc(range)} (page ${p.page} of ${p.pages})${links.length > 0 ? ` ${links.join(" ")}` : ""}</nav>`;
}

/** The page and size parameters of a page, to carry along in another dimension's links. */
export function pageParams(p: Page, spec: PageSpec): [string, number][] {
  return [
    [spec.pageParam, p.page],
    [spec.sizeParam, p.size],
  ];
}
