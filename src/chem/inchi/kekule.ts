/**
 * Bond-order and mobile-H assignment for fixed atom states. The network has the atoms plus one
 * virtual vertex per mobile-H group; every vertex i needs exactly `need[i]` units on its edges:
 * an atom's π bonds (a bond edge carries 0, 1 or 2 extra units: single, double, triple) and the
 * group hydrogens it takes (a group edge carries 0…3 hydrogens; the group vertex needs its H
 * count). This is a degree-constrained subgraph problem — a perfect matching when all needs are
 * 0/1, the kekulisation of aromatic systems — solved by constraint propagation (a vertex whose
 * remaining need equals the capacity of its open edges takes them all; one with no need closes
 * them; a need above the capacity fails) and branching on the most constrained vertex.
 */

export interface Network {
  readonly edges: ReadonlyArray<readonly [number, number]>;
  /** Maximum units per edge. */
  readonly cap: ArrayLike<number>;
  /** Edge indices at each vertex. */
  readonly adj: readonly (readonly number[])[];
  /** Edges whose larger values are tried first (mobile H onto nitrogen: amide, not iminol). */
  readonly greedy?: Uint8Array;
  /** Index of the first atom–group edge (they come after the bonds). */
  readonly groupEdges?: number;
}

/** Units per edge, or null when no assignment exists (or `budget` nodes run out). */
export function solveNetwork(net: Network, need: ArrayLike<number>, budget = 20000): Int8Array | null {
  return solveNetworkAll(net, need, 1, budget)[0] ?? null;
}

/**
 * Up to `limit` assignments that differ in where the mobile hydrogens go (one Kekulé structure
 * each): group edges are branched on first, bond edges only below them, and a bond branch stops
 * at its first success.
 */
export function solveNetworkAll(net: Network, need: ArrayLike<number>, limit: number, budget = 20000): Int8Array[] {
  const n = need.length;
  const x = new Int8Array(net.edges.length).fill(-1);
  const rem = new Int16Array(n);
  for (let i = 0; i < n; i++) rem[i] = need[i]!;
  const out: Int8Array[] = [];
  solve(net, x, rem, { nodes: 0, budget }, out, limit);
  return out;
}

function otherEnd(net: Network, e: number, i: number): number {
  const edge = net.edges[e]!;
  return edge[0] === i ? edge[1] : edge[0];
}

function propagate(net: Network, x: Int8Array, rem: Int16Array): boolean {
  const n = rem.length;
  const queue: number[] = [];
  const inQueue = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    queue.push(i);
    inQueue[i] = 1;
  }
  while (queue.length > 0) {
    const i = queue.pop()!;
    inQueue[i] = 0;
    let capSum = 0;
    let open = 0;
    for (const e of net.adj[i]!) {
      if (x[e]! >= 0) continue;
      const j = otherEnd(net, e, i);
      const c = Math.min(net.cap[e]!, rem[i]!, rem[j]!);
      if (c === 0) {
        x[e] = 0;
        if (!inQueue[j]) {
          inQueue[j] = 1;
          queue.push(j);
        }
        continue;
      }
      open++;
      capSum += c;
    }
    const r = rem[i]!;
    if (r > capSum) return false;
    if (open === 0 || r !== capSum) continue;
    for (const e of net.adj[i]!) {
      if (x[e]! >= 0) continue;
      const j = otherEnd(net, e, i);
      const c = Math.min(net.cap[e]!, rem[i]!, rem[j]!);
      x[e] = c;
      rem[i] = rem[i]! - c;
      rem[j] = rem[j]! - c;
      if (rem[j]! < 0) return false;
      if (!inQueue[j]) {
        inQueue[j] = 1;
        queue.push(j);
      }
    }
  }
  return true;
}

function solve(
  net: Network,
  x: Int8Array,
  rem: Int16Array,
  counter: { nodes: number; budget: number },
  out: Int8Array[],
  limit: number,
): boolean {
  if (++counter.nodes > counter.budget) return false;
  if (!propagate(net, x, rem)) return false;
  // Open group edges first (greedy ones before the others), then the most constrained vertex.
  let edge = -1;
  if (net.groupEdges !== undefined) {
    for (let e = net.groupEdges; e < x.length; e++) {
      if (x[e]! >= 0) continue;
      if (edge < 0 || (net.greedy?.[e] === 1 && net.greedy?.[edge] !== 1)) edge = e;
    }
  }
  const isGroup = edge >= 0;
  if (edge < 0) {
    let best = -1;
    let bestOpen = Infinity;
    for (let i = 0; i < rem.length; i++) {
      if (rem[i]! === 0) continue;
      let open = 0;
      for (const e of net.adj[i]!) if (x[e]! < 0) open++;
      if (open === 0) return false;
      if (open < bestOpen) {
        bestOpen = open;
        best = i;
      }
    }
    if (best < 0) {
      for (let e = 0; e < x.length; e++) if (x[e]! < 0) x[e] = 0;
      out.push(x);
      return true;
    }
    for (const e of net.adj[best]!) {
      if (x[e]! < 0) {
        edge = e;
        break;
      }
    }
  }
  const [a, b] = net.edges[edge]!;
  const c = Math.min(net.cap[edge]!, rem[a]!, rem[b]!);
  // Values: greedy edges high to low; others one unit first (a double bond, one H), then none,
  // then more (triple bonds only where nothing else fits).
  const values: number[] = [];
  if (net.greedy?.[edge] === 1) for (let v = c; v >= 0; v--) values.push(v);
  else {
    if (c >= 1) values.push(1);
    values.push(0);
    for (let v = 2; v <= c; v++) values.push(v);
  }
  let found = false;
  for (const v of values) {
    const x2 = x.slice();
    const rem2 = rem.slice();
    x2[edge] = v;
    rem2[a] = rem2[a]! - v;
    rem2[b] = rem2[b]! - v;
    if (solve(net, x2, rem2, counter, out, limit)) {
      found = true;
      // Below the group edges one Kekulé structure is enough.
      if (!isGroup || out.length >= limit) return true;
    }
  }
  return found;
}
