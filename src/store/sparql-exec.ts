/**
 * Running one read-only SPARQL query against an Oxigraph store and serialising the result
 * (SPARQL 1.1 Query; result formats: SPARQL 1.1 Query Results JSON, XML, CSV/TSV; graphs as
 * Turtle, N-Triples, RDF/XML). Runs inside the read replica's worker thread (replica-worker.ts),
 * never on the main thread: Oxigraph evaluates synchronously.
 *
 * - Dataset: the default graph is the union of all named graphs, unless the query has FROM /
 *   FROM NAMED, or the request gives `default-graph-uri` / `named-graph-uri` (SPARQL 1.1 Protocol
 *   §2.1.4; those replace the query's own dataset, and a graph list left out is empty).
 * - Result limit: a SELECT with more than `maxResults` solutions, or a CONSTRUCT/DESCRIBE with
 *   more than `maxResults` triples, is refused as a whole with 400 ("… more than N rows; add
 *   LIMIT"); nothing is truncated silently. The result is built before it is counted, so the
 *   time limit is what bounds the work a huge result costs.
 * - Errors, all 400 with field `query`: syntax errors as one sentence at a line and column
 *   (sparql-syntax.ts `explainSyntaxError`, from Oxigraph's report and the text); update syntax
 *   (read-only endpoint); SERVICE (federation never reaches the network: refused before
 *   evaluation, and Oxigraph's WASM build has no HTTP client besides); unsupported functions and
 *   other evaluation errors with Oxigraph's message.
 * - Predeclared prefixes: a request may name prefixes (the service's: README "SPARQL") that a
 *   query may use without declaring them; they are declared for it just before its query form
 *   (`withPredeclaredPrefixes`), and error positions are mapped back to the text as sent.
 * - TABLE_FORMAT: the result for the HTML page, read here (in the worker), not on the main
 *   thread: the variables and one page of rows as RDF terms (SPARQL JSON terms), the number of
 *   rows in all, ASK's boolean, or CONSTRUCT/DESCRIBE's triples as rows of three.
 */
import * as ox from "oxigraph";
import { BadRequest } from "../errors.ts";
import { withTemporaryStore } from "./apply.ts";
import { foldLexicalForms } from "./sparql-terms.ts";
import { explainSyntaxError, isGraphFormat, isSolutionFormat, looksLikeUpdate, offsetOf, queryForm, usesFrom, usesService, withPredeclaredPrefixes, type QueryForm } from "./sparql-syntax.ts";

export interface QueryRequest {
  readonly query: string;
  /** A media type of SOLUTION_FORMATS or GRAPH_FORMATS. */
  readonly format: string;
  readonly defaultGraphs?: readonly string[];
  readonly namedGraphs?: readonly string[];
  /** Prefixes the query may use without declaring them: name → namespace IRI. */
  readonly prefixes?: Readonly<Record<string, string>>;
  /** With TABLE_FORMAT: the rows of the page (from `offset`, at most `limit`). */
  readonly table?: { readonly offset: number; readonly limit: number };
  /**
   * The query's result as an external store gave it (sparql-proxy.ts): SPARQL 1.1 Query Results
   * JSON for SELECT/ASK, N-Triples for CONSTRUCT/DESCRIBE. It is written as `format` (or the
   * page's table) by the same code as a local result (`executeRemote`); the query is not run.
   */
  readonly remote?: string;
  /** The remote SELECT was sent `withLexicalFormsOfQuery` (sparql-terms.ts): its doubles are taken whole from their `__str_` companions, which go. */
  readonly remoteLexicalForms?: boolean;
}

/** The result as the HTML page shows it (see the module comment); JSON of a `QueryTable`. */
export const TABLE_FORMAT = "application/x-qsargraph-table+json";

/** An RDF term as SPARQL 1.1 Query Results JSON writes it (a triple term: `value` in N-Triples). */
export interface TableTerm {
  readonly type: "uri" | "literal" | "bnode" | "triple";
  readonly value: string;
  readonly datatype?: string;
  readonly "xml:lang"?: string;
}

