import { readFileSync } from "node:fs";

/** The reference data the tests and benches read: fixtures/data (fixtures/data/SOURCES.md says where each file comes from). */
export const DATA = new URL("../../fixtures/data/", import.meta.url).pathname;

/** Reference files the tests upload (lazar's test data; counts in SOURCES.md). */
export const HAMSTER = `${DATA}lazar/test/data/hamster_carcinogenicity.csv`;
export const KAZIUS = `${DATA}lazar/test/data/kazius.csv`;
export const MULTI = `${DATA}lazar/test/data/multicolumn.csv`;
export const EPAFHM = `${DATA}lazar/test/data/EPAFHM.medi_log10.csv`;


/**
 * A two-column reference CSV (structure, endpoint) as rows of SMILES and value: the header line
 * is skipped, the last comma splits a row, and the quotes of quoted SMILES are removed (no SMILES
 * contains a quote).
 */
export function readSmilesCsv(path: string): { smiles: string; value: string }[] {
  return readFileSync(path, "utf8")
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => {
      const k = l.lastIndexOf(",");
      return { smiles: l.slice(0, k).replace(/"/g, ""), value: l.slice(k + 1).trim() };
    });
}

/** kazius.csv as the miners take it: ids 1…4069 in file order, activity 0/1 by id. */
export function kaziusMiningInput(): { compounds: { id: number; smiles: string }[]; activity: Map<number, number> } {
  const rows = readSmilesCsv(KAZIUS);
  return { compounds: rows.map((r, i) => ({ id: i + 1, smiles: r.smiles })), activity: new Map(rows.map((r, i) => [i + 1, Number(r.value)])) };
}
