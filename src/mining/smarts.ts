/**
 * fminer's SMARTS writer (docs/miners.md "SMARTS writer"): start at the highest-index pattern
 * node of degree 1, plain depth-first walk over each node's neighbours in insertion order; at
 * a node of degree > 2 every child branch (the last one too) is wrapped in parentheses. Atoms
 * `[#Z&a]` / `[#Z&A]` (aromatic perception on) or `[#Z]` (off); bonds `-` `=` `#` `:`, with
 * aromatic perception off `-,:` `=,:` `#,:` (fminer's bond wildcarding, on by default).
 */

export interface SmartsGraph {
  /** Number of pattern nodes. */
  readonly size: number;
  /** Input label (Z or Z + 150) of node i. */
  inputLabel(i: number): number;
  /** Neighbours of node i in insertion order, with the bond label (1..4) of each edge. */
  neighbours(i: number): readonly number[];
  bonds(i: number): readonly number[];
}

const BONDS = ["", "-", "=", "#", ":"];

export function writeSmarts(g: SmartsGraph, aromatic = true): string {
  let start = 0;
  for (let i = g.size - 1; i >= 0; i--) {
    if (g.neighbours(i).length === 1) {
      start = i;
      break;
    }
  }
  return writeFrom(g, start, -1, aromatic);
}

function atomText(l: number, aromatic: boolean): string {
  if (!aromatic) return `[#${l}]`;
  return l > 150 ? `[#${l - 150}&a]` : `[#${l}&A]`;
}

function bondText(b: number, aromatic: boolean): string {
  return aromatic ? BONDS[b]! : b === 4 ? ":" : `${BONDS[b]!},:`;
}

function writeFrom(g: SmartsGraph, i: number, from: number, aromatic: boolean): string {
  let out = atomText(g.inputLabel(i), aromatic);
  const nb = g.neighbours(i);
  const bs = g.bonds(i);
  const paren = nb.length > 2;
  for (let k = 0; k < nb.length; k++) {
    const j = nb[k]!;
    if (j === from) continue;
    out += (paren ? "(" : "") + bondText(bs[k]!, aromatic) + writeFrom(g, j, i, aromatic) + (paren ? ")" : "");
  }
  return out;
}
