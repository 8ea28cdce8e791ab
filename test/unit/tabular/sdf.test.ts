/**
 * The SD reader (src/tabular/sdf.ts) and an SD file's way through table.ts (records, tags,
 * warnings that name records and their lines), on small SD texts written here by hand and on the
 * reference SD files.
 *
 * Expected values are golden values written by hand from the texts: record numbers count the
 * records in the literal, lines are the physical lines of the literal (the `lines` helper
 * numbers them so that a reader can check them), tags and values are read off the literal.
 * InChIs: PubChem (ethanol CID 702, methanol CID 887, acetic acid CID 176). Reference-file counts:
 * `$$$$` lines and `>  <…>` headers counted with grep (fixtures/data/SOURCES.md gives the
 * record counts and tags).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DATA } from "../../helpers/data.ts";
import { loadRDKit } from "../../../src/chem/rdkit.ts";
import { parseMolfile, type StructureResult } from "../../../src/chem/structure.ts";
import { BadRequest, PayloadTooLarge } from "../../../src/errors.ts";
import { MAX_SD_CELLS, MOLFILE_COLUMN, parseSdf, sdTable, type SdFile } from "../../../src/tabular/sdf.ts";
import { assembleDataset, headerWhenAllParsed, prepareTable, summarise, type DatasetContent, type Warning } from "../../../src/tabular/table.ts";
import { v2000 } from "../../helpers/molblock.ts";

const rdkit = await loadRDKit();

const ETHANOL = "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3";
const METHANOL = "InChI=1S/CH4O/c1-2/h2H,1H3";
const ACETIC_ACID = "InChI=1S/C2H4O2/c1-2(3)4/h1H3,(H,3,4)";

const ethanol = (title = "ethanol"): string[] => v2000(title, [["C", 0, 0], ["C", 1.299, 0.75], ["O", 2.598, 0]], [[1, 2, 1], [2, 3, 1]]);
const methanol = (title = "methanol"): string[] => v2000(title, [["C", 0, 0], ["O", 1.299, 0.75]], [[1, 2, 1]]);
const acetic = (title = "acetic acid"): string[] => v2000(title, [["C", 0, 0], ["C", 1.299, 0.75], ["O", 2.598, 0], ["O", 1.299, 2.25]], [[1, 2, 1], [2, 3, 1], [2, 4, 2]]);

/** Ethanol as V3000 (the CTAB block written by hand after the CTfile specification). */
const ETHANOL_V3000 = [
  "ethanol V3000",
  "  handmade",
  "",
  "  0  0  0     0  0            999 V3000",
  "M  V30 BEGIN CTAB",
  "M  V30 COUNTS 3 2 0 0 0",
  "M  V30 BEGIN ATOM",
  "M  V30 1 C 0 0 0 0",
  "M  V30 2 C 1.299 0.75 0 0",
  "M  V30 3 O 2.598 0 0 0",
  "M  V30 END ATOM",
  "M  V30 BEGIN BOND",
  "M  V30 1 1 1 2",
  "M  V30 2 1 2 3",
  "M  V30 END BOND",
  "M  V30 END CTAB",
  "M  END",
];

/** Lines of a literal joined by `eol`, and the 1-based line of a text among them (to check the counts in the comments). */
const join = (lines: readonly string[], eol = "\n"): string => lines.join(eol) + eol;
const lineOf = (lines: readonly string[], text: string): number => lines.indexOf(text) + 1;

function load(text: string): DatasetContent {
  const sd = parseSdf(text);
  const prepared = prepareTable(sdTable(sd), sd);
  const parsed = new Map<string, StructureResult>(prepared.structures.map((s) => [s, parseMolfile(rdkit, s)]));
  return assembleDataset(prepared, parsed, "t");
}
const ofKind = (d: DatasetContent, kind: Warning["kind"]): Warning[] => d.warnings.filter((w) => w.kind === kind);

