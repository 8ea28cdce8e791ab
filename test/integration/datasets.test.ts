/**
 * Datasets over HTTP against the real server: uploads of the reference files, their counts via
 * the representations and via SPARQL, the HTML features section, the duplicate warning, and a
 * restart that serves every dataset identically.
 *
 * Expected values come from the files themselves (fixtures/data/lazar/test/data; SOURCES.md):
 * hamster_carcinogenicity.csv has 85 data rows with 85 distinct structures and one column of
 * true/false; multicolumn.csv has 7 rows, 6 feature columns, lines 4 and 6 and lines 5 and 7 hold
 * the same structures; kazius.csv has 4069 rows.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parse as parseCsv } from "csv-parse/sync";
import { DATA, get, HAMSTER, KAZIUS, MULTI, sortedNTriples, uploadCsv, uploadDataset, sparqlSelect } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { QG_NS } from "../../src/store/vocab.ts";


const PREFIX = "PREFIX ot: <http://www.opentox.org/api/1.1#> PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> ";

describe("datasets over HTTP", () => {
  const srv = useServer();
  const uploaded: Record<string, string> = {};

  test("hamster: 85 compounds, 1 nominal feature with accept values true/false", async () => {
    const ds = await uploadDataset(srv.base, HAMSTER);
    uploaded.hamster = ds;
    const compounds = (await (await get(ds, "text/uri-list")).text()).split(/\r?\n/).filter(Boolean);
    assert.equal(compounds.length, 85);
    assert.ok(compounds.every((c) => c.startsWith(`${srv.base}/compound/InChI=1S/`)));
    const features = (await (await get(`${ds}/features`, "text/uri-list")).text()).split(/\r?\n/).filter(Boolean);
    assert.deepEqual(features, [`${ds}/feature/Hamster%20Carcinogenicity`]);
    const f = await (await get(features[0]!, "application/n-triples")).text();
    assert.match(f, /<http:\/\/www\.opentox\.org\/api\/1\.1#NominalFeature>/);
    assert.doesNotMatch(f, /NumericFeature/);
    const accept = [...f.matchAll(/acceptValue> "([^"]*)"/g)].map((m) => m[1]).sort();
    assert.deepEqual(accept, ["false", "true"]);
  });

  test("a browser's upload form is answered 303 to the task page; other clients still get 202 + the task", async () => {
    const form = (): FormData => {
      const f = new FormData();
      f.set("file", new Blob([readFileSync(HAMSTER)], { type: "text/csv" }), "hamster.csv");
      return f;
    };
    // what Chromium sends with a form submission
    const browser = await fetch(`${srv.base}/dataset`, { method: "POST", body: form(), redirect: "manual", headers: { Accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" } });
    assert.equal(browser.status, 303);
    const location = browser.headers.get("location") ?? "";
    assert.match(location, new RegExp(`^${srv.base}/task/[a-z0-9]{12}$`));
    assert.match(await browser.text(), new RegExp(`href="${location}"`));
    const script = await fetch(`${srv.base}/dataset`, { method: "POST", body: form(), redirect: "manual" });
    assert.equal(script.status, 202);
    assert.match(await script.text(), new RegExp(`^${srv.base}/task/[a-z0-9]{12}\r\n$`));
    // the browser's task ends with the dataset, like any other
    const done = await (await get(`${location}`, "text/uri-list")).text();
    assert.ok(done.startsWith(`${srv.base}/task/`) || done.startsWith(`${srv.base}/dataset/`), done);
  });

  test("hamster: the same counts through /sparql", async () => {
    const ds = uploaded.hamster!;
    const [c] = await sparqlSelect(srv.base, `${PREFIX} SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { GRAPH <${ds}> { <${ds}> ot:dataEntry ?e . ?e ot:compound ?c } }`);
    assert.equal(c!.n.value, "85");
    const rows = await sparqlSelect(srv.base, `${PREFIX} SELECT ?f ?v WHERE { GRAPH <${ds}> { ?f a ot:NominalFeature ; ot:acceptValue ?v } } ORDER BY ?v`);
    assert.deepEqual(rows.map((r) => r.v!.value), ["false", "true"]);
    assert.equal(new Set(rows.map((r) => r.f!.value)).size, 1);
    // true/false counts in the file: 45/40 (SOURCES.md quick index)
    const counts = await sparqlSelect(srv.base, `${PREFIX} SELECT ?v (COUNT(*) AS ?n) WHERE { GRAPH <${ds}> { ?e ot:values ?x . ?x ot:value ?v } } GROUP BY ?v ORDER BY ?v`);
    assert.deepEqual(counts.map((r) => [r.v!.value, r.n!.value]), [["false", "40"], ["true", "45"]]);
  });

  test("hamster: the HTML has the features section with the feature's metadata", async () => {
    const r = await get(uploaded.hamster!, "text/html");
    assert.equal(r.status, 200);
    const html = await r.text();
    const section = /<section id="features">([\s\S]*?)<\/section>/.exec(html)?.[1];
    assert.ok(section, "features section present");
    assert.match(section, /Hamster Carcinogenicity/);
    assert.match(section, /NominalFeature/);
    assert.match(section, /false, true/);
  });

  test("multicolumn: 5 unique compounds, 6 features, duplicate warnings naming their lines", async () => {
    const ds = await uploadDataset(srv.base, MULTI);
    uploaded.multi = ds;
    const compounds = (await (await get(ds, "text/uri-list")).text()).split(/\r?\n/).filter(Boolean);
    assert.equal(compounds.length, 5);
    const features = (await (await get(`${ds}/features`, "text/uri-list")).text()).split(/\r?\n/).filter(Boolean);
    assert.equal(features.length, 6);
    const header = readFileSync(MULTI, "utf8").split("\n")[0]!.split(",").slice(1).map((h) => h.trim());
    assert.deepEqual(features.map((f) => decodeURIComponent(f.slice(f.lastIndexOf("/") + 1))), header);
    const warnings = await sparqlSelect(
      srv.base,
      `${PREFIX} SELECT ?w (GROUP_CONCAT(STR(?l); separator=",") AS ?lines) WHERE { GRAPH <${ds}> { <${ds}> ?p ?w . ?w ?k "duplicate-structure" ; <${QG_NS}line> ?l } } GROUP BY ?w`,
    );
    const lineSets = warnings.map((w) => w.lines!.value.split(",").map(Number).sort((a, b) => a - b).join(",")).sort();
    assert.deepEqual(lineSets, ["4,6", "5,7"]);
    // The HTML lists accept values in the documented order (README, CSV rules): numeric order
    // for a numeric column (1,1,1,0,1,1,1 → 0, 1), else by code units (true, 7.5, 5, false, 4 →
    // 4, 5, 7.5, false, true), whatever order the graph returns the set in.
    const html = await (await get(ds, "text/html")).text();
    const section = /<section id="features">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
    assert.match(section, />Hamster Carcinogenicity<\/a><\/td><td>NominalFeature, NumericFeature<\/td><td>0, 1<\/td>/);
    assert.match(section, />mixed<\/a><\/td><td>NominalFeature<\/td><td>4, 5, 7\.5, false, true<\/td>/);
  });

  test("kazius: 4069 rows, 4068 compounds (one tautomer pair merged by the standard InChI)", async () => {
    const ds = await uploadDataset(srv.base, KAZIUS);
    uploaded.kazius = ds;
    const lines = readFileSync(KAZIUS, "utf8").split(/\r?\n/);
    assert.equal(lines.slice(1).filter(Boolean).length, 4069);
    // Lines 1358 and 2236 are 6-mercaptopurine with the ring H on N9 and on N7: tautomers, which
    // the standard InChI's mobile-H layer identifies (so did the reference: compounds by InChI).
    assert.equal(lines[1357], "SC2=C1[NH]C=NC1=NC=N2,1");
    assert.equal(lines[2235], "SC2=C1N=C[NH]C1=NC=N2,1");
    const compounds = (await (await get(ds, "text/uri-list")).text()).split(/\r?\n/).filter(Boolean);
    assert.equal(compounds.length, 4068);
    const [n] = await sparqlSelect(srv.base, `${PREFIX} SELECT (COUNT(?e) AS ?n) WHERE { GRAPH <${ds}> { <${ds}> ot:dataEntry ?e } }`);
    assert.equal(n!.n.value, "4069");
    const dup = await sparqlSelect(srv.base, `SELECT ?l WHERE { GRAPH <${ds}> { ?w ?k "duplicate-structure" ; <${QG_NS}line> ?l } } ORDER BY ?l`);
    assert.deepEqual(dup.map((r) => Number(r.l!.value)), [1358, 2236]);
    // The compound keeps the SMILES of its first row; the other tautomer's row keeps its own.
    // (Rows of compounds that earlier uploads of this server spelled otherwise keep theirs too.)
    const spelled = await sparqlSelect(srv.base, `SELECT ?e ?s WHERE { GRAPH <${ds}> { ?e <${QG_NS}smiles> ?s } }`);
    const byEntry = new Map(spelled.map((r) => [r.e!.value, r.s!.value]));
    assert.equal(byEntry.get(`${ds}#e2236`), "SC2=C1N=C[NH]C1=NC=N2");
    assert.equal(byEntry.has(`${ds}#e1358`), false);
    const compound = await sparqlSelect(srv.base, `SELECT ?s WHERE { GRAPH <${ds}> { <${ds}#e1358> <http://www.opentox.org/api/1.1#compound> ?c } GRAPH ?c { ?c <${QG_NS}smiles> ?s } }`);
    assert.deepEqual(compound.map((r) => r.s!.value), ["SC2=C1[NH]C=NC1=NC=N2"]);
  });

  test("kazius: the CSV export gives back every row of the file, in file order", async () => {
    // Reference: kazius.csv itself. Each row keeps its own spelling of the structure (the
    // compound's first SMILES, or the row's own when it differs), and the export reads the
    // entries 100 at a time, so 4069 rows cross 41 steps of the stream.
    const ds = uploaded.kazius!;
    const r = await get(ds, "text/csv");
    assert.equal(r.status, 200);
    assert.match(r.headers.get("content-type") ?? "", /^text\/csv/);
    const exported = parseCsv(await r.text()) as string[][];
    const file = parseCsv(readFileSync(KAZIUS, "utf8")) as string[][];
    assert.deepEqual(exported[0], ["SMILES", "Mutagenicity"]);
    assert.equal(exported.length, file.length);
    assert.deepEqual(exported.slice(1), file.slice(1));
  });

  test("a dataset deleted during its CSV export is never sent short: complete, or cut off", async () => {
    const ds = await uploadDataset(srv.base, KAZIUS);
    const r = await get(ds, "text/csv");
    assert.equal(r.status, 200);
    const reader = r.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    assert.match(text, /^SMILES,Mutagenicity\r?\n/);
    const del = await fetch(ds, { method: "DELETE", headers: { Accept: "text/uri-list" } });
    assert.equal(del.status, 200);
    let cutOff = false;
    try {
      for (let c = await reader.read(); !c.done; c = await reader.read()) text += decoder.decode(c.value, { stream: true });
    } catch {
      cutOff = true;
    }
    // Either the transfer broke off (the usual case: the delete lands between two steps), or
    // the whole file had gone out before it; a body that ends normally is the whole file.
    if (!cutOff) assert.equal(parseCsv(text).length, 4070);
  });

  test("rows whose structures fail do not decide a column's type (the upload rebuilds its entries)", async () => {
    // EPAFHM.mini.csv: 21 rows, a numeric LC50 column. Appended: two rows whose structure cells
    // are words from wrong_dataset.csv (not SMILES) and whose LC50 cells are text. Typed over
    // every row the column would be mixed (nominal); over the rows kept it is numeric. The
    // entries must be exactly those of the clean file.
    const mini = readFileSync(`${DATA}lazar/test/data/EPAFHM.mini.csv`, "utf8");
    const withBad = `${mini.trimEnd()}\nTost,Wrong\nIs,Dataset\n`;
    const clean = await uploadCsv(srv.base, mini, "mini.csv");
    const mixed = await uploadCsv(srv.base, withBad, "mini-with-bad-rows.csv");
    const entries = async (ds: string): Promise<string[]> =>
      (await sortedNTriples(ds)).filter((l) => l.startsWith(`<${ds}#e`)).map((l) => l.split(ds).join("DS"));
    const want = await entries(clean);
    assert.equal(want.filter((l) => l.includes("#value>")).length, 15); // 21 rows, 6 empty LC50 cells
    assert.ok(want.every((l) => !l.includes("#value>") || l.endsWith("^^<http://www.w3.org/2001/XMLSchema#double> .")));
    assert.deepEqual(await entries(mixed), want);
    const f = await (await get(`${mixed}/feature/LC50_mmol`, "application/n-triples")).text();
    assert.match(f, /NumericFeature/);
    assert.doesNotMatch(f, /NominalFeature/);
    const bad = await sparqlSelect(srv.base, `SELECT ?l WHERE { GRAPH <${mixed}> { ?w ?k "unparseable-structure" ; <${QG_NS}line> ?l } } ORDER BY ?l`);
    assert.deepEqual(bad.map((r) => Number(r.l!.value)), [23, 24]);
  });

  test("a restart serves every dataset identically", async () => {
    const before: Record<string, string[]> = {};
    for (const [k, uri] of Object.entries(uploaded)) before[k] = await sortedNTriples(uri);
    const list = await (await get(`${srv.base}/dataset`, "text/uri-list")).text();
    await srv.restart();
    for (const [k, uri] of Object.entries(uploaded)) {
      const afterRestart = await sortedNTriples(uri);
      assert.ok(afterRestart.length > 0);
      assert.deepEqual(afterRestart, before[k], `dataset ${k} differs after restart`);
    }
    assert.equal(await (await get(`${srv.base}/dataset`, "text/uri-list")).text(), list);
  });
});
