/**
 * Matching compiled SMARTS queries (query.ts) against prepared molecules (target.ts):
 * `matches` and `countEmbeddings`.
 *
 * Semantics (= fminer's embeddings, = OpenBabel's `OBSmartsPattern` map list): non-induced
 * subgraph isomorphism of the query into the heavy-atom graph; an atom label is Z, or Z + 150
 * for an aromatic atom; `a`/`A` test that flag; bond labels are 1/2/3 and 4 (aromatic).
 * `countEmbeddings` counts every injective mapping of the query atoms, automorphic images
 * included (fminer's hit counts, nr_hits: the pattern `[#6&a]:[#6&a]` has 12 embeddings in
 * benzene). A recursive `$(…)` is an atom predicate and does not multiply the count.
 *
 * Matching: backtracking in VF2 style over a per-query atom order (each atom after the first is
 * a neighbour of an earlier one, so candidates come from one adjacency list; ring-closure
 * edges are checked against already mapped atoms; rare labels and bonds are placed first).
 * The first atom is the one whose label is rarest in the molecule. A candidate atom must have
 * the label, at least the degree and every (bond, label) neighbour the query atom requires
 * (32-bit neighbour signatures). Recursive `$(…)` predicates are evaluated once per molecule
 * atom and cached on the molecule. All search state lives in preallocated typed arrays; a
 * search allocates nothing.
 *
 * Before any search, a query checks its size, required (bond, label, label) edge types (256-bit
 * hash set) and required label counts against the molecule's.
 *
 * The helpers exported besides `matches` and `countEmbeddings` serve query-set.ts and
 * embeddings.ts; index.ts does not export them.
 */

import type { LabelledGraph } from "../labelled-graph.ts";
import { W } from "./labels.ts";
import { compileSmarts } from "./parse.ts";
import { OP_AND, OP_MASK, OP_NOT, OP_REC, type Order, type SmartsQuery } from "./query.ts";
import { prepareMolecule, type MolTarget } from "./target.ts";

/** Preallocated search state (searches never nest: recursive sub-queries are evaluated first). */
const ws = {
  map: new Int32Array(64),
  iter: new Int32Array(64),
  end: new Int32Array(64),
  stack: new Uint8Array(64),
  rec: [] as Uint8Array[],
};
export function ensureWorkspace(n: number, progLen: number): void {
  if (ws.map.length < n) {
    const m = Math.max(n, ws.map.length * 2);
    ws.map = new Int32Array(m);
    ws.iter = new Int32Array(m);
    ws.end = new Int32Array(m);
  }
  if (ws.stack.length < progLen) ws.stack = new Uint8Array(Math.max(progLen, ws.stack.length * 2));
}

/** Evaluate atom i's recursive expression program on target atom a. */
export function evalProgram(q: SmartsQuery, i: number, t: MolTarget, a: number): boolean {
  const prog = q.prog;
  const stack = ws.stack;
  const l = t.labels[a]!;
  let sp = 0;
  let pc = q.progStart[i]!;
  const end = q.progEnd[i]!;
  while (pc < end) {
    switch (prog[pc]!) {
      case OP_MASK:
        stack[sp++] = (q.progMasks[prog[pc + 1]! * W + (l >> 5)]! >>> (l & 31)) & 1;
        pc += 2;
        break;
      case OP_REC:
        stack[sp++] = ws.rec[prog[pc + 1]!]![a]!;
        pc += 2;
        break;
      case OP_NOT:
        stack[sp - 1] = stack[sp - 1]! ^ 1;
        pc++;
        break;
      case OP_AND:
        sp--;
        stack[sp - 1] = stack[sp - 1]! & stack[sp]!;
        pc++;
        break;
      default:
        sp--;
        stack[sp - 1] = stack[sp - 1]! | stack[sp]!;
        pc++;
        break;
    }
  }
  return stack[0] === 1;
}

