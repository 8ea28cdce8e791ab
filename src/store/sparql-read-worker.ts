/**
 * Entry of a read thread of the SPARQL backend (sparql-reads.ts is the other side and describes
 * the protocol). The named reads (resources/reads.ts) are synchronous functions of an `ox.Store`;
 * here they get a `RemoteStore`, an object with the part of `ox.Store`'s API they use (`match`,
 * `has`, `query`), whose calls are synchronous remote calls: the thread posts the query to the
 * main thread, which sends it over HTTP, and blocks (`Atomics.wait` on a shared flag) until the
 * answer is on its own message port (`receiveMessageOnPort`) — the pattern synckit implements
 * (docs/virtuoso.md "How the SPARQL backend reads": why not synckit itself).
 *
 * Messages in (on parentPort), handled in order: `ready`/`gone` keep this thread's copy of the
 * ready graphs (with each graph's size and version), `read` runs a named read. A read runs to
 * its end before the next message is handled, so it sees the ready set as it was when it was sent.
 *
 * Small graphs are answered locally: a graph named by a call (`match`/`has` with a graph, or a
 * `query` whose only graph is named) with at most `cacheGraphTriples` triples is loaded whole
 * once per version into an Oxigraph store of this thread, and every later call on it is answered
 * there (least recently used graphs go first once the cached triples pass `cacheTriples`). It is
 * loaded from the service's local copy of its N-Triples (body-cache.ts) when its `ready` message
 * names one: the literals exactly as written (Virtuoso gives doubles back with 15 significant
 * digits, docs/virtuoso.md finding 2), no remote call. The location comes with the version, so
 * the thread never reads another version's copy: a file under its final name is complete and
 * never rewritten (its name holds the commit), only removed once its graph is replaced or
 * deleted. A copy that is missing (removed meanwhile, cache lost) or unreadable is fetched from
 * the store instead, as a graph without a local copy is.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from "node:worker_threads";
import * as ox from "oxigraph";
import { checkPlain } from "./plain-data.ts";
import { csvFromJson, fromJson, iriText, pageable, rowsFromJson, soleGraph, STR_PREFIX, termText, withLexicalForms, type JsonResults, type JsonTerm } from "./sparql-terms.ts";
import type { ReadsModule } from "./graph-store.ts";
import type { BodyLocation } from "./journal.ts";

export interface ReadThreadData {
  /** Set to 1 by the main thread when an answer is on `answers`. */
  readonly flag: SharedArrayBuffer;
  readonly answers: MessagePort;
  /** The ready graphs at the thread's start: [graph, triples, version, local copy (when there is one)]. */
  readonly ready: readonly (readonly [string, number, number, BodyLocation | undefined])[];
  /** Most rows of one SELECT answer (Virtuoso's ResultSetMaxRows). */
  readonly maxRows: number;
  readonly cacheGraphTriples: number;
  readonly cacheTriples: number;
}

/** A graph is ready (a new version), or its version got a local copy (`at`, same version); or it is gone. */
export type GraphChange =
  | { readonly type: "ready"; readonly graph: string; readonly triples: number; readonly version: number; readonly at?: BodyLocation }
  | { readonly type: "gone"; readonly graph: string };

export type ToReadThread =
  /** Changes of the ready graphs, in order (a commit of many graphs: several such messages). */
  | { readonly type: "changes"; readonly changes: readonly GraphChange[] }
  | { readonly type: "read"; readonly id: number; readonly module: string; readonly name: string; readonly args: readonly unknown[]; readonly timeoutMs: number };

/** A query for the main thread to send (the answer comes on `answers` as an `HttpAnswer`). */
export interface HttpRequest {
  readonly type: "http";
  readonly call: number;
  readonly query: string;
  /** Time left to the read's deadline, ms. */
  readonly timeoutMs: number;
}

export type HttpAnswer = { readonly call: number; readonly ok: true; readonly text: string; readonly truncated: boolean } | { readonly call: number; readonly ok: false; readonly message: string };

export interface ReadStats {
  readonly remoteCalls: number;
  readonly localCalls: number;
  /** Graphs loaded from their local copy (body cache) during the read. */
  readonly fileLoads: number;
  readonly cachedGraphs: number;
  readonly cachedTriples: number;
}

export type FromReadThread =
  | HttpRequest
  /** The read's clock started (its module loaded): its deadline is now + timeoutMs. */
  | { readonly type: "started"; readonly id: number }
  | { readonly type: "ok"; readonly id: number; readonly value: unknown; readonly stats: ReadStats }
  | { readonly type: "failed"; readonly id: number; readonly message: string; readonly stats: ReadStats };

