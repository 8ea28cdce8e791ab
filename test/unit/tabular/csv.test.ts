/**
 * Tests of src/tabular/csv.ts (RFC 4180 reading, separator detection, line numbers, errors).
 * Expected values come from the reference files themselves (read naively here where the file has
 * no quotes) or from hand-written inputs.
 */
import { DATA as SHARED_DATA } from "../../helpers/data.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseCsv, detectDelimiter } from "../../../src/tabular/csv.ts";
import { BadRequest } from "../../../src/errors.ts";

const DATA = SHARED_DATA.replace(/\/$/, "");
const LAZAR = `${DATA}/lazar/test/data`;
const read = (name: string): string => readFileSync(`${LAZAR}/${name}`, "utf8");

/** Assert that parsing throws a BadRequest whose message matches and whose details include `at`. */
function rejects(text: string, message: RegExp, at: { line?: number; column?: number } = {}): void {
  assert.throws(
    () => parseCsv(text),
    (e: unknown) => {
      assert.ok(e instanceof BadRequest, `expected BadRequest, got ${String(e)}`);
      assert.match(e.message, message);
      if (at.line !== undefined) assert.equal(e.details.line, at.line, "line");
      if (at.column !== undefined) assert.equal(e.details.column, at.column, "column");
      return true;
    },
  );
}

test("hamster_carcinogenicity.csv: CRLF, padded header, one row per line", () => {
  const text = read("hamster_carcinogenicity.csv");
  assert.ok(!text.includes('"'));
  const lines = text.split("\r\n").filter((l) => l !== "");
  const t = parseCsv(text);
  assert.equal(t.delimiter, ",");
  assert.deepEqual(t.header, ["SMILES", "Hamster Carcinogenicity"]); // file: "SMILES, Hamster Carcinogenicity"
  assert.equal(t.rows.length, lines.length - 1);
  assert.equal(t.rows.length, 85);
  t.rows.forEach((row, i) => {
    assert.equal(row.line, i + 2);
    assert.deepEqual(row.cells, (lines[i + 1] ?? "").split(",").map((c) => c.trim()));
  });
});

test("multicolumn.csv: cells padded with spaces are trimmed", () => {
  const text = read("multicolumn.csv");
  assert.ok(!text.includes('"'));
  const lines = text.split("\n").filter((l) => l !== "");
  const t = parseCsv(text);
  assert.equal(t.header.length, 7);
  assert.deepEqual(t.header, (lines[0] ?? "").split(",").map((c) => c.trim()));
  assert.equal(t.rows.length, 7);
  assert.deepEqual(t.rows[0], { line: 2, cells: ["c1ccccc1NN", "1", "1", "true", "true", "test", "1.1"] });
  assert.deepEqual(t.rows[6], { line: 8, cells: ["c1nccc1", "1", "", "false", "", "", "1.0"] });
});

test("EPAFHM.csv: quoted header and cells, empty values kept as empty cells", () => {
  const text = read("EPAFHM.csv");
  const t = parseCsv(text);
  assert.deepEqual(t.header, ["STRUCTURE_SMILES", "LC50_mmol"]);
  assert.equal(t.rows.length, 617);
  // Line 4 of the file: "CCCCCCCCOC(=O)C1=CC=CC(C(=O)OCCCCCCCC)=C1",
  assert.deepEqual(t.rows[2], { line: 4, cells: ["CCCCCCCCOC(=O)C1=CC=CC(C(=O)OCCCCCCCC)=C1", ""] });
  assert.deepEqual(t.rows[0]?.cells, ["C1=CC(C=O)=CC(OC)=C1OCCCCCC", "1.13E-02"]);
  const emptyInFile = text.split(/\r?\n/).filter((l) => l.endsWith(",")).length;
  assert.equal(t.rows.filter((r) => r.cells[1] === "").length, emptyInFile);
});

test("input_53.tsv: tab separator detected from the header", () => {
  const t = parseCsv(read("input_53.tsv"));
  assert.equal(t.delimiter, "\t");
  assert.deepEqual(t.header, ["ID", "Smiles"]);
  assert.equal(t.rows.length, 53);
  assert.deepEqual(t.rows[0], { line: 2, cells: ["123-30-8", "Oc1ccc(N)cc1"] });
});