/** Make sure the results of q's recursive sub-queries are known on t. */
export function prepareRecursive(q: SmartsQuery, t: MolTarget): void {
  for (const r of q.recursive) {
    if (t.recursive.has(r.uid)) continue;
    const res = new Uint8Array(t.size);
    bindSlots(r, t);
    const o = r.order(0);
    for (let a = 0; a < t.size; a++) {
      if (r.admits(0, t.labels[a]!) && t.degree[a]! >= r.degree[0]!) res[a] = search(r, o, t, a, a + 1, 1) > 0 ? 1 : 0;
    }
    t.recursive.set(r.uid, res);
  }
  bindSlots(q, t);
}
export function bindSlots(q: SmartsQuery, t: MolTarget): void {
  for (let s = 0; s < q.slots.length; s++) ws.rec[s] = t.recursive.get(q.slots[s]!.uid)!;
}

/**
 * Backtracking over the order o; root candidates are target atoms rootFrom…rootTo-1 (or the
 * atoms of one label when rootTo < 0: byLabel[rootFrom…-rootTo-1]). Stops after `limit`
 * embeddings. Returns the number found.
 */
function search(q: SmartsQuery, o: Order, t: MolTarget, rootFrom: number, rootTo: number, limit: number): number {
  const n = q.size;
  ensureWorkspace(n, q.prog.length);
  const map = ws.map;
  const iter = ws.iter;
  const end = ws.end;
  const used = t.used;
  const labels = t.labels;
  const tdeg = t.degree;
  const tsig = t.neighbourSig;
  const qsig = q.neighbourSig;
  const adjStart = t.adjStart;
  const adjTo = t.adjTo;
  const adjBond = t.adjBond;
  const qAtom = o.atom;
  const parent = o.parent;
  const parentBond = o.parentBond;
  const closeStart = o.closeStart;
  const closePos = o.closePos;
  const closeBond = o.closeBond;
  const masks = q.masks;
  const qdeg = q.degree;
  const progStart = q.progStart;
  const byLabel = rootTo < 0;
  let count = 0;
  let k = 0;
  iter[0] = rootFrom;
  end[0] = byLabel ? -rootTo - 1 : rootTo;
  for (;;) {
    // Next candidate for position k.
    const i = qAtom[k]!;
    const mOff = i * W;
    const minDeg = qdeg[i]!;
    const sig = qsig[i]!;
    const hasProg = progStart[i]! >= 0;
    let found = -1;
    if (k === 0) {
      while (iter[0]! < end[0]!) {
        const a = byLabel ? t.byLabel[iter[0]!]! : iter[0]!;
        iter[0]!++;
        const l = labels[a]!;
        if (((masks[mOff + (l >> 5)]! >>> (l & 31)) & 1) === 0 || tdeg[a]! < minDeg || (sig & ~tsig[a]!) !== 0) continue;
        if (hasProg && !evalProgram(q, i, t, a)) continue;
        found = a;
        break;
      }
    } else {
      const bm = parentBond[k]!;
      const c0 = closeStart[k]!;
      const c1 = closeStart[k + 1]!;
      while (iter[k]! < end[k]!) {
        const j = iter[k]!++;
        const a = adjTo[j]!;
        if (used[a] === 1 || ((bm >>> adjBond[j]!) & 1) === 0) continue;
        const l = labels[a]!;
        if (((masks[mOff + (l >> 5)]! >>> (l & 31)) & 1) === 0 || tdeg[a]! < minDeg || (sig & ~tsig[a]!) !== 0) continue;
        if (c0 < c1) {
          let ok = true;
          for (let c = c0; c < c1 && ok; c++) {
            const b = map[closePos[c]!]!;
            const cm = closeBond[c]!;
            ok = false;
            for (let x = adjStart[a]!, xe = adjStart[a + 1]!; x < xe; x++) {
              if (adjTo[x] === b) {
                ok = ((cm >>> adjBond[x]!) & 1) === 1;
                break;
              }
            }
          }
          if (!ok) continue;
        }
        if (hasProg && !evalProgram(q, i, t, a)) continue;
        found = a;
        break;
      }
    }
    if (found < 0) {
      if (k === 0) return count;
      k--;
      used[map[k]!] = 0;
      continue;
    }
    if (k === n - 1) {
      count++;
      if (count >= limit) {
        for (let p = 0; p < k; p++) used[map[p]!] = 0;
        return count;
      }
      continue; // next candidate at the same position
    }
    map[k] = found;
    used[found] = 1;
    k++;
    const pa = map[parent[k]!]!;
    iter[k] = adjStart[pa]!;
    end[k] = adjStart[pa + 1]!;
  }
}

