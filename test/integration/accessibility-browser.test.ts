/**
 * The pages against the Web Content Accessibility Guidelines, checked by axe-core (Deque's rule
 * engine, the one browser accessibility audits use) in headless Chromium (issue 17: "accessible
 * and printable"): WCAG 2.0/2.1 A and AA rules on every kind of page of a service holding
 * hamster_carcinogenicity.csv, its default and lazar models, a prediction by each, a
 * cross-validation and its report, a mined dataset and one of its fragments. No violation of
 * serious or critical impact is allowed (axe's own grading; each is listed with its nodes).
 *
 * axe runs in the page, so this browser context bypasses the pages' Content-Security-Policy to
 * inject it (the other browser tests check the policy itself).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { HAMSTER, postForm, runTask } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface Violation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

describe("the pages against WCAG 2.1 AA (axe-core) in Chromium", () => {
  const srv = useServer({ upload: { hamster: HAMSTER } });
  let browser: Browser;
  let context: BrowserContext;

  before(async () => {
    browser = await launchBrowser();
    context = await browser.newContext({ bypassCSP: true, viewport: { width: 1200, height: 900 } });
  });
  after(async () => {
    await browser?.close();
  });

  async function audit(url: string): Promise<string[]> {
    const page = await context.newPage();
    try {
      assert.equal((await page.goto(url, { waitUntil: "networkidle" }))?.status(), 200, url);
      await page.addScriptTag({ content: AXE });
      const violations = (await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: Violation[] }> } }).axe;
        return (await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } })).violations;
      })) as Violation[];
      return violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${url}: ${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}${v.nodes.length > 3 ? ` (+${v.nodes.length - 3})` : ""}`);
    } finally {
      await page.close();
    }
  }

  test("every kind of page: no serious or critical violation", async () => {
    const b = srv.base;
    const ds = srv.datasets.hamster;
    const model = await runTask(`${b}/algorithm/qsar`, { dataset_uri: ds });
    const mined = await runTask(`${b}/algorithm/fminer/bbrc`, { dataset_uri: ds });
    const lazar = await runTask(`${b}/algorithm/qsar`, { dataset_uri: ds, feature_dataset_uri: mined, prediction_algorithm: "weighted_majority_vote" });
    const predict = async (m: string): Promise<string> => (await (await postForm(m, { structure: "c1ccccc1NN" })).text()).trim();
    const cv = await runTask(`${b}/validation/crossvalidation`, { dataset_uri: ds, algorithm_uri: `${b}/algorithm/qsar` });
    const report = await runTask(`${b}/validation/report/crossvalidation`, { validation_uris: cv });
    const fragment = (await (await fetch(`${mined}/features`, { headers: { Accept: "text/uri-list" } })).text()).split(/\r?\n/)[0]!;
    const compound = (await (await fetch(ds, { headers: { Accept: "text/uri-list" } })).text()).split(/\r?\n/)[0]!;
    const task = (await (await fetch(`${b}/task`, { headers: { Accept: "text/uri-list" } })).text()).split(/\r?\n/)[0]!;
    const pages = [
      `${b}/`,
      `${b}/dataset`,
      ds,
      mined,
      fragment,
      `${b}/compound`,
      compound,
      `${b}/compound?q=${encodeURIComponent("c1ccccc1N")}`,
      `${b}/algorithm`,
      `${b}/algorithm/qsar?dataset_uri=${encodeURIComponent(ds)}`,
      `${b}/algorithm/fminer/bbrc`,
      `${b}/algorithm/pc`,
      `${b}/model`,
      model,
      await predict(model),
      await predict(lazar),
      `${b}/validation`,
      `${b}/validation/crossvalidation`,
      cv,
      report,
      `${b}/task`,
      task,
      `${b}/ontology`,
      `${b}/sparql`,
      `${b}/sparql?query=${encodeURIComponent("SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 20")}`,
    ];
    const problems: string[] = [];
    for (const url of pages) problems.push(...(await audit(url)));
    assert.deepEqual(problems, []);
  });
});
