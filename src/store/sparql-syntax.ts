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
export const GRAPH_FORMATS = ["text/turtle", "application/n-triples", "application/rdf+xml"] as const;

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
