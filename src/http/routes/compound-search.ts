/**
 * The compound search of GET /compound (README "Finding compounds"):
 *
 * - `?q=` a SMILES, InChI, InChIKey or name, resolved by resources/compound-query.ts: one stored
 *   compound → 303 See Other to its page (a browser) or its URI (text/uri-list); none or several →
 *   a page of the hits with their structures (HTML) or their URIs;
 * - `?substructure=` a SMILES or SMARTS pattern, matched against every stored compound by the
 *   `chem.substructure` job in the request-time chem pool (chem/substructure-search.ts): the pattern
 *   is bounded before anything runs (400 naming the bound), the search by a match cap and a time
 *   budget (a partial answer says how far it came), one compound's match by the job's own budget (a
 *   pattern that takes longer → 400). The matches are paged (`page`, `page_size`); a search is
 *   kept for a few minutes so that its pages do not search again.
 */
import type { Context } from "koa";
import type { ParsedUrlQuery } from "node:querystring";
import { REQUEST_CHEM_WAIT_MS } from "../../chem/limits.ts";
import { checkPattern, type SubstructureOutput } from "../../chem/substructure-search.ts";
import { BadRequest, ServiceUnavailable } from "../../errors.ts";
import { resolveCompoundQuery } from "../../resources/compound-query.ts";
import { read } from "../../resources/reads.ts";
import type { Deps } from "../deps.ts";
import { COMPOUND_LIST, compoundSearchHtml, substructureHtml } from "../html/compound.ts";
import { readPage } from "../paging.ts";
import { requestJob } from "../request-job.ts";
import { respond, seeOther, uriList } from "../respond.ts";

/** Matches a substructure search finds at most (then it stops and says so). */
export const MAX_MATCHES = 2000;
/** Time a substructure search may take, checked between compounds. */
export const SEARCH_BUDGET_MS = 3000;
/** Time one search job may run in all (a single compound's match past it ends the job: 400). */
export const SEARCH_JOB_MS = 8000;

/** A query parameter given once (400 when repeated), or undefined. */
export function oneParam(query: ParsedUrlQuery, name: string): string | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw new BadRequest(`parameter '${name}' is given ${raw.length} times; give it once`, { field: name });
  return raw;
}

/** GET /compound?q=… */
export async function compoundSearch(ctx: Context, deps: Deps, q: string): Promise<void> {
  const r = await resolveCompoundQuery(q, { store: deps.store, vocab: deps.vocab, uris: deps.uris, identify: (cell) => requestJob(deps, "chem.identify", { cell }) });
  const stored = r.hits.filter((h) => h.stored);
  if (stored.length === 1) {
    // one compound the service holds: its page (a browser) or its URI
    const uri = stored[0]!.compound.uri;
    if (seeOther(ctx, uri)) return;
    ctx.status = 303;
    ctx.set("Location", uri);
    ctx.type = "text/uri-list";
    ctx.body = uriList([uri]);
    return;
  }
  // a uri-list by default (as the collection), a page for a browser
  await respond(ctx, [
    ["text/uri-list", () => uriList(stored.map((h) => h.compound.uri))],
    ["text/html", () => compoundSearchHtml(r, deps.vocab.base)],
  ]);
}

interface Search {
  readonly at: number;
  /** Compound graphs when it ran (a new upload makes it stale). */
  readonly compounds: number;
  readonly uris: readonly string[];
  /** Compounds with a structure (those searched when the search ran to the end). */
  readonly total: number;
  readonly out: Extract<SubstructureOutput, { ok: true }>;
}

/** The last few substructure searches, so that paging through the matches does not search again. */
export class SubstructureCache {
  private readonly searches = new Map<string, Search>();
  constructor(
    private readonly size = 8,
    private readonly ttlMs = 5 * 60_000,
  ) {}

  get(pattern: string, compounds: number): Search | undefined {
    const s = this.searches.get(pattern);
    if (!s || s.compounds !== compounds || Date.now() - s.at > this.ttlMs) return undefined;
    return s;
  }

  set(pattern: string, s: Search): void {
    this.searches.delete(pattern);
    this.searches.set(pattern, s);
    while (this.searches.size > this.size) this.searches.delete(this.searches.keys().next().value!);
  }
}

/** GET /compound?substructure=… */
export async function substructureSearch(ctx: Context, deps: Deps, raw: string, compounds: number, cache: SubstructureCache): Promise<void> {
  const pattern = raw.trim();
  const bad = checkPattern(pattern);
  if (bad !== null) throw new BadRequest(bad, { field: "substructure" });
  let s = cache.get(pattern, compounds);
  if (!s) {
    const all = await read(deps.store, deps.vocab, "compoundStructures");
    let out: SubstructureOutput;
    try {
      out = await deps.chem.run("chem.substructure", { pattern, smiles: all.smiles, maxMatches: MAX_MATCHES, budgetMs: SEARCH_BUDGET_MS }, { timeoutMs: SEARCH_JOB_MS, maxWaitMs: REQUEST_CHEM_WAIT_MS });
    } catch (e) {
      // the job's own budget (not the wait for a worker): one compound's match took too long
      if (e instanceof ServiceUnavailable && /time budget/.test(e.message)) {
        throw new BadRequest(`the pattern '${pattern}' took longer than ${SEARCH_JOB_MS / 1000} s to match; make it more specific (fewer wildcard atoms and bonds)`, { field: "substructure" });
      }
      throw e;
    }
    if (!out.ok) throw new BadRequest(`the substructure is not a pattern the service can match: ${out.error}`, { field: "substructure", ...(out.position !== undefined ? { column: out.position + 1 } : {}) });
    s = { at: Date.now(), compounds, uris: out.matched.map((i) => all.uris[i]!), total: all.smiles.length, out };
    cache.set(pattern, s);
  }
  const found = s;
  await respond(ctx, [
    ["text/uri-list", () => uriList(found.uris)],
    [
      "text/html",
      async () => {
        const p = readPage(ctx.query, COMPOUND_LIST, found.uris.length);
        const shown = found.uris.slice(p.offset, p.offset + p.count);
        const views = (await read(deps.store, deps.vocab, "compounds", shown)).map((c, i) => c ?? { uri: shown[i]!, inchi: "", inchikey: "" });
        return substructureHtml({ pattern, compounds: views, page: p, searched: found.out.searched, of: found.total, maxMatches: MAX_MATCHES, ...(found.out.stopped ? { stopped: found.out.stopped } : {}) }, deps.vocab.base);
      },
    ],
  ]);
}


