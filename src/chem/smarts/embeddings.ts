/**
 * Diagnostic: the embeddings themselves, as query-atom → molecule-atom arrays (`embeddings`).
 * Only tests use it — test/unit/chem/smarts/match.test.ts checks that `countEmbeddings` equals
 * the number of distinct embeddings listed here — so index.ts does not export it. It is a
 * second, plain recursive enumeration (allocating, every molecule atom tried as the root, no
 * neighbour signatures, no rare-label root choice) rather than the counting search of
 * search.ts, which makes it a cross-check of that search; the two share the compiled query,
 * its search order and the evaluation of recursive predicates.
 */

import type { LabelledGraph } from "../labelled-graph.ts";
import type { SmartsQuery } from "./query.ts";
import { bindSlots, ensureWorkspace, evalProgram, passesPrefilter, prepareRecursive, toQuery } from "./search.ts";
import { prepareMolecule, type MolTarget } from "./target.ts";

/** The embeddings as query-atom → molecule-atom arrays (for tests and diagnostics; allocates). */
export function embeddings(query: SmartsQuery | string, mol: LabelledGraph | MolTarget, limit = 100000): Int32Array[] {
  const q = toQuery(query);
  const t = prepareMolecule(mol);
  const out: Int32Array[] = [];
  // Enumerate by anchoring the root on each candidate and extending one embedding at a time:
  // simple and only used off the hot path.
  for (let a = 0; a < t.size && out.length < limit; a++) {
    collect(q, t, a, out, limit);
  }
  return out;
}
function collect(q: SmartsQuery, t: MolTarget, root: number, out: Int32Array[], limit: number): void {
  // Plain recursive enumeration over order(0) with atom 0 fixed to `root`.
  if (!passesPrefilter(q, t)) return;
  prepareRecursive(q, t);
  const o = q.order(0);
  const map = new Int32Array(q.size);
  const used = new Uint8Array(t.size);
  const ok = (k: number, a: number): boolean => {
    const i = o.atom[k]!;
    if (!q.admits(i, t.labels[a]!) || t.degree[a]! < q.degree[i]!) return false;
    if (q.progStart[i]! >= 0) {
      bindSlots(q, t);
      ensureWorkspace(q.size, q.prog.length);
      if (!evalProgram(q, i, t, a)) return false;
    }
    for (let c = o.closeStart[k]!; c < o.closeStart[k + 1]!; c++) {
      const b = map[o.closePos[c]!]!;
      let bo = 0;
      for (let x = t.adjStart[a]!; x < t.adjStart[a + 1]!; x++) if (t.adjTo[x] === b) bo = t.adjBond[x]!;
      if (bo === 0 || ((o.closeBond[c]! >>> bo) & 1) === 0) return false;
    }
    return true;
  };
  const rec = (k: number): void => {
    if (out.length >= limit) return;
    if (k === q.size) {
      const e = new Int32Array(q.size);
      for (let p = 0; p < q.size; p++) e[o.atom[p]!] = map[p]!;
      out.push(e);
      return;
    }
    const pa = map[o.parent[k]!]!;
    for (let j = t.adjStart[pa]!; j < t.adjStart[pa + 1]!; j++) {
      const a = t.adjTo[j]!;
      if (used[a] || ((o.parentBond[k]! >>> t.adjBond[j]!) & 1) === 0 || !ok(k, a)) continue;
      map[k] = a;
      used[a] = 1;
      rec(k + 1);
      used[a] = 0;
    }
  };
  if (!ok(0, root)) return;
  map[0] = root;
  used[root] = 1;
  rec(1);
}
