/**
 * The cheap scan of an upload's bytes (src/tabular/shape.ts): header columns and data lines.
 * Reference values: the CSV reader itself (csv-parse via parseCsv, a different implementation)
 * on the shared reference files, and hand-counted inputs whose lines are visible in the literals.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { DATA } from "../../helpers/data.ts";
import { parseCsv } from "../../../src/tabular/csv.ts";
import { scanShape, SLICE_BYTES } from "../../../src/tabular/shape.ts";

const LAZAR = `${DATA}lazar/test/data/`;
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

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
    assert.ok(shape.complete);
    if (shape.rows === table.rows.length) equal++;
  }
  // Only quoted cells spanning lines (none in these files) and separator-only lines over-count.
  assert.ok(equal >= files.length - 3, `${equal} of ${files.length} files counted exactly`);
});

test("hamster_carcinogenicity.csv: 2 columns, 85 rows (CRLF)", async () => {
  const s = await scanShape(readFileSync(`${LAZAR}hamster_carcinogenicity.csv`), 1000);
  assert.deepEqual(s, { delimiter: ",", columns: 2, rows: 85, complete: true });
});

test("line ends LF, CRLF and lone CR; blank lines and a missing final line break", async () => {
  for (const nl of ["\n", "\r\n", "\r"]) {
    const text = ["SMILES,a,b", "C,1,2", "", "CC,3,4", "CCC,5,6"].join(nl);
    assert.deepEqual(await scanShape(bytes(text), 100), { delimiter: ",", columns: 3, rows: 3, complete: true }, JSON.stringify(nl));
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

test("counting stops at maxRows + 1", async () => {
  const text = `SMILES,a\n${"C,1\n".repeat(1000)}`;
  assert.deepEqual(await scanShape(bytes(text), 1000), { delimiter: ",", columns: 2, rows: 1000, complete: true });
  assert.deepEqual(await scanShape(bytes(text), 999), { delimiter: ",", columns: 2, rows: 1000, complete: false });
  assert.deepEqual(await scanShape(bytes(text), 500), { delimiter: ",", columns: 2, rows: 501, complete: false });
});

test("a large body is scanned in slices, with a pause between them", async () => {
  // A header line longer than two slices, then lines enough for two more.
  const long = `SMILES,${"x".repeat(2 * SLICE_BYTES)},y\n`;
  const line = `C,1,${"v".repeat(1000)}\n`;
  const n = Math.ceil((2 * SLICE_BYTES) / line.length);
  let pauses = 0;
  const s = await scanShape(bytes(long + line.repeat(n)), 1e9, async () => void pauses++);
  assert.deepEqual([s.columns, s.rows], [3, n]);
  assert.ok(pauses >= 3, `${pauses} pauses`);
});
