/**
 * The read-only SPARQL endpoint on an external SPARQL 1.1 store (`--store sparql`): `/sparql`
 * queries go to the store's query endpoint with the same limits and errors as the embedded
 * endpoint (replica.ts, sparql-exec.ts).
 *
 * A query takes three steps:
 *   1. checked on an empty Oxigraph store in a worker of a data-less `SparqlReplica` (the embedded
 *      endpoint's own code): syntax errors as one sentence at a line and column, updates (400
 *      read-only), SERVICE (400), formats a query form cannot give, bad dataset IRIs — all refused
 *      before anything is sent. Only a text Oxigraph parses as a SPARQL 1.1 query goes out, so no
 *      store-specific syntax does (Virtuoso runs an update sent as `query=`, and its `DEFINE`
 *      pragmas could choose another dataset). IRIs of Virtuoso's built-in functions
 *      (`http://www.openlinksw.com/…`: `bif:`, `sql:`) are refused too (400): the store would call them.
 *   2. sent to the store (POST, form-encoded, at most `concurrency` at a time, the others waiting
 *      in a FIFO as the replica's queries do: 503 when more than MAX_QUEUED wait or one cannot
 *      start within the time limit), asking for SPARQL JSON results (SELECT, ASK) or N-Triples
 *      (CONSTRUCT, DESCRIBE), with the predeclared prefixes declared as the embedded endpoint
 *      declares them, the time limit as Virtuoso's `timeout` parameter (ms) and as our own abort.
 *      A SELECT goes with `(STR(?v) AS ?__str_v)` beside each variable it projects
 *      (`withLexicalFormsOfQuery`): Virtuoso writes doubles with 6 significant digits, their STR
 *      with 15 (docs/virtuoso.md finding 2); step 3 takes the doubles from them and drops them.
 *   3. the answer written as the format asked for, in the worker again (sparql-exec.ts
 *      `executeRemote`: the same serialisers, the result limit counted first), so that
 *      representations are the embedded endpoint's.
 *
 * The dataset. The embedded endpoint's default graph is the union of the service's graphs; an
 * external store's default graph holds whatever the store holds (Virtuoso: its system graphs, and
 * our catalog `<base>/.store/catalog`), and `GRAPH ?g` sees every graph. So the store must be told
 * what not to show: the catalog, graphs being written or deleted, and graphs that are not the
 * service's (docs/virtuoso.md finding 11 has the measured figures):
 *   - Virtuoso (sparql-dialect.ts: it answers a query that begins with a `define` pragma): a query
 *     that names no dataset goes without lists, after `define input:default-graph-exclude <g>
 *     define input:named-graph-exclude <g>` for each graph not served — the catalog and the graphs
 *     being written (`ServedGraphs.unservedGraphs`, now) and the foreign graphs (every graph of the
 *     store that is not the service's: read in the background at start, kept in `foreignFile` for
 *     the next start, which uses that list at once; until a first list exists a query that needs
 *     it is 503 with Retry-After — `readForeign`, `exclusions`). The pragmas stand on the query's first
 *     line, before its prologue, so that the lines of the query sent are the user's; the store's
 *     messages (which quote the query) are given without them. Under such pragmas Virtuoso 7.2
 *     hides every constant `GRAPH <g>` (no rows; ASK/COUNT(*) one false match), but answers a
 *     graph variable bound to it right. So a query with a constant graph goes:
 *       - when all its patterns lie in constant graphs (`onlyConstantGraphs`): with lists, its
 *         constant graphs (served ones) as the named graphs, the default graph empty — unless it
 *         counts (ASK, aggregate, EXISTS) and names a graph not served: then as below;
 *       - else (constant graphs besides `GRAPH ?g` or the default graph): under the pragmas, each
 *         `GRAPH <g> { P }` written `{ GRAPH ?_gN { P } VALUES ?_gN { <g> } }` (`graphsAsVariables`:
 *         the same solutions; a graph not served becomes `<base>/.store/none`, so its block
 *         matches nothing whatever the pragmas hold; `?_gN` named apart from the query's variables,
 *         and a `SELECT *` given its own variables, found by the checker, in place of the star);
 *       - a query the rewrite would change (`DESCRIBE *`, `DISTINCT *` in a sub-SELECT or COUNT):
 *         with lists of every served graph while at most MAX_LISTED_GRAPHS are served, refused
 *         (400, naming the reason) above that unless it names its dataset.
 *     A counting query (ASK, aggregate, EXISTS) whose constant GRAPH names a graph that is not
 *     served is refused when it goes with lists, on every store (Virtuoso counts one false match
 *     for a constant graph outside the lists); rewritten, it counts 0.
 *   - other stores: `default-graph-uri` and `named-graph-uri` (SPARQL 1.1 Protocol §2.1.4) listing
 *     the served graphs (`graphsWithPrefix("")`); the request body grows by about twice the
 *     length of every graph IRI.
 * A request's own `default-graph-uri` / `named-graph-uri`, or the query's FROM / FROM NAMED clauses,
 * give the dataset as on the embedded endpoint (the protocol's parameters replace the query's
 * clauses), sent as lists on every store; graphs that are not served are left out, and an empty
 * list is sent as one graph that does not exist (`<base>/.store/none`), since a list left out would
 * mean the store's whole default. FROM clauses are taken out of the text sent: Virtuoso adds them to
 * the protocol's dataset instead of replacing it.
 *
 * Errors of the store: no answer, or 5xx → 503 `ServiceUnavailable` naming the store's message
 * (the query is not retried); Virtuoso's own time-outs — 200 with `X-SQL-State: S1TAT` and a
 * partial result ("anytime query"), or 500 `S1T00`/`SR171` — → 503 `QueryTimeout`, never a
 * partial result; its refusal up front by its cost estimate → 503 `QueryTimeout` saying so; 4xx →
 * 400 with the store's message. A result the store cut at its own row limit (Virtuoso's
 * ResultSetMaxRows: `X-SPARQL-MaxRows` on a SELECT; a CONSTRUCT of one more triple than the limit,
 * found by a probe at start) → 400, as a result over `maxResults` is.
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { BadRequest, Cancelled, QueryTimeout, ServiceUnavailable } from "../errors.ts";
import { MAX_QUEUED, SparqlReplica, type QueryOptions, type ReplicaResult } from "./replica.ts";
import type { SparqlEndpoint, SparqlEndpointFigures } from "./sparql-endpoint.ts";
import { queryForm, tokens, withPredeclaredPrefixes, type Token } from "./sparql-syntax.ts";
import { probeDialect, type SparqlDialect } from "./sparql-dialect.ts";
import { withLexicalFormsOfQuery } from "./sparql-terms.ts";

export interface SparqlProxyOptions {
  /** The store's SPARQL query endpoint. */
  readonly endpoint: string;
  /** `Authorization` header value for the store (basic auth), if any. */
  readonly authorization?: string;
  /** The service's base URI (the placeholder graph of an empty list lies under it). */
  readonly base: string;
  /** Time limit of one query, ms (waiting to start, and running). */
  readonly timeoutMs: number;
  /** Largest SELECT result (rows) or CONSTRUCT/DESCRIBE result (triples). */
  readonly maxResults: number;
  /** Queries sent to the store at once; also the worker threads that check and write results. */
  readonly concurrency: number;
  /**
   * How the dataset of a query that names none is sent: `virtuoso` (the graphs not served, as
   * `define input:default-graph-exclude` / `named-graph-exclude` pragmas) or `standard` (the served
   * graphs, listed in `default-graph-uri` / `named-graph-uri`). The service gives the store's
   * (found once when it opens: sparql-dialect.ts); without it, the same probe runs here.
   */
  readonly dialect?: SparqlDialect;
  /**
   * Virtuoso: a file where the foreign graphs found last are kept (the service's data directory).
   * At start the proxy uses that list at once and reads the store's graphs again in the background;
   * without it, queries that need the list wait for that read (503 with Retry-After meanwhile).
   */
  readonly foreignFile?: string;
}

