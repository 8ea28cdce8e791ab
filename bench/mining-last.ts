/**
 * LAST-PM on Kazius/Bursi mutagenicity (shared/data/lazar/test/data/kazius.csv, 4069 compounds):
 * wall time (median of 3 runs, including SMILES parsing, InChI ordering, mining, SVD, GraphML
 * and LAST-SMARTS), peak RSS and pattern counts (GraphML graphs, distinct SMARTS) at minimum
 * frequency 325, 200, 100. Reference (fminer2 C++, spec miners.md §8.3): 42 / 114 / 435 graphs
 * in 2.1 / 4.0 / 7.6 s.
 * Also prints the median CPU time (user + system of this process) per run, which is less
 * sensitive than wall time to other load on a shared machine.
 * Usage: nice -n 19 npx tsx bench/mining-last.ts [minfreq …]
 */
import { loadRDKit } from "../src/chem/rdkit.ts";
import { mineLast } from "../src/mining/last/index.ts";
import { kaziusMiningInput } from "../test/helpers/data.ts";

const { compounds, activity } = kaziusMiningInput();

const rdkit = await loadRDKit();
const freqs = process.argv.slice(2).map(Number);
const reference: Record<number, [number, number]> = { 325: [42, 2.1], 200: [114, 4.0], 100: [435, 7.6] };
console.log(`kazius: ${compounds.length} compounds`);
console.log("minfreq  graphs  (fminer2)  SMARTS  median wall s  (fminer2 s)  runs s              visited  peak RSS MB  median CPU s  CPU runs s");
for (const f of freqs.length ? freqs : [325, 200, 100]) {
  const times: number[] = [];
  const cpus: number[] = [];
  let graphs = 0;
  let smarts = 0;
  let visited = 0;
  for (let run = 0; run < 3; run++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const r = mineLast(rdkit, compounds, activity, { minfreq: f });
    const c1 = process.cpuUsage(c0);
    times.push((performance.now() - t0) / 1000);
    cpus.push((c1.user + c1.system) / 1e6);
    graphs = r.latent.length;
    smarts = r.uniqueSmarts.length;
    visited = r.visited;
  }
  const sorted = [...times].sort((a, b) => a - b);
  const sortedCpu = [...cpus].sort((a, b) => a - b);
  const rss = process.resourceUsage().maxRSS / 1024;
  const ref = reference[f];
  console.log(
    `${String(f).padStart(7)}  ${String(graphs).padStart(6)}  ${String(ref?.[0] ?? "?").padStart(9)}  ${String(smarts).padStart(6)}  ${sorted[1]!.toFixed(2).padStart(13)}  ${String(ref?.[1] ?? "?").padStart(11)}  ${times.map((t) => t.toFixed(2)).join(" / ").padEnd(19)} ${String(visited).padStart(8)}  ${rss.toFixed(0).padStart(11)}  ${sortedCpu[1]!.toFixed(2).padStart(12)}  ${cpus.map((t) => t.toFixed(2)).join(" / ")}`,
  );
}
