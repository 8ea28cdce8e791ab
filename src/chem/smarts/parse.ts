/**
 * SMARTS text → compiled query (`compileSmarts`). The supported subset is everything the
 * miners' SMARTS writers emit (fminer's BBRC writer, last-utils for LAST-PM), plus a few
 * obvious extras:
 * - atoms in brackets: `#n`, element symbols (`C`, `Cl`, aromatic `c`, `n`, `se`, …), `a`,
 *   `A`, `*`, recursive `$(SMARTS)`, combined with `!`, `&` (or juxtaposition), `,` and `;`
 *   with the usual SMARTS precedence (`!` > `&` > `,` > `;`), e.g. `[#6&a,#7&a]`,
 *   `[#7&A;$([#7&A]-[#6&A]),$([#7&A]=[#8&A])]`;
 * - atoms outside brackets: the organic subset `B C N O P S F Cl Br I b c n o p s`, `*`, `a`, `A`;
 * - bonds `-` `=` `#` `:` `~`, combined with `!` `&` `,` `;` (e.g. fminer's Kekulé wildcards
 *   `-,:`); no bond symbol = single or aromatic;
 * - branches `( … )`, ring closures `1`…`9`, `%nn`.
 * Anything else (charges, H counts, degree, ring primitives, stereo, isotopes, atom maps,
 * disconnected `.`) throws a `SmartsSyntaxError` naming the position: the miners' encoding
 * (../labelled-graph.ts) has no such information, so such a query could not be matched
 * faithfully.
 *
 * Purely label-based parts of an atom expression are folded into one label set while parsing;
 * a recursive `$(…)` is compiled once per text (`intern`, shared within a query set).
 */

import { ALIPHATIC_LABELS, ALL_LABELS, AROMATIC_LABELS, AROMATIC_OFFSET, BOND_ANY, BOND_IMPLICIT, MAX_Z, maskAnd, maskNot, maskOf, maskOr } from "./labels.ts";
import { SmartsQuery, type AtomExpr, type ParsedGraph } from "./query.ts";

const ELEMENTS =
  "H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og".split(
    " ",
  );
const ATOMIC_NUMBER = new Map<string, number>(ELEMENTS.map((s, i) => [s, i + 1]));
/** Aromatic element symbols allowed in brackets (lower case, SMILES/SMARTS convention). */
const AROMATIC_SYMBOLS = new Map<string, number>([["b", 5], ["c", 6], ["n", 7], ["o", 8], ["p", 15], ["s", 16], ["se", 34], ["as", 33], ["te", 52]]);
const ORGANIC = new Map<string, number>([["B", 5], ["C", 6], ["N", 7], ["O", 8], ["P", 15], ["S", 16], ["F", 9], ["Cl", 17], ["Br", 35], ["I", 53]]);
const ORGANIC_AROMATIC = new Map<string, number>([["b", 5], ["c", 6], ["n", 7], ["o", 8], ["p", 15], ["s", 16]]);

/** A SMARTS outside the supported subset; `position` is the 0-based offset in the string. */
export class SmartsSyntaxError extends Error {
  constructor(
    readonly smarts: string,
    readonly position: number,
    reason: string,
  ) {
    super(`SMARTS ${JSON.stringify(smarts)}, position ${position}: ${reason}`);
    this.name = "SmartsSyntaxError";
  }
}

function mkNot(e: AtomExpr): AtomExpr {
  return e.k === "mask" ? { k: "mask", m: maskNot(e.m) } : { k: "not", e };
}
function mkBin(k: "and" | "or", a: AtomExpr, b: AtomExpr): AtomExpr {
  if (a.k === "mask" && b.k === "mask") return { k: "mask", m: k === "and" ? maskAnd(a.m, b.m) : maskOr(a.m, b.m) };
  return { k, a, b };
}

const BOND_CHARS = "-=#:~!&,;@/\\";

class Parser {
  pos = 0;
  constructor(
    readonly s: string,
    /** Recursive sub-queries by their text, shared within one compilation / query set. */
    readonly intern: Map<string, SmartsQuery>,
  ) {}