const port = parentPort;
if (!port) throw new Error("sparql-read-worker.ts must run in a worker thread");
const data = workerData as ReadThreadData;
const flag = new Int32Array(data.flag);

/** The ready graphs: size, version (it changes with every commit that writes the graph) and the version's local copy. */
const ready = new Map<string, { triples: number; version: number; at: BodyLocation | undefined }>(data.ready.map(([g, triples, version, at]) => [g, { triples, version, at }]));

let calls = 0;
let remoteCalls = 0;
let localCalls = 0;
let fileLoads = 0;
/** The current read's deadline (ms since the epoch). */
let deadline = Infinity;
let readName = "";

/** One query to the store, synchronously: the JSON results, checked complete. */
function remote(query: string): JsonResults {
  const left = deadline - Date.now();
  if (left <= 0) throw new Error(`read ${readName}: out of time on the SPARQL store`);
  const call = ++calls;
  remoteCalls++;
  Atomics.store(flag, 0, 0);
  port!.postMessage({ type: "http", call, query, timeoutMs: left } satisfies HttpRequest);
  for (;;) {
    let m: { message: HttpAnswer } | undefined;
    while ((m = receiveMessageOnPort(data.answers) as { message: HttpAnswer } | undefined)) {
      const a = m.message;
      if (a.call !== call) continue; // the answer to a call given up on (time): not this one
      if (!a.ok) throw new Error(a.message);
      if (a.truncated) throw new Error(`the SPARQL store cut a result short at its row limit (ResultSetMaxRows): ${query.slice(0, 200)}`);
      return JSON.parse(a.text) as JsonResults;
    }
    // Woken by an old answer (or one that came after the port was read): clear and look again.
    // The main thread posts before it sets the flag, so a flag still 0 here means nothing new.
    if (Atomics.load(flag, 0) === 1) {
      Atomics.store(flag, 0, 0);
      continue;
    }
    const wait = deadline - Date.now();
    if (wait <= 0) throw new Error(`read ${readName}: the SPARQL store did not answer in time`);
    Atomics.wait(flag, 0, 0, wait);
  }
}

/**
 * A SELECT whose answer may pass the store's row limit, read in pages of maxRows − 1 rows
 * (Virtuoso marks an answer of exactly maxRows rows as cut, even under a LIMIT of that size),
 * unordered (ordered pages cannot pass the limit on Virtuoso, docs/virtuoso.md finding 5).
 */
function paged(query: string): Record<string, JsonTerm>[] {
  return pagedResults(query).results!.bindings;
}

/** `paged`, as one JSON result (the first page's head, every page's rows). */
function pagedResults(query: string): JsonResults & { results: { bindings: Record<string, JsonTerm>[] } } {
  const out: Record<string, JsonTerm>[] = [];
  const page = Math.max(1, data.maxRows - 1);
  for (let offset = 0; ; offset += page) {
    const r = remote(`${query} LIMIT ${page} OFFSET ${offset}`);
    const rows = r.results?.bindings ?? [];
    for (const b of rows) out.push(b);
    if (rows.length < page) return { ...r, results: { bindings: out } };
  }
}

// ---- the cache of small graphs ----

interface Cached {
  readonly version: number;
  readonly store: ox.Store;
  readonly triples: number;
  /** Loaded from the local copy (else fetched from the store: doubles to 15 digits). */
  readonly exact: boolean;
}
/** In use order: the least recently used first. */
const cache = new Map<string, Cached>();
let cachedTriples = 0;

function evict(graph: string): void {
  const c = cache.get(graph);
  if (!c) return;
  cache.delete(graph);
  cachedTriples -= c.triples;
  (c.store as unknown as { free?: () => void }).free?.();
}

/**
 * The bytes of a local copy, or undefined when it cannot be read whole (removed by a later commit
 * meanwhile, the cache lost): the caller fetches from the store instead. An open file that is
 * removed is still read to its end (POSIX), and a file is never rewritten under its final name.
 */
