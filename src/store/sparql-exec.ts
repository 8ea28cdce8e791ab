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
 * - Errors, all 400 with field `query`: syntax errors with Oxigraph's message and its line and
 *   column; update syntax (read-only endpoint); SERVICE (federation never reaches the network:
 *   refused before evaluation, and Oxigraph's WASM build has no HTTP client besides);
 *   unsupported functions and other evaluation errors with Oxigraph's message.
 */
import * as ox from "oxigraph";
import { BadRequest } from "../errors.ts";
import { withTemporaryStore } from "./apply.ts";
import { isGraphFormat, isSolutionFormat, looksLikeUpdate, queryForm, usesFrom, usesService } from "./sparql-syntax.ts";

export interface QueryRequest {
  readonly query: string;
  /** A media type of SOLUTION_FORMATS or GRAPH_FORMATS. */
  readonly format: string;
  readonly defaultGraphs?: readonly string[];
  readonly namedGraphs?: readonly string[];
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

/** Translate an exception of `Store.query` into a client error; WASM traps are rethrown. */
function queryError(e: unknown, req: QueryRequest): unknown {
  if (e instanceof WebAssembly.RuntimeError || !(e instanceof Error)) return e;
  const msg = e.message;
  const at = /^error at (\d+):(\d+)/.exec(msg);
  if (at) {
    if (looksLikeUpdate(req.query)) return new BadRequest(READ_ONLY_MESSAGE, { field: "query" });
    return new BadRequest(`invalid SPARQL query: ${msg}`, { field: "query", line: Number(at[1]), column: Number(at[2]) });
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
  const graph = isGraphFormat(req.format);
  if (!graph && !isSolutionFormat(req.format)) throw new BadRequest(`unsupported result format ${req.format}`, { field: "Accept" });
  if (usesService(req.query)) throw new BadRequest(SERVICE_MESSAGE, { field: "query" });
  const options: QueryOptions = { ...datasetOptions(req), results_format: graph ? "application/n-triples" : req.format };
  let out: ReturnType<ox.Store["query"]>;
  try {
    out = store.query(req.query, options);
  } catch (e) {
    throw queryError(e, req);
  }
  if (typeof out !== "string") throw new Error(`Oxigraph returned a ${typeof out} for results_format ${options.results_format}`);
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
