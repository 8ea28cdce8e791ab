/**
 * The cross-validation report in a real browser (docs/cross-validation.md "The report"): headless
 * Debian Chromium through playwright-core opens the report of a 10-fold cross-validation of
 * hamster_carcinogenicity.csv; the page renders, its plots are present and not empty (SVG
 * elements with a visible size and drawn paths), the browser reports no console errors or failed
 * requests, no Content-Security-Policy violation under the policy the page is served with, and a
 * screenshot is written to a temporary folder.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM_ARGS, ensureChromium } from "../helpers/chromium.ts";
import { HAMSTER, uploadDataset, runTask } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";


describe("the cross-validation report in Chromium", () => {
  const srv = useServer();
  let browser: Browser;

  before(async () => {
    browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
  });

  test("renders with non-empty plots, no console errors, and a screenshot", async () => {
    const hamster = await uploadDataset(srv.base, HAMSTER);
    const cv = await runTask(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: hamster });
    const report = await runTask(`${srv.base}/validation/report/crossvalidation`, { validation_uris: cv });
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const problems: string[] = [];
    // A Content-Security-Policy violation (the report's inline stylesheets are allowed by hash) is an error too.
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`));
    });
    page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
    page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
    const response = await page.goto(report, { waitUntil: "networkidle" });
    assert.equal(response?.status(), 200);
    assert.match(response?.headers()["content-security-policy"] ?? "", /^default-src 'none'; style-src 'sha256-.*frame-ancestors 'none'$/);
    assert.match(await page.title(), /report/i);
    const plots = await page.$$eval("svg", (svgs) =>
      svgs.map((s) => {
        const box = s.getBoundingClientRect();
        return { width: box.width, height: box.height, marks: s.querySelectorAll("path, polyline, circle, line, rect").length };
      }),
    );
    assert.ok(plots.length >= 2, `${plots.length} plots (ROC and accuracy versus confidence)`);
    for (const p of plots) {
      assert.ok(p.width > 50 && p.height > 50, `plot of ${p.width}×${p.height}`);
      assert.ok(p.marks > 3, `plot with ${p.marks} marks`);
    }
    // scroll through the predictions so that their lazily loaded depictions are requested too
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForLoadState("networkidle");
    assert.deepEqual(problems, []);
    const dir = mkdtempSync(join(tmpdir(), "qsargraph-report-"));
    const shot = join(dir, "report.png");
    await page.screenshot({ path: shot, fullPage: true });
    assert.ok(statSync(shot).size > 10_000, "the screenshot holds a rendered page");
    console.log(`screenshot: ${shot}`);
  });
});
