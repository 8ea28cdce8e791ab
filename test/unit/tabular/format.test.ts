/**
 * Which format an upload is in (src/tabular/format.ts): CSV, SDF, or another format (415).
 *
 * Expected values: the signatures are the published magic numbers of the formats (ZIP
 * "PK\x03\x04", OLE2 D0 CF 11 E0 A1 B1 1A E1 — hamster_carcinogenicity.xls of the lazar test
 * data is one, PNG 89 50 4E 47, gzip 1F 8B); SD files and molfiles by the CTfile format (a counts
 * line ending in V2000/V3000 as line 4, records ended by `$$$$`); the rest follows the rules of
 * the module comment, one case each.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { DATA } from "../../helpers/data.ts";
import { detectFormat, looksLikeSdf } from "../../../src/tabular/format.ts";

const LAZAR = `${DATA}lazar/test/data/`;
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const MOLFILE = "acetaldehyde\n  handmade\n\n  3  2  0  0  0  0  0  0  0  0999 V2000\n";

test("binary formats are refused by their first bytes, whatever the name says", () => {
  const cases: [Uint8Array, RegExp][] = [
    [readFileSync(`${LAZAR}hamster_carcinogenicity.xls`), /OLE2 document \(an XLS spreadsheet/],
    [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0]), /ZIP archive \(an XLSX or ODS/],
    [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), /PNG image/],
    [new Uint8Array([0x1f, 0x8b, 8, 0]), /gzip archive/],
    [new Uint8Array([0xff, 0xfe, 0x53, 0x00]), /UTF-16 text/],
    [bytes("SMILES\u0000,act\nCCO,1\n"), /binary file/],
  ];
  for (const [b, what] of cases) {
    for (const name of ["data.csv", "data.sdf", "upload"]) {
      const d = detectFormat(b, name, "text/csv");
      assert.ok("unsupported" in d && what.test(d.unsupported), `${what} as ${name}: ${JSON.stringify(d)}`);
    }
  }
});

test("SD content is SDF whatever the name and type say: a V2000/V3000 counts line as line 4, or a $$$$ line", () => {
  for (const text of [MOLFILE, MOLFILE.replace("V2000", "V3000"), MOLFILE.replace(/\n/g, "\r\n"), `\uFEFF${MOLFILE}`, "x\ny\n$$$$\n", "a\r\n$$$$\r\nb"]) {
    assert.equal(looksLikeSdf(text), true, JSON.stringify(text));
    assert.deepEqual(detectFormat(bytes(text), "data.csv", "text/csv"), { format: "sdf" });
  }
  for (const text of ["SMILES,act\nCCO,1\n", "a\nb\nc\nd V2000 e\n", "SMILES\n$$$$C\n"]) assert.equal(looksLikeSdf(text), false, JSON.stringify(text));
});

test("JSON, XML and HTML content are refused", () => {
  for (const [text, what] of [['{ "species": "Hamster" }', "JSON"], ['[{"smiles": "CCO"}]', "JSON"], ["  [\n 1 ]", "JSON"], ['<?xml version="1.0"?><a/>', "XML or HTML"], ["<!DOCTYPE html><html>", "XML or HTML"]] as const) {
    assert.deepEqual(detectFormat(bytes(text), "x.csv"), { unsupported: what }, text);
  }
  // The reference JSON of the lazar test data.
  assert.deepEqual(detectFormat(readFileSync(`${LAZAR}hamster_carcinogenicity.json`), "hamster_carcinogenicity.json"), { unsupported: "JSON" });
  // A one-column CSV whose header starts with a bracket atom is no JSON.
  assert.deepEqual(detectFormat(bytes("[Na+].[Cl-]\nCCO\n"), "salts.csv"), { format: "csv" });
});

test("a name or media type that says SDF makes other text an SD file (the reader then reports it)", () => {
  const text = bytes("not a molfile\n");
  for (const name of ["a.sdf", "a.SD", "a.mol"]) assert.deepEqual(detectFormat(text, name), { format: "sdf" }, name);
  for (const type of ["chemical/x-mdl-sdfile", "chemical/x-mdl-molfile"]) assert.deepEqual(detectFormat(text, "upload", type), { format: "sdf" }, type);
});

test("names of other formats are refused; .smi with a reason; anything else is CSV", () => {
  const text = bytes("265\tc1(ccc(c(c1)O)O)[C@@H](CNC)O\n");
  const smi = detectFormat(text, "yoshida.smi");
  assert.ok("unsupported" in smi && /SMILES file \(no header line to name its columns\) \(by its name '\.smi'\)/.test(smi.unsupported));
  for (const name of ["a.xlsx", "a.ods", "a.json", "a.mol2"]) assert.ok("unsupported" in detectFormat(bytes("SMILES,act\nCCO,1\n"), name), name);
  for (const name of ["a.csv", "a.tsv", "a.txt", "a", "", "a.dat"]) assert.deepEqual(detectFormat(bytes("SMILES,act\nCCO,1\n"), name), { format: "csv" }, name);
});

test("every reference CSV/TSV of the lazar test data is CSV, every SD file SDF", () => {
  const files = readdirSync(LAZAR).filter((f) => /\.(csv|tsv|sdf)$/.test(f));
  assert.ok(files.length > 20);
  for (const f of files) {
    const d = detectFormat(readFileSync(`${LAZAR}${f}`), f);
    assert.deepEqual(d, { format: f.endsWith(".sdf") ? "sdf" : "csv" }, f);
  }
});
