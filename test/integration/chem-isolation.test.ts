/**
 * Isolation of chemistry (docs/ARCHITECTURE.md "Isolation of chemistry") against the real
 * server: each structure that broke RDKit for good (a tester's findings) is refused or survived,
 * with an answer naming the limit and the field or line, and the service serves normally
 * afterwards (`assertServesNormally`: GET / in under 1 s, CCO read as ethanol, hamster uploaded
 * with its 85 compounds).
 *
 * Reference InChIs: PubChem (ethanol CID 702, benzene CID 241, phenol CID 996, acetaldehyde
 * CID 177, acetic acid CID 176, caffeine CID 2519). The 1,500-carbon alkane's InChI is written
 * with the numbering of the n-alkanes' standard InChIs (hexane, CID 8058:
 * InChI=1S/C6H14/c1-3-5-6-4-2/h3-6H2,1-2H3). Limits: src/chem/limits.ts (300 atoms other than
 * hydrogen, 4000 SMILES characters, molfiles of at most 1000 atoms).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { assertServesNormally, DATA, get, postCompound, sparqlSelect, uploadCsv } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { QG_NS } from "../../src/store/vocab.ts";

const ETHANOL = "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3";
const BENZENE = "InChI=1S/C6H6/c1-2-4-6-5-3-1/h1-6H";
const PHENOL = "InChI=1S/C6H6O/c7-6-4-2-1-3-5-6/h1-5,7H";
const ACETALDEHYDE = "InChI=1S/C2H4O/c1-2-3/h2H,1H3";
const ACETIC_ACID = "InChI=1S/C2H4O2/c1-2(3)4/h1H3,(H,3,4)";
const CAFFEINE = "InChI=1S/C8H10N4O2/c1-10-4-9-6-5(10)7(13)12(3)8(14)11(6)2/h4H,1-3H3";

/** The standard InChI of the linear alkane of `n` carbons (n even), numbered as hexane's. */
function alkaneInchi(n: number): string {
  const odd = Array.from({ length: n / 2 }, (_, i) => 2 * i + 1);
  const even = Array.from({ length: n / 2 }, (_, i) => n - 2 * i);
  return `InChI=1S/C${n}H${2 * n + 2}/c${[...odd, ...even].join("-")}/h3-${n}H2,1-2H3`;
}

/** The V3000 molfile of the finding: 150 bytes, COUNTS 99999999, no atom lines. */
const COUNTS_ATTACK = "\n\n\n  0  0  0     0  0            999 V3000\nM  V30 BEGIN CTAB\nM  V30 COUNTS 99999999 0 0 0 0\nM  V30 BEGIN ATOM\nM  V30 END ATOM\nM  V30 END CTAB\nM  END\n";

/** A refusal as problem+json, else the compound's URI. */
const ANSWER = "application/problem+json, text/uri-list;q=0.9";

interface Problem {
  readonly status: number;
  readonly detail: string;
  readonly field?: string;
}

/** A dataset's compounds in file order, as InChIs. */
async function compoundInchis(base: string, ds: string): Promise<string[]> {
  const list = (await (await get(ds, "text/uri-list")).text()).split(/\r?\n/).filter(Boolean);
  return list.map((u) => decodeURIComponent(u.slice(`${base}/compound/`.length)));
}

/** The unparseable-structure warnings of a dataset: line → message. */
async function structureWarnings(base: string, ds: string): Promise<Map<number, string>> {
  const rows = await sparqlSelect(
    base,
    `SELECT ?line ?message WHERE { GRAPH <${ds}> { <${ds}> <${QG_NS}warning> ?w . ?w <${QG_NS}warningKind> "unparseable-structure" ; <http://www.w3.org/2000/01/rdf-schema#comment> ?message ; <${QG_NS}line> ?line } }`,
  );
  return new Map(rows.map((r) => [Number(r.line!.value), r.message!.value]));
}

