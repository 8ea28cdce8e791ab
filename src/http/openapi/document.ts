/**
 * The OpenAPI 3.1 description of the service (served at `GET /openapi.json`, built once at
 * start-up by routes/openapi.ts). It is written from what the service itself runs on, so that it
 * cannot drift from it:
 *
 * - the paths and methods: the router's routes (`router.stack`: path and methods of each), plus
 *   the routes a middleware serves (operations.ts marks them);
 * - the algorithms' routes: one GET and one POST per path and alias of each AlgorithmSpec in
 *   algorithms/index.ts;
 * - every body of parameters: the AlgorithmSpec the route checks it with (params-schema.ts);
 * - the paging parameters: http/paging.ts's PageSpecs; `?format=`: http/negotiate.ts's aliases
 *   of the media types a route answers;
 * - the error responses: the error classes (errors.ts: status and code) and the media types
 *   errors are negotiated among (error-response.ts), and those that follow from how a route
 *   answers: negotiation (400 for an unknown format, 406), RDF rendering (406 too large, 503),
 *   reading parameters (400, 413, 415), creating a task (503 with Retry-After for a full queue,
 *   507), access control with tokens (400 for a token in the URL, 401, 403 for a delete or cancel);
 * - security: the deployment's access policy (http/auth.ts).
 *
 * What cannot be read from the code — summaries, representations, bodies other than parameters,
 * the errors a route answers itself — is in operations.ts, one entry per route. A route without
 * an entry, or an entry without a route, is a problem the generator reports (and the unit test
 * fails on); the document still lists the route.
 */
import { ALGORITHMS } from "../../algorithms/index.ts";
import type { AlgorithmSpec } from "../../resources/algorithm.ts";
import {
  BadRequest,
  Conflict,
  Forbidden,
  InsufficientStorage,
  LengthRequired,
  NotAcceptable,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  Unauthorized,
  UnprocessableEntity,
  UnsupportedMediaType,
  type ServiceError,
} from "../../errors.ts";
import { ERROR_OFFERS } from "../error-response.ts";
import { COLUMNS } from "../html/dataset.ts";
import { FORMAT_ALIASES } from "../negotiate.ts";
import { ROWS, type PageSpec } from "../paging.ts";
import { RDF_TYPES } from "../render-rdf.ts";
import { algorithmOperations, ERROR_MEANINGS, OPERATIONS, PATH_PARAMETERS, TAGS, URI_LIST, type Answer, type ErrorStatus, type HeaderName, type OperationDoc } from "./operations.ts";
import { paramsSchema, type JsonSchema } from "./params-schema.ts";

/** A route as the router lists it (a Layer of @koa/router: its path and methods). */
export interface RouteEntry {
  /** A path (`/dataset/:id`), or a regular expression, which no OpenAPI path can stand for. */
  readonly path: string | RegExp;
  readonly methods: readonly string[];
}

export interface DocumentOptions {
  /** Where the service answers (BASE_URL). */
  readonly baseUrl: string;
  readonly version: string;
  /** With tokens, writes need one; with private reads, reads too (http/auth.ts). */
  readonly tokens: boolean;
  readonly privateReads: boolean;
}

export interface ApiDocument {
  readonly document: Record<string, unknown>;
  /** Routes without a description, descriptions without a route, path parameters without a description. */
  readonly problems: readonly string[];
}

type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
const METHODS: readonly Method[] = ["GET", "POST", "PUT", "DELETE", "PATCH"];

/** `/dataset/:id` (path-to-regexp) → `/dataset/{id}` (OpenAPI). */
export function openApiPath(routerPath: string): string {
  return routerPath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
}

/** The operations the router serves, as `METHOD /path` keys (HEAD goes with GET; OPTIONS is koa's). */
export function routeKeys(routes: readonly RouteEntry[]): string[] {
  const keys: string[] = [];
  for (const r of routes) {
    const path = typeof r.path === "string" ? openApiPath(r.path) : String(r.path);
    for (const m of r.methods) if ((METHODS as readonly string[]).includes(m)) keys.push(`${m} ${path}`);
  }
  return keys;
}

/** The error of each status (errors.ts): its code names the response (ot:errorCode too). */
const ERRORS: ReadonlyMap<ErrorStatus, ServiceError> = new Map(
  [
    new BadRequest(""),
    new Unauthorized(""),
    new Forbidden(""),
    new NotFound(""),
    new NotAcceptable([], ""),
    new Conflict(""),
    new LengthRequired(""),
    new PayloadTooLarge(""),
    new UnsupportedMediaType(""),
    new UnprocessableEntity(""),
    new ServiceUnavailable(""),
    new InsufficientStorage(""),
  ].map((e) => [e.status as ErrorStatus, e]),
);

