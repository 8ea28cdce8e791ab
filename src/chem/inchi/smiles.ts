/**
 * SMILES writer for a decoded structure: the hand-off format to RDKit. Every atom is written as a
 * bracket atom with its hydrogen count, charge and isotope spelled out (`[CH3]`, `[N+]`,
 * `[13CH3]`), bonds in Kekulé form (`=`, `#`), ring closures from a depth-first spanning tree,
 * components joined by `.`. Deuterium and tritium are written as `[2H]` / `[3H]` atoms.
 * Tetrahedral and double-bond stereo come from the caller as SMILES marks per atom/bond.
 */
import { referenceMass } from "./elements.ts";
import type { Graph } from "./graph.ts";

export interface AtomSpec {
  readonly charge: number;
  readonly hydrogens: number;
  /** Isotope mass, 0 for natural abundance. */
  readonly mass: number;
  readonly deuterium: number;
  readonly tritium: number;
}

/**
 * Optional stereo marks. `chiral[i]` receives the atom's neighbours in the order the SMILES
 * writes them (−1 standing for the atom's implicit H, or for the lone pair of a three-coordinate
 * centre; −2 for a written isotopic H) and returns "@", "@@" or "".
 * `slash(bond, from)` returns "/", "\\" or "" for a single bond written from atom `from`.
 */
export interface StereoMarks {
  readonly chiral?: (atom: number, neighbours: readonly number[]) => string;
  readonly slash?: (bond: number, from: number) => string;
}

export function atomSpecs(g: Graph, hydrogens: readonly number[], charges: readonly number[], exchangeD = 0, exchangeT = 0): AtomSpec[] {
  const specs = g.atoms.map((a, i) => {
    const iso = a.iso;
    let mass = 0;
    if (iso !== undefined && iso.shift !== 0) {
      const ref = referenceMass(a.el);
      if (ref === undefined) throw new Error(`isotopic layer (/i): no reference mass for ${a.el}`);
      mass = ref + iso.shift;
    }
    return {
      charge: charges[i]!,
      hydrogens: hydrogens[i]!,
      mass,
      deuterium: iso?.d ?? 0,
      tritium: iso?.t ?? 0,
    };
  });
  // Exchangeable isotopic H (`/i/hD2`): on hydrogens of heteroatoms, in atom order.
  let d = exchangeD;
  let t = exchangeT;
  for (let i = 0; i < specs.length && (d > 0 || t > 0); i++) {
    const a = g.atoms[i]!;
    if (a.el === "C") continue;
    const s = specs[i]!;
    let free = s.hydrogens - s.deuterium - s.tritium;
    while (free > 0 && d > 0) {
      specs[i] = { ...specs[i]!, deuterium: specs[i]!.deuterium + 1 };
      free--;
      d--;
    }
    while (free > 0 && t > 0) {
      specs[i] = { ...specs[i]!, tritium: specs[i]!.tritium + 1 };
      free--;
      t--;
    }
  }
  return specs;
}

function ringLabel(n: number): string {
  return n < 10 ? String(n) : `%${n}`;
}

function bondSymbol(order: number): string {
  return order === 2 ? "=" : order === 3 ? "#" : "";
}

function atomText(el: string, s: AtomSpec, chirality: string): string {
  const h = s.hydrogens - s.deuterium - s.tritium;
  let text = "[";
  if (s.mass > 0) text += String(s.mass);
  text += el + chirality;
  if (h > 0) text += h === 1 ? "H" : `H${h}`;
  if (s.charge !== 0) {
    const sign = s.charge > 0 ? "+" : "-";
    text += Math.abs(s.charge) === 1 ? sign : `${sign}${Math.abs(s.charge)}`;
  }
  return text + "]";
}

