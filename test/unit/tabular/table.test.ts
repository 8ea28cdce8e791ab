/**
 * Tests of src/tabular/table.ts (structure column, entries, feature typing, warnings) on the
 * reference files and small hand-written tables. Expected values are read from the files here
 * (line numbers, cells) or follow from the rules in the module comment and from chemistry
 * (e.g. `c1nccc1` is pyrrole without its N–H, which has no valid Kekulé form).
 */
import { DATA as SHARED_DATA } from "../../helpers/data.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadRDKit } from "../../../src/chem/rdkit.ts";
import { NON_STANDARD_INCHI, parseStructure, type StructureResult } from "../../../src/chem/structure.ts";
import { BadRequest } from "../../../src/errors.ts";
import { parseCsv } from "../../../src/tabular/csv.ts";
import {
  assembleDataset,
  findStructureColumn,
  headerWhenAllParsed,
  prepareTable,
  summarise,
  type DatasetContent,
  type Warning,
} from "../../../src/tabular/table.ts";

const DATA = SHARED_DATA.replace(/\/$/, "");
const LAZAR = `${DATA}/lazar/test/data`;
const rdkit = await loadRDKit();
const read = (path: string): string => readFileSync(path.startsWith("/") ? path : `${LAZAR}/${path}`, "utf8");

function load(text: string, title = "t"): DatasetContent {
  const prepared = prepareTable(parseCsv(text));
  const parsed = new Map<string, StructureResult>(prepared.structures.map((s) => [s, parseStructure(rdkit, s)]));
  return assembleDataset(prepared, parsed, title);
}
const ofKind = (d: DatasetContent, kind: Warning["kind"]): Warning[] => d.warnings.filter((w) => w.kind === kind);
/** Physical lines of a file without quotes (1-based index = file line). */
const fileLines = (text: string): string[] => ["", ...text.split(/\r?\n/)];

function throwsBadRequest(fn: () => unknown, check: (e: BadRequest) => void): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof BadRequest, `expected BadRequest, got ${String(e)}`);
    check(e);
    return true;
  });
}

test("findStructureColumn: exact SMILES/InChI first, then names ending in smiles/inchi, else column 1", () => {
  const cases: [string[], number, "header" | "first-column"][] = [
    [["SMILES", "Hamster Carcinogenicity"], 0, "header"],
    [["ID", "Smiles"], 1, "header"],
    [["INCHI"], 0, "header"],
    [["STRUCTURE_SMILES", "LC50_mmol"], 0, "header"],
    [["structure_smiles", "x"], 0, "header"],
    [["Canonical SMILES", "Mutagenicity"], 0, "header"],
    [["ID", "STRUCTURE_SMILES", "SMILES"], 2, "header"], // exact beats loose
    [["ID", "InChI", "SMILES"], 1, "header"], // first exact
    [["ID", "Canonical_Smiles", "structure_smiles"], 1, "header"], // first loose
    [["mol_id", "activity"], 0, "first-column"],
    [["SMILES_ID", "nonsmiles", "inchikey"], 0, "first-column"],
  ];
  for (const [header, index, matchedBy] of cases) assert.deepEqual(findStructureColumn(header), { index, matchedBy }, header.join("|"));
});

test("findStructureColumn on real headers", () => {
  const header = (path: string): string[] => parseCsv(read(path)).header.slice();
  const hansen = header(`${DATA}/lazar/data/parts/hansen-original.csv`);
  assert.equal(findStructureColumn(hansen).index, hansen.indexOf("Canonical_Smiles"));
  const delaney = header(`${DATA}/moleculenet/delaney-processed.csv`);
  assert.equal(findStructureColumn(delaney).index, delaney.indexOf("smiles"));
  assert.ok(delaney.indexOf("smiles") > 0);
});

test("hamster_carcinogenicity.csv: 85 entries, one nominal true/false feature", () => {
  const text = read("hamster_carcinogenicity.csv");
  const d = load(text, "hamster_carcinogenicity");
  assert.equal(d.title, "hamster_carcinogenicity");
  assert.equal(d.structureColumn, "SMILES");
  assert.equal(d.entries.length, 85);
  assert.deepEqual(d.features, [
    { name: "Hamster Carcinogenicity", column: 1, nominal: true, numeric: false, acceptValues: ["false", "true"] },
  ]);
  // 45 true / 40 false (SOURCES.md), and each value is the file's cell on the entry's line.
  assert.equal(d.entries.filter((e) => e.values[0] === "true").length, 45);
  assert.equal(d.entries.filter((e) => e.values[0] === "false").length, 40);
  const lines = fileLines(text);
  for (const e of d.entries) assert.equal(e.values[0], lines[e.line]?.split(",")[1]);
  assert.equal(ofKind(d, "unparseable-structure").length, 0);
});

