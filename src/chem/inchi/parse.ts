/**
 * Parser of standard InChI strings (`InChI=1S/…`) into their layers.
 *
 * Handled layers (InChI Technical Manual, §"Layers"): the formula; main layer `/c` (connections)
 * and `/h` (fixed and mobile hydrogens, `(H2,1,2,3)`, `(H-,4,5)`); charge layer `/q` and proton
 * layer `/p`; stereo layers `/b`, `/t`, `/m`, `/s`; isotopic layer `/i` with its own `/h`
 * (exchangeable isotopic H), `/b`, `/t`, `/m`, `/s`. Non-standard layers (`/f` fixed-H,
 * `/r` reconnected metals) are rejected. Every error names the layer it was found in.
 *
 * Atom numbering follows InChI: within a component, atoms are numbered in the order of the
 * elements of its formula (Hill order: C first, then the others alphabetically), hydrogen
 * excluded, except for a component made of hydrogen only (`H2`, `H`), whose one numbered atom is
 * an H.
 */

import { isElement } from "./elements.ts";

export class InchiError extends Error {
  constructor(
    readonly layer: string,
    detail: string,
  ) {
    super(`${layer}: ${detail}`);
    this.name = "InchiError";
  }
}

/** A mobile-H group: `count` hydrogens (and `minus` negative charges) shared by `atoms`. */
export interface MobileGroup {
  readonly count: number;
  readonly minus: number;
  /** 0-based atom numbers within the component. */
  readonly atoms: readonly number[];
}

/** Isotopic information of one atom (`/i` layer). */
export interface AtomIsotope {
  /** Mass difference to InChI's reference mass of the element (0 when only H isotopes). */
  readonly shift: number;
  readonly d: number;
  readonly t: number;
  readonly h1: number;
}

export interface InchiComponent {
  /** Element of each numbered atom, in InChI numbering. */
  readonly elements: readonly string[];
  /** Number of hydrogens of the formula. */
  readonly hydrogens: number;
  /** Bonds, 0-based atom numbers, each once. */
  readonly bonds: ReadonlyArray<readonly [number, number]>;
  /** Fixed (immobile) hydrogens per atom. */
  readonly fixedH: readonly number[];
  readonly mobile: readonly MobileGroup[];
  /** Charge of the component (`/q`). */
  readonly charge: number;
  /** Isotopic atoms by 0-based atom number (`/i`). */
  readonly isotopes: ReadonlyMap<number, AtomIsotope>;
  /** Tetrahedral parities `/t` by 0-based atom number: "+", "-", "?", "u". */
  readonly tetra: ReadonlyMap<number, string>;
  /** Double-bond parities `/b`: [atom, atom, parity]. */
  readonly doubleBonds: ReadonlyArray<readonly [number, number, string]>;
  /** `/m` for this component: 1 = the structure is the mirror image of the `/t` parities. */
  readonly inverted: boolean;
}

export interface ParsedInchi {
  readonly components: readonly InchiComponent[];
  /** `/p`: protons to add (positive) or remove (negative) from the main-layer structure. */
  readonly protons: number;
  /** The `/s` value (1 absolute, 2 relative, 3 racemic), 0 when absent. */
  readonly stereoType: number;
  /** True when there are stereo layers (main or isotopic). */
  readonly hasStereo: boolean;
  /** Exchangeable isotopic hydrogens of the isotopic `/h` layer (`/i/hD2`): D and T counts. */
  readonly exchangeD: number;
  readonly exchangeT: number;
  readonly hasIsotopes: boolean;
}

const LAYER_NAMES: Record<string, string> = {
  c: "connection layer (/c)",
  h: "hydrogen layer (/h)",
  q: "charge layer (/q)",
  p: "proton layer (/p)",
  b: "double-bond stereo layer (/b)",
  t: "tetrahedral stereo layer (/t)",
  m: "stereo inversion layer (/m)",
  s: "stereo type layer (/s)",
  i: "isotopic layer (/i)",
};

function layerName(letter: string, isotopic: boolean): string {
  const name = LAYER_NAMES[letter] ?? `layer /${letter}`;
  return isotopic && letter !== "i" ? `isotopic ${name}` : name;
}

interface FormulaComponent {
  readonly elements: string[];
  readonly hydrogens: number;
}

const FORMULA_LAYER = "formula layer";

