/**
 * The substructure miners over HTTP against the real server (README "Algorithms and substructure
 * mining"; the parameters are those of lazar's fminer service, opentox/algorithm : fminer.rb @
 * 1e68543): algorithm descriptions, parameter errors, and BBRC runs whose results are compared
 * with reference outputs:
 *
 * - fminer's own hamster input (fixtures/data/fminer2/libbbrc/test/hamster_carcinogenicity.smi
 *   + .class), uploaded as a CSV (`SMILES,Hamster carcinogenicity`, the .class value 0/1 per id),
 *   mined with min_frequency=2 must give the 53 patterns of the golden
 *   fixtures/data/fminer2/fminer/test/tmp1: the same SMARTS, the same chi-square to 4 decimals,
 *   the same occurrences (ids = lines of the upload);
 * - lazar's hamster_carcinogenicity.csv (different SMILES for some compounds) gives 62 features,
 *   as fminer did for the 2016 lazar on it: its test notes 62 features where 54 were expected
 *   (opentox/lazar : test/fminer.rb @ 1a56148).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadRDKit } from "../../src/chem/rdkit.ts";
import { DATA, get, HAMSTER, KAZIUS, taskState, uploadDataset, waitForTaskState, sparqlSelect as sparql, postForm as post, runTask as run } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { QG_NS } from "../../src/store/vocab.ts";

const F2 = `${DATA}fminer2/`;
const OT = "http://www.opentox.org/api/1.1#";



/** Run an algorithm and wait for its result URI. */

/** fminer's YAML line: SMARTS, statistic, then the id lists per class. */
function parseYaml(line: string): { smarts: string; stat: string; ids: number[] } {
  const m = /^- \[ "(.*)", ([0-9.]+), (.*) \]$/.exec(line);
  assert.ok(m, line);
  return { smarts: m[1]!, stat: m[2]!, ids: [...m[3]!.matchAll(/\d+/g)].map((x) => Number(x[0])) };
}