test("multicolumn.csv: six typed features, padded cells, the pyrrole row, duplicates", () => {
  const text = read("multicolumn.csv");
  const lines = fileLines(text).map((l) => l.split(",").map((c) => c.trim()));
  const d = load(text);
  assert.deepEqual(d.features.map((f) => f.name), lines[1]?.slice(1));
  const byName = new Map(d.features.map((f) => [f.name, f]));
  const type = (n: string): [boolean, boolean, readonly string[]] | undefined => {
    const f = byName.get(n);
    return f && [f.nominal, f.numeric, f.acceptValues];
  };
  // Values of the seven rows (lines 2–8).
  assert.deepEqual(type("Hamster Carcinogenicity"), [true, true, ["0", "1"]]); // 1,1,1,0,1,1,1
  assert.deepEqual(type("numeric feature"), [false, true, []]); // 1,2,3,4,2,2,(empty): four values
  assert.deepEqual(type("classification"), [true, false, ["false", "true"]]);
  assert.deepEqual(type("mixed"), [true, false, ["4", "5", "7.5", "false", "true"]]);
  assert.deepEqual(type("string"), [true, false, ["test", "test_2"]]);
  assert.deepEqual(type("regression"), [false, true, []]); // seven distinct numbers
  // Line 8: c1nccc1 (pyrrole written without [nH]) is read as pyrrole, as OpenBabel did.
  assert.equal(lines[8]?.[0], "c1nccc1");
  assert.equal(ofKind(d, "unparseable-structure").length, 0);
  assert.deepEqual(d.entries.map((e) => e.line), [2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(d.entries[0]?.values, lines[2]?.slice(1));
  // Lines 4/6 and 5/7 repeat the same SMILES.
  assert.equal(lines[4]?.[0], lines[6]?.[0]);
  assert.equal(lines[5]?.[0], lines[7]?.[0]);
  const dups = ofKind(d, "duplicate-structure");
  assert.deepEqual(dups.map((w) => w.lines), [[4, 6], [5, 7]]);
  assert.match(dups[0]?.message ?? "", /^Duplicate structure InChI=1S\/.* at lines 4, 6 \(all rows kept; make sure the measurements are independent\)$/);
  assert.equal(d.compounds, 5);
  const mixed = ofKind(d, "mixed-column");
  assert.deepEqual(mixed.map((w) => w.column), ["mixed"]);
  // The only empty cells are on line 8, in three columns.
  const missing = ofKind(d, "missing-values");
  assert.deepEqual(missing.map((w) => [w.column, w.lines, w.count]), [["numeric feature", [8], 1], ["mixed", [8], 1], ["string", [8], 1]]);
});

test("EPAFHM.csv: quoted header, empty values → one missing-values warning", () => {
  const text = read("EPAFHM.csv");
  const d = load(text);
  assert.equal(d.structureColumn, "STRUCTURE_SMILES");
  assert.deepEqual(d.features.map((f) => [f.name, f.nominal, f.numeric]), [["LC50_mmol", false, true]]);
  const emptyLines = fileLines(text).flatMap((l, i) => (i > 1 && l.endsWith(",") ? [i] : []));
  assert.ok(emptyLines.length > 0);
  const missing = ofKind(d, "missing-values");
  assert.equal(missing.length, 1);
  assert.equal(missing[0]?.column, "LC50_mmol");
  assert.equal(missing[0]?.count, emptyLines.length);
  assert.deepEqual(missing[0]?.lines, emptyLines);
  assert.equal(d.entries.length + ofKind(d, "unparseable-structure").length, 617);
  const line4 = d.entries.find((e) => e.line === 4);
  assert.deepEqual(line4?.values, [null]);
});

test("input_53.tsv: tab-separated, structure in column 2, ID column becomes a nominal feature", () => {
  const text = read("input_53.tsv");
  const d = load(text);
  assert.equal(d.structureColumn, "Smiles");
  const ids = new Set(fileLines(text).slice(2).filter((l) => l !== "").map((l) => l.split("\t")[0]));
  assert.deepEqual(d.features.map((f) => [f.name, f.column, f.nominal, f.numeric]), [["ID", 0, true, false]]);
  assert.equal(d.features[0]?.acceptValues.length, ids.size);
  assert.equal(d.entries.length + ofKind(d, "unparseable-structure").length, 53);
});

test("wrong_dataset.csv: no usable structure → BadRequest with the first failures as causes", () => {
  throwsBadRequest(
    () => load(read("wrong_dataset.csv")),
    (e) => {
      assert.match(e.message, /^no usable row: none of the 7 structures in column 'SMILES' could be parsed/);
      const causes = e.details.causes ?? [];
      assert.ok(causes.length >= 3 && causes.length <= 7);
      assert.equal(causes[0]?.details.line, 2);
      assert.match(causes[0]?.message ?? "", /Tost/);
    },
  );
});

test("hamster_carcinogenicity_with_errors.csv: every kind of row problem", () => {
  const text = read("hamster_carcinogenicity_with_errors.csv");
  const lines = fileLines(text);
  const d = load(text);
  // Invalid SMILES: N with 4 bonds in C1(N#C#N#N=1)N, neutral O with a triple bond (C#O),
  // aromatic atoms outside a ring (OccNN), and prose.
  const bad = ofKind(d, "unparseable-structure").map((w) => w.lines[0]);
  assert.deepEqual(bad, [6, 25, 35, 53]);
  assert.deepEqual(bad.map((l) => lines[l ?? 0]?.split(",")[0]), ["C1(N#C#N#N=1)N", "C#O", "OccNN", "stupid error"]);
  assert.equal(d.entries.length, 87 - 4);
  // Missing: empty (line 18), a space (line 26), NA (line 46).
  const missing = ofKind(d, "missing-values");
  assert.deepEqual(missing.map((w) => [w.count, w.lines]), [[3, [18, 26, 46]]]);
  assert.equal(lines[46]?.split(",")[1], "NA");
  // Identical SMILES on lines 2/3 and 29/30.
  const dupLines = ofKind(d, "duplicate-structure").map((w) => w.lines);
  assert.deepEqual(dupLines.filter((l) => l[0] === 2 || l[0] === 29), [[2, 3], [29, 30]]);
  assert.deepEqual(d.features[0]?.acceptValues, ["0", "1", "TRUE"]);
  assert.equal(d.features[0]?.numeric, false);
  const mixed = ofKind(d, "mixed-column");
  assert.equal(mixed.length, 1);
  assert.deepEqual(mixed[0]?.lines, [43]); // CN(N)C=O,TRUE
  assert.match(mixed[0]?.message ?? "", /TRUE at line 43/);
});

test("batch_prediction_inchi_small.csv: non-standard InChIs are rejected with the message", () => {
  throwsBadRequest(
    () => load(read("batch_prediction_inchi_small.csv")),
    (e) => {
      assert.match(e.message, /none of the 3 structures in column 'INCHI'/);
      const causes = e.details.causes ?? [];
      assert.deepEqual(causes.map((c) => c.details.line), [2, 3, 4]);
      for (const c of causes) assert.ok(c.message.includes(NON_STANDARD_INCHI), c.message);
    },
  );
  // Mixed with a usable row, the non-standard rows are skipped with the message.
  const d = load('INCHI\n"InChI=1/C2H4O/c1-2-3/h2H,1H3"\nInChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3\n');
  assert.equal(d.entries.length, 1);
  // the standard InChI (ethanol) is decoded to a structure: RDKit reads it back to that InChI
  const back = parseStructure(rdkit, d.entries[0]!.compound.smiles!);
  assert.ok(back.ok && back.value.inchi === "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3");
  const w = ofKind(d, "unparseable-structure");
  assert.deepEqual(w.map((x) => x.lines), [[2]]);
  assert.ok(w[0]?.message.includes(NON_STANDARD_INCHI));
  assert.deepEqual(d.features, []); // a compounds-only file
});

test("ragged rows: short rows padded, long rows skipped unless the extra cells are empty", () => {
  const d = load("SMILES,a,b\nCCO,1\nCC,1,2,3\nC,5,6,\nCCC,7,8\n");
  assert.deepEqual(d.entries.map((e) => [e.line, ...e.values]), [[2, "1", null], [4, "5", "6"], [5, "7", "8"]]);
  const w = ofKind(d, "wrong-cell-count");
  assert.deepEqual(w.map((x) => x.lines[0]), [2, 3, 4]);
  assert.match(w[0]?.message ?? "", /has 2 cells, expected 3.*treated as empty/);
  assert.match(w[1]?.message ?? "", /has 4 cells, expected 3; row skipped/);
  assert.match(w[2]?.message ?? "", /extra cells are empty/);
});

test("missing tokens: empty, NA, NaN, N/A (case-sensitive); empty column dropped", () => {
  const d = load("SMILES,v,w,blank\nCCO,NA,na,\nCC,NaN,x,\nC,N/A,y,NA\nCCC,1,z,\n");
  assert.deepEqual(d.features.map((f) => f.name), ["v", "w"]);
  assert.deepEqual(d.entries.map((e) => e.values), [[null, "na"], [null, "x"], [null, "y"], ["1", "z"]]);
  const empty = ofKind(d, "empty-column");
  assert.deepEqual(empty.map((w) => w.column), ["blank"]);
  assert.deepEqual(ofKind(d, "missing-values").map((w) => [w.column, w.count, w.lines]), [["v", 3, [2, 3, 4]]]);
});

test("missing-values lists at most 100 lines and counts all", () => {
  const rows = Array.from({ length: 150 }, (_, i) => `${"C".repeat((i % 5) + 1)},${i % 2 === 0 ? "" : "1"}`);
  const d = load(`SMILES,v\n${rows.join("\n")}\n`);
  const m = ofKind(d, "missing-values")[0];
  assert.equal(m?.count, 75);
  assert.equal(m?.lines.length, 75);
  const many = load(`SMILES,v\nCCO,1\n${Array.from({ length: 250 }, () => "CC,").join("\n")}\n`);
  const mm = ofKind(many, "missing-values")[0];
  assert.equal(mm?.count, 250);
  assert.equal(mm?.lines.length, 100);
  assert.deepEqual(mm?.lines.slice(0, 2), [3, 4]);
});

test("duplicates are found by InChI, not by spelling; structures are parsed once per distinct cell", () => {
  const prepared = prepareTable(parseCsv("SMILES,v\nCCO,1\nCC,2\nOCC,3\nCCO,4\n\nC,5\n"));
  assert.deepEqual(prepared.structures, ["CCO", "CC", "OCC", "C"]);
  assert.deepEqual(structuredClone(prepared), prepared); // can cross a worker boundary
  const parsed = new Map(prepared.structures.map((s) => [s, parseStructure(rdkit, s)] as const));
  const d = assembleDataset(prepared, parsed, "dups");
  assert.equal(d.compounds, 3);
  assert.deepEqual(ofKind(d, "duplicate-structure").map((w) => [w.lines, w.count]), [[[2, 4, 5], 3]]);
  assert.deepEqual(d.entries.map((e) => e.line), [2, 3, 4, 5, 7]);
});

test("empty structure cells are skipped with a warning", () => {
  const d = load("SMILES,v\n,1\nCCO,2\n");
  assert.deepEqual(ofKind(d, "unparseable-structure").map((w) => [w.lines, w.column]), [[[2], "SMILES"]]);
  assert.equal(d.entries.length, 1);
});

test("no usable row because every row was skipped", () => {
  throwsBadRequest(
    () => load("SMILES,v\nCCO,1,2\nCC,2,3\n"),
    (e) => {
      assert.match(e.message, /all 2 data rows were skipped/);
      assert.equal(e.details.causes?.length, 2);
    },
  );
});

test("headerWhenAllParsed gives assembleDataset's header when every structure parses, and null otherwise", () => {
  // The upload writes the header from the typing over all rows when no structure failed (then
  // it is final); it must be what assembleDataset says. EPAFHM and kazius parse completely
  // (missing values, duplicates), as does multicolumn (ragged rows, mixed column); the "with errors"
  // file has rows whose structures fail.
  for (const file of ["EPAFHM.csv", "kazius.csv", "hamster_carcinogenicity.csv", "multicolumn.csv", "hamster_carcinogenicity_with_errors.csv"]) {
    const prepared = prepareTable(parseCsv(read(file)));
    const results = prepared.structures.map((s) => parseStructure(rdkit, s));
    const full = assembleDataset(prepared, new Map(prepared.structures.map((s, i) => [s, results[i]!])), file);
    const quick = headerWhenAllParsed(summarise(prepared).summary, results, file);
    if (results.every((r) => r.ok)) {
      const { entries, ...header } = full;
      assert.ok(quick !== null, file);
      assert.deepEqual(quick, header, file);
      assert.equal(quick.entryCount, entries.length);
    } else assert.equal(quick, null, file);
  }
  // Not every file is on one side of the branch.
  assert.ok(!prepareTable(parseCsv(read("hamster_carcinogenicity_with_errors.csv"))).structures.every((s) => parseStructure(rdkit, s).ok));
  assert.ok(prepareTable(parseCsv(read("multicolumn.csv"))).structures.every((s) => parseStructure(rdkit, s).ok));
});