  fail(reason: string, at = this.pos): never {
    throw new SmartsSyntaxError(this.s, at, reason);
  }

  /** A whole (sub-)SMARTS; `nested` = inside `$(`, ending at its closing `)` (not consumed). */
  chain(nested: boolean): ParsedGraph {
    const s = this.s;
    const start = this.pos;
    const atoms: AtomExpr[] = [];
    const edges: number[] = [];
    const edgeKeys = new Set<number>();
    const branches: { atom: number; pos: number; nAtoms: number }[] = [];
    const rings = new Map<number, { atom: number; bond: number; pos: number }>();
    let prev = -1;
    let pending = -1; // bond mask waiting for its second atom, -1 = none
    let pendingPos = 0;
    const addEdge = (a: number, b: number, mask: number, at: number): void => {
      const key = Math.min(a, b) * 65536 + Math.max(a, b);
      if (a === b || edgeKeys.has(key)) this.fail("ring closure duplicates a bond", at);
      edgeKeys.add(key);
      edges.push(a, b, mask);
    };
    for (;;) {
      if (this.pos >= s.length) {
        if (nested) this.fail("unterminated recursive SMARTS '$('", start - 2);
        break;
      }
      const c = s[this.pos]!;
      if (c === ")") {
        if (branches.length > 0) {
          if (pending >= 0) this.fail("bond without a following atom", pendingPos);
          if (atoms.length === branches[branches.length - 1]!.nAtoms) this.fail("empty branch '()'", this.pos);
          prev = branches.pop()!.atom;
          this.pos++;
          continue;
        }
        if (nested) break;
        this.fail("unmatched ')'");
      }
      if (c === "(") {
        if (prev < 0) this.fail("branch before the first atom");
        if (pending >= 0) this.fail("bond before a branch", pendingPos);
        branches.push({ atom: prev, pos: this.pos, nAtoms: atoms.length });
        this.pos++;
        continue;
      }
      if (BOND_CHARS.includes(c)) {
        if (prev < 0) this.fail("bond before the first atom");
        if (pending >= 0) this.fail("two bonds in a row");
        pendingPos = this.pos;
        pending = this.bond();
        continue;
      }
      if ((c >= "0" && c <= "9") || c === "%") {
        if (prev < 0) this.fail("ring closure before the first atom");
        const at = this.pos;
        let n: number;
        if (c === "%") {
          const m = /^%(\d\d)/.exec(s.slice(this.pos));
          if (!m) this.fail("'%' must be followed by two digits");
          n = Number(m[1]);
          this.pos += 3;
        } else {
          n = c.charCodeAt(0) - 48;
          this.pos++;
        }
        const open = rings.get(n);
        if (open === undefined) {
          rings.set(n, { atom: prev, bond: pending, pos: at });
        } else {
          if (pending >= 0 && open.bond >= 0 && pending !== open.bond) this.fail(`ring bond ${n} has conflicting bond symbols`, at);
          addEdge(open.atom, prev, pending >= 0 ? pending : open.bond >= 0 ? open.bond : BOND_IMPLICIT, at);
          rings.delete(n);
        }
        pending = -1;
        continue;
      }
      if (c === ".") this.fail("disconnected SMARTS ('.') is not supported");
      if (c === "[" || c === "*" || /[A-Za-z]/.test(c)) {
        const at = this.pos;
        const e = this.atom();
        const i = atoms.length;
        atoms.push(e);
        if (prev >= 0) addEdge(prev, i, pending >= 0 ? pending : BOND_IMPLICIT, pending >= 0 ? pendingPos : at);
        pending = -1;
        prev = i;
        continue;
      }
      this.fail(`unexpected character '${c}'`);
    }
    if (branches.length > 0) this.fail("unclosed branch '('", branches[branches.length - 1]!.pos);
    if (rings.size > 0) {
      const [n, r] = [...rings][0]!;
      this.fail(`unclosed ring bond ${n}`, r.pos);
    }
    if (pending >= 0) this.fail("bond without a following atom", pendingPos);
    if (atoms.length === 0) this.fail(nested ? "empty recursive SMARTS '$()'" : "empty SMARTS");
    return { atoms, edges };
  }

