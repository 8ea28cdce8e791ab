/**
 * Paging of HTML lists and tables (src/http/paging.ts): which page of how many items is shown,
 * and the 400 reports for page parameters out of range, empty, repeated or not whole numbers.
 * Expected pages are worked out by hand (230 items in pages of 50: pages 1–5, the last holding
 * items 201–230).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { intParam, pageNav, readPage, ROWS } from "../../../src/http/paging.ts";

const badRequest = (field: string, message: RegExp) => (e: Error & { status?: number; details?: { field?: string } }) =>
  e.status === 400 && e.details?.field === field && message.test(e.message);

describe("readPage", () => {
  it("defaults to the first page of 50; the last page holds the rest", () => {
    assert.deepEqual(readPage({}, ROWS, 230), { page: 1, size: 50, pages: 5, total: 230, offset: 0, count: 50 });
    assert.deepEqual(readPage({ page: "5" }, ROWS, 230), { page: 5, size: 50, pages: 5, total: 230, offset: 200, count: 30 });
    assert.deepEqual(readPage({ page: "2", page_size: "100" }, ROWS, 230), { page: 2, size: 100, pages: 3, total: 230, offset: 100, count: 100 });
  });

  it("an empty list has one (empty) page", () => {
    assert.deepEqual(readPage({ page: "1" }, ROWS, 0), { page: 1, size: 50, pages: 1, total: 0, offset: 0, count: 0 });
  });

  it("a page past the last, 0, not a number, empty or repeated → 400 naming 'page' and its range", () => {
    assert.throws(() => readPage({ page: "1000000000" }, ROWS, 230), badRequest("page", /'page' must be a whole number from 1 to 5 \(230 rows in pages of 50\); got '1000000000'/));
    assert.throws(() => readPage({ page: "6" }, ROWS, 230), badRequest("page", /from 1 to 5/));
    assert.throws(() => readPage({ page: "0" }, ROWS, 230), badRequest("page", /from 1 to 5/));
    assert.throws(() => readPage({ page: "abc" }, ROWS, 230), badRequest("page", /got 'abc'/));
    assert.throws(() => readPage({ page: "1.5" }, ROWS, 230), badRequest("page", /got '1\.5'/));
    assert.throws(() => readPage({ page: "-1" }, ROWS, 230), badRequest("page", /got '-1'/));
    assert.throws(() => readPage({ page: "" }, ROWS, 230), badRequest("page", /'page' is empty; give a whole number from 1 to 5/));
    assert.throws(() => readPage({ page: ["1", "2"] }, ROWS, 230), badRequest("page", /given 2 times/));
    assert.throws(() => readPage({ page: "9".repeat(400) }, ROWS, 230), badRequest("page", /got '9{40}…'/));
  });

  it("page_size outside 1–500 → 400 naming 'page_size'", () => {
    assert.throws(() => readPage({ page_size: "0" }, ROWS, 230), badRequest("page_size", /from 1 to 500 \(rows per page\)/));
    assert.throws(() => readPage({ page_size: "501" }, ROWS, 230), badRequest("page_size", /from 1 to 500/));
  });

  it("intParam: absent → the default", () => {
    assert.equal(intParam({}, "n", 1, 10, 7), 7);
    assert.equal(intParam({ n: "10" }, "n", 1, 10, 7), 10);
  });
});

describe("pageNav", () => {
  it("names the range shown and links the other pages, keeping the other dimension's parameters", () => {
    const nav = pageNav(readPage({ page: "2" }, ROWS, 230), ROWS, [["column_page", 3]]);
    assert.match(nav, /rows 51–100 of 230 \(page 2 of 5\)/);
    assert.match(nav, /href="\?column_page=3&#38;page=1&#38;page_size=50">first</);
    assert.match(nav, /href="\?column_page=3&#38;page=1&#38;page_size=50">previous</);
    assert.match(nav, /href="\?column_page=3&#38;page=3&#38;page_size=50">next</);
    assert.match(nav, /href="\?column_page=3&#38;page=5&#38;page_size=50">last</);
  });

  it("the only page has no links", () => {
    assert.doesNotMatch(pageNav(readPage({}, ROWS, 3), ROWS), /<a /);
  });
});
