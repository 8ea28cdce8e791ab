/**
 * The store on an external SPARQL 1.1 store (`--store sparql`, issue 19): graphs live in the
 * external store, written through its update and Graph Store Protocol (GSP) endpoints; this
 * class keeps the graph list in memory, as the embedded store does. Tested against Virtuoso 7.2
 * (test/external/sparql-store.test.ts); what it relies on is in docs/virtuoso.md ("How the SPARQL
 * backend writes").
 *
 * Reads (`read`): the named reads run in read threads of their own against the external store
 * (sparql-reads.ts; docs/virtuoso.md "How the SPARQL backend reads"), seeing only ready graphs.
 * With each ready graph the threads are given its local copy (below) when there is one: a small
 * graph is loaded from it, as written (exact doubles), without a remote call.
 *
 * Bodies: every put's N-Triples, exactly as the service wrote them, are also kept in a local
 * cache (body-cache.ts), written and fsynced before the commit point and renamed after it; a graph
 * the cache lacks (lost, or written by another process) is fetched from the store in pages on first
 * use. `storedBody` gives the cached file range (large graphs are served streamed from it) and
 * `dump` renders from it with Oxigraph's writer, as the embedded store does, so both backends give
 * the same bytes for the same writes (Virtuoso itself gives literals back rewritten and cuts large
 * answers short: docs/virtuoso.md findings 2 and 5).
 *
 * The catalog: one graph, `<base>/.store/catalog`, never served, holding one resource per graph
 * (`<g> qg:triples n ; qg:state "ready" | "writing" | "deleting" ; qg:commit c`) and the number of
 * the last complete commit (`<catalog> qg:lastCommit n`). A graph is served (`has`) only while it
 * is `ready` here and its commit is complete.
 *
 * A commit number n, one after another (a queue):
 *   1. a small update (one per 300 graphs) marks every graph of the commit `writing` (puts) or `deleting` (deletes),
 *      with `qg:commit n`; from then on none of them is served;
 *   2. each put's graph is dropped if it held anything, then its body goes in, in batches of at
 *      most 50,000 lines / 4 MB cut at line ends by GSP POST for a one-graph put, of at most
 *      1,000 lines as `INSERT DATA { GRAPH … }` for a several-graph N-Quads put (Virtuoso refuses
 *      larger ones: docs/virtuoso.md finding 9); a batch that fails is resent once (inserts
 *      into a set can be repeated), then the commit fails: its puts' graphs are dropped and
 *      removed from the catalog, its deletes are marked `ready` again, its replaced graphs put back;
 *   3. the puts are marked `ready` with their sizes (one update, or one per 300 graphs; the
 *      statements an entry keeps, such as its `qg:commit`, are not sent), and the
 *      last of these updates sets lastCommit to n: the commit point;
 *   4. the deleted graphs are dropped (`DROP SILENT GRAPH`) and their entries removed.
 * Start-up (`open`) rolls back every commit past lastCommit (its puts' graphs are dropped, its
 * deletes marked `ready` again, the graphs it replaced put back) and finishes the deletes of
 * complete ones, so a commit is all or nothing after a crash (replaced graphs: below).
 * The catalog updates hold only `DELETE DATA` and `INSERT DATA`, which cannot fail while they run
 * (docs/virtuoso.md findings 1 and 8: Virtuoso does not roll back a request that fails at run time).
 *
 * A replaced graph is dropped and written again while it is marked `writing` (there is no atomic
 * rename of a graph in SPARQL 1.1, and copying a temporary graph over is an update that can fail at
 * run time): it is not served during its commit. Its `writing` entry records the commit and size
 * it replaces (`qg:previousCommit`, `qg:previousTriples`), whose body file the local cache keeps
 * until after the commit point: a failed commit, and start-up after a crash mid-commit, write that
 * body again (`putBack`). Without the file (cache lost) the old content is gone: the graph is
 * dropped, logged and counted (`openInfo.replacesLost`). The service replaces only small graphs
 * (tasks, metadata); large graphs are always new.
 *
 * The catalog is read at start-up in keyset pages (ordered by subject), checked against a count.
 *
 * No step holds the event loop long: bodies are cut into batches as views (byte bodies) or
 * substrings (string bodies), N-Quads are turned into `INSERT DATA` text one batch at a time, and
 * each batch is awaited before the next is cut.
 */
import { DataFactory, Writer, type Quad } from "n3";
import { NotAcceptable, ServiceUnavailable } from "../errors.ts";
import { moduleUrl, REQUEST_NICE, spawnWorker } from "../threads/spawn.ts";
import { slicer } from "../threads/turns.ts";
import { dumpBody } from "./dump-body.ts";
import type { DumpJob, FromDumpWorker } from "./dump-worker.ts";
import { probeDialect, type SparqlDialect } from "./sparql-dialect.ts";
import type { CommitOptions, DumpFormat, OpenInfo, StagedGraph, StoreBackend, StoreCapacity } from "./backend.ts";
import { ANY_COMMIT, BodyCache, readBody, type BodyFile, type Pack } from "./body-cache.ts";
import { bodyOf, graphsOf, type Body, type BodyLocation, type GraphOp } from "./journal.ts";
import { ReadyGraphs, SparqlReads, type SparqlReadsOptions } from "./sparql-reads.ts";
import { QG_NS } from "./vocab.ts";

export interface SparqlEndpoints {
  /** The SPARQL query endpoint. */
  readonly query: string;
  /** The SPARQL update endpoint (POST `update=`). */
  readonly update: string;
  /** The Graph Store Protocol endpoint; the graph goes in `graph-uri=` (Virtuoso) unless `gspParam` says otherwise. */
  readonly gsp: string;
  /** The service's base URI: the catalog is `<base>/.store/catalog`. */
  readonly base: string;
}

export interface SparqlStoreOptions {
  /** The local body cache's directory (e.g. `DATA_DIR/bodies`; body-cache.ts). */
  readonly bodies: string;
  /** Largest graph `dump` writes (default 20,000, as the embedded store). */
  readonly maxDumpTriples?: number;
  /** Rows per page when a body is fetched from the store (default 5,000: below Virtuoso's default ResultSetMaxRows of 10,000). */
  readonly fetchPage?: number;
  /** Tests: called right after the commit point of each commit, before the bodies' files are renamed (a hook that never resolves stands for a crash there). */
  readonly afterCommitPoint?: (seq: number) => Promise<void>;
  /** Tests: called when a commit's bodies are written, right before its publish (a hook that never resolves stands for a crash there). */
  readonly beforeCommitPoint?: (seq: number) => Promise<void>;
  /** The GSP parameter naming the graph: `graph` (SPARQL 1.1 GSP) or Virtuoso's `graph-uri` (default). */
  readonly gspParam?: "graph" | "graph-uri";
  /** Most lines per batch (default 50,000). */
  readonly batchLines?: number;
  /**
   * Most statements per `INSERT DATA` of a several-graph put (default 1,000): Virtuoso 7.2 refuses
   * an `INSERT DATA` of more than about 1,200–1,500 triples (400, "The length of generated SQL
   * text has exceeded 10000 lines of code"; docs/virtuoso.md finding 9).
   */
  readonly insertLines?: number;
  /** Most bytes (UTF-16 units for string bodies) per batch (default 4 MB). */
  readonly batchBytes?: number;
  /** Time limit of one request, ms (default 120 s). */
  readonly timeoutMs?: number;
  /** Graphs per catalog update (default 300, i.e. at most 900 triples per `DELETE DATA`/`INSERT DATA`: finding 9; small in tests, to exercise a publish in several requests). */
  readonly catalogBatch?: number;
  /** The read threads (sparql-reads.ts): threads, time limit, the store's row limit, the cache of small graphs. */
  readonly reads?: SparqlReadsOptions;
  /** `Authorization` header sent with every request to the store (writes, the catalog, the read threads' queries), e.g. `Basic …`. */
  readonly authorization?: string;
  /** The store's dialect when known (tests); found by a probe when the store opens otherwise (sparql-dialect.ts). */
  readonly dialect?: SparqlDialect;
}

