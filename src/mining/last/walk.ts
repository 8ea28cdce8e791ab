/**
 * LAST-PM's weighted walk (liblast's `GSWalk`; docs/miners.md "Weighted walks"): a graph whose
 * nodes carry sets of input node labels and whose edges (stored from the lower to the higher
 * node id) carry sets of input bond labels, an integer weight (the number of merged ground
 * features that use the edge) and a `deleted` flag set by the SVD filter (./svd.ts). `hops`
 * counts the merged ground features, `activating` is the class value the features are
 * correlated with.
 */

export interface WalkEdge {
  /** Input bond labels 1..4, ascending. */
  labels: number[];
  weight: number;
  deleted: boolean;
}

export class Walk {
  /** Node id → input node labels (Z, or Z + 150 when aromatic), ascending. */
  readonly nodes = new Map<number, number[]>();
  /** Lower node id → higher node id → edge. */
  readonly edges = new Map<number, Map<number, WalkEdge>>();
  hops = 0;
  /** Activating class value; −1 while the walk is empty. */
  activating = -1;

  get edgeCount(): number {
    let n = 0;
    for (const m of this.edges.values()) n += m.size;
    return n;
  }

  /** Node ids in ascending order. */
  nodeIds(): number[] {
    return [...this.nodes.keys()].sort((a, b) => a - b);
  }

  /** Edge between a and b (any order), if present. */
  edge(a: number, b: number): WalkEdge | undefined {
    return a < b ? this.edges.get(a)?.get(b) : this.edges.get(b)?.get(a);
  }

  setEdge(a: number, b: number, e: WalkEdge): void {
    const [f, t] = a < b ? [a, b] : [b, a];
    let m = this.edges.get(f);
    if (m === undefined) this.edges.set(f, (m = new Map()));
    m.set(t, e);
  }

  /** Edges as [from, to, edge], from < to, sorted by (from, to). */
  edgeList(): [number, number, WalkEdge][] {
    const out: [number, number, WalkEdge][] = [];
    for (const f of [...this.edges.keys()].sort((a, b) => a - b)) {
      const m = this.edges.get(f)!;
      for (const t of [...m.keys()].sort((a, b) => a - b)) out.push([f, t, m.get(t)!]);
    }
    return out;
  }

  /** Neighbour ids of node j with a higher id ("up edges"), ascending. */
  upNeighbours(j: number): number[] {
    const m = this.edges.get(j);
    return m ? [...m.keys()].sort((a, b) => a - b) : [];
  }

  /** Neighbour ids of node j (both directions), ascending. */
  neighbours(j: number): number[] {
    const out: number[] = [];
    for (const [f, m] of this.edges) {
      if (f === j) out.push(...m.keys());
      else if (m.has(j)) out.push(f);
    }
    return out.sort((a, b) => a - b);
  }

  clone(): Walk {
    const w = new Walk();
    for (const [i, l] of this.nodes) w.nodes.set(i, [...l]);
    for (const [f, m] of this.edges) {
      const c = new Map<number, WalkEdge>();
      for (const [t, e] of m) c.set(t, { labels: [...e.labels], weight: e.weight, deleted: e.deleted });
      w.edges.set(f, c);
    }
    w.hops = this.hops;
    w.activating = this.activating;
    return w;
  }

  /** Renumber nodes by a mapping old id → new id (ids not in the map keep theirs). */
  renumber(map: (id: number) => number): void {
    const nodes = [...this.nodes];
    this.nodes.clear();
    for (const [i, l] of nodes) this.nodes.set(map(i), l);
    const edges: [number, number, WalkEdge][] = [];
    for (const [f, m] of this.edges) for (const [t, e] of m) edges.push([map(f), map(t), e]);
    this.edges.clear();
    for (const [f, t, e] of edges) this.setEdge(f, t, e);
  }
}

/** Sorted union of two ascending label lists. */
export function unionLabels(a: readonly number[], b: readonly number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}
