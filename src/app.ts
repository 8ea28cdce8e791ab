/**
 * Composition root: builds the store, the worker pool, the task runner, the SPARQL replica and
 * the routes; nothing else wires dependencies (plain constructor arguments, no DI framework;
 * the layers: docs/ARCHITECTURE.md).
 */
import Koa from "koa";
import compress from "koa-compress";
import { constants as zlibConstants } from "node:zlib";
import { join } from "node:path";
import Router from "@koa/router";
import type { Server } from "node:http";
import type { Config } from "./config.ts";
import { NotFound } from "./errors.ts";
import { allowedMethods } from "./http/allow.ts";
import { accessMiddleware, accessPolicy, type Access } from "./http/auth.ts";
import type { Deps } from "./http/deps.ts";
import { setFormTokenFields } from "./http/html/layout.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { cors } from "./http/cors.ts";
import { conditional } from "./http/conditional.ts";
import { BROTLI_QUALITY, compressibleType, compressInMemory } from "./http/compress.ts";
import { acceptParams } from "./http/negotiate.ts";
import { errorMiddleware } from "./http/error-response.ts";
import { registerAlgorithms } from "./http/routes/algorithms.ts";
import { registerModels } from "./http/routes/models.ts";
import { registerDepiction } from "./http/routes/depiction.ts";
import { registerValidation } from "./http/routes/validation.ts";
import { compoundMiddleware, registerCompounds } from "./http/routes/compounds.ts";
import { registerDatasets } from "./http/routes/datasets.ts";
import { registerService } from "./http/routes/service.ts";
import { registerSparql } from "./http/routes/sparql.ts";
import { registerOpenApi } from "./http/routes/openapi.ts";
import { registerTasks } from "./http/routes/tasks.ts";
import { Uris } from "./resources/uris.ts";
import { GraphStore } from "./store/graph-store.ts";
import { SparqlReplica } from "./store/replica.ts";
import type { StoreBackend } from "./store/backend.ts";
import type { SparqlEndpoint } from "./store/sparql-endpoint.ts";
import { SparqlStore } from "./store/sparql-store.ts";
import { SparqlProxy } from "./store/sparql-proxy.ts";
import { withExternalErrors } from "./store/external-errors.ts";
import { legacyQgNs, QG_NS, Vocab } from "./store/vocab.ts";
import { migrateVocabulary } from "./store/migrate-vocabulary.ts";
import { servicePool, type Jobs } from "./algorithms/jobs.ts";
import { REQUEST_NICE } from "./threads/spawn.ts";
import { TaskRunner } from "./tasks/runner.ts";
import type { JobPool } from "./tasks/pool.ts";
import { QueuePool } from "./tasks/queue-pool.ts";

/**
 * The embedded store (Oxigraph in a thread of this process, the journal in DATA_DIR) and its SPARQL
 * read replicas.
 */
async function openEmbedded(config: Config): Promise<{ store: StoreBackend; sparql: SparqlEndpoint }> {
  // A directory written before the vocabulary's stable namespace is moved to it once, before
  // anything else reads it (store/migrate-vocabulary.ts).
  const moved = migrateVocabulary(config.dataDir, legacyQgNs(config.baseUrl));
  if (moved) console.log(`store: ${moved.replaced} IRIs in ${moved.rewritten} graph writes moved from ${legacyQgNs(config.baseUrl)} to ${QG_NS} in ${Math.round(moved.ms)} ms (snapshot of commit ${moved.seq})`);
  // The replicas load the data dir in their own threads while this one recovers the writer's store.
  const replica = SparqlReplica.create({ dataDir: config.dataDir, timeoutMs: config.sparqlTimeoutMs, maxResults: config.sparqlMaxResults, workers: config.sparqlWorkers });
  const store = await GraphStore.open(config.dataDir, { maxQuads: config.maxQuads });
  replica.follow(store);
  return { store, sparql: replica };
}

/**
 * `--store sparql`: the graphs in an external SPARQL 1.1 store (store/sparql-store.ts; no
 * vocabulary migration, no replica, no renewal, no capacity: the store's own), its failures as
 * 503 (store/external-errors.ts), and /sparql proxied to its query endpoint (store/sparql-proxy.ts).
 * A store that does not answer stops the start with a message naming its endpoints.
 */
