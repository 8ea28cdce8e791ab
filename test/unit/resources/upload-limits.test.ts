/**
 * Upload limits (src/resources/upload-limits.ts): the triple estimate against the triples a real
 * upload writes, and the 413s (order of the checks, what each names).
 *
 * Reference: the real triple count of hamster_carcinogenicity.csv and of kazius.csv is counted
 * here from the N-Triples/N-Quads the upload's own builder writes (resources/dataset.ts, RDKit
 * reading the structures), one statement per line — not from the formula.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { DATA } from "../../helpers/data.ts";
import { loadRDKit } from "../../../src/chem/rdkit.ts";
import { parseStructure, type StructureResult } from "../../../src/chem/structure.ts";
import { PayloadTooLarge } from "../../../src/errors.ts";
import { buildDataset } from "../../../src/resources/dataset.ts";
import { checkUploadLimits, estimatedCounts, uploadTriples, type UploadCounts } from "../../../src/resources/upload-limits.ts";
import { parseCsv } from "../../../src/tabular/csv.ts";
import { scanShape } from "../../../src/tabular/shape.ts";
import { assembleDataset, MISSING_TOKENS, prepareTable } from "../../../src/tabular/table.ts";

const LAZAR = `${DATA}lazar/test/data/`;
const lines = (b: Uint8Array): number => Buffer.from(b).toString("utf8").split("\n").filter((l) => l.trim() !== "").length;

/** The triples a real upload of the file writes, and its counts as the upload job sees them. */
async function realUpload(file: string): Promise<{ triples: number; counts: UploadCounts }> {
  const rdkit = await loadRDKit();
  const prepared = prepareTable(parseCsv(readFileSync(`${LAZAR}${file}`, "utf8")));
  const parsed = new Map<string, StructureResult>(prepared.structures.map((s) => [s, parseStructure(rdkit, s)]));
  const content = assembleDataset(prepared, parsed, file);
  const built = buildDataset(content, { uri: "http://localhost/dataset/abcdefghijkm", fileName: file, created: new Date(0), base: "http://localhost" });
  const features = prepared.header.map((_, i) => i).filter((i) => i !== prepared.structureIndex);
  let values = 0;
  for (const r of prepared.rows) for (const c of features) if (!MISSING_TOKENS.has(r.cells[c] ?? "")) values++;
  return {
    triples: lines(built.datasetNTriples) + lines(built.compounds.nquads),
    counts: { rows: prepared.dataRows, columns: prepared.header.length, values, structures: prepared.structures.length },
  };
}

test("hamster, Kazius, EPAFHM: the estimate from the bytes and the count from the parsed file are upper bounds within 25 % of the real triples", async () => {
  for (const [file, rows, columns] of [["hamster_carcinogenicity.csv", 85, 2], ["kazius.csv", 4069, 2], ["EPAFHM.csv", 617, 2]] as const) {
    const real = await realUpload(file);
    assert.deepEqual([real.counts.rows, real.counts.columns], [rows, columns], file);
    const estimate = uploadTriples(estimatedCounts(await scanShape(readFileSync(`${LAZAR}${file}`), { maxRows: 1e9, maxValues: 1e12 })));
    const counted = uploadTriples(real.counts);
    assert.ok(counted <= estimate, `${file}: counted ${counted} > estimate ${estimate}`);
    assert.ok(real.triples <= counted, `${file}: real ${real.triples} > counted ${counted}`);
    assert.ok(estimate <= real.triples * 1.25, `${file}: estimate ${estimate} more than 25 % above the real ${real.triples}`);
  }
});

function refuses(c: UploadCounts, limits: { rows: number; columns: number; triples: number }, message: RegExp, o?: { stopped?: "columns" | "rows" | "values"; estimated?: boolean }): void {
  assert.throws(
    () => checkUploadLimits(c, limits, o),
    (e: unknown) => {
      assert.ok(e instanceof PayloadTooLarge, String(e));
      assert.equal(e.status, 413);
      assert.match(e.message, message);
      assert.equal(e.details.field, "file");
      return true;
    },
  );
}

const filled = (rows: number, columns: number): UploadCounts => estimatedCounts({ rows, columns, values: rows * (columns - 1) });

test("each limit's 413 names the count, the limit and the option; columns are checked first, then rows, then triples", () => {
  const limits = { rows: 200_000, columns: 5_000, triples: 3_000_000 };
  refuses({ rows: 1_000_000, columns: 50_000, values: 0, structures: 0 }, limits, /50,000 columns; the limit is 5,000 .*MAX_UPLOAD_COLUMNS.*--max-upload-columns/);
  refuses({ rows: 0, columns: 5_001, values: 0, structures: 0 }, limits, /has more than 5,000 columns; the limit is 5,000 /, { stopped: "columns", estimated: true });
  refuses({ rows: 1_000_000, columns: 2, values: 0, structures: 0 }, limits, /1,000,000 data rows; the limit is 200,000 rows .*MAX_UPLOAD_ROWS.*--max-upload-rows/);
  refuses(filled(200_001, 2), limits, /more than 200,000 data rows \(counted as non-empty lines after the header\)/, { stopped: "rows", estimated: true });
  // 100,000 rows × 10 columns, every cell filled: 5·R + 3·9R + 4·R + 12·9 + 9 = 3,600,117 triples.
  refuses(filled(100_000, 10), limits, /about 3,600,117 triples .*the limit is 3,000,000 triples .*MAX_UPLOAD_TRIPLES.*--max-upload-triples/, { estimated: true });
  refuses(filled(100_000, 10), limits, /would add more than 3,600,117 triples \(.*from the first 100,000 rows/, { estimated: true, stopped: "values" });
  // The same rows with one value in nine (a sparse file like MUV) fit: 5·R + 3·R + 4·R + 117 = 1,200,117.
  assert.doesNotThrow(() => checkUploadLimits(estimatedCounts({ rows: 100_000, columns: 10, values: 100_000 }), limits));
  assert.doesNotThrow(() => checkUploadLimits(filled(200_000, 2), limits));
});
