/**
 * liblast's GraphML output (docs/miners.md "GraphML") and a reader for it (used to convert GraphML
 * into LAST-SMARTS as last-utils does, ./smarts.ts, and by the tests to compare with the golden
 * files).
 *
 * One document per run: header with the keys act, hops, lab_n, lab_e, weight, del; one
 * `<graph id="k">` per flushed walk (k from 1), nodes with their space-separated input labels,
 * edges `source < target` with bond labels, weight and the SVD `del` flag (0/1).
 * The layout (indentation, blank lines) is that of the golden files in liblast/test, which were
 * written through the Ruby test harness: two blank lines after the header and after each graph.
 */

import { Walk } from "./walk.ts";

const HEADER = `<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns"
xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
xsi:noNamespaceSchemaLocation="graphml.xsd">

<!-- LAtent STructure Mining (LAST) descriptors-->

<key id="act" for="graph" attr.name="activating" attr.type="boolean" />
<key id="hops" for="graph" attr.name="hops" attr.type="int" />
<key id="lab_n" for="node" attr.name="node_labels" attr.type="string" />
<key id="lab_e" for="edge" attr.name="edge_labels" attr.type="string" />
<key id="weight" for="edge" attr.name="edge_weight" attr.type="int" />
<key id="del" for="edge" attr.name="edge_deleted" attr.type="boolean" />
`;

/** One `<graph>` element (without trailing newline). */
export function graphElement(w: Walk, id: number): string {
  const out: string[] = [];
  out.push(`    <graph id="${id}" edgedefault="undirected">`);
  out.push(`        <data key="act">${w.activating}</data>`);
  out.push(`        <data key="hops">${w.hops}</data>`);
  for (const i of w.nodeIds()) {
    out.push(`        <node id="${i}">`);
    out.push(`            <data key="lab_n">${w.nodes.get(i)!.join(" ")}</data>`);
    out.push(`        </node>`);
  }
  for (const [f, t, e] of w.edgeList()) {
    out.push(`        <edge source="${f}" target="${t}">`);
    out.push(`            <data key="lab_e">${e.labels.join(" ")}</data>`);
    out.push(`            <data key="weight">${e.weight}</data>`);
    out.push(`            <data key="del">${e.deleted ? 1 : 0}</data>`);
    out.push(`        </edge>`);
  }
  out.push(`    </graph>`);
  return out.join("\n");
}

/** The whole GraphML document for the flushed walks, graph ids 1..n. */
export function writeGraphml(walks: readonly Walk[]): string {
  return HEADER + "\n\n" + walks.map((w, i) => graphElement(w, i + 1) + "\n\n\n").join("") + "</graphml>\n\n";
}

/** A graph read back from GraphML. */
export interface GraphmlGraph {
  readonly id: number;
  readonly walk: Walk;
}

/** Read liblast GraphML (as written above or by liblast). */
export function readGraphml(text: string): GraphmlGraph[] {
  const out: GraphmlGraph[] = [];
  for (const g of text.matchAll(/<graph id="(\d+)"[^>]*>([\s\S]*?)<\/graph>/g)) {
    const body = g[2]!;
    const w = new Walk();
    w.activating = Number(/<data key="act">([^<]*)<\/data>/.exec(body)?.[1] ?? -1);
    w.hops = Number(/<data key="hops">([^<]*)<\/data>/.exec(body)?.[1] ?? 0);
    for (const n of body.matchAll(/<node id="(\d+)">\s*<data key="lab_n">([^<]*)<\/data>\s*<\/node>/g))
      w.nodes.set(Number(n[1]), n[2]!.trim().split(/\s+/).map(Number));
    for (const e of body.matchAll(/<edge source="(\d+)" target="(\d+)">([\s\S]*?)<\/edge>/g)) {
      const d = e[3]!;
      const data = (k: string): string => new RegExp(`<data key="${k}">([^<]*)</data>`).exec(d)?.[1] ?? "";
      w.setEdge(Number(e[1]), Number(e[2]), {
        labels: data("lab_e").trim().split(/\s+/).map(Number),
        weight: Number(data("weight")),
        deleted: data("del") === "1",
      });
    }
    out.push({ id: Number(g[1]), walk: w });
  }
  return out;
}
