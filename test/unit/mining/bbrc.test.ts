/**
 * BBRC against fminer2's golden outputs (spec miners.md §9.1). Reference values are read from
 * shared/data/fminer2; nothing is copied into the test.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DATA } from "../../helpers/data.ts";
import { loadRDKit } from "../../../src/chem/rdkit.ts";
import { mineBbrc, yamlLine, lazarLine, parseSmiFile, parseActivityFile, type BbrcOptions } from "../../../src/mining/index.ts";

const F2 = `${DATA}fminer2/`;
const read = (p: string): string => readFileSync(F2 + p, "utf8");
const lines = (p: string): string[] => read(p).split("\n").filter((l) => l.length > 0);

async function hamster(classFile: string, options: BbrcOptions = {}) {
  const rdkit = await loadRDKit();
  return mineBbrc(rdkit, parseSmiFile(read("libbbrc/test/hamster_carcinogenicity.smi")), parseActivityFile(read(`libbbrc/test/${classFile}`)), options);
}

test("hamster BBRC default (minfreq 2) = fminer/test/tmp1, byte for byte (53 lines)", async () => {
  const run = await hamster("hamster_carcinogenicity.class");
  const mine = run.patterns.map((p) => yamlLine(p, run.compounds));
  const gold = lines("fminer/test/tmp1");
  assert.equal(gold.length, 53);
  assert.deepEqual(mine, gold);
});

test("hamster -d -b (static UB, all significant trees) = fminer/test/tmp2, byte for byte (195 lines)", async () => {
  const run = await hamster("hamster_carcinogenicity.class", { backbone: false, dynamicUpperBound: false });
  const mine = run.patterns.map((p) => yamlLine(p, run.compounds));
  const gold = lines("fminer/test/tmp2");
  assert.equal(gold.length, 195);
  assert.deepEqual(mine, gold);
});

test("static upper bound (-d) gives the same representatives as the dynamic one (spec §4.2)", async () => {
  const dyn = await hamster("hamster_carcinogenicity.class");
  const stat = await hamster("hamster_carcinogenicity.class", { dynamicUpperBound: false });
  assert.deepEqual(
    stat.patterns.map((p) => yamlLine(p, stat.compounds)),
    dyn.patterns.map((p) => yamlLine(p, dyn.compounds)),
  );
  assert.ok(stat.visited >= dyn.visited, `static UB visits at least as many patterns (${stat.visited} vs ${dyn.visited})`);
});

test("hamster BBRC in LAZAR format = libbbrc/test/fminer1, byte for byte", async () => {
  const run = await hamster("hamster_carcinogenicity.class");
  assert.deepEqual(
    run.patterns.map((p) => lazarLine(p, run.compounds)),
    lines("libbbrc/test/fminer1"),
  );
});

test("paths only (-l 1) on hamster: 32 representatives (spec §8.3), all of them paths", async () => {
  const run = await hamster("hamster_carcinogenicity.class", { type: 1 });
  assert.equal(run.patterns.length, 32);
  for (const p of run.patterns) assert.doesNotMatch(p.smarts, /\(/, p.smarts);
});

/** Multiset intersection size of two line lists. */
function common(a: string[], b: string[]): number {
  const m = new Map<string, number>();
  for (const x of b) m.set(x, (m.get(x) ?? 0) + 1);
  let n = 0;
  for (const x of a) {
    const c = m.get(x) ?? 0;
    if (c > 0) {
      n++;
      m.set(x, c - 1);
    }
  }
  return n;
}

/** Length of the common prefix of two line lists. */
function prefix(a: string[], b: string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

// KNOWN GAP (multinomial, regression, -p0): the search reproduces Gaston's visit order for
// paths and for trees with one non-backbone branch per backbone half (everything hamster's
// 2-class runs need: tmp1, tmp2, fminer1 are identical). For trees with several non-backbone
// nodes in different places, and for a new branch exactly as deep and as small as the
// backbone half ("ties"), Gaston's leg order is not yet reproduced, so some trees are visited
// in another order (changing which pattern of a backbone refinement class is emitted) and, with
// ties accepted, 1159 trees are generated twice. The tests below pin the current distance to
// the golden files exactly, so that any change is visible.

test("multinomial (3 classes) vs libbbrc/test/fminer2: 386 of 464 golden lines reproduced (known gap)", async () => {
  const run = await hamster("hamster_carcinogenicity-multinomial.class");
  const mine = run.patterns.map((p) => lazarLine(p, run.compounds));
  const gold = lines("libbbrc/test/fminer2");
  assert.equal(gold.length, 464);
  // every emitted pattern passes the 3-class threshold 5.99 (§3.3)
  for (const p of run.patterns) assert.ok(p.stat >= 5.99, p.smarts);
  assert.deepEqual(
    { mine: mine.length, identicalLines: common(mine, gold), identicalPrefix: prefix(mine, gold) },
    { mine: 400, identicalLines: 386, identicalPrefix: 32 },
  );
});

test("regression EPAFHM (minfreq 5) vs libbbrc/test/fminer4: 268 of 304 golden lines reproduced (known gap)", async () => {
  const rdkit = await loadRDKit();
  const run = mineBbrc(rdkit, parseSmiFile(read("libbbrc/test/EPAFHM.smi")), parseActivityFile(read("libbbrc/test/EPAFHM.act")), { minfreq: 5, regression: true });
  assert.equal(run.compounds.ids.length, 580, "617 SMILES, 580 with an activity");
  const mine = run.patterns.map((p) => lazarLine(p, run.compounds));
  const gold = lines("libbbrc/test/fminer4");
  assert.equal(gold.length, 304);
  for (const p of run.patterns) assert.ok(p.stat >= 0.95, p.smarts); // Kuiper p ≥ 0.95 (§3.5)
  // the first lines (S=P-O, O-P-O: no one-edge representatives in regression) are identical
  assert.deepEqual(mine.slice(0, 8), gold.slice(0, 8));
  assert.deepEqual(
    { mine: mine.length, identicalLines: common(mine, gold), identicalPrefix: prefix(mine, gold) },
    { mine: 307, identicalLines: 268, identicalPrefix: 8 },
  );
});

test("-d -b -p0 (all frequent trees) on hamster: 67614 instead of 66455 (spec §8.3; known gap: ties)", async () => {
  const run = await hamster("hamster_carcinogenicity.class", { backbone: false, dynamicUpperBound: false, chisqSig: 0 });
  const reference = 66455; // F2 HEAD + OB3, spec §8.3
  assert.equal(run.patterns.length - reference, 1159, "trees generated twice when a new deepest branch ties with the backbone half");
});
