/**
 * RDF representations over HTTP (docs/opentox-api.md "Representations"), without holding the event
 * loop: a graph of at most INLINE_TRIPLES is serialised on the main thread (a few ms); a larger one
 * in the render pool (worker threads of their own, so that renders never wait behind long tasks),
 * from the range of the journal file that holds it (StoreBackend.storedBody), which the worker reads
 * itself. N-Triples of a stored graph are streamed straight from that file.
 *
 * Budgets. Each format has a size limit (RENDER_LIMITS, from the throughput measured in
 * bench/render.ts; a render stays within ≈ 10 CPU seconds): a larger graph is refused at once
 * with 406, naming its size and what to ask for instead. A render also has a time limit
 * (waiting for a worker included): past it the worker is stopped and the answer is 503. When
 * MAX_WAITING renders already wait for a worker, a new one is refused with 503. A client that
 * goes away stops its render.
 */
import { createReadStream } from "node:fs";
import type { Readable } from "node:stream";
import { Cancelled, NotAcceptable, ServiceUnavailable } from "../errors.ts";
import { countStatements } from "../store/journal.ts";
import type { StoreBackend } from "../store/backend.ts";
import { serialiseRdf, type RdfType } from "../store/rdf-formats.ts";
import type { Vocab } from "../store/vocab.ts";
import { sourceSlices, type CollectionSource, type GraphSource } from "../store/render-job.ts";
import type { WorkerPool } from "../tasks/pool.ts";
import type { Jobs } from "../algorithms/jobs.ts";

export { contextUrl, isRdfType, jsonldContext, RDF_TYPES, type RdfType } from "../store/rdf-formats.ts";

/** A graph to render and its size in triples. */
export interface RdfSource {
  readonly triples: number;
  readonly source: GraphSource;
}

/** What rendering needs from the composition root. */
export interface RenderDeps {
  readonly vocab: Vocab;
  readonly renderPool: WorkerPool<Jobs>;
}

/** Largest graph serialised on the main thread: ≈ 25 ms as JSON-LD, the slowest format. */
export const INLINE_TRIPLES = 1000;

/**
 * Largest graph rendered per format, in triples. Measured (bench/render.ts, triples per CPU
 * second on the shared 2-core machine): Turtle ≈ 120k (n3 parse + write), RDF/XML ≈ 110k
 * (Oxigraph load + dump), JSON-LD ≈ 50k (n3 parse, jsonld.js fromRDF + compact); so a render
 * at the limit takes ≈ 5–9 CPU s. N-Triples of a stored graph are not rendered at all.
 */
export const RENDER_LIMITS: Readonly<Record<Exclude<RdfType, "application/n-triples">, number>> = {
  "text/turtle": 1_000_000,
  "application/rdf+xml": 1_000_000,
  "application/ld+json": 250_000,
  "application/json": 250_000,
};

/** Time limit of one render in the pool, waiting included. */
export const RENDER_TIME_LIMIT_MS = 60_000;
/** Renders that may wait for a render worker; more are refused with 503. */
export const MAX_WAITING = 16;

const NAMES: Readonly<Record<RdfType, string>> = {
  "text/turtle": "Turtle",
  "application/n-triples": "N-Triples",
  "application/ld+json": "JSON-LD",
  "application/json": "JSON-LD",
  "application/rdf+xml": "RDF/XML",
};

/**
 * A representation over its format's size limit (406). `respond` completes the list of what is
 * available with the resource's other representations.
 */
export class OverBudget extends NotAcceptable {
  /** Why, without the list of what is available. */
  readonly why: string;

  constructor(
    readonly type: RdfType,
    readonly triples: number,
    readonly limit: number,
  ) {
    super(fitting(triples), type, overBudgetWhy(type, triples, limit));
    this.why = overBudgetWhy(type, triples, limit);
  }
}

/** The RDF types within their size limit for a graph of `triples`. */
export function fitting(triples: number): RdfType[] {
  return (Object.keys(NAMES) as RdfType[]).filter((t) => t === "application/n-triples" || triples <= RENDER_LIMITS[t]);
}

function overBudgetWhy(type: RdfType, triples: number, limit: number): string {
  return `this resource has ${triples.toLocaleString("en")} triples; ${NAMES[type]} is rendered for at most ${limit.toLocaleString("en")}: ask for a format that fits (N-Triples always does), or for the resource's pages or CSV where it has them, or query it with SPARQL and LIMIT`;
}

/** N-Triples text held in memory (a small graph, or one built for the response). */
export function textSource(ntriples: string): RdfSource {
  return { triples: countStatements(ntriples), source: { ntriples } };
}

/**
 * A stored graph: a small one dumped from memory (fast, and rendered inline), a larger one read
 * from its body on disk by the worker that renders it.
 */
export async function storedSource(store: StoreBackend, graph: string): Promise<RdfSource> {
  const triples = store.graphSize(graph);
  const file = store.storedBody(graph);
  if (file && triples > INLINE_TRIPLES) return { triples, source: { file } };
  return { triples, source: { ntriples: await store.dump(graph, "application/n-triples") } };
}

export function collectionSource(collection: CollectionSource): RdfSource {
  return { triples: 1 + 2 * collection.members.length, source: { collection } };
}

/** Render `src` as `type`: inline, streamed from disk, or in the render pool (see the module comment). */
export async function renderRdf(src: RdfSource, type: RdfType, deps: RenderDeps, signal?: AbortSignal): Promise<string | Buffer | Readable> {
  const { source, triples } = src;
  if (type === "application/n-triples") {
    if ("ntriples" in source) return source.ntriples;
    if ("file" in source) return createReadStream(source.file.path, { start: source.file.offset, end: source.file.offset + source.file.length - 1 });
  } else if (triples > RENDER_LIMITS[type]) {
    throw new OverBudget(type, triples, RENDER_LIMITS[type]);
  }
  if (triples <= INLINE_TRIPLES && !("file" in source)) return serialiseRdf(sourceSlices(source, deps.vocab), type, deps.vocab);
  if (deps.renderPool.queued >= MAX_WAITING) {
    throw new ServiceUnavailable(`${MAX_WAITING} large representations are waiting to be rendered; try again shortly, or ask for N-Triples (streamed, no rendering)`);
  }
  const timeout = AbortSignal.timeout(RENDER_TIME_LIMIT_MS);
  try {
    const out = await deps.renderPool.run("rdf.render", { source, type, base: deps.vocab.base }, { signal: signal ? AbortSignal.any([timeout, signal]) : timeout, owner: "render" });
    return Buffer.from(out.body.buffer, out.body.byteOffset, out.body.byteLength);
  } catch (err) {
    if (err instanceof Cancelled && timeout.aborted) {
      throw new ServiceUnavailable(
        `rendering ${NAMES[type]} of ${triples.toLocaleString("en")} triples took longer than ${RENDER_TIME_LIMIT_MS / 1000} s and was stopped (the server is busy); try again later, or ask for N-Triples (streamed, no rendering)`,
      );
    }
    throw err;
  }
}
