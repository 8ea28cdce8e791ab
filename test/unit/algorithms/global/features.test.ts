/**
 * The global models' features (src/algorithms/global/features.ts) on the first compounds of
 * lazar's hamster set: a subset picked from features computed once (a cross-validation's) equals
 * the features computed for the subset alone; a set without descriptors (the forest's Morgan
 * bits) has no descriptor columns; an empty list has the set's shape.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { KERNEL_FEATURES, modelFeatures, pickFeatures } from "../../../../src/algorithms/global/features.ts";
import { HAMSTER, readSmilesCsv } from "../../../helpers/data.ts";

const hamster = readSmilesCsv(HAMSTER);

test("pickFeatures: the features of a subset picked from a cross-validation's features equal those computed for the subset alone (an unreadable compound stays unreadable)", async () => {
  const smiles = [...hamster.slice(0, 12).map((r) => r.smiles), "not a SMILES"];
  for (const set of [KERNEL_FEATURES, { fingerprints: [{ kind: "morgan", radius: 2, bits: 2048 }], descriptors: false } as const]) {
    const all = await modelFeatures(smiles, set);
    const pick = [12, 3, 7, 0, 11];
    const picked = pickFeatures(all, pick);
    const direct = await modelFeatures(pick.map((i) => smiles[i]!), set);
    assert.deepEqual(Array.from(picked.rows), Array.from(direct.rows));
    assert.deepEqual(Array.from(picked.rows), [1, 2, 3, 4], "the unreadable first pick has no row");
    assert.equal(picked.errors[0] !== null, true);
    assert.deepEqual(picked.fingerprints.map((f) => Array.from(f.data)), direct.fingerprints.map((f) => Array.from(f.data)));
    assert.deepEqual(picked.fingerprints.map((f) => Array.from(f.ones)), direct.fingerprints.map((f) => Array.from(f.ones)));
    assert.deepEqual(Array.from(picked.descriptors), Array.from(direct.descriptors));
    assert.equal(picked.fingerprints.length, set.fingerprints.length);
    // RDKit's 43 2D descriptors (docs/fingerprints.md), or none
    assert.equal(picked.columns, set.descriptors ? 43 : 0);
  }
});

test("modelFeatures of no compounds: no rows, the set's fingerprints (2048 bits = 64 words for Morgan)", async () => {
  const f = await modelFeatures([], { fingerprints: [{ kind: "morgan", radius: 2, bits: 2048 }], descriptors: true });
  assert.equal(f.rows.length, 0);
  assert.equal(f.fingerprints.length, 1);
  assert.equal(f.fingerprints[0]!.words, 64);
  assert.equal(f.columns, 43);
});