/** What the proxy needs of the store: the graphs it serves, and those it holds but does not serve. */
export interface ServedGraphs {
  has(graph: string): boolean;
  graphsWithPrefix(prefix: string): string[];
  /** Graphs of the service the store holds but that are not served (the catalog, graphs being written or deleted, stages). */
  unservedGraphs?(): Iterable<string>;
}

/** Graphs read per page when the foreign graphs are read at start (below Virtuoso's default ResultSetMaxRows). */
const GRAPH_PAGE = 5_000;
/** Seconds a query that needs the foreign graphs is told to wait (Retry-After) before the first list exists; also the pause between failed reads of the list. */
export const FOREIGN_RETRY_S = 30;
/** Without a kept list, the start waits this long for the first read of the store's graphs (a small store's is done by then), ms; then it goes on and the read finishes in the background. */
export const FIRST_READ_WAIT_MS = 3_000;
/** More foreign graphs than this: a warning (each query carries them all). */
export const MANY_FOREIGN_GRAPHS = 1_000;
/** Most served graphs listed for a query Virtuoso's exclusions would answer wrongly and graphsAsVariables cannot rewrite (a constant GRAPH besides other patterns, with DESCRIBE * or a nested DISTINCT *): about 0.6 s a query at 1,000 (docs/virtuoso.md finding 11). */
export const MAX_LISTED_GRAPHS = 1_000;

const COUNTING = new Set(["COUNT", "SUM", "AVG", "MIN", "MAX", "SAMPLE", "GROUP_CONCAT", "EXISTS"]);

export const VIRTUOSO_FUNCTIONS_MESSAGE = "IRIs in http://www.openlinksw.com/ (Virtuoso's built-in functions, bif: and sql:) are not allowed in a query of this endpoint";

/**
 * Whether every triple pattern of the query lies inside a `GRAPH <constant> { … }` block: no
 * `GRAPH ?var`, and outside those blocks (from the first `{` on) no term but in parentheses
 * (FILTER, BIND, expressions), in a VALUES block, or after the WHERE clause (GROUP BY, ORDER BY).
 * Conservative: a sub-SELECT's projection counts as a pattern outside. Such a query's dataset is
 * its constant graphs alone (named), with an empty default graph.
 */
export function onlyConstantGraphs(text: string): boolean {
  const list = [...tokens(text)];
  const open = list.findIndex((t) => t.kind === "punct" && t.text === "{");
  if (open < 0) return false;
  /** For each open brace: what opened it. */
  const stack: ("graph" | "values" | "group")[] = [];
  let parens = 0;
  let pending: "graph" | "values" | undefined;
  for (let k = open; k < list.length; k++) {
    const t = list[k]!;
    const inside = stack.includes("graph") || stack.includes("values");
    if (t.kind === "punct") {
      if (t.text === "{") {
        stack.push(pending ?? "group");
        pending = undefined;
      } else if (t.text === "}") stack.pop();
      else if (t.text === "(") parens++;
      else if (t.text === ")") parens--;
      continue;
    }
    if (t.kind === "word") {
      const w = t.text.toUpperCase();
      if (w === "GRAPH") {
        const next = list[k + 1];
        if (!next || next.kind === "var" || (next.kind === "word" && !next.text.includes(":"))) return false;
        pending = "graph";
        k++;
        continue;
      }
      if (w === "VALUES") {
        pending = "values";
        continue;
      }
      if (!t.text.includes(":") && t.text !== "a") continue; // a keyword
    }
    // a term (variable, IRI, literal, prefixed name, `a`)
    if (stack.length === 0 || inside || parens > 0 || pending === "values") continue;
    return false;
  }
  return true;
}