async function openExternal(config: Config): Promise<{ store: StoreBackend; sparql: SparqlEndpoint }> {
  const sc = config.sparqlStore;
  if (!sc) throw new Error("--store sparql without the store's endpoints");
  const where = `query ${sc.query}, update ${sc.update}, Graph Store Protocol ${sc.gsp} (?${sc.gspParam}=)`;
  // HTTP basic authentication, on every request to the store (writes, reads, /sparql)
  const authorization = sc.user !== undefined ? `Basic ${Buffer.from(`${sc.user}:${sc.password ?? ""}`, "utf8").toString("base64")}` : undefined;
  const auth = authorization ? { authorization } : {};
  let external: SparqlStore;
  try {
    // SparqlStore's defaults are within Virtuoso 7.2's limits (docs/virtuoso.md finding 9).
    external = await SparqlStore.open({ query: sc.query, update: sc.update, gsp: sc.gsp, base: config.baseUrl }, { bodies: join(config.dataDir, "bodies"), gspParam: sc.gspParam, ...auth });
  } catch (e) {
    throw new Error(`the external SPARQL store cannot be used (${where}): ${(e as Error).message}`);
  }
  const store = withExternalErrors(external);
  try {
    // The proxy keeps out of a query's dataset what the store holds but does not serve.
    const graphs = { has: (g: string) => store.has(g), graphsWithPrefix: (p: string) => store.graphsWithPrefix(p), unservedGraphs: () => external.unservedGraphs() };
    const sparql = await SparqlProxy.open(graphs, {
      ...auth,
      endpoint: sc.query,
      base: config.baseUrl,
      timeoutMs: config.sparqlTimeoutMs,
      maxResults: config.sparqlMaxResults,
      concurrency: config.sparqlWorkers,
      dialect: external.dialect,
      // the store's graphs that are not the service's, as found at the last start (read again in the background)
      foreignFile: join(config.dataDir, "foreign-graphs.json"),
    });
    return { store, sparql };
  } catch (e) {
    await store.close();
    throw e;
  }
}

/** Render workers (http/render-rdf.ts): two, so that one long render does not hold up the next. */
const RENDER_WORKERS = 2;

export interface App {
  readonly koa: Koa;
  /** Every route (the API description is checked against them: test/unit/http/openapi/document.test.ts). */
  readonly router: Router;
  readonly deps: Deps;
  /** Who may do what (README "Access control"). */
  readonly access: Access;
  listen(): Promise<Server>;
  close(): Promise<void>;
}

export async function createApp(config: Config): Promise<App> {
  // First: bad tokens, or a public interface without tokens and without --open, stop the start
  // before anything is opened.
  const access = accessPolicy(config);
  setFormTokenFields(access.tokens !== undefined);
  const { store, sparql } = config.store === "sparql" ? await openExternal(config) : await openEmbedded(config);
  const vocab = new Vocab(config.baseUrl);
  const uris = new Uris(config.baseUrl);
  // Task jobs: worker threads of this process, or (--queue) a Redis queue that `qsargraph worker`
  // processes take them from, at most `workers` of them on it at a time.
  const pool: JobPool<Jobs> = config.queueUrl ? await QueuePool.open<Jobs>(config.queueUrl, { slots: config.workers }) : servicePool(config.workers);
  // Request-time chemistry: one worker of its own, so that requests never wait behind task jobs.
  const chem = servicePool(1, { nice: REQUEST_NICE });
  // Renders get workers of their own: the task pool may be busy with long jobs for minutes.
  const renderPool = servicePool(RENDER_WORKERS, { rdkit: false, nice: REQUEST_NICE });
  const tasks = new TaskRunner<Jobs>(store, pool, uris, vocab, { maxPending: config.maxPendingTasks, timeLimitMs: config.taskTimeLimitMs });
  await tasks.recover();
  const deps: Deps = { config, store, vocab, uris, tasks, pool, chem, renderPool };

  const router = new Router();
  registerService(router, deps, sparql);
  registerTasks(router, deps);
  registerDatasets(router, deps);
  registerCompounds(router, deps);
  registerAlgorithms(router, deps);
  registerModels(router, deps);
  registerDepiction(router, deps);
  registerValidation(router, deps);
  registerSparql(router, deps, sparql);
  // Last: the API description lists the routes registered before it.
  registerOpenApi(router, deps, access);

  const koa = new Koa();
  koa.use(securityHeaders(config.baseUrl));
  // CORS first after the security headers: a preflight is answered before access control
  koa.use(cors());
  koa.use(acceptParams());
  // gzip (or br) when Accept-Encoding asks, for bodies over 1 KiB. Answers held in memory (nearly
  // all) are compressed in one call by http/compress.ts; koa-compress only sees streamed bodies,
  // which stay streams. Not for server-sent events: a compressor holds back the events until its
  // buffer fills. Brotli at a low quality: Node's default (11) costs several times gzip's CPU.
  koa.use(compress({ threshold: 1024, filter: compressibleType, br: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } } }));
  koa.use(compressInMemory());
  koa.use(errorMiddleware(vocab));
  koa.use(conditional());
  koa.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) throw new NotFound(`no resource at ${ctx.path}`);
  });
  koa.use(accessMiddleware(access));
  koa.use(compoundMiddleware(deps));
  koa.use(allowedMethods(router));
  koa.use(router.routes());

  let server: Server | undefined;
  return {
    koa,
    router,
    deps,
    access,
    listen(): Promise<Server> {
      return new Promise((resolve) => {
        server = koa.listen(config.port, config.host, () => resolve(server!));
      });
    },
    async close(): Promise<void> {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server?.closeAllConnections();
      await pool.close();
      await chem.close();
      await renderPool.close();
      await sparql.close();
      await store.close();
    },
  };
}