test("V2000 records with CRLF: tags in order of first appearance, values, a value of two lines, an empty value, the last record without $$$$", () => {
  const lines = [
    ...ethanol(), //                         record 1: lines 1–10
    ">  <activity>", "1.5", "", //           11–13
    ">  <name>", "ethyl", "alcohol", "", //  14–17
    "$$$$", //                               18
    ...methanol(), //                        record 2: lines 19–26
    "> 7 <name> (ID-7)", "methyl alcohol", "", // 27–29
    ">  <activity>", "", //                  30–31: an empty value
    "$$$$", //                               32
    ...acetic(), //                          record 3: lines 33–42, no $$$$ at the end
    ">  <note>", "weak acid", //             43–44
  ];
  const sd = parseSdf(join(lines, "\r\n"));
  assert.deepEqual(sd.tags, ["activity", "name", "note"]);
  assert.deepEqual(sd.records.map((r) => [r.number, r.line]), [[1, 1], [2, 19], [3, 33]]);
  assert.deepEqual(sd.records.map((r) => Object.fromEntries([...r.values].map(([k, v]) => [sd.tags[k], v]))), [
    { activity: "1.5", name: "ethyl\nalcohol" },
    { name: "methyl alcohol", activity: "" },
    { note: "weak acid" },
  ]);
  // The molblock is the record's lines 1 to M  END, joined with LF (no CR left).
  assert.equal(sd.records[0]!.molblock, ethanol().join("\n"));
  assert.deepEqual(sd.warnings, []);
  const table = sdTable(sd);
  assert.deepEqual(table.header, [MOLFILE_COLUMN, "activity", "name", "note"]);
  assert.deepEqual(table.rows.map((r) => [r.line, ...r.cells.slice(1)]), [
    [1, "1.5", "ethyl\nalcohol", ""],
    [19, "", "methyl alcohol", ""],
    [33, "", "", "weak acid"],
  ]);
});

test("LF, CR and CRLF line ends read the same; a BOM is ignored; blank lines after the last $$$$ are no record", () => {
  const lines = [...ethanol(), ">  <a>", "1", "", "$$$$", ...methanol(), ">  <a>", "2", "", "$$$$", "", ""];
  const lf = parseSdf(join(lines));
  assert.equal(lf.records.length, 2);
  assert.deepEqual(parseSdf(join(lines, "\r")), lf);
  assert.deepEqual(parseSdf(`\uFEFF${join(lines, "\r\n")}`), lf);
});

test("a title line that looks like a data header is the title; blank title lines are kept in the molblock", () => {
  const lines = [...ethanol(">  <activity>"), ">  <activity>", "3", "", "$$$$", ...methanol("")];
  const sd = parseSdf(join(lines));
  assert.deepEqual(sd.tags, ["activity"]);
  assert.equal(sd.records[0]!.molblock.split("\n")[0], ">  <activity>");
  assert.equal(sd.records[0]!.values.get(0), "3");
  assert.equal(sd.records[1]!.line, 15);
  assert.equal(sd.records[1]!.molblock, methanol("").join("\n"));
  const d = load(join(lines));
  assert.deepEqual(d.entries.map((e) => [e.line, e.compound.inchi]), [[1, ETHANOL], [15, METHANOL]]);
});

test("problems with data items: one warning per record naming the record, its line and the lines at fault; the records are kept", () => {
  const lines = [
    ...ethanol(), //                              record 1: lines 1–10
    ">  <a>", "1", "", //                         11–13
    ">  <a>", "2", "", //                         14–16: a repeated tag
    "$$$$", //                                    17
    ...methanol(), //                             record 2: lines 18–25
    "> 12", "lost", "", //                        26–28: a header without <name>
    "stray text", //                              29: a line outside any data item
    ">  <b>", "x", //                             30–31, ended by the next header (no blank line)
    ">  <a>", "4", //                             32–33
    "$$$$", //                                    34
  ];
  const sd = parseSdf(join(lines));
  assert.deepEqual(sd.tags, ["a", "b"]);
  assert.deepEqual(sd.records.map((r) => [...r.values.values()]), [["1"], ["x", "4"]]);
  assert.deepEqual(sd.warnings, [
    { kind: "sd-data-item", message: "Record 1 (line 1): the SD tag 'a' occurs again at line 14; the first value is used", lines: [1] },
    {
      kind: "sd-data-item",
      message: "Record 2 (line 18): the data header at line 26 ('> 12') names no field in <…>; its value is ignored; line 29 is not part of a data item (a data item starts with a line '>  <name>'); ignored",
      lines: [18],
    },
  ]);
  const d = load(join(lines));
  assert.deepEqual(d.entries.map((e) => [e.line, e.values]), [[1, ["1", null]], [18, ["4", "x"]]]);
  assert.deepEqual(ofKind(d, "sd-data-item").map((w) => w.lines), [[1], [18]]);
});

