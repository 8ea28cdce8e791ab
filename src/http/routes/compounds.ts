/**
 * /compound/{InChI} (the standard InChI unencoded in the path; percent-encoded forms are decoded)
 * and POST /compound (a SMILES, molfile or InChI body → the compound URI). Representations:
 * RDF (ot:Compound with SMILES, InChI, InChIKey), SMILES, InChI, molfile, SVG depiction, HTML.
 *
 * No structure is parsed on this (the main) thread: reading, drawing and writing a structure,
 * and one compound's descriptors, are jobs in the chem pool (`deps.chem`, a worker of its own),
 * each with the time budget REQUEST_CHEM_BUDGET_MS (and REQUEST_CHEM_WAIT_MS for a free worker).
 * A structure past a limit (chem/limits.ts) is refused with 413 (POST, field `body`) or 422
 * (GET, field `InChI`), naming the limit.
 */
import type Router from "@koa/router";
import type { Context, Next } from "koa";
import { DEPICTION_SIZE, type StructureResult } from "../../chem/structure.ts";
import { BadRequest, NotFound, PayloadTooLarge, UnprocessableEntity, UnsupportedMediaType } from "../../errors.ts";
import { compoundQuads } from "../../resources/dataset.ts";
import type { CompoundView } from "../../resources/dataset-read.ts";
import { read } from "../../resources/reads.ts";
import { toNTriples } from "../../store/ntriples.ts";
import type { Deps } from "../deps.ts";
import { requestJob } from "../request-job.ts";
import { collectionReps, rdfReps, respond, uriList, type Representations } from "../respond.ts";
import { storedSource, textSource } from "../render-rdf.ts";
import { intParam, readPage } from "../paging.ts";
import { ot } from "../../store/vocab.ts";
import { readBytes } from "../body.ts";
import { readParams } from "../request-params.ts";
import { parseParams } from "../../resources/params.ts";
import { PC_OF_RESOURCE } from "../../algorithms/descriptors/spec.ts";
import { describeCompound } from "../../algorithms/descriptors/index.ts";
import { shorten } from "../../validate/svg.ts";
import { COMPOUND_COLUMNS, COMPOUND_LIST, compoundHtml, compoundListHtml } from "../html/compound.ts";
import { readSort } from "../html/list.ts";
import { compoundSearch, oneParam, SubstructureCache, substructureSearch } from "./compound-search.ts";

const PREFIX = "/compound/";

async function readBody(ctx: Context, limit: number): Promise<string> {
  return (await readBytes(ctx.req, limit, () => new PayloadTooLarge(`body exceeds ${limit} bytes`))).toString("utf8");
}

export function registerCompounds(router: Router, deps: Deps): void {
  const { store, vocab, uris } = deps;

  const searches = new SubstructureCache();

  router.get("/compound", async (ctx) => {
    const q = oneParam(ctx.query, "q");
    const pattern = oneParam(ctx.query, "substructure");
    if (q !== undefined && pattern !== undefined) throw new BadRequest("give one of 'q' (an identifier or a name) and 'substructure' (a pattern), not both", { field: "substructure" });
    if (q !== undefined) return compoundSearch(ctx, deps, q);
    const list = store.graphsWithPrefix(uris.compounds() + "/").sort();
    if (pattern !== undefined) return substructureSearch(ctx, deps, pattern, list.length, searches);
    const html = async (): Promise<string> => {
      // sorted by InChI (the URIs' order), either way; only the page's compounds are read
      const sort = readSort(ctx.query, COMPOUND_COLUMNS, { key: "inchi", order: "asc" });
      const p = readPage(ctx.query, COMPOUND_LIST, list.length);
      const shown = sort.order === "asc" ? list.slice(p.offset, p.offset + p.count) : list.slice(list.length - p.offset - p.count, list.length - p.offset).reverse();
      const views = (await read(store, vocab, "compounds", shown)).map((c, i) => c ?? { uri: shown[i]!, inchi: "", inchikey: "" });
      return compoundListHtml({ items: views, page: p, sort }, vocab.base);
    };
    await respond(ctx, [...collectionReps(uris.compounds(), list, ot.Compound, deps), ["text/html", html]]);
  });

  router.post("/compound", async (ctx) => {
    const type = ctx.request.type;
    const raw = await readBody(ctx, 1024 * 1024);
    const body = raw.trim();
    if (!body) throw new BadRequest("empty body: POST a SMILES, a molfile or a standard InChI");
    let r: StructureResult;
    // A molfile's header block is three lines that are often empty (the name line, e.g. in RDKit's
    // own output): only a BOM and trailing space may go, or the counts line would move up.
    if (type === "chemical/x-mdl-molfile" || body.includes("M  END")) r = await requestJob(deps, "chem.identify", { cell: raw.replace(/^\uFEFF/, "").trimEnd(), molfile: true });
    else if (["text/plain", "chemical/x-daylight-smiles", "chemical/x-inchi", ""].includes(type)) r = await requestJob(deps, "chem.identify", { cell: body });
    else throw new UnsupportedMediaType(`POST /compound takes chemical/x-daylight-smiles, chemical/x-inchi, chemical/x-mdl-molfile or text/plain; got '${type}'`, { field: "Content-Type" });
    if (!r.ok && r.limit !== undefined) throw new PayloadTooLarge(`the structure was not read: ${r.error}`, { field: "body" });
    if (!r.ok) throw new UnprocessableEntity(`the structure could not be read: ${r.error}`, { field: "body" });
    const uri = uris.compound(r.value.inchi);
    const created = !store.has(uri);
    if (created) await store.commit([{ graph: uri, ntriples: toNTriples(compoundQuads(uri, r.value, vocab)) }]);
    ctx.set("Location", uri);
    await respond(ctx, [["text/uri-list", () => uriList([uri])], ["text/plain", () => `${uri}\n`]], created ? 201 : 200);
  });
}

