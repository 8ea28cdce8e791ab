/**
 * The substructure search job (src/chem/substructure-search.ts): the pattern's bounds (counted by
 * hand), the matches on a few compounds (hand count: which of ethanol, phenol, acetic acid,
 * ethylamine, benzene contain C–O: ethanol, acetic acid; an aromatic carbon bonded to O: phenol),
 * the match cap and the time budget, and a pattern outside the subset (its position).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkPattern, patternAtoms, substructureJob } from "../../../src/chem/substructure-search.ts";

const SMILES = ["CCO", "Oc1ccccc1", "CC(=O)O", "CCN", "c1ccccc1"];

describe("substructure search", () => {
  it("counts a pattern's atoms (bracket atoms as one) and bounds characters and atoms", () => {
    assert.equal(patternAtoms("c1ccccc1N"), 7);
    assert.equal(patternAtoms("[#6;a]Cl"), 2);
    assert.equal(patternAtoms("*~*"), 2);
    assert.equal(checkPattern("CO"), null);
    assert.match(checkPattern("")!, /empty/);
    assert.match(checkPattern("C".repeat(201))!, /201 characters; at most 200/);
    assert.match(checkPattern("C".repeat(41))!, /41 atoms; at most 40/);
  });
  it("finds the compounds containing the pattern, in order", async () => {
    const job = (pattern: string, o: { maxMatches?: number; budgetMs?: number } = {}) => substructureJob({ pattern, smiles: SMILES, maxMatches: o.maxMatches ?? 100, budgetMs: o.budgetMs ?? 10_000 });
    assert.deepEqual(await job("C-O"), { ok: true, matched: [0, 2], searched: 5, unreadable: 0 });
    assert.deepEqual(await job("cO"), { ok: true, matched: [1], searched: 5, unreadable: 0 });
    assert.deepEqual(await job("c1ccccc1"), { ok: true, matched: [1, 4], searched: 5, unreadable: 0 });
    assert.deepEqual(await job("C-O", { maxMatches: 1 }), { ok: true, matched: [0], searched: 1, stopped: "matches", unreadable: 0 });
    assert.deepEqual(await job("C-O", { budgetMs: -1 }), { ok: true, matched: [], searched: 0, stopped: "time", unreadable: 0 });
  });
  it("a pattern outside the matcher's subset or unreadable: an error naming the position", async () => {
    const charged = await substructureJob({ pattern: "[N+]", smiles: SMILES, maxMatches: 10, budgetMs: 1000 });
    assert.equal(charged.ok, false);
    assert.ok(!charged.ok && charged.position !== undefined && /position/.test(charged.error), JSON.stringify(charged));
    const unclosed = await substructureJob({ pattern: "C(", smiles: SMILES, maxMatches: 10, budgetMs: 1000 });
    assert.ok(!unclosed.ok && /unclosed/.test(unclosed.error));
  });
});
