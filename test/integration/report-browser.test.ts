/**
 * The cross-validation report in a real browser (docs/cross-validation.md "The report" and
 * "Comparing cross-validations"): headless Debian Chromium through playwright-core opens the
 * report of a 10-fold cross-validation of hamster_carcinogenicity.csv, and the comparison report
 * of two of them with the same seed (default lazar and prediction_algorithm=kernel_svm); the
 * page renders, its plots are present and not empty (SVG elements with a visible size and drawn
 * paths), the comparison's overlaid plots name both cross-validations in their legends, the
 * browser reports no console errors or failed requests, no Content-Security-Policy violation
 * under the policy the page is served with, and a screenshot is written to a temporary folder.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { launchBrowser, openRecorded, screenshot } from "../helpers/browser.ts";
import { HAMSTER, uploadDataset, runTask } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";

/** The SVG plots of the page: size and number of drawn marks each. */
async function plotsOf(page: Page, selector = "svg"): Promise<{ width: number; height: number; marks: number; title: string; legend: string[] }[]> {
  return page.$$eval(selector, (svgs) =>
    svgs.map((s) => {
      const box = s.getBoundingClientRect();
      return {
        width: box.width,
        height: box.height,
        marks: s.querySelectorAll("path, polyline, circle, line, rect").length,
        title: s.querySelector("title")?.textContent ?? "",
        legend: [...s.querySelectorAll("g.legend text")].map((t) => t.textContent ?? ""),
      };
    }),
  );
}

describe("the cross-validation report in Chromium", () => {
  const srv = useServer();
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  let hamster = "";
  let lazar = "";

  test("renders with non-empty plots, no console errors, and a screenshot", async () => {
    hamster = await uploadDataset(srv.base, HAMSTER);
    lazar = await runTask(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: hamster, algorithm_params: "prediction_algorithm=weighted_majority_vote" });
    const report = await runTask(`${srv.base}/validation/report/crossvalidation`, { validation_uris: lazar });
    const { page, problems } = await openRecorded(browser, report);
    assert.match(await page.title(), /report/i);
    const plots = await plotsOf(page);
    assert.ok(plots.length >= 2, `${plots.length} plots (ROC and accuracy versus confidence)`);
    for (const p of plots) {
      assert.ok(p.width > 50 && p.height > 50, `plot of ${p.width}×${p.height}`);
      assert.ok(p.marks > 3, `plot with ${p.marks} marks`);
    }
    // scroll through the predictions so that their lazily loaded depictions are requested too
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForLoadState("networkidle");
    assert.deepEqual(problems, []);
    await screenshot(page, "report.png");
  });

  test("a comparison of lazar and kernel_svm (same seed): legends name both, plots drawn, no errors, a screenshot", async () => {
    const kernel = await runTask(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: hamster, algorithm_params: "prediction_algorithm=kernel_svm" });
    const report = await runTask(`${srv.base}/validation/report/crossvalidation`, { validation_uris: `${lazar},${kernel}` });
    const { page, problems } = await openRecorded(browser, report);
    assert.equal(await page.locator("#comparison table.comparison thead th").count(), 3, "a column for each cross-validation");
    assert.equal(await page.locator(".warning").count(), 0, "same dataset, folds and seed: comparable");
    const plots = await plotsOf(page, "#comparison-plots svg");
    assert.deepEqual(plots.map((p) => p.title), ["ROC curve of class true", "Accuracy versus coverage", "Conformal calibration"]);
    for (const p of plots) {
      assert.ok(p.width > 50 && p.height > 50, `${p.title}: ${p.width}×${p.height}`);
      assert.ok(p.marks > 10, `${p.title}: ${p.marks} marks`);
    }
    // the report lists its cross-validations in URI order, numbered 1, 2 in that order
    const names = [lazar, kernel].sort().map((u, k) => `${k + 1}: ${u === lazar ? "lazar WMV" : "kernel SVM"}`);
    for (const p of plots.slice(0, 2)) assert.deepEqual(p.legend, names, p.title);
    assert.deepEqual(plots[2]!.legend, names.filter((n) => n.endsWith("kernel SVM")), "only the conformal model has a calibration");
    // the calibration line and the ROC lines are drawn inside the plot area (a path with several points each)
    const drawn = await page.$$eval("#comparison-plots svg path.series", (ps) => ps.map((p) => (p.getAttribute("d") ?? "").split(/[ML]/).filter(Boolean).length));
    assert.ok(drawn.filter((n) => n >= 5).length >= 5, `paths of ${drawn.join(", ")} points`);
    // each full report opens (details, no script) and draws its own plots
    const kernelDetails = page.locator("details.cv-detail > summary").nth([lazar, kernel].sort().indexOf(kernel));
    await kernelDetails.click();
    const own = await plotsOf(page, "details.cv-detail[open] svg");
    assert.ok(own.some((p) => p.title === "Conformal calibration" && p.width > 50), "the kernel report's calibration plot");
    await kernelDetails.click();
    await page.waitForLoadState("networkidle");
    assert.deepEqual(problems, []);
    await screenshot(page, "comparison.png");
  });
});
