/**
 * The upload job's second check of the upload limits (src/tasks/jobs/dataset.ts prepareCsv):
 * with the counts of the parsed file, where the scan of the bytes (tabular/shape.ts) can be wrong.
 * Expected counts are read off the hand-written inputs.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { PayloadTooLarge } from "../../../../src/errors.ts";
import { prepareCsv } from "../../../../src/tasks/jobs/dataset.ts";
import { scanShape } from "../../../../src/tabular/shape.ts";

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const LOOSE = { rows: 1000, columns: 1000, triples: 1e9 };

test("a stray quote in the header hides separators from the scan; the parsed header has them all", async () => {
  // csv-parse reads a"b as a literal (a quote inside an unquoted field); the scan takes it as opening quotes.
  const csv = bytes('SMILES,a"b,c\nCCO,1,2\nCCN,3,4\n');
  assert.equal((await scanShape(csv, { maxRows: 10, maxValues: 100 })).columns, 2);
  assert.throws(
    () => prepareCsv({ bytes: csv, limits: { ...LOOSE, columns: 2 } }),
    (e: unknown) => e instanceof PayloadTooLarge && /the file has 3 columns; the limit is 2 /.test(e.message),
  );
  assert.equal(prepareCsv({ bytes: csv, limits: { ...LOOSE, columns: 3 } }).structures.length, 2);
});

test("rows and triples with the parsed counts: exact rows; missing values (NA) cost nothing", () => {
  const csv = bytes("SMILES,a,b\nC,1,NA\nCC,,2\nCCC,3,4\n");
  assert.throws(
    () => prepareCsv({ bytes: csv, limits: { ...LOOSE, rows: 2 } }),
    (e: unknown) => e instanceof PayloadTooLarge && /the file has 3 data rows; the limit is 2 rows/.test(e.message),
  );
  // 3 rows, 4 values, 3 structures, 2 features: 15 + 12 + 12 + 24 + 9 = 72 triples.
  assert.throws(
    () => prepareCsv({ bytes: csv, limits: { ...LOOSE, triples: 71 } }),
    (e: unknown) => e instanceof PayloadTooLarge && /would add 72 triples \(3 rows, 4 values, 3 distinct structures, 2 features/.test(e.message),
  );
  assert.equal(prepareCsv({ bytes: csv, limits: { ...LOOSE, triples: 72 } }).structures.length, 3);
});
