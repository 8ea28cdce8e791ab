/**
 * Recursive feature elimination (src/learn/rfe.ts) on real descriptor data.
 *
 * - Subset sizes as R computes `unique(round(p * seq(0.3, 0.7, by = 0.02)))` (values printed
 *   by R 4.2.2 for these p).
 * - A planted signal: the 15 usable CDK constitutional columns of
 *   fixtures/data/opentox-test-2012/data/EPAFHM-constitutional.csv plus a shuffled copy of each
 *   (pure noise with the same distribution); the endpoint is a function of two real columns.
 *   Both must be kept and most noise columns dropped.
 * - EPAFHM-constitutional.csv with the EPAFHM endpoint (LC50 mmol from
 *   fixtures/data/lazar/test/data/EPAFHM.csv, matched by InChI): a smaller set, the same set for the
 *   same seed (also with worker threads). Reference: R caret 6.0-93 (Debian r-cran-caret) as the
 *   reference service ran it — `preProcess(c("center", "scale", "knnImpute"))`, `set.seed(1)`,
 *   `rfe(x, y, sizes, rfeControl(functions = rfFuncs, number = 150))` — on the same matrix: size
 *   10 of 15, optVariables XLogP nB nAtomP ALogP MLogP nAtom nRotB AMR ALogp2 nHBDon; XLogP and
 *   nB have the highest importance, nAromBond, naAromAtom and LipinskiFailures the lowest (the same
 *   with number = 25, which chose size 5: XLogP nB nAtomP MLogP ALogP). This RFE with the
 *   reference's effort (resamples 150, rankTrees = ntree = 500; ≈ 2 min, so not run here) also
 *   chose size 10: the same first nine columns in the same order, then nAtomLC (6.76) where caret
 *   has nHBDon (here 6.68). With the defaults, asserted below: XLogP and nB kept, those three
 *   dropped.
 * - Hamster carcinogenicity with CDK constitutional + topological descriptors (classification).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadRDKit } from "../../../src/chem/rdkit.ts";
import { computeDescriptors } from "../../../src/chem/descriptors/index.ts";
import { cleanColumns, knnImpute, rfe, RfeInputError, subsetSizes, type RfeEndpoint } from "../../../src/learn/rfe.ts";
import { rfeOnResamples } from "../../../src/algorithms/rfe/resamples.ts";
import { servicePool } from "../../../src/algorithms/jobs.ts";
import { mulberry32Unit, shuffle } from "../../../src/numeric/random.ts";
import { DATA, readSmilesCsv } from "../../helpers/data.ts";

test("subset sizes: round(p × 0.30 … 0.70) as R computes them", () => {
  // printed by R: for (p in …) unique(round(p * seq(0.3, 0.7, by = 0.02)))
  assert.deepEqual(subsetSizes(10), [3, 4, 5, 6, 7]);
  assert.deepEqual(subsetSizes(15), [4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(subsetSizes(25), [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]);
  assert.deepEqual(subsetSizes(37), [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26]);
  assert.deepEqual(subsetSizes(157), [47, 50, 53, 57, 60, 63, 66, 69, 72, 75, 78, 82, 85, 88, 91, 94, 97, 100, 104, 107, 110]);
  assert.deepEqual(subsetSizes(198), [59, 63, 67, 71, 75, 79, 83, 87, 91, 95, 99, 103, 107, 111, 115, 119, 123, 127, 131, 135, 139]);
  assert.deepEqual(subsetSizes(3), [2]);
  assert.deepEqual(subsetSizes(2), []);
});

test("cleaning drops all-missing, non-finite and constant columns", () => {
  const cols = [
    [1, 2, 3, 4],
    [NaN, null, undefined, NaN],
    [1, Infinity, 2, 3],
    [5, 5, NaN, 5],
    [1, NaN, 1, 2],
  ];
  const r = cleanColumns(cols, [0, 1, 2, 3]);
  assert.deepEqual(r.kept, [0, 4]);
  assert.deepEqual(r.dropped, [
    { column: 1, reason: "all-missing" },
    { column: 2, reason: "non-finite" },
    { column: 3, reason: "constant" },
  ]);
  // only the rows given count: column 4 is constant on rows 0 and 2
  assert.deepEqual(cleanColumns([cols[4]!], [0, 2]).dropped, [{ column: 0, reason: "constant" }]);
});

test("k-NN imputation: mean of the 5 nearest complete rows on centred and scaled columns", () => {
  // column A decides the neighbours of row 0 (rows 1–5, not the far row 6); B is missing in row 0
  const A = [0, 1, 2, 3, 4, 5, 100];
  const B = [NaN, 10, 20, 30, 40, 50, 1000];
  const x = Float64Array.from([...A, ...B]);
  assert.equal(knnImpute(x, 7, 2, 5), 1);
  // B's present values: mean 1150/6, sd over 6 values; the imputed value is the scaled mean of 10…50 = 30
  const present = B.slice(1);
  const mean = present.reduce((a, b) => a + b, 0) / 6;
  const sd = Math.sqrt(present.reduce((a, b) => a + (b - mean) ** 2, 0) / 5);
  assert.ok(Math.abs(x[7]! * sd + mean - 30) < 1e-9, `imputed ${x[7]! * sd + mean}`);
  // the complete values are centred and scaled
  assert.ok(Math.abs(x[8]! - (10 - mean) / sd) < 1e-12);
});


interface Epafhm {
  names: string[];
  columns: number[][];
  y: number[];
}

let epafhmData: Promise<Epafhm> | null = null;
/** EPAFHM-constitutional.csv rows that match an EPAFHM.csv structure with a value (by InChI). */
const epafhm = (): Promise<Epafhm> =>
  (epafhmData ??= (async () => {
    const rdkit = await loadRDKit();
    const byInchi = new Map<string, number>();
    for (const { smiles, value } of readSmilesCsv(`${DATA}lazar/test/data/EPAFHM.csv`)) {
      if (value === "") continue;
      const mol = rdkit.get_mol(smiles);
      if (mol === null) continue;
      byInchi.set(mol.get_inchi(), Number(value));
      mol.delete();
    }
    const lines = readFileSync(`${DATA}opentox-test-2012/data/EPAFHM-constitutional.csv`, "utf8").trim().split(/\r?\n/);
    const names = lines[0]!.split(",").slice(1);
    const columns: number[][] = names.map(() => []);
    const y: number[] = [];
    for (const line of lines.slice(1)) {
      const cells = line.split(",").map((c) => c.trim());
      const v = byInchi.get(decodeURIComponent(cells[0]!));
      if (v === undefined) continue;
      y.push(v);
      names.forEach((_, j) => columns[j]!.push(cells[j + 1] === "" ? NaN : Number(cells[j + 1])));
    }
    return { names, columns, y };
  })());

