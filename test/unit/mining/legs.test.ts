/**
 * The shared embedding store and leg counting (src/mining/legs.ts) against brute force on
 * random small ring-bearing graphs: at every level of a path search (with tree legs at inner
 * nodes) the level's embeddings are exactly the injective mappings of the pattern, and the legs
 * counted are exactly the frequent canonical (node, edge label) extensions with their tids and
 * class counts — through unmaterialised levels, ring-bond stamps and the parent's scan marks.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Database } from "../../../src/mining/database.ts";
import { LegCounter, type Level } from "../../../src/mining/legs.ts";
import { Pattern, DEFAULT_TREE_ORDER } from "../../../src/mining/pattern.ts";
import type { LabelledGraph } from "../../../src/chem/labelled-graph.ts";
import { mulberry32Unit } from "../../../src/numeric/random.ts";

function randomGraphs(n: number, seed: number): LabelledGraph[] {
  const rand = mulberry32Unit(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const graphs: LabelledGraph[] = [];
  for (let t = 0; t < n; t++) {
    const size = 4 + Math.floor(rand() * 6);
    const labels = Int32Array.from({ length: size }, () => pick([6, 6, 6, 7, 8]));
    const bonds: number[] = [];
    const has = new Set<string>();
    const add = (a: number, b: number): void => {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      if (a === b || has.has(key)) return;
      has.add(key);
      bonds.push(a, b, pick([1, 1, 1, 2]));
    };
    for (let i = 1; i < size; i++) add(i, Math.floor(rand() * i));
    for (let r = Math.floor(rand() * 3); r > 0; r--) add(Math.floor(rand() * size), Math.floor(rand() * size));
    graphs.push({ labels, bonds: Int32Array.from(bonds) });
  }
  return graphs;
}

/** All injective mappings of the pattern (image of node i at index i) with their tids. */
function naiveEmbeddings(db: Database, p: Pattern): { tid: number; atoms: number[] }[] {
  const out: { tid: number; atoms: number[] }[] = [];
  const img: number[] = [];
  const grow = (tid: number, i: number): void => {
    if (i === p.size) {
      out.push({ tid, atoms: [...img] });
      return;
    }
    const a = img[p.parent[i]!]!;
    for (let j = db.adjStart[a]!; j < db.adjStart[a + 1]!; j++) {
      const w = db.adjTo[j]!;
      if (db.adjEdge[j] !== p.edgeIn[i] || db.atomLabel[w] !== p.label[i] || img.includes(w)) continue;
      img.push(w);
      grow(tid, i + 1);
      img.pop();
    }
  };
  for (let t = 0; t < db.nTrees; t++)
    for (let a = db.atomStart[t]!; a < db.atomStart[t + 1]!; a++) {
      if (db.atomLabel[a] !== p.label[0]) continue;
      img.push(a);
      grow(t, 1);
      img.pop();
    }
  return out;
}

/** The level's embeddings (read through the base rows while unmaterialised). */
function levelEmbeddings(lv: Level): { tid: number; atoms: number[] }[] {
  const out: { tid: number; atoms: number[] }[] = [];
  for (let r = 0; r < lv.m; r++) {
    const atoms: number[] = [];
    if (lv.rows !== null) for (let q = 0; q < lv.k; q++) atoms.push(lv.rows[r * lv.k + q]!);
    else {
      const bk = lv.k - 1;
      for (let q = 0; q < bk; q++) atoms.push(lv.base!.rows![lv.pr![r]! * bk + q]!);
      atoms.push(lv.w![r]!);
    }
    out.push({ tid: lv.tids[r]!, atoms });
  }
  return out;
}

const text = (es: { tid: number; atoms: number[] }[]): string[] => es.map((e) => `${e.tid}:${e.atoms.join(",")}`).sort();