/** Formula layer → one entry per component (multipliers expanded). */
function parseFormula(text: string): FormulaComponent[] {
  if (text === "") throw new InchiError(FORMULA_LAYER, "empty formula");
  const out: FormulaComponent[] = [];
  for (const part of text.split(".")) {
    const m = /^(\d*)((?:[A-Z][a-z]?\d*)+)$/.exec(part);
    if (m === null) throw new InchiError(FORMULA_LAYER, `cannot read component "${part}"`);
    const times = m[1] === "" ? 1 : Number(m[1]);
    if (!(times >= 1 && times <= 1000)) throw new InchiError(FORMULA_LAYER, `bad multiplier in "${part}"`);
    const elements: string[] = [];
    let hydrogens = 0;
    for (const e of m[2]!.matchAll(/([A-Z][a-z]?)(\d*)/g)) {
      const n = e[2] === "" ? 1 : Number(e[2]);
      if (!(n >= 1 && n <= 10000)) throw new InchiError(FORMULA_LAYER, `bad count in "${part}"`);
      if (!isElement(e[1]!)) throw new InchiError(FORMULA_LAYER, `unknown element "${e[1]}"`);
      if (e[1] === "H") hydrogens += n;
      else for (let k = 0; k < n; k++) elements.push(e[1]!);
    }
    // A component of hydrogen only: one numbered H atom carrying the others.
    if (elements.length === 0) {
      elements.push("H");
      hydrogens -= 1;
    }
    if (elements.length > 2000) throw new InchiError(FORMULA_LAYER, "too many atoms");
    for (let k = 0; k < times; k++) out.push({ elements, hydrogens });
  }
  return out;
}

/**
 * Split a layer into per-component strings: `;` separates components, `n*` repeats one.
 * Missing trailing components are empty.
 */
function splitComponents(text: string, count: number, layer: string): string[] {
  const out: string[] = [];
  if (text === "") return new Array<string>(count).fill("");
  for (const part of text.split(";")) {
    const m = /^(\d+)\*(.*)$/.exec(part);
    if (m !== null) {
      const times = Number(m[1]);
      if (times < 1) throw new InchiError(layer, `bad multiplier in "${part}"`);
      for (let k = 0; k < times; k++) out.push(m[2]!);
    } else out.push(part);
  }
  if (out.length > count) {
    throw new InchiError(layer, `${out.length} components but the formula has ${count}`);
  }
  while (out.length < count) out.push("");
  return out;
}

function atomNumber(token: string, n: number, layer: string): number {
  if (!/^\d+$/.test(token)) throw new InchiError(layer, `"${token}" is not an atom number`);
  const v = Number(token);
  if (v < 1 || v > n) throw new InchiError(layer, `atom ${v} does not exist (component has ${n} atoms)`);
  return v - 1;
}

/** `/c` of one component: `1-2-3(4,5)6` → bonds. */
function parseConnections(text: string, n: number, layer: string): Array<[number, number]> {
  const bonds: Array<[number, number]> = [];
  const seen = new Set<number>();
  if (text === "") return bonds;
  const tokens = text.match(/\d+|[-(),]|[^\d\-(),]+/g) ?? [];
  let current = -1;
  let expectAtom = true;
  const stack: number[] = [];
  for (const tok of tokens) {
    if (/^\d+$/.test(tok)) {
      if (!expectAtom) throw new InchiError(layer, `unexpected atom number ${tok} in "${text}"`);
      const a = atomNumber(tok, n, layer);
      if (current >= 0) {
        if (a === current) throw new InchiError(layer, `atom ${tok} bonded to itself in "${text}"`);
        const key = Math.min(a, current) * 100000 + Math.max(a, current);
        if (!seen.has(key)) {
          seen.add(key);
          bonds.push([current, a]);
        }
      }
      current = a;
      expectAtom = false;
    } else if (tok === "-") {
      if (expectAtom) throw new InchiError(layer, `unexpected "-" in "${text}"`);
      expectAtom = true;
    } else if (tok === "(") {
      if (current < 0 || expectAtom) throw new InchiError(layer, `unexpected "(" in "${text}"`);
      stack.push(current);
      expectAtom = true;
    } else if (tok === ",") {
      if (stack.length === 0 || expectAtom) throw new InchiError(layer, `unexpected "," in "${text}"`);
      current = stack[stack.length - 1]!;
      expectAtom = true;
    } else if (tok === ")") {
      if (stack.length === 0 || expectAtom) throw new InchiError(layer, `unbalanced ")" in "${text}"`);
      current = stack.pop()!;
      expectAtom = true;
    } else {
      throw new InchiError(layer, `unexpected "${tok}" in "${text}"`);
    }
  }
  if (expectAtom || stack.length > 0) throw new InchiError(layer, `incomplete connection table "${text}"`);
  return bonds;
}

