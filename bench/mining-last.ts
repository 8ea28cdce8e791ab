/**
 * LAST-PM on Kazius/Bursi mutagenicity (fixtures/data/lazar/test/data/kazius.csv, 4069 compounds)
 * at minimum frequency 325, 200, 100: pattern counts (GraphML graphs, distinct SMARTS), peak RSS
 * and medians of 3 runs, as wall and CPU seconds (user + system of this process; less sensitive
 * than wall time to other load on a shared machine), of
 * - the job as the service runs it: SMILES parsing, ordering by the compounds' InChIs (stored at
 *   upload, so computed here before the clock starts), mining, SVD, GraphML and LAST-SMARTS
 *   (src/algorithms/mining/job.ts passes the stored InChIs);
 * - the standalone miner computing the InChIs itself, as fminer2 does.
 * Reference (fminer2 C++ with OpenBabel, whole process): 42 / 114 / 435
 * graphs in 2.1 / 4.0 / 7.6 s.
 * Usage: nice -n 19 npx tsx bench/mining-last.ts [minfreq …]
 */
import { loadRDKit } from "../src/chem/rdkit.ts";
import { encodeSmiles } from "../src/chem/labelled-graph.ts";
import { mineLast } from "../src/mining/last/index.ts";
import { kaziusMiningInput } from "../test/helpers/data.ts";

const { compounds, activity } = kaziusMiningInput();

const rdkit = await loadRDKit();
// What the upload stored for each compound (4069 of 4069 have an InChI).
const stored = compounds.map((c) => ({ ...c, inchi: encodeSmiles(rdkit, c.smiles)!.inchi }));
const freqs = process.argv.slice(2).map(Number);
const reference: Record<number, [number, number]> = { 325: [42, 2.1], 200: [114, 4.0], 100: [435, 7.6] };
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
console.log(`kazius: ${compounds.length} compounds; ${new Date().toISOString()}; node ${process.version}`);
console.log("minfreq  graphs (fminer2)  SMARTS  fminer2 s  service job wall s (runs)   cpu s  standalone wall/cpu s  visited  peak RSS MB");
for (const f of freqs.length ? freqs : [325, 200, 100]) {
  const walls: number[] = [];
  const cpus: number[] = [];
  const aWalls: number[] = [];
  const aCpus: number[] = [];
  let graphs = 0;
  let smarts = 0;
  let visited = 0;
  for (let run = 0; run < 3; run++) {
    let t0 = performance.now();
    let c0 = cpu();
    const r = mineLast(rdkit, stored, activity, { minfreq: f });
    walls.push((performance.now() - t0) / 1000);
    cpus.push(cpu() - c0);
    graphs = r.latent.length;
    smarts = r.uniqueSmarts.length;
    visited = r.visited;
    t0 = performance.now();
    c0 = cpu();
    const alone = mineLast(rdkit, compounds, activity, { minfreq: f });
    aWalls.push((performance.now() - t0) / 1000);
    aCpus.push(cpu() - c0);
    if (alone.uniqueSmarts.join("\n") !== r.uniqueSmarts.join("\n")) throw new Error("the standalone run found other SMARTS than the service run");
  }
  const rss = process.resourceUsage().maxRSS / 1024;
  const [refGraphs, refTime] = reference[f] ?? [NaN, NaN];
  console.log(
    `${String(f).padStart(7)}  ${`${graphs} (${refGraphs})`.padStart(14)}  ${String(smarts).padStart(6)}  ${String(refTime).padStart(9)}  ${`${median(walls).toFixed(2)} (${walls.map((t) => t.toFixed(2)).join(" / ")})`.padStart(25)}  ${median(cpus).toFixed(2).padStart(6)}  ${`${median(aWalls).toFixed(2)} / ${median(aCpus).toFixed(2)}`.padStart(21)}  ${String(visited).padStart(7)}  ${rss.toFixed(0).padStart(11)}`,
  );
}
