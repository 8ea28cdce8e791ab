/**
 * The compact molecule graph every 2D descriptor works on, read once per molecule from RDKit's
 * CommonChem JSON (`mol.get_json()`), plus the intermediate results descriptors share (distance
 * matrix, Gasteiger–Marsili charges, effective polarizabilities, connectivity subgraphs), each
 * computed lazily at most once per molecule.
 *
 * The graph is **H-depleted**: hydrogens are counts on their heavy atom (RDKit's `impHs`, plus
 * any explicit hydrogen atom RDKit kept, e.g. `[2H]`, folded into its neighbour). CDK descriptors
 * that need explicit hydrogens (BCUT, ATSp, bpol, apol) expand them arithmetically from the
 * counts: every H is a terminal atom on its heavy atom, so H–X distances are d(X, heavy) + 1.
 *
 * Bond orders are RDKit's Kekulé orders (1, 2, 3); aromaticity is RDKit's (flags from the
 * `rdkitRepresentation` extension). CDK used its own Hückel model: for ordinary organic
 * molecules the two agree; where they differ (e.g. some fused heteroaromatics, exocyclic
 * double bonds) aromaticity-dependent values (naAromAtom, nAromBond, TopoPSA, khs.aa*, BCUT
 * off-diagonals) follow RDKit.
 */

/** Element symbols by atomic number (0 = dummy atom). */
export const SYMBOLS: readonly string[] = (
  "* H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr " +
  "Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb " +
  "Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr"
).split(" ");

/**
 * The H-depleted molecule graph of the descriptors: heavy atoms with their element, hydrogen
 * count, charge and aromaticity; bonds with Kekulé order and aromaticity; CSR adjacency. (The
 * miners and the SMARTS matcher use another graph, chem/labelled-graph.ts `LabelledGraph`,
 * which keeps one integer label per atom and per bond and nothing else.)
 */
export interface HDepletedGraph {
  /** Number of (heavy) atoms. */
  readonly n: number;
  /** Atomic number per atom. */
  readonly z: Uint8Array;
  /** Hydrogens on each atom (implicit + folded explicit). */
  readonly h: Uint8Array;
  /** Formal charge per atom. */
  readonly charge: Int8Array;
  /** 1 when RDKit perceives the atom as aromatic. */
  readonly arom: Uint8Array;
  /** Number of bonds between (heavy) atoms. */
  readonly m: number;
  readonly bondA: Int32Array;
  readonly bondB: Int32Array;
  /** Kekulé bond order 1, 2, 3 (0 for RDKit's zero-order/dative bonds). */
  readonly order: Uint8Array;
  /** 1 when RDKit perceives the bond as aromatic. */
  readonly bondArom: Uint8Array;
  /** CSR adjacency: neighbours of atom i are adjAtom[adjStart[i] .. adjStart[i+1]), via bond adjBond[…]. */
  readonly adjStart: Int32Array;
  readonly adjAtom: Int32Array;
  readonly adjBond: Int32Array;
  /** Heavy degree. */
  readonly degree: Uint8Array;
  /** Number of atoms including hydrogens (n + Σ h). */
  readonly total: number;
}

interface CommonChemAtom {
  z?: number;
  impHs?: number;
  chg?: number;
}
interface CommonChemBond {
  bo?: number;
  atoms: [number, number];
}
interface CommonChemMolecule {
  atoms: CommonChemAtom[];
  bonds?: CommonChemBond[];
  extensions?: { name: string; aromaticAtoms?: number[]; aromaticBonds?: number[] }[];
}
interface CommonChem {
  defaults?: { atom?: CommonChemAtom; bond?: { bo?: number } };
  molecules: CommonChemMolecule[];
}

/**
 * Build the H-depleted graph from RDKit's CommonChem JSON. Hydrogen atoms bonded to exactly one
 * non-hydrogen atom are folded into that atom's H count; any other hydrogen (H2, [H+]) stays an
 * atom of its own.
 */