/** GET /compound/{InChI}: a middleware, because the InChI contains slashes. */
export function compoundMiddleware(deps: Deps) {
  const { store, vocab, uris } = deps;
  return async function compound(ctx: Context, next: Next): Promise<void> {
    if (!ctx.path.startsWith(PREFIX) || ctx.path.length === PREFIX.length) return next();
    // POST /compound/{InChI}/pc: descriptors of one compound (an InChI layer never reads "/pc")
    const pc = ctx.method === "POST" && ctx.path.endsWith("/pc");
    if (ctx.method !== "GET" && ctx.method !== "HEAD" && !pc) return next();
    let inchi: string;
    try {
      inchi = decodeURIComponent(ctx.path.slice(PREFIX.length, pc ? -"/pc".length : undefined));
    } catch {
      throw new BadRequest("malformed percent-encoding in the compound URI");
    }
    if (!inchi.startsWith("InChI=")) throw new NotFound(`compound URIs are /compound/<standard InChI>; '${inchi.slice(0, 40)}' is not an InChI`);
    const uri = uris.compound(inchi);
    const c = (store.has(uri) ? await read(store, vocab, "compound", uri) : null) ?? (await decodeCompound(deps, uri, inchi));
    if (pc) return compoundDescriptors(ctx, deps, c);
    // A percent-encoded (or otherwise differently written) IRI of the compound: name the canonical
    // one whose description this is (RFC 9110 §8.7 Content-Location).
    if (!uri.endsWith(ctx.path)) ctx.set("Content-Location", uri);
    const stored = store.has(uri);
    const reps: (Representations[number])[] = [
      ...rdfReps(() => (stored ? storedSource(store, uri) : textSource(toNTriples(compoundQuads(uri, { inchi: c.inchi, inchikey: c.inchikey, smiles: c.smiles ?? null }, vocab)))), deps),
      ["text/html", async () => compoundHtml(c, vocab.base, stored ? await read(store, vocab, "compoundOccurrences", uri) : undefined)],
      ["chemical/x-inchi", () => `${c.inchi}\n`],
      ["text/uri-list", () => uriList([uri])],
    ];
    if (c.smiles) {
      const smiles = c.smiles;
      reps.push(["chemical/x-daylight-smiles", () => `${smiles}\n`]);
      reps.push(["chemical/x-mdl-molfile", async () => (await requestJob(deps, "chem.molfile", { smiles })) ?? ""]);
      reps.push(["image/svg+xml", async () => {
        // 400 for a bad size before any work
        const width = intParam(ctx.query, "width", DEPICTION_SIZE.min, DEPICTION_SIZE.max, 300, " (pixels)");
        const height = intParam(ctx.query, "height", DEPICTION_SIZE.min, DEPICTION_SIZE.max, 200, " (pixels)");
        const svg = await requestJob(deps, "chem.depict", { smiles, width, height });
        if (!svg) throw new UnprocessableEntity("the structure could not be depicted");
        return svg;
      }]);
    }
    await respond(ctx, reps);
  };
}

/**
 * A compound the service has not stored: its InChI decoded to a structure (chem/inchi, in a
 * worker), accepted only when RDKit gives the same InChI back. Served, not stored.
 */
async function decodeCompound(deps: Deps, uri: string, inchi: string): Promise<CompoundView> {
  const r = await requestJob(deps, "chem.identify", { cell: inchi });
  if (!r.ok && r.limit !== undefined) throw new UnprocessableEntity(`the InChI was not read: ${r.error}`, { field: "InChI" });
  if (!r.ok) throw new UnprocessableEntity(`${shorten(inchi, 200)} is not a compound this service can read: ${r.error}`, { field: "InChI" });
  if (r.value.smiles === null) {
    throw new UnprocessableEntity(`no structure was found whose standard InChI is ${shorten(inchi, 200)} (the InChI was decoded, but RDKit did not give it back for any candidate)`, { field: "InChI" });
  }
  return { uri, inchi: r.value.inchi, inchikey: r.value.inchikey, smiles: r.value.smiles };
}

/**
 * POST /compound/{InChI}/pc (`pc_type`, `lib`): a one-compound feature dataset, answered
 * directly with 201 and its URI (computed in the chem pool, like all request-time chemistry, so
 * the main thread stays free; one compound takes milliseconds for 2D descriptors).
 */
async function compoundDescriptors(ctx: Context, deps: Deps, c: CompoundView): Promise<void> {
  const params = parseParams(PC_OF_RESOURCE, await readParams(ctx));
  if (!c.smiles) throw new UnprocessableEntity(`no structure is known for ${c.inchi} (it was given as an InChI), so its descriptors cannot be computed yet`, { field: "compound" });
  const datasetUri = await describeCompound({ uri: c.uri, smiles: c.smiles }, params, `${deps.uris.algorithms()}/pc`, deps, (kind, input, onProgress) => requestJob(deps, kind, input, onProgress));
  ctx.set("Location", datasetUri);
  await respond(ctx, [["text/uri-list", () => uriList([datasetUri])], ["text/plain", () => `${datasetUri}\n`]], 201);
}
