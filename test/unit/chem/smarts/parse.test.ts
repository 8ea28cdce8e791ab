/**
 * The SMARTS parser (src/chem/smarts/parse.ts): what lies outside the supported subset, or is
 * malformed, is refused with the position of the offending part. The cases are written by hand
 * from the SMARTS grammar; the positions are 0-based offsets into the string.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { compileSmarts, SmartsSyntaxError } from "../../../../src/chem/smarts/index.ts";

test("unsupported or malformed SMARTS throw SmartsSyntaxError naming the position", () => {
  const cases: [string, number, RegExp][] = [
    ["", 0, /empty SMARTS/],
    ["[#6&a", 0, /unclosed '\['/],
    ["[#6&a]:", 6, /bond without a following atom/],
    ["-[#6]", 0, /bond before the first atom/],
    ["[#6]=-,", 7, /bond expression ends early|unexpected/],
    ["[#6+]", 3, /charges/],
    ["[CH3]", 2, /hydrogen/],
    ["[13C]", 1, /isotopes/],
    ["[#6:1]", 3, /atom maps/],
    ["[#6@]", 3, /chirality/],
    ["[R]", 1, /'R' is not supported/],
    ["[#6;D3]", 4, /'D' is not supported/],
    ["[#6](", 4, /unclosed branch/],
    ["[#6]()[#8]", 5, /empty branch/],
    ["[#6])", 4, /unmatched '\)'/],
    ["([#6])", 0, /branch before the first atom/],
    ["[#6]1:[#6]", 4, /unclosed ring bond 1/],
    ["[#6]11", 5, /duplicates a bond/],
    ["[#6].[#8]", 4, /disconnected/],
    ["[#6]@[#6]", 4, /ring bond primitive/],
    ["[#6]/[#6]", 4, /directional/],
    ["[#6;$([#8]", 4, /unterminated recursive/],
    ["[#6;$()]", 6, /empty recursive/],
    ["[$[#6]]", 1, /'\$' must be followed by '\('/],
    ["[#]", 1, /atomic number/],
    ["[#999]", 1, /out of range/],
    ["X", 0, /not an atom outside brackets/],
    ["[#6]?", 4, /unexpected character '\?'/],
    ["[]", 1, /empty atom expression/],
    ["[#6]:[#6;$([#6]-[#8+])]", 19, /charges/],
  ];
  for (const [s, pos, msg] of cases) {
    assert.throws(
      () => compileSmarts(s),
      (e: unknown) => {
        assert.ok(e instanceof SmartsSyntaxError, `${s}: ${String(e)}`);
        assert.equal(e.position, pos, `${s}: ${e.message}`);
        assert.match(e.message, msg, s);
        assert.match(e.message, new RegExp(`position ${pos}:`));
        return true;
      },
      s,
    );
  }
});
