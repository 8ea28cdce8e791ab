/**
 * The progress display (src/cli/progress.ts): the bar line (20 cells, one per 5 %, written out
 * by hand here), a terminal line redrawn at most every 100 ms and cleared at the end, and the
 * log lines of a forced display (a line per status change or 10 % step).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { barLine, Progress } from "../../../src/cli/progress.ts";

describe("barLine", () => {
  it("a cell per 5 %, the percentage with one decimal, status and label", () => {
    assert.equal(barLine(42, "Running", "upload hamster.csv"), "[########------------]  42.0 %  Running  upload hamster.csv");
    assert.equal(barLine(0, "Queued", ""), "[--------------------]   0.0 %  Queued");
    assert.equal(barLine(100, "Completed", "x"), "[####################] 100.0 %  Completed  x");
  });

  it("out-of-range and non-numbers are clamped; a long line is cut to the terminal width", () => {
    assert.equal(barLine(140, "Running", ""), "[####################] 100.0 %  Running");
    assert.equal(barLine(NaN, "Running", ""), "[--------------------]   0.0 %  Running");
    const cut = barLine(50, "Running", "a".repeat(200), 60);
    assert.equal(cut.length, 59);
    assert.ok(cut.endsWith("…"));
  });
});

describe("Progress", () => {
  it("on a terminal: redrawn in place at most every 100 ms (a status change at once), cleared at the end", () => {
    const out: string[] = [];
    let t = 0;
    const p = new Progress({ write: (s: string) => out.push(s), columns: 80 }, true, "job", () => t);
    p.update("Running", 10);
    t = 50;
    p.update("Running", 20); // within 100 ms: skipped
    t = 120;
    p.update("Running", 30);
    t = 130;
    p.update("Completed", 100); // a new status: drawn at once
    p.finish();
    assert.deepEqual(out, [
      "\r[##------------------]  10.0 %  Running  job\x1b[K",
      "\r[######--------------]  30.0 %  Running  job\x1b[K",
      "\r[####################] 100.0 %  Completed  job\x1b[K",
      "\r\x1b[K",
    ]);
  });

  it("a terminal that reports no width (0 columns, e.g. under script(1)) is taken as 80 wide", () => {
    const out: string[] = [];
    new Progress({ write: (s: string) => out.push(s), columns: 0 }, true, "job").update("Running", 50);
    assert.deepEqual(out, ["\r[##########----------]  50.0 %  Running  job\x1b[K"]);
  });

  it("forced where stderr is no terminal: a line per status change or 10 % step, nothing to clear", () => {
    const out: string[] = [];
    const p = new Progress({ write: (s: string) => out.push(s) }, false, "job");
    for (const pct of [0, 3, 9, 10, 15, 35]) p.update("Running", pct);
    p.update("Completed", 100);
    p.finish();
    assert.deepEqual(out, [
      "[--------------------]   0.0 %  Running  job\n",
      "[##------------------]  10.0 %  Running  job\n",
      "[#######-------------]  35.0 %  Running  job\n",
      "[####################] 100.0 %  Completed  job\n",
    ]);
  });
});
