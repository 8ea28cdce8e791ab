/**
 * Cheap, lexical facts about SPARQL text (SPARQL 1.1 Query §19 grammar, tokens only): the query
 * form (the first keyword after the prologue), whether the text uses SERVICE or FROM, and the
 * result media types of each form. This is not a parser: Oxigraph in the read replica is the
 * authority on validity. The lexer skips comments, string literals, IRIs, variables and language
 * tags, so a keyword inside `"…"`, `<…>`, `# …` or a prefixed name (`ex:service`) is not seen.
 */

export type QueryForm = "SELECT" | "ASK" | "CONSTRUCT" | "DESCRIBE";

/** Result types of SELECT and ASK, the default first (SPARQL 1.1 Protocol §2.1.5). */
export const SOLUTION_FORMATS = [
  "application/sparql-results+json",
  "application/sparql-results+xml",
  "text/csv",
  "text/tab-separated-values",
] as const;

/** Result types of CONSTRUCT and DESCRIBE, the default first. */
export const GRAPH_FORMATS = ["text/turtle", "application/n-triples", "application/rdf+xml", "application/ld+json", "application/n-quads"] as const;

export function isSolutionFormat(format: string): boolean {
  return (SOLUTION_FORMATS as readonly string[]).includes(format);
}

export function isGraphFormat(format: string): boolean {
  return (GRAPH_FORMATS as readonly string[]).includes(format);
}

/** First keywords of SPARQL 1.1 Update operations. */
export const UPDATE_KEYWORDS: ReadonlySet<string> = new Set(["INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH"]);

const FORMS: ReadonlySet<string> = new Set(["SELECT", "ASK", "CONSTRUCT", "DESCRIBE"]);

// IRIREF of the grammar: '<' ([^<>"{}|^`\]-[#x00-#x20])* '>'. A '<' that does not start one is
// the less-than operator.
const IRIREF = /<[^<>"{}|^`\\\u0000-\u0020]*>/y;
const NAME_CHAR = /[\p{L}\p{N}_\-.:%\\\u00B7\u0300-\u036F\u203F-\u2040]/u;
const SPACE_OR_PUNCT = /[\s{}()[\];,<>"'#=!&|+*/^?$@]/;

/**
 * The tokens of the text, in order: bare words upper-cased (keywords, prefixed names with their
 * ':', numbers, `a`); `<>` for an IRI, `""` for a string literal, `?` for a variable. Comments,
 * language tags and punctuation are skipped.
 */
export function* words(text: string): Generator<string> {
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === "#") {
      while (i < n && text[i] !== "\n" && text[i] !== "\r") i++;
    } else if (c === '"' || c === "'") {
      i = skipString(text, i);
      yield '""';
    } else if (c === "<") {
      IRIREF.lastIndex = i;
      if (IRIREF.test(text)) {
        i = IRIREF.lastIndex;
        yield "<>";
      } else i++;
    } else if (c === "?" || c === "$" || c === "@") {
      i++;
      const start = i;
      while (i < n && NAME_CHAR.test(text[i]!) && text[i] !== ":") i++;
      if (c !== "@" && i > start) yield "?";
    } else if (SPACE_OR_PUNCT.test(c)) {
      i++;
    } else {
      const start = i;
      while (i < n && !SPACE_OR_PUNCT.test(text[i]!)) i++;
      yield text.slice(start, i).toUpperCase();
    }
  }
}

/** Index just past the string literal starting at `start` (short or long form, with escapes). */
function skipString(text: string, start: number): number {
  const q = text[start]!;
  const long = text.startsWith(q + q + q, start);
  const close = long ? q + q + q : q;
  let i = start + close.length;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\") i += 2;
    else if (text.startsWith(close, i)) return i + close.length;
    else if (!long && (c === "\n" || c === "\r")) return i; // unterminated: let the parser report it
    else i++;
  }
  return i;
}