test("batch_prediction_inchi_small.csv: quoted InChIs with commas stay one cell", () => {
  const text = read("batch_prediction_inchi_small.csv");
  const t = parseCsv(text);
  assert.deepEqual(t.header, ["INCHI"]);
  const quoted = text.split(/\r?\n/).slice(1).filter((l) => l !== "").map((l) => l.slice(1, -1));
  assert.equal(t.rows.length, 3);
  t.rows.forEach((r, i) => assert.deepEqual(r.cells, [quoted[i]]));
  assert.ok(t.rows[0]?.cells[0]?.includes(","));
});

test("rat_feature_dataset.csv: quoted and unquoted cells mixed, 459 columns", () => {
  const text = read("rat_feature_dataset.csv");
  const t = parseCsv(text);
  const headerCells = (text.split(/\r?\n/)[0] ?? "").split(",").length; // header has no quotes
  assert.equal(t.header.length, headerCells);
  assert.equal(t.header.length, 459);
  assert.equal(t.rows.length, 1178);
  assert.ok(t.rows.every((r) => r.cells.length === 459));
  assert.ok(t.rows.every((r) => r.cells[0]?.startsWith("InChI=1S/")));
});

test("quotes: embedded separators, doubled quotes, newlines; line numbers after them", () => {
  const t = parseCsv('SMILES,name,note\nCCO,"ethanol, absolute","say ""hi"""\nCC,"multi\nline\nname",x\nCCC,propane,"a\r\nb"\nCCCC,butane,\n');
  assert.deepEqual(t.header, ["SMILES", "name", "note"]);
  assert.deepEqual(
    t.rows.map((r) => [r.line, ...r.cells]),
    [
      [2, "CCO", "ethanol, absolute", 'say "hi"'],
      [3, "CC", "multi\nline\nname", "x"],
      [6, "CCC", "propane", "a\nb"], // a CRLF inside quotes is one line break, stored as LF
      [8, "CCCC", "butane", ""],
    ],
  );
});

test("CRLF, CR-only line ends and a BOM", () => {
  const crlf = parseCsv("\uFEFFSMILES,y\r\nCCO,1\r\nCC,0\r\n");
  assert.deepEqual(crlf.header, ["SMILES", "y"]);
  assert.deepEqual(crlf.rows.map((r) => [r.line, ...r.cells]), [[2, "CCO", "1"], [3, "CC", "0"]]);
  const embedded = parseCsv('SMILES,y\r\nCCO,"a\r\nb"\r\nCC,"c\nd"\r\nC,0\r\n');
  assert.deepEqual(embedded.rows.map((r) => [r.line, ...r.cells]), [[2, "CCO", "a\nb"], [4, "CC", "c\nd"], [6, "C", "0"]]);
  const cr = parseCsv("SMILES,y\rCCO,1\rCC,0\r");
  assert.deepEqual(cr.rows.map((r) => [r.line, ...r.cells]), [[2, "CCO", "1"], [3, "CC", "0"]]);
});

test("blank lines are skipped without shifting line numbers", () => {
  const t = parseCsv("\n\nSMILES,y\n\nCCO,1\n   \n,\n\t\nCC,0\n\n");
  assert.deepEqual(t.header, ["SMILES", "y"]);
  assert.deepEqual(t.rows.map((r) => [r.line, ...r.cells]), [[5, "CCO", "1"], [9, "CC", "0"]]);
});

test("cells are trimmed, also inside quotes; a quote after spaces opens a quoted field", () => {
  const t = parseCsv('SMILES , y\n  CCO ,  " a, b "  \n');
  assert.deepEqual(t.header, ["SMILES", "y"]);
  assert.deepEqual(t.rows[0]?.cells, ["CCO", "a, b"]);
  // A quote inside an unquoted field is a literal character.
  assert.deepEqual(parseCsv('SMILES,name\nCCO,12" pipe\n').rows[0]?.cells, ["CCO", '12" pipe']);
});

