/**
 * The label alphabet of the SMARTS matcher, shared by compiled queries (query.ts) and prepared
 * molecules (target.ts): an atom label is the atomic number Z, or Z + 150 for an aromatic atom,
 * and a bond label is 1, 2, 3 or 4 (aromatic), as the miners encode molecules
 * (../labelled-graph.ts). Label sets are bitsets of W 32-bit words; bond sets are masks with
 * bit b for bond label b. Also the hashed summaries both sides compute so that a query can be
 * ruled out before any search: edge-type hashes (0…255), 32-bit neighbour signatures and
 * 96-bit screens.
 */

/** Words per label bitset: labels 0 … 287 (Z ≤ 137, aromatic Z + 150). */
export const W = 9;
export const NLABELS = W * 32;
/** Largest atomic number `#n` accepts (aromatic labels must stay below NLABELS). */
export const MAX_Z = NLABELS - 151;
export const AROMATIC_OFFSET = 150;

/** Bond masks: bit b set = bond label b (1 single, 2 double, 3 triple, 4 aromatic). */
export const BOND_ANY = 0b11110;
export const BOND_IMPLICIT = (1 << 1) | (1 << 4);


function emptyMask(): Int32Array {
  return new Int32Array(W);
}
export function maskOf(labels: readonly number[]): Int32Array {
  const m = emptyMask();
  for (const l of labels) m[l >> 5]! |= 1 << (l & 31);
  return m;
}
function rangeMask(lo: number, hi: number): Int32Array {
  const m = emptyMask();
  for (let l = lo; l <= hi; l++) m[l >> 5]! |= 1 << (l & 31);
  return m;
}
export const ALL_LABELS = rangeMask(0, NLABELS - 1);
export const AROMATIC_LABELS = rangeMask(AROMATIC_OFFSET + 1, NLABELS - 1);
export const ALIPHATIC_LABELS = rangeMask(0, AROMATIC_OFFSET);

export function maskAnd(a: Int32Array, b: Int32Array): Int32Array {
  const m = emptyMask();
  for (let w = 0; w < W; w++) m[w] = a[w]! & b[w]!;
  return m;
}
export function maskOr(a: Int32Array, b: Int32Array): Int32Array {
  const m = emptyMask();
  for (let w = 0; w < W; w++) m[w] = a[w]! | b[w]!;
  return m;
}
export function maskNot(a: Int32Array): Int32Array {
  const m = emptyMask();
  for (let w = 0; w < W; w++) m[w] = ~a[w]!;
  return m;
}
export function maskLabels(m: Int32Array): number[] {
  const out: number[] = [];
  for (let l = 0; l < NLABELS; l++) if ((m[l >> 5]! >>> (l & 31)) & 1) out.push(l);
  return out;
}

/**
 * A 96-bit summary of edge types (hash values 0…255 folded to 64 bits) and labels (32 bits):
 * a query can only occur in a molecule if its screen is a subset of the molecule's.
 */
export function screenBits(edgeTypes: Iterable<number>, labels: Iterable<number>): Int32Array {
  const s = new Int32Array(SCREEN_WORDS);
  for (const h of edgeTypes) s[(h >>> 5) & 1]! |= 1 << (h & 31);
  for (const l of labels) s[2]! |= 1 << (Math.imul(l, 0x9e3779b1) >>> 27);
  return s;
}
export const SCREEN_WORDS = 3;

/** Bit of a (bond label, atom label) neighbour in 32-bit neighbour signatures. */
export function neighbourBit(bond: number, label: number): number {
  return 1 << (Math.imul(bond * 331 + label, 0x9e3779b1) >>> 27);
}

/** Edge types are hashed into 0…255. */
export const EDGE_TYPES = 256;
export function edgeHash(bond: number, la: number, lb: number): number {
  const lo = la < lb ? la : lb;
  const hi = la < lb ? lb : la;
  return Math.imul((bond * 331 + lo) * 337 + hi, 0x9e3779b1) >>> 24;
}
