/**
 * The miners' molecule encoding read the two ways src/chem/labelled-graph.ts offers:
 * `encodeSmiles` (RDKit's default parse, with the InChI for fminer's canonical order — the path
 * every golden-file test in mining/bbrc, mining/last and chem/smarts/match.test.ts goes through)
 * and `encodeGraph` (a cheaper parse that keeps explicit hydrogens and skips stereo
 * perception, used when the InChI is known already). The second must give the same graph as
 * the first for every structure, so the reference is the first path; the inputs are data sets of
 * fixtures/data with stereo, explicit [H], charges, nitro groups, salts and unreadable rows among
 * them.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { loadRDKit } from "../../../src/chem/rdkit.ts";
import { encodeGraph, encodeSmiles } from "../../../src/chem/labelled-graph.ts";
import { canonicalOrder, parseActivityFile, parseSmiFile } from "../../../src/mining/order.ts";
import { DATA, kaziusMiningInput } from "../../helpers/data.ts";

function smilesOf(): Map<string, string[]> {
  const smi = (path: string): string[] => parseSmiFile(readFileSync(`${DATA}${path}`, "utf8")).map((c) => c.smiles);
  const tox21 = readFileSync(`${DATA}moleculenet/tox21.csv`, "utf8")
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => l.slice(l.lastIndexOf(",") + 1));
  return new Map([
    ["kazius", kaziusMiningInput().compounds.map((c) => c.smiles)],
    ["hamster", smi("fminer2/libbbrc/test/hamster_carcinogenicity.smi")],
    ["EPAFHM", smi("fminer2/libbbrc/test/EPAFHM.smi")],
    ["nctrer", smi("ofsdata/nctrer.smi")],
    ["bloodbarr", smi("ofsdata/bloodbarr.alt.smi")],
    ["yoshida", smi("ofsdata/yoshida.smi")],
    ["tox21", tox21],
  ]);
}

test("encodeGraph gives encodeSmiles' graph for every structure of seven data sets in fixtures/data, aromatic and Kekulé", async () => {
  const rdkit = await loadRDKit();
  let compared = 0;
  let stereo = 0;
  let explicitH = 0;
  const withoutInchi = new Set<string>();
  for (const [name, list] of smilesOf()) {
    for (const smiles of list) {
      if (/@|\/|\\/.test(smiles)) stereo++;
      if (/\[2?H\]/.test(smiles)) explicitH++;
      for (const aromatic of [true, false]) {
        const full = encodeSmiles(rdkit, smiles, aromatic);
        const graph = encodeGraph(rdkit, smiles, aromatic);
        if (full === null) {
          // Only when RDKit can write no InChI for it (then the graph path still reads it).
          if (graph !== null) withoutInchi.add(smiles);
          continue;
        }
        assert.ok(graph !== null, `${name}: ${smiles} read only by encodeSmiles`);
        assert.deepEqual(graph.labels, full.graph.labels, `${name}: ${smiles} atom labels (aromatic ${aromatic})`);
        assert.deepEqual(graph.bonds, full.graph.bonds, `${name}: ${smiles} bonds (aromatic ${aromatic})`);
        compared++;
      }
    }
  }
  // bloodbarr's nucleoside with an aromatic [cH+] fails sanitisation, and RDKit's InChI writer
  // throws on the unsanitised molecule: encodeSmiles returns null for it instead of throwing.
  assert.deepEqual([...withoutInchi], ["n1([C@H]2C[C@H](N=[N+]=N)[C@H](O2)CO)c([nH]c(=O)c([cH+]1)C)=O"]);
  // The inputs do exercise what the cheaper parse skips.
  assert.ok(stereo > 500, `structures with stereo marks: ${stereo}`);
  assert.ok(explicitH > 10, `structures with explicit hydrogens: ${explicitH}`);
  assert.ok(compared > 2 * 12000, `graphs compared: ${compared}`);
});

test("canonicalOrder with the InChIs given = canonicalOrder computing them (hamster)", async () => {
  const rdkit = await loadRDKit();
  const compounds = parseSmiFile(readFileSync(`${DATA}fminer2/libbbrc/test/hamster_carcinogenicity.smi`, "utf8"));
  const activity = parseActivityFile(readFileSync(`${DATA}fminer2/libbbrc/test/hamster_carcinogenicity.class`, "utf8"));
  const computed = canonicalOrder(rdkit, compounds, activity);
  const withInchi = compounds.map((c) => ({ ...c, inchi: encodeSmiles(rdkit, c.smiles)?.inchi ?? "" }));
  const given = canonicalOrder(rdkit, withInchi.filter((c) => c.inchi !== ""), activity);
  assert.deepEqual(given.ids, computed.ids);
  assert.deepEqual(given.activities, computed.activities);
  assert.deepEqual(given.graphs, computed.graphs);
});
