/**
 * From the InChI graph to full structures: every atom gets a state — formal charge, valence,
 * radical electrons, a `/p` proton gained or lost — and so the number of units it needs on top
 * of its single bonds and fixed hydrogens: π bonds, and hydrogens from its mobile-H group. Each
 * mobile-H group is a virtual vertex joined to its atoms that hands out its H count (changed by
 * the `/p` protons it gains or loses); kekule.ts then lays the units on bonds and group edges,
 * which places bond orders and mobile hydrogens together. The sums that tie states together:
 *
 *   - per component: Σ charge − Σ protons gained (atoms and groups) = its `/q` charge;
 *   - overall: Σ protons gained = `/p`.
 *
 * States are enumerated by iterative deepening on cost (IDA*): neutral lowest valence first,
 * then charges; radicals in the `radicals` mode; carbocations/carbanions everywhere in `full`.
 * The lower bound counts the charges the layers demand, so charge-separated structures (nitro,
 * betaines, /p) do not make the rounds explode. Forward pruning by the sums and by local
 * capacity (a vertex cannot need more units than its edges can carry; a terminal neighbour
 * outside any group gets its units from its one bond). For each set of states the network gives
 * one mobile-H placement (H onto nitrogen first: amides, not iminols), and further placements
 * when the first is rejected. Each distinct complete structure is handed to a callback, which
 * verifies it (RDKit round trip) and says whether to stop.
 */
import { chargeOptions, valences } from "./elements.ts";
import type { Graph } from "./graph.ts";
import { solveNetworkAll, type Network } from "./kekule.ts";

export interface AtomState {
  readonly charge: number;
  /** `/p` protons gained (+) or lost (−) here; for a group vertex, by the group. */
  readonly dH: number;
  readonly radical: number;
  /** Units the vertex needs: π bonds plus mobile hydrogens (a group: hydrogens handed out). */
  readonly e: number;
  /** Hydrogens of the atom before mobile ones are placed. */
  readonly hydrogens: number;
  readonly cost: number;
}

export interface FinalAtom {
  readonly charge: number;
  readonly hydrogens: number;
  readonly radical: number;
}

export interface Solution {
  readonly atoms: readonly FinalAtom[];
  /** Bond order (1…3) per bond of the graph. */
  readonly orders: Uint8Array;
  readonly cost: number;
}

export interface SearchStats {
  nodes: number;
  solutions: number;
  /** True when the node budget ran out before the search space was exhausted. */
  truncated: boolean;
}

/**
 * How far the search may stray from ordinary valences: `normal` (charges on heteroatoms, on
 * carbon only where no neutral state fits), `radicals` (plus radical centres), `full` (plus
 * carbocations and carbanions everywhere).
 */
export type SearchMode = "normal" | "radicals" | "full";

const PROTON_SITES = new Set(["N", "O", "S", "Se", "Te", "P", "As", "F", "Cl", "Br", "I", "H"]);
/** Where /p protons go: removed from acids (O, then S, then N), added to bases (N first). */
const PROTON_LOSS_COST: Readonly<Record<string, number>> = { O: 0, S: 1, N: 2 };
const PROTON_GAIN_COST: Readonly<Record<string, number>> = { N: 0, O: 2, S: 2 };
const ION_CHARGES = [0, 1, -1, 2, -2, 3, -3, 4, 5, 6, 7, 8];
const CHARGE_COST = 10;
const RADICAL_COST = 30;
const MIN_STEP = 5;
/** Most mobile hydrogens one atom takes from its group. */
const MAX_MOBILE_PER_ATOM = 3;
/** Mobile-H placements tried per set of atom states. */
const PLACEMENTS = 16;

