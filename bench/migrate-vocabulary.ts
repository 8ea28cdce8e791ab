/**
 * How long the one-time move of a data directory to the stable vocabulary namespace takes
 * (src/store/migrate-vocabulary.ts, docs/vocabulary.md "Data written before"), on a directory
 * shaped like a large real one: GRAPHS one-graph puts of a dataset-like body whose predicates are
 * in the old namespace, and compounds as several-graph puts of 1,000 graphs each; TRIPLES in all.
 * Prints the median wall time of RUNS moves (each on a fresh copy written by the store) and the
 * process's peak RSS.
 *
 *   npx tsx bench/migrate-vocabulary.ts [triples=1000000] [runs=3]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { GraphStore } from "../src/store/graph-store.ts";
import { migrateVocabulary } from "../src/store/migrate-vocabulary.ts";

const TRIPLES = Number(process.argv[2] ?? 1_000_000);
const RUNS = Number(process.argv[3] ?? 3);
const BASE = "http://127.0.0.1:8080";
const OLD = `${BASE}/ontology#`;
const XSD_INT = "http://www.w3.org/2001/XMLSchema#integer";

/** A dataset graph of `n` triples: entries with a line (old namespace) and a value (OpenTox). */
function dataset(id: number, n: number): string {
  let s = "";
  for (let i = 0; i < n / 2; i++) {
    s += `<${BASE}/dataset/d${id}#e${i}> <${OLD}line> "${i + 2}"^^<${XSD_INT}> .\n`;
    s += `<${BASE}/dataset/d${id}#e${i}> <http://www.opentox.org/api/1.1#compound> <${BASE}/compound/C${i}> .\n`;
  }
  return s;
}

async function write(dir: string): Promise<number> {
  const s = await GraphStore.open(dir, { maxQuads: TRIPLES * 3 });
  let written = 0;
  // 60 %: datasets of 20,000 triples; 40 %: compounds, 4 triples each, 1,000 a put
  for (let d = 0; written < TRIPLES * 0.6; d++) {
    await s.commit([{ graph: `${BASE}/dataset/d${d}`, ntriples: dataset(d, 20_000) }]);
    written += 20_000;
  }
  for (let c = 0; written < TRIPLES; c += 1000) {
    let nq = "";
    const graphs: string[] = [];
    for (let k = c; k < c + 1000; k++) {
      const g = `${BASE}/compound/C${k}`;
      graphs.push(g);
      for (const p of ["inchi", "inchikey", "smiles", "numberOfEntries"]) nq += `<${g}> <${OLD}${p}> "x${k}" <${g}> .\n`;
    }
    await s.commit([{ graphs, nquads: nq }]);
    written += 4000;
  }
  await s.close();
  return written;
}

const times: number[] = [];
let replaced = 0;
let triples = 0;
for (let r = 0; r < RUNS; r++) {
  const dir = mkdtempSync(join(tmpdir(), "qg-migrate-bench-"));
  try {
    triples = await write(dir);
    const t0 = performance.now();
    const done = migrateVocabulary(dir, OLD);
    times.push(performance.now() - t0);
    replaced = done?.replaced ?? 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
times.sort((a, b) => a - b);
const peak = Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024;
console.log(`${new Date().toISOString().slice(0, 10)}, ${cpus()[0]?.model} ×${cpus().length}, Node ${process.version}`);
console.log(`${triples.toLocaleString("en")} triples, ${replaced.toLocaleString("en")} IRIs moved: median ${Math.round(times[Math.floor(times.length / 2)]!)} ms (${times.map((t) => Math.round(t)).join(" / ")}); peak RSS of this process ${Math.round(peak)} MB (includes writing the directory)`);
