/**
 * Rendering RDF (the event loop must stay free meanwhile): CPU time and wall time to serialise
 * a synthetic dataset-shaped graph (entries with 30 values each: <e> ot:values <v>,
 * <v> ot:feature <f>, <v> ot:value "x"^^xsd:double, as the service writes feature datasets)
 * of N triples
 * - with the service's serialisers (src/store/rdf-formats.ts, as the render workers run them):
 *   Turtle (n3), RDF/XML (Oxigraph), JSON-LD (n3 parse + jsonld.js fromRDF + compact per slice);
 * - with Oxigraph's own N-Triples dump of a stored graph (what GraphStore.dump does on the main
 *   thread, up to 20,000 triples);
 * - with jsonld.js's own N-Quads parser (what the service did before; quadratic), up to 20,000.
 * Figures in triples per CPU second decide RENDER_LIMITS (src/http/render-rdf.ts).
 *
 *   npx tsx bench/render.ts [triples …]      (default 10000 100000 250000)
 */
import jsonld from "jsonld";
import * as ox from "oxigraph";
import { ntriplesSlices, serialiseRdf, type RdfType } from "../src/store/rdf-formats.ts";
import { Vocab } from "../src/store/vocab.ts";

const v = new Vocab("http://localhost:8080");
const DS = "http://localhost:8080/dataset/abcdefghijkm";
const OT = "http://www.opentox.org/api/1.1#";

function synth(n: number): string {
  const lines: string[] = [];
  for (let e = 1; lines.length < n; e++) {
    const en = `<${DS}#e${e}>`;
    lines.push(`<${DS}> <${OT}dataEntry> ${en} .`, `${en} <${OT}compound> <http://localhost:8080/compound/InChI=1S/C${e}H6O/c1-2-3> .`);
    for (let j = 0; j < 30; j++) lines.push(`${en} <${OT}values> <${DS}#e${e}v${j}> .`, `<${DS}#e${e}v${j}> <${OT}feature> <${DS}/feature/f${j}> .`, `<${DS}#e${e}v${j}> <${OT}value> "${(e * 0.37 + j).toFixed(4)}"^^<http://www.w3.org/2001/XMLSchema#double> .`);
  }
  return lines.slice(0, n).join("\n") + "\n";
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function time(label: string, n: number, f: () => unknown): Promise<void> {
  const c0 = cpuMs();
  const t0 = performance.now();
  await f();
  const wall = performance.now() - t0;
  const cpu = cpuMs() - c0;
  console.log(`${label.padEnd(40)} ${String(n).padStart(9)} ${wall.toFixed(0).padStart(9)} ${cpu.toFixed(0).padStart(9)} ${Math.round(n / (cpu / 1000)).toLocaleString("en").padStart(12)}`);
}

console.log(`render bench, ${new Date().toISOString()}, node ${process.version}`);
console.log(`${"what".padEnd(40)} ${"triples".padStart(9)} ${"wall ms".padStart(9)} ${"CPU ms".padStart(9)} ${"triples/CPU s".padStart(12)}`);
const sizes = process.argv.slice(2).map(Number);
for (const n of sizes.length > 0 ? sizes : [10_000, 100_000, 250_000]) {
  const nt = synth(n);
  const bytes = new TextEncoder().encode(nt);
  for (const type of ["text/turtle", "application/rdf+xml", "application/ld+json"] as RdfType[]) {
    await time(`serialiseRdf ${type}`, n, () => serialiseRdf(ntriplesSlices(bytes), type, v));
  }
  const store = new ox.Store();
  store.load(bytes, { format: "application/n-triples", to_graph_name: ox.namedNode(DS), lenient: true, no_transaction: true });
  await time("Oxigraph dump N-Triples (main thread)", n, () => store.dump({ format: "application/n-triples", from_graph_name: ox.namedNode(DS) }));
  (store as unknown as { free(): void }).free();
  if (n <= 20_000) await time("jsonld.js fromRDF(N-Quads text) (before)", n, () => jsonld.fromRDF(nt, { format: "application/n-quads" }));
}
