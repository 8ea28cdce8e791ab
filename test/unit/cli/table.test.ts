/**
 * The client's tables (src/cli/table.ts): aligned text, TSV, CSV (RFC 4180 quoting) and JSON.
 * The expected texts are written out by hand from the rows.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { csvCell, formatRows, type Column, type Row } from "../../../src/cli/table.ts";

const columns: Column[] = [
  { key: "input" },
  { key: "prediction" },
  { key: "confidence", show: (v) => (typeof v === "number" ? v.toFixed(3) : ""), align: "right" },
  { key: "domain", title: "applicability domain" },
];
const rows: Row[] = [
  { input: "c1ccccc1NN", prediction: "false", confidence: 0.3663658823781071, domain: "inside" },
  { input: "CNN", prediction: "true", confidence: null, domain: "training compound" },
  { input: "C1CC", prediction: null, confidence: null, domain: 'a "quoted",\tmulti\nline reason' },
];

describe("formatRows", () => {
  it("table: header, columns padded to the widest cell, right-aligned numbers, '-' for empty, the last column unpadded", () => {
    assert.equal(
      formatRows(columns, rows, "table"),
      [
        "input       prediction  confidence  applicability domain",
        "c1ccccc1NN  false            0.366  inside",
        "CNN         true                 -  training compound",
        'C1CC        -                    -  a "quoted", multi line reason',
        "",
      ].join("\n"),
    );
  });

  it("tsv: keys as header, raw values, tabs and line breaks in a cell become a space", () => {
    assert.equal(
      formatRows(columns, rows, "tsv"),
      ["input\tprediction\tconfidence\tdomain", "c1ccccc1NN\tfalse\t0.3663658823781071\tinside", "CNN\ttrue\t\ttraining compound", 'C1CC\t\t\ta "quoted", multi line reason', ""].join("\n"),
    );
  });

  it("csv: RFC 4180 quoting, LF line ends", () => {
    assert.equal(
      formatRows(columns, rows, "csv"),
      ["input,prediction,confidence,domain", "c1ccccc1NN,false,0.3663658823781071,inside", "CNN,true,,training compound", 'C1CC,,,"a ""quoted"",\tmulti\nline reason"', ""].join("\n"),
    );
    assert.equal(csvCell("plain"), "plain");
    assert.equal(csvCell(" padded"), '" padded"');
    assert.equal(csvCell("a\r\nb"), '"a\r\nb"');
  });

  it("json: objects keyed by column, numbers as numbers, empty as null", () => {
    assert.deepEqual(JSON.parse(formatRows(columns, rows, "json")), [
      { input: "c1ccccc1NN", prediction: "false", confidence: 0.3663658823781071, domain: "inside" },
      { input: "CNN", prediction: "true", confidence: null, domain: "training compound" },
      { input: "C1CC", prediction: null, confidence: null, domain: 'a "quoted",\tmulti\nline reason' },
    ]);
  });

  it("no rows: the header alone (json: [])", () => {
    assert.equal(formatRows(columns, [], "table"), "input  prediction  confidence  applicability domain\n");
    assert.equal(formatRows(columns, [], "json"), "[]\n");
  });
});