/** The first keyword after the prologue (BASE / PREFIX declarations), upper-cased. */
export function leadingKeyword(text: string): string | undefined {
  const it = words(text);
  for (let w = it.next(); !w.done; w = it.next()) {
    if (w.value === "BASE") {
      it.next(); // its IRI
      continue;
    }
    if (w.value === "PREFIX") {
      it.next(); // the prefix name, e.g. "EX:" or ":"
      it.next(); // its IRI
      continue;
    }
    return w.value;
  }
  return undefined;
}

/** The query form, or undefined for an update or text that is not a query. */
export function queryForm(text: string): QueryForm | undefined {
  const k = leadingKeyword(text);
  return k !== undefined && FORMS.has(k) ? (k as QueryForm) : undefined;
}

export function looksLikeUpdate(text: string): boolean {
  const k = leadingKeyword(text);
  return k !== undefined && UPDATE_KEYWORDS.has(k);
}

function hasWord(text: string, word: string): boolean {
  for (const w of words(text)) if (w === word) return true;
  return false;
}

/** True when the text uses SERVICE (a federated query), even with SILENT. */
export function usesService(text: string): boolean {
  return hasWord(text, "SERVICE");
}

/** True when the query names its own dataset (FROM / FROM NAMED). */
export function usesFrom(text: string): boolean {
  return hasWord(text, "FROM");
}

// ---------------------------------------------------------------------------------------------
// Positioned tokens, the prologue's prefixes, predeclared prefixes and syntax errors in words.

/** A token of the text with its place: `start`/`end` are offsets into the text (UTF-16 units). */
export interface Token {
  readonly kind: "iri" | "string" | "open-string" | "var" | "word" | "punct";
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

const OPENERS: Readonly<Record<string, string>> = { "{": "}", "(": ")", "[": "]" };
const CLOSERS: ReadonlySet<string> = new Set(["}", ")", "]"]);

/**
 * The tokens of the text, in order, with their offsets: like `words` (comments and language tags
 * skipped), but every token kept as written, brackets and other punctuation included, and a string
 * literal that runs to the end of its line (or of the text) marked `open-string`.
 */
export function* tokens(text: string): Generator<Token> {
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    const start = i;
    if (c === "#") {
      while (i < n && text[i] !== "\n" && text[i] !== "\r") i++;
    } else if (c === '"' || c === "'") {
      i = skipString(text, i);
      const q = text.startsWith(c + c + c, start) ? c + c + c : c;
      const closed = i - start >= 2 * q.length && text.startsWith(q, i - q.length);
      yield { kind: closed ? "string" : "open-string", text: text.slice(start, i), start, end: i };
    } else if (c === "<") {
      IRIREF.lastIndex = i;
      if (IRIREF.test(text)) {
        i = IRIREF.lastIndex;
        yield { kind: "iri", text: text.slice(start, i), start, end: i };
      } else {
        i++;
        yield { kind: "punct", text: c, start, end: i };
      }
    } else if (c === "?" || c === "$" || c === "@") {
      i++;
      while (i < n && NAME_CHAR.test(text[i]!) && text[i] !== ":") i++;
      if (c !== "@") yield { kind: i > start + 1 ? "var" : "punct", text: text.slice(start, i), start, end: i };
    } else if (/\s/.test(c)) {
      i++;
    } else if (SPACE_OR_PUNCT.test(c)) {
      i++;
      yield { kind: "punct", text: c, start, end: i };
    } else {
      while (i < n && !SPACE_OR_PUNCT.test(text[i]!)) i++;
      yield { kind: "word", text: text.slice(start, i), start, end: i };
    }
  }
}

/** The prefix of a prefixed name (`ot` of `ot:Dataset`, "" of `:x`), or undefined for any other word. */
export function prefixOf(t: Token): string | undefined {
  if (t.kind !== "word") return undefined;
  const colon = t.text.indexOf(":");
  if (colon < 0 || t.text.startsWith("_:")) return undefined;
  const prefix = t.text.slice(0, colon);
  return /^([\p{L}][\p{L}\p{N}_\-.]*)?$/u.test(prefix) ? prefix : undefined;
}