/** Why a query with a constant GRAPH cannot be written with graph variables (graphsAsVariables), or undefined when it can. */
export function graphsAsVariablesRefusal(text: string): string | undefined {
  const list = [...tokens(text)];
  const isWord = (t: Token | undefined, w: string): boolean => t?.kind === "word" && t.text.toUpperCase() === w;
  const isStar = (t: Token | undefined): boolean => t?.kind === "punct" && t.text === "*";
  const top = list.findIndex((t) => isWord(t, "SELECT") || isWord(t, "DESCRIBE") || isWord(t, "ASK") || isWord(t, "CONSTRUCT"));
  if (isWord(list[top], "DESCRIBE") && isStar(list[top + 1])) return "DESCRIBE * would describe the graph variables too";
  for (let k = 1; k < list.length; k++) {
    if (!isWord(list[k], "DISTINCT") || !isStar(list[k + 1])) continue;
    if (isWord(list[k - 1], "SELECT") && k - 1 === top) continue;
    return "DISTINCT * below the query's own projection (a sub-SELECT, COUNT(DISTINCT *)) would tell the graph variables apart";
  }
  return undefined;
}

/** The `*` of the query's own projection `SELECT *` (or `SELECT DISTINCT *`, `SELECT REDUCED *`), if it is one. */
function projectionStar(list: readonly Token[]): Token | undefined {
  const top = list.findIndex((t) => t.kind === "word" && ["SELECT", "ASK", "CONSTRUCT", "DESCRIBE"].includes(t.text.toUpperCase()));
  if (top < 0 || list[top]!.text.toUpperCase() !== "SELECT") return undefined;
  let k = top + 1;
  if (list[k]?.kind === "word" && ["DISTINCT", "REDUCED"].includes(list[k]!.text.toUpperCase())) k++;
  return list[k]?.kind === "punct" && list[k]!.text === "*" ? list[k] : undefined;
}

/** Whether the query's own projection is `SELECT *` (or `SELECT DISTINCT *`, `SELECT REDUCED *`). */
export function selectsStar(text: string): boolean {
  return projectionStar([...tokens(text)]) !== undefined;
}

/**
 * The query with each constant graph pattern `GRAPH <g> { P }` written as
 * `{ GRAPH ?_gN { P } VALUES ?_gN { <g> } }` — the same solutions (Graph(<g>, P) joined with the
 * one binding ?_gN = <g>, in a group of its own, so that no FILTER of the group around sees
 * ?_gN), which Virtuoso 7.2 answers right under its graph-exclude pragmas, where it drops a
 * constant graph's pattern (docs/virtuoso.md finding 11). A graph the service does not serve
 * (`served` false: the catalog, a graph being written, any other) becomes `VALUES ?_gN { <none> }`,
 * a graph that does not exist: the block matches nothing, as on the embedded endpoint.
 *
 * The new variables must not show: `?_gN` are named apart from every variable of the query, and a
 * query whose projection is `SELECT *` gets `projection` (its variables, as the embedded endpoint
 * finds them) in place of the star. Returns undefined for what the rewrite would change
 * (graphsAsVariablesRefusal), or a top-level `SELECT *` without its `projection`, or without
 * variables. `names` are the constant graphs of takeFrom, at their places in `text`.
 */
export function graphsAsVariables(text: string, names: readonly GraphName[], served: (iri: string) => boolean, none: string, projection?: readonly string[]): string | undefined {
  if (graphsAsVariablesRefusal(text) !== undefined) return undefined;
  const list = [...tokens(text)];
  const star = projectionStar(list);
  if (star && (projection === undefined || projection.length === 0)) return undefined;
  const byStart = new Map(names.map((n) => [n.start, n.iri]));
  const used = list.filter((t) => t.kind === "var").map((t) => t.text.slice(1));
  let stem = "_g";
  while (used.some((v) => v.startsWith(stem))) stem = `_${stem}`;
  const edits: { start: number; end: number; text: string }[] = [];
  if (star) edits.push({ start: star.start, end: star.end, text: projection!.map((v) => `?${v}`).join(" ") });
  let n = 0;
  for (let k = 0; k < list.length; k++) {
    const t = list[k]!;
    if (t.kind !== "word" || t.text.toUpperCase() !== "GRAPH") continue;
    const name = list[k + 1];
    const iri = name ? byStart.get(name.start) : undefined;
    if (iri === undefined) continue;
    const open = list[k + 2];
    if (!name || open?.kind !== "punct" || open.text !== "{") return undefined;
    let depth = 0;
    let close = -1;
    for (let j = k + 2; j < list.length; j++) {
      const b = list[j]!;
      if (b.kind !== "punct") continue;
      if (b.text === "{") depth++;
      else if (b.text === "}" && --depth === 0) {
        close = j;
        break;
      }
    }
    if (close < 0) return undefined;
    const v = `?${stem}${++n}`;
    edits.push({ start: t.start, end: name.end, text: `{ GRAPH ${v}` });
    edits.push({ start: list[close]!.end, end: list[close]!.end, text: ` VALUES ${v} { ${served(iri) ? name.text : `<${none}>`} } }` });
  }
  let out = text;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** The query text with \u and \U escapes (allowed in IRIs and strings) decoded. */
function unescaped(text: string): string {
  return text.replace(/\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})/g, (_, a: string | undefined, b: string | undefined) => {
    const cp = parseInt(a ?? b!, 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : "";
  });
}

