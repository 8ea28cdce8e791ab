/**
 * SD file uploads over HTTP against the real server (README "Datasets", "SDF rules"): the Kazius
 * SD file, hamster carcinogenicity as SDF and as CSV, a V3000 file, malformed records, the
 * upload limits on SD files, models from an SD file's tags, and formats that are neither CSV nor
 * SDF (415). After every bad input the service still serves and uploads normally.
 *
 * Expected values come from the files, counted here independently of the reader:
 * cas_4337.sdf's records are its `$$$$` lines and its classes the values under its one tag,
 * read with a regex (SOURCES.md: mutagen 2401 / nonmutagen 1936); hamster_carcinogenicity.sdf
 * and .csv are lazar's two spellings of the same data set (their differences are listed at the
 * test); the hand-written SD texts' record numbers and lines are counted in their literals;
 * InChIs of the hand-written structures from PubChem (ethanol CID 702, methanol CID 887, acetic
 * acid CID 176); 413 and 415 from the README's "Errors" table.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { assertServesNormally, DATA, HAMSTER, postForm, runTask, sparqlSelect, storeSnapshot, uploadDataset, uploadFile, waitForTask, uriList } from "../helpers/server.ts";
import { useServer, withServer } from "../helpers/use-server.ts";
import { v2000 } from "../helpers/molblock.ts";
import { QG_NS } from "../../src/store/vocab.ts";

const LAZAR = `${DATA}lazar/`;
const KAZIUS_SDF = `${LAZAR}data/parts/cas_4337.sdf`;
const HAMSTER_SDF = `${LAZAR}test/data/hamster_carcinogenicity.sdf`;
const CPDB_SDF = `${LAZAR}test/data/CPDBAS_v5c_1547_29Apr2008part.sdf`;
const ACETALDEHYDE_SDF = `${LAZAR}test/data/acetaldehyde.sdf`;
const OT = "http://www.opentox.org/api/1.1#";

const ETHANOL = "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3";
const METHANOL = "InChI=1S/CH4O/c1-2/h2H,1H3";
const ACETIC_ACID = "InChI=1S/C2H4O2/c1-2(3)4/h1H3,(H,3,4)";

/** Per compound (InChI) of a dataset, the values of its one feature. */
async function valuesByInchi(base: string, ds: string): Promise<Map<string, string[]>> {
  const rows = await sparqlSelect(base, `SELECT ?c ?v WHERE { GRAPH <${ds}> { ?e <${OT}compound> ?c ; <${OT}values> ?x . ?x <${OT}value> ?v } }`);
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const inchi = decodeURIComponent(r.c!.value.slice(`${base}/compound/`.length));
    out.set(inchi, [...(out.get(inchi) ?? []), r.v!.value]);
  }
  return out;
}

/** The dataset's warnings: kind, message and lines, ordered by their first line. */
async function warnings(base: string, ds: string): Promise<{ kind: string; message: string; lines: number[] }[]> {
  const rows = await sparqlSelect(
    base,
    `SELECT ?w ?k ?m (GROUP_CONCAT(STR(?l); separator=",") AS ?ls) WHERE { GRAPH <${ds}> { <${ds}> <${QG_NS}warning> ?w . ?w <${QG_NS}warningKind> ?k ; <http://www.w3.org/2000/01/rdf-schema#comment> ?m . OPTIONAL { ?w <${QG_NS}line> ?l } } } GROUP BY ?w ?k ?m`,
  );
  return rows
    .map((r) => ({ kind: r.k!.value, message: r.m!.value, lines: r.ls!.value === "" ? [] : r.ls!.value.split(",").map(Number).sort((a, b) => a - b) }))
    .sort((a, b) => (a.lines[0] ?? 0) - (b.lines[0] ?? 0));
}