/** The prologue: the prefixes it declares and the offset of the first token after it. */
export function prologue(text: string): { readonly declared: ReadonlySet<string>; readonly end: number } {
  const declared = new Set<string>();
  const list = [...tokens(text)];
  let k = 0;
  while (k < list.length) {
    const w = list[k]!.text.toUpperCase();
    if (list[k]!.kind === "word" && w === "BASE") k += 2;
    else if (list[k]!.kind === "word" && w === "PREFIX") {
      const name = list[k + 1];
      if (name?.kind === "word" && name.text.endsWith(":")) declared.add(name.text.slice(0, -1));
      k += 3;
    } else break;
  }
  return { declared, end: list[k]?.start ?? text.length };
}

/** The prefixes the text uses in prefixed names, in order of first use, each with its first token. */
export function usedPrefixes(text: string): Map<string, Token> {
  const used = new Map<string, Token>();
  let afterPrefixKeyword = false;
  for (const t of tokens(text)) {
    const p = afterPrefixKeyword ? undefined : prefixOf(t);
    afterPrefixKeyword = t.kind === "word" && t.text.toUpperCase() === "PREFIX";
    if (p !== undefined && !used.has(p)) used.set(p, t);
  }
  return used;
}

/**
 * The query with PREFIX declarations added for the prefixes of `predeclared` it uses without
 * declaring them (a declaration of its own always wins), inserted on the line of the query form,
 * just before it, so that only that line's columns shift: `at` and `added` say where and by how
 * many characters (`fromRewritten` maps a position of the result back to the query as sent).
 */
export function withPredeclaredPrefixes(query: string, predeclared: Readonly<Record<string, string>>): { readonly text: string; readonly at: number; readonly added: number } {
  const { declared, end } = prologue(query);
  const missing = [...usedPrefixes(query.slice(end)).keys()].filter((p) => !declared.has(p) && Object.hasOwn(predeclared, p));
  if (missing.length === 0) return { text: query, at: end, added: 0 };
  const decls = missing.map((p) => `PREFIX ${p}: <${predeclared[p]}> `).join("");
  return { text: query.slice(0, end) + decls + query.slice(end), at: end, added: decls.length };
}

/** Offset of a 1-based line and column (columns count characters, as Oxigraph reports them). */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf("\n", offset);
    if (nl < 0) return text.length;
    offset = nl + 1;
  }
  let o = offset;
  for (let c = 1; c < column && o < text.length; c++) o += text.codePointAt(o)! > 0xffff ? 2 : 1;
  return o;
}

/** The 1-based line and column of an offset. */
export function lineColumn(text: string, offset: number): { readonly line: number; readonly column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  let column = 1;
  for (let o = lineStart; o < offset; o += text.codePointAt(o)! > 0xffff ? 2 : 1) column++;
  return { line, column };
}

/** A syntax error in one sentence, at a line and column of the query as sent. */
export interface SyntaxProblem {
  readonly line: number;
  readonly column: number;
  /** What is wrong there, e.g. "the prefix 'ex' is not declared". */
  readonly reason: string;
}

function quoted(s: string, max = 40): string {
  const one = s.replace(/\s+/g, " ");
  return `'${one.length > max ? one.slice(0, max - 1) + "…" : one}'`;
}

/**
 * Oxigraph's syntax error (`error at L:C: expected …`) as one sentence at a place in the query.
 * Oxigraph's grammar (peg) reports the furthest position any rule reached and every alternative
 * tried there, which is precise for a few errors (an undeclared prefix, an IRI that does not
 * parse) and otherwise lies a little after the fault (a keyword rule reads ahead) with a list of
 * character classes. So the text is read here too: an unclosed string, a first word that starts
 * no query, a bracket that is never closed or closes nothing are named where they are; anything
 * else is reported at the last token before Oxigraph's position, quoted with those before it on
 * its line. `offset` is Oxigraph's position as an offset of `query`.
 */
