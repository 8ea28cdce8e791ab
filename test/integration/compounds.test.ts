/**
 * Compounds over HTTP against the real server (README "Compounds"; docs/opentox-api.md "Resources
 * and URIs"): after uploading hamster_carcinogenicity.csv, `/compound/{InChI}` serves Turtle
 * (ot:Compound with SMILES, InChI, InChIKey), SMILES, InChI, molfile, SVG and HTML, also under the
 * percent-encoded path; `POST /compound` with a SMILES or molfile body answers the compound URI
 * (201 the first time, 200 after, with Location); a bad SMILES is 422, an unknown compound 404.
 *
 * Expected values are published identifiers (PubChem): acetaldehyde (CID 177, row 1 of the
 * hamster file, `CC=O`) InChI=1S/C2H4O/c1-2-3/h2H,1H3, InChIKey IKHGUXGNUITLKF-UHFFFAOYSA-N;
 * phenol (CID 996; not in the hamster file) InChI=1S/C6H6O/c7-6-4-2-1-3-5-6/h1-5,7H, InChIKey
 * ISWSIDIOOBJBQZ-UHFFFAOYSA-N; methylamine (CID 6329) InChI=1S/CH5N/c1-2/h2H2,1H3. Acetaldehyde
 * has 3 heavy atoms and 2 bonds (the molfile counts line); fixtures/data/lazar/test/data/
 * acetaldehyde.sdf is one record of it, with empty header lines and CRLF line ends.
 */
import { before, describe, test } from "node:test";
import { loadRDKit } from "../../src/chem/rdkit.ts";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Parser } from "n3";
import { DATA, get, HAMSTER } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { QG_NS } from "../../src/store/vocab.ts";

const ACETALDEHYDE_SDF = `${DATA}lazar/test/data/acetaldehyde.sdf`;
const ACETALDEHYDE = { inchi: "InChI=1S/C2H4O/c1-2-3/h2H,1H3", key: "IKHGUXGNUITLKF-UHFFFAOYSA-N" };
const PHENOL = { inchi: "InChI=1S/C6H6O/c7-6-4-2-1-3-5-6/h1-5,7H", key: "ISWSIDIOOBJBQZ-UHFFFAOYSA-N" };
const METHYLAMINE = "InChI=1S/CH5N/c1-2/h2H2,1H3";
// Methylamine drawn by hand: empty name line, program line, empty comment line, counts line (V2000).
const METHYLAMINE_MOL = [
  "",
  "  handmade",
  "",
  "  2  1  0  0  0  0  0  0  0  0999 V2000",
  "    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0",
  "    1.2990    0.7500    0.0000 N   0  0  0  0  0  0  0  0  0  0  0  0",
  "  1  2  1  0",
  "M  END",
  "",
].join("\n");