/** The SMILES of the graph with the given bond orders and atom specs. */
export function writeSmiles(g: Graph, orders: ArrayLike<number>, specs: readonly AtomSpec[], marks: StereoMarks = {}): string {
  const n = g.atoms.length;
  const visited = new Uint8Array(n);
  const children: number[][] = Array.from({ length: n }, () => []);
  const rings: number[][] = Array.from({ length: n }, () => []);
  const isRing = new Uint8Array(g.bonds.length);
  const parentBond = new Int32Array(n).fill(-1);
  const other = (b: number, i: number): number => (g.bonds[b]![0] === i ? g.bonds[b]![1] : g.bonds[b]![0]);

  // Spanning forest (iterative DFS to stay clear of the call-stack limit on long chains).
  const roots: number[] = [];
  for (let s = 0; s < n; s++) {
    if (visited[s]) continue;
    roots.push(s);
    const stack: Array<[number, number]> = [[s, 0]];
    visited[s] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const [i, k] = top;
      const bs = g.atomBonds[i]!;
      if (k >= bs.length) {
        stack.pop();
        continue;
      }
      top[1] = k + 1;
      const b = bs[k]!;
      if (b === parentBond[i]) continue;
      const j = other(b, i);
      if (!visited[j]) {
        visited[j] = 1;
        parentBond[j] = b;
        children[i]!.push(b);
        stack.push([j, 0]);
      } else if (!isRing[b]) {
        isRing[b] = 1;
        rings[j]!.push(b);
        rings[i]!.push(b);
      }
    }
  }

  const labels = new Int32Array(g.bonds.length).fill(0);
  const free: number[] = [];
  let nextLabel = 1;
  const out: string[] = [];
  const slashOf = (b: number, from: number): string => (marks.slash === undefined ? "" : marks.slash(b, from));

  const writeAtom = (i: number): void => {
    const spec = specs[i]!;
    // Neighbour order as SMILES sees it: parent, implicit H, ring closures, children.
    let chirality = "";
    if (marks.chiral !== undefined) {
      const nb: number[] = [];
      if (parentBond[i]! >= 0) nb.push(other(parentBond[i]!, i));
      const h = spec.hydrogens - spec.deuterium - spec.tritium;
      // A lone pair of a three-coordinate centre stands where an implicit H would.
      if (h > 0 || g.atomBonds[i]!.length + spec.deuterium + spec.tritium === 3) nb.push(-1);
      for (const b of rings[i]!) nb.push(other(b, i));
      for (let k = 0; k < spec.deuterium + spec.tritium; k++) nb.push(-2);
      for (const b of children[i]!) nb.push(other(b, i));
      chirality = marks.chiral(i, nb);
    }
    out.push(atomText(g.atoms[i]!.el, spec, chirality));
    for (const b of rings[i]!) {
      if (labels[b] === 0) {
        const l = free.length > 0 ? free.shift()! : nextLabel++;
        labels[b] = l;
        out.push(bondSymbol(orders[b]!) + slashOf(b, i) + ringLabel(l));
      } else {
        const l = labels[b]!;
        out.push(bondSymbol(orders[b]!) + slashOf(b, i) + ringLabel(l));
        free.push(l);
        free.sort((x, y) => x - y);
      }
    }
    const isotopicH: string[] = [];
    for (let k = 0; k < spec.deuterium; k++) isotopicH.push("([2H])");
    for (let k = 0; k < spec.tritium; k++) isotopicH.push("([3H])");
    out.push(...isotopicH);
  };

  // Iterative preorder writer: a frame is (atom, next child index).
  for (let r = 0; r < roots.length; r++) {
    if (r > 0) out.push(".");
    const stack: Array<[number, number]> = [[roots[r]!, 0]];
    writeAtom(roots[r]!);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const [i, k] = top;
      const cs = children[i]!;
      if (k > 0 && k < cs.length) out.push(")");
      if (k >= cs.length) {
        stack.pop();
        continue;
      }
      top[1] = k + 1;
      const b = cs[k]!;
      const j = other(b, i);
      if (k < cs.length - 1) out.push("(");
      out.push(bondSymbol(orders[b]!) + slashOf(b, i));
      writeAtom(j);
      stack.push([j, 0]);
    }
  }
  return out.join("");
}
