/**
 * Conflict resolution and stacking of weighted walks (docs/miners.md "Alignment and stacking";
 * liblast's `GSWalk::conflict_resolution`, `add_edge`, `stack`).
 *
 * Walk W is merged into accumulator S; both contain the core nodes 0..core−1 under the same ids
 * (the parent pattern of the DFS level). Outside the core, nodes are aligned by id: going
 * through the ids in ascending order (a node's parent — its lower-id neighbour — always has a
 * lower id, so it has been placed already), node k of W is the same node as node k of S when
 * both hang off the same node; when both exist but hang off different nodes, W's node cannot
 * take id k and every non-core id ≥ k of W is renumbered by +1 ("hard insertion"), after which
 * k is compared again. Ids present in only one walk are kept. This reproduces the node
 * numbering of liblast's golden GraphML (e.g. hamster fminer1 graph 10: N=O, two C on the
 * carbonyl carbon, one C on the amide N).
 *
 * Stacking: aligned nodes take the union of their label sets; aligned edges the union of their
 * bond labels and the sum of their weights; other edges are copied with their weight.
 */

import { Walk, unionLabels } from "./walk.ts";

interface AlignNode {
  /** Current id. */
  id: number;
  readonly orig: number;
  parent: AlignNode | null;
  /** Level at which the node was placed (core: 0), −1 while unplaced. */
  level: number;
}

function alignNodes(w: Walk, core: number): AlignNode[] {
  const byId = new Map<number, AlignNode>();
  for (const i of w.nodes.keys()) byId.set(i, { id: i, orig: i, parent: null, level: i < core ? 0 : -1 });
  for (const [f, m] of w.edges)
    for (const t of m.keys()) {
      const [lo, hi] = f < t ? [f, t] : [t, f];
      const n = byId.get(hi)!;
      if (n.parent === null || n.parent.id < lo) n.parent = byId.get(lo)!;
    }
  return [...byId.values()];
}

/** Hard insertion: every unplaced node of the walk with id ≥ k moves up by one. */
function shiftUnplaced(nodes: AlignNode[], k: number): void {
  for (const n of nodes) if (n.level < 0 && n.id >= k) n.id++;
}

/**
 * Align W's and S's node ids outward from the core, level by level.
 * Level L places the nodes whose parent was placed before level L, going through the ids in
 * ascending order: the same id hanging off the same node in both walks is one node (a node
 * conflict, stacked); otherwise the id goes to the walk that has a candidate there (S first)
 * and the other walk's nodes from that id on move up by one ("hard insertion"). Returns the
 * final id of every original id of W and of S.
 */
function align(w: Walk, s: Walk, core: number): { wMap: Map<number, number>; sMap: Map<number, number> } {
  const wn = alignNodes(w, core);
  const sn = alignNodes(s, core);
  const placed = new Set<number>();
  for (let i = 0; i < core; i++) placed.add(i);
  const at = (nodes: AlignNode[], k: number): AlignNode | undefined => nodes.find((n) => n.id === k && n.level < 0) ?? nodes.find((n) => n.id === k);
  for (let level = 1; ; level++) {
    const isCand = (n: AlignNode | undefined): n is AlignNode => n !== undefined && n.level < 0 && n.parent !== null && n.parent.level >= 0 && n.parent.level < level;
    let any = false;
    for (let k = core; ; k++) {
      let maxId = -1;
      for (const n of wn) if (n.level < 0 && n.id > maxId) maxId = n.id;
      for (const n of sn) if (n.level < 0 && n.id > maxId) maxId = n.id;
      if (k > maxId) break;
      let a = at(sn, k);
      let b = at(wn, k);
      if (placed.has(k)) {
        // The id belongs to a node placed earlier: unplaced nodes there move up.
        if (a && a.level < 0) shiftUnplaced(sn, k);
        if (b && b.level < 0) shiftUnplaced(wn, k);
        continue;
      }
      if (a && a.level >= 0) a = undefined;
      if (b && b.level >= 0) b = undefined;
      const ca = isCand(a);
      const cb = isCand(b);
      if (!ca && !cb) {
        // Two nodes further out share the id: W's moves up unless both hang off the same node.
        if (a && b && a.parent?.id !== b.parent?.id) shiftUnplaced(wn, k);
        continue;
      }
      any = true;
      if (ca && cb && a!.parent!.id === b!.parent!.id) {
        a!.level = level;
        b!.level = level;
      } else if (ca) {
        if (b) shiftUnplaced(wn, k);
        a!.level = level;
      } else {
        if (a) shiftUnplaced(sn, k);
        b!.level = level;
      }
      placed.add(k);
    }
    if (!any) break;
  }
  return { wMap: new Map(wn.map((n) => [n.orig, n.id])), sMap: new Map(sn.map((n) => [n.orig, n.id])) };
}

/** Merge walk `w` into accumulator `s`; both share the node ids 0..core−1. `w` is consumed. */
export function mergeWalk(w: Walk, s: Walk, core: number): void {
  if (s.nodes.size === 0 || s.edgeCount === 0) {
    s.nodes.clear();
    s.edges.clear();
    s.activating = w.activating;
  }
  s.hops += w.hops;
  if (s.nodes.size > 0) {
    const { wMap, sMap } = align(w, s, core);
    w.renumber((id) => wMap.get(id) ?? id);
    s.renumber((id) => sMap.get(id) ?? id);
  }
  // Stack.
  for (const [i, l] of w.nodes) s.nodes.set(i, unionLabels(s.nodes.get(i) ?? [], l));
  for (const [f, t, e] of w.edgeList()) {
    const o = s.edge(f, t);
    if (o) {
      o.labels = unionLabels(o.labels, e.labels);
      o.weight += e.weight;
    } else s.setEdge(f, t, { labels: [...e.labels], weight: e.weight, deleted: false });
  }
}

