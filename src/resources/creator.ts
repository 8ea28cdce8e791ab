/**
 * Who created a resource (README "Access control"): the name of the API token whose request
 * created it, recorded as `<resource> qg:createdBy "name"` in the resource's own graph (never the
 * token). Tasks carry it in their state (resources/task.ts); the task runner stamps it on the
 * new resource graphs a task commits, and the few resources created directly by a request
 * (one compound's descriptors or prediction) are stamped where they are committed.
 *
 * The name comes from the request being served, through an AsyncLocalStorage that the HTTP
 * layer's access middleware (http/auth.ts) sets for each request: the layers below HTTP ask
 * `actingCreator()` and need no request object. Outside a request, or without tokens, it is
 * undefined and nothing is recorded.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { DataFactory } from "n3";
import * as ox from "oxigraph";
import { concatBodies, type GraphOp } from "../store/journal.ts";
import type { StagedGraph } from "../store/backend.ts";
import { toNTriples } from "../store/ntriples.ts";
import { iri, str, type Vocab } from "../store/vocab.ts";

/** Resolves the creator of the current request (may throw, e.g. 401 when its token is still unchecked). */
type CreatorResolver = () => string | undefined;

const acting = new AsyncLocalStorage<CreatorResolver>();

/** Run `fn` (a request's handling) with `resolve` answering `actingCreator()` inside it. */
export function actAs<T>(resolve: CreatorResolver, fn: () => T): T {
  return acting.run(resolve, fn);
}

/** The token name of the request being served; undefined without tokens or outside a request. */
export function actingCreator(): string | undefined {
  return acting.getStore()?.();
}

/** The creator recorded in a resource's graph, if any. */
export function readCreator(store: ox.Store, uri: string, v: Vocab): string | undefined {
  const g = ox.namedNode(uri);
  return store.match(g, ox.namedNode(v.qg.createdBy.value), null, g)[0]?.object.value;
}

/** The one N-Triples line `<uri> qg:createdBy "name" .` */
export function creatorNTriples(uri: string, creator: string, v: Vocab): string {
  return toNTriples([DataFactory.quad(iri(uri), v.qg.createdBy, str(creator))]);
}

/**
 * The operations with the creator recorded in every new resource graph they put (one-graph
 * puts of graphs that do not exist yet; several-graph puts are compounds, which belong to
 * nobody). A graph loaded ahead in a stage gets the triple loaded into the stage too, so that
 * the commit's body and the store agree. The triple goes first, so a body without a final
 * newline stays valid N-Triples.
 */
export async function withCreator(
  ops: readonly GraphOp[],
  creator: string | undefined,
  v: Vocab,
  isNew: (graph: string) => boolean,
  stages: readonly StagedGraph[] = [],
): Promise<GraphOp[]> {
  if (creator === undefined) return [...ops];
  const out: GraphOp[] = [];
  for (const op of ops) {
    if (!("ntriples" in op) || !isNew(op.graph)) {
      out.push(op);
      continue;
    }
    const line = creatorNTriples(op.graph, creator, v);
    const stage = stages.find((s) => s.graph === op.graph);
    if (stage) await stage.load(line);
    const body = typeof op.ntriples === "string" ? line + op.ntriples : await concatBodies([Buffer.from(line, "utf8"), op.ntriples]);
    out.push({ graph: op.graph, ntriples: body });
  }
  return out;
}
