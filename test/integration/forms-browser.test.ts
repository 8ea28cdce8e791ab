/**
 * The forms and the task page in a real browser (docs/opentox-api.md "Forms and the task page"),
 * headless Debian Chromium through playwright-core:
 * - with scripts: the qsar form, the hamster dataset chosen, offers only hamster's endpoint (the
 *   forms script hides the other dataset's group); a submit lands on the task page, which follows
 *   the task and is replaced by the model page; no console error, failed request, HTTP error or
 *   Content-Security-Policy violation on the way;
 * - without scripts: the same form with lazar's weighted majority vote lands on the task page,
 *   which reloads itself (meta refresh) until the task is done and then shows a link to the model;
 * - a failing task (a search limit of one pattern) ends on the task page with its error in one
 *   block saying what to do;
 * - the cancel button of a long task (descriptors of 580 compounds, every pc_type of both
 *   libraries) cancels it: the page then says so.
 * Screenshots go to a temporary folder.
 *
 * Data: hamster_carcinogenicity.csv (85 compounds, true/false) and EPAFHM_log10.csv (580 compounds,
 * numeric), lazar's test data (SOURCES.md).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { CHROMIUM_ARGS, ensureChromium } from "../helpers/chromium.ts";
import { DATA, HAMSTER, taskState } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";

const EPAFHM_LOG10 = `${DATA}lazar/test/data/EPAFHM_log10.csv`;
const shots = mkdtempSync(join(tmpdir(), "qsargraph-forms-"));

/** Record console errors, page errors, failed requests (but those a navigation away aborts), HTTP errors and CSP violations of a page. */
function record(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => {
    // the task's event stream is cut when the page forwards to the result
    if (r.failure()?.errorText === "net::ERR_ABORTED" && r.resourceType() === "eventsource") return;
    problems.push(`request failed: ${r.method()} ${r.resourceType()} ${r.url()} ${r.failure()?.errorText ?? ""}`);
  });
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  return problems;
}

async function newPage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`));
  });
  return { page, problems: record(page) };
}

async function screenshot(page: Page, name: string): Promise<void> {
  const path = join(shots, name);
  await page.screenshot({ path, fullPage: true });
  assert.ok(statSync(path).size > 5_000, "the screenshot holds a rendered page");
  console.log(`screenshot: ${path}`);
}

describe("the forms and the task page in Chromium", () => {
  const srv = useServer({ upload: { hamster: HAMSTER, epafhm: EPAFHM_LOG10 } });
  let browser: Browser;
  let scripted: BrowserContext;
  let plain: BrowserContext;

  before(async () => {
    browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
    scripted = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    plain = await browser.newContext({ viewport: { width: 1200, height: 900 }, javaScriptEnabled: false });
  });
  after(async () => {
    await browser?.close();
  });

  test("with scripts: the qsar form offers the chosen dataset's endpoint; submit → the task page → forwarded to the model page", async () => {
    const { page, problems } = await newPage(scripted);
    const r = await page.goto(`${srv.base}/algorithm/qsar`, { waitUntil: "networkidle" });
    assert.equal(r?.status(), 200);
    await page.selectOption("#p-dataset_uri", srv.datasets.hamster);
    const groups = await page.$$eval("#p-prediction_feature optgroup", (gs) => gs.map((g) => ({ dataset: g.getAttribute("data-dataset"), hidden: (g as HTMLOptGroupElement).hidden })));
    assert.deepEqual(groups.filter((g) => !g.hidden).map((g) => g.dataset), [srv.datasets.hamster], "only hamster's endpoint is offered");
    assert.equal(groups.length, 2, "both uploaded datasets have a group");
    await screenshot(page, "qsar-form.png");
    const landed: string[] = [];
    page.on("framenavigated", (f) => f === page.mainFrame() && landed.push(f.url()));
    await page.click("button[type=submit]");
    await page.waitForURL(/\/model\/[a-z0-9]{12}$/, { timeout: 120_000 });
    assert.match(landed[0] ?? "", /\/task\/[a-z0-9]{12}$/, `first the task page (${landed.join(", ")})`);
    assert.match(await page.title(), /model/);
    const task = landed[0]!;
    assert.equal((await taskState(task)).status, "Completed");
    await page.waitForLoadState("networkidle");
    assert.deepEqual(problems, []);
    await screenshot(page, "model.png");
  });

  test("without scripts: submit → the task page refreshes itself until done, then links the model", async () => {
    const { page, problems } = await newPage(plain);
    await page.goto(`${srv.base}/algorithm/qsar`);
    await page.selectOption("#p-dataset_uri", srv.datasets.hamster);
    await page.click("details > summary"); // the optional parameters
    await page.selectOption("#p-prediction_algorithm", "weighted_majority_vote");
    await page.click("button[type=submit]");
    await page.waitForURL(/\/task\/[a-z0-9]{12}$/);
    // the meta refresh reloads the page every 2 s until the task is done
    await page.locator("#task-result a").waitFor({ timeout: 120_000 });
    assert.equal(await page.locator("#task-status").textContent(), "Completed");
    await screenshot(page, "task-done-without-scripts.png");
    await page.click("#task-result a");
    await page.waitForURL(/\/model\/[a-z0-9]{12}$/);
    assert.deepEqual(problems, []);
  });

  test("a failing task: the task page shows the error in one block with what to do", async () => {
    const { page, problems } = await newPage(scripted);
    await page.goto(`${srv.base}/algorithm/qsar?dataset_uri=${encodeURIComponent(srv.datasets.hamster)}&prediction_algorithm=weighted_majority_vote&max_visited=1`);
    assert.equal(await page.inputValue("#p-max_visited"), "1", "prefilled from the query string");
    await page.click("button[type=submit]");
    await page.waitForURL(/\/task\/[a-z0-9]{12}$/);
    const error = page.locator("#task-error");
    await error.waitFor({ timeout: 120_000 });
    const text = (await error.textContent()) ?? "";
    assert.match(text, /The task failed/);
    assert.match(text, /max_visited/, "the message names the parameter to change");
    assert.match(text, /correct it and submit it again/);
    assert.equal(await page.locator("#task-status").textContent(), "Error");
    await screenshot(page, "task-error.png");
    // the task's GET answers the error's status (400): the browser's only HTTP error here
    assert.deepEqual(problems.filter((p) => !/^HTTP 400: .*\/task\//.test(p) && !/^console: Failed to load resource: the server responded with a status of 400/.test(p)), []);
  });

  test("the cancel button stops a long task; the page then says it was cancelled", async () => {
    const { page, problems } = await newPage(scripted);
    await page.goto(`${srv.base}/algorithm/pc/AllDescriptors?dataset_uri=${encodeURIComponent(srv.datasets.epafhm)}&lib=cdk,rdkit`);
    await page.click("button[type=submit]");
    await page.waitForURL(/\/task\/[a-z0-9]{12}$/);
    const task = page.url();
    const cancel = page.locator("#task-cancel button");
    await cancel.waitFor({ state: "visible" });
    assert.notEqual((await taskState(task)).status, "Completed", "still running when cancelled");
    await cancel.click();
    await page.locator("#task-error").filter({ hasText: "cancelled" }).waitFor({ timeout: 60_000 });
    assert.equal((await taskState(task)).status, "Cancelled");
    assert.deepEqual(problems.filter((p) => !/^HTTP 503: .*\/task\//.test(p) && !/status of 503/.test(p)), [], "a cancelled task answers 503");
  });
});