test("V3000 and V2000 records in one file", () => {
  const lines = [...ETHANOL_V3000, ">  <pIC50>", "4.2", "", "$$$$", ...acetic(), ">  <pIC50>", "5.0", "", "$$$$"];
  const d = load(join(lines));
  // Record 2 starts after the 17 V3000 lines, 3 data lines and the $$$$: line 22.
  assert.deepEqual(d.entries.map((e) => [e.line, e.compound.inchi, e.values]), [[1, ETHANOL, ["4.2"]], [22, ACETIC_ACID, ["5.0"]]]);
  assert.equal(d.structureColumn, MOLFILE_COLUMN);
  assert.deepEqual(d.warnings, []);
});

test("malformed records are reported with their number, line and title, and the good records kept", () => {
  const tooManyAtoms = v2000("chain", Array.from({ length: 301 }, (_, i) => ["C", i * 1.5, 0] as const), []);
  const lines = [
    ...ethanol(), ">  <y>", "1", "", "$$$$", //                                       record 1: lines 1–14
    ...v2000("bad counts", [["C", 0, 0], ["O", 1.3, 0.75]], [[1, 2, 1]], [5, 1]), //  record 2: lines 15–22, counts say 5 atoms
    ">  <y>", "2", "", "$$$$", //                                                      23–26
    "truncated", "  handmade", "", "  2  1  0  0  0  0  0  0  0  0999 V2000", //      record 3: lines 27–30, no atoms, no M  END
    ">  <y>", "3", "", "$$$$", //                                                      31–34
    ...v2000("unknown element", [["Xq", 0, 0], ["C", 1.3, 0.75]], [[1, 2, 1]]), //    record 4: lines 35–42
    ">  <y>", "4", "", "$$$$", //                                                      43–46
    ...tooManyAtoms, "$$$$", //                                                        record 5: lines 47–352, 353
    "", "$$$$", //                                                                     record 6: line 354, all blank
    ...methanol(), ">  <y>", "7", "", "$$$$", //                                      record 7: lines 356–…
  ];
  assert.equal(lineOf(lines, "bad counts"), 15);
  assert.equal(lineOf(lines, "truncated"), 27);
  assert.equal(lineOf(lines, "unknown element"), 35);
  assert.equal(lineOf(lines, "chain"), 47);
  assert.equal(lineOf(lines, "methanol"), 356);
  const d = load(join(lines));
  assert.deepEqual(d.entries.map((e) => [e.line, e.compound.inchi, e.values]), [[1, ETHANOL, ["1"]], [356, METHANOL, ["7"]]]);
  assert.deepEqual(
    ofKind(d, "unparseable-structure").map((w) => [w.lines, w.message]),
    [
      [[15], "Record 2 (line 15) ('bad counts'): cannot use the molfile: molfile inconsistent: the counts line gives 5 atoms and 1 bonds, but only 3 atom and bond lines follow; record skipped"],
      [[27], "Record 3 (line 27) ('truncated'): cannot use the molfile: molfile could not be parsed (no 'M  END' line); record skipped"],
      [[35], "Record 4 (line 35) ('unknown element'): cannot use the molfile: molfile could not be parsed; record skipped"],
      [[47], "Record 5 (line 47) ('chain'): cannot use the molfile: structure too large: the molfile has 301 atoms other than hydrogen (the limit is 300); record skipped"],
      [[354], "Record 6 (line 354) is empty (no molfile); record skipped"],
    ],
  );
  // The tag's values are typed over the kept records only: 1 and 7.
  assert.deepEqual(d.features.map((f) => [f.name, f.nominal, f.numeric, f.acceptValues]), [["y", true, true, ["1", "7"]]]);
});