/** `/h` of one component: `1-3,5H2,4H,(H,6,7)(H2-,8,9,10)` → fixed H per atom and mobile groups. */
function parseHydrogens(text: string, n: number, layer: string): { fixed: number[]; mobile: MobileGroup[] } {
  const fixed = new Array<number>(n).fill(0);
  const mobile: MobileGroup[] = [];
  let i = 0;
  let pending: number[] = [];
  const readInt = (): string => {
    const start = i;
    while (i < text.length && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    return text.slice(start, i);
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "(") {
      if (pending.length > 0) throw new InchiError(layer, `atoms without H count before "(" in "${text}"`);
      const close = text.indexOf(")", i);
      if (close < 0) throw new InchiError(layer, `unclosed "(" in "${text}"`);
      const parts = text.slice(i + 1, close).split(",");
      const head = /^H(\d*)(-(\d*))?$/.exec(parts[0] ?? "");
      if (head === null) throw new InchiError(layer, `bad mobile-H group "(${text.slice(i + 1, close)})"`);
      const count = head[1] === "" ? 1 : Number(head[1]);
      const minus = head[2] === undefined ? 0 : head[3] === "" ? 1 : Number(head[3]);
      const atoms = parts.slice(1).map((t) => atomNumber(t, n, layer));
      if (atoms.length < 2) throw new InchiError(layer, `mobile-H group with fewer than 2 atoms in "${text}"`);
      mobile.push({ count, minus, atoms });
      i = close + 1;
      if (text[i] === ",") i++;
      continue;
    }
    const num = readInt();
    if (num === "") throw new InchiError(layer, `unexpected "${ch}" in "${text}"`);
    const a = atomNumber(num, n, layer);
    if (text[i] === "-") {
      i++;
      const to = readInt();
      if (to === "") throw new InchiError(layer, `incomplete range in "${text}"`);
      const b = atomNumber(to, n, layer);
      if (b < a) throw new InchiError(layer, `descending range ${num}-${to} in "${text}"`);
      for (let k = a; k <= b; k++) pending.push(k);
    } else pending.push(a);
    if (text[i] === ",") {
      i++;
      continue;
    }
    if (text[i] === "H") {
      i++;
      const c = readInt();
      const count = c === "" ? 1 : Number(c);
      for (const k of pending) {
        if (fixed[k]! !== 0) throw new InchiError(layer, `atom ${k + 1} listed twice in "${text}"`);
        fixed[k] = count;
      }
      pending = [];
      if (i < text.length) {
        if (text[i] === ",") i++;
        else if (text[i] !== "(") throw new InchiError(layer, `unexpected "${text[i]}" in "${text}"`);
      }
      continue;
    }
    throw new InchiError(layer, `expected "H" after atom numbers in "${text}"`);
  }
  if (pending.length > 0) throw new InchiError(layer, `atoms without H count in "${text}"`);
  return { fixed, mobile };
}

/** `/m`: one character per component, `0`, `1` or `.` (none). */
function splitFlags(text: string, count: number, layer: string): string[] {
  if (!/^[01.]*$/.test(text)) throw new InchiError(layer, `bad value "${text}"`);
  if (text.length > count) throw new InchiError(layer, `${text.length} components but the formula has ${count}`);
  const out: string[] = [];
  for (let k = 0; k < count; k++) out.push(text[k] === "0" || text[k] === "1" ? text[k]! : "");
  return out;
}

function parseCharge(text: string, layer: string): number {
  if (text === "") return 0;
  if (!/^[+-]\d+$/.test(text)) throw new InchiError(layer, `bad charge "${text}"`);
  return Number(text);
}

