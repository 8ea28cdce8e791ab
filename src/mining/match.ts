/**
 * A SMARTS matcher for the substructure features our miners write (spec miners.md §5.8, §6.1,
 * §6.2, §7.2), working on molecules encoded exactly as the miners encode them (`encode.ts`,
 * §1.3), so that a pattern's matches on the training compounds are its mined occurrences and
 * the models get the same feature values for query compounds.
 *
 * Supported SMARTS (everything fminer's writer and last-utils emit, plus a few obvious extras):
 * - atoms in brackets: `#n`, element symbols (`C`, `Cl`, aromatic `c`, `n`, `se`, …), `a`,
 *   `A`, `*`, recursive `$(SMARTS)`, combined with `!`, `&` (or juxtaposition), `,` and `;`
 *   with the usual SMARTS precedence (`!` > `&` > `,` > `;`), e.g. `[#6&a,#7&a]`,
 *   `[#7&A;$([#7&A]-[#6&A]),$([#7&A]=[#8&A])]`;
 * - atoms outside brackets: the organic subset `B C N O P S F Cl Br I b c n o p s`, `*`, `a`, `A`;
 * - bonds `-` `=` `#` `:` `~`, combined with `!` `&` `,` `;` (e.g. fminer's Kekulé wildcards
 *   `-,:`); no bond symbol = single or aromatic;
 * - branches `( … )`, ring closures `1`…`9`, `%nn`.
 * Anything else (charges, H counts, degree, ring primitives, stereo, isotopes, atom maps,
 * disconnected `.`) throws a `SmartsSyntaxError` naming the position: the encoding (§1.3) has
 * no such information, so such a query could not be matched faithfully.
 *
 * Semantics (= fminer's embeddings, = OpenBabel's `OBSmartsPattern` map list): non-induced
 * subgraph isomorphism of the query into the heavy-atom graph; an atom label is Z, or Z + 150
 * for an aromatic atom; `a`/`A` test that flag; bond labels are 1/2/3 and 4 (aromatic).
 * `countEmbeddings` counts every injective mapping of the query atoms, automorphic images
 * included (fminer's hit counts, §2.2 / §6.2: the pattern `[#6&a]:[#6&a]` has 12 embeddings in
 * benzene). A recursive `$(…)` is an atom predicate and does not multiply the count.
 *
 * Matching: backtracking in VF2 style over a per-query atom order (each atom after the first is
 * a neighbour of an earlier one, so candidates come from one adjacency list; ring-closure
 * edges are checked against already mapped atoms; rare labels and bonds are placed first).
 * The first atom is the one whose label is rarest in the molecule. A candidate atom must have
 * the label, at least the degree and every (bond, label) neighbour the query atom requires
 * (32-bit neighbour signatures). Recursive `$(…)` predicates are evaluated once per molecule
 * atom and cached on the molecule. All search state lives in preallocated typed arrays; a
 * search allocates nothing.
 *
 * Filters before any search: a `QuerySet` first screens all its queries against the molecule
 * with 96-bit summaries of required edge types and labels (one pass over a typed array), then
 * every surviving query checks its size, required (bond, label, label) edge types (256-bit
 * hash set) and required label counts against the molecule's.
 */

import type { RDKit } from "../chem/rdkit.ts";
import { encodeGraph, type MolGraph } from "./encode.ts";

// ---------------------------------------------------------------------------------------------
// Label sets

/** Words per label bitset: labels 0 … 287 (Z ≤ 137, aromatic Z + 150). */
const W = 9;
const NLABELS = W * 32;
/** Largest atomic number `#n` accepts (aromatic labels must stay below NLABELS). */
const MAX_Z = NLABELS - 151;
const AROMATIC_OFFSET = 150;

/** Bond masks: bit b set = bond label b (1 single, 2 double, 3 triple, 4 aromatic). */
const BOND_ANY = 0b11110;
const BOND_IMPLICIT = (1 << 1) | (1 << 4);

const ELEMENTS =
  "H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv Ts Og".split(
    " ",
  );
const ATOMIC_NUMBER = new Map<string, number>(ELEMENTS.map((s, i) => [s, i + 1]));
/** Aromatic element symbols allowed in brackets (lower case, SMILES/SMARTS convention). */
const AROMATIC_SYMBOLS = new Map<string, number>([["b", 5], ["c", 6], ["n", 7], ["o", 8], ["p", 15], ["s", 16], ["se", 34], ["as", 33], ["te", 52]]);
const ORGANIC = new Map<string, number>([["B", 5], ["C", 6], ["N", 7], ["O", 8], ["P", 15], ["S", 16], ["F", 9], ["Cl", 17], ["Br", 35], ["I", 53]]);
const ORGANIC_AROMATIC = new Map<string, number>([["b", 5], ["c", 6], ["n", 7], ["o", 8], ["p", 15], ["s", 16]]);

