/**
 * Physico-chemical descriptors over HTTP (README "Physico-chemical descriptors"; the routes are
 * lazar's: /algorithm/pc in opentox/algorithm : pc.rb @ 1e68543, the per-compound and
 * per-dataset /pc in opentox/compound : webapp/compound.rb @ 723e80d and opentox/dataset :
 * webapp/dataset.rb @ 41f64af): the three entry points on hamster_carcinogenicity.csv, the
 * listing at /algorithm/pc, the feature metadata, and parameter errors.
 *
 * Reference values: the number of value names per pc_type counts, for the 41 CDK classes that
 * lazar's pc_descriptors.yaml files under each pc_type (opentox/install @ 1684c34), the value
 * names CDK's getDescriptorNames() gives at default parameters (cdk/cdk @ caa24d6): 263 in all,
 * constitutional 14, electronic 4, topological 175, geometrical 18, cpsa 29, hybrid 23;
 * propanoic acid's Wiener path number 18, polarity 2 and Zagreb index 16 are CDK's unit tests
 * (WienerNumbersDescriptorTest, ZagrebIndexDescriptorTest, cdk/cdk @ caa24d6); hexane's chi2v
 * 1.7071 is the Hall–Kier value RDKit's tests check (rdkit/Chem/UnitTestGraphDescriptors_2.py
 * testChi0v..Chi5v, rdkit/rdkit @ 24e5443).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { get, HAMSTER, sparqlSelect as sparql, postForm as post, runTask as runTaskFor } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";

const OT = "http://www.opentox.org/api/1.1#";
const DC = "http://purl.org/dc/elements/1.1/";
const CDK_VALUES: Record<string, number> = { constitutional: 14, electronic: 4, topological: 175, geometrical: 18, cpsa: 29, hybrid: 23 };




/** Feature titles of a feature dataset, and value by (compound, title). */
async function read(base: string, fd: string): Promise<{ titles: string[]; value: (compound: string, title: string) => number | undefined; descriptions: Map<string, string> }> {
  const fs = await sparql(base, `PREFIX ot: <${OT}> PREFIX dc: <${DC}> SELECT ?t ?d WHERE { GRAPH <${fd}> { ?f a ot:Feature ; dc:title ?t ; dc:description ?d } }`);
  const vs = await sparql(base, `PREFIX ot: <${OT}> PREFIX dc: <${DC}> SELECT ?c ?t ?x WHERE { GRAPH <${fd}> { ?e ot:compound ?c ; ot:values ?v . ?v ot:feature ?f ; ot:value ?x . ?f dc:title ?t } }`);
  const values = new Map(vs.map((r) => [`${r.c!.value} ${r.t!.value}`, Number(r.x!.value)]));
  return { titles: fs.map((r) => r.t!.value), value: (c, t) => values.get(`${c} ${t}`), descriptions: new Map(fs.map((r) => [r.t!.value, r.d!.value])) };
}

const runTask = (url: string, params: Record<string, string>): Promise<string> => runTaskFor(url, params, 120_000);

