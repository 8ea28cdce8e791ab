/**
 * `/` (the service: links to every collection and to the API description, as HTML and RDF, and
 * the Link header `rel="service-desc"` to the latter) and `/ontology` (this deployment's copy of
 * the vocabulary ontology/qsargraph.ttl, whose terms are at the stable namespace `QG_NS`, plus the
 * JSON-LD context `/ontology/context.jsonld`), and `/.well-known/void` (VoID: http/service-description.ts).
 */
import type Router from "@koa/router";
import { readFileSync } from "node:fs";
import { Parser, type Quad } from "n3";
import { DataFactory } from "n3";
import { toNTriples } from "../../store/ntriples.ts";
import type { SparqlEndpoint } from "../../store/sparql-endpoint.ts";
import { iri, int, rdf, rdfs, str, dc, voiD, foaf, QG_NS, QG_ONTOLOGY } from "../../store/vocab.ts";
import { VOID_PATH, voidDatasetIri, voidNt } from "../service-description.ts";
import type { Deps } from "../deps.ts";
import { SCRIPTS } from "../html/scripts.ts";
import { homeHtml } from "../html/home.ts";
import { ontologyHtml } from "../html/ontology.ts";
import { DATASET_COLUMNS } from "../html/dataset.ts";
import { MODEL_COLUMNS, VALIDATION_COLUMNS } from "../html/collections.ts";
import { NEWEST_FIRST, sortItems } from "../html/list.ts";
import { read } from "../../resources/reads.ts";
import { isId } from "../../resources/uris.ts";
import { NotFound } from "../../errors.ts";
import { jsonldContext } from "../render-rdf.ts";
import { rdfReps, respond, uriList } from "../respond.ts";
import { textSource } from "../render-rdf.ts";

const ONTOLOGY_FILE = new URL("../../../ontology/qsargraph.ttl", import.meta.url);
import { VERSION } from "../../version.ts";