export interface QueryTable {
  readonly form: QueryForm;
  /** Column names: the SELECT's variables, or subject, predicate, object. */
  readonly vars: readonly string[];
  /** One page of rows; null = unbound. */
  readonly rows: readonly (readonly (TableTerm | null)[])[];
  /** Rows (solutions or triples) in all. */
  readonly total: number;
  /** ASK's answer. */
  readonly boolean?: boolean;
}

export interface QueryResult {
  readonly contentType: string;
  readonly body: string;
}

export const READ_ONLY_MESSAGE = "SPARQL update is not allowed: this endpoint is read-only";
export const SERVICE_MESSAGE = "SERVICE (federated query) is not allowed: this endpoint does not query other endpoints";

type QueryOptions = NonNullable<Parameters<ox.Store["query"]>[1]>;

function graphNodes(iris: readonly string[], field: string): ox.NamedNode[] {
  return iris.map((iri) => {
    try {
      return ox.namedNode(iri);
    } catch (e) {
      throw new BadRequest(`'${iri}' is not an absolute IRI: ${(e as Error).message}`, { field });
    }
  });
}

function datasetOptions(req: QueryRequest): QueryOptions {
  const dg = req.defaultGraphs ?? [];
  const ng = req.namedGraphs ?? [];
  if (dg.length > 0 || ng.length > 0) {
    return { default_graph: graphNodes(dg, "default-graph-uri"), named_graphs: graphNodes(ng, "named-graph-uri") };
  }
  // Oxigraph's union flag would override the query's FROM clauses; leave those to the query.
  return usesFrom(req.query) ? {} : { use_default_graph_as_union: true };
}

/** The query as run: with the predeclared prefixes it uses (see withPredeclaredPrefixes). */
type Rewritten = ReturnType<typeof withPredeclaredPrefixes>;

/** A syntax error's sentence (the message of the 400; its line and column in the details too). */
export function syntaxErrorMessage(line: number, column: number, reason: string): string {
  return `invalid SPARQL query at line ${line}, column ${column}: ${reason}`;
}

/** Translate an exception of `Store.query` into a client error; WASM traps are rethrown. */
function queryError(e: unknown, req: QueryRequest, run: Rewritten): unknown {
  if (e instanceof WebAssembly.RuntimeError || !(e instanceof Error)) return e;
  const msg = e.message;
  const at = /^error at (\d+):(\d+): ?(?:expected )?([\s\S]*)$/.exec(msg);
  if (at) {
    if (looksLikeUpdate(req.query)) return new BadRequest(READ_ONLY_MESSAGE, { field: "query" });
    // Oxigraph's position in the text it ran → the same place in the text as sent.
    let offset = offsetOf(run.text, Number(at[1]), Number(at[2]));
    if (offset >= run.at + run.added) offset -= run.added;
    else if (offset > run.at) offset = run.at;
    const p = explainSyntaxError(req.query, offset, at[3] ?? "", req.prefixes ?? {});
    return new BadRequest(syntaxErrorMessage(p.line, p.column, p.reason), { field: "query", line: p.line, column: p.column });
  }
  if (/^The service .* is not supported/.test(msg)) return new BadRequest(SERVICE_MESSAGE, { field: "query" });
  if (/^Not supported .*format media type/.test(msg)) {
    return new BadRequest(`the result of this ${queryForm(req.query) ?? "query"} cannot be given as ${req.format}`, { field: "Accept" });
  }
  return new BadRequest(`the query failed: ${msg}`, { field: "query" });
}

function tooLarge(n: number, max: number, unit: "rows" | "triples"): BadRequest {
  return new BadRequest(`the result has more than ${max} ${unit} (${n}); add LIMIT ${max} or narrow the query`, { field: "query" });
}