describe("miners over HTTP", () => {
  const smi = readFileSync(`${F2}libbbrc/test/hamster_carcinogenicity.smi`, "utf8").split("\n").filter(Boolean).map((l) => l.split("\t") as [string, string]);
  const cls = new Map(readFileSync(`${F2}libbbrc/test/hamster_carcinogenicity.class`, "utf8").split("\n").filter(Boolean).map((l) => {
    const f = l.split("\t");
    return [f[0]!, f[2]!] as const;
  }));

  const csv = `SMILES,Hamster carcinogenicity\n${smi.map(([id, s]) => `${s},${cls.get(id)}`).join("\n")}\n`;
  const srv = useServer({ upload: { fminerHamster: { text: csv, name: "hamster-fminer.csv" } } });

  test("GET describes BBRC (also at the OpenTox paths) with its parameters and defaults", async () => {
    for (const path of ["miner/bbrc", "fminer/bbrc", "fminer"]) {
      const nt = await (await get(`${srv.base}/algorithm/${path}`, "application/n-triples")).text();
      const alg = `<${srv.base}/algorithm/miner/bbrc>`;
      assert.match(nt, new RegExp(`${alg.replace(/[/.]/g, "\\$&")} <http://www\\.w3\\.org/1999/02/22-rdf-syntax-ns#type> <${OT}Algorithm>`));
      for (const p of ["dataset_uri", "prediction_feature", "min_frequency", "feature_type", "backbone", "min_chisq_significance"]) {
        assert.ok(nt.includes(`<http://purl.org/dc/elements/1.1/title> "${p}"`), `${path}: parameter ${p}`);
      }
      // lazar's default minimum frequency of /fminer/bbrc is 5 per mil (opentox/algorithm :
      // fminer.rb @ 1e68543; docs/lazar-method.md "Substructures")
      assert.match(nt, /#min_frequency> <http:\/\/www\.opentox\.org\/api\/1\.1#paramValue> "5pm"/);
    }
    // LAST: the common parameters, default 80 per mil (the same fminer.rb)
    for (const path of ["miner/last", "fminer/last"]) {
      const nt = await (await get(`${srv.base}/algorithm/${path}`, "application/n-triples")).text();
      assert.ok(nt.includes(`<${srv.base}/algorithm/miner/last> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${OT}Algorithm>`), path);
      assert.match(nt, /#min_frequency> <http:\/\/www\.opentox\.org\/api\/1\.1#paramValue> "80pm"/);
      assert.doesNotMatch(nt, /"backbone"/);
    }
    const list = (await (await get(`${srv.base}/algorithm`, "text/uri-list")).text()).split(/\r?\n/);
    assert.ok(list.includes(`${srv.base}/algorithm/miner/bbrc`) && list.includes(`${srv.base}/algorithm/miner/last`));
    const html = await (await get(`${srv.base}/algorithm/miner/bbrc`, "text/html")).text();
    assert.match(html, /<form method="post"/);
  });

  test("BBRC on fminer's hamster input, min_frequency=2: the 53 patterns of fminer/test/tmp1", async () => {
    const fd = await run(`${srv.base}/algorithm/fminer/bbrc`, { dataset_uri: srv.datasets.fminerHamster, min_frequency: "2" });
    const gold = readFileSync(`${F2}fminer/test/tmp1`, "utf8").split("\n").filter(Boolean).map(parseYaml);
    assert.equal(gold.length, 53);
    const rows = await sparql(
      srv.base,
      `PREFIX ot: <${OT}> PREFIX qg: <${QG_NS}>
       SELECT ?f ?smarts ?p ?stat ?effect WHERE { GRAPH <${fd}> { ?f a ot:Substructure ; ot:smarts ?smarts ; ot:pValue ?p ; qg:statistic ?stat ; ot:effect ?effect } }`,
    );
    assert.equal(rows.length, 53);
    const bySmarts = new Map(rows.map((r) => [r.smarts!.value, r]));
    // ids of the golden lists are the .smi ids; the upload put the compound of .smi line k on CSV line k + 1
    const lineOfId = new Map(smi.map(([id], k) => [Number(id), k + 2]));
    for (const g of gold) {
      const r = bySmarts.get(g.smarts);
      assert.ok(r, `pattern ${g.smarts} of tmp1 is missing`);
      assert.equal(Number(r.stat!.value).toFixed(4), g.stat, g.smarts);
      const p = Number(r.p!.value);
      assert.ok(p > 0.95 && p < 1, `${g.smarts}: pValue ${p} (CDF of chi-square ≥ 3.84 at df 1)`);
      const lines = await sparql(
        srv.base,
        `PREFIX ot: <${OT}> PREFIX qg: <${QG_NS}>
         SELECT ?line WHERE { GRAPH <${fd}> { ?e qg:line ?line ; ot:values ?v . ?v ot:feature <${r.f!.value}> ; ot:value ?x } }`,
      );
      assert.deepEqual(lines.map((l) => Number(l.line!.value)).sort((a, b) => a - b), g.ids.map((id) => lineOfId.get(id)!).sort((a, b) => a - b), g.smarts);
    }
  });

  test("nr_hits=true: the same occurrences, valued by their number of embeddings (as RDKit counts all mappings)", async () => {
    const plain = await run(`${srv.base}/algorithm/miner/bbrc`, { dataset_uri: srv.datasets.fminerHamster, min_frequency: "2" });
    const hits = await run(`${srv.base}/algorithm/miner/bbrc`, { dataset_uri: srv.datasets.fminerHamster, min_frequency: "2", nr_hits: "true" });
    const values = async (fd: string): Promise<Map<string, string>> =>
      new Map(
        (await sparql(srv.base, `PREFIX ot: <${OT}> PREFIX qg: <${QG_NS}> SELECT ?smarts ?line ?x WHERE { GRAPH <${fd}> { ?e qg:line ?line ; ot:values ?v . ?v ot:feature ?f ; ot:value ?x . ?f ot:smarts ?smarts } }`)).map((r) => [
          `${r.smarts!.value} @ ${r.line!.value}`,
          r.x!.value,
        ]),
      );
    const a = await values(plain);
    const b = await values(hits);
    assert.deepEqual([...b.keys()].sort(), [...a.keys()].sort());
    assert.ok([...a.values()].every((x) => Number(x) === 1));
    // Independent count: RDKit's matcher with uniquify off counts every mapping, as fminer's
    // FMINER_NR_HITS output does (its embeddings, automorphic ones included: amaunz/fminer2 @
    // 21afb3b : libbbrc/legoccurrence.cpp, graphstate.cpp).
    const rdkit = await loadRDKit();
    let checked = 0;
    for (const [key, x] of b) {
      const [smarts, line] = key.split(" @ ") as [string, string];
      const smiles = smi[Number(line) - 2]![1];
      const mol = rdkit.get_mol(smiles)!;
      // RDKit reads a nitro group written N(=O)=O charge-separated; fminer's encoding keeps it as written
      if (mol.get_smiles().includes("+") !== smiles.includes("+")) {
        mol.delete();
        continue;
      }
      const q = rdkit.get_qmol(smarts)!;
      const n = (JSON.parse(mol.get_substruct_matches(q, JSON.stringify({ uniquify: false, maxMatches: 100000 }))) as unknown[]).length;
      mol.delete();
      q.delete();
      assert.equal(Number(x), n, `${smarts} in line ${line} (${smiles})`);
      checked++;
    }
    assert.ok(checked > 100, `${checked} values checked`);
    assert.ok([...b.values()].some((x) => Number(x) > 1), "some pattern occurs more than once in a compound");
  });

  test("BBRC on lazar's hamster_carcinogenicity.csv with the default 5 per mil (→ 2): 62 features (as in lazar's test/fminer.rb)", async () => {
    const ds = await uploadDataset(srv.base, HAMSTER);
    const fd = await run(`${srv.base}/algorithm/miner/bbrc`, { dataset_uri: ds });
    const features = (await (await get(`${fd}/features`, "text/uri-list")).text()).split(/\r?\n/).filter(Boolean);
    assert.equal(features.length, 62);
    const params = await sparql(srv.base, `PREFIX ot: <${OT}> PREFIX dc: <http://purl.org/dc/elements/1.1/> SELECT ?n ?v WHERE { GRAPH <${fd}> { <${fd}> ot:parameters ?p . ?p dc:title ?n ; ot:paramValue ?v } }`);
    const byName = Object.fromEntries(params.map((p) => [p.n!.value, p.v!.value]));
    assert.equal(byName.min_frequency, "5pm");
    assert.equal(byName.absolute_min_frequency, "2"); // max(2, floor(5 · 85 / 1000))
    assert.equal(byName.prediction_feature, `${ds}/feature/Hamster%20Carcinogenicity`);
    // every compound of the source is an entry of the feature dataset
    const [n] = await sparql(srv.base, `PREFIX ot: <${OT}> SELECT (COUNT(?e) AS ?n) WHERE { GRAPH <${fd}> { <${fd}> ot:dataEntry ?e } }`);
    assert.equal(n!.n.value, "85");
    // The HTML names the source, the algorithm and the parameters, and shows each feature's SMARTS.
    const html = await (await get(fd, "text/html")).text();
    assert.ok(html.includes(`<th>Computed from</th><td><a href="${ds}">`));
    assert.ok(html.includes(`<a href="${srv.base}/algorithm/miner/bbrc">`));
    assert.match(html, /<code>absolute_min_frequency<\/code> = <span class="mono">2<\/span>/);
    const section = /<section id="features">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
    // each feature a row: its picture, and its SMARTS linking the feature
    assert.equal((section.match(/<td><a href="[^"]*\/feature\/[^"]*" class="mono">/g) ?? []).length, 62);
  });

  test("LAST-PM on fminer's hamster input with the default 80 per mil (→ 6): the 23 latent structures of liblast", async () => {
    const fd = await run(`${srv.base}/algorithm/fminer/last`, { dataset_uri: srv.datasets.fminerHamster });
    const rows = await sparql(
      srv.base,
      `PREFIX ot: <${OT}> PREFIX qg: <${QG_NS}>
       SELECT ?smarts ?p ?support WHERE { GRAPH <${fd}> { ?f a ot:Substructure ; ot:smarts ?smarts ; ot:pValue ?p ; qg:support ?support } }`,
    );
    // An independent calculation: fminer2's liblast (amaunz/fminer2 @ 21afb3b, built with OpenBabel
    // 3.1.1) on this input at minfreq 6 gives 23 graphs; two of them, turned into SMARTS as
    // last-utils does (amaunz/last-utils @ 01b21b0 : lu.rb, mode nls), are the two below. lazar's
    // service test expected the first of them among its 21 features (opentox/opentox-test :
    // test/fminer.rb @ 0346d13); test/unit/mining/last.test.ts has the details.
    assert.equal(rows.length, 23);
    const smarts = rows.map((r) => r.smarts!.value);
    assert.ok(smarts.includes("[#6&A]-[#6&a]:[#6&a]:[#6&a]:[#6&a]:[#6&a]"));
    assert.ok(smarts.includes("[#8&A]=[#7&A]-[#7&A;$([#7&A](-[#6&A]-[#6&A,#8&A]-[#6&A,#8&A])-[#7&A]),$([#7&A](-[#6&A])-[#7&A]),$([#7&A](-[#6&A])-[#7&A])](~*)"));
    for (const r of rows) {
      assert.ok(Number(r.support!.value) >= 1, r.smarts!.value);
      const p = Number(r.p!.value);
      assert.ok(p >= 0 && p <= 1, `${r.smarts!.value}: pValue ${p}`);
    }
    const params = await sparql(srv.base, `PREFIX ot: <${OT}> PREFIX dc: <http://purl.org/dc/elements/1.1/> SELECT ?v WHERE { GRAPH <${fd}> { <${fd}> ot:parameters ?p . ?p dc:title "absolute_min_frequency" ; ot:paramValue ?v } }`);
    assert.equal(params[0]?.v!.value, "6"); // max(2, floor(80 · 85 / 1000))
  });

  test("a running BBRC task can be cancelled: Cancelled, 503, no feature dataset", async () => {
    // Kazius (4069 rows) at min_frequency 10 mines for several seconds (bench/mining).
    const ds = await uploadDataset(srv.base, KAZIUS);
    const datasets = async (): Promise<string[]> => (await (await get(`${srv.base}/dataset`, "text/uri-list")).text()).split(/\r?\n/).filter(Boolean);
    const before = await datasets();
    const r = await post(`${srv.base}/algorithm/miner/bbrc`, { dataset_uri: ds, min_frequency: "10" });
    assert.equal(r.status, 202);
    const task = (await r.text()).trim();
    await waitForTaskState(task, (t) => t.status === "Running");
    const del = await fetch(task, { method: "DELETE", headers: { Accept: "text/uri-list" } });
    assert.equal(del.status, 200);
    assert.equal((await taskState(task)).status, "Cancelled");
    assert.equal((await fetch(task, { headers: { Accept: "text/uri-list" } })).status, 503);
    assert.deepEqual(await datasets(), before);
  });

  const bad: [string, Record<string, string>, RegExp, string][] = [
    ["no dataset_uri", {}, /'dataset_uri' is required/, "dataset_uri"],
    ["unknown parameter", { dataset_uri: "DS", minfreq: "3" }, /unknown parameter 'minfreq'/, "minfreq"],
    ["bad min_frequency", { dataset_uri: "DS", min_frequency: "often" }, /'min_frequency' must be a count/, "min_frequency"],
    ["min_frequency 0", { dataset_uri: "DS", min_frequency: "0" }, /whole number ≥ 1/, "min_frequency"],
    ["bad feature_type", { dataset_uri: "DS", feature_type: "graphs" }, /one of trees, paths/, "feature_type"],
    ["bad backbone", { dataset_uri: "DS", backbone: "maybe" }, /true or false/, "backbone"],
    ["significance over 1", { dataset_uri: "DS", min_chisq_significance: "1.5" }, /at most 1/, "min_chisq_significance"],
    ["foreign dataset", { dataset_uri: "http://example.org/dataset/1" }, /not a dataset of this service/, "dataset_uri"],
    ["feature of another dataset", { dataset_uri: "DS", prediction_feature: "http://example.org/f" }, /is not a feature of/, "prediction_feature"],
  ];
  for (const [name, params, message, field] of bad) {
    test(`bad parameters → 400 naming them: ${name}`, async () => {
      const filled = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v === "DS" ? srv.datasets.fminerHamster : v]));
      const before = await (await get(`${srv.base}/dataset`, "text/uri-list")).text();
      const r = await post(`${srv.base}/algorithm/miner/bbrc`, filled, "application/problem+json");
      assert.equal(r.status, 400);
      const problem = (await r.json()) as { detail: string; field?: string };
      assert.match(problem.detail, message);
      assert.equal(problem.field, field);
      assert.equal(await (await get(`${srv.base}/dataset`, "text/uri-list")).text(), before, "nothing was created");
    });
  }
});
