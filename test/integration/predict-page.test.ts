/**
 * Predicting from the predict box and reading the prediction page (README "Predicting";
 * http/html/predict.ts, http/html/prediction.ts, routes/models.ts, routes/depiction.ts): a SMILES
 * posted by a browser goes (303) to a page with the prediction and its neighbours, whose measured
 * values are checked against the training CSV itself; a lazar model's page draws its fragments
 * with the matched atoms highlighted; a batch with a bad line is refused naming the line and
 * stores nothing; a batch predicts as a task and its CSV uploads again; a regression model's page
 * shows the interval; the forms work with only their required fields; the live depiction, in
 * headless Chromium, draws a typed SMILES with no console error.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM_ARGS, ensureChromium } from "../helpers/chromium.ts";
import { readSmilesCsv } from "../helpers/data.ts";
import { EPAFHM, get, HAMSTER, postForm, runTask, storeSnapshot, uploadCsv, waitForTask } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { section, unescapeHtml as unescape } from "../helpers/html.ts";

const HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** POST a form as a browser does (multipart, Accept text/html, no redirect followed). */
async function browserPost(url: string, fields: Record<string, string>, file?: { text: string; name: string }): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  // A file input left empty is sent as an empty part with an empty file name.
  form.append("file", new Blob([file?.text ?? ""], { type: file ? "text/csv" : "application/octet-stream" }), file?.name ?? "");
  return fetch(url, { method: "POST", body: form, headers: { Accept: HTML }, redirect: "manual" });
}

/** The 303 of a browser's form post, and where it leads. */
async function seeOther(r: Response): Promise<string> {
  assert.equal(r.status, 303, await r.clone().text());
  return r.headers.get("location")!;
}

/** A task page's result, once the task is done. */
async function resultOf(task: string): Promise<string> {
  const done = await waitForTask(task, 300_000);
  assert.equal(done.status, 200, done.body);
  return done.body;
}