describe("descriptors over HTTP", () => {
  const srv = useServer({ upload: { hamster: HAMSTER } });

  test("GET /algorithm/pc lists every descriptor with pc_type, lib and value names; the CDK set has the value counts of lazar's CDK classes", async () => {
    const nt = await (await get(`${srv.base}/algorithm/pc`, "application/n-triples")).text();
    const counts: Record<string, number> = {};
    const typeOf = new Map<string, string>();
    for (const m of nt.matchAll(/^<([^>]+)> <[^>]+#pcType> "([^"]+)" \.$/gm)) typeOf.set(m[1]!, m[2]!);
    const cdk = new Set([...nt.matchAll(/^<([^>]+)> <[^>]+#lib> "cdk" \.$/gm)].map((m) => m[1]!));
    for (const m of nt.matchAll(/^<([^>]+)> <[^>]+#valueName> "[^"]+" \.$/gm)) {
      if (!cdk.has(m[1]!)) continue;
      const t = typeOf.get(m[1]!)!;
      counts[t] = (counts[t] ?? 0) + 1;
    }
    assert.deepEqual(counts, CDK_VALUES);
    const list = (await (await get(`${srv.base}/algorithm/pc`, "text/uri-list")).text()).split(/\r?\n/);
    assert.ok(list.includes(`${srv.base}/algorithm/pc/AllDescriptors`));
    const alg = await (await get(`${srv.base}/algorithm/pc/AllDescriptors`, "application/n-triples")).text();
    assert.match(alg, /"pc_type"/);
    assert.match(alg, /#allowedValue> "cpsa"/);
  });

  test("POST /algorithm/pc/AllDescriptors on hamster: the features of the chosen pc_types, described as '<descriptor> [<pc_type>, <lib>]'", async () => {
    const fd = await runTask(`${srv.base}/algorithm/pc/AllDescriptors`, { dataset_uri: srv.datasets.hamster, pc_type: "constitutional,electronic", lib: "cdk" });
    const { titles, descriptions } = await read(srv.base, fd);
    assert.equal(titles.length, CDK_VALUES.constitutional! + CDK_VALUES.electronic!);
    assert.equal(descriptions.get("nAtom"), "AtomCountDescriptor [constitutional, cdk]");
    assert.equal(descriptions.get("apol"), "APolDescriptor [electronic, cdk]");
    const [n] = await sparql(srv.base, `PREFIX ot: <${OT}> SELECT (COUNT(?e) AS ?n) WHERE { GRAPH <${fd}> { <${fd}> ot:dataEntry ?e } }`);
    assert.equal(n!.n.value, "85");
    const src = await sparql(srv.base, `PREFIX ot: <${OT}> PREFIX dc: <${DC}> SELECT DISTINCT ?s ?c WHERE { GRAPH <${fd}> { ?f a ot:Feature ; ot:hasSource ?s ; dc:creator ?c } }`);
    assert.deepEqual(src.map((r) => [r.s!.value, r.c!.value]), [[srv.datasets.hamster, `${srv.base}/algorithm/pc/AllDescriptors`]]);
  });

  test("the 3D pc_types on hamster: their documented value names, with values for nearly every compound", async () => {
    const fd = await runTask(`${srv.datasets.hamster}/pc`, { pc_type: "geometrical,cpsa,hybrid" });
    const { titles } = await read(srv.base, fd);
    assert.equal(titles.length, CDK_VALUES.geometrical! + CDK_VALUES.cpsa! + CDK_VALUES.hybrid!);
    for (const name of ["GRAV-1", "MOMI-X", "LOBMAX", "PPSA-1", "THSA", "Wlambda1.unity", "BCUTw-1l"]) assert.ok(titles.includes(name), name);
    const [n] = await sparql(srv.base, `PREFIX ot: <${OT}> PREFIX dc: <${DC}> SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { GRAPH <${fd}> { ?e ot:values ?v . ?v ot:feature ?f . ?f dc:title "MOMI-X" } }`);
    assert.ok(Number(n!.n.value) >= 80, `${n!.n.value} of 85 compounds have 3D values`);
  });

  test("POST /dataset/{id}/pc (lib rdkit): RDKit's own values, as a task", async () => {
    const fd = await runTask(`${srv.datasets.hamster}/pc`, { pc_type: "topological", lib: "rdkit" });
    const { titles } = await read(srv.base, fd);
    assert.ok(titles.includes("tpsa") && titles.includes("chi2v"), titles.join(" "));
  });

  test("POST /compound/{InChI}/pc answers directly (201) with a one-compound feature dataset; CDK and RDKit reference values", async () => {
    const compound = async (smiles: string): Promise<string> => {
      const r = await fetch(`${srv.base}/compound`, { method: "POST", body: smiles, headers: { "Content-Type": "chemical/x-daylight-smiles", Accept: "text/uri-list" } });
      assert.ok(r.status === 201 || r.status === 200);
      return (await r.text()).trim();
    };
    const acid = await compound("CCC(=O)O");
    const r = await post(`${acid}/pc`, { pc_type: "topological" });
    assert.equal(r.status, 201, await r.clone().text());
    const fd = (await r.text()).trim();
    assert.equal(r.headers.get("location"), fd);
    const a = await read(srv.base, fd);
    assert.equal(a.titles.length, CDK_VALUES.topological);
    assert.equal(a.value(acid, "WPATH"), 18);
    assert.equal(a.value(acid, "WPOL"), 2);
    assert.equal(a.value(acid, "Zagreb"), 16);
    const hexane = await compound("CCCCCC");
    const h = await read(srv.base, (await (await post(`${hexane}/pc`, { pc_type: "topological", lib: "cdk,rdkit" })).text()).trim());
    assert.ok(Math.abs(h.value(hexane, "chi2v")! - 1.7071) < 1e-4);
    assert.ok(Math.abs(h.value(hexane, "VP-2")! - 1.7071) < 1e-4);
    // A compound never uploaded nor posted: its InChI is decoded (caffeine, PubChem CID 2519).
    const caffeine = `${srv.base}/compound/InChI=1S/C8H10N4O2/c1-10-4-9-6-5(10)7(13)12(3)8(14)11(6)2/h4H,1-3H3`;
    const cr = await post(`${caffeine}/pc`, { pc_type: "constitutional" });
    assert.equal(cr.status, 201, await cr.clone().text());
    const cv = await read(srv.base, (await cr.text()).trim());
    assert.equal(cv.value(caffeine, "nAtom"), 24); // C8H10N4O2: 8 + 10 + 4 + 2 atoms
  });

  const bad: [string, string, Record<string, string>, RegExp, string][] = [
    ["unknown pc_type", "ALG", { dataset_uri: "DS", pc_type: "constitutional,quantum" }, /'quantum'; valid values are constitutional, electronic, topological, geometrical, cpsa, hybrid/, "pc_type"],
    ["unknown lib", "ALG", { dataset_uri: "DS", lib: "joelib" }, /'joelib'; valid values are cdk, rdkit/, "lib"],
    ["missing dataset_uri", "ALG", {}, /'dataset_uri' is required/, "dataset_uri"],
    ["unknown lib on a dataset", "DSPC", { lib: "openbabel" }, /'openbabel'; valid values are cdk, rdkit/, "lib"],
  ];
  for (const [name, where, params, message, field] of bad) {
    test(`bad parameters → 400 naming them: ${name}`, async () => {
      const url = where === "ALG" ? `${srv.base}/algorithm/pc/AllDescriptors` : `${srv.datasets.hamster}/pc`;
      const filled = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, v === "DS" ? srv.datasets.hamster : v]));
      const r = await post(url, filled, "application/problem+json");
      assert.equal(r.status, 400);
      const problem = (await r.json()) as { detail: string; field?: string };
      assert.match(problem.detail, message);
      assert.equal(problem.field, field);
    });
  }
});
