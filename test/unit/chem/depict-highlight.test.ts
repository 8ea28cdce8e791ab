/**
 * chem.highlight (src/chem/depict-highlight.ts): the SMARTS is measured before RDKit sees it,
 * and the first match of a fragment is drawn highlighted. Expected atoms by hand: in
 * phenylhydrazine, c1ccccc1NN, the SMILES's atoms 0–5 are the ring and 6, 7 the nitrogens, so
 * [#7]-[#7] matches atoms 6 and 7; RDKit draws highlights in its default colour #FF7F7F
 * (RDKit's MolDrawOptions highlightColour (1, 0.5, 0.5)).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { highlightJob, MAX_SMARTS_CHARS, MAX_SMARTS_DEPTH, measureSmarts } from "../../../src/chem/depict-highlight.ts";
import { BadRequest } from "../../../src/errors.ts";

test("SMARTS measured first: empty, too long, unbalanced or too deep", () => {
  assert.equal(measureSmarts("[#6&a]:[#6&a]-[#7&A]"), null);
  assert.match(measureSmarts(" ")!, /empty/);
  assert.match(measureSmarts("C".repeat(MAX_SMARTS_CHARS + 1))!, /characters/);
  assert.match(measureSmarts("C(C")!, /open/);
  assert.match(measureSmarts("C)C")!, /did not open/);
  assert.match(measureSmarts("C" + "(C".repeat(MAX_SMARTS_DEPTH + 1) + ")".repeat(MAX_SMARTS_DEPTH + 1))!, /deeper/);
});

test("the first match is highlighted; no match draws the structure plain; bad input", async () => {
  const hit = await highlightJob({ smiles: "c1ccccc1NN", smarts: "[#7]-[#7]", width: 200, height: 150 });
  assert.ok(hit);
  assert.deepEqual([...hit.atoms].sort(), [6, 7]);
  assert.match(hit.svg, /^<\?xml version='1.0' encoding='UTF-8'\?>\n<svg/);
  assert.match(hit.svg, /#FF7F7F/i);
  const ring = await highlightJob({ smiles: "c1ccccc1NN", smarts: "[#6&a]:[#6&a]:[#6&a]:[#6&a]:[#6&a]", width: 200, height: 150 });
  assert.equal(ring?.atoms.length, 5);
  const none = await highlightJob({ smiles: "CCO", smarts: "[#7]", width: 200, height: 150 });
  assert.deepEqual(none?.atoms, []);
  assert.doesNotMatch(none!.svg, /#FF7F7F/i);
  assert.equal(await highlightJob({ smiles: "C1CC(", smarts: "C", width: 200, height: 150 }), null, "a SMILES that does not parse");
  await assert.rejects(highlightJob({ smiles: "CCO", smarts: "[C", width: 200, height: 150 }), (e: unknown) => e instanceof BadRequest && e.details.field === "highlight");
  await assert.rejects(highlightJob({ smiles: "CCO", smarts: "[#6]=[", width: 200, height: 150 }), BadRequest);
  await assert.rejects(highlightJob({ smiles: "CCO", smarts: "C", width: 5, height: 150 }), BadRequest);
});