function readCopy(at: BodyLocation): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(at.path, "r");
  } catch {
    return undefined;
  }
  try {
    const out = Buffer.alloc(at.length);
    let done = 0;
    while (done < at.length) {
      const n = readSync(fd, out, done, at.length - done, at.offset + done);
      if (n === 0) return undefined;
      done += n;
    }
    return out;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The graph loaded from its local copy, exactly as written (undefined: no copy to read). */
function fromCopy(at: BodyLocation, g: ox.NamedNode): ox.Store | undefined {
  const bytes = readCopy(at);
  if (!bytes) return undefined;
  const store = new ox.Store();
  try {
    if (bytes.length > 0) store.load(bytes, { format: "application/n-triples", to_graph_name: g, no_transaction: true });
  } catch {
    (store as unknown as { free?: () => void }).free?.();
    return undefined;
  }
  fileLoads++;
  return store;
}

/** The graph fetched whole from the store (undefined: not the size the catalog says). */
function fromStore(graph: string, triples: number, g: ox.NamedNode): ox.Store | undefined {
  if (triples >= data.maxRows) return undefined;
  const rows = remote(`SELECT ?s ?p ?o (STR(?o) AS ?${STR_PREFIX}o) WHERE { GRAPH ${iriText(graph)} { ?s ?p ?o } }`).results?.bindings ?? [];
  if (rows.length !== triples) {
    // Not what the catalog says (written meanwhile, or a bad size): answer remotely this time.
    return undefined;
  }
  const store = new ox.Store();
  for (const b of rows) store.add(ox.quad(fromJson(b.s!) as ox.NamedNode, fromJson(b.p!) as ox.NamedNode, fromJson(b.o!, b[`${STR_PREFIX}o`]), g));
  return store;
}

/**
 * The cached copy of a ready graph small enough to be cached (loaded now if needed: from its
 * local copy when there is one, else fetched from the store), else undefined.
 */
function local(graph: string): ox.Store | undefined {
  const r = ready.get(graph);
  if (!r || r.triples > data.cacheGraphTriples) return undefined;
  const c = cache.get(graph);
  if (c && c.version === r.version) {
    cache.delete(graph);
    cache.set(graph, c);
    return c.store;
  }
  evict(graph);
  const g = ox.namedNode(graph);
  const copy = r.at && fromCopy(r.at, g);
  const store = copy || fromStore(graph, r.triples, g);
  if (!store) return undefined;
  const triples = store.size;
  cache.set(graph, { version: r.version, store, triples, exact: !!copy });
  cachedTriples += triples;
  for (const old of cache.keys()) {
    if (cachedTriples <= data.cacheTriples || old === graph) break;
    evict(old);
  }
  return store;
}

// ---- the store the reads see ----

type T = ox.Term | null | undefined;

const variable = (t: T, name: string): string => (t ? termText(t) : `?${name}`);
const unbound = (s: T, p: T, o: T): string[] => (["s", "p", "o"] as const).filter((_, i) => ![s, p, o][i]);

/** The part of ox.Store's API the named reads use, answered by the SPARQL store. */
class RemoteStore {
  match(s?: T, p?: T, o?: T, g?: T): ox.Quad[] {
    if (g && g.termType === "DefaultGraph") return []; // the service writes named graphs only; Oxigraph's default graph is empty
    if (g) {
      if (g.termType !== "NamedNode" || !ready.has(g.value)) return [];
      const l = local(g.value);
      if (l) {
        localCalls++;
        return l.match(s ?? null, p ?? null, o ?? null, g);
      }
      const where = `GRAPH ${iriText(g.value)} { ${variable(s, "s")} ${variable(p, "p")} ${variable(o, "o")} }`;
      const free = unbound(s, p, o);
      if (free.length === 0) return remote(`ASK { ${where} }`).boolean ? [ox.quad(s as ox.NamedNode, p as ox.NamedNode, o as ox.Literal, g as ox.NamedNode)] : [];
      const rows = paged(withLexicalForms(`SELECT ${free.map((v) => `?${v}`).join(" ")} WHERE { ${where} }`));
      return rows.map((b) => ox.quad((s ?? fromJson(b.s!)) as ox.NamedNode, (p ?? fromJson(b.p!)) as ox.NamedNode, (o ?? fromJson(b.o!, b[`${STR_PREFIX}o`])) as ox.Literal, g as ox.NamedNode));
    }
    // Every graph: only the ready ones (not the catalog, graphs being written, the store's own).
    const vars = ["g", ...unbound(s, p, o)].map((v) => `?${v}`).join(" ");
    const rows = paged(withLexicalForms(`SELECT ${vars} WHERE { GRAPH ?g { ${variable(s, "s")} ${variable(p, "p")} ${variable(o, "o")} } }`));
    const out: ox.Quad[] = [];
    for (const b of rows) {
      if (b.g?.type !== "uri" || !ready.has(b.g.value)) continue;
      out.push(ox.quad((s ?? fromJson(b.s!)) as ox.NamedNode, (p ?? fromJson(b.p!)) as ox.NamedNode, (o ?? fromJson(b.o!, b[`${STR_PREFIX}o`])) as ox.Literal, ox.namedNode(b.g.value)));
    }
    return out;
  }

  has(q: ox.Quad): boolean {
    return this.match(q.subject, q.predicate, q.object, q.graph).length > 0;
  }

  /**
   * A query as Oxigraph's `store.query` answers it: SELECT → rows (or CSV text with
   * `results_format: "text/csv"`), ASK → boolean. A query whose graphs are all one named small
   * graph runs on the local copy; any other goes to the store as it is — a SELECT without ORDER BY,
   * LIMIT or OFFSET of its own in pages (`pageable`), so that its answer may pass the store's row
   * limit; any other is refused when it reaches the limit. The default graph is not
   * made empty as Oxigraph's is (a `default-graph-uri` also hides `GRAPH <g>` on Virtuoso): the
   * reads put every pattern in a GRAPH (docs/virtuoso.md "How the SPARQL backend reads").
   */
  query(query: string, options: { results_format?: string } = {}): unknown {
    const known = Object.keys(options).filter((k) => k !== "results_format");
    if (known.length > 0) throw new Error(`query options not supported on the SPARQL store: ${known.join(", ")}`);
    const csv = options.results_format === "text/csv";
    if (options.results_format !== undefined && !csv) throw new Error(`results format ${options.results_format} not supported on the SPARQL store`);
    const only = soleGraph(query);
    if (only !== undefined) {
      if (!ready.has(only)) {
        // Oxigraph answers on an empty graph: the query's own answer, without the store (no rows, or an aggregate over none).
        localCalls++;
        const empty = new ox.Store();
        try {
          return empty.query(query, options);
        } finally {
          (empty as unknown as { free?: () => void }).free?.();
        }
      }
      const l = local(only);
      if (l) {
        localCalls++;
        return l.query(query, options);
      }
    }
    const lexical = withLexicalForms(query);
    // A SELECT that can be paged is read in pages, as `match` is: its answer may pass the store's row limit.
    const inPages = pageable(lexical);
    const r = inPages ? pagedResults(lexical) : remote(lexical);
    if (typeof r.boolean === "boolean") return r.boolean;
    if (!r.results) throw new Error("the SPARQL store answered a query with neither rows nor a boolean (CONSTRUCT and DESCRIBE are not supported here)");
    if (!inPages && (r.results.bindings.length ?? 0) >= data.maxRows) throw new Error(`the SPARQL store's answer has ${r.results.bindings.length} rows, its row limit: it may be cut short (${query.slice(0, 200)})`);
    return csv ? csvFromJson(r) : rowsFromJson(r);
  }
}

const store = new RemoteStore() as unknown as ox.Store;
const modules = new Map<string, ReadsModule>();

function stats(): ReadStats {
  return { remoteCalls, localCalls, fileLoads, cachedGraphs: cache.size, cachedTriples };
}

async function read(msg: Extract<ToReadThread, { type: "read" }>): Promise<void> {
  remoteCalls = 0;
  localCalls = 0;
  fileLoads = 0;
  try {
    let mod = modules.get(msg.module);
    if (!mod) modules.set(msg.module, (mod = (await import(msg.module)) as ReadsModule));
    // The time limit counts from here: a thread that is still starting, or loading the module of
    // its first read, on a busy machine does not eat into the read's time.
    deadline = Date.now() + msg.timeoutMs;
    port!.postMessage({ type: "started", id: msg.id } satisfies FromReadThread);
    readName = msg.name;
    const value = mod.run(store, msg.name, msg.args);
    checkPlain(value, `read ${msg.name}`);
    port!.postMessage({ type: "ok", id: msg.id, value, stats: stats() } satisfies FromReadThread);
  } catch (err) {
    port!.postMessage({ type: "failed", id: msg.id, message: err instanceof Error ? err.message : String(err), stats: stats() } satisfies FromReadThread);
  } finally {
    deadline = Infinity;
  }
}

/** Messages in order: a read that waits for its module holds the ones after it. */
let chain: Promise<void> = Promise.resolve();

port.on("message", (msg: ToReadThread) => {
  chain = chain.then(() => {
    if (msg.type === "read") return read(msg);
    for (const change of msg.changes) {
      if (change.type === "ready") {
        ready.set(change.graph, { triples: change.triples, version: change.version, at: change.at });
        const c = cache.get(change.graph);
        // A new version; or the same one whose local copy is now known, cached from the store: loaded again from the copy.
        if (c && (c.version !== change.version || (change.at && !c.exact))) evict(change.graph);
      } else {
        ready.delete(change.graph);
        evict(change.graph);
      }
    }
    return undefined;
  });
});