/**
 * Root choice: the atom with the fewest candidates in t (exact labels: atoms of that label;
 * other atoms: atoms of any admitted label), ties → higher degree. Returns -1 when some atom
 * has no candidate at all.
 */
function chooseRoot(q: SmartsQuery, t: MolTarget): number {
  let best = -1;
  let bestCount = Infinity;
  for (let i = 0; i < q.size; i++) {
    let c = 0;
    const ex = q.exactLabel[i]!;
    if (ex >= 0) c = t.count(ex);
    else for (let d = 0; d < t.distinct.length; d++) if (q.admits(i, t.distinct[d]!)) c += t.count(t.distinct[d]!);
    if (c === 0) return -1;
    if (c < bestCount || (c === bestCount && q.degree[i]! > q.degree[best]!)) {
      best = i;
      bestCount = c;
    }
  }
  return best;
}

/**
 * Quick necessary conditions (sizes, required edge types, required label counts) and the
 * search root: the exact-label atom whose label is rarest in t (ties: first label listed),
 * or, for queries without exact labels, `chooseRoot`. Returns -1 when q cannot occur in t.
 */
function prefilterAndRoot(q: SmartsQuery, t: MolTarget): number {
  if (q.size > t.size || q.nEdges > t.nBonds) return -1;
  const qe = q.requiredEdges;
  const te = t.edgeTypes;
  for (let k = 0; k < qe.length; k++) if (te[qe[k]!] === 0) return -1;
  const req = q.requiredLabels;
  const cnt = t.labelCount;
  let root = -1;
  let best = 0x7fffffff;
  for (let k = 0; k < req.length; k += 3) {
    const c = cnt[req[k]!]!;
    if (c < req[k + 1]!) return -1;
    if (c < best) {
      best = c;
      root = req[k + 2]!;
    }
  }
  return root >= 0 ? root : chooseRoot(q, t);
}

export function passesPrefilter(q: SmartsQuery, t: MolTarget): boolean {
  return prefilterAndRoot(q, t) >= 0;
}

export function run(q: SmartsQuery, t: MolTarget, limit: number): number {
  if (limit <= 0) return 0;
  const root = prefilterAndRoot(q, t);
  if (root < 0) return 0;
  if (q.recursive.length > 0) prepareRecursive(q, t);
  const o = q.order(root);
  const ex = q.exactLabel[root]!;
  if (ex >= 0) return search(q, o, t, t.byLabelStart[ex]!, -t.byLabelStart[ex + 1]! - 1, limit);
  return search(q, o, t, 0, t.size, limit);
}

export function toQuery(q: SmartsQuery | string): SmartsQuery {
  return typeof q === "string" ? compileSmarts(q) : q;
}

/** Does the query occur in the molecule? */
export function matches(query: SmartsQuery | string, mol: LabelledGraph | MolTarget): boolean {
  return run(toQuery(query), prepareMolecule(mol), 1) > 0;
}

/**
 * Number of embeddings (injective atom mappings, automorphic images counted separately: fminer's
 * and OpenBabel's hit count), at most `limit`.
 */
export function countEmbeddings(query: SmartsQuery | string, mol: LabelledGraph | MolTarget, limit = Number.MAX_SAFE_INTEGER): number {
  return run(toQuery(query), prepareMolecule(mol), limit);
}