export function registerService(router: Router, deps: Deps, replica: SparqlEndpoint): void {
  const { vocab, uris } = deps;
  const external = deps.config.store === "sparql";
  const collections: [string, string, string][] = [
    [uris.datasets(), "Datasets", "CSV uploads: compounds and their measured endpoints"],
    [uris.compounds(), "Compounds", "every compound the service knows, by standard InChI"],
    [uris.tasks(), "Tasks", "long-running operations and their progress"],
    [uris.algorithms(), "Algorithms", "substructure miners, descriptors, lazar and the other algorithms, with their parameters"],
    [uris.models(), "Models", "models built from a dataset: predict compounds and datasets"],
    [uris.sparql(), "SPARQL", "read-only SPARQL 1.1 over every graph"],
    [uris.ontology(), "Ontology", "the vocabulary this service adds to OpenTox 1.1"],
  ];
  const serviceNt = (): string => {
    const s = iri(uris.service());
    const q = [DataFactory.quad(s, rdf.type, vocab.qg.Service), DataFactory.quad(s, dc.title, str("qsargraph")), DataFactory.quad(s, vocab.qg.version, str(VERSION))];
    for (const [u, title] of collections) {
      q.push(DataFactory.quad(s, vocab.qg.collection, iri(u)), DataFactory.quad(iri(u), rdfs.label, str(title)));
    }
    // the validations are a collection too (the uri-list keeps its members, which clients read)
    q.push(DataFactory.quad(s, vocab.qg.collection, iri(uris.validations())), DataFactory.quad(iri(uris.validations()), rdfs.label, str("Validations")));
    q.push(DataFactory.quad(s, vocab.qg.sparqlEndpoint, iri(uris.sparql())), DataFactory.quad(s, vocab.qg.ontology, iri(uris.ontology())));
    // the same for generic clients: VoID's endpoint, and the VoID description of the data (whose
    // dataset names the endpoint too; GET /sparql answers its SPARQL 1.1 Service Description)
    const voidDoc = iri(`${vocab.base}${VOID_PATH}`);
    q.push(DataFactory.quad(s, voiD.sparqlEndpoint, iri(uris.sparql())), DataFactory.quad(s, rdfs.seeAlso, voidDoc), DataFactory.quad(voidDoc, rdfs.label, str("VoID description of the data")));
    q.push(DataFactory.quad(iri(voidDatasetIri(deps)), voiD.rootResource, s));
    q.push(DataFactory.quad(s, vocab.qg.apiDescription, iri(uris.apiDescription())), DataFactory.quad(iri(uris.apiDescription()), rdfs.label, str("API description (OpenAPI 3.1)")));
    const c = deps.store.capacity();
    // The capacity figures are the embedded store's; an external store has no ceiling of ours.
    if (external) q.push(DataFactory.quad(s, vocab.qg.triplesCurrent, int(c.live)));
    else q.push(DataFactory.quad(s, vocab.qg.storeCapacity, int(c.max)), DataFactory.quad(s, vocab.qg.triplesLoaded, int(c.loaded)), DataFactory.quad(s, vocab.qg.triplesCurrent, int(c.live)), DataFactory.quad(s, vocab.qg.storeRenewals, int(c.renewals)));
    const r = replica.figures;
    q.push(DataFactory.quad(s, vocab.qg.sparqlWorkers, int(r.workers)), DataFactory.quad(s, vocab.qg.sparqlTimeLimitMs, int(deps.config.sparqlTimeoutMs)));
    if (!external) q.push(DataFactory.quad(s, vocab.qg.sparqlWorkerRestarts, int(r.restarts)));
    return toNTriples(q);
  };
  router.get("/", async (ctx) => {
    // The API description for generic clients (RFC 8631), whatever the representation.
    ctx.set("Link", `<${uris.apiDescription()}>; rel="service-desc"; type="application/openapi+json"`);
    await respond(ctx, [
      ...rdfReps(() => textSource(serviceNt()), deps),
      [
        "text/html",
        async () => {
          const c = deps.store.capacity();
          const r = replica.figures;
          const store = external
            ? `<p>Store: an external SPARQL store, holding ${c.live.toLocaleString("en")} triples of current data in ${deps.store.graphsWithPrefix("").length.toLocaleString("en")} graphs; its capacity is the store's own.</p>`
            : `<p>Store: ${c.live.toLocaleString("en")} triples of current data; ${c.loaded.toLocaleString("en")} loaded since the service started or the store last renewed its memory (replaced and deleted data keeps its memory until then; renewals so far: ${c.renewals}) of a capacity of ${c.max.toLocaleString("en")} (MAX_QUADS).</p>`;
          const sparql = external
            ? `<p>SPARQL: queries run on the external store, at most ${r.workers} at a time (${r.busy} running, ${r.queued} waiting); a query that cannot start or end within ${deps.config.sparqlTimeoutMs} ms fails with 503.</p>`
            : `<p>SPARQL: ${r.workers} worker${r.workers === 1 ? "" : "s"} (${r.busy} running a query, ${r.loading} loading the data, ${r.queued} queries waiting); a query that cannot start or end within ${deps.config.sparqlTimeoutMs} ms fails with 503; workers restarted after a query was stopped: ${r.restarts}.</p>`;
          // the recent work (every member's row: a few triples each), newest first
          const members = (prefix: string): string[] => deps.store.graphsWithPrefix(`${prefix}/`).filter((g) => isId(g.slice(prefix.length + 1)));
          const datasets = sortItems((await read(deps.store, vocab, "datasetRows", members(uris.datasets()))).filter((x) => x !== null), DATASET_COLUMNS, NEWEST_FIRST);
          const models = sortItems((await read(deps.store, vocab, "modelRows", members(uris.models()))).filter((x) => x !== null), MODEL_COLUMNS, NEWEST_FIRST);
          const validations = sortItems((await read(deps.store, vocab, "validationRows", [...members(uris.crossValidations()), ...members(uris.crossValidationReports())])).filter((x) => x !== null), VALIDATION_COLUMNS, NEWEST_FIRST);
          // the page lists the validations too (the RDF and uri-list of / keep their collections, which clients read)
          const listed = [...collections.slice(0, 5), [uris.validations(), "Validations", "cross-validations of models and their reports"] as const, ...collections.slice(5)];
          return homeHtml({ version: VERSION, datasets, models, validations, collections: listed, apiDescription: uris.apiDescription(), facts: store + sparql }, vocab.base);
        },
      ],
      ["text/uri-list", () => collections.map(([u]) => u).join("\r\n") + "\r\n"],
    ]);
  });

  // VoID §7.2: the description of the service's data at the well-known URI
  router.get(VOID_PATH, async (ctx) => {
    await respond(ctx, rdfReps(() => textSource(voidNt(deps)), deps));
  });

  // The vocabulary as the file states it (its terms at QG_NS, whatever this service's base), each
  // term rdfs:isDefinedBy the vocabulary, and this document named as a copy of it.
  // The vocabulary as the file states it (its terms at QG_NS, whatever this service's base), each
  // term rdfs:isDefinedBy the vocabulary, and this document named as a copy of it; read once.
  const source = readFileSync(ONTOLOGY_FILE, "utf8");
  const quads: Quad[] = new Parser({ baseIRI: QG_ONTOLOGY }).parse(source);
  const vocabulary = iri(QG_ONTOLOGY);
  const terms = new Set(quads.filter((q) => q.subject.termType === "NamedNode" && q.subject.value.startsWith(QG_NS)).map((q) => q.subject.value));
  for (const t of terms) quads.push(DataFactory.quad(iri(t), rdfs.isDefinedBy, vocabulary));
  const doc = iri(uris.ontology());
  quads.push(DataFactory.quad(doc, foaf.primaryTopic, vocabulary), DataFactory.quad(doc, rdfs.label, str("this service's copy of the qsargraph vocabulary")));
  const cached = toNTriples(quads);
  const ontologyPage = ontologyHtml(quads, source, vocab.base, uris.ontology());
  router.get("/ontology", async (ctx) => {
    await respond(ctx, [...rdfReps(() => textSource(cached), deps), ["text/uri-list", () => uriList([uris.ontology()])], ["text/html", () => ontologyPage]]);
  });
  // the pages' scripts (html/scripts.ts): immutable for a version, so cached for a day
  router.get("/static/:name", (ctx) => {
    const source = SCRIPTS.get(String(ctx.params.name));
    if (source === undefined) throw new NotFound(`no script ${ctx.path}`);
    ctx.type = "text/javascript; charset=utf-8";
    ctx.set("Cache-Control", "public, max-age=86400");
    ctx.body = source;
  });
  // browsers ask for it on every page; there is none
  router.get("/favicon.ico", (ctx) => {
    ctx.status = 204;
  });
  router.get("/ontology/context.jsonld", async (ctx) => {
    await respond(ctx, [["application/ld+json", () => JSON.stringify(jsonldContext(vocab), null, 1)], ["application/json", () => JSON.stringify(jsonldContext(vocab), null, 1)]]);
  });
}