  /** Bond expression → mask of bond labels. */
  bond(): number {
    const s = this.s;
    const lowAnd = (): number => {
      let m = or();
      while (s[this.pos] === ";") {
        this.pos++;
        m &= or();
      }
      return m;
    };
    const or = (): number => {
      let m = highAnd();
      while (s[this.pos] === ",") {
        this.pos++;
        m |= highAnd();
      }
      return m;
    };
    const highAnd = (): number => {
      let m = unary();
      for (;;) {
        const c = s[this.pos];
        if (c === "&") {
          this.pos++;
          m &= unary();
        } else if (c !== undefined && "-=#:~!@/\\".includes(c)) {
          m &= unary();
        } else return m;
      }
    };
    const unary = (): number => {
      if (s[this.pos] === "!") {
        this.pos++;
        return BOND_ANY & ~unary();
      }
      const c = s[this.pos];
      this.pos++;
      switch (c) {
        case "-":
          return 1 << 1;
        case "=":
          return 1 << 2;
        case "#":
          return 1 << 3;
        case ":":
          return 1 << 4;
        case "~":
          return BOND_ANY;
        case "@":
          return this.fail("ring bond primitive '@' is not supported", this.pos - 1);
        case "/":
        case "\\":
          return this.fail("directional bonds are not supported", this.pos - 1);
        default:
          return this.fail(c === undefined ? "bond expression ends early" : `unexpected '${c}' in a bond expression`, this.pos - 1);
      }
    };
    return lowAnd();
  }

  /** An atom: bracket expression, organic-subset symbol, `*`, `a` or `A`. */
  atom(): AtomExpr {
    const s = this.s;
    const c = s[this.pos]!;
    if (c === "[") {
      const open = this.pos;
      this.pos++;
      const e = this.atomLowAnd();
      if (this.pos >= s.length) this.fail("unclosed '['", open);
      if (s[this.pos] !== "]") this.fail(this.unsupportedAtomReason());
      this.pos++;
      return e;
    }
    if (c === "*") {
      this.pos++;
      return { k: "mask", m: ALL_LABELS };
    }
    const two = s.slice(this.pos, this.pos + 2);
    if (ORGANIC.has(two)) {
      this.pos += 2;
      return { k: "mask", m: maskOf([ORGANIC.get(two)!]) };
    }
    if (ORGANIC.has(c)) {
      this.pos++;
      return { k: "mask", m: maskOf([ORGANIC.get(c)!]) };
    }
    if (ORGANIC_AROMATIC.has(c)) {
      this.pos++;
      return { k: "mask", m: maskOf([ORGANIC_AROMATIC.get(c)! + AROMATIC_OFFSET]) };
    }
    if (c === "a" || c === "A") {
      this.pos++;
      return { k: "mask", m: c === "a" ? AROMATIC_LABELS : ALIPHATIC_LABELS };
    }
    return this.fail(`'${c}' is not an atom outside brackets (use [${c}…])`);
  }

  private unsupportedAtomReason(): string {
    const c = this.s[this.pos]!;
    if (c === "+" || c === "-") return "charges are not encoded (fminer drops them)";
    if (c === "H" || c === "h") return "hydrogens and hydrogen counts are not encoded (fminer drops hydrogens)";
    if (c === "@") return "chirality is not encoded";
    if (c === ":") return "atom maps are not supported";
    if ("DXxRrvq^z".includes(c)) return `atom primitive '${c}' is not supported`;
    if (c >= "0" && c <= "9") return "isotopes are not encoded";
    return `unexpected '${c}' in an atom expression`;
  }

