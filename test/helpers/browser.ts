/**
 * Pages in a real browser (headless Debian Chromium through playwright-core; chromium.ts): a
 * browser page that records every problem a person would meet or a developer would see in the
 * console — console errors (a Content-Security-Policy violation is logged as one), page errors,
 * failed requests and HTTP errors — screenshots in a temporary folder, and a check of links.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { CHROMIUM_ARGS, ensureChromium } from "./chromium.ts";

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
}

/** What Chromium sends as Accept when it follows a link or submits a form. */
export const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

export interface RecordedPage {
  readonly page: Page;
  /** Every problem met since the page opened (console errors, page errors, failed requests, HTTP ≥ 400). */
  readonly problems: string[];
}

/** A new page that records its problems (RecordedPage), without navigating. */
export async function recordedPage(target: Browser | BrowserContext, viewport = { width: 1200, height: 900 }): Promise<RecordedPage> {
  const page = await target.newPage({ viewport });
  const problems: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`));
  });
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()} (${page.url()})`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message} (${page.url()})`));
  page.on("requestfailed", (r) => {
    // a navigation away from a page cancels its pending loads (an EventSource, lazy images): not a failure of the service
    if (r.failure()?.errorText === "net::ERR_ABORTED") return;
    problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
  });
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  return { page, problems };
}

/**
 * Open `url` in a new recorded page (200 expected, the pages' Content-Security-Policy: inline
 * stylesheets by hash only).
 */
export async function openRecorded(browser: Browser, url: string): Promise<RecordedPage> {
  const r = await recordedPage(browser);
  const response = await r.page.goto(url, { waitUntil: "networkidle" });
  assert.equal(response?.status(), 200);
  assert.match(response?.headers()["content-security-policy"] ?? "", /^default-src 'none'; style-src 'sha256-.*frame-ancestors 'none'$/);
  return r;
}

/**
 * A folder for this run's screenshots: a new temporary one, or the folder named by
 * QSARGRAPH_SCREENSHOTS (how the README's pictures are made: docs/img).
 */
export function screenshotDir(prefix = "qsargraph-browser-"): string {
  const chosen = process.env.QSARGRAPH_SCREENSHOTS;
  if (chosen) {
    mkdirSync(chosen, { recursive: true });
    return chosen;
  }
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A full-page screenshot (in `dir`, or a new temporary folder); its path. */
export async function screenshot(page: Page, name: string, dir = screenshotDir()): Promise<string> {
  const shot = join(dir, name);
  await page.screenshot({ path: shot, fullPage: true });
  assert.ok(statSync(shot).size > 10_000, "the screenshot holds a rendered page");
  console.log(`screenshot: ${shot}`);
  return shot;
}

/** The absolute targets of the page's links (`a[href]`), without fragments. */
export async function linksOf(page: Page): Promise<string[]> {
  const hrefs = await page.$$eval("a[href]", (as) => as.map((a) => (a as HTMLAnchorElement).href));
  return hrefs.map((h) => h.replace(/#.*$/, "")).filter((h) => h.startsWith("http"));
}
