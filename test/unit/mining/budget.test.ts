/**
 * The miners' search budget and progress (src/mining/budget.ts). The positions of the partition
 * are worked by hand from the rule in the module comment (root labels share [0, 1] by weight,
 * each pattern shares its part among its children by support); the miners' runs are checked
 * against fminer2's golden output (fixtures/data/fminer2/fminer/test/tmp1, from amaunz/fminer2 @
 * 21afb3b).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DATA } from "../../helpers/data.ts";
import { loadRDKit } from "../../../src/chem/rdkit.ts";
import { SearchLimitError, SearchMeter, type MiningProgress } from "../../../src/mining/budget.ts";
import { mineBbrc, parseActivityFile, parseSmiFile, yamlLine } from "../../../src/mining/index.ts";
import { mineLast } from "../../../src/mining/last/index.ts";

const F2 = `${DATA}fminer2/`;
const read = (p: string): string => readFileSync(F2 + p, "utf8");

test("the partition: two roots weighted 3 and 1, the first with children of support 6 and 4", () => {
  const seen: number[] = [];
  const m = new SearchMeter({ onProgress: (p) => seen.push(p.fraction) });
  m.open(4); // roots: 3 + 1
  m.next(3); // root 1: [0, 0.75)
  assert.equal(m.fraction, 0);
  m.open(10); // its children: 6 + 4
  m.next(6); // [0, 0.45)
  assert.equal(m.fraction, 0);
  m.next(4); // [0.45, 0.75): 0.75 · 6/10
  assert.ok(Math.abs(m.fraction - 0.45) < 1e-12, String(m.fraction));
  m.close(); // the end of root 1
  assert.equal(m.fraction, 0.75);
  m.next(1); // root 2: [0.75, 1)
  assert.equal(m.fraction, 0.75);
  m.close();
  assert.equal(m.fraction, 1);
  // a report at each root and each child of a root (the first two levels)
  assert.deepEqual(seen.map((x) => Math.round(x * 100)), [0, 0, 45, 75]);
});

test("the fraction is at least the share of the budget used; past the limit the search stops", () => {
  const reports: MiningProgress[] = [];
  const m = new SearchMeter({ maxVisited: 1024, onProgress: (p) => reports.push(p) });
  m.open(1);
  m.next(1);
  for (let i = 0; i < 512; i++) m.visit(i);
  // 512 of 1024 visits: at least half, though the partition has not moved
  assert.equal(m.fraction, 0.5);
  assert.deepEqual(reports.map((r) => r.visited), [0, 256, 512]);
  for (let i = 512; i < 1024; i++) m.visit(i);
  assert.throws(() => m.visit(1024), (e: unknown) => e instanceof SearchLimitError && e.limit === 1024 && e.found === 1024);
});

async function hamster(options: Parameters<typeof mineBbrc>[3]) {
  const rdkit = await loadRDKit();
  return mineBbrc(rdkit, parseSmiFile(read("libbbrc/test/hamster_carcinogenicity.smi")), parseActivityFile(read("libbbrc/test/hamster_carcinogenicity.class")), options);
}

test("BBRC with progress reports: still fminer/test/tmp1 byte for byte; reading, then a monotone search ending at 1", async () => {
  const reports: MiningProgress[] = [];
  const run = await hamster({ onProgress: (p) => reports.push(p) });
  assert.deepEqual(
    run.patterns.map((p) => yamlLine(p, run.compounds)),
    read("fminer/test/tmp1").split("\n").filter(Boolean),
  );
  const order = reports.filter((r) => r.phase === "order");
  const search = reports.filter((r) => r.phase === "search");
  // 85 compounds, a report every 64: at 0 and 64
  assert.deepEqual(order.map((r) => r.fraction), [0, 64 / 85]);
  assert.ok(search.length > 2, `${search.length} search reports`);
  for (let i = 1; i < search.length; i++) assert.ok(search[i]!.fraction >= search[i - 1]!.fraction - 1e-12, `report ${i}: ${search[i - 1]!.fraction} → ${search[i]!.fraction}`);
  assert.equal(search.at(-1)!.fraction, 1);
  assert.equal(search.at(-1)!.found, 53);
  assert.equal(search.at(-1)!.visited, run.visited);
});

test("LAST-PM with a limit below its visits stops with SearchLimitError; with its visits as the limit it finishes the same", async () => {
  const rdkit = await loadRDKit();
  const compounds = parseSmiFile(read("libbbrc/test/hamster_carcinogenicity.smi"));
  const activity = parseActivityFile(read("libbbrc/test/hamster_carcinogenicity.class"));
  const free = mineLast(rdkit, compounds, activity, { minfreq: 6 });
  const limited = mineLast(rdkit, compounds, activity, { minfreq: 6, maxVisited: free.visited });
  assert.equal(limited.graphml, free.graphml);
  assert.throws(() => mineLast(rdkit, compounds, activity, { minfreq: 6, maxVisited: free.visited - 1 }), (e: unknown) => e instanceof SearchLimitError && e.limit === free.visited - 1);
});