test("EPAFHM data: matched by structure, with missing values to impute", async () => {
  const d = await epafhm();
  assert.equal(d.names.length, 16);
  assert.ok(d.y.length >= 570 && d.y.length <= 580, `${d.y.length} matched compounds`);
  assert.ok(d.columns.some((c) => c.some(Number.isNaN)));
});

const standardise = (c: readonly number[]): number[] => {
  const m = c.reduce((a, b) => a + b, 0) / c.length;
  const sd = Math.sqrt(c.reduce((a, b) => a + (b - m) ** 2, 0) / c.length);
  return c.map((v) => (v - m) / sd);
};

for (const kind of ["regression", "classification"] as const) {
  test(`${kind}: the two columns the endpoint depends on are kept, most shuffled noise copies dropped`, async () => {
    const d = await epafhm();
    const a = d.names.indexOf(kind === "regression" ? "MLogP" : "nHBDon");
    const b = d.names.indexOf(kind === "regression" ? "nRotB" : "nAtomLC");
    assert.ok(a >= 0 && b >= 0);
    const za = standardise(d.columns[a]!);
    const zb = standardise(d.columns[b]!);
    const signal = za.map((v, i) => v + zb[i]!);
    const rand = mulberry32Unit(2024);
    const noise = d.columns.map((c) => shuffle([...c], rand));
    const columns = [...d.columns, ...noise];
    const median = [...signal].sort((x, y) => x - y)[signal.length >> 1]!;
    const endpoint: RfeEndpoint =
      kind === "regression" ? { kind, values: signal } : { kind, labels: signal.map((s) => (s > median ? "high" : "low")) };
    const r = rfe(columns, endpoint, { seed: 1 });
    const q = d.names.length;
    assert.deepEqual(
      r.dropped.map((x) => x.column),
      [d.names.indexOf("LipinksiFailures"), q + d.names.indexOf("LipinksiFailures")],
      "the all-missing column and its copy",
    );
    assert.ok(r.selected.includes(a) && r.selected.includes(b), `selected ${r.selected.map((j) => (j < q ? d.names[j] : `noise ${d.names[j - q]}`))}`);
    assert.ok(r.selected.length < columns.length - 2);
    const keptNoise = r.selected.filter((j) => j >= q).length;
    assert.ok(keptNoise <= 0.25 * (q - 1), `${keptNoise} of ${q - 1} noise columns kept`);
    // the two signal columns rank above every noise column
    const worstSignal = Math.max(r.ranking.indexOf(a), r.ranking.indexOf(b));
    const bestNoise = Math.min(...r.ranking.filter((j) => j >= q).map((j) => r.ranking.indexOf(j)));
    assert.ok(worstSignal < bestNoise);
  });
}