/** The largest graph `dump` writes by default: as the embedded store (graph-store.ts); larger graphs are served from their `storedBody`. */
export const MAX_DUMP_TRIPLES = 20_000;
/** Largest graph `dump` serialises on the main thread (≈ 10–25 ms); larger ones in a worker thread (dump-worker.ts). */
const INLINE_DUMP_TRIPLES = 1_000;
const DUMP_WORKER = moduleUrl("./dump-worker.ts", import.meta.url);

/** One graph serialised from its cached body in a short-lived worker thread. */
function dumpInWorker(job: DumpJob): Promise<string> {
  return new Promise((resolve, reject) => {
    const w = spawnWorker(DUMP_WORKER, { workerData: job }, REQUEST_NICE);
    let answered = false;
    w.once("message", (m: FromDumpWorker) => {
      answered = true;
      void w.terminate();
      if ("error" in m) reject(new Error(`serialising ${job.graph}: ${m.error}`));
      else resolve(m.text);
    });
    w.once("error", (err) => {
      answered = true;
      reject(err);
    });
    w.once("exit", (code) => {
      if (!answered) reject(new Error(`the worker serialising ${job.graph} exited with code ${code}`));
    });
  });
}

/** Bodies fetched from the store at the same time, at most. */
const FETCHES_AT_ONCE = 2;
/** Rows per page when a body is fetched from the store. */
const FETCH_PAGE = 5_000;
/** Catalog rows read per page at start-up (below Virtuoso's default ResultSetMaxRows). */
const CATALOG_PAGE = 10_000;
/** Catalog entries per small update (default). */
const CATALOG_BATCH = 300;
/** Graphs dropped per update. */
const DROP_BATCH = 200;

const TRIPLES = `${QG_NS}triples`;
const STATE = `${QG_NS}state`;
const LAST_COMMIT = `${QG_NS}lastCommit`;
const COMMIT = `${QG_NS}commit`;
const PREVIOUS_COMMIT = `${QG_NS}previousCommit`;
const PREVIOUS_TRIPLES = `${QG_NS}previousTriples`;
const XSD_INTEGER = "http://www.w3.org/2001/XMLSchema#integer";

type State = "ready" | "writing" | "deleting";

export interface Entry {
  state: State;
  triples: number;
  /** The commit that wrote (or is writing, or deleting) the graph; none for a stage not yet committed. */
  commit?: number;
  /**
   * A replace (`writing`, and its `ready` entry until the commit point): the commit and size of
   * the content it replaces, whose local body file is kept until after the commit point, so that a
   * rolled-back or failed replace puts the old content back (`putBack`).
   */
  previousCommit?: number;
  previousTriples?: number;
}

