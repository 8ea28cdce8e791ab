/**
 * V2000 molblocks written by hand for SD-file tests: 4 + atoms + bonds + 1 lines (title, program
 * line, comment, counts, atoms, bonds, `M  END`), in the fixed columns of the CTfile format.
 * An atom is an element, or an element with x and y (z is 0); without coordinates the atoms are
 * placed 1.3 Å apart on a line. `counts` overrides the counts line (for malformed records).
 */
type Atom = string | readonly [string, number, number];

export function v2000(title: string, atoms: readonly Atom[], bonds: readonly (readonly [number, number, number])[], counts?: readonly [number, number]): string[] {
  const [na, nb] = counts ?? [atoms.length, bonds.length];
  const placed = atoms.map((a, i): readonly [string, number, number] => (typeof a === "string" ? [a, i * 1.3, 0] : a));
  return [
    title,
    "  handmade",
    "",
    `${String(na).padStart(3)}${String(nb).padStart(3)}  0  0  0  0  0  0  0  0999 V2000`,
    ...placed.map(([el, x, y]) => `${x.toFixed(4).padStart(10)}${y.toFixed(4).padStart(10)}${"0.0000".padStart(10)} ${el.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`),
    ...bonds.map(([a, b, o]) => `${String(a).padStart(3)}${String(b).padStart(3)}${String(o).padStart(3)}  0`),
    "M  END",
  ];
}
