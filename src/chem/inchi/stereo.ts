/**
 * Stereo layers → SMILES stereo marks.
 *
 * Tetrahedral (`/t`, with `/m`): InChI gives each stereocentre a parity `+`/`-` relative to its
 * neighbours ordered by canonical number (the InChI atom numbers), an implicit H or the lone
 * pair of a three-coordinate centre first; `-` is SMILES `@` for that order. `/m1` says the
 * structure is the mirror image of the listed parities. The SMILES writer tells us the order in
 * which it writes the neighbours; the tag `@`/`@@` follows from the permutation parity between
 * that order and InChI's.
 *
 * Double bonds (`/b a-b±`): the parity relates, at each end, the neighbour with the highest InChI
 * number (the other end excluded); `-` is cis, `+` trans. Marks are laid on the single bonds next
 * to the double bond (`/`, `\`), consistently when one single bond serves two stereo bonds.
 *
 * Conventions (which neighbour counts first, which tag a parity means) are fixed by the
 * round-trip tests against RDKit's InChI; unknown parities (`?`, `u`) are left unspecified.
 */
import type { Graph } from "./graph.ts";
import type { ParsedInchi } from "./parse.ts";
import type { Solution } from "./search.ts";
import type { StereoMarks } from "./smiles.ts";

/** Convention switches (see the module comment). */
const H_FIRST = true;
const MINUS_IS_CLOCKWISE = false;
const M1_FLIPS = true;
const HIGHEST_REFERENCE = true;

function permutationOdd(ranks: number[]): boolean {
  let odd = false;
  const a = ranks.slice();
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) if (a[i]! > a[j]!) odd = !odd;
  }
  return odd;
}

export function* stereoMarks(g: Graph, p: ParsedInchi, sol: Solution): Generator<StereoMarks> {
  // Desired tetrahedral parities by global atom.
  const tetra = new Map<number, string>();
  const bondOf = new Map<number, number>();
  g.bonds.forEach(([a, b], i) => bondOf.set(a * 1000003 + b, i).set(b * 1000003 + a, i));
  const nbrs = (i: number): number[] => g.atomBonds[i]!.map((b) => (g.bonds[b]![0] === i ? g.bonds[b]![1] : g.bonds[b]![0]));
  const doubles: Array<{ bond: number; u: number; v: number; trans: boolean }> = [];
  p.components.forEach((c, k) => {
    const off = g.compStart[k]!;
    for (const [a, par] of c.tetra) {
      if (par !== "+" && par !== "-") continue;
      const flip = c.inverted === M1_FLIPS;
      tetra.set(off + a, (par === "-") !== flip ? "-" : "+");
    }
    for (const [a, b, par] of c.doubleBonds) {
      if (par !== "+" && par !== "-") continue;
      const bond = bondOf.get((off + a) * 1000003 + off + b);
      if (bond === undefined || sol.orders[bond] !== 2) continue;
      doubles.push({ bond, u: off + a, v: off + b, trans: par === "+" });
    }
  });

  const chiral = (atom: number, order: readonly number[]): string => {
    const par = tetra.get(atom);
    if (par === undefined) return "";
    // Ranks: InChI numbers within the component; implicit H (−1) first or last.
    const ranks = order.map((j) => (j < 0 ? (H_FIRST ? j : 1e9 - j) : g.atoms[j]!.local));
    const odd = permutationOdd(ranks);
    // With 3 written neighbours the lone pair / H stands where the H would be: first.
    const clockwise = (par === "-") === MINUS_IS_CLOCKWISE;
    return clockwise !== odd ? "@@" : "@";
  };

  // Marks on single bonds. side[bond] = +1 when the atom with the larger index is "up"
  // relative to the other. Each stereo double bond wants, for the single bonds at its ends,
  // marks fixed up to one flip of all of them; a single bond between two stereo double bonds
  // ties their flips together, so flips are chosen by a walk over those ties.
  const wants: Array<Map<number, number>> = [];
  for (const d of doubles) {
    const ends: Array<[number, number]> = [
      [d.u, d.v],
      [d.v, d.u],
    ];
    const refs: number[] = [];
    for (const [x, y] of ends) {
      const cand = nbrs(x).filter((j) => j !== y);
      if (cand.length === 0) break;
      cand.sort((a, b) => g.atoms[a]!.local - g.atoms[b]!.local);
      refs.push(HIGHEST_REFERENCE ? cand[cand.length - 1]! : cand[0]!);
    }
    const want = new Map<number, number>();
    if (refs.length === 2) {
      // Side of the reference of u: up; of the reference of v: down when trans.
      const assignEnd = (x: number, y: number, ref: number, up: number): void => {
        for (const j of nbrs(x)) {
          if (j === y) continue;
          const b = bondOf.get(x * 1000003 + j)!;
          if (sol.orders[b] !== 1) continue;
          const rel = j === ref ? up : -up; // side of j relative to x
          want.set(b, x < j ? rel : -rel);
        }
      };
      assignEnd(d.u, d.v, refs[0]!, 1);
      assignEnd(d.v, d.u, refs[1]!, d.trans ? -1 : 1);
    }
    wants.push(want);
  }
  const byBond = new Map<number, number[]>();
  wants.forEach((w, k) => {
    for (const b of w.keys()) {
      const list = byBond.get(b);
      if (list === undefined) byBond.set(b, [k]);
      else list.push(k);
    }
  });
  const flip = new Int8Array(doubles.length);
  for (let s0 = 0; s0 < doubles.length; s0++) {
    if (flip[s0] !== 0) continue;
    flip[s0] = 1;
    const queue = [s0];
    while (queue.length > 0) {
      const k = queue.pop()!;
      for (const [b, v] of wants[k]!) {
        for (const k2 of byBond.get(b)!) {
          if (k2 === k || flip[k2] !== 0) continue;
          // Same mark on b: flip[k]·v = flip[k2]·v2.
          flip[k2] = flip[k]! * v * wants[k2]!.get(b)! > 0 ? 1 : -1;
          queue.push(k2);
        }
      }
    }
  }
  const side = new Map<number, number>();
  wants.forEach((w, k) => {
    for (const [b, v] of w) if (!side.has(b)) side.set(b, v * flip[k]!);
  });
  const slash = (b: number, from: number): string => {
    const s = side.get(b);
    if (s === undefined) return "";
    const [a0, a1] = g.bonds[b]!;
    const to = a0 === from ? a1 : a0;
    // Side of `to` relative to `from`: "/" means up.
    const rel = from < to ? s : -s;
    return rel > 0 ? "/" : "\\";
  };
  yield { chiral, slash };
}