/** The media types errors come in (a uri-list client gets text/plain). */
const ERROR_TYPES = ERROR_OFFERS.filter((t) => t !== URI_LIST);

/** The schema of a body of `type`. */
function bodySchema(type: string): JsonSchema {
  if (type === "application/problem+json") return { $ref: "#/components/schemas/Problem" };
  if (type === "application/ld+json" || type.endsWith("json")) return { type: "object" };
  return { type: "string" };
}

function content(types: readonly string[]): Record<string, { schema: JsonSchema }> {
  return Object.fromEntries(types.map((t) => [t, { schema: bodySchema(t) }]));
}

const HEADERS: Readonly<Record<HeaderName, Record<string, unknown>>> = {
  Location: { description: "The URI of the resource created, of the task that creates it, or of a completed task's result.", schema: { type: "string", format: "uri" } },
  Link: { description: "`<…/openapi.json>; rel=\"service-desc\"`: this API description (RFC 8631).", schema: { type: "string" } },
  ETag: { description: "The version of the representation (If-None-Match gets 304 while it holds). Every successful GET answered at once has one (a weak ETag: a hash of the representation); this document's is strong.", schema: { type: "string" } },
  "Retry-After": { description: "Seconds after which the request may succeed (a full task queue; the SPARQL time limit).", schema: { type: "integer", minimum: 0 } },
  "WWW-Authenticate": { description: "`Bearer realm=\"qsargraph\"` (with `error=\"invalid_token\"` for an unknown token).", schema: { type: "string" } },
};

function headers(names: readonly HeaderName[] | undefined): Record<string, unknown> | undefined {
  if (!names || names.length === 0) return undefined;
  return Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
}

function pageParameter(spec: PageSpec, which: "page" | "size"): Record<string, unknown> {
  const html = "HTML only: the other representations hold every item";
  return which === "page"
    ? { name: spec.pageParam, in: "query", description: `the page of ${spec.items} (from 1; past the last is a 400; ${html})`, schema: { type: "integer", minimum: 1, default: 1 } }
    : { name: spec.sizeParam, in: "query", description: `${spec.items} per page (${html})`, schema: { type: "integer", minimum: 1, maximum: spec.maxSize, default: spec.defaultSize } };
}

/** The `?format=` parameter of an operation that answers `types`: the aliases of those types. */
function formatParameter(types: readonly string[]): Record<string, unknown> | undefined {
  const aliases = Object.entries(FORMAT_ALIASES)
    .filter(([, t]) => types.includes(t))
    .map(([a]) => a);
  if (aliases.length === 0) return undefined;
  return {
    name: "format",
    in: "query",
    description: "the representation, instead of Accept (for browsers and links): the alias of one of the media types of the answer",
    schema: { type: "string", enum: aliases },
  };
}

/** `getDatasetIdFeatureName`: unique per method and path. */
function operationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const camel = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  return `${method.toLowerCase()}${camel || "Root"}`;
}

/** The spec of `/algorithm/{path}`, or undefined. */
function algorithmAt(path: string): { spec: AlgorithmSpec; path: string } | undefined {
  const m = /^\/algorithm\/(.+)$/.exec(path);
  if (!m) return undefined;
  for (const a of ALGORITHMS) if (a.spec.path === m[1] || a.spec.aliases.includes(m[1]!)) return { spec: a.spec, path: m[1]! };
  return undefined;
}

/** A component name for a spec's body of parameters. */
function paramsName(spec: AlgorithmSpec): string {
  return `params.${spec.path.replace(/[^A-Za-z0-9_-]+/g, ".")}`;
}

