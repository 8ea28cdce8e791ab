/**
 * BBRC on Kazius/Bursi mutagenicity (shared/data/lazar/test/data/kazius.csv, 4069 compounds):
 * wall time (median of 3 runs, including SMILES parsing, InChI ordering and mining), peak RSS
 * and pattern counts at minimum frequency 100, 50, 20, 10. Reference (fminer2 C++, spec
 * miners.md §8.3): 370 / 823 / 3413 / 5466 patterns in 2.6 / 3.2 / 3.7 / 3.5 s.
 * Usage: nice -n 19 npx tsx bench/mining.ts [minfreq …]
 */
import { readFileSync } from "node:fs";
import { loadRDKit } from "../src/chem/rdkit.ts";
import { mineBbrc, type InputCompound } from "../src/mining/index.ts";

const DATA = new URL("../../shared/data/", import.meta.url).pathname;
const csv = readFileSync(`${DATA}lazar/test/data/kazius.csv`, "utf8").split(/\r?\n/).slice(1).filter((l) => l.trim());
const compounds: InputCompound[] = [];
const activity = new Map<number, number>();
csv.forEach((line, i) => {
  const k = line.lastIndexOf(",");
  compounds.push({ id: i + 1, smiles: line.slice(0, k) });
  activity.set(i + 1, Number(line.slice(k + 1)));
});

const rdkit = await loadRDKit();
const freqs = process.argv.slice(2).map(Number);
const reference: Record<number, number> = { 100: 370, 50: 823, 20: 3413, 10: 5466 };
console.log(`kazius: ${compounds.length} compounds`);
console.log("minfreq  patterns  (fminer2)  median wall s  runs s             visited  peak RSS MB");
for (const f of freqs.length ? freqs : [100, 50, 20, 10]) {
  const times: number[] = [];
  let count = 0;
  let visited = 0;
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    const r = mineBbrc(rdkit, compounds, activity, { minfreq: f });
    times.push((performance.now() - t0) / 1000);
    count = r.patterns.length;
    visited = r.visited;
  }
  const sorted = [...times].sort((a, b) => a - b);
  const rss = process.resourceUsage().maxRSS / 1024;
  console.log(
    `${String(f).padStart(7)}  ${String(count).padStart(8)}  ${String(reference[f] ?? "?").padStart(9)}  ${sorted[1]!.toFixed(2).padStart(13)}  ${times.map((t) => t.toFixed(2)).join(" / ").padEnd(18)} ${String(visited).padStart(8)}  ${rss.toFixed(0).padStart(11)}`,
  );
}
