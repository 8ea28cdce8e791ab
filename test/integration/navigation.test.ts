/**
 * Finding one's way in the browser (issue 17 "Navigate"; README "In the browser: pages and
 * lists", "Finding compounds"), against the real server with three uploads, in this order:
 * hamster_carcinogenicity.csv (85 compounds: fixtures/data/SOURCES.md), EPAFHM.medi_log10.csv
 * (91 rows, 88 distinct SMILES cells: counted in this test from the file) and the first ten data
 * rows of cpdb_100.csv (CPDB; ten distinct structures; its column `TestSubstance_ChemicalName`
 * names them — `Acetaldehyde` is row 3, structure `CC=O`).
 *
 * - the header links every collection, each answering 200 (HTML, the API description JSON), and
 *   marks the current one;
 * - the dataset list shows title, date and size, newest first by default; `?sort=` reorders (the
 *   expected orders from the upload order, the files' sizes and the titles' alphabet); the model,
 *   validation and task lists are tables with sort links; the uri-lists are unchanged;
 * - after a model is built, the dataset page lists it, and every action link or form answers;
 * - the compound search finds acetaldehyde (PubChem CID 177: InChI=1S/C2H4O/c1-2-3/h2H,1H3,
 *   InChIKey IKHGUXGNUITLKF-UHFFFAOYSA-N) by another SMILES spelling (`O=CC`), by its InChIKey, and
 *   by its name in lower case; its page lists the datasets it is in with their values;
 * - a substructure search counts the compounds RDKit counts (RDKit's own SMARTS matcher, run here on
 *   every SMILES of the three files, counted by distinct standard InChI); hostile patterns get a 400
 *   or a bounded answer, and the next request works.
 * A second server with Kazius (4,069 compounds) prints the page times (the goal is ≤ 300 ms; not
 * asserted: the test machine is shared).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { loadRDKit } from "../../src/chem/rdkit.ts";
import { DATA, EPAFHM, get, HAMSTER, KAZIUS, runTask } from "../helpers/server.ts";
import { useServer, withServer } from "../helpers/use-server.ts";

const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const CPDB10 = readFileSync(`${DATA}lazar/test/data/cpdb_100.csv`, "utf8").split("\n").slice(0, 11).join("\n") + "\n";
const ACETALDEHYDE = { inchi: "InChI=1S/C2H4O/c1-2-3/h2H,1H3", key: "IKHGUXGNUITLKF-UHFFFAOYSA-N" };

async function html(url: string): Promise<string> {
  const r = await get(url, "text/html");
  const body = await r.text();
  assert.equal(r.status, 200, `${url}: ${body.slice(0, 300)}`);
  return body;
}

/** The titles (link texts of the first column) of a list page's table body, in order. */
function listTitles(page: string): string[] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(page)?.[1] ?? "";
  return [...body.matchAll(/<tr><td><a href="[^"]*">([^<]*)<\/a>/g)].map((m) => m[1]!);
}

/** A cell of each row of a list page's table (0-based column). */
function listColumn(page: string, column: number): string[] {
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(page)?.[1] ?? "";
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => [...m[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)][column]?.[1] ?? "");
}