async function entryLines(base: string, ds: string): Promise<number[]> {
  const rows = await sparqlSelect(base, `SELECT ?l WHERE { GRAPH <${ds}> { <${ds}> <${OT}dataEntry> ?e . ?e <${QG_NS}line> ?l } } ORDER BY ?l`);
  return rows.map((r) => Number(r.l!.value));
}

/** After a bad input: the service answers, reads a SMILES, uploads a CSV (assertServesNormally) and an SD file. */
async function servesNormally(base: string): Promise<void> {
  await assertServesNormally(base);
  const ds = await uploadDataset(base, ACETALDEHYDE_SDF);
  assert.deepEqual(await uriList(ds), [`${base}/compound/InChI=1S/C2H4O/c1-2-3/h2H,1H3`]);
}

/** A V3000 molblock written by hand. */
function v3000(title: string, atoms: readonly string[], bonds: readonly (readonly [number, number, number])[]): string[] {
  return [
    title,
    "  handmade",
    "",
    "  0  0  0     0  0            999 V3000",
    "M  V30 BEGIN CTAB",
    `M  V30 COUNTS ${atoms.length} ${bonds.length} 0 0 0`,
    "M  V30 BEGIN ATOM",
    ...atoms.map((el, i) => `M  V30 ${i + 1} ${el} ${(i * 1.3).toFixed(3)} 0 0 0`),
    "M  V30 END ATOM",
    "M  V30 BEGIN BOND",
    ...bonds.map(([a, b, o], i) => `M  V30 ${i + 1} ${o} ${a} ${b}`),
    "M  V30 END BOND",
    "M  V30 END CTAB",
    "M  END",
  ];
}

