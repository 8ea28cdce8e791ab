/**
 * The list table of the collections' pages (src/http/html/list.ts): the sort read from the query
 * (defaults, each key's natural direction, 400 naming the parameter), the sort itself (stable,
 * missing values last either way), and the table (sort links, the sorted column marked, page links
 * keeping the sort). Items and expected orders are written here by hand.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BadRequest } from "../../../../src/errors.ts";
import { dateCell, listPage, listTable, readSort, sortItems, type ListColumn } from "../../../../src/http/html/list.ts";

interface Item {
  readonly title: string;
  readonly date?: string;
  readonly size?: number;
}
const COLUMNS: ListColumn<Item>[] = [
  { title: "Title", cell: (i) => i.title, sort: { key: "title", value: (i) => i.title, natural: "asc" } },
  { title: "Created", cell: (i) => dateCell(i.date), sort: { key: "date", value: (i) => (i.date ? Date.parse(i.date) : undefined), natural: "desc" } },
  { title: "Size", cell: (i) => String(i.size ?? ""), numeric: true, sort: { key: "size", value: (i) => i.size, natural: "desc" } },
  { title: "Note", cell: () => "" },
];
const ITEMS: Item[] = [
  { title: "beta", date: "2026-01-02T00:00:00Z", size: 10 },
  { title: "Alpha", date: "2026-01-03T00:00:00Z", size: 85 },
  { title: "gamma", size: 10 },
  { title: "delta", date: "2026-01-01T00:00:00Z" },
];
const NEWEST = { key: "date", order: "desc" } as const;
const titles = (xs: readonly Item[]): string[] => xs.map((x) => x.title);
const bad = (field: string) => (e: unknown) => e instanceof BadRequest && e.details.field === field;

describe("readSort", () => {
  it("the default without parameters; a key alone sorts in its natural direction; order flips it", () => {
    assert.deepEqual(readSort({}, COLUMNS, NEWEST), NEWEST);
    assert.deepEqual(readSort({ sort: "title" }, COLUMNS, NEWEST), { key: "title", order: "asc" });
    assert.deepEqual(readSort({ sort: "size" }, COLUMNS, NEWEST), { key: "size", order: "desc" });
    assert.deepEqual(readSort({ sort: "size", order: "asc" }, COLUMNS, NEWEST), { key: "size", order: "asc" });
    assert.deepEqual(readSort({ order: "asc" }, COLUMNS, NEWEST), { key: "date", order: "asc" });
  });
  it("an unknown key or order, or a repeated parameter → 400 naming it", () => {
    assert.throws(() => readSort({ sort: "note" }, COLUMNS, NEWEST), bad("sort"), "a column without a sort");
    assert.throws(() => readSort({ sort: "colour" }, COLUMNS, NEWEST), /must be one of title, date, size/);
    assert.throws(() => readSort({ order: "up" }, COLUMNS, NEWEST), bad("order"));
    assert.throws(() => readSort({ sort: ["title", "date"] }, COLUMNS, NEWEST), bad("sort"));
  });
});

describe("sortItems", () => {
  it("orders by the key (text ignoring case), ties keep the given order, missing values last in either direction", () => {
    assert.deepEqual(titles(sortItems(ITEMS, COLUMNS, { key: "title", order: "asc" })), ["Alpha", "beta", "delta", "gamma"]);
    assert.deepEqual(titles(sortItems(ITEMS, COLUMNS, { key: "title", order: "desc" })), ["gamma", "delta", "beta", "Alpha"]);
    assert.deepEqual(titles(sortItems(ITEMS, COLUMNS, NEWEST)), ["Alpha", "beta", "delta", "gamma"]);
    assert.deepEqual(titles(sortItems(ITEMS, COLUMNS, { key: "date", order: "asc" })), ["delta", "beta", "Alpha", "gamma"]);
    assert.deepEqual(titles(sortItems(ITEMS, COLUMNS, { key: "size", order: "desc" })), ["Alpha", "beta", "gamma", "delta"], "beta before gamma: a tie keeps the given order");
    assert.deepEqual(titles(sortItems(ITEMS, COLUMNS, { key: "size", order: "asc" })), ["beta", "gamma", "Alpha", "delta"]);
  });
});

describe("listTable", () => {
  it("sortable headers are links (the sorted one marked and flipping the order), rows are the page's items, page links keep the sort", () => {
    const p = listPage({ sort: "size", page_size: "2", page: "1" }, ITEMS, COLUMNS, NEWEST);
    assert.deepEqual(titles(p.items), ["Alpha", "beta"]);
    const html = listTable("Things", p, COLUMNS);
    assert.match(html, /<caption>Things<\/caption>/);
    assert.match(html, /<th scope="col" class="num" aria-sort="descending"><a href="\?sort=size&#38;order=asc&#38;page=1&#38;page_size=2"[^>]*>Size ▼<\/a><\/th>/);
    assert.match(html, /<th scope="col"><a href="\?sort=title&#38;order=asc&#38;page=1&#38;page_size=2"[^>]*>Title<\/a><\/th>/, "another column: its natural order");
    assert.match(html, /<th scope="col">Note<\/th>/, "not sortable: no link");
    assert.match(html, /href="\?sort=size&#38;order=desc&#38;page=2&#38;page_size=2">next</);
    assert.equal((html.match(/<tr><td>/g) ?? []).length, 2);
  });
  it("an empty list says so", () => {
    assert.match(listTable("Things", listPage({}, [], COLUMNS, NEWEST), COLUMNS), /<td colspan="4" class="muted">none yet<\/td>/);
  });
  it("dates as UTC minutes in <time>; an unknown date is empty", () => {
    assert.equal(dateCell("2026-01-02T03:04:05.678Z"), `<time datetime="2026-01-02T03:04:05.678Z">2026-01-02 03:04</time>`);
    assert.equal(dateCell(undefined), "");
  });
});