export function buildApiDocument(routes: readonly RouteEntry[], o: DocumentOptions): ApiDocument {
  const problems: string[] = [];
  for (const r of routes) if (typeof r.path !== "string") problems.push(`the route ${String(r.path)} is a regular expression: no OpenAPI path can describe it`);
  const served = routeKeys(routes.filter((r) => typeof r.path === "string"));
  const servedSet = new Set(served);
  for (const [key, op] of Object.entries(OPERATIONS)) {
    if (op.middleware) served.push(key);
    else if (!servedSet.has(key)) problems.push(`${key} is described in src/http/openapi/operations.ts but is no route of the router`);
  }

  const schemas: Record<string, JsonSchema> = {
    Problem: {
      type: "object",
      description: "An error report (RFC 9457), as every error can be had (Accept: application/problem+json).",
      required: ["type", "title", "status", "detail", "instance"],
      properties: {
        type: { type: "string" },
        title: { type: "string", description: "the error's code (ot:errorCode): BadRequest, NotFound, …" },
        status: { type: "integer" },
        detail: { type: "string", description: "what is wrong, naming the field, limit or option concerned" },
        instance: { type: "string" },
        line: { type: "integer", description: "the line of the input at fault" },
        column: { type: ["integer", "string"], description: "the column at fault" },
        field: { type: "string", description: "the parameter, field or header at fault" },
        causes: { type: "array", items: { $ref: "#/components/schemas/Problem" } },
      },
    },
  };
  const paramsRef = (spec: AlgorithmSpec): JsonSchema => {
    const name = paramsName(spec);
    schemas[name] ??= paramsSchema(spec);
    return { $ref: `#/components/schemas/${name}` };
  };

  const security = (op: OperationDoc, method: string): unknown[] | undefined => {
    if (!o.tokens) return undefined;
    const read = method === "GET" || op.read === true;
    return read && !o.privateReads ? [{}, { bearer: [] }] : [{ bearer: [] }];
  };

  /** Every error status of an operation: its own, and those that follow from how it answers. */
  const errorsOf = (op: OperationDoc): ErrorStatus[] => {
    const s = new Set<ErrorStatus>(op.errors);
    const types = op.answers.flatMap((a) => a.types);
    if (op.negotiated !== false) s.add(400).add(406);
    // RDF is written by http/render-rdf.ts (rdfReps: every RDF type): a large graph may be too large for a format, or wait too long.
    if (RDF_TYPES.every((t) => types.includes(t))) s.add(406).add(503);
    if (op.paramsOf) s.add(400).add(413).add(415);
    if (op.answers.some((a) => a.status === 202 && a.headers?.includes("Location"))) s.add(503).add(507);
    if (o.tokens) {
      s.add(400).add(401);
      if (op.owned) s.add(403);
    }
    return [...s].sort((a, b) => a - b);
  };

  const answer = (a: Answer): Record<string, unknown> => {
    const h = headers(a.headers);
    return { description: a.description, ...(h ? { headers: h } : {}), ...(a.types.length > 0 ? { content: content(a.types) } : {}) };
  };

  const operation = (method: string, path: string, op: OperationDoc): Record<string, unknown> => {
    const parameters: unknown[] = [];
    for (const p of op.paging ?? []) parameters.push({ $ref: `#/components/parameters/${p}` });
    for (const p of op.params ?? []) {
      parameters.push({ name: p.name, in: p.in, description: p.description, schema: p.schema, ...(p.required ? { required: true } : {}), ...(p.example !== undefined ? { example: p.example } : {}) });
    }
    if (op.negotiated !== false) {
      const f = formatParameter(op.answers.filter((a) => typeof a.status === "number" && a.status < 300).flatMap((a) => a.types));
      if (f) parameters.push(f);
    }
    const responses: Record<string, unknown> = {};
    for (const a of op.answers) responses[String(a.status)] = answer(a);
    // Conditional GET (http/conditional.ts): a 200 answered at once carries an ETag, and
    // If-None-Match with it gets 304 while it holds.
    const ok = op.answers.find((a) => a.status === 200);
    if (method === "GET" && ok) {
      responses["200"] = answer({ ...ok, headers: [...new Set([...(ok.headers ?? []), "ETag" as const])] });
      responses["304"] ??= { $ref: "#/components/responses/NotModified" };
      parameters.push({ $ref: "#/components/parameters/If-None-Match" });
    }
    for (const e of errorsOf(op)) responses[String(e)] ??= { $ref: `#/components/responses/${ERRORS.get(e)!.code}` };
    let requestBody: Record<string, unknown> | undefined;
    if (op.paramsOf) {
      const schema = paramsRef(op.paramsOf);
      requestBody = {
        description: "The parameters, as a form, multipart fields or a JSON object (they may also come in the query string). An empty value is no value: its default applies.",
        required: false,
        content: { "application/x-www-form-urlencoded": { schema }, "multipart/form-data": { schema }, "application/json": { schema } },
      };
    } else if (op.body) {
      requestBody = { description: op.body.description, required: op.body.required, content: op.body.content };
    }
    const sec = security(op, method);
    return {
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      operationId: operationId(method, path),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
      ...(sec ? { security: sec } : {}),
    };
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const key of served) {
    const [method, path] = key.split(" ") as [string, string];
    const alg = algorithmAt(path);
    let op: OperationDoc | undefined = alg && (method === "GET" || method === "POST") ? algorithmOperations(alg.spec, alg.path)[method] : OPERATIONS[key];
    if (!op) {
      problems.push(`${key} is a route of the router without a description in src/http/openapi/operations.ts`);
      op = { tag: "Service", summary: "(not described)", answers: [], errors: [] };
    }
    const item = (paths[path] ??= {});
    const names = [...path.matchAll(/\{([^}]+)\}/g)];
    if (names.length > 0 && item.parameters === undefined) {
      item.parameters = names.map((m) => {
        const upTo = path.slice(0, m.index! + m[0].length);
        const p = PATH_PARAMETERS[upTo];
        if (!p) problems.push(`the path parameter ${upTo} has no description in src/http/openapi/operations.ts`);
        return { name: m[1], in: "path", required: true, description: p?.description ?? m[1], schema: p?.schema ?? { type: "string" } };
      });
    }
    item[method.toLowerCase()] = operation(method, path, op);
  }

  const responses: Record<string, unknown> = {};
  for (const [status, e] of [...ERRORS].sort(([a], [b]) => a - b)) {
    const h = status === 401 ? headers(["WWW-Authenticate"]) : status === 503 ? headers(["Retry-After"]) : undefined;
    responses[e.code] = { description: `${status} ${e.code}: ${ERROR_MEANINGS[status]}`, ...(h ? { headers: h } : {}), content: content(ERROR_TYPES) };
  }

  const access = !o.tokens
    ? "This deployment has no API tokens: nothing needs one (it serves a loopback interface, or was started with --open)."
    : `This deployment has API tokens: every write needs one (Authorization: Bearer <token>, or an HTML form's api_token field)${o.privateReads ? ", and so does every read" : "; reads are public"}. A DELETE or a task's cancel needs the token that created the resource, or an admin token.`;
  const document = {
    openapi: "3.1.0",
    info: {
      title: "qsargraph",
      version: o.version,
      summary: "QSAR modelling as linked data: datasets, descriptors, substructure mining, lazar models, cross-validation",
      description: [
        "Every resource is served as RDF (Turtle, N-Triples, JSON-LD, RDF/XML), HTML and, where it fits, text/uri-list, CSV or chemical formats: choose with Accept, or with ?format=.",
        "A long operation answers 202 with a task's URI (body and Location): poll the task (GET /task/{id} with Accept: text/uri-list) until its body is no longer its own URI: then it is the result's URI (200), or the error report (the error's status).",
        "Every error is a report naming the field, limit or option at fault, as text/plain, application/problem+json, RDF or HTML.",
        "HTTP for generic clients: every answer allows any origin (CORS: Access-Control-Allow-Origin: *; a preflight gets 204); Accept parameters other than q are ignored; a successful GET answered at once has a weak ETag (If-None-Match with it → 304 Not Modified); tasks say Cache-Control: no-cache; Accept-Encoding: gzip or br compresses answers over 1 KiB; a method a path does not have → 405 with Allow; OPTIONS on any resource → 204 with Allow.",
        access,
        "The README of the service says more; docs/opentox-api.md the OpenTox 1.1 conventions it keeps.",
      ].join("\n\n"),
      license: { name: "GPL-3.0-or-later", identifier: "GPL-3.0-or-later" },
    },
    servers: [{ url: o.baseUrl }],
    tags: TAGS,
    paths,
    components: {
      schemas,
      parameters: {
        page: pageParameter(ROWS, "page"),
        page_size: pageParameter(ROWS, "size"),
        column_page: pageParameter(COLUMNS, "page"),
        column_page_size: pageParameter(COLUMNS, "size"),
        "If-None-Match": { name: "If-None-Match", in: "header", required: false, description: "ETags of representations the client holds: while one is current the answer is 304 without a body (RFC 9110 §13.1.2).", schema: { type: "string" } },
      },
      responses: { NotModified: { description: "304 Not Modified: the representation the client holds (If-None-Match) is current; no body.", headers: headers(["ETag"]) }, ...responses },
      headers: HEADERS,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An API token of the service (README \"Access control\"). " + access },
      },
    },
  };
  return { document, problems };
}