/** Every href of a part of a page, decoded from HTML. */
function hrefs(part: string): string[] {
  return [...part.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&#38;/g, "&").replace(/&amp;/g, "&"));
}

describe("navigation: header, lists, dataset pages, compound search", () => {
  const srv = useServer({ upload: { hamster: HAMSTER, epafhm: EPAFHM, cpdb: { text: CPDB10, name: "cpdb10.csv" } } });

  test("the header links every collection, each answering 200; the current section is marked; a skip link leads to the content", async () => {
    const home = await html(`${srv.base}/`);
    const header = /<header>([\s\S]*?)<\/header>/.exec(home)?.[1] ?? "";
    const labels = [...header.matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);
    assert.deepEqual(labels, ["qsargraph", "Datasets", "Compounds", "Models", "Validations", "Algorithms", "Tasks", "SPARQL", "Ontology", "API description"]);
    assert.match(header, /<a href="[^"]*\/" aria-current="page">qsargraph</);
    assert.match(home, /<a class="skip" href="#main">/);
    assert.match(home, /<main id="main">/);
    for (const href of hrefs(header)) {
      const r = await get(href, BROWSER);
      assert.equal(r.status, 200, href);
      const type = r.headers.get("content-type") ?? "";
      if (href.endsWith("/openapi.json")) assert.match(type, /json/, href);
      else {
        assert.match(type, /^text\/html/, href);
        const page = await r.text();
        const path = href.slice(srv.base.length);
        if (path !== "/") assert.match(page, new RegExp(`<a href="${href.replace(/[.?*+^$()[\]\\]/g, "\\$&")}" aria-current="page">`), `${path} is marked as the current page`);
      }
    }
    const dataset = await html(srv.datasets.hamster);
    assert.match(dataset, /<a href="[^"]*\/dataset" aria-current="location">Datasets</, "a dataset's page is within Datasets");
  });

  test("the dataset list: title, date and size; newest first; ?sort= and ?order= reorder; uri-list unchanged", async () => {
    // 88 compounds: the distinct SMILES cells of EPAFHM.medi_log10.csv
    const epafhmSmiles = new Set(readFileSync(EPAFHM, "utf8").split(/\r?\n/).slice(1).filter(Boolean).map((l) => l.split(",")[0]));
    assert.equal(epafhmSmiles.size, 88);
    const titles = { hamster: "hamster_carcinogenicity", epafhm: "EPAFHM.medi_log10", cpdb: "cpdb10" };
    const page = await html(`${srv.base}/dataset`);
    assert.deepEqual(listTitles(page), [titles.cpdb, titles.epafhm, titles.hamster], "newest first: the reverse of the upload order");
    assert.deepEqual(listColumn(page, 3), ["10", "88", "85"], "the compounds of each upload");
    assert.equal(listColumn(page, 2).filter((c) => /<time datetime="\d{4}-\d\d-\d\dT/.test(c)).length, 3, "a date on every row");
    assert.deepEqual(listTitles(await html(`${srv.base}/dataset?sort=size`)), [titles.epafhm, titles.hamster, titles.cpdb], "largest first");
    assert.deepEqual(listTitles(await html(`${srv.base}/dataset?sort=size&order=asc`)), [titles.cpdb, titles.hamster, titles.epafhm]);
    assert.deepEqual(listTitles(await html(`${srv.base}/dataset?sort=title`)), [titles.cpdb, titles.epafhm, titles.hamster], "A→Z, ignoring case");
    assert.deepEqual(listTitles(await html(`${srv.base}/dataset?sort=title&order=desc`)), [titles.hamster, titles.epafhm, titles.cpdb]);
    assert.deepEqual(listTitles(await html(`${srv.base}/dataset?sort=date&order=asc`)), [titles.hamster, titles.epafhm, titles.cpdb], "oldest first: the upload order");
    // a page of one keeps the sort in its links
    const paged = await html(`${srv.base}/dataset?sort=size&page_size=1&page=2`);
    assert.deepEqual(listTitles(paged), [titles.hamster]);
    assert.match(paged, /href="\?sort=size&#38;order=desc&#38;page=3&#38;page_size=1">next</);
    // the column header of the sorted column flips the order
    assert.match(page, /<th scope="col" aria-sort="descending"><a href="\?sort=date&#38;order=asc&#38;page=1&#38;page_size=50"/);
    for (const bad of ["sort=colour", "order=up", "sort=title&sort=date"]) {
      const r = await get(`${srv.base}/dataset?${bad}`, "application/problem+json, text/html;q=0.9");
      assert.equal(r.status, 400, bad);
      assert.equal(((await r.json()) as { field: string }).field, bad.startsWith("order") ? "order" : "sort", bad);
    }
    const uris = (await (await get(`${srv.base}/dataset`, "text/uri-list")).text()).split("\r\n").filter(Boolean);
    assert.deepEqual(uris, Object.values(srv.datasets).sort(), "the uri-list: every dataset, in URI order, as before");
  });

  test("after a model is built: the dataset page lists it, the lists show it, and every action of the dataset page answers", async () => {
    const model = await runTask(`${srv.base}/algorithm/qsar`, { dataset_uri: srv.datasets.hamster });
    const page = await html(srv.datasets.hamster);
    const models = /<section id="models">([\s\S]*?)<\/section>/.exec(page)?.[1] ?? "";
    assert.ok(models.includes(`href="${model}"`), "the dataset's models list the model");
    assert.match(models, /<td>kernel_svm<\/td>/, "with its algorithm (the default)");
    assert.match(models, /<td class="num">85<\/td>/, "and its training compounds");
    const modelList = await html(`${srv.base}/model`);
    assert.ok(modelList.includes(`href="${model}"`));
    assert.deepEqual(listColumn(modelList, 4), ["85"]);
    for (const list of ["/validation", "/validation/crossvalidation", "/task?sort=title", "/compound?sort=inchi&order=desc"]) {
      const p = await html(`${srv.base}${list}`);
      assert.match(p, /<table><caption>/, list);
      assert.match(p, /<th scope="col"[^>]*><a href="\?sort=/, `${list}: sort links`);
    }
    // the predict box of the home page predicts with the model (the only one)
    assert.match(await html(`${srv.base}/`), new RegExp(`<form id="predict" method="post" action="${model}"`));

    const actions = /<section id="actions">([\s\S]*?)<\/section>/.exec(page)?.[1] ?? "";
    const links = hrefs(actions);
    const q = `dataset_uri=${encodeURIComponent(srv.datasets.hamster)}`;
    assert.deepEqual(links, [`${srv.base}/algorithm/qsar?${q}`, `${srv.base}/validation/crossvalidation?${q}`, `${srv.base}/algorithm/miner/bbrc?${q}`, `${srv.base}/algorithm/miner/last?${q}`, `${srv.datasets.hamster}?format=csv`]);
    for (const l of links) {
      const r = await get(l, BROWSER);
      assert.equal(r.status, 200, l);
      await r.arrayBuffer();
    }
    // the forms: descriptors (POST {dataset}/pc) and predict the dataset (POST the model, dataset_uri): a browser goes to the task (303), which answers
    assert.match(actions, new RegExp(`<form id="descriptors" method="post" action="${srv.datasets.hamster}/pc">`));
    assert.match(actions, new RegExp(`<form id="predict-dataset" method="post" action="${srv.base}/model"><input type="hidden" name="dataset_uri" value="${srv.datasets.hamster}">`));
    assert.match(actions, new RegExp(`<select id="predict-dataset-model" name="model_uri" required><option value="${model}">`));
    for (const [url, params] of [[`${srv.datasets.hamster}/pc`, { pc_type: "", lib: "" }], [`${srv.base}/model`, { dataset_uri: srv.datasets.hamster, model_uri: model }]] as const) {
      const r = await fetch(url, { method: "POST", body: new URLSearchParams(params), headers: { Accept: BROWSER }, redirect: "manual" });
      assert.equal(r.status, 303, `${url}: ${await r.clone().text()}`);
      const task = r.headers.get("location")!;
      assert.match(task, /\/task\//);
      assert.ok([200, 202].includes((await get(task, BROWSER)).status), "the task page (202 while it runs)");
      await fetch(task, { method: "DELETE" }); // cancel: the work itself is other tests'
    }
    // a model uses the dataset: no delete form, and why
    assert.doesNotMatch(actions, /<form id="delete"/);
    assert.match(actions, /not while 1 model/);
    const cpdb = await html(srv.datasets.cpdb);
    assert.match(cpdb, new RegExp(`<form id="delete" data-delete="${srv.datasets.cpdb}"`), "a dataset no model uses can be deleted from its page");
    assert.match(cpdb, /<script src="[^"]*\/static\/delete\.js" defer>/);
    assert.equal((await get(`${srv.base}/static/delete.js`, "*/*")).status, 200);
  });

  test("compound search: another SMILES spelling, the InChIKey and a name go straight to the compound; its page lists its datasets and values", async () => {
    const page = `${srv.base}/compound/${ACETALDEHYDE.inchi}`;
    for (const q of ["O=CC", ACETALDEHYDE.key, "acetaldehyde", "Acetaldehyde", ACETALDEHYDE.inchi]) {
      const r = await fetch(`${srv.base}/compound?q=${encodeURIComponent(q)}`, { headers: { Accept: BROWSER }, redirect: "manual" });
      assert.equal(r.status, 303, `${q}: ${await r.clone().text()}`);
      assert.equal(r.headers.get("location"), page, q);
      const list = await get(`${srv.base}/compound?q=${encodeURIComponent(q)}`, "text/uri-list", { redirect: "manual" });
      assert.equal((await list.text()).trim(), page, `${q} (uri-list)`);
    }
    const c = await html(page);
    const datasets = /<section id="datasets">([\s\S]*?)<\/section>/.exec(c)?.[1] ?? "";
    assert.ok(datasets.includes(`href="${srv.datasets.hamster}"`) && datasets.includes(`href="${srv.datasets.cpdb}"`), "both datasets holding acetaldehyde");
    assert.match(datasets, /Hamster Carcinogenicity: <span class="mono">true<\/span>/, "its measured value in hamster_carcinogenicity.csv (row 1: CC=O,true)");
    assert.match(datasets, /<td>Acetaldehyde<\/td>/, "its name in cpdb10");
    assert.match(c, /<th>Names<\/th><td>Acetaldehyde<\/td>/);
    // nothing found: a page saying so
    const none = await html(`${srv.base}/compound?q=${encodeURIComponent("no such compound")}`);
    assert.match(none, /No compound found for <code>no such compound<\/code>/);
    // a valid structure the service does not hold (phenol, PubChem CID 996): listed as not in any dataset
    const phenol = await html(`${srv.base}/compound?q=Oc1ccccc1`);
    assert.match(phenol, /not in any dataset of this service/);
    const empty = await get(`${srv.base}/compound?q=`, "application/problem+json, text/html;q=0.9");
    assert.equal(empty.status, 400);
    assert.equal(((await empty.json()) as { field: string }).field, "q");
  });

  test("substructure search: the counts RDKit finds; hostile patterns → 400 or a bounded answer; the next request works", async () => {
    const rdkit = await loadRDKit();
    const cells = [HAMSTER, EPAFHM].flatMap((f) => readFileSync(f, "utf8").split(/\r?\n/).slice(1).filter(Boolean).map((l) => l.split(",")[0]!));
    cells.push(...CPDB10.split("\n").slice(1).filter(Boolean).map((l) => l.split(",")[0]!.replace(/^"|"$/g, "")));
    // distinct compounds by standard InChI (the service's identity), with RDKit's own parse
    const mols = new Map<string, string>();
    for (const s of cells) {
      const m = rdkit.get_mol(s);
      if (!m) continue;
      mols.set(m.get_inchi(), s);
      m.delete();
    }
    const list = (await (await get(`${srv.base}/compound`, "text/uri-list")).text()).split("\r\n").filter(Boolean);
    assert.equal(list.length, mols.size, "the service holds the compounds RDKit reads from the three files");
    for (const pattern of ["N-N=O", "c1ccccc1N", "Cl", "C(=O)O"]) {
      const q = rdkit.get_qmol(pattern);
      let expected = 0;
      for (const s of mols.values()) {
        const m = rdkit.get_mol(s)!;
        if (m.get_substruct_match(q!) !== "{}") expected++;
        m.delete();
      }
      q!.delete();
      const uris = (await (await get(`${srv.base}/compound?substructure=${encodeURIComponent(pattern)}`, "text/uri-list")).text()).split("\r\n").filter(Boolean);
      assert.equal(uris.length, expected, `${pattern}: RDKit finds ${expected}`);
      const page = await html(`${srv.base}/compound?substructure=${encodeURIComponent(pattern)}&page_size=5`);
      assert.match(page, new RegExp(`${expected} of the ${mols.size} compounds searched contain`), pattern);
      assert.equal((page.match(/<img src="[^"]*\?format=svg/g) ?? []).length, Math.min(5, expected), `${pattern}: a page of 5 structures`);
    }
    const refused = async (pattern: string, detail: RegExp): Promise<void> => {
      const r = await get(`${srv.base}/compound?substructure=${encodeURIComponent(pattern)}`, "application/problem+json, text/html;q=0.9");
      const p = (await r.json()) as { field: string; detail: string };
      assert.equal(r.status, 400, pattern.slice(0, 50));
      assert.equal(p.field, "substructure");
      assert.match(p.detail, detail);
    };
    await refused("C".repeat(201), /201 characters; at most 200/);
    await refused(Array.from({ length: 41 }, () => "*").join("~"), /41 atoms; at most 40/);
    await refused("[N+](=O)[O-]", /position 2/);
    await refused("C(", /unclosed branch/);
    // 40 wildcard atoms in a chain: the most the pattern bound allows, answered within the budget
    const t0 = performance.now();
    const chain = await get(`${srv.base}/compound?substructure=${encodeURIComponent(Array.from({ length: 40 }, () => "*").join("~"))}`, "text/html");
    assert.ok(chain.status === 200 || chain.status === 400, `the longest chain: ${chain.status}`);
    await chain.text();
    console.log(`# 40-atom wildcard chain: ${chain.status} in ${Math.round(performance.now() - t0)} ms`);
    const next = await fetch(`${srv.base}/compound?q=CC%3DO`, { headers: { Accept: BROWSER }, redirect: "manual" });
    assert.equal(next.status, 303, "the next request works");
  });
});

describe("page times on Kazius-sized data (printed, not asserted)", () => {
  test("every list and page with Kazius (4,069 compounds) uploaded", async () => {
    await withServer({ upload: { kazius: KAZIUS, hamster: HAMSTER } }, async (srv) => {
      const some = (await (await get(`${srv.base}/compound`, "text/uri-list")).text()).split("\r\n").filter(Boolean)[2000]!;
      const pages = [
        "/",
        "/dataset",
        "/dataset?sort=size",
        srv.datasets.kazius.slice(srv.base.length),
        "/compound",
        "/compound?page=40",
        some.slice(srv.base.length),
        "/model",
        "/validation",
        "/task",
        "/compound?q=O%3DCC",
        "/compound?q=acetaldehyde",
        "/compound?substructure=N-N%3DO",
        "/compound?substructure=N-N%3DO&page=2",
      ];
      const times: string[] = [];
      for (const p of pages) {
        await get(`${srv.base}${p}`, "text/html").then((r) => r.arrayBuffer()); // warm
        const t0 = performance.now();
        const r = await get(`${srv.base}${p}`, "text/html", { redirect: "manual" });
        await r.arrayBuffer();
        times.push(`${Math.round(performance.now() - t0).toString().padStart(5)} ms  ${r.status}  ${p.length > 70 ? `${p.slice(0, 70)}…` : p}`);
        assert.ok(r.status === 200 || r.status === 303, `${p}: ${r.status}`);
      }
      console.log(`# page times with Kazius and hamster uploaded (second request of each):\n${times.map((t) => `#   ${t}`).join("\n")}`);
      // the first substructure search of a store (the worker encodes every compound once)
      const t0 = performance.now();
      const r = await get(`${srv.base}/compound?substructure=${encodeURIComponent("c1ccc2ccccc2c1")}`, "text/html");
      await r.arrayBuffer();
      console.log(`# a new substructure search (naphthalene) over ${4069 + 85} rows' compounds: ${Math.round(performance.now() - t0)} ms`);
    });
  });
});