/** `/i` of one component: `1+1,2D,3-1H2T` → isotopes by atom. */
function parseIsotopes(text: string, n: number, layer: string): Map<number, AtomIsotope> {
  const out = new Map<number, AtomIsotope>();
  if (text === "") return out;
  for (const item of text.split(",")) {
    const m = /^(\d+)(?:-(\d+))?([+-]\d+)?((?:[HDT]\d*)*)$/.exec(item);
    if (m === null || (m[3] === undefined && m[4] === "")) throw new InchiError(layer, `bad isotope "${item}"`);
    const from = atomNumber(m[1]!, n, layer);
    const to = m[2] === undefined ? from : atomNumber(m[2], n, layer);
    let d = 0;
    let t = 0;
    let h1 = 0;
    for (const h of m[4]!.matchAll(/([HDT])(\d*)/g)) {
      const c = h[2] === "" ? 1 : Number(h[2]);
      if (h[1] === "D") d += c;
      else if (h[1] === "T") t += c;
      else h1 += c;
    }
    for (let a = from; a <= to; a++) out.set(a, { shift: m[3] === undefined ? 0 : Number(m[3]), d, t, h1 });
  }
  return out;
}

function parseTetra(text: string, n: number, layer: string): Map<number, string> {
  const out = new Map<number, string>();
  if (text === "") return out;
  for (const item of text.split(",")) {
    const m = /^(\d+)([-+?u])$/.exec(item);
    if (m === null) throw new InchiError(layer, `bad parity "${item}"`);
    out.set(atomNumber(m[1]!, n, layer), m[2]!);
  }
  return out;
}

function parseDoubleBonds(text: string, n: number, layer: string): Array<[number, number, string]> {
  const out: Array<[number, number, string]> = [];
  if (text === "") return out;
  for (const item of text.split(",")) {
    const m = /^(\d+)-(\d+)([-+?u])$/.exec(item);
    if (m === null) throw new InchiError(layer, `bad double-bond parity "${item}"`);
    out.push([atomNumber(m[1]!, n, layer), atomNumber(m[2]!, n, layer), m[3]!]);
  }
  return out;
}

const MAIN_ORDER = "chqpbtmsi";
const ISO_ORDER = "hbtms";