export function explainSyntaxError(query: string, offset: number, expected: string, predeclared: Readonly<Record<string, string>> = {}): SyntaxProblem {
  const list = [...tokens(query)];
  const before = list.filter((t) => t.start < offset);
  const at = (t: { start: number }, reason: string): SyntaxProblem & { start: number } => ({ ...lineColumn(query, t.start), reason, start: t.start });
  // Faults the text shows by itself, each where it is; the first of them is reported.
  const found: (SyntaxProblem & { start: number })[] = [];
  const open = before.find((t) => t.kind === "open-string");
  if (open) found.push(at(open, `the string ${quoted(open.text, 20)} is not closed (a quote is missing at the end of the line)`));
  const { declared, end } = prologue(query);
  const undeclared = list.find((t) => {
    const p = prefixOf(t);
    return p !== undefined && t.start >= end && t.start <= offset && !declared.has(p) && !Object.hasOwn(predeclared, p);
  });
  if (undeclared) {
    const p = prefixOf(undeclared)!;
    found.push(at(undeclared, `the prefix '${p}' is not declared (add PREFIX ${p}: <…> before the query)`));
  }
  const first = list.find((t) => t.start >= end);
  if (first && first.kind === "word" && !FORMS.has(first.text.toUpperCase()) && !UPDATE_KEYWORDS.has(first.text.toUpperCase()) && first.start < offset) {
    found.push(at(first, `a query starts with SELECT, ASK, CONSTRUCT or DESCRIBE (after any PREFIX and BASE), not ${quoted(first.text)}`));
  }
  // Brackets: one that closes nothing or the wrong one, before Oxigraph's position; one never closed.
  const stack: Token[] = [];
  for (const t of before) {
    if (t.kind !== "punct") continue;
    if (OPENERS[t.text]) stack.push(t);
    else if (CLOSERS.has(t.text)) {
      const o = stack.pop();
      if (!o) {
        found.push(at(t, `${quoted(t.text)} closes nothing (no bracket is open here)`));
        break;
      }
      if (OPENERS[o.text] !== t.text) {
        const { line, column } = lineColumn(query, o.start);
        found.push(at(t, `${quoted(t.text)} does not close the ${quoted(o.text)} of line ${line}, column ${column}`));
        break;
      }
    }
  }
  if (found.length > 0) {
    const { start: _s, ...first } = found.reduce((a, b) => (b.start < a.start ? b : a));
    return first;
  }
  // A bracket never closed (reported only without any fault above: an unclosed string or a
  // wrong bracket leaves one open too).
  const lastEnd = list[list.length - 1]?.end ?? 0;
  if (stack.length > 0 && before.length === list.length && offset >= lastEnd) {
    const o = stack[stack.length - 1]!;
    return { ...lineColumn(query, o.start), reason: `this ${quoted(o.text)} is never closed (the query ends before its ${quoted(OPENERS[o.text]!)})` };
  }
  // What Oxigraph names precisely.
  if (/IRI parsing failed/.test(expected)) {
    const iri = [...before].reverse().find((t) => t.kind === "iri" && t.end <= offset);
    if (iri) return { ...lineColumn(query, iri.start), reason: `${quoted(iri.text)} is not a valid IRI (write an absolute IRI such as <http://example.org/x>, or a prefixed name)` };
  }
  if (/The SELECT contains a variable that is unbound/.test(expected)) {
    return { ...lineColumn(query, Math.min(offset, query.length)), reason: "the SELECT names a variable that the query does not bind (with GROUP BY, select only grouped variables and aggregates)" };
  }
  const last = before[before.length - 1] ?? list[list.length - 1];
  if (!last) return { line: 1, column: 1, reason: "the query is empty" };
  const line = lineColumn(query, last.start).line;
  const sameLine = before.filter((t) => t.end <= last.end && lineColumn(query, t.start).line === line).slice(-3);
  const near = query.slice((sameLine[0] ?? last).start, last.end);
  return { ...lineColumn(query, last.start), reason: `the query is not valid SPARQL at ${quoted(last.text)}${near !== last.text ? `, in ${quoted(near)}` : ""}` };
}