function countChar(s: string, ch: string): number {
  let n = 0;
  for (let i = s.indexOf(ch); i >= 0; i = s.indexOf(ch, i + 1)) n++;
  return n;
}

/** Records of a CSV text (RFC 4180: CRLF ends a record outside double quotes). */
function csvRecords(s: string): number {
  let n = 0;
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34) quoted = !quoted; // '"'; an escaped "" toggles twice
    else if (c === 10 && !quoted) n++;
  }
  return n;
}

/**
 * Solutions in a serialised SELECT result, as Oxigraph writes it (0 for an ASK answer: a bare
 * `true`/`false` in CSV/TSV, `<boolean>` in XML, `"boolean"` in JSON). TSV escapes newlines inside
 * terms and XML escapes '<' in text, so lines and `<result>` tags count exactly.
 */
export function countSolutions(format: string, body: string): number {
  switch (format) {
    case "application/sparql-results+json": {
      const parsed = JSON.parse(body) as { results?: { bindings?: unknown[] } };
      return parsed.results?.bindings?.length ?? 0;
    }
    case "application/sparql-results+xml":
      return body.split("<result>").length - 1;
    case "text/tab-separated-values":
      return Math.max(0, countChar(body, "\n") - 1);
    case "text/csv":
      return Math.max(0, csvRecords(body) - 1);
    default:
      throw new Error(`not a solutions format: ${format}`);
  }
}

export function executeQuery(store: ox.Store, req: QueryRequest, maxResults: number): QueryResult {
  if (req.remote !== undefined) return executeRemote(req as QueryRequest & { remote: string }, maxResults);
  if (req.format === TABLE_FORMAT) return { contentType: TABLE_FORMAT, body: JSON.stringify(executeTable(store, req, maxResults)) };
  const graph = isGraphFormat(req.format);
  if (!graph && !isSolutionFormat(req.format)) throw new BadRequest(`unsupported result format ${req.format}`, { field: "Accept" });
  const out = run(store, req, graph ? "application/n-triples" : req.format);
  if (!graph) {
    const n = countSolutions(req.format, out); // 0 for an ASK answer
    if (n > maxResults) throw tooLarge(n, maxResults, "rows");
    return { contentType: req.format, body: out };
  }
  const triples = countChar(out, "\n"); // N-Triples: one line per triple, newlines in terms escaped
  if (triples > maxResults) throw tooLarge(triples, maxResults, "triples");
  if (req.format === "application/n-triples") return { contentType: req.format, body: out };
  return {
    contentType: req.format,
    body: withTemporaryStore((tmp) => {
      tmp.load(out, { format: "application/n-triples", lenient: true, no_transaction: true });
      return tmp.dump({ format: req.format, from_graph_name: ox.defaultGraph() });
    }),
  };
}

/** Run the query (predeclared prefixes added) with Oxigraph, its result serialised as `format`. */
function run(store: ox.Store, req: QueryRequest, format: string): string {
  if (usesService(req.query)) throw new BadRequest(SERVICE_MESSAGE, { field: "query" });
  const rewritten = withPredeclaredPrefixes(req.query, req.prefixes ?? {});
  const options: QueryOptions = { ...datasetOptions(req), results_format: format };
  let out: ReturnType<ox.Store["query"]>;
  try {
    out = store.query(rewritten.text, options);
  } catch (e) {
    throw queryError(e, req, rewritten);
  }
  if (typeof out !== "string") throw new Error(`Oxigraph returned a ${typeof out} for results_format ${format}`);
  return out;
}

interface JsonResults {
  readonly head?: { readonly vars?: readonly string[] };
  readonly boolean?: boolean;
  readonly results?: { readonly bindings?: readonly Record<string, TableTerm>[] };
}