/** Parse a standard InChI. Throws InchiError naming the offending layer. */
export function parseInchi(inchi: string): ParsedInchi {
  const text = inchi.trim();
  if (!text.startsWith("InChI=")) throw new InchiError("prefix", 'an InChI starts with "InChI="');
  const body = text.slice(6);
  if (body.startsWith("1/")) throw new InchiError("version", "non-standard InChI (InChI=1/…) is not supported");
  if (!body.startsWith("1S/")) throw new InchiError("version", 'expected a standard InChI ("InChI=1S/…")');
  const parts = body.slice(3).split("/");
  if (parts.length === 0 || parts[0] === "") throw new InchiError(FORMULA_LAYER, "empty formula");

  let formula: FormulaComponent[] = [];
  let start = 1;
  // The bare proton, InChI=1S/p+1, has no formula layer.
  if (/^[a-z]/.test(parts[0]!)) start = 0;
  else formula = parseFormula(parts[0]!);
  const nc = formula.length;

  const main = new Map<string, string>();
  const iso = new Map<string, string>();
  let isotopic = false;
  let lastMain = -1;
  let lastIso = -1;
  for (let k = start; k < parts.length; k++) {
    const part = parts[k]!;
    const letter = part[0] ?? "";
    if (letter === "f") throw new InchiError("fixed-H layer (/f)", "not part of a standard InChI");
    if (letter === "r") throw new InchiError("reconnected layer (/r)", "not part of a standard InChI");
    if (!isotopic) {
      const pos = MAIN_ORDER.indexOf(letter);
      if (letter === "" || pos < 0) throw new InchiError(`layer ${k + 1}`, `unknown layer "/${part}"`);
      if (pos <= lastMain) throw new InchiError(layerName(letter, false), "out of order or repeated");
      lastMain = pos;
      if (letter === "i") isotopic = true;
      main.set(letter, part.slice(1));
    } else {
      const pos = ISO_ORDER.indexOf(letter);
      if (letter === "" || pos < 0) throw new InchiError(`layer ${k + 1}`, `unknown isotopic layer "/${part}"`);
      if (pos <= lastIso) throw new InchiError(layerName(letter, true), "out of order or repeated");
      lastIso = pos;
      iso.set(letter, part.slice(1));
    }
  }
  if (nc === 0 && [...main.keys()].some((l) => l !== "p")) {
    throw new InchiError(FORMULA_LAYER, "missing formula");
  }

  const cText = splitComponents(main.get("c") ?? "", nc, layerName("c", false));
  const hText = splitComponents(main.get("h") ?? "", nc, layerName("h", false));
  const qText = splitComponents(main.get("q") ?? "", nc, layerName("q", false));
  const tText = splitComponents(main.get("t") ?? "", nc, layerName("t", false));
  const bText = splitComponents(main.get("b") ?? "", nc, layerName("b", false));
  const mText = splitFlags(main.get("m") ?? "", nc, layerName("m", false));
  const iText = splitComponents(main.get("i") ?? "", nc, layerName("i", false));
  const itText = splitComponents(iso.get("t") ?? "", nc, layerName("t", true));
  const ibText = splitComponents(iso.get("b") ?? "", nc, layerName("b", true));
  const imText = splitFlags(iso.get("m") ?? "", nc, layerName("m", true));

  const components: InchiComponent[] = [];
  for (let k = 0; k < nc; k++) {
    const f = formula[k]!;
    const n = f.elements.length;
    const bonds = parseConnections(cText[k]!, n, layerName("c", false));
    const { fixed, mobile } = parseHydrogens(hText[k]!, n, layerName("h", false));
    let total = fixed.reduce((s, v) => s + v, 0);
    const inGroup = new Set<number>();
    for (const g of mobile) {
      total += g.count;
      for (const a of g.atoms) {
        if (inGroup.has(a)) throw new InchiError(layerName("h", false), `atom ${a + 1} in two mobile-H groups`);
        inGroup.add(a);
      }
    }
    if (total !== f.hydrogens) {
      throw new InchiError(
        layerName("h", false),
        `component ${k + 1} has ${total} hydrogens but its formula has ${f.hydrogens}`,
      );
    }
    const tetra = parseTetra(tText[k]!, n, layerName("t", false));
    for (const [a, p] of parseTetra(itText[k]!, n, layerName("t", true))) tetra.set(a, p);
    const doubleBonds = parseDoubleBonds(bText[k]!, n, layerName("b", false));
    doubleBonds.push(...parseDoubleBonds(ibText[k]!, n, layerName("b", true)));
    const mFlag = (imText[k] !== "" && iso.has("t") && itText[k] !== "" ? imText[k] : mText[k]) ?? "";
    components.push({
      elements: f.elements,
      hydrogens: f.hydrogens,
      bonds,
      fixedH: fixed,
      mobile,
      charge: parseCharge(qText[k]!, layerName("q", false)),
      isotopes: parseIsotopes(iText[k]!, n, layerName("i", false)),
      tetra,
      doubleBonds,
      inverted: mFlag === "1",
    });
  }

  let protons = 0;
  if (main.has("p")) {
    const p = main.get("p")!;
    if (!/^[+-]\d+$/.test(p)) throw new InchiError(layerName("p", false), `bad proton count "${p}"`);
    protons = Number(p);
  }
  let stereoType = 0;
  const sText = iso.get("s") ?? main.get("s");
  if (sText !== undefined) {
    if (!/^[123]$/.test(sText)) throw new InchiError(layerName("s", iso.has("s")), `bad value "${sText}"`);
    stereoType = Number(sText);
  }
  let exchangeD = 0;
  let exchangeT = 0;
  const ih = iso.get("h");
  if (ih !== undefined && ih !== "") {
    for (const h of ih.matchAll(/([HDT])(\d*)|(.)/g)) {
      if (h[3] !== undefined) throw new InchiError(layerName("h", true), `bad exchangeable isotope "${ih}"`);
      const c = h[2] === "" ? 1 : Number(h[2]);
      if (h[1] === "D") exchangeD += c;
      else if (h[1] === "T") exchangeT += c;
    }
  }
  return {
    components,
    protons,
    stereoType,
    hasStereo: ["b", "t", "m", "s"].some((l) => main.has(l) || iso.has(l)),
    exchangeD,
    exchangeT,
    hasIsotopes: main.has("i"),
  };
}

/** The InChI without its stereo layers (`/b`, `/t`, `/m`, `/s`, also in the isotopic layer). */
export function stripStereo(inchi: string): string {
  const parts = inchi.split("/");
  const kept = parts.filter((p, i) => i < 2 || !/^[btms]/.test(p));
  // An isotopic layer left empty (`/i` followed by nothing) stays: the generator would not
  // write one, but stripping both sides the same way keeps the comparison fair.
  return kept.join("/");
}