test("legs.ts: embeddings and frequent legs of a path / tree search equal brute force", () => {
  const minfreq = 2;
  const graphs = randomGraphs(40, 7);
  const db = new Database(graphs, minfreq);
  const nE = db.edgeLabels.length;
  const tidClass = Int32Array.from(graphs, (_g, t) => t % 2);
  const p = new Pattern();
  const c = new LegCounter(db, p, minfreq, tidClass, 2);
  let levels = 0;
  let legsSeen = 0;

  /** Check the legs just counted at lv, restricted to `nodes` and accepted by `ok`. */
  const check = (lv: Level, nodes: readonly number[], ok: (u: number, e: number, x: number) => boolean): void => {
    const emb = naiveEmbeddings(db, p);
    assert.deepEqual(text(levelEmbeddings(lv)), text(emb));
    for (let r = 1; r < lv.m; r++) assert.ok(lv.tids[r - 1]! <= lv.tids[r]!, "rows in tid order");
    const tidsOf = new Map<number, Set<number>>();
    for (const { tid, atoms } of emb)
      for (const u of nodes)
        for (let j = db.adjStart[atoms[u]!]!; j < db.adjStart[atoms[u]! + 1]!; j++) {
          if (atoms.includes(db.adjTo[j]!)) continue;
          const key = u * nE + db.adjEdge[j]!;
          if (!tidsOf.has(key)) tidsOf.set(key, new Set());
          tidsOf.get(key)!.add(tid);
        }
    const expected: string[] = [];
    for (const key of [...tidsOf.keys()].sort((a, b) => a - b)) {
      const tids = [...tidsOf.get(key)!].sort((a, b) => a - b);
      const u = Math.floor(key / nE);
      const e = key % nE;
      const x = c.otherLabel(u, e);
      if (tids.length < minfreq || !ok(u, e, x)) continue;
      const counts = [0, 0];
      for (const t of tids) counts[tidClass[t]!]!++;
      expected.push(`${u}/${e}/${x}: ${tids.join(",")} [${counts.join(",")}]`);
    }
    const got = c.legNode.map((u, i) => `${u}/${c.legEdge[i]}/${c.legLabel[i]}: ${Array.from(c.legTids[i]!).join(",")} [${Array.from(c.legCounts[i]!).join(",")}]`);
    assert.deepEqual(got, expected);
    levels++;
    legsSeen += got.length;
  };

  /** The legs just counted (the counter's arrays are overwritten by the next count). */
  const counted = () => c.legNode.map((u, i) => ({ node: u, edge: c.legEdge[i]!, label: c.legLabel[i]!, tids: c.legTids[i]! }));

  const visitPath = (lv: Level, depth: number): void => {
    const plan = c.path(lv, true, DEFAULT_TREE_ORDER);
    check(lv, plan.scan, (u, e, x) => plan.ok(u, e, x));
    if (depth === 5) return;
    const { back, front } = plan.split(counted());
    const savedPath = p.path;
    const savedEdges = p.pathEdges;
    for (const [legs, atBack] of [[back, true], [front, false]] as const)
      for (const leg of legs) {
        const child = c.extend(lv, leg.node, leg.edge, leg.tids);
        const v = p.addNode(leg.label, leg.node, leg.edge);
        p.path = atBack ? [...savedPath, v] : [v, ...savedPath];
        p.pathEdges = atBack ? [...savedEdges, leg.edge] : [leg.edge, ...savedEdges];
        visitPath(child, depth + 1);
        p.path = savedPath;
        p.pathEdges = savedEdges;
        p.removeLast();
      }
  };

  for (let r = 0; r < db.nodeLabels.length; r++) {
    const root = c.root(r);
    if (root === null) continue;
    check(root, [0], (_u, _e, x) => x >= r);
    for (const leg of counted()) {
      const child = c.extend(root, leg.node, leg.edge, leg.tids);
      p.addNode(leg.label, leg.node, leg.edge);
      p.path = [0, 1];
      p.pathEdges = [leg.edge];
      visitPath(child, 1);
      p.removeLast();
    }
    p.removeLast();
  }
  assert.ok(levels > 80 && legsSeen > 100, `${levels} levels, ${legsSeen} legs`);
});
