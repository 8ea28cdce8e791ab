/**
 * A person in a browser on a service with API tokens (README "Access control"), in headless
 * Debian Chromium through playwright-core: the dataset page's upload form carries the token
 * field; filling it in and choosing hamster_carcinogenicity.csv uploads (202, the task page);
 * the task page follows the task (its script, docs/opentox-api.md "Forms and the task page") and
 * opens the dataset page when it completes, with its structure depictions (SVG images) drawn. Every page is served with its
 * Content-Security-Policy, and the browser reports no CSP violation (a `securitypolicyviolation`
 * listener turns each into a console error), no console error, no failed request and no HTTP
 * error on the way.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { launchBrowser, recordedPage } from "../helpers/browser.ts";
import { HAMSTER } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";

const ALICE = "alice-0123456789abcdef0123456789";

describe("writing through the HTML forms with a token, in Chromium", () => {
  const srv = useServer({ env: { QSARGRAPH_TOKENS: `alice ${ALICE}` } });
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  test("upload with the form's token field, follow the task to the dataset page; no CSP violation", async () => {
    const { page, problems } = await recordedPage(browser);
    const policies: string[] = [];
    page.on("response", (r) => {
      if (r.request().resourceType() === "document") policies.push(r.headers()["content-security-policy"] ?? "");
    });

    const list = await page.goto(`${srv.base}/dataset`, { waitUntil: "networkidle" });
    assert.equal(list?.status(), 200);
    await page.fill('input[name="api_token"]', ALICE);
    await page.setInputFiles('input[name="file"]', HAMSTER);
    // the form's POST is answered 303 to the task page
    const [answer] = await Promise.all([page.waitForNavigation(), page.click("button:has-text('Upload')")]);
    assert.ok([200, 202].includes(answer?.status() ?? 0), "the task page: 202 while the task runs, 200 when it is done");
    assert.equal((await answer?.request().redirectedFrom()?.response())?.status(), 303);
    assert.match(page.url(), /\/task\/[a-z2-9]{12}$/);
    assert.match(await page.title(), /^Task: Upload hamster_carcinogenicity\.csv/);

    // The task page follows the task (forms.js: its event stream) and then opens the dataset.
    assert.match(page.url(), /\/task\/[a-z2-9]{12}$/);
    await page.waitForURL(/\/dataset\/[a-z2-9]{12}$/, { timeout: 180_000 });
    await page.waitForLoadState("networkidle");
    const drawn = await page.$$eval("img", (imgs) => imgs.filter((i) => i.complete && i.naturalWidth > 0).length);
    assert.ok(drawn >= 5, `${drawn} depictions drawn`);

    assert.ok(policies.length >= 4, `${policies.length} documents`);
    for (const p of policies) assert.match(p, /default-src 'none'; style-src 'sha256-/, "every page has its policy");
    assert.deepEqual(problems, []);
  });
});