/**
 * The query's FROM and FROM NAMED graphs (IRIs resolved against its BASE and PREFIX declarations,
 * and the predeclared prefixes), and the text without those clauses (blanked, so that positions stay);
 * also its constant graphs (`GRAPH <g>`, `GRAPH p:g`), and whether it counts.
 */
export function takeFrom(query: string, predeclared: Readonly<Record<string, string>>): TakenFrom {
  const list = [...tokens(query)];
  const prefixes = new Map<string, string>(Object.entries(predeclared));
  let base: string | undefined;
  const resolve = (t: Token | undefined): string | undefined => {
    if (!t) return undefined;
    if (t.kind === "iri") {
      const raw = unescaped(t.text.slice(1, -1));
      if (base === undefined || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw)) return raw;
      try {
        return new URL(raw, base).href;
      } catch {
        return raw;
      }
    }
    const colon = t.text.indexOf(":");
    if (t.kind !== "word" || colon < 0) return undefined;
    const ns = prefixes.get(t.text.slice(0, colon));
    return ns === undefined ? undefined : ns + t.text.slice(colon + 1);
  };
  const from: string[] = [];
  const fromNamed: string[] = [];
  const graphs: string[] = [];
  const graphNames: GraphName[] = [];
  let counting = queryForm(query) === "ASK";
  const cut: [number, number][] = [];
  for (let k = 0; k < list.length; k++) {
    const t = list[k]!;
    if (t.kind !== "word") continue;
    const w = t.text.toUpperCase();
    if (COUNTING.has(w)) counting = true;
    if (w === "GRAPH") {
      const g = resolve(list[k + 1]);
      if (g !== undefined) {
        graphs.push(g);
        graphNames.push({ start: list[k + 1]!.start, iri: g });
      }
    } else if (w === "BASE") base = resolve(list[k + 1]);
    else if (w === "PREFIX" && list[k + 1]?.kind === "word" && list[k + 2]?.kind === "iri") {
      const iri = resolve(list[k + 2]);
      if (iri !== undefined) prefixes.set(list[k + 1]!.text.replace(/:$/, ""), iri);
    } else if (w === "FROM") {
      const named = list[k + 1]?.kind === "word" && list[k + 1]!.text.toUpperCase() === "NAMED";
      const g = list[k + (named ? 2 : 1)];
      const iri = resolve(g);
      if (iri === undefined || !g) continue; // the check step has refused what cannot be read
      (named ? fromNamed : from).push(iri);
      cut.push([t.start, g.end]);
      k += named ? 2 : 1;
    }
  }
  let text = query;
  for (const [a, b] of cut) text = text.slice(0, a) + " ".repeat(b - a) + text.slice(b);
  return { text, from, fromNamed, graphs, graphNames, counting };
}

/** A constant graph after GRAPH: where its name stands in the text, and its IRI (resolved). */
export interface GraphName {
  readonly start: number;
  readonly iri: string;
}

export interface TakenFrom {
  /** The query without its FROM clauses (blanked). */
  readonly text: string;
  readonly from: string[];
  readonly fromNamed: string[];
  /** The graphs named as constants after GRAPH. */
  readonly graphs: string[];
  /** The same, with the place of each name in the text. */
  readonly graphNames: GraphName[];
  /**
   * Whether it answers whether or how often something matched: ASK, an aggregate, EXISTS.
   * Virtuoso 7.2 answers such a query wrongly when a constant `GRAPH <g> { … }` is outside the
   * dataset (not in the lists; under any graph-exclude pragma, every constant graph): a pattern
   * that matches nothing counts as one match (ASK true, COUNT(*) 1) — docs/virtuoso.md finding 11.
   */
  readonly counting: boolean;
}

/**
 * Response headers may be large: Virtuoso echoes every `default-graph-uri` and `named-graph-uri`
 * in `X-SPARQL-default-graph` / `X-SPARQL-named-graph` headers, past Node's 16 KiB limit (fetch's
 * HeadersOverflowError) at a few hundred graphs. So the proxy's requests go through node:http,
 * whose `maxHeaderSize` is per request.
 */
const MAX_HEADER_BYTES = 64 * 1024 * 1024;

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body, read in full (`read` false: not read, the connection dropped). */
  readonly text: string;
}