test("EPAFHM-constitutional with the EPAFHM endpoint: a smaller set, the same for the same seed, close to caret's", async () => {
  const d = await epafhm();
  const endpoint: RfeEndpoint = { kind: "regression", values: d.y };
  const progress: number[] = [];
  const r1 = rfe(d.columns, endpoint, { seed: 1, onProgress: (f) => progress.push(f) });
  const r2 = rfe(d.columns, endpoint, { seed: 1 });
  const clean = d.names.length - 1; // LipinksiFailures (sic) is empty
  assert.equal(r1.ranking.length, clean);
  assert.ok(r1.selected.length < clean, `${r1.selected.length} of ${clean}`);
  assert.ok(r1.selected.length >= Math.round(0.3 * clean));
  assert.deepEqual(r1.selected, r2.selected);
  assert.deepEqual(r1.performance, r2.performance);
  assert.ok(r1.imputed > 0);
  assert.equal(progress.at(-1), 1);
  assert.deepEqual(
    r1.performance.map((p) => p.size),
    [...subsetSizes(clean), clean],
  );
  assert.ok(r1.performance.every((p) => p.performance > 0 && Number.isFinite(p.performance)));
  const best = r1.performance.filter((p) => p.candidate).reduce((a, b) => (b.performance < a.performance ? b : a));
  assert.equal(r1.bestSize, best.size);
  // worker threads (resamples as jobs of a pool of two): the same result
  const pool = servicePool(2, { rdkit: false });
  const rp = await rfeOnResamples(d.columns, endpoint, { seed: 1 }, (input) => pool.run("rfe.resample", input)).finally(() => pool.close());
  assert.deepEqual(rp.selected, r1.selected);
  assert.deepEqual(rp.performance, r1.performance);
  // caret's two most important columns are kept, its three least important dropped
  const names = r1.selected.map((j) => d.names[j]);
  for (const n of ["XLogP", "nB"]) assert.ok(names.includes(n), `${n} in ${names}`);
  for (const n of ["naAromAtom", "nAromBond", "LipinskiFailures"]) assert.ok(!names.includes(n), `${n} not in ${names}`);
  // another seed may choose differently but still a smaller set
  const r3 = rfe(d.columns, endpoint, { seed: 7, resamples: 3 });
  assert.ok(r3.selected.length < clean);
});

