/**
 * InChI decoding speed (GET /compound/{InChI} serves any standard InChI by decoding it):
 * decodes per second over every compound of fixtures/data/lazar/test/data/kazius.csv (4069),
 * median of 3 runs. The InChIs are computed with RDKit from the SMILES first (not timed); a
 * decode includes the RDKit round trip that verifies it (get_mol + get_inchi of each
 * candidate). Also prints the round-trip rate and the slowest decode.
 *
 *   nice -n 19 npx tsx bench/inchi.ts [runs]
 */
import { readFileSync } from "node:fs";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { decodeInchi } from "../src/chem/inchi/index.ts";

const RUNS = Number(process.argv[2] ?? 3);
const DATA = new URL("../fixtures/data/", import.meta.url).pathname;
const lines = readFileSync(`${DATA}lazar/test/data/kazius.csv`, "utf8").split(/\r?\n/).slice(1).filter((l) => l.trim());

const rdkit = await loadRDKit();
const inchis: string[] = [];
for (const line of lines) {
  const mol = rdkit.get_mol(line.slice(0, line.lastIndexOf(",")));
  if (mol === null) continue;
  const inchi = mol.get_inchi();
  mol.delete();
  if (inchi.startsWith("InChI=1S/")) inchis.push(inchi);
}
console.log(`kazius: ${inchis.length} InChIs`);

const rates: number[] = [];
let ok = 0;
let worst = 0;
let worstInchi = "";
for (let run = 0; run < RUNS; run++) {
  ok = 0;
  const t0 = performance.now();
  for (const inchi of inchis) {
    const t = performance.now();
    const r = decodeInchi(rdkit, inchi);
    const dt = performance.now() - t;
    if (dt > worst) {
      worst = dt;
      worstInchi = inchi;
    }
    if (r.ok && r.exact) ok++;
  }
  const seconds = (performance.now() - t0) / 1000;
  rates.push(inchis.length / seconds);
  console.log(`run ${run + 1}: ${seconds.toFixed(2)} s, ${(inchis.length / seconds).toFixed(0)} decodes/s`);
}
const sorted = [...rates].sort((a, b) => a - b);
console.log(`median: ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} decodes/s (one thread)`);
console.log(`round trip: ${ok}/${inchis.length} exact`);
console.log(`slowest decode: ${worst.toFixed(1)} ms  ${worstInchi}`);