/** POST a form; resolves with the status, headers and body (or only the headers: `read` false). */
function post(url: string, headers: Record<string, string>, form: URLSearchParams, signal: AbortSignal, read = true): Promise<Answer> {
  const body = Buffer.from(form.toString(), "utf8");
  const u = new URL(url);
  const send = u.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<Answer>((resolve, reject) => {
    const req = send(u, { method: "POST", headers: { ...headers, "content-length": String(body.length) }, maxHeaderSize: MAX_HEADER_BYTES, signal }, (res) => {
      if (!read) {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: "" });
        return;
      }
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const header = (h: IncomingHttpHeaders, name: string): string => {
  const v = h[name];
  return Array.isArray(v) ? v.join(", ") : (v ?? "");
};

interface Waiter {
  readonly go: () => void;
  readonly fail: (e: unknown) => void;
  timer: NodeJS.Timeout;
}

export class SparqlProxy implements SparqlEndpoint {
  private readonly checker: SparqlReplica;
  private running = 0;
  private readonly waiting: Waiter[] = [];
  private started = 0;
  private timeouts = 0;
  private cancelled = 0;
  private closed = false;
  /** The store's own row limit, when a probe found one (Virtuoso's ResultSetMaxRows). */
  rowLimit: number | undefined;
  private readonly none: string;
  /** How a query without a dataset of its own is sent (found by a probe, or given). */
  dialect: SparqlDialect = "standard";
  /** Virtuoso: the graphs the store held at the last read that are not the service's (its system graphs, other data). */
  foreign: string[] = [];
  /** Virtuoso: whether a list of the foreign graphs exists (kept from the last start, or read since). */
  foreignKnown = false;
  /** Virtuoso: settles when the store's graphs were read after this start (the list in `foreign` is then fresh). */
  foreignRead: Promise<void> = Promise.resolve();
  private retryTimer: NodeJS.Timeout | undefined;
  private foreignDone: (() => void) | undefined;

  private constructor(
    private readonly graphs: ServedGraphs,
    private readonly o: SparqlProxyOptions,
  ) {
    this.checker = SparqlReplica.create({ timeoutMs: o.timeoutMs, maxResults: o.maxResults, workers: o.concurrency });
    this.none = `${o.base.replace(/\/$/, "")}/.store/none`;
  }

  /**
   * Start the workers and probe the store's row limit: a SELECT of more rows than `maxResults`
   * (VALUES, no data read), of which only the headers are read. A store that does not answer
   * makes this fail; one that refuses the probe is used without a known row limit (logged).
   */
  static async open(graphs: ServedGraphs, o: SparqlProxyOptions): Promise<SparqlProxy> {
    const p = new SparqlProxy(graphs, o);
    try {
      // 10^k rows ≥ maxResults + 1 (Virtuoso answers 500 to 10^7)
      const k = Math.max(1, Math.ceil(Math.log10(o.maxResults + 2)));
      const values = Array.from({ length: k }, (_, i) => `VALUES ?v${i} {0 1 2 3 4 5 6 7 8 9}`).join(" ");
      const probe = `SELECT ?v0 WHERE { ${values} } LIMIT ${o.maxResults + 1}`;
      const r = await post(o.endpoint, p.headers("application/sparql-results+json"), p.form(probe, [p.none], [p.none], false), AbortSignal.timeout(Math.max(o.timeoutMs, 30_000)), false);
      const cut = Number(header(r.headers, "x-sparql-maxrows"));
      // A store that refuses the probe (too costly for it) is served still: only a cut CONSTRUCT goes undetected.
      if ((r.status < 200 || r.status > 299) && !(Number.isInteger(cut) && cut > 0)) console.error(`SPARQL proxy: the store answered ${r.status} to the probe of its row limit; a CONSTRUCT it cuts short will not be noticed (set its row limit above SPARQL_MAX_RESULTS)`);
      if (Number.isInteger(cut) && cut > 0) p.rowLimit = cut;
      p.dialect = o.dialect ?? (await probeDialect(o.endpoint, o.authorization, Math.max(o.timeoutMs, 30_000)));
      await p.checker.loaded;
      if (p.dialect === "virtuoso") {
        // The list found last serves at once; the store's graphs are read again without holding the start
        await p.loadForeign();
        p.foreignRead = p.refreshForeign();
        if (!p.foreignKnown) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([p.foreignRead, new Promise<void>((r) => (timer = setTimeout(r, FIRST_READ_WAIT_MS)))]);
          clearTimeout(timer);
        }
      }
    } catch (e) {
      await p.close();
      throw new Error(`the SPARQL endpoint cannot use the external store's query endpoint ${o.endpoint}: ${(e as Error).cause ?? (e as Error).message}`);
    }
    return p;
  }

  /** The foreign graphs kept by the last read (`foreignFile`), if that file exists and names this store. */
  private async loadForeign(): Promise<void> {
    if (!this.o.foreignFile) return;
    let text: string;
    try {
      text = await readFile(this.o.foreignFile, "utf8");
    } catch {
      return;
    }
    try {
      const kept = JSON.parse(text) as { endpoint?: unknown; graphs?: unknown };
      if (kept.endpoint !== this.o.endpoint || !Array.isArray(kept.graphs) || !kept.graphs.every((g) => typeof g === "string")) return;
      this.foreign = kept.graphs as string[];
      this.foreignKnown = true;
    } catch {
      console.error(`SPARQL proxy: ${this.o.foreignFile} is not a list of graphs; it is read again from the store`);
    }
  }

  /**
   * Read the store's foreign graphs (in the background: the service serves meanwhile), keep them
   * in `foreignFile`; on failure log and try again after FOREIGN_RETRY_S until it succeeds or the
   * proxy closes. The promise settles at the first success (or at close).
   */
  private refreshForeign(): Promise<void> {
    return new Promise<void>((done) => {
      this.foreignDone = done;
      const attempt = (): void => {
        this.retryTimer = undefined;
        if (this.closed) return done();
        const t0 = Date.now();
        this.readForeign().then(
          async (list) => {
            if (this.closed) return done();
            this.foreign = list;
            this.foreignKnown = true;
            console.error(`SPARQL proxy: the store's graphs read in ${Date.now() - t0} ms: ${list.length} are not the service's`);
            if (list.length > MANY_FOREIGN_GRAPHS) console.error(`SPARQL proxy: the store holds ${list.length} graphs that are not the service's; each query excludes them all (README "External SPARQL store": the store should be the service's own)`);
            if (this.o.foreignFile) {
              const tmp = `${this.o.foreignFile}.tmp`;
              try {
                await writeFile(tmp, JSON.stringify({ endpoint: this.o.endpoint, read: new Date().toISOString(), graphs: list }));
                await rename(tmp, this.o.foreignFile);
              } catch (e) {
                console.error(`SPARQL proxy: the list of foreign graphs could not be kept in ${this.o.foreignFile}: ${(e as Error).message}`);
              }
            }
            done();
          },
          (e: unknown) => {
            if (this.closed) return done();
            console.error(`SPARQL proxy: the store's graphs could not be read (${(e as Error).message}); trying again in ${FOREIGN_RETRY_S} s${this.foreignKnown ? " (the list of the last start serves meanwhile)" : "; until then /sparql queries that name no dataset answer 503"}`);
            this.retryTimer = setTimeout(attempt, FOREIGN_RETRY_S * 1000);
            this.retryTimer.unref();
          },
        );
      };
      attempt();
    });
  }

  /** The exclusion pragmas, or 503 while no list of the foreign graphs exists yet (never a query that could see them). */
  private exclusions(): string {
    if (!this.foreignKnown) throw new ServiceUnavailable(`the SPARQL endpoint is still reading which graphs of the external store are not the service's (done once, at its first start on this store); queries that name their dataset (FROM, FROM NAMED) are answered meanwhile: try again in ${FOREIGN_RETRY_S} s`, { retryAfter: FOREIGN_RETRY_S });
    return this.excludes();
  }

  /**
   * The store's graphs that are not the service's: every graph but those the service serves or
   * holds (the catalog, graphs being written). First in one query, `SELECT ?g WHERE { GRAPH ?g
   * { ?s ?p ?o } } GROUP BY ?g`, which Virtuoso 7.2 answers from its graph index (docs/virtuoso.md
   * finding 11: about 0.1 s for 5,000 graphs, whatever their triples); when the store cuts that
   * answer at its row limit (more graphs than ResultSetMaxRows), in keyset pages (`SELECT DISTINCT
   * ?g … FILTER(STR(?g) > last) ORDER BY STR(?g)`: ordered OFFSET pages cannot pass Virtuoso's
   * sort limit, unordered ones may repeat or skip a row), each of which scans every quad.
   */
  private async readForeign(): Promise<string[]> {
    const all = await this.graphQuery(`SELECT ?g WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g`);
    if (!all.cut) return this.notOwn(all.page);
    console.error(`SPARQL proxy: the store cut the list of its graphs at its row limit (${this.rowLimit ?? "ResultSetMaxRows"}); reading it in pages that scan every triple (raise ResultSetMaxRows above the number of graphs: docs/virtuoso.md finding 11)`);
    const out: string[] = [];
    // pages no longer than the store answers (a page cut short would look like the last one)
    const size = Math.min(GRAPH_PAGE, this.rowLimit ?? GRAPH_PAGE);
    let last: string | undefined;
    for (;;) {
      const after = last === undefined ? "" : `FILTER(STR(?g) > ${JSON.stringify(last)})`;
      const { page, cut } = await this.graphQuery(`SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } ${after} } ORDER BY STR(?g) LIMIT ${size}`);
      out.push(...this.notOwn(page));
      if (page.length < size && !cut) return out;
      if (page.length === 0) throw new Error("the store answered an empty page of its graphs, cut at its row limit");
      last = page[page.length - 1]!;
    }
  }

  /** The graph IRIs (`?g`) a query of the store's graphs answers, and whether the store cut the answer at its row limit. */
  private async graphQuery(q: string): Promise<{ page: string[]; cut: boolean }> {
    const r = await post(this.o.endpoint, this.headers("application/sparql-results+json"), new URLSearchParams({ query: q }), AbortSignal.timeout(Math.max(this.o.timeoutMs, 120_000)));
    if (r.status !== 200) throw new Error(`the list of the store's graphs was refused (${r.status}): ${r.text.replace(/\s+/g, " ").slice(0, 300)}`);
    const rows = (JSON.parse(r.text) as { results: { bindings: { g?: { type: string; value: string } }[] } }).results.bindings;
    const limit = Number(header(r.headers, "x-sparql-maxrows"));
    const cut = (Number.isInteger(limit) && limit > 0) || (this.rowLimit !== undefined && rows.length >= this.rowLimit);
    return { page: rows.flatMap((b) => (b.g?.type === "uri" ? [b.g.value] : [])), cut };
  }

  /** The graphs of a list that are not the service's: not served, not held by it (read now: the service writes while the list is read). */
  private notOwn(list: readonly string[]): string[] {
    const own = new Set(this.graphs.unservedGraphs?.() ?? []);
    return list.filter((g) => !this.graphs.has(g) && !own.has(g));
  }

  /**
   * Virtuoso's pragmas that take the graphs the service does not serve out of the default graph
   * and out of `GRAPH ?g`: the catalog, graphs being written or deleted, and the foreign graphs.
   * On one line, so that the lines of the query sent are the lines of the query asked.
   */
  excludes(): string {
    const out = new Set<string>();
    for (const g of this.graphs.unservedGraphs?.() ?? []) if (!this.graphs.has(g)) out.add(g);
    for (const g of this.foreign) if (!this.graphs.has(g)) out.add(g);
    let text = "";
    for (const g of out) {
      const i = iriRef(g);
      if (i) text += `define input:default-graph-exclude ${i} define input:named-graph-exclude ${i} `;
    }
    return text;
  }

  get figures(): SparqlEndpointFigures {
    return { kind: "proxy", workers: this.o.concurrency, busy: this.running, loading: 0, queued: this.waiting.length, started: this.started, restarts: 0, timeouts: this.timeouts, cancelled: this.cancelled };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.foreignDone?.();
    for (const w of this.waiting.splice(0)) {
      clearTimeout(w.timer);
      w.fail(new ServiceUnavailable("the SPARQL endpoint is shutting down"));
    }
    await this.checker.close();
  }

  private headers(accept: string): Record<string, string> {
    return { accept, "content-type": "application/x-www-form-urlencoded", ...(this.o.authorization ? { authorization: this.o.authorization } : {}) };
  }

  private form(query: string, defaultGraphs: readonly string[], namedGraphs: readonly string[], timeout = true): URLSearchParams {
    const f = new URLSearchParams(timeout ? { query, timeout: String(this.o.timeoutMs) } : { query });
    for (const g of defaultGraphs) f.append("default-graph-uri", g);
    for (const g of namedGraphs) f.append("named-graph-uri", g);
    return f;
  }

  /** The graphs of a list that the service serves; a list left empty gets the graph that does not exist. */
  private served(list: readonly string[]): string[] {
    const out = list.filter((g) => this.graphs.has(g));
    return out.length > 0 ? out : [this.none];
  }

  async query(query: string, format: string, options: QueryOptions = {}, signal?: AbortSignal): Promise<ReplicaResult> {
    if (this.closed) throw new ServiceUnavailable("the SPARQL endpoint is shut down");
    if (/openlinksw\.com/i.test(unescaped(query))) throw new BadRequest(VIRTUOSO_FUNCTIONS_MESSAGE, { field: "query" });
    const { prefixes = {}, table } = options;
    // 1. the embedded endpoint's checks, on an empty store
    await this.checker.query(query, format, options, signal);
    // 2. the dataset: the request's, else the query's FROM clauses, else every graph served
    const taken = takeFrom(query, prefixes);
    let text = taken.text;
    /** A counting query's constant graph is a graph of its dataset (lists), not a graph variable */
    let listed = true;
    let defaultGraphs: string[];
    let namedGraphs: string[];
    let pragmas = "";
    if (options.defaultGraphs || options.namedGraphs) {
      defaultGraphs = this.served(options.defaultGraphs ?? []);
      namedGraphs = this.served(options.namedGraphs ?? []);
    } else if (taken.from.length > 0 || taken.fromNamed.length > 0) {
      defaultGraphs = this.served(taken.from);
      namedGraphs = this.served(taken.fromNamed);
    } else if (this.dialect === "virtuoso" && taken.graphs.length > 0) {
      // Under Virtuoso's exclusion pragmas a constant GRAPH <g> matches nothing (and counts one match)
      const all = this.graphs.graphsWithPrefix("");
      const only = onlyConstantGraphs(taken.text);
      // a counting query over a graph not served would count one false match with lists: as graph variables it counts 0
      const countsUnserved = taken.counting && taken.graphs.some((g) => !this.graphs.has(g));
      const asVariables = only && !countsUnserved ? undefined : await this.graphsAsVariables(query, taken, prefixes, signal);
      if (asVariables !== undefined) {
        // every GRAPH <g> { … } as { GRAPH ?_gN { … } VALUES ?_gN { <g> } }, under the pragmas
        text = asVariables;
        listed = false;
        defaultGraphs = [];
        namedGraphs = [];
        pragmas = this.exclusions();
      } else if (only) {
        // its dataset is its graphs (those served; a counting query naming another is refused below)
        defaultGraphs = [this.none];
        namedGraphs = this.served([...new Set(taken.graphs)]);
      } else if (all.length > MAX_LISTED_GRAPHS) {
        const why = graphsAsVariablesRefusal(taken.text) ?? "SELECT * of no variables";
        throw new BadRequest(`on this external store, a query that names a graph in GRAPH <…> and also reads the default graph or GRAPH ?g is sent with its constant graphs written as graph variables, and this one cannot be (${why}); when more than ${MAX_LISTED_GRAPHS} graphs are served (${all.length} are) it must name its dataset: add FROM NAMED <…> for each graph it reads (and FROM <…> for the default graph, if it uses it)`, { field: "query" });
      } else {
        defaultGraphs = this.served(all);
        namedGraphs = defaultGraphs;
      }
    } else if (this.dialect === "virtuoso") {
      // every graph of the store but those not served: no lists
      defaultGraphs = [];
      namedGraphs = [];
      pragmas = this.exclusions();
    } else {
      const all = this.graphs.graphsWithPrefix("");
      defaultGraphs = this.served(all);
      namedGraphs = defaultGraphs;
    }
    if (listed && taken.counting) {
      const unserved = taken.graphs.find((g) => !this.graphs.has(g));
      if (unserved !== undefined) throw new BadRequest(`GRAPH <${unserved}>: the service holds no such graph; a query that counts or asks (ASK, COUNT…, EXISTS) can name only graphs it serves on this external store (it would answer wrongly)`, { field: "query" });
    }
    const form = queryForm(query);
    const graph = form === "CONSTRUCT" || form === "DESCRIBE";
    // Virtuoso's pragmas come before the prologue; the prefixes go after the query's own declarations
    // A SELECT's doubles come whole through STR (Virtuoso writes 6 significant digits otherwise: docs/virtuoso.md finding 2)
    const lexical = withLexicalFormsOfQuery(withPredeclaredPrefixes(text, prefixes).text);
    const sent = pragmas + lexical.text;
    const body = await this.send(sent, graph, defaultGraphs, namedGraphs, signal, pragmas);
    // 3. written as asked, by the embedded endpoint's code
    return this.checker.query(query, format, { prefixes, ...(table ? { table } : {}), remote: body, ...(lexical.added ? { remoteLexicalForms: true } : {}) }, signal);
  }

  /**
   * The query with its constant graphs as graph variables (graphsAsVariables), or undefined when
   * that would change its answer. A `SELECT *` gets its variables as the embedded endpoint finds
   * them: the query run by the checker on its empty store, as SPARQL JSON (`head.vars`).
   */
  private async graphsAsVariables(query: string, taken: TakenFrom, prefixes: Readonly<Record<string, string>>, signal?: AbortSignal): Promise<string | undefined> {
    if (graphsAsVariablesRefusal(taken.text) !== undefined) return undefined;
    let projection: string[] | undefined;
    if (selectsStar(taken.text)) {
      const r = await this.checker.query(query, "application/sparql-results+json", { prefixes }, signal);
      projection = (JSON.parse(r.body.toString("utf8")) as { head?: { vars?: string[] } }).head?.vars ?? [];
    }
    return graphsAsVariables(taken.text, taken.graphNames, (g) => this.graphs.has(g), this.none, projection);
  }

  /** Wait for a free place (FIFO), within the time limit. */
  private async acquire(signal?: AbortSignal): Promise<void> {
    if (this.running < this.o.concurrency && this.waiting.length === 0) {
      this.running++;
      return;
    }
    if (this.waiting.length >= MAX_QUEUED) throw new ServiceUnavailable(`too many SPARQL queries are waiting (${MAX_QUEUED}); try again later`);
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        remove();
        this.cancelled++;
        reject(new Cancelled("the client closed the connection; the query was stopped"));
      };
      const remove = (): void => {
        clearTimeout(w.timer);
        signal?.removeEventListener("abort", onAbort);
        const i = this.waiting.indexOf(w);
        if (i >= 0) this.waiting.splice(i, 1);
      };
      const w: Waiter = {
        go: () => {
          remove();
          this.running++;
          resolve();
        },
        fail: (e) => {
          remove();
          reject(e);
        },
        timer: setTimeout(() => {
          remove();
          this.timeouts++;
          reject(new ServiceUnavailable(`no place for the SPARQL query became free within the time limit of ${this.o.timeoutMs} ms (${this.running} queries running on the external store); try again later`));
        }, this.o.timeoutMs),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(w);
    });
  }

  private release(): void {
    this.running--;
    this.waiting[0]?.go();
  }

  /** One request to the store; the body of a complete answer, or the error the embedded endpoint would give. */
  private async send(text: string, graph: boolean, defaultGraphs: readonly string[], namedGraphs: readonly string[], signal?: AbortSignal, pragmas = ""): Promise<string> {
    await this.acquire(signal);
    this.started++;
    // A second more than the limit, so that the store's own time-out (Virtuoso: `timeout`, S1TAT) may come first and
    // end its work; Virtuoso's often comes later (docs/virtuoso.md finding 12): then this abort keeps the limit.
    const timeout = AbortSignal.timeout(this.o.timeoutMs + 1000);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const timedOut = (what = `the query ran longer than the time limit of ${this.o.timeoutMs} ms and was stopped`): QueryTimeout => {
      this.timeouts++;
      return new QueryTimeout(`${what}; narrow it or add LIMIT`, { field: "query" });
    };
    try {
      let r: Answer;
      try {
        r = await post(this.o.endpoint, this.headers(graph ? "application/n-triples" : "application/sparql-results+json"), this.form(text, defaultGraphs, namedGraphs), both);
      } catch (e) {
        if (signal?.aborted) {
          this.cancelled++;
          throw new Cancelled("the client closed the connection; the query was stopped");
        }
        if (timeout.aborted) throw timedOut();
        throw new ServiceUnavailable(`the external SPARQL store did not answer (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); try again later`);
      }
      const body = r.text;
      const state = header(r.headers, "x-sql-state");
      // Virtuoso's messages quote the query sent: without the pragmas the proxy put in front of it
      const quoted = pragmas.replace(/\s+/g, " ").trim();
      let message = (header(r.headers, "x-sql-message") || body).replace(/\s+/g, " ").trim();
      if (quoted) message = message.split(quoted).join("").replace(/\s+/g, " ");
      message = message.slice(0, 300);
      const head = body.slice(0, 1000);
      // Virtuoso's "anytime query": 200 with a partial result when its time limit passed.
      if (state === "S1TAT" || /\bS1T00\b|\bSR171\b/.test(head)) throw timedOut();
      // Refused before it ran, by the store's cost estimate (Virtuoso's MaxQueryCostEstimationTime; docs/virtuoso.md finding 12)
      const estimate = /estimated execution time \S+ \(sec\) exceeds the limit of (\d+)/.exec(head);
      if (estimate) {
        throw timedOut(
          `the external SPARQL store refused to run the query: its cost estimate passed its limit of ${estimate[1]} s (Virtuoso's MaxQueryCostEstimationTime; the estimates can be far off, and the README asks the store's operator to leave that setting out)`,
        );
      }
      if (r.status >= 400 && r.status < 500) throw new BadRequest(`the external SPARQL store refused the query (${r.status}): ${message}`, { field: "query" });
      if (r.status < 200 || r.status > 299) throw new ServiceUnavailable(`the external SPARQL store failed to run the query (${r.status}): ${message}; try again later`);
      const cut = Number(header(r.headers, "x-sparql-maxrows"));
      if (Number.isInteger(cut) && cut > 0) throw this.cutShort(cut, graph ? "triples" : "rows");
      if (graph && this.rowLimit !== undefined && countLines(body) > this.rowLimit) throw this.cutShort(this.rowLimit, "triples");
      return body;
    } finally {
      this.release();
    }
  }

  private cutShort(limit: number, unit: "rows" | "triples"): BadRequest {
    return new BadRequest(`the result has more than ${limit} ${unit}, the most the external SPARQL store answers; add LIMIT ${Math.min(limit, this.o.maxResults)} or narrow the query`, { field: "query" });
  }
}

/** A graph IRI as an IRIREF of a query, or undefined when it holds characters an IRIREF cannot (such a graph cannot be excluded by name). */
function iriRef(g: string): string | undefined {
  return /[<>"{}|\\^`\u0000-\u0020]/.test(g) ? undefined : `<${g}>`;
}

function countLines(s: string): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i >= 0; i = s.indexOf("\n", i + 1)) n++;
  return n;
}
