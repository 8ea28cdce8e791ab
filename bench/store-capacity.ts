/**
 * How much Oxigraph's in-memory store (WebAssembly, 4 GB address space) takes before it traps,
 * the figure behind MAX_QUADS (src/store/graph-store.ts "Capacity"):
 *
 *   fill  — load descriptor-dataset-shaped N-Triples (OpenTox shape: per compound 263 values,
 *           each an ot:values link, its feature and a distinct double value) in 400-compound
 *           batches until a load throws; prints triples and process RSS on the way.
 *   churn — load 10 graphs of 400 compounds each (≈ 3.2M triples), DROP them, repeat: shows
 *           that dropped graphs keep their memory (RSS does not fall, the store traps anyway).
 *   renew — the same rounds, but each in a new store that is freed after it: shows that a freed
 *           store's memory is reused (what GraphStore's renewal relies on); stops after 6 rounds.
 *
 *   node --import tsx bench/store-capacity.ts fill|churn|renew
 * Each mode ends with the store's error: run it in its own process.
 */
import * as ox from "oxigraph";

const OT = "http://www.opentox.org/api/1.1#";
const gb = (): string => (process.memoryUsage().rss / 2 ** 30).toFixed(2);

function batch(graph: string, tag: string, first: number, compounds: number): string {
  const lines: string[] = [];
  for (let c = 0; c < compounds; c++) {
    const e = `<${graph}#e${first + c}>`;
    lines.push(`${e} <${OT}compound> <http://127.0.0.1:8080/compound/InChI=1S/C${c}H${first}/c1-2-3> .`);
    for (let f = 0; f < 263; f++) {
      const b = `_:${tag}v${first + c}_${f}`;
      lines.push(`${e} <${OT}values> ${b} .`, `${b} <${OT}feature> <${graph}/feature/D${f}> .`, `${b} <${OT}value> "${tag}${(Math.random() * 1000).toFixed(6)}"^^<http://www.w3.org/2001/XMLSchema#double> .`);
    }
  }
  return lines.join("\n") + "\n";
}

let store = new ox.Store();
const load = (graph: string, body: string): void => store.load(body, { format: "application/n-triples", to_graph_name: ox.namedNode(graph), lenient: true, no_transaction: true } as never);
const mode = process.argv[2] ?? "fill";
const t0 = performance.now();
let loaded = 0;
try {
  if (mode === "fill") {
    const g = "http://127.0.0.1:8080/dataset/fill";
    for (let b = 0; ; b++) {
      const body = batch(g, "", b * 400, 400);
      load(g, body);
      loaded += 400 * (1 + 263 * 3);
      if (b % 10 === 0) console.log(`${(loaded / 1e6).toFixed(2)}M triples loaded, RSS ${gb()} GB, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
  } else if (mode === "renew") {
    for (let round = 0; round < 6; round++) {
      const t = performance.now();
      for (let k = 0; k < 10; k++) {
        load(`http://g/${round}/${k}`, batch(`http://g/${round}/${k}`, `r${round}`, 0, 400));
        loaded += 400 * (1 + 263 * 3);
      }
      console.log(`round ${round}: store size ${store.size}, RSS ${gb()} GB, ${((performance.now() - t) / 1000).toFixed(0)} s (${(loaded / 1e6).toFixed(2)}M triples loaded so far)`);
      (store as unknown as { free(): void }).free();
      store = new ox.Store();
    }
    console.log("6 rounds without a trap");
  } else {
    for (let round = 0; ; round++) {
      for (let k = 0; k < 10; k++) {
        load(`http://g/${round}/${k}`, batch(`http://g/${round}/${k}`, `r${round}`, 0, 400));
        loaded += 400 * (1 + 263 * 3);
      }
      console.log(`round ${round}: store size ${store.size}, RSS ${gb()} GB`);
      store.update(Array.from({ length: 10 }, (_, k) => `DROP SILENT GRAPH <http://g/${round}/${k}>`).join(" ;\n"));
      console.log(`  dropped: store size ${store.size}, RSS ${gb()} GB (${(loaded / 1e6).toFixed(2)}M triples loaded so far)`);
    }
  }
} catch (e) {
  console.log(`the store threw after ${(loaded / 1e6).toFixed(2)}M triples loaded (${((performance.now() - t0) / 1000).toFixed(0)} s): ${e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e)}`);
}