describe("compounds", () => {
  const srv = useServer({ upload: { hamster: HAMSTER } });
  let acetaldehyde = "";

  before(() => {
    acetaldehyde = `${srv.base}/compound/${ACETALDEHYDE.inchi}`;
    assert.equal(readFileSync(HAMSTER, "utf8").split("\n")[1]?.split(",")[0], "CC=O", "row 1 of the file is acetaldehyde");
  });

  async function ok(url: string, accept: string): Promise<string> {
    const r = await get(url, accept);
    const body = await r.text();
    assert.equal(r.status, 200, `${accept}: ${body.slice(0, 200)}`);
    assert.equal(r.headers.get("content-type")?.split(";")[0], accept);
    return body;
  }

  test("Turtle: an ot:Compound with its SMILES, standard InChI and InChIKey", async () => {
    const quads = new Parser({ format: "Turtle" }).parse(await ok(acetaldehyde, "text/turtle"));
    const about = quads.filter((q) => q.subject.value === acetaldehyde);
    const value = (local: string): string[] => about.filter((q) => q.predicate.value === `${QG_NS}${local}`).map((q) => q.object.value);
    assert.ok(about.some((q) => q.predicate.value.endsWith("#type") && q.object.value === "http://www.opentox.org/api/1.1#Compound"));
    assert.deepEqual(value("inchi"), [ACETALDEHYDE.inchi]);
    assert.deepEqual(value("inchikey"), [ACETALDEHYDE.key]);
    assert.deepEqual(value("smiles"), ["CC=O"]);
  });

  test("chemical/x-daylight-smiles, chemical/x-inchi", async () => {
    assert.equal((await ok(acetaldehyde, "chemical/x-daylight-smiles")).trim(), "CC=O");
    assert.equal((await ok(acetaldehyde, "chemical/x-inchi")).trim(), ACETALDEHYDE.inchi);
  });

  test("chemical/x-mdl-molfile: the counts line has 3 atoms and 2 bonds, then C, C, O", async () => {
    const lines = (await ok(acetaldehyde, "chemical/x-mdl-molfile")).split(/\r?\n/);
    const counts = lines[3]!; // lines 1–3 are the header block
    assert.match(counts, /V2000\s*$/);
    assert.equal(Number(counts.slice(0, 3)), 3, "atoms");
    assert.equal(Number(counts.slice(3, 6)), 2, "bonds");
    const atoms = lines.slice(4, 7).map((l) => l.slice(31, 34).trim()).sort();
    assert.deepEqual(atoms, ["C", "C", "O"]);
    assert.ok(lines.includes("M  END"));
  });

  test("image/svg+xml is an SVG document; HTML shows the identifiers", async () => {
    const svg = await ok(acetaldehyde, "image/svg+xml");
    assert.match(svg, /<svg[\s>]/);
    assert.match(svg.trim(), /<\/svg>$/);
    const html = await ok(acetaldehyde, "text/html");
    assert.match(html, /^<!DOCTYPE html>/i);
    for (const s of [ACETALDEHYDE.key, "CC=O", ACETALDEHYDE.inchi]) assert.ok(html.includes(s), `HTML shows ${s}`);
  });

  test("the percent-encoded InChI path names the same compound", async () => {
    const encoded = `${srv.base}/compound/${encodeURIComponent(ACETALDEHYDE.inchi)}`;
    assert.notEqual(encoded, acetaldehyde);
    assert.equal((await ok(encoded, "chemical/x-inchi")).trim(), ACETALDEHYDE.inchi);
    assert.deepEqual((await ok(encoded, "text/uri-list")).split(/\r?\n/).filter(Boolean), [acetaldehyde]);
  });

  test("POST /compound with a SMILES: 201 + Location the first time, 200 after (same compound, other SMILES)", async () => {
    const phenol = `${srv.base}/compound/${PHENOL.inchi}`;
    // Phenol is not in the hamster file: it is served from its decoded InChI, but not stored.
    const listed = async (): Promise<boolean> => (await (await get(`${srv.base}/compound`, "text/uri-list")).text()).split(/\r?\n/).includes(phenol);
    assert.equal((await get(phenol)).status, 200);
    assert.equal(await listed(), false);
    const cases: [string, string, number][] = [
      ["text/plain", "Oc1ccccc1", 201],
      ["chemical/x-daylight-smiles", "c1ccccc1O", 200],
      ["text/plain", "C1=CC=C(C=C1)O\n", 200],
    ];
    for (const [type, smiles, status] of cases) {
      const r = await fetch(`${srv.base}/compound`, { method: "POST", body: smiles, headers: { "Content-Type": type, Accept: "text/uri-list" } });
      assert.equal(r.status, status, `${smiles} as ${type}`);
      assert.equal(r.headers.get("location"), phenol);
      assert.equal((await r.text()).trim(), phenol);
    }
    assert.equal(await listed(), true);
    assert.equal((await ok(phenol, "chemical/x-inchi")).trim(), PHENOL.inchi);
    const ttl = await ok(phenol, "text/turtle");
    assert.ok(ttl.includes(PHENOL.key), "InChIKey of phenol");
  });

  test("GET a compound never uploaded: its InChI decoded; RDKit reads the served SMILES back to that InChI", async () => {
    // Caffeine, PubChem CID 2519: published standard InChI and InChIKey.
    const inchi = "InChI=1S/C8H10N4O2/c1-10-4-9-6-5(10)7(13)12(3)8(14)11(6)2/h4H,1-3H3";
    const uri = `${srv.base}/compound/${inchi}`;
    const ttl = await ok(uri, "text/turtle");
    assert.ok(ttl.includes("RYYVLZVUVIJVGH-UHFFFAOYSA-N"));
    const smiles = (await ok(uri, "chemical/x-daylight-smiles")).trim();
    const rdkit = await loadRDKit();
    const mol = rdkit.get_mol(smiles)!;
    assert.equal(mol.get_inchi(), inchi);
    mol.delete();
    assert.match(await ok(uri, "image/svg+xml"), /<svg/);
  });

  test("POST /compound with a molfile: a new compound (201) and an SD record of a known one (200)", async () => {
    const mol = await fetch(`${srv.base}/compound`, { method: "POST", body: METHYLAMINE_MOL, headers: { "Content-Type": "chemical/x-mdl-molfile" } });
    assert.equal(mol.status, 201, await mol.clone().text());
    assert.equal(mol.headers.get("location"), `${srv.base}/compound/${METHYLAMINE}`);
    assert.equal((await ok(`${srv.base}/compound/${METHYLAMINE}`, "chemical/x-daylight-smiles")).trim(), "CN");

    const sdf = await fetch(`${srv.base}/compound`, { method: "POST", body: readFileSync(ACETALDEHYDE_SDF), headers: { "Content-Type": "chemical/x-mdl-molfile" } });
    assert.equal(sdf.status, 200, await sdf.clone().text());
    assert.equal(sdf.headers.get("location"), acetaldehyde);

    // The service's own molfile output goes back in and names the same compound.
    const own = await ok(acetaldehyde, "chemical/x-mdl-molfile");
    const back = await fetch(`${srv.base}/compound`, { method: "POST", body: own, headers: { "Content-Type": "chemical/x-mdl-molfile" } });
    assert.equal(back.status, 200, await back.clone().text());
    assert.equal(back.headers.get("location"), acetaldehyde);
  });

  test("a bad SMILES → 422 naming the body; nothing created", async () => {
    const before = await (await get(`${srv.base}/compound`, "text/uri-list")).text();
    const r = await fetch(`${srv.base}/compound`, { method: "POST", body: "C1CC(", headers: { "Content-Type": "chemical/x-daylight-smiles", Accept: "application/problem+json" } });
    assert.equal(r.status, 422);
    const p = (await r.json()) as { status: number; field?: string; detail: string };
    assert.equal(p.status, 422);
    assert.equal(p.field, "body");
    assert.match(p.detail, /SMILES/);
    assert.equal(await (await get(`${srv.base}/compound`, "text/uri-list")).text(), before);
  });

  test("an InChI no structure gives back → 422 saying so; a path that is no InChI → 404", async () => {
    // Benzene's formula with seven hydrogens on six carbons: syntactically an InChI, but no
    // structure has it (the decoder's candidates all give another InChI, or none fits).
    const r = await get(`${srv.base}/compound/InChI=1S/C6H7/c1-2-4-6-5-3-1/h1-7H`, "text/plain");
    assert.equal(r.status, 422);
    assert.match(await r.text(), /^422 UnprocessableEntity: .*InChI=1S\/C6H7/);
    const xe = await get(`${srv.base}/compound/InChI=1S/Xe`, "chemical/x-daylight-smiles");
    assert.equal(xe.status, 200); // xenon: a compound never uploaded, decoded
    assert.equal((await xe.text()).trim(), "[Xe]");
    assert.equal((await get(`${srv.base}/compound/Xe`, "text/plain")).status, 404);
  });
});
