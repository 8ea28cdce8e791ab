/** Reading the service's HTML in tests: its text with character references decoded, and a section by id. */
import assert from "node:assert/strict";

/** The text with the references the pages write decoded (`esc` writes &#NN;; `&amp;` too). */
export function unescapeHtml(s: string): string {
  return s.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, "&");
}

/** The inside of `<section id="…">` (asserted present). */
export function section(html: string, id: string): string {
  const m = new RegExp(`<section id="${id}">([\\s\\S]*?)</section>`).exec(html);
  assert.ok(m, `the page has a section #${id}`);
  return m[1]!;
}
