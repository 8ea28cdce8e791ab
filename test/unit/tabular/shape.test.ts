/**
 * The cheap scan of an upload's bytes (src/tabular/shape.ts): header columns and data lines; an
 * SD file's records, tags and values (scanSdShape).
 * Reference values: the CSV reader itself (csv-parse via parseCsv, a different implementation) on
 * the reference files in fixtures/data, and hand-counted inputs whose lines are visible in the
 * literals; for SD files the SD reader (parseSdf, which reads every line rather than scanning
 * bytes) and grep-style counts of `$$$$` lines on the reference SD files.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { DATA } from "../../helpers/data.ts";
import { parseCsv } from "../../../src/tabular/csv.ts";
import { parseSdf } from "../../../src/tabular/sdf.ts";
import { scanSdShape, scanShape as scanWith, SLICE_BYTES } from "../../../src/tabular/shape.ts";
import { findStructureColumn } from "../../../src/tabular/table.ts";

const LAZAR = `${DATA}lazar/test/data/`;
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const scanShape = (b: Uint8Array, maxRows: number, maxValues = 1e12, pause?: () => Promise<void>) => scanWith(b, { maxRows, maxValues }, pause);

test("the reference CSV files: columns as parseCsv's header, rows at least parseCsv's rows", async () => {
  const files = readdirSync(LAZAR).filter((f) => /\.(csv|tsv)$/.test(f));
  assert.ok(files.length >= 20, `${files.length} reference files`);
  let equal = 0;
  for (const f of files) {
    const buf = readFileSync(`${LAZAR}${f}`);
    let table;
    try {
      table = parseCsv(buf.toString("utf8"));
    } catch {
      continue; // files the reader refuses (the upload fails in its job)
    }
    const shape = await scanShape(buf, 1e9);
    assert.equal(shape.columns, table.header.length, `${f}: columns`);
    assert.equal(shape.delimiter, table.delimiter, `${f}: separator`);
    assert.ok(shape.rows >= table.rows.length, `${f}: ${shape.rows} lines counted < ${table.rows.length} rows`);
    // values: the reader's non-empty cells outside the structure column
    const s = findStructureColumn(table.header).index;
    const values = table.rows.reduce((n, r) => n + r.cells.filter((c, i) => i !== s && c !== "").length, 0);
    assert.ok(shape.values >= values, `${f}: ${shape.values} values counted < ${values} non-empty cells`);
    assert.equal(shape.stopped, null);
    if (shape.rows === table.rows.length && shape.values === values) equal++;
  }
  // Only quoted cells spanning lines (none in these files) and separator-only lines over-count.
  assert.ok(equal >= files.length - 3, `${equal} of ${files.length} files counted exactly`);
});

test("hamster_carcinogenicity.csv: 2 columns, 85 rows (CRLF)", async () => {
  const s = await scanShape(readFileSync(`${LAZAR}hamster_carcinogenicity.csv`), 1000);
  assert.deepEqual(s, { delimiter: ",", columns: 2, rows: 85, values: 85, stopped: null });
});

test("line ends LF, CRLF and lone CR; blank lines and a missing final line break", async () => {
  for (const nl of ["\n", "\r\n", "\r"]) {
    const text = ["SMILES,a,b", "C,1,2", "", "CC,3,4", "CCC,5,6"].join(nl);
    assert.deepEqual(await scanShape(bytes(text), 100), { delimiter: ",", columns: 3, rows: 3, values: 6, stopped: null }, JSON.stringify(nl));
  }
});

test("header rules: quotes, separators, one-column files, blank lines before the header, BOM", async () => {
  assert.equal((await scanShape(bytes('"a,b";c;d\nx;y;z\n'), 10)).columns, 3); // ; wins, the quoted comma does not count
  assert.equal((await scanShape(bytes('"a ""x"", b",c\n1,2\n'), 10)).columns, 2); // doubled quote inside quotes
  assert.equal((await scanShape(bytes("InChI\nInChI=1S/CH4/h1H4\n"), 10)).columns, 1);
  assert.equal((await scanShape(bytes("\n  \nSMILES\tx\ty\nC\t1\t2\n"), 10)).columns, 3);
  const bom = await scanShape(bytes("\uFEFFSMILES,act\nC,1\n"), 10);
  assert.deepEqual([bom.columns, bom.rows], [2, 1]);
});

test("a quoted cell spanning lines is counted by its lines: the count is never below the rows", async () => {
  const text = 'SMILES,note\nC,"one\ntwo\nthree"\nCC,x\n';
  assert.equal(parseCsv(text).rows.length, 2);
  assert.equal((await scanShape(bytes(text), 100)).rows, 4);
});

test("values: non-empty cells less the structure cell; blanks, spaces and one-column files", async () => {
  assert.equal((await scanShape(bytes("SMILES,a,b,c\nC,1,,3\nCC, , ,\nCCC,NA,2,\n"), 10)).values, 4); // 1,3 | – | NA,2
  assert.equal((await scanShape(bytes("SMILES;a\nC;1,5\n"), 10)).values, 1); // the comma is no separator here
  assert.equal((await scanShape(bytes("InChI\nInChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3\n"), 10)).values, 0);
  assert.equal((await scanShape(bytes('SMILES,a\nC,"1,5"\n'), 10)).values, 2, "a quoted separator splits the cell: over-counted");
  // A sparse file: a line without separators does not make the scan search the rest of the file.
  const sparse = `SMILES,a,b\n${"C\n".repeat(10_000)}CC,1,2\n`;
  assert.deepEqual(await scanShape(bytes(sparse), 1e6), { delimiter: ",", columns: 3, rows: 10_001, values: 2, stopped: null });
});

test("counting stops once the rows pass maxRows or the values pass maxValues", async () => {
  const text = `SMILES,a\n${"C,1\n".repeat(1000)}`;
  assert.deepEqual(await scanShape(bytes(text), 1000), { delimiter: ",", columns: 2, rows: 1000, values: 1000, stopped: null });
  assert.deepEqual(await scanShape(bytes(text), 999), { delimiter: ",", columns: 2, rows: 1000, values: 1000, stopped: "rows" });
  assert.deepEqual(await scanShape(bytes(text), 500), { delimiter: ",", columns: 2, rows: 501, values: 501, stopped: "rows" });
  assert.deepEqual(await scanShape(bytes(text), 5000, 100), { delimiter: ",", columns: 2, rows: 101, values: 101, stopped: "values" });
});

test("a header past maxColumns stops the scan (its columns are then more than the limit)", async () => {
  const wide = `SMILES,${Array.from({ length: 9999 }, (_, i) => `c${i}`).join(",")}\nC,${"1,".repeat(9998)}1\n`;
  assert.deepEqual(await scanWith(bytes(wide), { maxColumns: 5000, maxRows: 10, maxValues: 1e9 }), { delimiter: ",", columns: 5001, rows: 0, values: 0, stopped: "columns" });
  assert.equal((await scanWith(bytes(wide), { maxColumns: 10_000, maxRows: 10, maxValues: 1e9 })).columns, 10_000);
});

test("a large body is scanned in slices, with a pause between them", async () => {
  // A header line longer than two slices, then lines enough for two more.
  const long = `SMILES,${"x".repeat(2 * SLICE_BYTES)},y\n`;
  const line = `C,1,${"v".repeat(1000)}\n`;
  const n = Math.ceil((2 * SLICE_BYTES) / line.length);
  let pauses = 0;
  const s = await scanShape(bytes(long + line.repeat(n)), 1e9, 1e12, async () => void pauses++);
  assert.deepEqual([s.columns, s.rows], [3, n]);
  assert.ok(pauses >= 3, `${pauses} pauses`);
});

const sdScan = (text: string | Uint8Array, limits: { maxColumns?: number; maxRows?: number; maxValues?: number } = {}, pause?: () => Promise<void>) =>
  scanSdShape(typeof text === "string" ? bytes(text) : text, { maxRows: 1e9, maxValues: 1e12, ...limits }, pause);

test("SD files: the reference files' records as parseSdf's and as their $$$$ lines, tags and values never below the reader's", async () => {
  const files = ["data/parts/cas_4337.sdf", "test/data/hamster_carcinogenicity.sdf", "test/data/CPDBAS_v5c_1547_29Apr2008part.sdf", "test/data/boiling_points.ext.sdf", "test/data/acetaldehyde.sdf"];
  for (const f of files) {
    const buf = readFileSync(`${DATA}lazar/${f}`);
    const sd = parseSdf(buf.toString("utf8"));
    const shape = await sdScan(buf);
    assert.equal(shape.rows, sd.records.length, `${f}: records`);
    assert.equal(shape.columns, sd.tags.length + 1, `${f}: columns`);
    const values = sd.records.reduce((n, r) => n + [...r.values.values()].filter((v) => v !== "").length, 0);
    assert.ok(shape.values >= values, `${f}: ${shape.values} values counted < ${values}`);
    assert.equal(shape.stopped, null);
  }
  // Kazius: 4337 $$$$ lines (grep -c), one tag, a value in every record.
  assert.deepEqual(await sdScan(readFileSync(`${DATA}lazar/data/parts/cas_4337.sdf`)), { columns: 2, rows: 4337, values: 4337, stopped: null });
});

test("SD files: line ends, a BOM, a last record without $$$$, blank lines after the last one", async () => {
  const record = (tag: string, value: string): string[] => ["title", "", "", "  0  0  0  0  0  0  0  0  0  0999 V2000", "M  END", `>  <${tag}>`, value, ""];
  const lines = [...record("a", "1"), "$$$$", ...record("b", ""), "$$$$", ...record("a", "3")];
  for (const nl of ["\n", "\r\n", "\r"]) {
    // 3 records (the last without $$$$), tags a and b, values 1 and 3 (b's is empty).
    assert.deepEqual(await sdScan(lines.join(nl)), { columns: 3, rows: 3, values: 2, stopped: null }, JSON.stringify(nl));
    assert.deepEqual(await sdScan(`\uFEFF${[...lines, "$$$$", "", ""].join(nl)}`), { columns: 3, rows: 3, values: 2, stopped: null }, JSON.stringify(nl));
  }
  // A lone CR inside an LF file ends no line, for the scan as for the reader: one record here.
  const stray = [...record("a", "1"), "$$$$\rjunk", ...record("a", "2"), "$$$$"].join("\n");
  assert.equal(parseSdf(stray).records.length, 1);
  assert.equal((await sdScan(stray)).rows, 1);
  // A line starting with `>` without `<name>` names no tag.
  assert.equal((await sdScan([...record("a", "1"), "> 12", "x", "", "$$$$"].join("\n"))).columns, 2);
  // A title that looks like a data header is counted too: never fewer tags than the reader finds.
  assert.deepEqual(await sdScan(">  <t>\n\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n$$$$\n"), { columns: 2, rows: 1, values: 0, stopped: null });
});

test("SD files: the scan stops once records, tags or values pass their limits", async () => {
  const many = `${"t\n\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n>  <a>\n1\n\n$$$$\n".repeat(100)}`;
  assert.deepEqual(await sdScan(many, { maxRows: 100 }), { columns: 2, rows: 100, values: 100, stopped: null });
  assert.deepEqual(await sdScan(many, { maxRows: 99 }), { columns: 2, rows: 100, values: 100, stopped: "rows" });
  assert.deepEqual(await sdScan(many, { maxValues: 49 }), { columns: 2, rows: 49, values: 50, stopped: "values" });
  const tags = Array.from({ length: 20 }, (_, i) => `>  <t${i}>\nx\n`).join("\n");
  assert.deepEqual(await sdScan(`t\n\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n${tags}$$$$\n`, { maxColumns: 10 }), { columns: 11, rows: 0, values: 9, stopped: "columns" });
  // Without $$$$ the one record is still counted against maxRows.
  assert.equal((await sdScan("t\n\n\n  0  0  0  0  0  0  0  0  0  0999 V2000\nM  END\n", { maxRows: 0 })).stopped, "rows");
});

test("SD files: a large file is scanned in slices, with a pause between them", async () => {
  const record = `title\n\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n${"    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n"}M  END\n>  <a>\n1\n\n$$$$\n`;
  const n = Math.ceil((2 * SLICE_BYTES) / record.length);
  let pauses = 0;
  const s = await sdScan(record.repeat(n), {}, async () => void pauses++);
  assert.deepEqual([s.rows, s.columns, s.values], [n, 2, n]);
  assert.ok(pauses >= 2, `${pauses} pauses`);
});