describe("isolation of chemistry", () => {
  const srv = useServer();

  test("POST /compound of 1020 carbons: 413 naming the limit and the field; the service then serves normally", async () => {
    const r = await postCompound(srv.base, "C".repeat(1020), { type: "chemical/x-daylight-smiles", accept: ANSWER });
    assert.equal(r.status, 413);
    const p = (await r.json()) as Problem;
    assert.equal(p.field, "body");
    assert.equal(p.detail, "the structure was not read: structure too large: the SMILES has 1020 atoms (the limit is 300 atoms other than hydrogen)");
    await assertServesNormally(srv.base);
  });

  test("an upload with the 1020-carbon SMILES among valid rows: every valid row is stored, the bad line is a warning", async () => {
    const csv = ["SMILES,activity", "CCO,1", "c1ccccc1,0", "Oc1ccccc1,1", `${"C".repeat(1020)},1`, "CC=O,0", "CC(=O)O,1", "CN1C=NC2=C1C(=O)N(C(=O)N2C)C,0", ""].join("\n");
    const ds = await uploadCsv(srv.base, csv, "with-1020-carbons.csv");
    assert.deepEqual(await compoundInchis(srv.base, ds), [ETHANOL, BENZENE, PHENOL, ACETALDEHYDE, ACETIC_ACID, CAFFEINE]);
    const warnings = await structureWarnings(srv.base, ds);
    assert.deepEqual([...warnings.keys()], [5]);
    assert.match(warnings.get(5)!, /^Line 5: cannot use structure "C{99}…": structure too large: the SMILES has 1020 atoms \(the limit is 300 atoms other than hydrogen\); row skipped$/);
    await assertServesNormally(srv.base);
  });

  test("GET of the 1,500-carbon alkane's InChI: 422 naming the limit and the field; the service then serves normally", async () => {
    assert.equal(alkaneInchi(6), "InChI=1S/C6H14/c1-3-5-6-4-2/h3-6H2,1-2H3"); // hexane, PubChem CID 8058
    const r = await get(`${srv.base}/compound/${alkaneInchi(1500)}`, "application/problem+json");
    assert.equal(r.status, 422);
    const p = (await r.json()) as Problem;
    assert.equal(p.field, "InChI");
    assert.equal(p.detail, "the InChI was not read: structure too large: the InChI's formula has 1500 atoms other than hydrogen (the limit is 300)");
    await assertServesNormally(srv.base);
  });

  test("a CSV with a 2,000,000-character SMILES: the row is a warning quoting its start, the others are stored", async () => {
    const csv = ["SMILES,activity", "CCO,1", `${"C".repeat(2_000_000)},0`, "c1ccccc1,1", ""].join("\n");
    const ds = await uploadCsv(srv.base, csv, "long-smiles.csv");
    assert.deepEqual(await compoundInchis(srv.base, ds), [ETHANOL, BENZENE]);
    const warnings = await structureWarnings(srv.base, ds);
    assert.deepEqual([...warnings.keys()], [3]);
    assert.match(warnings.get(3)!, /^Line 3: cannot use structure "C{99}…": SMILES too long: 2000000 characters \(the limit is 4000 characters\); row skipped$/);
    await assertServesNormally(srv.base);
  });

  test("the V3000 molfile with COUNTS 99999999: 413 naming the limit; then a normal molfile is read", async () => {
    assert.ok(COUNTS_ATTACK.length <= 150);
    const r = await postCompound(srv.base, COUNTS_ATTACK, { type: "chemical/x-mdl-molfile", accept: ANSWER });
    assert.equal(r.status, 413);
    const p = (await r.json()) as Problem;
    assert.equal(p.field, "body");
    assert.equal(p.detail, "the structure was not read: molfile too large: 99999999 atoms (the limit is 1000 atoms, hydrogens included)");
    const ok = await postCompound(srv.base, readFileSync(`${DATA}lazar/test/data/acetaldehyde.sdf`, "utf8"), { type: "chemical/x-mdl-molfile", accept: ANSWER });
    assert.ok(ok.status === 200 || ok.status === 201, `${ok.status}: ${await ok.clone().text()}`);
    assert.equal(ok.headers.get("location"), `${srv.base}/compound/${ACETALDEHYDE}`);
    await assertServesNormally(srv.base);
  });
});