  private atomLowAnd(): AtomExpr {
    let e = this.atomOr();
    while (this.s[this.pos] === ";") {
      this.pos++;
      e = mkBin("and", e, this.atomOr());
    }
    return e;
  }
  private atomOr(): AtomExpr {
    let e = this.atomHighAnd();
    while (this.s[this.pos] === ",") {
      this.pos++;
      e = mkBin("or", e, this.atomHighAnd());
    }
    return e;
  }
  private atomHighAnd(): AtomExpr {
    let e = this.atomUnary();
    for (;;) {
      const c = this.s[this.pos];
      if (c === "&") {
        this.pos++;
        e = mkBin("and", e, this.atomUnary());
      } else if (c !== undefined && (c === "!" || c === "#" || c === "*" || c === "$" || /[A-Za-z]/.test(c)) && !(c === "H" && !this.isElementH())) {
        e = mkBin("and", e, this.atomUnary());
      } else return e;
    }
  }
  /** `H` starts a two-letter element (Hg, He, …) rather than an H count. */
  private isElementH(): boolean {
    const two = this.s.slice(this.pos, this.pos + 2);
    return two.length === 2 && ATOMIC_NUMBER.has(two);
  }
  private atomUnary(): AtomExpr {
    if (this.s[this.pos] === "!") {
      this.pos++;
      return mkNot(this.atomUnary());
    }
    return this.atomPrimitive();
  }
  private atomPrimitive(): AtomExpr {
    const s = this.s;
    const at = this.pos;
    const c = s[at];
    if (c === undefined) return this.fail("unclosed '['");
    if (c === "#") {
      const m = /^#(\d+)/.exec(s.slice(at));
      if (!m) return this.fail("'#' must be followed by an atomic number");
      const z = Number(m[1]);
      if (z > MAX_Z) return this.fail(`atomic number ${z} out of range`);
      this.pos += m[0].length;
      return { k: "mask", m: maskOf(z === 0 ? [0] : [z, z + AROMATIC_OFFSET]) };
    }
    if (c === "*") {
      this.pos++;
      return { k: "mask", m: ALL_LABELS };
    }
    if (c === "$") {
      if (s[at + 1] !== "(") return this.fail("'$' must be followed by '('");
      this.pos += 2;
      const start = this.pos;
      const g = this.chain(true);
      const text = s.slice(start, this.pos);
      this.pos++; // ')'
      let q = this.intern.get(text);
      if (q === undefined) {
        q = new SmartsQuery(text, g);
        this.intern.set(text, q);
      }
      return { k: "rec", q };
    }
    if (c >= "A" && c <= "Z") {
      const two = s.slice(at, at + 2);
      if (two.length === 2 && two[1]! >= "a" && two[1]! <= "z" && ATOMIC_NUMBER.has(two)) {
        this.pos += 2;
        return { k: "mask", m: maskOf([ATOMIC_NUMBER.get(two)!]) };
      }
      if (c === "A") {
        this.pos++;
        return { k: "mask", m: ALIPHATIC_LABELS };
      }
      if (c !== "H" && ATOMIC_NUMBER.has(c)) {
        this.pos++;
        return { k: "mask", m: maskOf([ATOMIC_NUMBER.get(c)!]) };
      }
      return this.fail(this.unsupportedAtomReason());
    }
    if (c >= "a" && c <= "z") {
      const two = s.slice(at, at + 2);
      if (AROMATIC_SYMBOLS.has(two)) {
        this.pos += 2;
        return { k: "mask", m: maskOf([AROMATIC_SYMBOLS.get(two)! + AROMATIC_OFFSET]) };
      }
      if (AROMATIC_SYMBOLS.has(c)) {
        this.pos++;
        return { k: "mask", m: maskOf([AROMATIC_SYMBOLS.get(c)! + AROMATIC_OFFSET]) };
      }
      if (c === "a") {
        this.pos++;
        return { k: "mask", m: AROMATIC_LABELS };
      }
      return this.fail(this.unsupportedAtomReason());
    }
    if (c === "]") return this.fail("empty atom expression");
    return this.fail(this.unsupportedAtomReason());
  }
}

/**
 * Compile a SMARTS of the supported subset (see the module comment).
 * @throws SmartsSyntaxError naming the position of the first unsupported or malformed part.
 */
export function compileSmarts(smarts: string, intern: Map<string, SmartsQuery> = new Map()): SmartsQuery {
  const p = new Parser(smarts, intern);
  const g = p.chain(false);
  return new SmartsQuery(smarts, g);
}
