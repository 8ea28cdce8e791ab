/**
 * The whole job in a real browser, as a new user does it with only a browser (issue 17; README
 * "In the browser"): headless Debian Chromium through playwright-core, no HTTP client of the
 * test's own. For a classification set (hamster_carcinogenicity.csv, 85 compounds) and a
 * regression set (EPAFHM.medi_log10.csv, 91 compounds): upload the file from the home page's form
 * → the task page follows the upload and leads to the dataset → "build a model" → the generated
 * qsar form submitted with its defaults → the model page → the SMILES `c1ccccc1NN` typed in the
 * predict box (drawn live) → the prediction page with its neighbours → "cross-validate" → the CV
 * form submitted with its defaults → the cross-validation → its report.
 *
 * Every page visited: no console error, no page error, no failed request, no HTTP error, no CSP
 * violation (test/helpers/browser.ts), and every link on it answers (each distinct link once, as a
 * browser asks: Accept text/html). Screenshots of each step go to a temporary folder (printed).
 *
 * What is checked against the data: the dataset page says 85 (91) compounds (the files' data
 * rows); the nearest neighbour of phenylhydrazine shown on the prediction page is a hamster
 * training compound whose measured value on the page is the one in the CSV.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { parse as parseCsv } from "csv-parse/sync";
import { BROWSER_ACCEPT, launchBrowser, linksOf, recordedPage, screenshot, screenshotDir, type RecordedPage } from "../helpers/browser.ts";
import { EPAFHM, HAMSTER } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";

const ID = "[a-z2-9]{12}";
const LONG = { timeout: 300_000 };

describe("the whole job in Chromium", () => {
  const srv = useServer();
  let browser: Browser;
  const shots = screenshotDir("qsargraph-workflow-");
  /** every link already checked (a link is fetched once for the whole test) */
  const checked = new Map<string, number>();

  before(async () => {
    browser = await launchBrowser();
    console.log(`screenshots in ${shots}`);
  });
  after(async () => {
    await browser?.close();
  });

  /** Check every link of the page not checked before: each must answer < 400 to a browser's GET. */
  async function checkLinks(r: RecordedPage): Promise<void> {
    const fresh = [...new Set(await linksOf(r.page))].filter((u) => u.startsWith(srv.base) && !checked.has(u));
    for (const u of fresh) {
      const res = await r.page.request.get(u, { headers: { Accept: BROWSER_ACCEPT }, maxRedirects: 5 });
      checked.set(u, res.status());
      await res.dispose();
    }
    const broken = fresh.filter((u) => checked.get(u)! >= 400).map((u) => `${checked.get(u)} ${u}`);
    assert.deepEqual(broken, [], `broken links on ${r.page.url()}`);
  }

  /** After each step: the page is complete, nothing went wrong so far, links answer, a screenshot. */
  async function step(r: RecordedPage, name: string): Promise<void> {
    await r.page.waitForLoadState("networkidle");
    assert.deepEqual(r.problems, [], `problems up to ${r.page.url()}`);
    await checkLinks(r);
    await screenshot(r.page, `${name}.png`, shots);
  }

  /** Click and wait for the navigation it starts (a form submit or a link). */
  async function go(page: Page, selector: string): Promise<void> {
    await Promise.all([page.waitForNavigation(), page.click(selector)]);
  }

  async function workflow(kind: string, file: string, rows: number, measured: (smiles: string) => string[]): Promise<void> {
    const r = await recordedPage(browser);
    const { page } = r;
    // 1. the home page: upload
    assert.equal((await page.goto(`${srv.base}/`, { waitUntil: "networkidle" }))?.status(), 200);
    await step(r, `${kind}-1-home`);
    await page.setInputFiles("#upload input[type=file]", file);
    await go(page, "#upload button[type=submit], #upload input[type=submit]");
    assert.match(page.url(), new RegExp(`/task/${ID}$`), "the upload form leads to its task");
    // 2. the task page follows the task and forwards to the dataset
    await page.waitForURL(new RegExp(`/dataset/${ID}$`), LONG);
    assert.match(await page.locator("main").innerText(), new RegExp(`\\b${rows}\\b`), `the dataset page says ${rows}`);
    await step(r, `${kind}-2-dataset`);
    // 3. build a model: the qsar form prefilled with this dataset, defaults everywhere else
    const dataset = page.url();
    await go(page, `a[href*="/algorithm/qsar?"][href*="${encodeURIComponent(dataset)}"]`);
    await step(r, `${kind}-3-qsar-form`);
    await go(page, "form[method=post] button[type=submit]");
    await page.waitForURL(new RegExp(`/model/${ID}$`), LONG);
    await step(r, `${kind}-4-model`);
    // 4. predict from the SMILES box: the structure is drawn as it is typed
    const model = page.url();
    const box = page.locator("#predict [name=structure]");
    await box.fill("c1ccccc1NN");
    await page.waitForSelector("#predict img[src*='/depiction?']", { state: "visible" });
    assert.ok(await page.$eval("#predict img[src*='/depiction?']", (i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0), "the drawing is loaded");
    await go(page, "#predict button[type=submit]");
    assert.match(page.url(), new RegExp(`/dataset/${ID}$`), "the prediction page");
    const neighbours = page.locator("#neighbours tr:has(td)");
    assert.ok((await neighbours.count()) >= 1, "at least one neighbour shown");
    // each neighbour shown: a training compound of the file, with its measured value as the file has it
    for (let i = 0; i < (await neighbours.count()); i++) {
      const cells = neighbours.nth(i).locator("td");
      const smiles = (await cells.nth(4).innerText()).trim();
      const shown = (await cells.nth(3).innerText()).trim().replace("\u2212", "-");
      const inFile = measured(smiles);
      assert.ok(inFile.length > 0, `neighbour ${smiles} is a row of the file`);
      // numbers are shown to 3 significant digits; a structure on several rows has several measurements, one per training instance
      const expected = inFile.map((v) => (Number.isFinite(Number(v)) ? String(Number(Number(v).toPrecision(3))) : v));
      assert.ok(expected.includes(Number.isFinite(Number(shown)) ? String(Number(shown)) : shown), `neighbour ${smiles}: ${shown}, the file has ${inFile.join(", ")}`);
    }
    await step(r, `${kind}-5-prediction`);
    // 5. cross-validate the model: the CV form prefilled from the model page
    await page.goto(model, { waitUntil: "networkidle" });
    await go(page, `a[href*="/validation/crossvalidation?"]`);
    await step(r, `${kind}-6-cv-form`);
    await go(page, "form[method=post] button[type=submit]");
    await page.waitForURL(new RegExp(`/validation/crossvalidation/${ID}$`), LONG);
    await step(r, `${kind}-7-crossvalidation`);
    // 6. its report
    await go(page, "#make-report button[type=submit]");
    await page.waitForURL(new RegExp(`/validation/report/crossvalidation/${ID}$`), LONG);
    assert.ok((await page.locator("svg").count()) >= 2, "the report draws its plots");
    await step(r, `${kind}-8-report`);
    await page.close();
  }

  /** SMILES → its values in the file (as written there; a structure may be on several rows), for a CSV of SMILES and one endpoint. */
  const values = (file: string): ((smiles: string) => string[]) => {
    const rows = parseCsv(readFileSync(file), { columns: false, from_line: 2 }) as string[][];
    const m = new Map<string, string[]>();
    for (const [smiles, value] of rows) m.set(smiles!, [...(m.get(smiles!) ?? []), value!]);
    return (s) => m.get(s) ?? [];
  };

  test("hamster (classification): upload, default model, predict c1ccccc1NN with its neighbours, 10-fold CV, report", async () => {
    await workflow("hamster", HAMSTER, 85, values(HAMSTER));
  });

  test("EPAFHM (regression): the same", async () => {
    await workflow("epafhm", EPAFHM, 91, values(EPAFHM));
  });
});
