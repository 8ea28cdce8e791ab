/**
 * Drawing a mined pattern (src/chem/depict-pattern.ts): the limits checked before RDKit sees the
 * SMARTS, and the picture of BBRC's patterns — an SVG with one highlighted atom per atom of the
 * SMARTS (counted here in the text: the miners bracket every atom) and one highlighted bond per bond.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { depictPattern, MAX_PATTERN_CHARS, MAX_PATTERN_DEPTH, patternRefusal } from "../../../src/chem/depict-pattern.ts";
import { loadRDKit } from "../../../src/chem/rdkit.ts";
import { UnprocessableEntity } from "../../../src/errors.ts";

describe("patternRefusal", () => {
  it("refuses empty, too long, too deep and too many atoms; takes the miners' patterns", () => {
    assert.match(patternRefusal("") ?? "", /empty/);
    assert.match(patternRefusal("C".repeat(MAX_PATTERN_CHARS + 1)) ?? "", /characters/);
    assert.match(patternRefusal("C" + "(C".repeat(MAX_PATTERN_DEPTH + 1) + ")".repeat(MAX_PATTERN_DEPTH + 1)) ?? "", /deep/);
    assert.match(patternRefusal("[#6]".repeat(301)) ?? "", /atoms/);
    assert.equal(patternRefusal("[#6&a]:[#6&a](-[#8&A])(:[#6&a]:[#6&a])"), null);
    assert.equal(patternRefusal("[#6&a;$([#6&a]:[#7&a]),$([#6&a]-[#8])](~*)"), null);
  });
});

describe("depictPattern", () => {
  it("draws BBRC's patterns with every atom and bond highlighted", async () => {
    const rdkit = await loadRDKit();
    // fminer's golden output on hamster (fixtures/data/fminer2/fminer/test/tmp1): 5 atoms, 4 bonds; 3 atoms, 2 bonds.
    for (const [smarts, atoms, bonds] of [["[#6&a]:[#6&a](-[#8&A])(:[#6&a]:[#6&a])", 5, 4], ["[#8&A]-[#6&A]=[#8&A]", 3, 2]] as const) {
      const svg = depictPattern(rdkit, smarts, 200, 150)!;
      assert.ok(svg.startsWith("<?xml version='1.0' encoding='UTF-8'?>\n<svg"), svg.slice(0, 60));
      assert.ok(svg.includes("width='200px' height='150px'"));
      assert.equal(new Set([...svg.matchAll(/<ellipse [^>]*class='atom-(\d+)'/g)].map((m) => m[1])).size, atoms, smarts);
      assert.equal(new Set([...svg.matchAll(/<path class='bond-(\d+) atom-\d+ atom-\d+' [^>]*stroke:#99CCFF/g)].map((m) => m[1])).size, bonds, smarts);
    }
  });
  it("null for what RDKit cannot read; 422 past a limit", async () => {
    const rdkit = await loadRDKit();
    assert.equal(depictPattern(rdkit, "C(("), null);
    assert.throws(() => depictPattern(rdkit, "C".repeat(MAX_PATTERN_CHARS + 1)), UnprocessableEntity);
  });
});
