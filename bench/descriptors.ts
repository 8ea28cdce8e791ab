/**
 * Physico-chemical descriptors, 2D: molecules/s per pc_type (lib cdk), for all 2D CDK
 * categories together, and for lib rdkit (MinimalLib get_descriptors), on the first 1000
 * compounds of shared/data/lazar/test/data/kazius.csv. Each figure is the median of 3 runs and
 * includes SMILES parsing (one get_mol per molecule) and reading RDKit's JSON.
 * Reference (spec/issue): RDKit get_descriptors() ≈ 870 mol/s; goal 2D together ≥ 500 mol/s.
 * Usage: nice -n 19 npx tsx bench/descriptors.ts [count]
 */
import { readFileSync } from "node:fs";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { computeDescriptors, type Lib, type PcType } from "../src/chem/descriptors/index.ts";

const DATA = new URL("../../shared/data/", import.meta.url).pathname;
const count = Number(process.argv[2] ?? 1000);
const smiles = readFileSync(`${DATA}lazar/test/data/kazius.csv`, "utf8")
  .split(/\r?\n/)
  .slice(1)
  .filter((l) => l.trim())
  .slice(0, count)
  .map((l) => l.slice(0, l.lastIndexOf(",")));

const rdkit = await loadRDKit();

function run(pcTypes: PcType[], lib: Lib): { rate: number; values: number; failed: number } {
  const times: number[] = [];
  let values = 0;
  let failed = 0;
  for (let r = 0; r < 3; r++) {
    values = 0;
    failed = 0;
    const t0 = performance.now();
    for (const s of smiles) {
      const v = computeDescriptors(rdkit, s, { pcTypes, lib });
      if (v === null) failed++;
      else values += v.size;
    }
    times.push((performance.now() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  return { rate: smiles.length / times[1]!, values, failed };
}

// warm-up (JIT, WASM)
run(["constitutional", "electronic", "topological", "hybrid"], "cdk");
console.log(`kazius: first ${smiles.length} compounds; molecules/s, median of 3 runs`);
console.log("pc_type          lib    mol/s   values/mol");
const rows: [string, PcType[], Lib][] = [
  ["constitutional", ["constitutional"], "cdk"],
  ["electronic", ["electronic"], "cdk"],
  ["topological", ["topological"], "cdk"],
  ["hybrid (BCUT)", ["hybrid"], "cdk"],
  ["2D together", ["constitutional", "electronic", "topological", "hybrid"], "cdk"],
  ["rdkit (all)", ["constitutional", "electronic", "topological"], "rdkit"],
];
for (const [label, pcs, lib] of rows) {
  const r = run(pcs, lib);
  const ok = smiles.length - r.failed;
  console.log(`${label.padEnd(16)} ${lib.padEnd(6)} ${r.rate.toFixed(0).padStart(6)}   ${(r.values / ok).toFixed(1).padStart(6)}${r.failed ? `  (${r.failed} unparsed)` : ""}`);
}
