/**
 * Molecule graphs as fminer encodes them, read from SMILES with RDKit: the graphs the miners
 * (src/mining/) search and the SMARTS matcher (./smarts/) matches patterns on.
 *
 * - heavy atoms only (hydrogens dropped), no charges, isotopes, stereo or H counts;
 * - node label = atomic number, + 150 when the atom is aromatic (aromatic perception on);
 * - edge label = bond order 1/2/3, 4 for aromatic bonds (aromatic perception on), else the
 *   Kekulé bond order;
 * - salts / several components stay one graph.
 *
 * fminer used OpenBabel's aromaticity model; RDKit's is used here. The two agree for the usual
 * benzenoid and heteroaromatic rings; where they differ the encoding (hence patterns) differs.
 */

import type { RDKit, RDKitMol } from "./rdkit.ts";

/**
 * Heavy-atom graph of one compound with fminer's input labels: one integer per atom and per
 * bond, nothing else (no hydrogens, charges or stereo). Not the descriptors' graph
 * (descriptors/graph.ts `HDepletedGraph`, which keeps hydrogen counts, charges and Kekulé
 * orders beside aromaticity).
 */
export interface LabelledGraph {
  /** Input node label per atom: Z, or Z + 150 for aromatic atoms. */
  readonly labels: Int32Array;
  /** Bonds as triples (atom a, atom b, bond label 1..4), in the toolkit's bond order. */
  readonly bonds: Int32Array;
}

/** An encoded compound, with the standard InChI that fminer's canonical compound order sorts by. */
export interface EncodedCompound {
  readonly graph: LabelledGraph;
  readonly inchi: string;
}

interface CommonChemAtom {
  z?: number;
  chg?: number;
}
interface CommonChemBond {
  bo?: number;
  atoms: [number, number];
}
interface CommonChemExtension {
  name: string;
  aromaticAtoms?: number[];
  aromaticBonds?: number[];
}
interface CommonChem {
  defaults?: { atom?: { z?: number }; bond?: { bo?: number } };
  molecules: { atoms: CommonChemAtom[]; bonds: CommonChemBond[]; extensions?: CommonChemExtension[] }[];
}

/**
 * RDKit parse options when only the graph is needed: explicit hydrogens are dropped below
 * anyway, and stereo perception does not touch atoms, aromaticity or bond orders. Together a
 * third cheaper than the default parse (Kazius: 0.40 against 0.62 s). The InChI needs the
 * default parse (stereo layers), so `encodeSmiles` keeps it.
 */
const GRAPH_ONLY = JSON.stringify({ removeHs: false, assignStereo: false });
const UNSANITISED = JSON.stringify({ sanitize: false });

/**
 * Encode one SMILES. Returns null when RDKit cannot parse it at all (fminer would drop such a
 * compound as well, OpenBabel printing an error) or cannot write its InChI.
 */
export function encodeSmiles(rdkit: RDKit, smiles: string, aromatic = true): EncodedCompound | null {
  let inchi = "";
  const graph = withMolecule(rdkit, smiles, null, (mol) => {
    // RDKit's InChI writer throws on some unsanitisable molecules (bloodbarr's `[cH+]`
    // nucleoside); without an InChI the compound has no place in the order and is dropped.
    try {
      inchi = mol.get_inchi();
    } catch {
      inchi = "";
    }
  }, aromatic);
  return graph === null || inchi === "" ? null : { graph, inchi };
}

/**
 * The graph alone, without the InChI: for compounds whose InChI is known already (the
 * service's compounds are identified by it) and for query molecules, which are only matched.
 * Equal to `encodeSmiles(…).graph` (tested over the shared data sets).
 */
export function encodeGraph(rdkit: RDKit, smiles: string, aromatic = true): LabelledGraph | null {
  return withMolecule(rdkit, smiles, GRAPH_ONLY, null, aromatic);
}