/** The page of the result that the HTML page shows (TABLE_FORMAT). */
export function executeTable(store: ox.Store, req: QueryRequest, maxResults: number): QueryTable {
  const form = queryForm(req.query);
  const { offset, limit } = req.table ?? { offset: 0, limit: 100 };
  if (form === "CONSTRUCT" || form === "DESCRIBE") {
    const lines = run(store, req, "application/n-triples").split("\n").filter((l) => l !== "");
    if (lines.length > maxResults) throw tooLarge(lines.length, maxResults, "triples");
    const page = lines.slice(offset, offset + limit).join("\n");
    const quads = page === "" ? [] : (ox.parse(page, { format: "application/n-triples" }) as ox.Quad[]);
    return { form, vars: ["subject", "predicate", "object"], rows: quads.map((q) => [tableTerm(q.subject), tableTerm(q.predicate), tableTerm(q.object)]), total: lines.length };
  }
  const parsed = JSON.parse(run(store, req, "application/sparql-results+json")) as JsonResults;
  if (typeof parsed.boolean === "boolean") return { form: form ?? "ASK", vars: [], rows: [], total: 0, boolean: parsed.boolean };
  const vars = parsed.head?.vars ?? [];
  const bindings = parsed.results?.bindings ?? [];
  if (bindings.length > maxResults) throw tooLarge(bindings.length, maxResults, "rows");
  return { form: form ?? "SELECT", vars, rows: bindings.slice(offset, offset + limit).map((b) => vars.map((v) => b[v] ?? null)), total: bindings.length };
}

function tableTerm(t: ox.Term): TableTerm {
  switch (t.termType) {
    case "NamedNode":
      return { type: "uri", value: t.value };
    case "BlankNode":
      return { type: "bnode", value: t.value };
    case "Literal":
      return { type: "literal", value: t.value, ...(t.language ? { "xml:lang": t.language } : { datatype: t.datatype.value }) };
    default:
      return { type: "triple", value: t.toString() };
  }
}


// ---------------------------------------------------------------------------------------------
// An external store's result written as a local one (the SPARQL proxy, sparql-proxy.ts).

/** The named graph an external CONSTRUCT/DESCRIBE result is loaded into (a temporary store's only graph). */
const REMOTE_GRAPH = "urn:x-qsargraph:remote-result";
/** Datatype that marks a blank node's label in the VALUES of a rewritten SELECT result (turned back into a blank node by BNODE). */
const BNODE_MARK = "urn:x-qsargraph:blank-node";