function emptyMask(): Int32Array {
  return new Int32Array(W);
}
function maskOf(labels: readonly number[]): Int32Array {
  const m = emptyMask();
  for (const l of labels) m[l >> 5]! |= 1 << (l & 31);
  return m;
}
function rangeMask(lo: number, hi: number): Int32Array {
  const m = emptyMask();
  for (let l = lo; l <= hi; l++) m[l >> 5]! |= 1 << (l & 31);
  return m;
}
const ALL_LABELS = rangeMask(0, NLABELS - 1);
const AROMATIC_LABELS = rangeMask(AROMATIC_OFFSET + 1, NLABELS - 1);
const ALIPHATIC_LABELS = rangeMask(0, AROMATIC_OFFSET);

function maskAnd(a: Int32Array, b: Int32Array): Int32Array {
  const m = emptyMask();
  for (let w = 0; w < W; w++) m[w] = a[w]! & b[w]!;
  return m;
}
function maskOr(a: Int32Array, b: Int32Array): Int32Array {
  const m = emptyMask();
  for (let w = 0; w < W; w++) m[w] = a[w]! | b[w]!;
  return m;
}
function maskNot(a: Int32Array): Int32Array {
  const m = emptyMask();
  for (let w = 0; w < W; w++) m[w] = ~a[w]!;
  return m;
}
function maskLabels(m: Int32Array): number[] {
  const out: number[] = [];
  for (let l = 0; l < NLABELS; l++) if ((m[l >> 5]! >>> (l & 31)) & 1) out.push(l);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Parsing

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

/** Atom expression tree; purely label-based subtrees are folded into one mask while parsing. */
type AtomExpr =
  | { readonly k: "mask"; readonly m: Int32Array }
  | { readonly k: "rec"; readonly q: SmartsQuery }
  | { readonly k: "not"; readonly e: AtomExpr }
  | { readonly k: "and" | "or"; readonly a: AtomExpr; readonly b: AtomExpr };

function mkNot(e: AtomExpr): AtomExpr {
  return e.k === "mask" ? { k: "mask", m: maskNot(e.m) } : { k: "not", e };
}
function mkBin(k: "and" | "or", a: AtomExpr, b: AtomExpr): AtomExpr {
  if (a.k === "mask" && b.k === "mask") return { k: "mask", m: k === "and" ? maskAnd(a.m, b.m) : maskOr(a.m, b.m) };
  return { k, a, b };
}

/** Over-approximation of the labels an atom expression can match (recursion: unknown). */
function superMask(e: AtomExpr): Int32Array {
  switch (e.k) {
    case "mask":
      return e.m;
    case "rec":
      return e.q.atomMask(0);
    case "not":
      return e.e.k === "mask" ? maskNot(e.e.m) : ALL_LABELS;
    case "and":
      return maskAnd(superMask(e.a), superMask(e.b));
    case "or":
      return maskOr(superMask(e.a), superMask(e.b));
  }
}

interface ParsedGraph {
  atoms: AtomExpr[];
  /** Edges as (atom, atom, bond mask). */
  edges: number[];
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

// ---------------------------------------------------------------------------------------------
// Compiled queries

/** Program opcodes of recursive atom expressions (postfix). */
const OP_MASK = 0;
const OP_REC = 1;
const OP_NOT = 2;
const OP_AND = 3;
const OP_OR = 4;

/** Search order of a query from one root atom. */
interface Order {
  /** Query atom at position k. */
  readonly atom: Int32Array;
  /** Position of the already placed neighbour the atom at position k is reached from (k > 0). */
  readonly parent: Int32Array;
  /** Bond mask of that edge. */
  readonly parentBond: Int32Array;
  /** Ring-closure edges to earlier positions other than the parent: closeStart[k]…closeStart[k+1]. */
  readonly closeStart: Int32Array;
  readonly closePos: Int32Array;
  readonly closeBond: Int32Array;
}

let nextUid = 0;

/** A compiled SMARTS query. Create with `compileSmarts`. */
export class SmartsQuery {
  /** Unique id (keys the per-molecule cache of recursive sub-query results). */
  readonly uid = nextUid++;
  /** Number of query atoms. */
  readonly size: number;
  readonly nEdges: number;
  /** Superset of the labels each atom can match (W words per atom); exact for non-recursive atoms. */
  readonly masks: Int32Array;
  /** Exact single label an atom requires (-1 if several labels are possible). */
  readonly exactLabel: Int32Array;
  readonly degree: Int32Array;
  /**
   * Per atom, the neighbour signature it requires: bits `neighbourBit(bond, label)` of its
   * neighbours with an exact label and bond; a molecule atom must have all of them.
   */
  readonly neighbourSig: Int32Array;
  /** Query adjacency (CSR), bond masks. */
  private readonly adjStart: Int32Array;
  private readonly adjTo: Int32Array;
  private readonly adjBond: Int32Array;
  /** Recursive atom programs: progStart[i] = -1 when atom i is label-only. */
  readonly progStart: Int32Array;
  readonly progEnd: Int32Array;
  readonly prog: Int32Array;
  readonly progMasks: Int32Array;
  /** Recursive sub-queries referenced directly, by program slot. */
  readonly slots: readonly SmartsQuery[];
  /** All recursive sub-queries (nested ones first) to evaluate before searching. */
  readonly recursive: readonly SmartsQuery[];
  /**
   * Prefilter and root choice: triples (label, count the molecule must have at least, the
   * highest-degree query atom with that exact label).
   */
  readonly requiredLabels: Int32Array;
  /** Prefilter: distinct hash values (0…255) of required (bond, label, label) edge types. */
  readonly requiredEdges: Int32Array;
  /** 96-bit screen: required edge types (bits 0…63) and labels (64…95), hashed; see `screenBits`. */
  readonly screen: Int32Array;
  private readonly orders: (Order | undefined)[];

  constructor(
    readonly smarts: string,
    g: ParsedGraph,
  ) {
    const n = g.atoms.length;
    this.size = n;
    this.nEdges = g.edges.length / 3;
    this.masks = new Int32Array(n * W);
    this.exactLabel = new Int32Array(n).fill(-1);
    this.degree = new Int32Array(n);
    this.progStart = new Int32Array(n).fill(-1);
    this.progEnd = new Int32Array(n).fill(-1);
    const prog: number[] = [];
    const progMasks: number[] = [];
    const slots: SmartsQuery[] = [];
    const emit = (e: AtomExpr): void => {
      switch (e.k) {
        case "mask":
          prog.push(OP_MASK, progMasks.length / W);
          progMasks.push(...e.m);
          return;
        case "rec": {
          let slot = slots.indexOf(e.q);
          if (slot < 0) slot = slots.push(e.q) - 1;
          prog.push(OP_REC, slot);
          return;
        }
        case "not":
          emit(e.e);
          prog.push(OP_NOT);
          return;
        case "and":
        case "or":
          emit(e.a);
          emit(e.b);
          prog.push(e.k === "and" ? OP_AND : OP_OR);
          return;
      }
    };
    const labelCount = new Map<number, number>();
    g.atoms.forEach((e, i) => {
      const sm = superMask(e);
      this.masks.set(sm, i * W);
      const labels = maskLabels(sm);
      if (labels.length === 1) {
        this.exactLabel[i] = labels[0]!;
        labelCount.set(labels[0]!, (labelCount.get(labels[0]!) ?? 0) + 1);
      }
      if (e.k !== "mask") {
        this.progStart[i] = prog.length;
        emit(e);
        this.progEnd[i] = prog.length;
      }
    });
    this.prog = Int32Array.from(prog);
    this.progMasks = Int32Array.from(progMasks);
    this.slots = slots;
    const rec: SmartsQuery[] = [];
    for (const q of slots) {
      for (const r of q.recursive) if (!rec.includes(r)) rec.push(r);
      if (!rec.includes(q)) rec.push(q);
    }
    this.recursive = rec;


    const E = g.edges;
    for (let k = 0; k < E.length; k += 3) {
      this.degree[E[k]!]!++;
      this.degree[E[k + 1]!]!++;
    }
    this.adjStart = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) this.adjStart[i + 1] = this.adjStart[i]! + this.degree[i]!;
    this.adjTo = new Int32Array(2 * this.nEdges);
    this.adjBond = new Int32Array(2 * this.nEdges);
    const fill = this.adjStart.slice(0, n);
    const edgeTypes = new Set<number>();
    for (let k = 0; k < E.length; k += 3) {
      const a = E[k]!;
      const b = E[k + 1]!;
      const m = E[k + 2]!;
      this.adjTo[fill[a]!] = b;
      this.adjBond[fill[a]!++] = m;
      this.adjTo[fill[b]!] = a;
      this.adjBond[fill[b]!++] = m;
      const la = this.exactLabel[a]!;
      const lb = this.exactLabel[b]!;
      if (la >= 0 && lb >= 0 && (m & (m - 1)) === 0) {
        edgeTypes.add(edgeHash(31 - Math.clz32(m), la, lb));
      }
    }
    this.requiredEdges = Int32Array.from(edgeTypes);
    this.neighbourSig = new Int32Array(n);
    for (let k = 0; k < E.length; k += 3) {
      const a = E[k]!;
      const b = E[k + 1]!;
      const m = E[k + 2]!;
      if ((m & (m - 1)) !== 0) continue;
      const bo = 31 - Math.clz32(m);
      if (this.exactLabel[b]! >= 0) this.neighbourSig[a]! |= neighbourBit(bo, this.exactLabel[b]!);
      if (this.exactLabel[a]! >= 0) this.neighbourSig[b]! |= neighbourBit(bo, this.exactLabel[a]!);
    }
    const req: number[] = [];
    for (const [l, c] of labelCount) {
      let rep = -1;
      for (let i = 0; i < n; i++) if (this.exactLabel[i] === l && (rep < 0 || this.degree[i]! > this.degree[rep]!)) rep = i;
      req.push(l, c, rep);
    }
    this.requiredLabels = Int32Array.from(req);
    this.screen = screenBits(this.requiredEdges, labelCount.keys());
    this.orders = new Array<Order | undefined>(n).fill(undefined);
  }

  /** Label superset of atom i as a fresh bitset (W words). */
  atomMask(i: number): Int32Array {
    return this.masks.slice(i * W, i * W + W);
  }

  /** Does atom i's label-only part admit label l? */
  admits(i: number, l: number): boolean {
    return ((this.masks[i * W + (l >> 5)]! >>> (l & 31)) & 1) === 1;
  }

  /**
   * Search order rooted at atom `root`, "fail first": each next atom is the frontier atom
   * (neighbour of a placed one) least likely to be found in a molecule, by a fixed commonness
   * score of its label and bond (aromatic / aliphatic carbon and single / aromatic bonds are
   * common; hetero atoms, double and triple bonds are rare); ties in breadth-first order.
   * Ring closures to placed atoms are recorded.
   */
  order(root: number): Order {
    const cached = this.orders[root];
    if (cached !== undefined) return cached;
    const n = this.size;
    const posOf = new Int32Array(n).fill(-1);
    const atom = new Int32Array(n);
    const parent = new Int32Array(n).fill(-1);
    const parentBond = new Int32Array(n);
    const score = (b: number, bondMask: number): number => {
      const l = this.exactLabel[b]!;
      const ls = l === 6 + AROMATIC_OFFSET ? 3 : l === 6 ? 2 : l < 0 ? 3 : 0;
      const bs = bondMask === 1 << 2 || bondMask === 1 << 3 ? 0 : bondMask === 1 << 1 || bondMask === 1 << 4 ? 1 : 2;
      return ls + bs;
    };
    atom[0] = root;
    posOf[root] = 0;
    for (let filled = 1; filled < n; filled++) {
      let best = -1;
      let bestScore = Infinity;
      let bestParent = -1;
      let bestBond = 0;
      for (let k = 0; k < filled; k++) {
        const a = atom[k]!;
        for (let j = this.adjStart[a]!; j < this.adjStart[a + 1]!; j++) {
          const b = this.adjTo[j]!;
          if (posOf[b]! >= 0) continue;
          const sc = score(b, this.adjBond[j]!);
          if (sc < bestScore) {
            best = b;
            bestScore = sc;
            bestParent = k;
            bestBond = this.adjBond[j]!;
          }
        }
      }
      if (best < 0) break;
      posOf[best] = filled;
      atom[filled] = best;
      parent[filled] = bestParent;
      parentBond[filled] = bestBond;
    }
    const filled = posOf.reduce((c, p) => c + (p >= 0 ? 1 : 0), 0);
    if (filled !== n) throw new Error(`SMARTS ${this.smarts}: query is not connected`);
    const closeStart = new Int32Array(n + 1);
    const closePos: number[] = [];
    const closeBond: number[] = [];
    for (let k = 0; k < n; k++) {
      closeStart[k] = closePos.length;
      const a = atom[k]!;
      for (let j = this.adjStart[a]!; j < this.adjStart[a + 1]!; j++) {
        const p = posOf[this.adjTo[j]!]!;
        if (p < k && p !== parent[k]) {
          closePos.push(p);
          closeBond.push(this.adjBond[j]!);
        }
      }
    }
    closeStart[n] = closePos.length;
    const o: Order = { atom, parent, parentBond, closeStart, closePos: Int32Array.from(closePos), closeBond: Int32Array.from(closeBond) };
    this.orders[root] = o;
    return o;
  }
}

/**
 * A 96-bit summary of edge types (hash values 0…255 folded to 64 bits) and labels (32 bits):
 * a query can only occur in a molecule if its screen is a subset of the molecule's.
 */
function screenBits(edgeTypes: Iterable<number>, labels: Iterable<number>): Int32Array {
  const s = new Int32Array(SCREEN_WORDS);
  for (const h of edgeTypes) s[(h >>> 5) & 1]! |= 1 << (h & 31);
  for (const l of labels) s[2]! |= 1 << (Math.imul(l, 0x9e3779b1) >>> 27);
  return s;
}
const SCREEN_WORDS = 3;

/** Bit of a (bond label, atom label) neighbour in 32-bit neighbour signatures. */
function neighbourBit(bond: number, label: number): number {
  return 1 << (Math.imul(bond * 331 + label, 0x9e3779b1) >>> 27);
}

/** Edge types are hashed into 0…255. */
const EDGE_TYPES = 256;
function edgeHash(bond: number, la: number, lb: number): number {
  const lo = la < lb ? la : lb;
  const hi = la < lb ? lb : la;
  return Math.imul((bond * 331 + lo) * 337 + hi, 0x9e3779b1) >>> 24;
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

// ---------------------------------------------------------------------------------------------
// Molecules

/** A molecule prepared for matching (adjacency, label histogram, edge-type bits). */
export class MolTarget {
  readonly size: number;
  readonly labels: Int32Array;
  readonly degree: Int32Array;
  /** Per atom, the bits `neighbourBit(bond, label)` of its neighbours. */
  readonly neighbourSig: Int32Array;
  readonly adjStart: Int32Array;
  readonly adjTo: Int32Array;
  readonly adjBond: Int32Array;
  /** Atoms per label: byLabelStart[l]…byLabelStart[l+1] in byLabel. */
  readonly byLabelStart: Int32Array;
  readonly byLabel: Int32Array;
  /** Distinct labels present. */
  readonly distinct: Int32Array;
  /** 1 for every (hashed) edge type present. */
  readonly edgeTypes: Uint8Array;
  /** Atoms per label. */
  readonly labelCount: Int32Array;
  /** Screen bits (see `screenBits`). */
  readonly screen: Int32Array;
  readonly nBonds: number;
  /** Results of recursive sub-queries per atom, by query uid (filled on demand). */
  readonly recursive = new Map<number, Uint8Array>();
  /** Search scratch: atom in use by the current partial embedding. */
  readonly used: Uint8Array;

  constructor(g: MolGraph) {
    const n = g.labels.length;
    this.size = n;
    this.labels = Int32Array.from(g.labels);
    for (const l of this.labels) if (l < 0 || l >= NLABELS) throw new Error(`atom label ${l} outside 0…${NLABELS - 1}`);
    const B = g.bonds;
    this.nBonds = B.length / 3;
    this.degree = new Int32Array(n);
    for (let k = 0; k < B.length; k += 3) {
      this.degree[B[k]!]!++;
      this.degree[B[k + 1]!]!++;
    }
    this.adjStart = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) this.adjStart[i + 1] = this.adjStart[i]! + this.degree[i]!;
    this.adjTo = new Int32Array(this.adjStart[n]!);
    this.adjBond = new Int32Array(this.adjStart[n]!);
    const fill = this.adjStart.slice(0, n);
    this.edgeTypes = new Uint8Array(EDGE_TYPES);
    this.neighbourSig = new Int32Array(n);
    for (let k = 0; k < B.length; k += 3) {
      const a = B[k]!;
      const b = B[k + 1]!;
      const bo = B[k + 2]!;
      this.adjTo[fill[a]!] = b;
      this.adjBond[fill[a]!++] = bo;
      this.adjTo[fill[b]!] = a;
      this.adjBond[fill[b]!++] = bo;
      this.edgeTypes[edgeHash(bo, this.labels[a]!, this.labels[b]!)] = 1;
      this.neighbourSig[a]! |= neighbourBit(bo, this.labels[b]!);
      this.neighbourSig[b]! |= neighbourBit(bo, this.labels[a]!);
    }
    const hist = new Int32Array(NLABELS + 1);
    for (const l of this.labels) hist[l + 1]!++;
    this.labelCount = hist.slice(1);
    const distinct: number[] = [];
    for (let l = 0; l < NLABELS; l++) if (hist[l + 1]! > 0) distinct.push(l);
    this.distinct = Int32Array.from(distinct);
    const types: number[] = [];
    this.edgeTypes.forEach((x, h) => {
      if (x) types.push(h);
    });
    this.screen = screenBits(types, distinct);

    for (let l = 0; l < NLABELS; l++) hist[l + 1]! += hist[l]!;
    this.byLabelStart = hist;
    this.byLabel = new Int32Array(n);
    const pos = hist.slice(0, NLABELS);
    for (let i = 0; i < n; i++) this.byLabel[pos[this.labels[i]!]!++] = i;
    this.used = new Uint8Array(n);
  }

  /** Number of atoms with label l. */
  count(l: number): number {
    return this.byLabelStart[l + 1]! - this.byLabelStart[l]!;
  }
}

const prepared = new WeakMap<MolGraph, MolTarget>();

/** The prepared form of a molecule graph (cached per graph object). */
export function prepareMolecule(g: MolGraph | MolTarget): MolTarget {
  if (g instanceof MolTarget) return g;
  let t = prepared.get(g);
  if (t === undefined) {
    t = new MolTarget(g);
    prepared.set(g, t);
  }
  return t;
}

/**
 * Encode a SMILES as the miners do (§1.3) and prepare it. Aromatic perception on by default:
 * that is how fminer's SMARTS were matched by lazar (OpenBabel perceives aromaticity when
 * matching, also for SMARTS mined with aromatic perception off). Null if RDKit cannot parse it.
 */
export function moleculeFromSmiles(rdkit: RDKit, smiles: string, aromatic = true): MolTarget | null {
  const graph = encodeGraph(rdkit, smiles, aromatic);
  return graph === null ? null : new MolTarget(graph);
}

// ---------------------------------------------------------------------------------------------
// Search

/** Preallocated search state (searches never nest: recursive sub-queries are evaluated first). */
const ws = {
  map: new Int32Array(64),
  iter: new Int32Array(64),
  end: new Int32Array(64),
  stack: new Uint8Array(64),
  rec: [] as Uint8Array[],
};
function ensureWorkspace(n: number, progLen: number): void {
  if (ws.map.length < n) {
    const m = Math.max(n, ws.map.length * 2);
    ws.map = new Int32Array(m);
    ws.iter = new Int32Array(m);
    ws.end = new Int32Array(m);
  }
  if (ws.stack.length < progLen) ws.stack = new Uint8Array(Math.max(progLen, ws.stack.length * 2));
}

/** Evaluate atom i's recursive expression program on target atom a. */
function evalProgram(q: SmartsQuery, i: number, t: MolTarget, a: number): boolean {
  const prog = q.prog;
  const stack = ws.stack;
  const l = t.labels[a]!;
  let sp = 0;
  let pc = q.progStart[i]!;
  const end = q.progEnd[i]!;
  while (pc < end) {
    switch (prog[pc]!) {
      case OP_MASK:
        stack[sp++] = (q.progMasks[prog[pc + 1]! * W + (l >> 5)]! >>> (l & 31)) & 1;
        pc += 2;
        break;
      case OP_REC:
        stack[sp++] = ws.rec[prog[pc + 1]!]![a]!;
        pc += 2;
        break;
      case OP_NOT:
        stack[sp - 1] = stack[sp - 1]! ^ 1;
        pc++;
        break;
      case OP_AND:
        sp--;
        stack[sp - 1] = stack[sp - 1]! & stack[sp]!;
        pc++;
        break;
      default:
        sp--;
        stack[sp - 1] = stack[sp - 1]! | stack[sp]!;
        pc++;
        break;
    }
  }
  return stack[0] === 1;
}

/** Make sure the results of q's recursive sub-queries are known on t. */
function prepareRecursive(q: SmartsQuery, t: MolTarget): void {
  for (const r of q.recursive) {
    if (t.recursive.has(r.uid)) continue;
    const res = new Uint8Array(t.size);
    bindSlots(r, t);
    const o = r.order(0);
    for (let a = 0; a < t.size; a++) {
      if (r.admits(0, t.labels[a]!) && t.degree[a]! >= r.degree[0]!) res[a] = search(r, o, t, a, a + 1, 1) > 0 ? 1 : 0;
    }
    t.recursive.set(r.uid, res);
  }
  bindSlots(q, t);
}
function bindSlots(q: SmartsQuery, t: MolTarget): void {
  for (let s = 0; s < q.slots.length; s++) ws.rec[s] = t.recursive.get(q.slots[s]!.uid)!;
}

/**
 * Backtracking over the order o; root candidates are target atoms rootFrom…rootTo-1 (or the
 * atoms of one label when rootTo < 0: byLabel[rootFrom…-rootTo-1]). Stops after `limit`
 * embeddings. Returns the number found.
 */
function search(q: SmartsQuery, o: Order, t: MolTarget, rootFrom: number, rootTo: number, limit: number): number {
  const n = q.size;
  ensureWorkspace(n, q.prog.length);
  const map = ws.map;
  const iter = ws.iter;
  const end = ws.end;
  const used = t.used;
  const labels = t.labels;
  const tdeg = t.degree;
  const tsig = t.neighbourSig;
  const qsig = q.neighbourSig;
  const adjStart = t.adjStart;
  const adjTo = t.adjTo;
  const adjBond = t.adjBond;
  const qAtom = o.atom;
  const parent = o.parent;
  const parentBond = o.parentBond;
  const closeStart = o.closeStart;
  const closePos = o.closePos;
  const closeBond = o.closeBond;
  const masks = q.masks;
  const qdeg = q.degree;
  const progStart = q.progStart;
  const byLabel = rootTo < 0;
  let count = 0;
  let k = 0;
  iter[0] = rootFrom;
  end[0] = byLabel ? -rootTo - 1 : rootTo;
  for (;;) {
    // Next candidate for position k.
    const i = qAtom[k]!;
    const mOff = i * W;
    const minDeg = qdeg[i]!;
    const sig = qsig[i]!;
    const hasProg = progStart[i]! >= 0;
    let found = -1;
    if (k === 0) {
      while (iter[0]! < end[0]!) {
        const a = byLabel ? t.byLabel[iter[0]!]! : iter[0]!;
        iter[0]!++;
        const l = labels[a]!;
        if (((masks[mOff + (l >> 5)]! >>> (l & 31)) & 1) === 0 || tdeg[a]! < minDeg || (sig & ~tsig[a]!) !== 0) continue;
        if (hasProg && !evalProgram(q, i, t, a)) continue;
        found = a;
        break;
      }
    } else {
      const bm = parentBond[k]!;
      const c0 = closeStart[k]!;
      const c1 = closeStart[k + 1]!;
      while (iter[k]! < end[k]!) {
        const j = iter[k]!++;
        const a = adjTo[j]!;
        if (used[a] === 1 || ((bm >>> adjBond[j]!) & 1) === 0) continue;
        const l = labels[a]!;
        if (((masks[mOff + (l >> 5)]! >>> (l & 31)) & 1) === 0 || tdeg[a]! < minDeg || (sig & ~tsig[a]!) !== 0) continue;
        if (c0 < c1) {
          let ok = true;
          for (let c = c0; c < c1 && ok; c++) {
            const b = map[closePos[c]!]!;
            const cm = closeBond[c]!;
            ok = false;
            for (let x = adjStart[a]!, xe = adjStart[a + 1]!; x < xe; x++) {
              if (adjTo[x] === b) {
                ok = ((cm >>> adjBond[x]!) & 1) === 1;
                break;
              }
            }
          }
          if (!ok) continue;
        }
        if (hasProg && !evalProgram(q, i, t, a)) continue;
        found = a;
        break;
      }
    }
    if (found < 0) {
      if (k === 0) return count;
      k--;
      used[map[k]!] = 0;
      continue;
    }
    if (k === n - 1) {
      count++;
      if (count >= limit) {
        for (let p = 0; p < k; p++) used[map[p]!] = 0;
        return count;
      }
      continue; // next candidate at the same position
    }
    map[k] = found;
    used[found] = 1;
    k++;
    const pa = map[parent[k]!]!;
    iter[k] = adjStart[pa]!;
    end[k] = adjStart[pa + 1]!;
  }
}

/**
 * Root choice: the atom with the fewest candidates in t (exact labels: atoms of that label;
 * other atoms: atoms of any admitted label), ties → higher degree. Returns -1 when some atom
 * has no candidate at all.
 */
function chooseRoot(q: SmartsQuery, t: MolTarget): number {
  let best = -1;
  let bestCount = Infinity;
  for (let i = 0; i < q.size; i++) {
    let c = 0;
    const ex = q.exactLabel[i]!;
    if (ex >= 0) c = t.count(ex);
    else for (let d = 0; d < t.distinct.length; d++) if (q.admits(i, t.distinct[d]!)) c += t.count(t.distinct[d]!);
    if (c === 0) return -1;
    if (c < bestCount || (c === bestCount && q.degree[i]! > q.degree[best]!)) {
      best = i;
      bestCount = c;
    }
  }
  return best;
}

/**
 * Quick necessary conditions (sizes, required edge types, required label counts) and the
 * search root: the exact-label atom whose label is rarest in t (ties: first label listed),
 * or, for queries without exact labels, `chooseRoot`. Returns -1 when q cannot occur in t.
 */
function prefilterAndRoot(q: SmartsQuery, t: MolTarget): number {
  if (q.size > t.size || q.nEdges > t.nBonds) return -1;
  const qe = q.requiredEdges;
  const te = t.edgeTypes;
  for (let k = 0; k < qe.length; k++) if (te[qe[k]!] === 0) return -1;
  const req = q.requiredLabels;
  const cnt = t.labelCount;
  let root = -1;
  let best = 0x7fffffff;
  for (let k = 0; k < req.length; k += 3) {
    const c = cnt[req[k]!]!;
    if (c < req[k + 1]!) return -1;
    if (c < best) {
      best = c;
      root = req[k + 2]!;
    }
  }
  return root >= 0 ? root : chooseRoot(q, t);
}

function passesPrefilter(q: SmartsQuery, t: MolTarget): boolean {
  return prefilterAndRoot(q, t) >= 0;
}

function run(q: SmartsQuery, t: MolTarget, limit: number): number {
  if (limit <= 0) return 0;
  const root = prefilterAndRoot(q, t);
  if (root < 0) return 0;
  if (q.recursive.length > 0) prepareRecursive(q, t);
  const o = q.order(root);
  const ex = q.exactLabel[root]!;
  if (ex >= 0) return search(q, o, t, t.byLabelStart[ex]!, -t.byLabelStart[ex + 1]! - 1, limit);
  return search(q, o, t, 0, t.size, limit);
}

function toQuery(q: SmartsQuery | string): SmartsQuery {
  return typeof q === "string" ? compileSmarts(q) : q;
}

/** Does the query occur in the molecule? */
export function matches(query: SmartsQuery | string, mol: MolGraph | MolTarget): boolean {
  return run(toQuery(query), prepareMolecule(mol), 1) > 0;
}

/**
 * Number of embeddings (injective atom mappings, automorphic images counted separately: fminer's
 * and OpenBabel's hit count), at most `limit`.
 */
export function countEmbeddings(query: SmartsQuery | string, mol: MolGraph | MolTarget, limit = Number.MAX_SAFE_INTEGER): number {
  return run(toQuery(query), prepareMolecule(mol), limit);
}

/** The embeddings as query-atom → molecule-atom arrays (for tests and diagnostics; allocates). */
export function embeddings(query: SmartsQuery | string, mol: MolGraph | MolTarget, limit = 100000): Int32Array[] {
  const q = toQuery(query);
  const t = prepareMolecule(mol);
  const out: Int32Array[] = [];
  // Enumerate by anchoring the root on each candidate and extending one embedding at a time:
  // simple and only used off the hot path.
  for (let a = 0; a < t.size && out.length < limit; a++) {
    collect(q, t, a, out, limit);
  }
  return out;
}
function collect(q: SmartsQuery, t: MolTarget, root: number, out: Int32Array[], limit: number): void {
  // Plain recursive enumeration over order(0) with atom 0 fixed to `root`.
  if (!passesPrefilter(q, t)) return;
  prepareRecursive(q, t);
  const o = q.order(0);
  const map = new Int32Array(q.size);
  const used = new Uint8Array(t.size);
  const ok = (k: number, a: number): boolean => {
    const i = o.atom[k]!;
    if (!q.admits(i, t.labels[a]!) || t.degree[a]! < q.degree[i]!) return false;
    if (q.progStart[i]! >= 0) {
      bindSlots(q, t);
      ensureWorkspace(q.size, q.prog.length);
      if (!evalProgram(q, i, t, a)) return false;
    }
    for (let c = o.closeStart[k]!; c < o.closeStart[k + 1]!; c++) {
      const b = map[o.closePos[c]!]!;
      let bo = 0;
      for (let x = t.adjStart[a]!; x < t.adjStart[a + 1]!; x++) if (t.adjTo[x] === b) bo = t.adjBond[x]!;
      if (bo === 0 || ((o.closeBond[c]! >>> bo) & 1) === 0) return false;
    }
    return true;
  };
  const rec = (k: number): void => {
    if (out.length >= limit) return;
    if (k === q.size) {
      const e = new Int32Array(q.size);
      for (let p = 0; p < q.size; p++) e[o.atom[p]!] = map[p]!;
      out.push(e);
      return;
    }
    const pa = map[o.parent[k]!]!;
    for (let j = t.adjStart[pa]!; j < t.adjStart[pa + 1]!; j++) {
      const a = t.adjTo[j]!;
      if (used[a] || ((o.parentBond[k]! >>> t.adjBond[j]!) & 1) === 0 || !ok(k, a)) continue;
      map[k] = a;
      used[a] = 1;
      rec(k + 1);
      used[a] = 0;
    }
  };
  if (!ok(0, root)) return;
  map[0] = root;
  used[root] = 1;
  rec(1);
}

// ---------------------------------------------------------------------------------------------
// Batches

/**
 * Many queries against one molecule at a time (a model's features against a query compound).
 * Recursive sub-queries with the same text are compiled once and evaluated once per molecule.
 */
export class QuerySet {
  readonly queries: readonly SmartsQuery[];
  /** Screens of all queries, SCREEN_WORDS per query, for a branch-light first pass. */
  private readonly screens: Int32Array;

  constructor(smarts: readonly (string | SmartsQuery)[]) {
    const intern = new Map<string, SmartsQuery>();
    this.queries = smarts.map((s) => (typeof s === "string" ? compileSmarts(s, intern) : s));
    this.screens = new Int32Array(this.queries.length * SCREEN_WORDS);
    this.queries.forEach((q, k) => this.screens.set(q.screen, k * SCREEN_WORDS));
  }

  get size(): number {
    return this.queries.length;
  }

  /** Screen pass: out[k] = 1 when query k may occur in t (0 = certainly not). */
  private screenPass(t: MolTarget, out: Uint8Array | Int32Array): void {
    const sc = this.screens;
    const t0 = ~t.screen[0]!;
    const t1 = ~t.screen[1]!;
    const t2 = ~t.screen[2]!;
    for (let k = 0, o = 0; k < out.length; k++, o += SCREEN_WORDS) {
      out[k] = ((sc[o]! & t0) | (sc[o + 1]! & t1) | (sc[o + 2]! & t2)) === 0 ? 1 : 0;
    }
  }

  /** 1 where query k occurs in the molecule, else 0. */
  matchAll(mol: MolGraph | MolTarget, out = new Uint8Array(this.queries.length)): Uint8Array {
    const t = prepareMolecule(mol);
    this.screenPass(t, out);
    for (let k = 0; k < out.length; k++) if (out[k] === 1) out[k] = run(this.queries[k]!, t, 1);
    return out;
  }

  /** Hit count (embeddings) of every query in the molecule, each at most `limit`. */
  countAll(mol: MolGraph | MolTarget, limit = Number.MAX_SAFE_INTEGER, out = new Int32Array(this.queries.length)): Int32Array {
    const t = prepareMolecule(mol);
    this.screenPass(t, out);
    for (let k = 0; k < out.length; k++) if (out[k] === 1) out[k] = run(this.queries[k]!, t, limit);
    return out;
  }

  /** Indices of the queries occurring in the molecule, ascending. */
  matching(mol: MolGraph | MolTarget): number[] {
    const hits = this.matchAll(mol);
    const out: number[] = [];
    for (let k = 0; k < hits.length; k++) if (hits[k] === 1) out.push(k);
    return out;
  }
}
