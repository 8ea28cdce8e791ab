/**
 * Physico-chemical descriptors, 2D: molecules/s per pc_type (lib cdk), for all 2D CDK
 * categories together, and for lib rdkit (MinimalLib get_descriptors), on the first 1000
 * compounds of fixtures/data/lazar/test/data/kazius.csv. Each figure is the median of 3 runs and
 * includes SMILES parsing (one get_mol per molecule) and reading RDKit's JSON.
 * Reference: RDKit get_descriptors() alone, ≈ 870 mol/s when the goal was set; goal 2D together
 * ≥ 500 mol/s.
 *
 * 3D step (geometrical + cpsa + hybrid incl. WHIM): one conformer per molecule (distance
 * geometry + force-field clean-up, seed 42, 500 ms bound) and the CDK 3D classes on it; timed
 * per molecule (parse + BCUT + conformer + 3D values), one pass after a warm-up on 50
 * molecules: median and p99 ms/mol, mol/s, the slowest molecule, molecules without conformer.
 * Goal: 3D ≥ 50 mol/s with no molecule over 1 s.
 * Usage: nice -n 19 npx tsx bench/descriptors.ts [count] [--3d-only]
 */
import { readFileSync } from "node:fs";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { computeDescriptors, type Lib, type PcType } from "../src/chem/descriptors/index.ts";
import { CDK_2D, CDK_3D, DescriptorContext, graphFromJson } from "../src/chem/descriptors/index.ts";

const DATA = new URL("../fixtures/data/", import.meta.url).pathname;
const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const only3D = process.argv.includes("--3d-only");
const count = Number(args[0] ?? 1000);
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
      const v = computeDescriptors(rdkit, s, { pcTypes, lib, threeD: false }); // 2D only (no WHIM conformer)
      if (v === null) failed++;
      else values += v.size;
    }
    times.push((performance.now() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  return { rate: smiles.length / times[1]!, values, failed };
}

function run3D(): void {
  const pcTypes: PcType[] = ["geometrical", "cpsa", "hybrid"];
  for (const s of smiles.slice(0, 50)) computeDescriptors(rdkit, s, { pcTypes, lib: "cdk" }); // warm-up
  const times: number[] = [];
  const confTimes: number[] = [];
  let slowest = { ms: 0, smiles: "" };
  let noConformer = 0;
  let values = 0;
  const reasons = new Map<string, number>();
  const t0 = performance.now();
  for (const s of smiles) {
    const t = performance.now();
    const mol = rdkit.get_mol(s);
    if (mol === null) continue;
    const ctx = new DescriptorContext(graphFromJson(mol.get_json()));
    mol.delete();
    // the same work computeDescriptors does for these pc_types, with the conformer timed apart
    const v = computeWithContext(ctx, pcTypes);
    const ms = performance.now() - t;
    times.push(ms);
    confTimes.push(ctx.conformerMs);
    values += v;
    if (ms > slowest.ms) slowest = { ms, smiles: s };
    if (ctx.conformer === null) {
      noConformer++;
      const r = ctx.conformerInfo.failure ?? "?";
      reasons.set(r, (reasons.get(r) ?? 0) + 1);
    }
  }
  const total = (performance.now() - t0) / 1000;
  const q = (a: number[], p: number): number => [...a].sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(p * a.length))]!;
  console.log(`\n3D step (geometrical + cpsa + hybrid/WHIM, lib cdk; conformer seed 42, bound 500 ms), ${times.length} molecules, one pass:`);
  console.log(`  per molecule: median ${q(times, 0.5).toFixed(1)} ms, p99 ${q(times, 0.99).toFixed(1)} ms, max ${slowest.ms.toFixed(0)} ms → ${(times.length / total).toFixed(0)} mol/s`);
  console.log(`  of which conformer: median ${q(confTimes, 0.5).toFixed(1)} ms, p99 ${q(confTimes, 0.99).toFixed(1)} ms`);
  console.log(`  slowest molecule: ${slowest.smiles}`);
  console.log(`  values/mol ${(values / times.length).toFixed(1)}; without conformer: ${noConformer}${reasons.size ? ` (${[...reasons].map(([k, n]) => `${k} ${n}`).join(", ")})` : ""}`);
}

/** computeForMol's CDK branch for 3D pc_types on a prepared context; returns the number of values. */
function computeWithContext(ctx: DescriptorContext, pcTypes: PcType[]): number {
  const out = new Map<string, number>();
  for (const d of CDK_2D) if (pcTypes.includes(d.pcType)) d.compute(ctx, out);
  const m = ctx.conformer;
  if (m !== null) for (const d of CDK_3D) if (pcTypes.includes(d.pcType)) d.compute3D(ctx, m, out);
  return out.size;
}

if (only3D) {
  run3D();
  process.exit(0);
}

// warm-up (JIT, WASM)
run(["constitutional", "electronic", "topological", "hybrid"], "cdk");
console.log(`kazius: first ${smiles.length} compounds; molecules/s, median of 3 runs`);
console.log("pc_type          lib    mol/s   values/mol");
const rows: [string, PcType[], Lib][] = [
  ["constitutional", ["constitutional"], "cdk"],
  ["electronic", ["electronic"], "cdk"],
  ["topological", ["topological"], "cdk"],
  ["hybrid (BCUT)", ["hybrid"], "cdk"], // threeD: false — WHIM is part of the 3D step below
  ["2D together", ["constitutional", "electronic", "topological", "hybrid"], "cdk"],
  ["rdkit (all)", ["constitutional", "electronic", "topological"], "rdkit"],
];
for (const [label, pcs, lib] of rows) {
  const r = run(pcs, lib);
  const ok = smiles.length - r.failed;
  console.log(`${label.padEnd(16)} ${lib.padEnd(6)} ${r.rate.toFixed(0).padStart(6)}   ${(r.values / ok).toFixed(1).padStart(6)}${r.failed ? `  (${r.failed} unparsed)` : ""}`);
}
run3D();
