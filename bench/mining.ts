/**
 * BBRC on Kazius/Bursi mutagenicity (fixtures/data/lazar/test/data/kazius.csv, 4069 compounds) at
 * minimum frequency 100, 50, 20, 10: medians of 3 runs, as wall and CPU seconds, of
 * - the job as the service runs it: SMILES parsing, ordering by the compounds' InChIs (which
 *   the service stored at upload, so they are computed here before the clock starts), database,
 *   search (src/algorithms/mining/job.ts passes the stored InChIs);
 * - the standalone miner computing the InChIs itself, as fminer2 does (its wall time includes
 *   OpenBabel's parsing and InChI);
 * - the search alone (database + mining on the already ordered compounds);
 * with peak RSS and the pattern counts next to fminer2's (370 / 823 /
 * 3413 / 5466 patterns in 2.6 / 3.2 / 3.7 / 3.5 s, C++ with OpenBabel, on this machine kind).
 *
 * The counts can differ slightly from fminer2's because the molecules are read with RDKit, not
 * OpenBabel: aromaticity perception, Kekulé bond orders of non-aromatic bonds and hence the
 * edge labels, their frequencies and numbering, the InChI order and the search order differ on
 * a few compounds. The miner itself reproduces fminer2's output byte for byte where golden
 * files exist (hamster tmp1/tmp2/fminer1/fminer2, EPAFHM fminer4; test/unit/mining).
 *
 * Usage: nice -n 19 npx tsx bench/mining.ts [minfreq …]
 */
import { loadRDKit } from "../src/chem/rdkit.ts";
import { mineBbrc } from "../src/mining/index.ts";
import { canonicalOrder } from "../src/mining/order.ts";
import { Database } from "../src/mining/database.ts";
import { BbrcMiner } from "../src/mining/bbrc.ts";
import { encodeSmiles } from "../src/chem/labelled-graph.ts";
import { kaziusMiningInput } from "../test/helpers/data.ts";

const { compounds, activity } = kaziusMiningInput();

const rdkit = await loadRDKit();
const freqs = process.argv.slice(2).map(Number);
const reference: Record<number, [number, number]> = { 100: [370, 2.6], 50: [823, 3.2], 20: [3413, 3.7], 10: [5466, 3.5] };
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpu = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

// Warm-up (JIT, RDKit) so that the first configuration is not penalised.
mineBbrc(rdkit, compounds.slice(0, 300), activity, { minfreq: 20 });
const ordered = canonicalOrder(rdkit, compounds, activity);
// What the upload stored for each compound (4069 of 4069 have an InChI).
const stored = compounds.map((c) => ({ ...c, inchi: encodeSmiles(rdkit, c.smiles)!.inchi }));

console.log(`kazius: ${compounds.length} compounds; ${new Date().toISOString()}; node ${process.version}`);
console.log("minfreq  patterns  fminer2 patterns/s  service job wall s (runs)  cpu s  standalone wall/cpu s  search wall/cpu s  visited  peak RSS MB");
for (const f of freqs.length ? freqs : [100, 50, 20, 10]) {
  const walls: number[] = [];
  const cpus: number[] = [];
  const sWalls: number[] = [];
  const sCpus: number[] = [];
  const aWalls: number[] = [];
  const aCpus: number[] = [];
  let count = 0;
  let visited = 0;
  for (let run = 0; run < 3; run++) {
    let t0 = performance.now();
    let c0 = cpu();
    const r = mineBbrc(rdkit, stored, activity, { minfreq: f });
    walls.push((performance.now() - t0) / 1000);
    cpus.push(cpu() - c0);
    count = r.patterns.length;
    visited = r.visited;
    t0 = performance.now();
    c0 = cpu();
    const alone = mineBbrc(rdkit, compounds, activity, { minfreq: f });
    aWalls.push((performance.now() - t0) / 1000);
    aCpus.push(cpu() - c0);
    if (alone.patterns.length !== count) throw new Error(`standalone run found ${alone.patterns.length} patterns, service run ${count}`);
    t0 = performance.now();
    c0 = cpu();
    new BbrcMiner(new Database(ordered.graphs, f), ordered.activities, { minfreq: f }).mineAll();
    sWalls.push((performance.now() - t0) / 1000);
    sCpus.push(cpu() - c0);
  }
  const rss = process.resourceUsage().maxRSS / 1024;
  const [refCount, refTime] = reference[f] ?? [NaN, NaN];
  console.log(
    `${String(f).padStart(7)}  ${String(count).padStart(8)}  ${`${refCount} / ${refTime}`.padStart(12)}  ${median(walls).toFixed(2).padStart(6)} (${walls.map((t) => t.toFixed(2)).join(" / ")})  ${median(cpus).toFixed(2).padStart(5)}  ${`${median(aWalls).toFixed(2)} / ${median(aCpus).toFixed(2)}`.padStart(21)}  ${`${median(sWalls).toFixed(2)} / ${median(sCpus).toFixed(2)}`.padStart(17)}  ${String(visited).padStart(7)}  ${rss.toFixed(0).padStart(11)}`,
  );
}