describe("the predict box and the prediction page", () => {
  const srv = useServer({ upload: { hamster: HAMSTER, epafhm: EPAFHM } });
  let model = "";
  let lazar = "";

  test("hamster's default model: c1ccccc1NN posted by a browser → 303 → the prediction, confidence, domain and neighbours with measured values from the CSV", async () => {
    model = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: srv.datasets.hamster });
    const page = await seeOther(await browserPost(model, { structure: "c1ccccc1NN" }));
    assert.match(page, new RegExp(`^${srv.base}/dataset/[a-z0-9]{12}$`));
    const t0 = performance.now();
    const r = await get(page, HTML);
    const ms = performance.now() - t0;
    const html = await r.text();
    assert.equal(r.status, 200);
    assert.match(html, /<strong>Predicted Hamster Carcinogenicity: (true|false)\.<\/strong>/);
    const confidence = /<th>Confidence<\/th><td>([^<]+)<\/td>/.exec(html)?.[1];
    assert.ok(confidence !== undefined && /^0\.\d{1,3}$|^1$/.test(confidence), `confidence to 3 significant digits: ${confidence}`);
    assert.match(html, /<th>Applicability domain<\/th><td><span class="domain-(inside|outside)">(Inside|Outside) the applicability domain: /);
    assert.match(html, /<th>Conformal p-values<\/th><td>false: [0-9.]+; true: [0-9.]+/);

    // The neighbours: each row's measured value is the training CSV's value for the row's structure.
    const rows = [...section(html, "neighbours").matchAll(/<tr><td>(\d+)<\/td><td><a href="([^"]+)"><img [^>]+><\/a><\/td><td>([^<]+)<\/td><td>([^<]*)<\/td><td><a href="[^"]+">([^<]*)<\/a><\/td><\/tr>/g)];
    assert.ok(rows.length >= 1, "at least one neighbour row");
    const csv = readSmilesCsv(HAMSTER);
    let previous = Infinity;
    for (const [, , compound, similarity, measured, smiles] of rows) {
      const sim = Number(similarity);
      assert.ok(sim > 0 && sim <= 1 && sim <= previous, `similarity ${similarity} in (0, 1], most similar first`);
      previous = sim;
      const expected = csv.filter((x) => x.smiles === unescape(smiles!)).map((x) => x.value);
      assert.ok(expected.length > 0, `the neighbour ${unescape(smiles!)} is a row of the CSV`);
      assert.ok(expected.includes(measured!), `${unescape(smiles!)}: measured ${measured}, the CSV says ${expected.join(", ")}`);
      assert.ok(compound!.startsWith(`${srv.base}/compound/InChI=1S/`));
    }
    console.log(`prediction page: ${Math.round(ms)} ms, ${rows.length} neighbours`);
  });

  test("a lazar model (weighted_majority_vote): the fragments found in the query, drawn with their atoms highlighted", async () => {
    lazar = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: srv.datasets.hamster, prediction_algorithm: "weighted_majority_vote" });
    const page = await seeOther(await browserPost(lazar, { structure: "c1ccccc1NN" }));
    const html = await (await get(page, HTML)).text();
    assert.match(html, /15 training compounds are neighbours|training compounds? (is a neighbour|are neighbours)/);
    const fragments = [...section(html, "fragments").matchAll(/<tr><td><img src="([^"]+)"[^>]*><\/td><td><a href="[^"]+">([^<]+)<\/a><\/td>/g)];
    assert.ok(fragments.length >= 1, "at least one fragment drawn");
    const stored = (await (await get(page, "application/n-triples")).text()).match(/#matchedFeature>/g)?.length ?? 0;
    assert.equal(fragments.length, Math.min(stored, 60), "every fragment the prediction stores is shown");
    for (const [, src, smartsHtml] of fragments.slice(0, 4)) {
      const smarts = unescape(smartsHtml!);
      const url = new URL(unescape(src!));
      assert.equal(url.pathname, "/depiction");
      assert.equal(url.searchParams.get("highlight"), smarts);
      const svg = await get(url.href, "image/svg+xml");
      assert.equal(svg.status, 200);
      const text = await svg.text();
      // each atom of a miner's SMARTS is one bracket atom: that many atoms highlighted in RDKit's highlight colour
      const atoms = (smarts.match(/\[/g) ?? []).length;
      assert.equal(text.match(/<ellipse [^>]*style='fill:#FF7F7F/g)?.length ?? 0, atoms, `${smarts}: ${atoms} atoms highlighted`);
    }
  });

  test("a name the service knows (a dataset's name column) predicts as its structure does; an unknown name is refused naming its line", async () => {
    // a dataset that names two compounds (README "CSV rules": a column whose header ends in "name")
    await uploadCsv(srv.base, "SMILES,Chemical Name,x\nc1ccccc1NN,Phenylhydrazine,1\nCCO,ethanol,2\n", "names.csv");
    const bySmiles = await postForm(model, { structure: "c1ccccc1NN" });
    const byName = await postForm(model, { structure: "phenylhydrazine" });
    assert.equal(byName.status, 200, "the prediction of the same compound, asked before");
    assert.equal((await byName.text()).trim(), (await bySmiles.text()).trim());
    const unknown = await postForm(model, { structure: "CCO\nno such chemical" }, "text/plain");
    assert.equal(unknown.status, 400);
    assert.match(await unknown.text(), /line 2: 'no such chemical' is no structure, InChIKey or name the service knows/);
  });

  test("a batch of 3 with a bad second line: 400 naming line 2, nothing stored", async () => {
    const before = await storeSnapshot(srv.base);
    const r = await postForm(model, { structure: "CCO\nC1CC(\nc1ccccc1O" }, "text/plain");
    const body = await r.text();
    assert.equal(r.status, 400, body);
    assert.match(body, /line 2: SMILES could not be parsed/);
    assert.doesNotMatch(body, /line 1|line 3/);
    assert.deepEqual(await storeSnapshot(srv.base), before, "no dataset, compound or prediction stored");
  });

  test("a batch of 3 predicts as a task; its page is a table; its CSV has distinct columns and uploads again", async () => {
    // CC=O is the first row of the training CSV (true): measured, not predicted.
    const task = await seeOther(await browserPost(model, { structure: "CC=O\n\nc1ccccc1NN\nc1ccccc1O\n" }));
    assert.match(task, /\/task\//);
    const prediction = await resultOf(task);
    const html = await (await get(prediction, HTML)).text();
    const rows = [...section(html, "predictions").matchAll(/<tr><td>(\d+)<\/td>/g)].map((m) => Number(m[1]));
    assert.deepEqual(rows, [2, 3, 4], "one row per structure, by its line in the dataset made of them");
    assert.match(html, /<td>training compound<\/td><td>true<\/td>/);
    const csv = await (await get(prediction, "text/csv")).text();
    const header = csv.split("\n")[0]!.split(",");
    assert.deepEqual([...header].sort(), ["Hamster Carcinogenicity (measured)", "Hamster Carcinogenicity (predicted)", "Hamster Carcinogenicity confidence", "SMILES"]);
    assert.equal(new Set(header).size, header.length);
    const again = await uploadCsv(srv.base, csv, "prediction.csv");
    const back = await (await get(again, "text/csv")).text();
    const rowsOf = (text: string): string[][] => text.trim().split("\n").map((l) => l.split(","));
    assert.deepEqual(rowsOf(back)[0], header, "the same columns");
    const byFirst = (text: string) => new Map(rowsOf(text).slice(1).map((r) => [r[0], r.slice(1).map((x) => (x === "" ? "" : Number.isNaN(Number(x)) ? x : Number(x)))]));
    assert.deepEqual(byFirst(back), byFirst(csv), "the same values");
  });

  test("a file in the box: predicted as a task", async () => {
    const task = await seeOther(await browserPost(model, { structure: "" }, { text: "SMILES\nCCN\nCCCl\n", name: "two.csv" }));
    const prediction = await resultOf(task);
    const nt = await (await get(prediction, "application/n-triples")).text();
    assert.equal(nt.match(/#dataEntry>/g)?.length, 2);
  });

  test("a regression model (EPAFHM.medi): the page shows the interval around the predicted value", async () => {
    const regressor = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: srv.datasets.epafhm });
    const page = await seeOther(await browserPost(regressor, { structure: "CCCCCCCCCCO" }));
    const html = await (await get(page, HTML)).text();
    const num = (s: string): number => Number(s.replace("−", "-"));
    const predicted = /Predicted [^:]+: ([^<]+)\.<\/strong>/.exec(html)?.[1];
    const interval = /<th>Prediction interval<\/th><td>([^<]+) to ([^<]+) at confidence 0\.8<\/td>/.exec(html);
    assert.ok(predicted !== undefined && interval, "a value and an interval at the model's level 0.8");
    assert.ok(num(interval[1]!) < num(predicted) && num(predicted) < num(interval[2]!), `${interval[1]} < ${predicted} < ${interval[2]}`);
  });

  test("forms with only their required fields: the model page's box and dataset form, the home form's model choice", async () => {
    const modelPage = await (await get(model, HTML)).text();
    assert.match(modelPage, /<section id="predict-box"><h2>Predict<\/h2><form id="predict"/);
    assert.ok(modelPage.indexOf('id="predict"') < modelPage.indexOf('id="model"'), "the box comes first");
    // the box: the structure only (the file input left empty)
    assert.match(await seeOther(await browserPost(model, { structure: "CCCCN" })), /\/dataset\//);
    // the dataset form: dataset_uri only
    const r = await fetch(model, { method: "POST", body: new URLSearchParams({ dataset_uri: srv.datasets.hamster }), headers: { Accept: HTML }, redirect: "manual" });
    assert.match(await seeOther(r), /\/task\//);
    // the home page's form: the model chosen, a structure
    assert.match(await seeOther(await browserPost(`${srv.base}/model`, { model_uri: lazar, structure: "CCCCN" })), /\/dataset\//);
    const bad = await postForm(`${srv.base}/model`, { model_uri: `${srv.base}/dataset/x`, structure: "CCO" }, "text/plain");
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /model_uri/);
    // nothing, or two things at once
    assert.equal((await browserPost(model, {})).status, 400);
    assert.equal((await postForm(model, { structure: "CCO", dataset_uri: srv.datasets.hamster })).status, 400);
  });

  test("the predicted variables answer HTML; the model page lists a cross-validation made from its own link", async () => {
    for (const which of ["value", "confidence"]) {
      const r = await get(`${model}/predicted/${which}`, HTML);
      assert.equal(r.status, 200);
      assert.match(r.headers.get("content-type") ?? "", /^text\/html/);
    }
    const page = await (await get(model, HTML)).text();
    const href = unescape(/<a href="([^"]+)">Cross-validate this model<\/a>/.exec(page)![1]!);
    const q = new URL(href).searchParams;
    assert.equal(q.get("dataset_uri"), srv.datasets.hamster);
    // the link's parameters are accepted by the cross-validation as they are
    const cv = await runTask(`${srv.base}/validation/crossvalidation`, { ...Object.fromEntries(q), num_folds: "2" });
    const listed = section(await (await get(model, HTML)).text(), "validations");
    assert.ok(listed.includes(cv), "the new cross-validation is listed");
    assert.match(listed, /accuracy 0\.\d+, AUC 0\.\d+, \d+ of 85 predicted/);
  });

  test("the depiction: a bad SMILES is a 422 with a message, and the next request is drawn", async () => {
    const bad = await get(`${srv.base}/depiction?smiles=${encodeURIComponent("C1CC(")}`, "image/svg+xml, text/plain;q=0.5");
    assert.equal(bad.status, 422);
    assert.match(await bad.text(), /not a structure/);
    const good = await get(`${srv.base}/depiction?smiles=${encodeURIComponent("c1ccccc1NN")}`, "image/svg+xml");
    assert.equal(good.status, 200);
    assert.match(await good.text(), /<svg[\s\S]*<\/svg>/);
    assert.equal((await get(`${srv.base}/depiction?smiles=${encodeURIComponent("InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3")}`, "image/svg+xml")).status, 200, "an InChI is drawn too");
  });

  describe("in headless Chromium", () => {
    let browser: Browser;
    before(async () => {
      browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
    });
    after(async () => {
      await browser?.close();
    });

    test("typing a SMILES draws it; submitting shows the prediction with its neighbours; no console error", async () => {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const problems: string[] = [];
      page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
      page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
      page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
      await page.goto(model, { waitUntil: "networkidle" });
      await page.fill("#predict-structure", "c1ccccc1NN");
      const img = page.locator("#predict-drawing img");
      await img.waitFor({ state: "visible", timeout: 15_000 });
      await page.waitForFunction(() => ((document.querySelector("#predict-drawing img") as HTMLImageElement | null)?.naturalWidth ?? 0) > 0, undefined, { timeout: 15_000 });
      assert.match((await img.getAttribute("src")) ?? "", /\/depiction\?smiles=c1ccccc1NN$/);
      const dir = mkdtempSync(join(tmpdir(), "qsargraph-predict-"));
      await page.screenshot({ path: join(dir, "predict-box.png") });
      await Promise.all([page.waitForURL(/\/dataset\//), page.click("#predict button")]);
      await page.waitForLoadState("networkidle");
      assert.ok((await page.locator("#neighbours tr").count()) >= 2, "the neighbours table has rows");
      await page.screenshot({ path: join(dir, "prediction.png"), fullPage: true });
      assert.ok(statSync(join(dir, "prediction.png")).size > 10_000);
      console.log(`screenshots in ${dir}`);
      assert.deepEqual(problems, []);
    });
  });
});
