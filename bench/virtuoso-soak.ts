/**
 * Soak of the SPARQL backend's write pattern on one Virtuoso (docs/virtuoso.md finding 8): many
 * commits of mixed sizes — small one-graph puts with typed literals, replaces, deletes, several-
 * graph N-Quads puts, large puts in batches, stages — against one database for `--minutes`, with
 * the store reopened now and then (its catalog read back and checked), and every few commits the
 * sizes of a sample of graphs compared with the store's own counts. Prints commits, triples
 * written, failures (and whether any said "out of seg data"), and exits 1 on any failure.
 *
 *   npx tsx bench/virtuoso-soak.ts [--minutes 10] [--seed 1]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SparqlStore, type SparqlEndpoints } from "../src/store/sparql-store.ts";
import { startVirtuoso } from "../test/helpers/virtuoso.ts";

const { values } = parseArgs({ options: { minutes: { type: "string", default: "10" }, seed: { type: "string", default: "1" } } });
const minutes = Number(values.minutes);
let seed = Number(values.seed);
/** A small deterministic generator (mulberry32), so that a failing run can be repeated. */
function rnd(): number {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (n: number): number => Math.floor(rnd() * n);

const BASE = "http://qsargraph.test";
const XSD = "http://www.w3.org/2001/XMLSchema#";
const LITERALS = [`"1.50"^^<${XSD}double>`, `"0100"^^<${XSD}integer>`, `"0.10"^^<${XSD}decimal>`, `"true"^^<${XSD}boolean>`, `"2026-11-27T10:00:00Z"^^<${XSD}dateTime>`, `"Bonjour"@fr`, `"CC(=O)O"`];

function body(tag: string, n: number, graph?: string): string {
  let s = "";
  for (let i = 0; i < n; i++) s += `<${BASE}/s/${tag}/${i}> <${BASE}/p/${i % 5}> ${i % 3 === 0 ? LITERALS[i % LITERALS.length] : `"${tag} ${i}"`}${graph ? ` <${graph}>` : ""} .\n`;
  return s;
}

const v = await startVirtuoso();
const bodies = mkdtempSync(join(tmpdir(), "qsargraph-soak-bodies-"));
const ep: SparqlEndpoints = { query: v.sparql, update: v.update, gsp: v.gsp, base: BASE };
let store = await SparqlStore.open(ep, { bodies });
const live = new Map<string, number>();
/** What each step did to a graph (for the report of a failure). */
const history = new Map<string, string[]>();
const note = (g: string, what: string): void => {
  const h = history.get(g) ?? [];
  h.push(`step ${k}: ${what}`);
  history.set(g, h.slice(-6));
};
let commits = 0;
let triples = 0;
let checks = 0;
const failures: string[] = [];
const t0 = Date.now();
let k = 0;

async function count(graph: string): Promise<number> {
  const r = await fetch(v.sparql, { method: "POST", headers: { accept: "application/sparql-results+json" }, body: new URLSearchParams({ query: `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graph}> { ?s ?p ?o } }` }) });
  const j = (await r.json()) as { results: { bindings: { n: { value: string } }[] } };
  return Number(j.results.bindings[0]!.n.value);
}

try {
  while (Date.now() - t0 < minutes * 60_000) {
    k++;
    const kind = pick(100);
    const names = [...live.keys()];
    try {
      if (kind < 40) {
        const g = `${BASE}/task/${pick(300)}`; // small: new or replaced
        const n = 1 + pick(40);
        note(g, `${live.has(g) ? "replaced" : "put"}, ${n} triples`);
        await store.commit([{ graph: g, ntriples: body(`t${k}`, n) }]);
        live.set(g, n);
        triples += n;
      } else if (kind < 55 && names.length > 0) {
        const ops = Array.from({ length: 1 + pick(5) }, () => names[pick(names.length)]!);
        for (const g of new Set(ops)) note(g, `deleted with ${new Set(ops).size - 1} other(s)`);
        await store.commit([...new Set(ops)].map((g) => ({ graph: g, delete: true as const })));
        for (const g of ops) live.delete(g);
      } else if (kind < 75) {
        const gs = Array.from({ length: 10 + pick(1500) }, (_, i) => `${BASE}/compound/${k}-${i}`);
        const per = 3 + pick(15);
        const nquads = gs.map((g, i) => body(`c${k}-${i}`, per, g)).join("");
        await store.commit([{ graphs: gs, nquads: Buffer.from(nquads) }]);
        for (const g of gs) live.set(g, per);
        triples += gs.length * per;
      } else if (kind < 88) {
        const g = `${BASE}/dataset/${k}`;
        const n = 5_000 + pick(150_000);
        await store.commit([{ graph: g, ntriples: Buffer.from(body(`d${k}`, n)) }]);
        live.set(g, n);
        triples += n;
      } else if (kind < 96) {
        const g = `${BASE}/dataset/staged${k}`;
        const st = store.stage(g);
        let n = 0;
        for (let i = 0, m = 1 + pick(4); i < m; i++) {
          const part = 1_000 + pick(20_000);
          await st.load(body(`s${k}-${i}`, part));
          n += part;
        }
        if (pick(4) === 0) await st.discard();
        else {
          await store.commit([{ graph: g, ntriples: "" }], { preloaded: [st] });
          live.set(g, n);
          triples += n;
        }
      } else {
        await store.close();
        try {
          store = await SparqlStore.open(ep, { bodies });
        } catch (err) {
          // What the catalog holds about the graph named in the error, for the report.
          const g = /of (\S+) is incomplete/.exec((err as Error).message)?.[1];
          if (g) {
            const r = await fetch(v.sparql, { method: "POST", headers: { accept: "text/csv" }, body: new URLSearchParams({ query: `SELECT ?p ?o WHERE { GRAPH <${BASE}/.store/catalog> { <${g}> ?p ?o } }` }) });
            console.error(`catalog entry of ${g}:\n${await r.text()}`);
            const h = history.get(g) ?? [];
            console.error(`what the soak did to ${g}: ${h.join("; ")}`);
          }
          throw err;
        }
        const have = store.graphsWithPrefix(BASE).length;
        if (have !== live.size) throw new Error(`reopened with ${have} graphs, ${live.size} expected`);
      }
      commits++;
      if (k % 25 === 0 && names.length > 0) {
        for (let i = 0; i < 5; i++) {
          const g = names[pick(names.length)]!;
          if (!live.has(g)) continue;
          const n = await count(g);
          checks++;
          if (n !== live.get(g)) throw new Error(`${g}: ${n} triples in the store, ${live.get(g)} written`);
        }
      }
    } catch (err) {
      const m = (err as Error).message;
      failures.push(`step ${k} (${new Date().toISOString()}): ${m}`);
      console.error(`FAIL step ${k}: ${m}`);
      if (failures.length >= 3) break;
    }
    if (k % 50 === 0) console.log(`${Math.round((Date.now() - t0) / 1000)} s: ${commits} steps, ${triples} triples written, ${live.size} graphs live, ${failures.length} failures`);
  }
} finally {
  let log = "";
  try {
    log = readFileSync(join(v.dir, "virtuoso.log"), "utf8");
  } catch {
    // no log
  }
  const seg = failures.filter((f) => /out of seg/i.test(f)).length + (/out of seg/i.test(`${v.output()}${log}`) ? 1 : 0);
  console.log(JSON.stringify({ minutes, seed: values.seed, steps: k, commits, triples, graphsLive: live.size, checks, failures: failures.length, outOfSeg: seg, date: new Date().toISOString() }));
  await store.close().catch(() => undefined);
  await v.stop();
  rmSync(bodies, { recursive: true, force: true });
  if (failures.length > 0) process.exitCode = 1;
}