test("separator detection: most frequent outside quotes in the header; ties → comma", () => {
  assert.equal(detectDelimiter("a;b;c\n1;2;3"), ";");
  assert.equal(detectDelimiter("a\tb\n1\t2"), "\t");
  assert.equal(detectDelimiter("a,b;c\n"), ","); // tie 1:1
  assert.equal(detectDelimiter("a;b\tc\n"), ";"); // tie between ; and TAB → semicolon
  assert.equal(detectDelimiter("SMILES\nC,C"), ","); // one column
  assert.equal(detectDelimiter('"a;b;c",d\n'), ","); // separators inside quotes do not count
  assert.equal(detectDelimiter("\n  \nx;y\n"), ";"); // first non-blank line
  const semi = parseCsv("SMILES;value\nCCO;1,5\n");
  assert.equal(semi.delimiter, ";");
  assert.deepEqual(semi.rows[0]?.cells, ["CCO", "1,5"]);
  const tab = parseCsv("SMILES\tname\nCCO\tethanol, absolute\n");
  assert.equal(tab.delimiter, "\t");
  assert.deepEqual(tab.rows[0]?.cells, ["CCO", "ethanol, absolute"]);
});

test("a header without separators: one cell per line, commas included", () => {
  const t = parseCsv('InChI\nInChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3\n"InChI=1S/CH4/h1H4"\n');
  assert.equal(t.delimiter, ",");
  assert.deepEqual(t.rows.map((r) => r.cells), [["InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3"], ["InChI=1S/CH4/h1H4"]]);
  rejects('SMILES\nCCO\n"CC\nC\n', /quote opened at line 3/, { line: 3 });
});

test("ragged rows are returned as they are", () => {
  const t = parseCsv("SMILES,a,b\nCCO,1\nCC,1,2,3\nC,,\n");
  assert.deepEqual(t.rows.map((r) => r.cells), [["CCO", "1"], ["CC", "1", "2", "3"], ["C", "", ""]]);
});

test("empty file", () => {
  rejects("", /the file is empty/, { line: 1 });
  rejects("\uFEFF", /the file is empty/);
  rejects("  \r\n\n\t\n", /the file is empty/);
});

test("binary content is rejected", () => {
  rejects("SMILES,y\nCC\u0000O,1\n", /the file is not text \(CSV expected\)/, { line: 2 });
  rejects("SMILES,y\nCC\uFFFD,1\n", /not text/, { line: 2 });
  // A real binary file (Excel 97 .xls of the reference), decoded as UTF-8 the way uploads are.
  const xls = new TextDecoder("utf-8").decode(readFileSync(`${LAZAR}/hamster_carcinogenicity.xls`));
  rejects(xls, /the file is not text/);
});

test("unterminated quote: the error names the line where the quote opened", () => {
  rejects('SMILES,y\nCCO,1\nCC,"open\nC,1\nCCC,0\n', /quote opened at line 3 is never closed/, { line: 3 });
  rejects('SMILES,y\nCCO,"a\nb"\n"CC,1\n', /line 4/, { line: 4 });
});

test("text after a closing quote is an error with line and column", () => {
  rejects('SMILES,y\nCCO,1\nCC,"a"b\n', /closing quote at line 3, column 2/, { line: 3, column: 2 });
});

test("header without data rows", () => {
  rejects("SMILES,y\n", /no data rows/, { line: 1 });
  rejects("SMILES,y\r\n\r\n  \r\n", /no data rows/);
});

test("empty header cells are rejected with their column numbers", () => {
  rejects("SMILES,,y,\nCCO,1,2,3\n", /no column name at columns 2, 4/, { line: 1, column: 2 });
  rejects(",y\nCCO,1\n", /no column name at column 1;/, { column: 1 });
});

test("duplicate header names are rejected with names and positions", () => {
  rejects("SMILES,act,x, act\nCCO,1,2,3\n", /duplicate column names.*'act' at columns 2, 4/, { line: 1, column: 4 });
  rejects("a,b,a,b\n1,2,3,4\n", /'a' at columns 1, 3; 'b' at columns 2, 4/);
});
