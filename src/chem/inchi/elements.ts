/**
 * Element data the decoder needs: allowed valences per (element, charge) as RDKit accepts them,
 * and InChI's reference masses for the isotopic layer (`/i1+1` = reference mass + 1).
 */

/** Neutral valences of the main-group elements that form covalent bonds in InChI structures. */
const NEUTRAL: Readonly<Record<string, readonly number[]>> = {
  H: [1],
  B: [3],
  C: [4],
  N: [3],
  O: [2],
  F: [1],
  Si: [4],
  P: [3, 5],
  S: [2, 4, 6],
  Cl: [1, 3, 5, 7],
  Ge: [4],
  As: [3, 5],
  Se: [2, 4, 6],
  Br: [1, 3, 5],
  Sb: [3, 5],
  Te: [2, 4, 6],
  I: [1, 3, 5, 7],
  At: [1, 3, 5, 7],
  He: [0],
  Ne: [0],
  Ar: [0],
  Kr: [0, 2],
  Xe: [0, 2, 4, 6],
  Rn: [0],
};

/**
 * Isoelectronic rows: a charged atom takes the valences of its neighbour in the row (N+ like C,
 * O− like F, S+ like P, B− like C …), which is RDKit's rule for charged main-group atoms.
 */
const ROWS: ReadonlyArray<readonly string[]> = [
  ["Be", "B", "C", "N", "O", "F", "Ne"],
  ["Mg", "Al", "Si", "P", "S", "Cl", "Ar"],
  ["Ca", "Ga", "Ge", "As", "Se", "Br", "Kr"],
  ["Sr", "In", "Sn", "Sb", "Te", "I", "Xe"],
];
/** Valences by row position: the first row has no expanded octet. */
const FIRST_ROW_VALENCES: readonly (readonly number[])[] = [[2], [3], [4], [3], [2], [1], [0]];
const ROW_VALENCES: readonly (readonly number[])[] = [[2], [3], [4], [3, 5], [2, 4, 6], [1, 3, 5], [0]];

/** True for elements the decoder treats as covalent (valence-checked) atoms. */
export function isCovalent(el: string): boolean {
  return el in NEUTRAL;
}

/** Allowed valences of `el` with formal charge `charge`; null when any valence goes (metals). */
export function valences(el: string, charge: number): readonly number[] | null {
  if (!(el in NEUTRAL)) return null;
  if (charge === 0) return NEUTRAL[el]!;
  if (el === "H") return charge === 1 || charge === -1 ? [0] : [];
  for (let r = 0; r < ROWS.length; r++) {
    const pos = ROWS[r]!.indexOf(el);
    if (pos < 0) continue;
    const to = pos - charge;
    if (to < 0 || to >= 7) return [];
    return (r === 0 ? FIRST_ROW_VALENCES : ROW_VALENCES)[to]!;
  }
  return charge > 0 ? [] : [0];
}

/** Charges the decoder considers for an atom of `el` (before local feasibility). */
export function chargeOptions(el: string, extended: boolean): readonly number[] {
  switch (el) {
    case "C":
    case "Si":
    case "Ge":
      return extended ? [0, -1, 1] : [0];
    case "N":
    case "P":
    case "As":
    case "Sb":
      return [0, 1, -1, -2, -3];
    case "O":
    case "S":
    case "Se":
    case "Te":
      return [0, -1, 1, -2];
    case "B":
      return extended ? [0, -1, 1] : [0, -1];
    case "F":
    case "Cl":
    case "Br":
    case "I":
    case "At":
      return [0, -1, 1];
    case "H":
      return [0, 1, -1];
    case "He":
    case "Ne":
    case "Ar":
    case "Kr":
    case "Xe":
    case "Rn":
      return [0];
    default:
      return [0, 1, 2, 3, -1, 4, -2, 5, 6, -3, 7, -4, 8, -5, -6, -7, -8];
  }
}

/**
 * InChI's reference mass of each element (its rounded average atomic mass): an isotopic shift
 * `+1` on carbon is 13C, `+2` on chlorine 37Cl, `+1` on bromine 81Br.
 */
const REFERENCE_MASS: Readonly<Record<string, number>> = {
  H: 1, He: 4, Li: 7, Be: 9, B: 11, C: 12, N: 14, O: 16, F: 19, Ne: 20,
  Na: 23, Mg: 24, Al: 27, Si: 28, P: 31, S: 32, Cl: 35, Ar: 40, K: 39, Ca: 40,
  Sc: 45, Ti: 48, V: 51, Cr: 52, Mn: 55, Fe: 56, Co: 59, Ni: 59, Cu: 64, Zn: 65,
  Ga: 70, Ge: 73, As: 75, Se: 79, Br: 80, Kr: 84, Rb: 85, Sr: 88, Y: 89, Zr: 91,
  Nb: 93, Mo: 96, Tc: 98, Ru: 101, Rh: 103, Pd: 106, Ag: 108, Cd: 112, In: 115, Sn: 119,
  Sb: 122, Te: 128, I: 127, Xe: 131, Cs: 133, Ba: 137, La: 139, Ce: 140, Pr: 141, Nd: 144,
  Pm: 145, Sm: 150, Eu: 152, Gd: 157, Tb: 159, Dy: 163, Ho: 165, Er: 167, Tm: 169, Yb: 173,
  Lu: 175, Hf: 178, Ta: 181, W: 184, Re: 186, Os: 190, Ir: 192, Pt: 195, Au: 197, Hg: 201,
  Tl: 204, Pb: 207, Bi: 209, Po: 209, At: 210, Rn: 222, Fr: 223, Ra: 226, Ac: 227, Th: 232,
  Pa: 231, U: 238, Np: 237, Pu: 244, Am: 243, Cm: 247, Bk: 247, Cf: 251, Es: 252, Fm: 257,
};

export function referenceMass(el: string): number | undefined {
  return REFERENCE_MASS[el];
}

/** Element symbols the SMILES writer accepts (every element of the periodic table up to Og). */
const SYMBOLS = new Set(
  (
    "H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr " +
    "Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm " +
    "Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No " +
    "Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og"
  ).split(" "),
);

export function isElement(el: string): boolean {
  return SYMBOLS.has(el);
}