describe("SD file uploads over HTTP", () => {
  const srv = useServer();
  const uploaded: Record<string, string> = {};

  test("cas_4337.sdf: one entry per record, the 'Ames test categorisation' feature and its class counts", async () => {
    const text = readFileSync(KAZIUS_SDF, "utf8");
    const records = text.split(/\r?\n/).filter((l) => l === "$$$$").length;
    const classes = new Map<string, number>();
    for (const m of text.matchAll(/^>\s*<Ames test categorisation>\r?\n(.*?)\r?\n/gm)) classes.set(m[1]!, (classes.get(m[1]!) ?? 0) + 1);
    assert.equal(records, 4337);
    assert.deepEqual([...classes].sort(), [["mutagen", 2401], ["nonmutagen", 1936]]);

    const t0 = performance.now();
    const ds = await uploadDataset(srv.base, KAZIUS_SDF);
    console.log(`# cas_4337.sdf uploaded in ${((performance.now() - t0) / 1000).toFixed(2)} s`);
    uploaded.kazius = ds;
    const [n] = await sparqlSelect(srv.base, `SELECT (COUNT(?e) AS ?n) WHERE { GRAPH <${ds}> { <${ds}> <${OT}dataEntry> ?e } }`);
    assert.equal(Number(n!.n.value), records);
    const features = await uriList(`${ds}/features`);
    assert.deepEqual(features, [`${ds}/feature/Ames%20test%20categorisation`]);
    const counts = await sparqlSelect(srv.base, `SELECT ?v (COUNT(*) AS ?n) WHERE { GRAPH <${ds}> { ?e <${OT}values> ?x . ?x <${OT}value> ?v } } GROUP BY ?v ORDER BY ?v`);
    assert.deepEqual(counts.map((r) => [r.v!.value, Number(r.n!.value)]), [...classes].sort());
    const accept = await sparqlSelect(srv.base, `SELECT ?a WHERE { GRAPH <${ds}> { <${features[0]}> a <${OT}NominalFeature> ; <${OT}acceptValue> ?a } } ORDER BY ?a`);
    assert.deepEqual(accept.map((r) => r.a!.value), ["mutagen", "nonmutagen"]);
    // The first record starts at line 1; its title is the CAS number 1728-95-6 (line 1 of the file).
    assert.equal(text.split(/\r?\n/, 1)[0], "1728-95-6");
    assert.equal((await entryLines(srv.base, ds))[0], 1);
    const [title] = await sparqlSelect(srv.base, `SELECT ?t ?s WHERE { GRAPH <${ds}> { <${ds}> <http://purl.org/dc/elements/1.1/title> ?t ; <${QG_NS}structureColumn> ?s } }`);
    assert.deepEqual([title!.t!.value, title!.s!.value], ["cas_4337", "molfile"]);
  });

  test("hamster_carcinogenicity.sdf and .csv: the same compounds and values, but for the records the two files spell differently", async () => {
    const sdf = await uploadDataset(srv.base, HAMSTER_SDF);
    const csv = await uploadDataset(srv.base, HAMSTER);
    uploaded.hamster = sdf;
    // 85 `$$$$` lines and a last record without one: 86 records; the record at line 196 has a
    // counts line of 0 atoms (the CSV has potassium bromate there), so 85 entries.
    const text = readFileSync(HAMSTER_SDF, "utf8");
    const lines = text.split(/\r?\n/);
    assert.equal(lines.filter((l) => l === "$$$$").length, 85);
    assert.match(lines[198]!, /^ {2}0 {2}0 {2}0/);
    assert.deepEqual(await warnings(srv.base, sdf), [
      { kind: "unparseable-structure", message: "Record 8 (line 196): cannot use the molfile: structure has no atoms; record skipped", lines: [196] },
    ]);
    const s = await valuesByInchi(srv.base, sdf);
    const c = await valuesByInchi(srv.base, csv);
    assert.equal(s.size, 85);
    assert.equal(c.size, 85);
    const common = [...s.keys()].filter((k) => c.has(k));
    // The SDF says active/inactive where the CSV says true/false.
    for (const k of common) assert.deepEqual(s.get(k)!.map((v) => ({ active: "true", inactive: "false" })[v] ?? v), c.get(k), k);
    // The differences, read from the two files: the CSV's potassium bromate is the SDF's empty
    // record; the SDF has 3-tert-butyl-4-hydroxyanisole (C11H16O2), which the CSV lacks; the
    // SDF's drawing of the dye C20H19N3·HCl fixes its C=N double bond (an InChI /b layer) where
    // the CSV's SMILES leaves it open; its lead subacetate record gives the Pb atoms a valence
    // (the molfile's valence field) that the InChI reads as six more hydrogens.
    const formula = (k: string): string => k.split("/")[1]!;
    const sdfOnly = [...s.keys()].filter((k) => !c.has(k));
    const csvOnly = [...c.keys()].filter((k) => !s.has(k));
    assert.deepEqual(sdfOnly.map(formula).sort(), ["2C2H4O2.4H2O.3Pb.6H", "C11H16O2", "C20H19N3.ClH"]);
    assert.deepEqual(csvOnly.map(formula).sort(), ["2C2H4O2.4H2O.3Pb", "BrO3.K", "C20H19N3.ClH"]);
    assert.match(sdfOnly.find((k) => formula(k) === "C20H19N3.ClH")!, /\/b20-14-/);
    assert.doesNotMatch(csvOnly.find((k) => formula(k) === "C20H19N3.ClH")!, /\/b/);
    assert.equal(common.length, 82);
  });

  test("an SD file named .csv and sent as text/csv is read as an SD file (the issue's upload)", async () => {
    const r = await fetch(`${srv.base}/dataset?filename=hamster.csv`, { method: "POST", body: readFileSync(HAMSTER_SDF), headers: { "Content-Type": "text/csv", Accept: "text/uri-list" } });
    assert.equal(r.status, 202);
    const done = await waitForTask((await r.text()).trim());
    assert.equal(done.status, 200, done.body);
    assert.equal((await entryLines(srv.base, done.body)).length, 85);
  });

  test("a V3000 file as a chemical/x-mdl-sdfile body: entries, compounds and values", async () => {
    const lines = [
      // A V3000 molblock is 4 header lines, 3 lines opening the CTAB and its atom block, the atoms,
      // 2 lines between the blocks, the bonds and 3 closing lines; then 4 lines of data and $$$$.
      ...v3000("ethanol", ["C", "C", "O"], [[1, 2, 1], [2, 3, 1]]), ">  <pIC50>", "4.2", "", "$$$$", //   record 1: lines 1–21 (17 + 4)
      ...v3000("methanol", ["C", "O"], [[1, 2, 1]]), ">  <pIC50>", "3.1", "", "$$$$", //                record 2: lines 22–40 (15 + 4)
      ...v3000("acetic acid", ["C", "C", "O", "O"], [[1, 2, 1], [2, 3, 1], [2, 4, 2]]), ">  <pIC50>", "5.25", "", "$$$$", // record 3: from 41
    ];
    assert.equal(lines.indexOf("methanol") + 1, 22);
    assert.equal(lines.indexOf("acetic acid") + 1, 41);
    const r = await fetch(`${srv.base}/dataset?filename=v3000.sdf`, { method: "POST", body: lines.join("\n") + "\n", headers: { "Content-Type": "chemical/x-mdl-sdfile", Accept: "text/uri-list" } });
    assert.equal(r.status, 202);
    const done = await waitForTask((await r.text()).trim());
    assert.equal(done.status, 200, done.body);
    const ds = done.body;
    assert.deepEqual(await entryLines(srv.base, ds), [1, 22, 41]);
    const values = await valuesByInchi(srv.base, ds);
    assert.deepEqual(Object.fromEntries(values), { [ETHANOL]: ["4.2"], [METHANOL]: ["3.1"], [ACETIC_ACID]: ["5.25"] });
    // Three distinct numbers: nominal and numeric (README "CSV rules", typing).
    const types = await sparqlSelect(srv.base, `SELECT ?t WHERE { GRAPH <${ds}> { <${ds}/feature/pIC50> a ?t } } ORDER BY ?t`);
    assert.deepEqual(types.map((r) => r.t!.value), [`${OT}Feature`, `${OT}NominalFeature`, `${OT}NumericFeature`]);
    assert.deepEqual(await warnings(srv.base, ds), []);
  });

  test("malformed records: warnings with record numbers and lines, the good records kept; then the service uploads normally", async () => {
    const chain = v2000("chain", Array.from({ length: 301 }, () => "C"), []);
    const lines = [
      ...v2000("ethanol", ["C", "C", "O"], [[1, 2, 1], [2, 3, 1]]), ">  <y>", "1", "", "$$$$", // record 1: lines 1–14
      ...v2000("bad counts", ["C", "O"], [[1, 2, 1]], [5, 1]), ">  <y>", "2", "", "$$$$", //        record 2: lines 15–26
      "truncated", "  handmade", "", "  2  1  0  0  0  0  0  0  0  0999 V2000", "$$$$", //         record 3: lines 27–31
      ...chain, ">  <y>", "4", "", "$$$$", //                                                        record 4: lines 32–337 + 4
      ...v2000("methanol", ["C", "O"], [[1, 2, 1]]), ">  <y>", "5", "", ">  <y>", "6", "", "$$$$", // record 5: lines 342–356
    ];
    assert.deepEqual(["bad counts", "truncated", "chain", "methanol"].map((t) => lines.indexOf(t) + 1), [15, 27, 32, 342]);
    assert.equal(lines.lastIndexOf(">  <y>") + 1, 353);
    const ds = await datasetOfUpload(srv.base, lines.join("\r\n"), "malformed.sdf");
    assert.deepEqual(await entryLines(srv.base, ds), [1, 342]);
    assert.deepEqual(Object.fromEntries(await valuesByInchi(srv.base, ds)), { [ETHANOL]: ["1"], [METHANOL]: ["5"] });
    assert.deepEqual(await warnings(srv.base, ds), [
      { kind: "unparseable-structure", message: "Record 2 (line 15) ('bad counts'): cannot use the molfile: molfile inconsistent: the counts line gives 5 atoms and 1 bonds, but only 3 atom and bond lines follow; record skipped", lines: [15] },
      { kind: "unparseable-structure", message: "Record 3 (line 27) ('truncated'): cannot use the molfile: molfile could not be parsed (no 'M  END' line); record skipped", lines: [27] },
      { kind: "unparseable-structure", message: "Record 4 (line 32) ('chain'): cannot use the molfile: structure too large: the molfile has 301 atoms other than hydrogen (the limit is 300); record skipped", lines: [32] },
      { kind: "sd-data-item", message: "Record 5 (line 342): the SD tag 'y' occurs again at line 353; the first value is used", lines: [342] },
    ]);
    await servesNormally(srv.base);
  });

  test("an SD file without one readable record: the task fails with 400 naming the records; nothing is stored", async () => {
    // Record 1: lines 1–6 (its counts say 2 atoms, one follows) and the $$$$ on 7; record 2: the
    // blank line 8. The causes name the records whose molfile failed.
    const lines = [...v2000("bad", ["C"], [], [2, 0]), "$$$$", "", "$$$$"];
    const before = await storeSnapshot(srv.base);
    const r = await uploadFile(srv.base, lines.join("\n"), "bad.sdf");
    assert.equal(r.status, 202);
    const task = (await r.text()).trim();
    const done = await waitForTask(task);
    assert.equal(done.status, 400);
    assert.match(done.body, /^400 BadRequest: no usable record: none of the 2 records has a molfile that could be read/);
    assert.match(done.body, /Record 1 \(line 1\) \('bad'\): cannot use the molfile: molfile inconsistent/);
    assert.deepEqual(await storeSnapshot(srv.base), before);
    await servesNormally(srv.base);
  });

  test("an SD file's tags are features: the only tag is the endpoint; with several, prediction_feature names one", async () => {
    // hamster (one tag): no prediction_feature needed.
    const model = await runTask(`${srv.base}/algorithm/lazar`, { dataset_uri: uploaded.hamster!, min_frequency: "8" });
    assert.match(model, new RegExp(`^${srv.base}/model/`));
    // CPDBAS (60 tags, counted as the distinct `>  <name>` headers of the file).
    const text = readFileSync(CPDB_SDF, "utf8");
    const tags = new Set([...text.matchAll(/^>\s*<([^>]*)>/gm)].map((m) => m[1]!));
    const ds = await uploadDataset(srv.base, CPDB_SDF);
    const features = await uriList(`${ds}/features`);
    // A tag whose values are all missing is no feature (empty-column); the others are, in file order.
    const empty = (await warnings(srv.base, ds)).filter((w) => w.kind === "empty-column").length;
    assert.equal(features.length + empty, tags.size);
    const refused = await postForm(`${srv.base}/algorithm/lazar`, { dataset_uri: ds, min_frequency: "8" });
    assert.equal(refused.status, 400);
    assert.match(await refused.text(), /prediction_feature/);
    // The mutagenicity tag: 31 active, 25 inactive, missing in the other records (counted with grep).
    const endpoint = `${ds}/feature/ActivityOutcome_CPDBAS_Mutagenicity`;
    assert.ok(features.includes(endpoint));
    const m = await runTask(`${srv.base}/algorithm/lazar`, { dataset_uri: ds, prediction_feature: endpoint, min_frequency: "4" });
    assert.match(m, new RegExp(`^${srv.base}/model/`));
  });

  test("the upload form of the dataset list offers SD files too", async () => {
    const html = await (await fetch(`${srv.base}/dataset`, { headers: { Accept: "text/html" } })).text();
    const accept = /<input type="file" name="file" accept="([^"]*)"/.exec(html)?.[1]?.split(",") ?? [];
    for (const t of [".csv", "text/csv", ".sdf", ".mol", "chemical/x-mdl-sdfile"]) assert.ok(accept.includes(t), `${t} in ${accept.join(",")}`);
  });

  test("formats that are neither CSV nor SDF → 415 naming CSV and SDF; nothing stored; then the service uploads normally", async () => {
    const cases: [string, () => Promise<Response>, RegExp][] = [
      ["an XLS spreadsheet", () => uploadFile(srv.base, readFileSync(`${LAZAR}test/data/hamster_carcinogenicity.xls`), "hamster_carcinogenicity.xls", "file", "text/plain"), /OLE2 document/],
      ["an XLSX (ZIP) named .csv", () => uploadFile(srv.base, new Uint8Array([0x50, 0x4b, 0x03, 0x04, 20, 0, 8, 0, ...new Array<number>(64).fill(0)]), "data.csv", "file", "text/plain"), /ZIP archive/],
      ["JSON", () => uploadFile(srv.base, readFileSync(`${LAZAR}test/data/hamster_carcinogenicity.json`), "hamster_carcinogenicity.json", "file", "text/plain"), /is JSON/],
      ["a SMILES file", () => uploadFile(srv.base, readFileSync(`${DATA}ofsdata/yoshida.smi`), "yoshida.smi", "file", "text/plain"), /SMILES file/],
      ["a PNG as text/csv", () => fetch(`${srv.base}/dataset`, { method: "POST", body: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), headers: { "Content-Type": "text/csv", Accept: "text/plain" } }), /PNG image/],
      ["a JSON body", () => fetch(`${srv.base}/dataset`, { method: "POST", body: "{}", headers: { "Content-Type": "application/json", Accept: "text/plain" } }), /application\/json/],
    ];
    for (const [name, send, what] of cases) {
      const before = await storeSnapshot(srv.base);
      const r = await send();
      const body = await r.text();
      assert.equal(r.status, 415, `${name}: ${body}`);
      assert.match(body, /^415 UnsupportedMediaType: /, name);
      assert.match(body, what, name);
      assert.match(body, /CSV \(text\/csv[^)]*\) or SDF \(chemical\/x-mdl-sdfile/, `${name} names the supported formats`);
      assert.deepEqual(await storeSnapshot(srv.base), before, name);
    }
    await servesNormally(srv.base);
  });
});

