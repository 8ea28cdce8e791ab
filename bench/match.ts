/**
 * SMARTS matching speed (src/chem/smarts/): all BBRC patterns of a model against query
 * compounds, as lazar's prediction does for every query.
 *
 * Pattern sets: fminer's golden hamster BBRC output `fminer/test/tmp1` (53 SMARTS) and the BBRC
 * representatives mined here from Kazius at minimum frequency 20 (fminer2: 3413).
 * Targets: single query compounds (per-compound latency, median / 95th percentile / max over
 * a sample) and all 4069 Kazius compounds (whole pass, median of several runs), for presence
 * (`matchAll`) and hit counts (`countAll`). Encoding a SMILES (RDKit) is timed separately.
 * Also checks that matching the mined SMARTS on the Kazius training compounds reproduces the
 * miner's occurrence lists.
 * Usage: nice -n 19 npx tsx bench/match.ts [runs=5] [minfreq=20]
 */
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { encodeSmiles } from "../src/chem/labelled-graph.ts";
import { mineBbrc } from "../src/mining/index.ts";
import { MolTarget, QuerySet } from "../src/chem/smarts/index.ts";
import { DATA, kaziusMiningInput } from "../test/helpers/data.ts";

const runs = Number(process.argv[2] ?? 5);
const minfreq = Number(process.argv[3] ?? 20);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const rssMB = (): string => (process.resourceUsage().maxRSS / 1024).toFixed(0);
const ms = (x: number): string => x.toFixed(3);

const rdkit = await loadRDKit();
const { compounds, activity } = kaziusMiningInput();

// Encoding (what a prediction pays once per query compound before matching).
let t0 = performance.now();
const mols = compounds.map((c) => {
  const enc = encodeSmiles(rdkit, c.smiles);
  return enc === null ? null : new MolTarget(enc.graph);
});
const encodeMs = performance.now() - t0;
const targets = mols.filter((m): m is MolTarget => m !== null);
console.log(`kazius: ${compounds.length} compounds, ${targets.length} encoded in ${(encodeMs / 1000).toFixed(2)} s (${ms(encodeMs / compounds.length)} ms each: RDKit parse + encoding + MolTarget)`);

t0 = performance.now();
const run = mineBbrc(rdkit, compounds, activity, { minfreq });
console.log(`mined kazius BBRC, minfreq ${minfreq}: ${run.patterns.length} patterns in ${((performance.now() - t0) / 1000).toFixed(2)} s`);

const tmp1 = readFileSync(`${DATA}fminer2/fminer/test/tmp1`, "utf8")
  .split("\n")
  .filter((l) => l.length > 0)
  .map((l) => /^- \[ "([^"]+)"/.exec(l)![1]!);

// Training occurrences = SMARTS matches (as lazar's 2016 test checks), at Kazius scale.
{
  const set = new QuerySet(run.patterns.map((p) => p.smarts));
  const tidOf = new Map(run.compounds.ids.map((id, tid) => [id, tid]));
  let disagreements = 0;
  const hits = new Uint8Array(set.size);
  const matched = run.patterns.map(() => new Set<number>());
  compounds.forEach((c, i) => {
    const m = mols[i];
    const tid = tidOf.get(c.id);
    if (m === null || m === undefined || tid === undefined) return;
    set.matchAll(m, hits);
    for (let k = 0; k < set.size; k++) if (hits[k]) matched[k]!.add(tid);
  });
  run.patterns.forEach((p, k) => {
    const mine = matched[k]!;
    if (mine.size !== p.tids.length || !p.tids.every((t) => mine.has(t))) disagreements++;
  });
  console.log(`check: mined occurrence lists reproduced by matching for ${run.patterns.length - disagreements} of ${run.patterns.length} patterns`);
}

for (const [name, smarts] of [
  ["tmp1 (hamster BBRC)", tmp1],
  [`kazius BBRC f${minfreq}`, run.patterns.map((p) => p.smarts)],
] as const) {
  t0 = performance.now();
  const set = new QuerySet(smarts);
  const compileMs = performance.now() - t0;
  console.log(`\n${name}: ${set.size} SMARTS, compiled in ${ms(compileMs)} ms`);

  // Single query compounds: per-compound latency over every 10th Kazius compound.
  const hits = new Uint8Array(set.size);
  const counts = new Int32Array(set.size);
  const sample = targets.filter((_, i) => i % 10 === 0);
  for (const mode of ["matchAll", "countAll"] as const) {
    const per: number[] = [];
    for (let r = 0; r < runs; r++) {
      sample.forEach((m, i) => {
        const a = performance.now();
        if (mode === "matchAll") set.matchAll(m, hits);
        else set.countAll(m, undefined, counts);
        const d = performance.now() - a;
        if (r === 0) per[i] = d;
        else per[i] = Math.min(per[i]!, d);
      });
    }
    console.log(
      `  one compound, ${mode}: median ${ms(median(per))} ms, p95 ${ms(quantile(per, 0.95))} ms, max ${ms(Math.max(...per))} ms (best of ${runs} per compound, ${sample.length} compounds)`,
    );
  }
  // A fresh query compound end to end: SMILES → encoding → all patterns.
  {
    const per: number[] = [];
    for (let i = 0; i < compounds.length; i += 40) {
      const a = performance.now();
      const enc = encodeSmiles(rdkit, compounds[i]!.smiles);
      if (enc !== null) set.matchAll(new MolTarget(enc.graph), hits);
      per.push(performance.now() - a);
    }
    console.log(`  one compound from SMILES (encode + matchAll): median ${ms(median(per))} ms (${per.length} compounds)`);
  }

  // All Kazius compounds.
  for (const mode of ["matchAll", "countAll"] as const) {
    const times: number[] = [];
    let total = 0;
    for (let r = 0; r < runs; r++) {
      const a = performance.now();
      total = 0;
      for (const m of targets) {
        if (mode === "matchAll") {
          set.matchAll(m, hits);
          for (let k = 0; k < hits.length; k++) total += hits[k]!;
        } else {
          set.countAll(m, undefined, counts);
          for (let k = 0; k < counts.length; k++) total += counts[k]!;
        }
      }
      times.push(performance.now() - a);
    }
    console.log(
      `  all ${targets.length} compounds, ${mode}: median ${(median(times) / 1000).toFixed(3)} s (runs ${times.map((t) => (t / 1000).toFixed(3)).join(" / ")} s; ${
        mode === "matchAll" ? `${total} (pattern, compound) hits` : `${total} embeddings`
      }; ${((median(times) * 1e6) / (targets.length * set.size)).toFixed(0)} ns per pair)`,
    );
  }
}
console.log(`\npeak RSS ${rssMB()} MB; load average at the end ${loadavg().map((x) => x.toFixed(2)).join(" ")} (2 cores, shared)`);
