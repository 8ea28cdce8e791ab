/**
 * How long the SPARQL proxy's list of a Virtuoso store's graphs takes (src/store/sparql-proxy.ts,
 * docs/virtuoso.md finding 11 "The foreign graphs, without holding the start"), old way against
 * new, on one store: a temporary Virtuoso (test/helpers/virtuoso.ts) with `--graphs` graphs of
 * `--triples` triples each, written by the Graph Store Protocol. Printed: the load; the old read
 * (keyset pages of 5,000, `SELECT DISTINCT ?g … FILTER(STR(?g) > last) ORDER BY STR(?g)`, as the
 * start awaited it before); the new query (`GROUP BY ?g`); `SparqlProxy.open` without a kept list
 * (first start) and with one (restart), and when its background read ended.
 *
 *   npx tsx bench/foreign-graphs.ts [--graphs 7000] [--triples 150]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SparqlProxy } from "../src/store/sparql-proxy.ts";
import { freshDir, removeDir } from "../test/helpers/server.ts";
import { startVirtuoso } from "../test/helpers/virtuoso.ts";

const { values } = parseArgs({ options: { graphs: { type: "string", default: "7000" }, triples: { type: "string", default: "150" } } });
const G = Number(values.graphs);
const T = Number(values.triples);
const v = await startVirtuoso({ resultSetMaxRows: 10_000 });
const dir = freshDir();
try {
  const t0 = performance.now();
  let next = 0;
  const put = async (): Promise<void> => {
    for (let g = next++; g < G; g = next++) {
      let body = "";
      for (let t = 0; t < T; t++) body += `<http://ex.org/s/${g}/${t % 10}> <http://ex.org/p/${t}> "${g}-${t}" .\n`;
      const r = await fetch(`${v.gsp}?graph-uri=${encodeURIComponent(`http://ex.org/g/${g}`)}`, { method: "PUT", headers: { "content-type": "text/turtle" }, body });
      if (!r.ok) throw new Error((await r.text()).slice(0, 300));
    }
  };
  await Promise.all(Array.from({ length: 6 }, put));
  console.log(`loaded ${G} graphs × ${T} triples = ${G * T} triples in ${Math.round(performance.now() - t0)} ms`);
  const select = async (query: string): Promise<number> => {
    const r = await fetch(v.sparql, { method: "POST", headers: { accept: "application/sparql-results+json" }, body: new URLSearchParams({ query }) });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`${r.status}: ${text.slice(0, 200)}`);
    return (JSON.parse(text) as { results: { bindings: unknown[] } }).results.bindings.length;
  };
  const timed = async (what: string, f: () => Promise<string>): Promise<void> => {
    const t = performance.now();
    try {
      const said = await f();
      console.log(`${what}: ${Math.round(performance.now() - t)} ms (${said})`);
    } catch (e) {
      console.log(`${what}: failed after ${Math.round(performance.now() - t)} ms (${(e as Error).message.slice(0, 120)})`);
    }
  };
  await timed("old: keyset pages of 5,000 ordered by STR(?g)", async () => {
    let last: string | undefined;
    let n = 0;
    let pages = 0;
    for (;;) {
      const after = last === undefined ? "" : `FILTER(STR(?g) > ${JSON.stringify(last)})`;
      const r = await fetch(v.sparql, { method: "POST", headers: { accept: "application/sparql-results+json" }, body: new URLSearchParams({ query: `SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } ${after} } ORDER BY STR(?g) LIMIT 5000` }) });
      const text = await r.text();
      if (r.status !== 200) throw new Error(`${r.status}: ${text.slice(0, 200)}`);
      const page = (JSON.parse(text) as { results: { bindings: { g: { value: string } }[] } }).results.bindings;
      n += page.length;
      pages++;
      if (page.length < 5000) return `${n} graphs in ${pages} pages`;
      last = page[page.length - 1]!.g.value;
    }
  });
  await timed("new: SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g", async () => `${await select("SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g")} graphs`);
  const graphs = { has: (g: string) => g.startsWith("http://ex.org/g/"), graphsWithPrefix: () => Array.from({ length: G }, (_, g) => `http://ex.org/g/${g}`) };
  for (const start of ["first start (no kept list)", "restart (kept list)"]) {
    const t = performance.now();
    const p = await SparqlProxy.open(graphs, { endpoint: v.sparql, base: "http://bench.test", timeoutMs: 60_000, maxResults: 100_000, concurrency: 1, dialect: "virtuoso", foreignFile: join(dir, "foreign-graphs.json") });
    const opened = Math.round(performance.now() - t);
    await p.foreignRead;
    console.log(`SparqlProxy.open, ${start}: ${opened} ms; its background read ended after ${Math.round(performance.now() - t)} ms; ${p.foreign.length} foreign graphs`);
    await p.close();
  }
} finally {
  await v.stop();
  removeDir(dir);
}