function withMolecule(rdkit: RDKit, smiles: string, options: string | null, visit: ((mol: RDKitMol) => void) | null, aromatic: boolean): LabelledGraph | null {
  let mol = options === null ? rdkit.get_mol(smiles) : rdkit.get_mol(smiles, options);
  if (mol === null) mol = rdkit.get_mol(smiles, UNSANITISED);
  if (mol === null) return null;
  try {
    const json = JSON.parse(mol.get_json()) as CommonChem;
    visit?.(mol);
    const m = json.molecules[0];
    if (m === undefined) return null;
    const defZ = json.defaults?.atom?.z ?? 6;
    const defBo = json.defaults?.bond?.bo ?? 1;
    const ext = m.extensions?.find((e) => e.name === "rdkitRepresentation");
    const aromAtoms = new Set(aromatic ? (ext?.aromaticAtoms ?? []) : []);
    const aromBonds = new Set(aromatic ? (ext?.aromaticBonds ?? []) : []);
    // Drop hydrogens (OpenBabel DeleteHydrogens), renumber the heavy atoms in input order.
    const map = new Int32Array(m.atoms.length).fill(-1);
    const labels: number[] = [];
    m.atoms.forEach((a, i) => {
      const z = a.z ?? defZ;
      if (z === 1) return;
      map[i] = labels.length;
      labels.push(aromAtoms.has(i) ? z + 150 : z);
    });
    // Non-aromatic bond orders as written: RDKit's sanitisation rewrites e.g. a pentavalent
    // nitro group N(=O)=O as [N+](=O)[O-], which OpenBabel (hence fminer) keeps as written.
    // The second (unsanitised) parse costs as much as the first, so it is only done when
    // sanitisation introduced charges the SMILES does not write (the only case where it
    // changes a written bond order; none in Kazius' 4069 compounds, several in hamster).
    let charged = 0;
    for (const a of m.atoms) if (a.chg) charged++;
    const raw = charged !== writtenCharges(smiles) ? rawBondOrders(rdkit, smiles, m.atoms.length) : null;
    const bonds: number[] = [];
    m.bonds.forEach((b, i) => {
      const x = map[b.atoms[0]]!;
      const y = map[b.atoms[1]]!;
      if (x < 0 || y < 0) return;
      const written = raw?.get(b.atoms[0] * 65536 + b.atoms[1]) ?? raw?.get(b.atoms[1] * 65536 + b.atoms[0]);
      const bo = aromBonds.has(i) ? 4 : Math.min(3, Math.max(1, Math.round(aromatic ? (written ?? b.bo ?? defBo) : (b.bo ?? defBo))));
      bonds.push(x, y, bo);
    });
    return { labels: Int32Array.from(labels), bonds: Int32Array.from(bonds) };
  } finally {
    mol.delete();
  }
}

/** Bond orders of the unsanitised parse, keyed by atom pair; null when atoms do not line up. */
function rawBondOrders(rdkit: RDKit, smiles: string, nAtoms: number): Map<number, number> | null {
  const mol = rdkit.get_mol(smiles, UNSANITISED);
  if (mol === null) return null;
  try {
    const json = JSON.parse(mol.get_json()) as CommonChem;
    const m = json.molecules[0];
    if (m === undefined || m.atoms.length !== nAtoms) return null;
    const defBo = json.defaults?.bond?.bo ?? 1;
    const out = new Map<number, number>();
    for (const b of m.bonds) out.set(b.atoms[0] * 65536 + b.atoms[1], b.bo ?? defBo);
    return out;
  } finally {
    mol.delete();
  }
}

/** Number of bracket atoms with a written charge (`[N+]`, `[O-]`, `[Fe+2]`, ...). */
function writtenCharges(smiles: string): number {
  let n = 0;
  for (let i = smiles.indexOf("["); i >= 0; i = smiles.indexOf("[", i + 1)) {
    const j = smiles.indexOf("]", i);
    if (j < 0) break;
    const inner = smiles.slice(i + 1, j);
    if (/[+-]/.test(inner)) n++;
  }
  return n;
}