/** A term of SPARQL JSON results in SPARQL syntax (for VALUES); blank nodes as marked literals of `label`'s name for them. */
function valuesTerm(t: TableTerm, label: (bnode: string) => string): string {
  switch (t.type as string) {
    case "uri":
      if (/[<>"{}|\\^`\s]/.test(t.value)) throw new BadRequest(`the external store answered an IRI that is not valid: ${t.value.slice(0, 200)}`, { field: "query" });
      return `<${t.value}>`;
    case "literal":
    case "typed-literal": {
      const lex = JSON.stringify(t.value);
      if (t["xml:lang"]) return `${lex}@${t["xml:lang"]}`;
      if (t.datatype && t.datatype !== "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString") return `${lex}^^<${t.datatype}>`;
      return lex;
    }
    case "bnode":
      return `"${label(t.value)}"^^<${BNODE_MARK}>`;
    default:
      throw new BadRequest(`the external store answered a term of type '${t.type}', which this endpoint does not write`, { field: "query" });
  }
}

/**
 * SELECT solutions as a query that gives them back (in the same order) on an empty store:
 * `VALUES` of the terms; blank nodes (which VALUES cannot hold) travel as marked literals and are
 * made blank nodes again by `BNODE(label)`, the same within a solution, as labels are.
 */
export function solutionsQuery(vars: readonly string[], bindings: readonly Record<string, TableTerm>[]): string {
  if (vars.length === 0) return `SELECT * WHERE { VALUES () { ${bindings.map(() => "()").join(" ")} } }`;
  for (const v of vars) if (!/^[A-Za-z0-9_\u00B7\u00C0-\uFFFF]+$/.test(v)) throw new BadRequest(`the external store answered a variable name that is not SPARQL: '${v}'`, { field: "query" });
  const blanks = new Set<number>();
  // BNODE() takes only a valid label (Virtuoso's are "nodeID://b1…"): each store label gets one of ours
  const labels = new Map<string, string>();
  const label = (b: string): string => {
    let l = labels.get(b);
    if (l === undefined) labels.set(b, (l = `b${labels.size}`));
    return l;
  };
  const rows = bindings.map((b) => `(${vars.map((v, i) => {
    const t = b[v];
    if (t === undefined) return "UNDEF";
    if (t.type === "bnode") blanks.add(i);
    return valuesTerm(t, label);
  }).join(" ")})`);
  const col = (i: number): string => (blanks.has(i) ? `?_qg_${i}` : `?${vars[i]}`);
  const binds = [...blanks].map((i) => `BIND(IF(isLiteral(?_qg_${i}) && DATATYPE(?_qg_${i}) = <${BNODE_MARK}>, BNODE(STR(?_qg_${i})), ?_qg_${i}) AS ?${vars[i]})`);
  return `SELECT ${vars.map((v) => `?${v}`).join(" ")} WHERE { VALUES (${vars.map((_, i) => col(i)).join(" ")}) {\n${rows.join("\n")}\n} ${binds.join(" ")} }`;
}

/** Statements of an N-Triples text: its lines that are neither blank nor comments. */
function ntriplesStatements(body: string): number {
  let n = 0;
  for (let start = 0; start < body.length; ) {
    let end = body.indexOf("\n", start);
    if (end < 0) end = body.length;
    const line = body.slice(start, end).trimStart();
    if (line !== "" && !line.startsWith("#")) n++;
    start = end + 1;
  }
  return n;
}

/**
 * An external store's result (`req.remote`) written as `req.format` (or the page's table): the
 * result limit counted on it first, then the same code as a local result — a CONSTRUCT's triples
 * loaded into a temporary store and constructed again, a SELECT's solutions given back by a VALUES
 * query (`solutionsQuery`), an ASK's answer by `ASK {}` or `ASK { FILTER(false) }`.
 */
export function executeRemote(req: QueryRequest & { remote: string }, maxResults: number): QueryResult {
  const form = queryForm(req.query);
  const local = (store: ox.Store, query: string): QueryResult => executeQuery(store, { query, format: req.format, ...(req.table ? { table: req.table } : {}) }, maxResults);
  if (form === "CONSTRUCT" || form === "DESCRIBE") {
    const n = ntriplesStatements(req.remote);
    if (n > maxResults) throw tooLarge(n, maxResults, "triples");
    return withTemporaryStore((tmp) => {
      try {
        tmp.load(req.remote, { format: "application/n-triples", to_graph_name: ox.namedNode(REMOTE_GRAPH), lenient: true, no_transaction: true });
      } catch (e) {
        throw new BadRequest(`the external store's answer is not N-Triples: ${(e as Error).message}`, { field: "query" });
      }
      return local(tmp, "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }");
    });
  }
  let parsed: JsonResults;
  try {
    parsed = JSON.parse(req.remote) as JsonResults;
  } catch (e) {
    throw new BadRequest(`the external store's answer is not SPARQL JSON results: ${(e as Error).message}`, { field: "query" });
  }
  return withTemporaryStore((tmp) => {
    if (typeof parsed.boolean === "boolean") return local(tmp, parsed.boolean ? "ASK {}" : "ASK { FILTER(false) }");
    const { vars, bindings } = req.remoteLexicalForms ? foldLexicalForms(parsed) : { vars: parsed.head?.vars ?? [], bindings: parsed.results?.bindings ?? [] };
    if (bindings.length > maxResults) throw tooLarge(bindings.length, maxResults, "rows");
    return local(tmp, solutionsQuery(vars, bindings));
  });
}