describe("SD files and the upload limits", () => {
  test("records and tags are counted before a task exists: 413 naming the count, the limit and the option; then normal uploads", async () => {
    await withServer({ env: { MAX_UPLOAD_ROWS: "1000", MAX_UPLOAD_COLUMNS: "10" } }, async (srv) => {
      const before = await storeSnapshot(srv.base);
      const rows = await uploadFile(srv.base, readFileSync(KAZIUS_SDF), "cas_4337.sdf");
      assert.equal(rows.status, 413);
      assert.match(await rows.text(), /the file has more than 1,000 records \(counted as '\$\$\$\$' lines\); the limit is 1,000 rows \(raise it with MAX_UPLOAD_ROWS/);
      const columns = await uploadFile(srv.base, readFileSync(CPDB_SDF), "cpdb.sdf");
      assert.equal(columns.status, 413);
      assert.match(await columns.text(), /the file has more than 10 columns \(the molfile and the distinct SD tags\); the limit is 10 \(raise it with MAX_UPLOAD_COLUMNS/);
      const tasks = await uriList(`${srv.base}/task`);
      assert.deepEqual(tasks, [], "no task was created");
      assert.deepEqual(await storeSnapshot(srv.base), before);
      await servesNormally(srv.base);
    });
  });
});

/** Upload an SD text as a file and wait for the dataset (the task must complete). */
async function datasetOfUpload(base: string, text: string, name: string): Promise<string> {
  const r = await uploadFile(base, text, name);
  assert.equal(r.status, 202, await r.clone().text());
  const done = await waitForTask((await r.text()).trim());
  assert.equal(done.status, 200, done.body);
  return done.body;
}