test("EPAFHM with del_missing: rows with missing values are dropped, nothing imputed", async () => {
  const d = await epafhm();
  const usable = d.columns.filter((c) => !c.every(Number.isNaN));
  const complete = d.y.filter((_, i) => usable.every((c) => !Number.isNaN(c[i]!))).length;
  assert.ok(complete < d.y.length);
  const r = rfe(d.columns, { kind: "regression", values: d.y }, { seed: 1, delMissing: true, resamples: 3 });
  assert.equal(r.rows.length, complete);
  assert.equal(r.imputed, 0);
  assert.ok(r.selected.length < usable.length);
});

test("hamster carcinogenicity, CDK constitutional + topological descriptors: a smaller set, the same for the same seed", async () => {
  const rdkit = await loadRDKit();
  const data = readSmilesCsv(`${DATA}lazar/test/data/hamster_carcinogenicity.csv`);
  const values = data.map((e) => computeDescriptors(rdkit, e.smiles, { pcTypes: ["constitutional", "topological"], lib: "cdk" }));
  const names = [...new Set(values.flatMap((v) => (v === null ? [] : [...v.keys()])))];
  const rows = data.map((_, i) => i).filter((i) => values[i] !== null);
  const columns = names.map((n) => rows.map((i) => values[i]!.get(n) ?? NaN));
  const endpoint: RfeEndpoint = { kind: "classification", labels: rows.map((i) => data[i]!.value) };
  const r1 = rfe(columns, endpoint, { seed: 1 });
  const r2 = rfe(columns, endpoint, { seed: 1 });
  assert.equal(r1.kind, "classification");
  assert.equal(r1.metric, "Accuracy");
  assert.ok(r1.dropped.length > 0, "constant descriptors on 85 compounds");
  const clean = names.length - r1.dropped.length;
  assert.ok(r1.selected.length < clean && r1.selected.length >= Math.round(0.3 * clean), `${r1.selected.length} of ${clean}`);
  assert.deepEqual(r1.selected, r2.selected);
  for (const p of r1.performance) assert.ok(p.performance > 0.3 && p.performance <= 1);
  // the selection is the head of the ranking
  assert.deepEqual(r1.selected, r1.ranking.slice(0, r1.bestSize));
});

test("worker threads: aborting rejects and stops the workers", async () => {
  const d = await epafhm();
  const controller = new AbortController();
  const pool = servicePool(2, { rdkit: false });
  const run = rfeOnResamples(d.columns, { kind: "regression", values: d.y }, { seed: 1, resamples: 6, signal: controller.signal, onProgress: () => controller.abort(new Error("stop")) }, (input) => pool.run("rfe.resample", input, { signal: controller.signal }));
  await assert.rejects(run, /stop/).finally(() => pool.close());
});

test("bad inputs are named", () => {
  const col = Array.from({ length: 20 }, (_, i) => i);
  const values = col.map((v) => v * 2);
  assert.throws(() => rfe([col.slice(0, 9)], { kind: "regression", values: values.slice(0, 9) }), (e: unknown) => e instanceof RfeInputError && /fewer than 10/.test(e.message));
  assert.throws(() => rfe([], { kind: "regression", values }), (e: unknown) => e instanceof RfeInputError && /no numeric features/.test(e.message));
  assert.throws(() => rfe([col.map(() => 1)], { kind: "regression", values }), (e: unknown) => e instanceof RfeInputError && /no numeric feature left/.test(e.message));
  assert.throws(() => rfe([col], { kind: "classification", labels: col.map(() => "a") }), (e: unknown) => e instanceof RfeInputError && /single class/.test(e.message));
  const withMissingEndpoint = values.map((v, i) => (i < 12 ? null : v));
  assert.throws(() => rfe([col], { kind: "regression", values: withMissingEndpoint }), (e: unknown) => e instanceof RfeInputError && /\(8\)/.test(e.message));
});