/** The states an atom may take, cheapest first. */
function atomDomain(g: Graph, i: number, mode: SearchMode, allCharges: boolean): AtomState[] {
  const atom = g.atoms[i]!;
  const d = g.atomBonds[i]!.length;
  const inGroup = atom.group >= 0;
  const p = g.protons;
  const dHs = [0];
  if (p < 0 && atom.h > 0 && PROTON_SITES.has(atom.el)) dHs.push(-1);
  if (p > 0 && !inGroup && PROTON_SITES.has(atom.el)) dHs.push(1);
  const maxE = 2 * d + (inGroup ? MAX_MOBILE_PER_ATOM : 0);
  const charges = allCharges || mode === "full" ? chargeOptions(atom.el, true) : chargeOptions(atom.el, false);
  const out: AtomState[] = [];
  const seen = new Set<string>();
  const push = (st: AtomState): void => {
    const key = `${st.charge},${st.dH},${st.radical},${st.e}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(st);
  };
  const withRadicals = mode !== "normal";
  for (const charge of charges) {
    const vals = valences(atom.el, charge);
    if (vals !== null && vals.length === 0) continue;
    for (const dH of dHs) {
      const hydrogens = atom.h + dH;
      const base = CHARGE_COST * Math.abs(charge) + (dH < 0 ? (PROTON_LOSS_COST[atom.el] ?? 3) : dH > 0 ? (PROTON_GAIN_COST[atom.el] ?? 3) : 0);
      if (vals === null) {
        // Metals: any valence, no π bonds, no mobile hydrogens.
        push({ charge, dH, radical: 0, e: 0, hydrogens, cost: base });
        continue;
      }
      for (const v of vals) {
        const free = v - d - hydrogens;
        if (free < 0) continue;
        // A bare atom has no bonds to share: what is free is radical.
        const radicals = !withRadicals ? [0] : d === 0 && !inGroup ? [free] : [0, 1, 2];
        for (const radical of radicals) {
          const e = free - radical;
          if (e < 0 || e > maxE) continue;
          push({ charge, dH, radical, e, hydrogens, cost: base + RADICAL_COST * radical });
        }
      }
    }
  }
  // Bare ions (Sb3+, S2−, …) whatever their covalent valences: no bonds, no radicals.
  if (d === 0 && atom.h === 0 && !inGroup) {
    for (const charge of ION_CHARGES) {
      for (const dH of dHs) {
        push({ charge, dH, radical: 0, e: 0, hydrogens: dH, cost: CHARGE_COST * Math.abs(charge) + 1 });
      }
    }
  }
  // Stable: equal costs keep the valence order (lowest first).
  out.sort((a, b) => a.cost - b.cost);
  return out;
}

/** The states of a group vertex: its H count, plus or minus the /p protons it may take or give. */
function groupDomain(count: number, p: number): AtomState[] {
  const out: AtomState[] = [];
  const lo = Math.max(Math.min(p, 0), -count);
  const hi = Math.max(p, 0);
  for (let dH = 0; dH >= lo; dH--) out.push({ charge: 0, dH, radical: 0, e: count + dH, hydrogens: 0, cost: 0 });
  for (let dH = 1; dH <= hi; dH++) out.push({ charge: 0, dH, radical: 0, e: count + dH, hydrogens: 0, cost: 0 });
  return out;
}

/** One linear sum constraint over vertex states. */
interface SumConstraint {
  readonly target: number;
  readonly vertices: readonly number[];
  readonly value: (s: AtomState) => number;
}

/**
 * Enumerate structures; `visit` returns true to stop. `maxNodes` and `deadline` (a
 * `performance.now()` time) bound the search.
 */
export function searchStructures(
  g: Graph,
  mode: SearchMode,
  visit: (s: Solution) => boolean,
  maxNodes: number,
  deadline = Infinity,
): SearchStats {
  const n = g.atoms.length;
  const G = g.groups.length;
  const V = n + G;
  const stats: SearchStats = { nodes: 0, solutions: 0, truncated: false };

  // The network: bonds (capacity 2 extra units), then atom–group edges (capacity 3 hydrogens).
  const edges: Array<readonly [number, number]> = g.bonds.map((b) => b);
  const cap: number[] = g.bonds.map(() => 2);
  g.groups.forEach((grp, k) => {
    for (const a of grp.atoms) {
      edges.push([a, n + k]);
      cap.push(MAX_MOBILE_PER_ATOM);
    }
  });
  const adj: number[][] = Array.from({ length: V }, () => []);
  edges.forEach(([a, b], e) => {
    adj[a]!.push(e);
    adj[b]!.push(e);
  });
  const greedy = new Uint8Array(edges.length);
  for (let e = g.bonds.length; e < edges.length; e++) if (g.atoms[edges[e]![0]]!.el === "N") greedy[e] = 1;
  const net: Network = { edges, cap, adj, greedy, groupEdges: g.bonds.length };
  const nbrs: number[][] = adj.map((es, i) => es.map((e) => (edges[e]![0] === i ? edges[e]![1] : edges[e]![0])));
  const edgeCap: number[][] = adj.map((es) => es.map((e) => cap[e]!));
  // Vertices whose units can only come through their one edge.
  const lonely = new Uint8Array(V);
  for (let i = 0; i < V; i++) lonely[i] = adj[i]!.length === 1 ? 1 : 0;
  const compOf = (i: number): number => (i < n ? g.atoms[i]!.comp : g.atoms[g.groups[i - n]!.atoms[0]!]!.comp);

  const domains: AtomState[][] = [];
  for (let i = 0; i < n; i++) {
    let dom = atomDomain(g, i, mode, false);
    if (dom.length === 0 && mode !== "full") dom = atomDomain(g, i, mode, true);
    domains.push(dom);
  }
  for (const grp of g.groups) domains.push(groupDomain(grp.count, g.protons));

  // Static capacity pruning until stable: e ≤ Σ min(edge capacity, max e of the neighbour).
  const maxE = new Int32Array(V);
  const refreshMax = (i: number): void => {
    let m = -1;
    for (const s of domains[i]!) if (s.e > m) m = s.e;
    maxE[i] = m;
  };
  for (let i = 0; i < V; i++) refreshMax(i);
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < V; i++) {
      let c = 0;
      nbrs[i]!.forEach((j, t) => (c += Math.min(edgeCap[i]![t]!, Math.max(0, maxE[j]!))));
      const dom = domains[i]!;
      const kept = dom.filter((s) => s.e <= c);
      if (kept.length !== dom.length) {
        domains[i] = kept;
        refreshMax(i);
        changed = true;
      }
    }
  }
  if (domains.some((d) => d.length === 0)) return stats;

  const constraints: SumConstraint[] = [];
  const compVertices: number[][] = g.compCharge.map(() => []);
  for (let i = 0; i < V; i++) compVertices[compOf(i)]!.push(i);
  g.compCharge.forEach((q, k) => {
    constraints.push({ target: q, vertices: compVertices[k]!, value: (s) => s.charge - s.dH });
  });
  if (g.protons !== 0) {
    const all: number[] = [];
    for (let i = 0; i < V; i++) all.push(i);
    constraints.push({ target: g.protons, vertices: all, value: (s) => s.dH });
  }
  const vertexConstraints: number[][] = Array.from({ length: V }, () => []);
  constraints.forEach((c, k) => {
    for (const a of c.vertices) vertexConstraints[a]!.push(k);
  });
  const cur = new Float64Array(constraints.length);
  const remMin = new Float64Array(constraints.length);
  const remMax = new Float64Array(constraints.length);
  const vMin: number[][] = [];
  const vMax: number[][] = [];
  for (let i = 0; i < V; i++) {
    vMin.push(vertexConstraints[i]!.map((k) => Math.min(...domains[i]!.map(constraints[k]!.value))));
    vMax.push(vertexConstraints[i]!.map((k) => Math.max(...domains[i]!.map(constraints[k]!.value))));
    vertexConstraints[i]!.forEach((k, t) => {
      remMin[k] = remMin[k]! + vMin[i]![t]!;
      remMax[k] = remMax[k]! + vMax[i]![t]!;
    });
  }

  const assigned: Array<AtomState | null> = new Array<AtomState | null>(V).fill(null);
  const assign = (i: number, s: AtomState): void => {
    assigned[i] = s;
    vertexConstraints[i]!.forEach((k, t) => {
      cur[k] = cur[k]! + constraints[k]!.value(s);
      remMin[k] = remMin[k]! - vMin[i]![t]!;
      remMax[k] = remMax[k]! - vMax[i]![t]!;
    });
  };
  const unassign = (i: number, s: AtomState): void => {
    assigned[i] = null;
    vertexConstraints[i]!.forEach((k, t) => {
      cur[k] = cur[k]! - constraints[k]!.value(s);
      remMin[k] = remMin[k]! + vMin[i]![t]!;
      remMax[k] = remMax[k]! + vMax[i]![t]!;
    });
  };
  const sumsOk = (i: number): boolean => {
    for (const k of vertexConstraints[i]!) {
      const t = constraints[k]!.target;
      if (cur[k]! + remMin[k]! > t || cur[k]! + remMax[k]! < t) return false;
    }
    return true;
  };
  const localOk = (x: number): boolean => {
    const s = assigned[x];
    if (s === null) return true;
    let c = 0;
    let lonelyNeed = 0;
    const nb = nbrs[x]!;
    for (let t = 0; t < nb.length; t++) {
      const j = nb[t]!;
      const a = assigned[j];
      const ec = edgeCap[x]![t]!;
      if (a === null) c += Math.min(ec, maxE[j]!);
      else {
        c += Math.min(ec, a.e);
        if (lonely[j]) lonelyNeed += a.e;
      }
    }
    return s.e <= c && lonelyNeed <= s.e;
  };
  const checkAround = (i: number): boolean => {
    if (!localOk(i)) return false;
    for (const j of nbrs[i]!) if (!localOk(j)) return false;
    return true;
  };

  // Variable order: depth-first preorder over the network, multi-state vertices only, so that
  // an atom's terminal neighbours (the O of C=O, S=O, N–O) follow it closely and a bad choice
  // is seen before the search goes deep.
  const order: number[] = [];
  const seen = new Uint8Array(V);
  for (let s = 0; s < V; s++) {
    if (seen[s]) continue;
    const stack = [s];
    while (stack.length > 0) {
      const i = stack.pop()!;
      if (seen[i]) continue;
      seen[i] = 1;
      if (domains[i]!.length > 1) order.push(i);
      const next = nbrs[i]!.filter((j) => !seen[j]);
      next.sort((a, b) => nbrs[b]!.length - nbrs[a]!.length);
      for (const j of next) stack.push(j);
    }
  }
  for (let i = 0; i < V; i++) if (domains[i]!.length === 1) assign(i, domains[i]![0]!);
  for (let i = 0; i < V; i++) {
    if (domains[i]!.length === 1 && (!sumsOk(i) || !localOk(i))) return stats;
  }

  const tried = new Set<string>();
  const finals = new Set<string>();
  let stop = false;
  const leaf = (): void => {
    const states = assigned as AtomState[];
    for (let k = 0; k < constraints.length; k++) if (cur[k] !== constraints[k]!.target) return;
    // Parity: bond units pair up, so atom needs minus group hand-outs are even per component.
    const parity = new Int32Array(g.compCharge.length);
    for (let i = 0; i < V; i++) parity[compOf(i)] = parity[compOf(i)]! + (i < n ? states[i]!.e : -states[i]!.e);
    for (const v of parity) if (v % 2 !== 0) return;
    let sig = "";
    for (const s of states) sig += `${s.charge},${s.dH},${s.radical},${s.e};`;
    if (tried.has(sig)) return;
    tried.add(sig);
    const need = states.map((s) => s.e);
    let cost = 0;
    for (const s of states) cost += s.cost;
    // One placement of the mobile hydrogens first; up to PLACEMENTS only when it was rejected.
    let placements = solveNetworkAll(net, need, 1);
    for (let t = 0; ; t++) {
      if (t === 1 && G > 0) placements = [placements[0]!, ...solveNetworkAll(net, need, PLACEMENTS).slice(1)];
      const x = placements[t];
      if (x === undefined) break;
      const atoms: FinalAtom[] = [];
      for (let i = 0; i < n; i++) atoms.push({ charge: states[i]!.charge, hydrogens: states[i]!.hydrogens, radical: states[i]!.radical });
      for (let e = g.bonds.length; e < edges.length; e++) {
        const a = edges[e]![0];
        atoms[a] = { ...atoms[a]!, hydrogens: atoms[a]!.hydrogens + x[e]! };
      }
      let fin = "";
      for (const a of atoms) fin += `${a.charge},${a.hydrogens},${a.radical};`;
      if (finals.has(fin)) continue;
      finals.add(fin);
      const orders = new Uint8Array(g.bonds.length);
      for (let b = 0; b < g.bonds.length; b++) orders[b] = 1 + x[b]!;
      stats.solutions++;
      if (visit({ atoms, orders, cost })) {
        stop = true;
        return;
      }
    }
  };

  // Iterative deepening on cost (IDA*). Lower bound of a partial assignment: its cost, plus for
  // the open vertices their cheapest non-charge cost, plus CHARGE_COST per unit of charge that
  // must still appear — at least the open atoms' unavoidable charges, and at least what the
  // charge layers demand (per component; over the whole structure when /p moves protons
  // between components). The threshold grows by at least MIN_STEP per round.
  const chargeCost = (st: AtomState): number => CHARGE_COST * Math.abs(st.charge);
  const buckets = g.protons === 0 ? g.compCharge.length : 1;
  const bucketOf = (i: number): number => (g.protons === 0 ? compOf(i) : 0);
  const bucketTarget = new Float64Array(buckets);
  if (g.protons === 0) g.compCharge.forEach((q, k) => (bucketTarget[k] = q));
  else bucketTarget[0] = g.compCharge.reduce((a, b) => a + b, 0) + g.protons;
  const minNonCharge = new Float64Array(V);
  const minAbs = new Float64Array(V);
  for (let i = 0; i < V; i++) {
    minNonCharge[i] = Math.min(...domains[i]!.map((st) => st.cost - chargeCost(st)));
    minAbs[i] = Math.min(...domains[i]!.map((st) => Math.abs(st.charge)));
  }
  let remNonCharge = 0;
  const remAbs = new Float64Array(buckets);
  const chargeNow = new Float64Array(buckets);
  let fixedCost = 0;
  for (let i = 0; i < V; i++) {
    if (domains[i]!.length === 1) {
      fixedCost += domains[i]![0]!.cost;
      chargeNow[bucketOf(i)] = chargeNow[bucketOf(i)]! + domains[i]![0]!.charge;
    } else {
      remNonCharge += minNonCharge[i]!;
      remAbs[bucketOf(i)] = remAbs[bucketOf(i)]! + minAbs[i]!;
    }
  }
  const chargeTerm = (k: number): number => CHARGE_COST * Math.max(remAbs[k]!, Math.abs(bucketTarget[k]! - chargeNow[k]!));
  let chargeTotal = 0;
  for (let k = 0; k < buckets; k++) chargeTotal += chargeTerm(k);
  let threshold = fixedCost + remNonCharge + chargeTotal;
  let next = Infinity;
  const dfs = (pos: number, cost: number): void => {
    if (stop) return;
    if (++stats.nodes > maxNodes || ((stats.nodes & 1023) === 0 && performance.now() > deadline)) {
      stats.truncated = true;
      stop = true;
      return;
    }
    if (pos === order.length) {
      leaf();
      return;
    }
    const i = order[pos]!;
    const k = bucketOf(i);
    const before = chargeTerm(k);
    remNonCharge -= minNonCharge[i]!;
    remAbs[k] = remAbs[k]! - minAbs[i]!;
    for (const s of domains[i]!) {
      chargeNow[k] = chargeNow[k]! + s.charge;
      const total = chargeTotal - before + chargeTerm(k);
      const f = cost + s.cost + remNonCharge + total;
      if (f > threshold) {
        if (f < next) next = f;
      } else {
        assign(i, s);
        const saved = chargeTotal;
        chargeTotal = total;
        if (sumsOk(i) && checkAround(i)) dfs(pos + 1, cost + s.cost);
        chargeTotal = saved;
        unassign(i, s);
      }
      chargeNow[k] = chargeNow[k]! - s.charge;
      if (stop) break;
    }
    remNonCharge += minNonCharge[i]!;
    remAbs[k] = remAbs[k]! + minAbs[i]!;
  };
  for (;;) {
    next = Infinity;
    dfs(0, fixedCost);
    if (stop || next === Infinity) break;
    threshold = Math.max(next, threshold + MIN_STEP);
  }
  return stats;
}