/** IRIs written into an update: our own graph names, checked to hold nothing that could escape. */
function iri(s: string): string {
  if (/[<>"{}|\\^`\s]/.test(s)) throw new Error(`not a valid graph IRI: ${s}`);
  return `<${s}>`;
}

/** A catalog entry's statements, one triple each. */
function entryTriples(g: string, e: Entry): string[] {
  const s = iri(g);
  const out = [`${s} <${STATE}> "${e.state}" .`, `${s} <${TRIPLES}> "${e.triples}"^^<${XSD_INTEGER}> .`];
  if (e.commit !== undefined) out.push(`${s} <${COMMIT}> "${e.commit}"^^<${XSD_INTEGER}> .`);
  if (e.previousCommit !== undefined) out.push(`${s} <${PREVIOUS_COMMIT}> "${e.previousCommit}"^^<${XSD_INTEGER}> .`, `${s} <${PREVIOUS_TRIPLES}> "${e.previousTriples ?? 0}"^^<${XSD_INTEGER}> .`);
  return out;
}

/**
 * What one catalog request deletes and inserts for a graph going from entry `remove` to `add`:
 * a statement both hold is neither deleted nor inserted (deleting and inserting it again in the
 * same request leaves it as it was). A publish keeps each graph's `qg:commit` (and a replace's
 * `qg:previousCommit`/`qg:previousTriples`): 2 statements deleted and 2 inserted per graph
 * instead of 3 and 3 (docs/virtuoso.md "Upload speed on the SPARQL store").
 */
export function entryChange(g: string, remove: Entry | undefined, add: Entry | undefined): { del: string[]; ins: string[] } {
  const del = remove ? entryTriples(g, remove) : [];
  const ins = add ? entryTriples(g, add) : [];
  const kept = new Set(del.filter((t) => ins.includes(t)));
  return { del: del.filter((t) => !kept.has(t)), ins: ins.filter((t) => !kept.has(t)) };
}

/** Virtuoso's pragma that compiles the constant triples of an update as one constant instead of SQL per triple (docs/virtuoso.md "Upload speed on the SPARQL store"). */
export const VIRTUOSO_UPDATE_DEFINE = "DEFINE sql:big-data-const 1";

/** With QSARGRAPH_TIMING=1, log how long each step of a commit took (of several graphs: one-graph commits are many and short). */
function commitTimer(seq: number, puts: number, deletes: number): (step: string) => void {
  if (!process.env.QSARGRAPH_TIMING || puts + deletes < 2) return () => undefined;
  let t = performance.now();
  return (step) => {
    const now = performance.now();
    console.log(`[timing] sparql commit ${seq} (${puts} puts, ${deletes} deletes) ${step} ${Math.round(now - t)} ms`);
    t = now;
  };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** A term of SPARQL 1.1 JSON results (Virtuoso also writes `typed-literal`). */
interface Binding {
  readonly type: "uri" | "literal" | "typed-literal" | "bnode";
  readonly value: string;
  readonly datatype?: string;
  readonly "xml:lang"?: string;
}

/** A SPARQL JSON results term → an RDF/JS term (n3's factory). */
function term(b: Binding): Quad["object"] {
  switch (b.type) {
    case "uri":
      return DataFactory.namedNode(b.value);
    case "bnode":
      // Virtuoso names them `nodeID://b10006`: not a valid N-Triples label as it is.
      return DataFactory.blankNode(b.value.replace(/[^A-Za-z0-9_]/g, "_"));
    default:
      return DataFactory.literal(b.value, b["xml:lang"] ?? (b.datatype ? DataFactory.namedNode(b.datatype) : undefined));
  }
}

/**
 * A body cut into batches of whole lines: at most `maxLines` lines and about `maxBytes` bytes
 * each (a single longer line makes a batch of its own). Views of byte bodies, substrings of string
 * bodies: nothing is copied as a whole.
 */
export function* batches(body: Body, maxLines: number, maxBytes: number): Generator<{ part: Body; lines: number }> {
  const isString = typeof body === "string";
  const len = body.length;
  let start = 0;
  while (start < len) {
    let end = start;
    let lines = 0;
    while (end < len && lines < maxLines) {
      const nl = isString ? (body as string).indexOf("\n", end) : (body as Uint8Array).indexOf(10, end);
      const next = nl < 0 ? len : nl + 1;
      if (lines > 0 && next - start > maxBytes) break;
      end = next;
      lines++;
    }
    yield { part: isString ? (body as string).slice(start, end) : (body as Uint8Array).subarray(start, end), lines };
    start = end;
  }
}

/** N-Quads lines (one statement each, the graph IRI last) → `INSERT DATA { GRAPH <g> { … } … }`, the statements per graph, and each graph's lines as N-Triples. */
export function nquadsToInsert(part: Body): { update: string; perGraph: Map<string, number>; lines: Map<string, string[]> } {
  const text = typeof part === "string" ? part : Buffer.from(part.buffer, part.byteOffset, part.byteLength).toString("utf8");
  const byGraph = new Map<string, string[]>();
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const close = text.lastIndexOf(">", end);
    const open = close > start ? text.lastIndexOf("<", close) : -1;
    if (open > start && text.slice(close + 1, end).trim() === ".") {
      const g = text.slice(open + 1, close);
      let list = byGraph.get(g);
      if (!list) byGraph.set(g, (list = []));
      list.push(`${text.slice(start, open)}.`);
    } else if (text.slice(start, end).trim() !== "") {
      throw new Error(`N-Quads line without a graph: ${text.slice(start, Math.min(end, start + 200))}`);
    }
    start = end + 1;
  }
  let update = "INSERT DATA {\n";
  const perGraph = new Map<string, number>();
  for (const [g, lines] of byGraph) {
    update += `GRAPH ${iri(g)} {\n${lines.join("\n")}\n}\n`;
    perGraph.set(g, lines.length);
  }
  return { update: `${update}}`, perGraph, lines: byGraph };
}

class HttpFailure extends Error {}

export class SparqlStore implements StoreBackend {
  /** The ready graphs; every change goes to the read threads (ReadyGraphs). */
  private readonly entries = new ReadyGraphs<Entry>();
  /** The read threads. */
  readonly reads: SparqlReads;
  private lastSeq = 0;
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly staged = new Map<string, SparqlStage>();
  /**
   * Graphs the store may hold that are not served: the puts and deletes of the commit under way,
   * stages, and graphs of failed commits whose drop is still to be done. The SPARQL proxy keeps
   * them out of its dataset (`unservedGraphs`).
   */
  private readonly unready = new Set<string>();
  /**
   * Catalog and graph clean-ups a failed commit could not finish (the store refused them too),
   * run before the next commit: until they are done the catalog may disagree with the graph list
   * in memory (a restart would also put it right: the failed commit is past lastCommit).
   */
  private readonly repairs: (() => Promise<void>)[] = [];
  openInfo!: OpenInfo;
  readonly catalog: string;
  private readonly gspParam: string;
  readonly batchLines: number;
  readonly insertLines: number;
  readonly batchBytes: number;
  private readonly timeoutMs: number;
  private readonly catalogBatch: number;
  private readonly authorization: string | undefined;
  private readonly maxDumpTriples: number;
  private readonly fetchPage: number;
  private readonly afterCommitPoint?: (seq: number) => Promise<void>;
  private readonly beforeCommitPoint?: (seq: number) => Promise<void>;
  /** The local copies of the graphs' bodies (set by `open`). */
  cache!: BodyCache;
  /** Bodies being fetched from the store into the cache, by graph. */
  private readonly fetching = new Map<string, Promise<BodyLocation | undefined>>();
  /** Fetches running now, and those waiting for one of FETCHES_AT_ONCE places (a lost cache must not flood the store). */
  private fetchesRunning = 0;
  private readonly fetchesWaiting: (() => void)[] = [];
  /**
   * The store's dialect, found once when it opens (sparql-dialect.ts); on Virtuoso, updates start
   * with `DEFINE sql:big-data-const 1`, which makes Virtuoso 7.2 compile `INSERT DATA`/`DELETE
   * DATA` 5–10× faster (docs/virtuoso.md "Upload speed on the SPARQL store"). The proxied
   * `/sparql` is given the same dialect (app.ts).
   */
  dialect: SparqlDialect = "standard";

  private constructor(
    readonly endpoints: SparqlEndpoints,
    o: SparqlStoreOptions,
  ) {
    this.catalog = `${endpoints.base.replace(/\/$/, "")}/.store/catalog`;
    this.gspParam = o.gspParam ?? "graph-uri";
    this.batchLines = o.batchLines ?? 50_000;
    this.insertLines = o.insertLines ?? 1_000;
    this.batchBytes = o.batchBytes ?? 4 * 1024 * 1024;
    this.timeoutMs = o.timeoutMs ?? 120_000;
    this.catalogBatch = o.catalogBatch ?? CATALOG_BATCH;
    this.authorization = o.authorization;
    this.reads = new SparqlReads(endpoints.query, { ...o.reads, ...(o.authorization ? { authorization: o.authorization } : {}) });
    // With each ready version goes its local copy, when the cache holds one (the read threads load small graphs from it).
    this.entries.listen((g, e) => this.reads.changed(g, e?.triples, e ? (this.cache as BodyCache | undefined)?.location(g, e.commit ?? 0) : undefined));
    this.maxDumpTriples = o.maxDumpTriples ?? MAX_DUMP_TRIPLES;
    this.fetchPage = o.fetchPage ?? FETCH_PAGE;
    this.afterCommitPoint = o.afterCommitPoint;
    this.beforeCommitPoint = o.beforeCommitPoint;
  }

  /**
   * Read the catalog and finish what a crash interrupted. A commit is complete once lastCommit
   * reached its number (the commit point). Of a commit past it, every put's graph is dropped
   * (`writing`, or already `ready` in a publish of several requests) and every delete is undone
   * (`deleting` → `ready`: deleted graphs are dropped only after the commit point). Deletes of
   * complete commits are finished, and stages (`writing`, no commit) are dropped.
   */
  static async open(endpoints: SparqlEndpoints, o: SparqlStoreOptions): Promise<SparqlStore> {
    const t0 = performance.now();
    const s = new SparqlStore(endpoints, o);
    s.dialect = o.dialect ?? (await probeDialect(endpoints.query, o.authorization, s.timeoutMs));
    const found = await s.readCatalog();
    const last = s.lastSeq;
    const unfinished = (e: Entry): boolean => e.commit !== undefined && e.commit > last;
    const rolledBack = [...found].filter(([, e]) => e.state === "writing" || (e.state === "ready" && unfinished(e)));
    const undeleted = [...found].filter(([, e]) => e.state === "deleting" && unfinished(e));
    const finished = [...found].filter(([, e]) => e.state === "deleting" && !unfinished(e));
    // Replaces among them: their old content is put back from its local copy (kept until after the commit point).
    const replaces = rolledBack.filter(([, e]) => e.previousCommit !== undefined);
    await s.dropGraphs([...rolledBack, ...finished].map(([g]) => g));
    for (const [g, e] of found) if (e.state === "ready" && !unfinished(e)) s.entries.set(g, e);
    // The local body cache: files of graphs not served are removed. An undone delete's entry lost
    // the commit that wrote the graph (`qg:commit` names the delete's): it takes the graph's newest file,
    // and its entry is written back with that file's commit.
    const ready = new Map<string, number>();
    for (const [g, e] of s.entries) ready.set(g, e.commit ?? 0);
    for (const [g] of undeleted) ready.set(g, ANY_COMMIT);
    for (const [g, e] of replaces) ready.set(g, e.previousCommit!);
    const { cache, removed, adopted } = await BodyCache.open(o.bodies, ready);
    s.cache = cache;
    // The read threads (started at the first read) load small graphs from these copies.
    let n = 0;
    for (const [g, e] of s.entries) {
      const at = cache.location(g, e.commit ?? 0);
      if (at) s.reads.located(g, at);
      if (++n % 20_000 === 0) await tick();
    }
    // A crash while putting back leaves the entries `writing` with their previous commit: the next start does it again.
    const back = await s.putBack(replaces);
    const restored = undeleted.map(([g, e]): [string, Entry] => [g, { state: "ready", triples: e.triples, ...(adopted.has(g) ? { commit: adopted.get(g)! } : {}) }]);
    await s.catalogUpdate([...rolledBack, ...undeleted, ...finished], [...restored, ...back.restored]);
    for (const [g, e] of [...restored, ...back.restored]) s.entries.set(g, e);
    const dropped = rolledBack.length - back.restored.length - back.lost.length;
    const notes = [
      dropped > 0 ? `${dropped} graph(s) of interrupted commits or stages dropped` : "",
      back.restored.length > 0 ? `${back.restored.length} replaced graph(s) of interrupted commits put back from their local copies` : "",
      back.lost.length > 0 ? `${back.lost.length} replaced graph(s) of interrupted commits lost (no local copy of their previous content)` : "",
      undeleted.length > 0 ? `${undeleted.length} delete(s) of interrupted commits undone` : "",
      finished.length > 0 ? `${finished.length} interrupted delete(s) finished` : "",
      removed > 0 ? `${removed} file(s) of the local body cache not current, removed` : "",
    ].filter(Boolean);
    s.openInfo = { lastSeq: s.lastSeq, recoveredMs: performance.now() - t0, compacted: false, ...(notes.length > 0 ? { tornTail: notes.join("; ") } : {}), ...(back.lost.length > 0 ? { replacesLost: back.lost.length } : {}) };
    return s;
  }

  has(graph: string): boolean {
    return this.entries.has(graph);
  }

  graphsWithPrefix(prefix: string): string[] {
    const out: string[] = [];
    for (const g of this.entries.keys()) if (g.startsWith(prefix)) out.push(g);
    return out;
  }

  /**
   * The graphs of the store that are the service's but not served now: the catalog, graphs being
   * written or deleted, stages (sparql-proxy.ts excludes them from a query's dataset).
   */
  unservedGraphs(): string[] {
    const out = [this.catalog];
    for (const g of this.unready) if (!this.entries.has(g)) out.push(g);
    return out;
  }

  graphSize(graph: string): number {
    return this.entries.get(graph)?.triples ?? 0;
  }

  /**
   * The graph's body in the local cache, as the service wrote it. When the cache lacks it (lost,
   * or written by another process) undefined, and it is fetched from the store meanwhile.
   */
  storedBody(graph: string): BodyLocation | undefined {
    const e = this.entries.get(graph);
    if (!e) return undefined;
    const at = this.cache.location(graph, e.commit ?? 0);
    if (!at) void this.cachedBody(graph).catch((err: unknown) => console.error(`store: fetching the body of ${graph}: ${(err as Error).message}`));
    return at;
  }

  /** The graph's body in the local cache, fetched from the store first when missing (undefined: the graph is not served). */
  async cachedBody(graph: string): Promise<BodyLocation | undefined> {
    const e = this.entries.get(graph);
    if (!e) return undefined;
    const commit = e.commit ?? 0;
    const at = this.cache.location(graph, commit);
    if (at) return at;
    let f = this.fetching.get(graph);
    if (!f) {
      f = this.oneFetchAtATime(() => this.fetchBody(graph, commit)).finally(() => this.fetching.delete(graph));
      this.fetching.set(graph, f);
    }
    return await f;
  }

  /**
   * One graph serialised by Oxigraph's writer from its cached body loaded into a temporary store,
   * as the embedded store loads and dumps it (graph-store.ts): the same bytes for the same writes.
   * Only for graphs of at most `maxDumpTriples` (larger ones: 406, as on the embedded store; they
   * are served from `storedBody`).
   */
  async dump(graph: string, format: DumpFormat): Promise<string> {
    const n = this.graphSize(graph);
    if (n > this.maxDumpTriples) {
      if (this.entries.has(graph) && !this.cache.location(graph, this.entries.get(graph)!.commit ?? 0)) {
        void this.cachedBody(graph).catch(() => undefined);
        throw new ServiceUnavailable(`this resource has ${n} triples and is being copied from the SPARQL store into the local cache it is served from; try again shortly`);
      }
      throw new NotAcceptable(["text/csv", "text/html", "text/uri-list"], format, `this resource has ${n} triples; RDF is written for at most ${this.maxDumpTriples} from memory: ask for text/csv or the HTML pages, or query it with SPARQL and LIMIT`);
    }
    const at = await this.cachedBody(graph);
    if (!at || n <= INLINE_DUMP_TRIPLES) return dumpBody(at ? await readBody(at) : new Uint8Array(0), graph, format);
    return await dumpInWorker({ ...at, graph, format });
  }

  private async oneFetchAtATime<T>(run: () => Promise<T>): Promise<T> {
    if (this.fetchesRunning >= FETCHES_AT_ONCE) await new Promise<void>((r) => this.fetchesWaiting.push(r));
    this.fetchesRunning++;
    try {
      return await run();
    } finally {
      this.fetchesRunning--;
      this.fetchesWaiting.shift()?.();
    }
  }

  /**
   * Copy a graph from the store into the cache: SELECT in pages of `fetchPage` rows (below the
   * store's ResultSetMaxRows), each page written as N-Triples by n3's writer; the triples read,
   * without repeats, must be as many as the store counts in the graph (a page cut short, or pages
   * that overlap because the store's order changed between them, would make them fewer): never a
   * body silently cut. The file is served only if the graph is still current with the same commit.
   */
  private async fetchBody(graph: string, commit: number): Promise<BodyLocation | undefined> {
    const file = this.cache.create(graph, commit);
    try {
      const seen = new Set<string>();
      const writer = new Writer({ format: "N-Triples" });
      for (let offset = 0; ; offset += this.fetchPage) {
        const page = await this.select(`SELECT ?s ?p ?o WHERE { GRAPH ${iri(graph)} { ?s ?p ?o } } LIMIT ${this.fetchPage} OFFSET ${offset}`, `the body of ${graph}`);
        const fresh: Quad[] = [];
        for (const b of page) {
          const q = DataFactory.quad(term(b.s!) as Quad["subject"], term(b.p!) as Quad["predicate"], term(b.o!) as Quad["object"]);
          const line = writer.quadToString(q.subject, q.predicate, q.object);
          if (seen.has(line)) continue;
          seen.add(line);
          fresh.push(q);
        }
        if (fresh.length > 0) await file.append(writer.quadsToString(fresh));
        if (page.length < this.fetchPage) break;
        await tick();
      }
      // Counted with the graph bound (the expected count is the store's, not the catalog's: a body may repeat a line).
      const [c] = await this.select(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH ${iri(graph)} { ?s ?p ?o } }`, `the size of ${graph}`);
      const expected = Number(c?.n?.value ?? -1);
      if (seen.size !== expected) throw new Error(`${graph} holds ${expected} triples in the SPARQL store but ${seen.size} were read: the store cut the answer short`);
      const now = this.entries.get(graph);
      if (this.closed || !now || (now.commit ?? 0) !== commit || this.cache.location(graph, commit)) {
        await file.discard();
        return this.cache.location(graph, commit);
      }
      await this.cache.publish(graph, commit, file);
      const at = this.cache.location(graph, commit);
      const current = this.entries.get(graph);
      if (at && current && (current.commit ?? 0) === commit) this.reads.located(graph, at);
      return at;
    } catch (err) {
      await file.discard();
      throw err;
    }
  }

  commit(ops: readonly GraphOp[], options: CommitOptions = {}): Promise<number> {
    if (this.closed) return Promise.reject(new Error("store is closed"));
    if (ops.length === 0) return Promise.resolve(this.lastSeq);
    const run = this.chain.then(() => this.runCommit(ops, options));
    this.chain = run.catch(() => undefined);
    return run;
  }

  stage(graph: string): StagedGraph {
    if (this.entries.has(graph) || this.staged.has(graph)) throw new Error(`cannot stage ${graph}: it exists or is being written`);
    const st = new SparqlStage(this, graph, (dropped) => {
      this.staged.delete(graph);
      if (dropped || this.entries.has(graph)) this.unready.delete(graph);
    });
    this.staged.set(graph, st);
    this.unready.add(graph);
    return st;
  }

  read<T>(module: URL, name: string, args: readonly unknown[]): Promise<T> {
    return this.reads.read<T>(module, name, args);
  }

  capacity(): StoreCapacity {
    let live = 0;
    for (const e of this.entries.values()) live += e.triples;
    return { loaded: 0, live, max: Infinity, renewals: 0 };
  }

  async withRoom<T>(build: () => T | Promise<T>): Promise<T> {
    return await build();
  }

  ensureRoom(_n: number, _whole?: number, _what?: string): void {}

  async close(): Promise<void> {
    this.closed = true;
    await this.chain;
    await this.reads.close();
  }

  // ---- the commit ----

  /** Clean-ups of failed commits waiting for the store to accept them. */
  get pendingCleanUps(): number {
    return this.repairs.length;
  }

  /** Run a clean-up now, or keep it for before the next commit when the store refuses it. */
  private async cleanUp(step: () => Promise<void>, settled: readonly string[] = []): Promise<void> {
    const run = async (): Promise<void> => {
      await step();
      // dropped (or served again): no longer held unserved
      for (const g of settled) this.unready.delete(g);
    };
    try {
      await run();
    } catch {
      this.repairs.push(run);
    }
  }

  /**
   * Replaces rolled back (after a crash) or failed: each graph's previous content is written again
   * from its local copy (the cache keeps the previous commit's file until after the commit point).
   * The graphs must be empty (dropped). Without a local copy the previous content is gone (it was
   * dropped from the store): logged, and the graph stays dropped. The entries to write in the
   * catalog (`ready`, with the previous commit) are returned; the caller writes them.
   */
  private async putBack(replaces: readonly (readonly [string, Entry])[]): Promise<{ restored: [string, Entry][]; lost: string[] }> {
    const restored: [string, Entry][] = [];
    const lost: string[] = [];
    for (const [g, e] of replaces) {
      const commit = e.previousCommit!;
      const at = this.cache.location(g, commit);
      if (!at) {
        console.error(`store: ${g} was being replaced by a commit that did not complete, and its previous content (commit ${commit}, ${e.previousTriples ?? 0} triples) has no local copy: it is lost (the graph is dropped)`);
        lost.push(g);
        continue;
      }
      const body = await readBody(at);
      let n = 0;
      for (const { part, lines } of batches(body, this.batchLines, this.batchBytes)) {
        await this.twice(() => this.request(this.gspUrl(g), { method: "POST", headers: { "content-type": "text/turtle" }, body: part as BodyInit }, `POST of ${lines} triples to ${g} (its previous content put back)`));
        n += lines;
        await tick();
      }
      restored.push([g, { state: "ready", triples: e.previousTriples ?? n, commit }]);
    }
    return { restored, lost };
  }

  private async runCommit(ops: readonly GraphOp[], options: CommitOptions): Promise<number> {
    while (this.repairs.length > 0) {
      try {
        await this.repairs[0]!();
      } catch (err) {
        throw new Error(`commit refused: the clean-up of an earlier failed commit is still refused by the SPARQL store: ${(err as Error).message}`);
      }
      this.repairs.shift();
    }
    const preloaded = new Map<string, SparqlStage>();
    for (const st of (options.preloaded ?? []) as SparqlStage[]) {
      if (!(st instanceof SparqlStage) || this.staged.get(st.graph) !== st) throw new Error(`commit: ${st.graph} is not staged in this store`);
      if (!ops.some((op) => "ntriples" in op && op.graph === st.graph)) throw new Error(`commit: no put of staged graph ${st.graph}`);
      await st.seal();
      preloaded.set(st.graph, st);
    }
    // Every step over the commit's graphs pauses as it goes (an upload of 93,000 compounds is as many graphs).
    const pause = slicer();
    /** The catalog as it is before the commit, for the graphs the commit touches. */
    const before = new Map<string, Entry>();
    const puts = new Set<string>();
    const deletes = new Set<string>();
    for (const op of ops) {
      for (const g of graphsOf(op)) {
        await pause();
        // A stage that loaded anything is in the catalog as `writing` with 0 triples (markWriting).
        const e = this.entries.get(g) ?? (preloaded.get(g)?.marked ? { state: "writing" as const, triples: 0 } : undefined);
        if (e && !before.has(g)) before.set(g, { ...e });
        if ("delete" in op) {
          puts.delete(g);
          deletes.add(g);
        } else {
          deletes.delete(g);
          puts.add(g);
        }
      }
    }
    // Deleting a graph that does not exist: nothing to do.
    for (const g of deletes) if (!before.has(g)) deletes.delete(g);
    const seq = this.lastSeq + 1;
    // 1. mark (with the commit's number): hidden from now on
    const marked = new Map<string, Entry>();
    for (const g of puts) {
      await pause();
      const b = before.get(g);
      // A replace records what it replaces (its local copy is kept until after the commit point).
      const previous = b?.state === "ready" && b.commit !== undefined && !preloaded.has(g) ? { previousCommit: b.commit, previousTriples: b.triples } : {};
      marked.set(g, { state: "writing", triples: 0, commit: seq, ...previous });
    }
    const replaces = [...marked].filter(([, e]) => e.previousCommit !== undefined);
    for (const g of deletes) marked.set(g, { state: "deleting", triples: before.get(g)!.triples, commit: seq });
    for (const g of marked.keys()) {
      await pause();
      this.entries.delete(g);
      this.unready.add(g);
    }
    const unmarked = [...before].filter(([g]) => marked.has(g));
    const lap = commitTimer(seq, puts.size, deletes.size);
    try {
      await this.catalogUpdate(unmarked, [...marked]);
      lap("mark");
    } catch (err) {
      // No graph was touched yet; put back what was marked.
      await this.cleanUp(() => this.catalogUpdate([...marked], unmarked));
      for (const [g, e] of before) if (e.state === "ready") this.entries.set(g, e);
      // nothing was written: the puts of new graphs hold nothing (a stage's stays held until discarded)
      for (const g of marked.keys()) if (this.entries.has(g) || (!before.has(g) && !preloaded.has(g))) this.unready.delete(g);
      for (const st of preloaded.values()) st.reopen();
      throw new Error(`commit failed, nothing of it was written: ${(err as Error).message}`);
    }
    // 2. write the puts, and their bodies' files (fsynced before the commit point, renamed after it)
    const sizes = new Map<string, number>();
    const files = new Map<string, BodyFile>();
    const packed = new Map<string, string[]>();
    let pack: Pack | undefined;
    const discardFiles = async (): Promise<void> => {
      for (const f of files.values()) await f.discard();
      if (pack) await this.cache.discardPack(pack);
      for (const st of preloaded.values()) await st.discardFile();
    };
    try {
      const replaced = [...puts].filter((g) => before.has(g) && !preloaded.has(g));
      await this.dropGraphs(replaced);
      for (const op of ops) {
        if ("delete" in op) continue;
        if ("graphs" in op) {
          for (const g of op.graphs) {
            await pause();
            sizes.set(g, 0);
            packed.set(g, []);
          }
          await this.insertQuads(bodyOf(op), sizes, packed);
        } else if (preloaded.has(op.graph)) {
          sizes.set(op.graph, preloaded.get(op.graph)!.statements);
        } else {
          const file = this.cache.create(op.graph, seq);
          files.set(op.graph, file);
          sizes.set(op.graph, await this.postTriples(op.graph, op.ntriples, file));
        }
      }
      lap("write");
      for (const f of files.values()) await f.seal();
      if (packed.size > 0) pack = await this.cache.writePack(seq, packed);
      lap("local files");
    } catch (err) {
      await discardFiles();
      // Roll back: the puts' graphs go, the deletes stay as they were.
      const restore = [...deletes].map((g): [string, Entry] => [g, before.get(g)!]);
      await this.cleanUp(async () => {
        await this.dropGraphs([...puts]);
        // Replaced graphs get their previous content back.
        const back = await this.putBack(replaces);
        await this.catalogUpdate([...marked], [...restore, ...back.restored]);
        for (const [g, e] of back.restored) this.entries.set(g, e);
      }, [...puts]);
      for (const [g, e] of restore) {
        this.entries.set(g, e);
        this.unready.delete(g);
      }
      for (const st of preloaded.values()) st.done();
      throw new Error(`commit failed, nothing of it is served (${[...puts].length} graph(s) dropped): ${(err as Error).message}`);
    }
    // 3. publish: the puts `ready` (several requests for a commit of many graphs), then lastCommit = seq: the commit point
    // A publish of several requests can be cut between them: its `ready` replaces keep what they replace.
    const several = puts.size > this.catalogBatch;
    const ready: [string, Entry][] = [];
    for (const g of puts) {
      await pause();
      const m = marked.get(g)!;
      const previous = several && m.previousCommit !== undefined ? { previousCommit: m.previousCommit, previousTriples: m.previousTriples } : {};
      ready.push([g, { state: "ready", triples: sizes.get(g) ?? 0, commit: seq, ...previous }]);
    }
    if (this.beforeCommitPoint) await this.beforeCommitPoint(seq);
    try {
      await this.catalogUpdate(
        [...puts].map((g) => [g, marked.get(g)!]),
        ready,
        seq,
      );
    } catch (err) {
      // Some puts may be marked `ready` already, but lastCommit is not seq: undone as after a
      // crash. The number is not given out again (the request may have gone through unanswered).
      this.lastSeq = seq;
      const restore = [...deletes].map((g): [string, Entry] => [g, before.get(g)!]);
      await discardFiles();
      await this.cleanUp(async () => {
        await this.dropGraphs([...puts]);
        const back = await this.putBack(replaces);
        await this.catalogUpdate([...marked], restore);
        await this.catalogUpdate(ready, []);
        // After the `ready` entries' removal (a put back entry shares its `qg:state "ready"` triple).
        await this.catalogUpdate([], back.restored);
        for (const [g, e] of back.restored) this.entries.set(g, e);
      }, [...puts]);
      for (const [g, e] of restore) {
        this.entries.set(g, e);
        this.unready.delete(g);
      }
      for (const st of preloaded.values()) st.done();
      throw new Error(`commit failed, nothing of it is served (${[...puts].length} graph(s) dropped): ${(err as Error).message}`);
    }
    lap("publish");
    this.lastSeq = seq;
    // The bodies' files are renamed: from now on they are the graphs' local copies (a crash
    // before this leaves them as temporary files, removed at start-up; the graphs are then fetched).
    if (this.afterCommitPoint) await this.afterCommitPoint(seq);
    for (const [g, f] of files) await this.cache.publish(g, seq, f);
    for (const st of preloaded.values()) await st.publishFile(seq);
    if (pack) await this.cache.publishPack(pack);
    for (const g of [...puts, ...deletes]) {
      await pause();
      if (!this.cache.location(g, seq)) await this.cache.forget(g);
    }
    // Served in slices (93,000 graphs in one piece held the event loop for 0.2 s; the read threads
    // hear of them in batches, and no read starts before they have: sparql-reads.ts), the graphs
    // of several-graph puts first (compounds, each a whole of its own) and then the others (a
    // dataset, a model, a task): a resource is never served before the graphs of its commit.
    const single = new Set(ops.flatMap((op) => ("graph" in op && !("delete" in op) ? [op.graph] : [])));
    for (const last of [false, true]) {
      for (const [g, e] of ready) {
        if (single.has(g) !== last) continue;
        if (!last) await pause();
        this.entries.set(g, e);
        this.unready.delete(g);
      }
    }
    for (const st of preloaded.values()) st.done();
    // 4. deletes, after the commit point (a crash before it undoes them at start-up; after it, start-up finishes them)
    await this.cleanUp(async () => {
      await this.dropGraphs([...deletes]);
      await this.catalogUpdate([...deletes].map((g) => [g, marked.get(g)!]), []);
    }, [...deletes]);
    lap("after the commit point");
    return seq;
  }

  // ---- writing ----

  gspUrl(graph: string): string {
    return `${this.endpoints.gsp}?${this.gspParam}=${encodeURIComponent(graph)}`;
  }

  /** One HTTP request; rejects with the status and the store's message unless 2xx. */
  async request(url: string, init: RequestInit, what: string): Promise<string> {
    let r: Response;
    try {
      const headers = new Headers(init.headers);
      if (this.authorization) headers.set("authorization", this.authorization);
      r = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (e) {
      throw new HttpFailure(`${what}: the SPARQL store did not answer (${(e as Error).cause ?? (e as Error).message})`);
    }
    const text = await r.text();
    if (!r.ok) {
      // Virtuoso's GSP errors are HTML pages: their text only.
      const message = /html/i.test(r.headers.get("content-type") ?? "") ? text.replace(/<title>[^]*?<\/title>/i, "").replace(/<![^>]*>/g, " ").replace(/<\/?[a-zA-Z][a-zA-Z0-9]*(\s[^>]*)?>/g, " ") : text;
      throw new HttpFailure(`${what}: the SPARQL store answered ${r.status}: ${message.replace(/\s+/g, " ").trim().slice(0, 300)}`);
    }
    return text;
  }

  /** Send once, and once more when it fails. */
  private async twice(send: () => Promise<unknown>): Promise<void> {
    try {
      await send();
    } catch {
      await send();
    }
  }

  async runUpdate(update: string, what: string): Promise<void> {
    if (this.dialect === "virtuoso") update = `${VIRTUOSO_UPDATE_DEFINE}\n${update}`;
    await this.request(this.endpoints.update, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ update }) }, what);
  }

  /** Append N-Triples to a graph by GSP POST, in batches; the statements sent. */
  async postTriples(graph: string, body: Body, file: BodyFile): Promise<number> {
    let n = 0;
    for (const { part, lines } of batches(body, this.batchLines, this.batchBytes)) {
      await this.twice(() => this.request(this.gspUrl(graph), { method: "POST", headers: { "content-type": "text/turtle" }, body: part as BodyInit }, `POST of ${lines} triples to ${graph}`));
      await file.append(part);
      n += lines;
      await tick();
    }
    return n;
  }

  /** Insert an N-Quads body in batches; each graph's lines, as N-Triples, are added to `packed`. */
  private async insertQuads(body: Body, sizes: Map<string, number>, packed: Map<string, string[]>): Promise<void> {
    for (const { part } of batches(body, Math.min(this.batchLines, this.insertLines), this.batchBytes)) {
      const { update, perGraph, lines } = nquadsToInsert(part);
      for (const [g, l] of lines) {
        const into = packed.get(g);
        if (into) for (const x of l) into.push(x);
      }
      for (const g of perGraph.keys()) if (!sizes.has(g)) throw new Error(`N-Quads put: graph ${g} is not one of the operation's graphs`);
      await tick();
      await this.twice(() => this.runUpdate(update, `INSERT DATA of ${perGraph.size} graph(s)`));
      for (const [g, k] of perGraph) sizes.set(g, sizes.get(g)! + k);
      await tick();
    }
  }

  async dropGraphs(graphs: readonly string[]): Promise<void> {
    for (let i = 0; i < graphs.length; i += DROP_BATCH) {
      const part = graphs.slice(i, i + DROP_BATCH);
      await this.twice(() => this.runUpdate(part.map((g) => `DROP SILENT GRAPH ${iri(g)}`).join(" ;\n"), `DROP of ${part.length} graph(s)`));
    }
  }

  /**
   * Replace catalog entries: delete `remove`'s (exactly as they are stored), insert `add`'s, and
   * then move lastCommit to `seq`. DELETE DATA and INSERT DATA only. The entries go by graph, at
   * most `catalogBatch` graphs per request, each graph's old and new entry in the same request (a
   * crash between requests leaves every graph with one entry); lastCommit goes in the last one.
   */
  async catalogUpdate(remove: readonly (readonly [string, Entry])[], add: readonly (readonly [string, Entry])[], seq?: number): Promise<void> {
    const cat = iri(this.catalog);
    const pause = slicer();
    const byGraph = new Map<string, { remove?: Entry; add?: Entry }>();
    for (const [g, e] of remove) {
      await pause();
      byGraph.set(g, { remove: e });
    }
    for (const [g, e] of add) {
      await pause();
      const x = byGraph.get(g);
      if (x) x.add = e;
      else byGraph.set(g, { add: e });
    }
    // New value first: start-up takes the largest lastCommit, so a request cut in two cannot lower it.
    const last = (n: number): string => `${cat} <${LAST_COMMIT}> "${n}"^^<${XSD_INTEGER}> .`;
    const commitPoint = seq === undefined ? "" : `INSERT DATA { GRAPH ${cat} { ${last(seq)} } } ;\nDELETE DATA { GRAPH ${cat} { ${last(this.lastSeq)} } }`;
    // Each request is built just before it is sent (a commit of 93,000 graphs built them all in
    // one piece: 0.5–1 s of the event loop); the commit point goes with the last one.
    const graphs = [...byGraph];
    let sent = 0;
    for (let i = 0; i < graphs.length || (i === 0 && commitPoint !== ""); i += this.catalogBatch) {
      const del: string[] = [];
      const ins: string[] = [];
      for (const [g, x] of graphs.slice(i, i + this.catalogBatch)) {
        const c = entryChange(g, x.remove, x.add);
        del.push(...c.del);
        ins.push(...c.ins);
      }
      const ops = [del.length > 0 ? `DELETE DATA { GRAPH ${cat} {\n${del.join("\n")}\n} }` : "", ins.length > 0 ? `INSERT DATA { GRAPH ${cat} {\n${ins.join("\n")}\n} }` : ""];
      if (i + this.catalogBatch >= graphs.length) ops.push(commitPoint);
      const u = ops.filter(Boolean).join(" ;\n");
      if (u === "") continue;
      if (sent++ > 0) await tick();
      await this.runUpdate(u, "catalog update");
    }
  }

  /** The catalog, read in pages; also sets lastSeq. Checks the rows read against a count. */
  private async readCatalog(): Promise<Map<string, Entry>> {
    const found = new Map<string, Partial<Entry>>();
    // Pages ordered by subject, each starting at the last subject of the one before (keyset
    // paging): OFFSET pages without ORDER BY were seen to repeat a row and skip another on
    // Virtuoso (docs/virtuoso.md finding 8, the soak), and ORDER BY with OFFSET past 15,000 rows
    // is refused (finding 5). A subject's rows cut by a page's end are read again: rows are kept once.
    const seen = new Set<string>();
    let from = "";
    for (;;) {
      const filter = from === "" ? "" : `FILTER (STR(?s) >= ${JSON.stringify(from)})`;
      const page = await this.select(`SELECT ?s ?p ?o WHERE { GRAPH ${iri(this.catalog)} { ?s ?p ?o } ${filter} } ORDER BY STR(?s) LIMIT ${CATALOG_PAGE}`);
      for (const b of page) {
        const s = b.s!.value;
        const p = b.p!.value;
        const o = b.o!.value;
        const key = `${s} ${p} ${o}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (s === this.catalog && p === LAST_COMMIT) this.lastSeq = Math.max(this.lastSeq, Number(o));
        else if (p === STATE || p === TRIPLES) {
          const e = found.get(s) ?? {};
          if (p === STATE) e.state = o as State;
          else e.triples = Number(o);
          found.set(s, e);
        } else if (p === COMMIT || p === PREVIOUS_COMMIT || p === PREVIOUS_TRIPLES) {
          const e = found.get(s) ?? {};
          if (p === COMMIT) e.commit = Number(o);
          else if (p === PREVIOUS_COMMIT) e.previousCommit = Number(o);
          else e.previousTriples = Number(o);
          found.set(s, e);
        }
      }
      if (page.length < CATALOG_PAGE) break;
      const last = page[page.length - 1]!.s!.value;
      if (last === from) throw new Error(`the catalog holds more than ${CATALOG_PAGE} rows about ${last}`);
      from = last;
      await tick();
    }
    const rows = seen.size;
    // Counted with the predicates bound (an unbound COUNT(*) can be very slow on Virtuoso: docs/virtuoso.md finding 3).
    const [c] = await this.select(`SELECT (COUNT(*) AS ?n) WHERE { { GRAPH ${iri(this.catalog)} { ?s <${STATE}> ?o } } UNION { GRAPH ${iri(this.catalog)} { ?s <${TRIPLES}> ?o } } UNION { GRAPH ${iri(this.catalog)} { ?s <${COMMIT}> ?o } } UNION { GRAPH ${iri(this.catalog)} { ?s <${PREVIOUS_COMMIT}> ?o } } UNION { GRAPH ${iri(this.catalog)} { ?s <${PREVIOUS_TRIPLES}> ?o } } UNION { GRAPH ${iri(this.catalog)} { ?s <${LAST_COMMIT}> ?o } } }`);
    const expected = Number(c?.n?.value ?? 0);
    if (rows !== expected) throw new Error(`the catalog ${this.catalog} holds ${expected} triples but ${rows} were read: the store cut the answer short`);
    const out = new Map<string, Entry>();
    for (const [g, e] of found) {
      if (e.state === undefined || e.triples === undefined) throw new Error(`the catalog entry of ${g} is incomplete`);
      out.set(g, e as Entry);
    }
    return out;
  }

  private async select(query: string, what = "catalog query"): Promise<Record<string, Binding | undefined>[]> {
    const text = await this.request(this.endpoints.query, { method: "POST", headers: { accept: "application/sparql-results+json", "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ query }) }, what);
    return (JSON.parse(text) as { results: { bindings: Record<string, Binding>[] } }).results.bindings;
  }

  /** A stage's graph is marked `writing` before its first load. */
  async markWriting(graph: string): Promise<void> {
    await this.catalogUpdate([], [[graph, { state: "writing", triples: 0 }]]);
  }

  /** A discarded stage: its graph and catalog entry go. */
  async unmark(graph: string): Promise<void> {
    await this.dropGraphs([graph]);
    await this.catalogUpdate([[graph, { state: "writing", triples: 0 }]], []);
  }
}

/** A new graph loaded ahead of its commit: marked `writing` in the catalog, so a crash drops it. */
class SparqlStage implements StagedGraph {
  private chain: Promise<void> = Promise.resolve();
  private loaded = 0;
  /** Whether the graph is in the catalog (as `writing`, 0 triples): from the first load on. */
  marked = false;
  private state: "open" | "committing" | "done" = "open";
  /** The stage's body file, written as it loads (from the first load on). */
  private file?: BodyFile;
  /** The body file is the graph's copy: a commit does not read the put's body (StagedGraph.keepsBody). */
  readonly keepsBody = true;

  constructor(
    private readonly store: SparqlStore,
    readonly graph: string,
    /** The stage is over: its graph was dropped (discarded), or committed. */
    private readonly release: (dropped: boolean) => void,
  ) {}

  get statements(): number {
    return this.loaded;
  }

  load(ntriples: Body): Promise<void> {
    if (this.state !== "open") return Promise.reject(new Error(`stage of ${this.graph} is closed`));
    const next = this.chain.then(async () => {
      if (!this.marked) {
        await this.store.markWriting(this.graph);
        this.marked = true;
      }
      this.file ??= this.store.cache.createForStage(this.graph);
      this.loaded += await this.store.postTriples(this.graph, ntriples, this.file);
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  async seal(): Promise<void> {
    if (this.state !== "open") throw new Error(`stage of ${this.graph} is already committed or discarded`);
    this.state = "committing";
    await this.chain;
    await this.file?.seal();
  }

  /** After the commit point: the stage's file becomes the graph's local copy. */
  async publishFile(seq: number): Promise<void> {
    if (this.file) await this.store.cache.publish(this.graph, seq, this.file);
    this.file = undefined;
  }

  async discardFile(): Promise<void> {
    await this.file?.discard();
    this.file = undefined;
  }

  /** The commit was refused before it wrote anything: the stage can be committed again. */
  reopen(): void {
    this.state = "open";
  }

  done(): void {
    this.state = "done";
    this.release(false);
  }

  async discard(): Promise<void> {
    if (this.state === "done") return;
    this.state = "done";
    await this.chain;
    await this.discardFile();
    if (this.marked) await this.store.unmark(this.graph);
    this.release(true);
  }
}
