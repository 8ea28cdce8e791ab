/**
 * The heavy-atom graph of a parsed InChI: all components side by side, global atom indices,
 * adjacency, mobile-H groups and per-component charges.
 */
import type { AtomIsotope, ParsedInchi } from "./parse.ts";

export interface GraphAtom {
  readonly el: string;
  /** Fixed hydrogens from `/h`. */
  readonly h: number;
  readonly comp: number;
  /** Index into Graph.groups, −1 when the atom is in no mobile-H group. */
  readonly group: number;
  /** Index of the atom within its component (InChI number − 1). */
  readonly local: number;
  readonly iso: AtomIsotope | undefined;
}

export interface GraphGroup {
  readonly count: number;
  readonly minus: number;
  readonly atoms: readonly number[];
}

export interface Graph {
  readonly atoms: readonly GraphAtom[];
  readonly bonds: ReadonlyArray<readonly [number, number]>;
  /** Bond indices at each atom. */
  readonly atomBonds: readonly (readonly number[])[];
  readonly groups: readonly GraphGroup[];
  readonly compCharge: readonly number[];
  readonly compStart: readonly number[];
  readonly protons: number;
}

export function other(g: Graph, bond: number, atom: number): number {
  const b = g.bonds[bond]!;
  return b[0] === atom ? b[1] : b[0];
}

export function buildGraph(p: ParsedInchi): Graph {
  const atoms: GraphAtom[] = [];
  const bonds: Array<readonly [number, number]> = [];
  const groups: GraphGroup[] = [];
  const compCharge: number[] = [];
  const compStart: number[] = [];
  p.components.forEach((c, k) => {
    const offset = atoms.length;
    compStart.push(offset);
    compCharge.push(c.charge);
    const groupOf = new Array<number>(c.elements.length).fill(-1);
    for (const m of c.mobile) {
      const gi = groups.length;
      groups.push({ count: m.count, minus: m.minus, atoms: m.atoms.map((a) => a + offset) });
      for (const a of m.atoms) groupOf[a] = gi;
    }
    c.elements.forEach((el, i) => {
      atoms.push({ el, h: c.fixedH[i]!, comp: k, group: groupOf[i]!, local: i, iso: c.isotopes.get(i) });
    });
    for (const [a, b] of c.bonds) bonds.push([a + offset, b + offset]);
  });
  const atomBonds: number[][] = atoms.map(() => []);
  bonds.forEach(([a, b], i) => {
    atomBonds[a]!.push(i);
    atomBonds[b]!.push(i);
  });
  return { atoms, bonds, atomBonds, groups, compCharge, compStart, protons: p.protons };
}