test("record-named column warnings: missing values and duplicates name records and their lines", () => {
  const lines = [
    ...ethanol(), ">  <y>", "1", "", "$$$$", //            record 1: lines 1–14
    ...methanol(), ">  <y>", "", "", "$$$$", //           record 2: lines 15–26, y empty
    ...ethanol("again"), ">  <y>", "NA", "", "$$$$", //   record 3: lines 27–40, y missing (NA)
  ];
  const d = load(join(lines));
  assert.deepEqual(d.warnings.map((w) => [w.kind, w.message, w.lines]), [
    ["duplicate-structure", `Duplicate structure ${ETHANOL} at records 1 (line 1), 3 (line 27) (all records kept; make sure the measurements are independent)`, [1, 27]],
    ["missing-values", "SD tag 'y' has 2 missing values (records 2 (line 15), 3 (line 27))", [15, 27]],
  ]);
  assert.equal(d.compounds, 2);
  // The header the upload writes when every structure parsed says the same.
  const sd = parseSdf(join(lines));
  const prepared = prepareTable(sdTable(sd), sd);
  const results = prepared.structures.map((s) => parseMolfile(rdkit, s));
  const header = headerWhenAllParsed(summarise(prepared).summary, results, "t");
  assert.deepEqual(header?.warnings, d.warnings);
});

test("no readable record → BadRequest naming records as causes", () => {
  const lines = [...v2000("bad", [["C", 0, 0]], [], [2, 0]), "$$$$", "", "$$$$"];
  assert.throws(
    () => load(join(lines)),
    (e: unknown) => {
      assert.ok(e instanceof BadRequest);
      assert.equal(e.message, "no usable record: none of the 2 records has a molfile that could be read");
      assert.match(e.details.causes![0]!.message, /^Record 1 \(line 1\) \('bad'\): cannot use the molfile: molfile inconsistent/);
      return true;
    },
  );
});

test("an empty file, or one of blank lines only, is a BadRequest at line 1", () => {
  for (const text of ["", "\n\n  \n"]) {
    assert.throws(() => parseSdf(text), (e: unknown) => e instanceof BadRequest && e.details.line === 1 && /no SD record/.test(e.message));
  }
  assert.throws(() => parseSdf(`x\u0000y\n`), (e: unknown) => e instanceof BadRequest && /not text \(SDF expected\)/.test(e.message));
});

test("the table of records × tags is bounded before it is made", () => {
  // 50,001 records × (999 tags + the molfile) = 50,001,000 cells > 50,000,000.
  const sd: SdFile = { tags: Array.from({ length: 999 }, (_, i) => `t${i}`), records: Array.from({ length: 50_001 }, (_, i) => ({ number: i + 1, line: i * 5 + 1, molblock: "x", values: new Map() })), warnings: [] };
  assert.equal(MAX_SD_CELLS, 50_000_000);
  assert.throws(() => sdTable(sd), (e: unknown) => e instanceof PayloadTooLarge && e.message.includes("50,001 records × 1,000 columns (the molfile and 999 distinct tags) = 50,001,000 cells; at most 50,000,000"));
  assert.equal(sdTable({ ...sd, records: sd.records.slice(0, 50_000) }).rows.length, 50_000);
});

test("the reference SD files: records as counted by $$$$ lines, tags as the distinct headers", () => {
  const lazar = `${DATA}lazar/`;
  // [file, `$$$$` lines, a last record after the last $$$$, tags]
  const cases: [string, number, boolean, string[]][] = [
    ["data/parts/cas_4337.sdf", 4337, false, ["Ames test categorisation"]],
    ["test/data/hamster_carcinogenicity.sdf", 85, true, ["ActivityOutcome_CPDBAS_Hamster"]],
    ["test/data/boiling_points.ext.sdf", 277, false, ["Boiling Point"]],
    ["test/data/acetaldehyde.sdf", 1, false, ["ActivityOutcome_CPDBAS_Hamster"]],
  ];
  for (const [file, dollars, trailing, tags] of cases) {
    const text = readFileSync(`${lazar}${file}`, "utf8");
    assert.equal(text.split(/\r?\n/).filter((l) => l === "$$$$").length, dollars, file);
    const sd = parseSdf(text);
    assert.equal(sd.records.length, dollars + (trailing ? 1 : 0), file);
    assert.deepEqual(sd.tags, tags, file);
    assert.deepEqual(sd.warnings, [], file);
  }
  // CPDBAS: many tags; the distinct names of the header lines, in order of first appearance.
  const cpdb = readFileSync(`${lazar}test/data/CPDBAS_v5c_1547_29Apr2008part.sdf`, "utf8");
  const names = [...new Set([...cpdb.matchAll(/^>\s*<([^>]*)>/gm)].map((m) => m[1]!))];
  const sd = parseSdf(cpdb);
  assert.equal(sd.records.length, 100);
  assert.deepEqual(sd.tags, names);
});