export function graphFromJson(json: string): HDepletedGraph {
  const doc = JSON.parse(json) as CommonChem;
  const mol = doc.molecules[0];
  if (mol === undefined) throw new Error("RDKit JSON without a molecule");
  const defAtom = doc.defaults?.atom ?? {};
  const defZ = defAtom.z ?? 6;
  const defH = defAtom.impHs ?? 0;
  const defChg = defAtom.chg ?? 0;
  const defBo = doc.defaults?.bond?.bo ?? 1;
  const atoms = mol.atoms;
  const bonds = mol.bonds ?? [];
  const na = atoms.length;
  const ext = mol.extensions?.find((e) => e.name === "rdkitRepresentation");
  const aromAtoms = new Uint8Array(na);
  for (const i of ext?.aromaticAtoms ?? []) aromAtoms[i] = 1;
  const aromBonds = new Uint8Array(bonds.length);
  for (const i of ext?.aromaticBonds ?? []) aromBonds[i] = 1;

  const zs = new Uint8Array(na);
  for (let i = 0; i < na; i++) zs[i] = atoms[i]!.z ?? defZ;
  // Which hydrogens fold: exactly one bond, to a non-hydrogen atom.
  const bondCount = new Int32Array(na);
  for (const b of bonds) {
    bondCount[b.atoms[0]]++;
    bondCount[b.atoms[1]]++;
  }
  const fold = new Uint8Array(na);
  for (const b of bonds) {
    const [a, c] = b.atoms;
    if (zs[a] === 1 && zs[c] !== 1 && bondCount[a] === 1 && (atoms[a]!.chg ?? defChg) === 0) fold[a] = 1;
    if (zs[c] === 1 && zs[a] !== 1 && bondCount[c] === 1 && (atoms[c]!.chg ?? defChg) === 0) fold[c] = 1;
  }
  const index = new Int32Array(na).fill(-1);
  let n = 0;
  for (let i = 0; i < na; i++) if (!fold[i]) index[i] = n++;
  const z = new Uint8Array(n);
  const h = new Uint8Array(n);
  const charge = new Int8Array(n);
  const arom = new Uint8Array(n);
  for (let i = 0; i < na; i++) {
    const k = index[i]!;
    if (k < 0) continue;
    const a = atoms[i]!;
    z[k] = zs[i]!;
    h[k] = a.impHs ?? defH;
    charge[k] = a.chg ?? defChg;
    arom[k] = aromAtoms[i]!;
  }
  let m = 0;
  for (const b of bonds) {
    const [a, c] = b.atoms;
    if (fold[a]) h[index[c]!]++;
    else if (fold[c]) h[index[a]!]++;
    else m++;
  }
  const bondA = new Int32Array(m);
  const bondB = new Int32Array(m);
  const order = new Uint8Array(m);
  const bondArom = new Uint8Array(m);
  const degree = new Uint8Array(n);
  let k = 0;
  bonds.forEach((b, bi) => {
    const [a, c] = b.atoms;
    if (fold[a] || fold[c]) return;
    bondA[k] = index[a]!;
    bondB[k] = index[c]!;
    order[k] = b.bo ?? defBo;
    bondArom[k] = aromBonds[bi]!;
    degree[index[a]!]++;
    degree[index[c]!]++;
    k++;
  });
  const adjStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) adjStart[i + 1] = adjStart[i]! + degree[i]!;
  const fill = adjStart.slice(0, n);
  const adjAtom = new Int32Array(2 * m);
  const adjBond = new Int32Array(2 * m);
  for (let b = 0; b < m; b++) {
    const a = bondA[b]!;
    const c = bondB[b]!;
    adjAtom[fill[a]!] = c;
    adjBond[fill[a]!++] = b;
    adjAtom[fill[c]!] = a;
    adjBond[fill[c]!++] = b;
  }
  let total = n;
  for (let i = 0; i < n; i++) total += h[i]!;
  return { n, z, h, charge, arom, m, bondA, bondB, order, bondArom, adjStart, adjAtom, adjBond, degree, total };
}

/** Unreachable distance (disconnected fragments). */
export const FAR = 0xffff;

/**
 * All-pairs topological distances by BFS from every atom (n BFS on a sparse graph), as a flat
 * n×n Uint16Array; FAR for pairs in different fragments.
 */
export function distanceMatrix(g: HDepletedGraph): Uint16Array {
  const n = g.n;
  const d = new Uint16Array(n * n).fill(FAR);
  const queue = new Int32Array(n);
  for (let s = 0; s < n; s++) {
    const row = s * n;
    d[row + s] = 0;
    let head = 0;
    let tail = 0;
    queue[tail++] = s;
    while (head < tail) {
      const v = queue[head++]!;
      const dv = d[row + v]! + 1;
      for (let p = g.adjStart[v]!, e = g.adjStart[v + 1]!; p < e; p++) {
        const w = g.adjAtom[p]!;
        if (d[row + w] === FAR) {
          d[row + w] = dv;
          queue[tail++] = w;
        }
      }
    }
  }
  return d;
}

/**
 * Ring bonds: a bond is in a ring iff it is not a bridge of the graph (Tarjan's bridge finding,
 * iterative). Returns 1 per ring bond.
 */
export function ringBonds(g: HDepletedGraph): Uint8Array {
  const n = g.n;
  const inRing = new Uint8Array(g.m).fill(1);
  const disc = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const parentBond = new Int32Array(n).fill(-1);
  const iter = new Int32Array(n);
  const stack = new Int32Array(n);
  let time = 0;
  for (let r = 0; r < n; r++) {
    if (disc[r] !== -1) continue;
    let sp = 0;
    stack[sp++] = r;
    disc[r] = low[r] = time++;
    iter[r] = g.adjStart[r]!;
    while (sp > 0) {
      const v = stack[sp - 1]!;
      if (iter[v]! < g.adjStart[v + 1]!) {
        const p = iter[v]!++;
        const w = g.adjAtom[p]!;
        const b = g.adjBond[p]!;
        if (b === parentBond[v]) continue;
        if (disc[w] === -1) {
          parentBond[w] = b;
          disc[w] = low[w] = time++;
          iter[w] = g.adjStart[w]!;
          stack[sp++] = w;
        } else if (disc[w]! < low[v]!) low[v] = disc[w]!;
      } else {
        sp--;
        const pb = parentBond[v]!;
        if (pb >= 0) {
          const u = g.bondA[pb] === v ? g.bondB[pb]! : g.bondA[pb]!;
          if (low[v]! < low[u]!) low[u] = low[v]!;
          if (low[v]! > disc[u]!) inRing[pb] = 0;
        }
      }
    }
  }
  return inRing;
}

/** Highest Kekulé bond order at each atom (0 when the atom has no bonds to heavy atoms). */
export function maxBondOrder(g: HDepletedGraph): Uint8Array {
  const out = new Uint8Array(g.n);
  for (let b = 0; b < g.m; b++) {
    const o = g.order[b]!;
    if (o > out[g.bondA[b]!]!) out[g.bondA[b]!] = o;
    if (o > out[g.bondB[b]!]!) out[g.bondB[b]!] = o;
  }
  return out;
}
