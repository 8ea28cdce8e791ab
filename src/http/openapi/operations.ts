/**
 * What the API description says about each route that cannot be read from the code: a summary,
 * the representations of its answers, its request bodies, its query parameters and the errors
 * it may answer. One entry per route of the router (`"GET /dataset/{id}"`, in OpenAPI's path
 * syntax), plus the routes a middleware serves (the compound URIs, whose InChI holds slashes).
 * The algorithms' routes are not here: the generator (document.ts) writes them from their
 * AlgorithmSpecs, as it writes every parameter schema, the access rules, and the errors that
 * follow from how a route answers (negotiation, RDF rendering, reading parameters, tasks).
 *
 * A route added to the router without an entry here is reported by the generator and fails
 * test/unit/http/openapi/document.test.ts; so does an entry whose route is gone.
 */
import { SDF_TYPES } from "../../tabular/format.ts";
import { PC_OF_RESOURCE } from "../../algorithms/descriptors/spec.ts";
import { CROSSVALIDATION } from "../../algorithms/crossvalidation/spec.ts";
import { REPORT } from "../../algorithms/crossvalidation/report.ts";
import { PREDICT, PREDICT_WITH_MODEL } from "../../algorithms/lazar/spec.ts";
import type { AlgorithmSpec } from "../../resources/algorithm.ts";
import { GRAPH_FORMATS, SOLUTION_FORMATS } from "../../store/sparql-syntax.ts";
import { DEPICTION_SIZE } from "../../chem/structure.ts";
import { RDF_TYPES } from "../render-rdf.ts";
import { MAX_SPARQL_BODY_BYTES } from "../routes/sparql.ts";
import type { JsonSchema } from "./params-schema.ts";

export const RDF: readonly string[] = RDF_TYPES;
export const HTML = "text/html";
export const URI_LIST = "text/uri-list";
export const PLAIN = "text/plain";
export const CSV = "text/csv";

/** The media types of the API description itself (routes/openapi.ts), the default first. */
export const OPENAPI_TYPES: readonly string[] = ["application/json", "application/openapi+json", "application/vnd.oai.openapi+json"];

export type Tag = "Service" | "Datasets" | "Compounds" | "Algorithms" | "Models" | "Validation" | "Tasks" | "SPARQL";

export const TAGS: readonly { readonly name: Tag; readonly description: string }[] = [
  { name: "Service", description: "The service description, its vocabulary and this API description." },
  { name: "Datasets", description: "CSV uploads: compounds with measured values, and the feature datasets computed from them." },
  { name: "Compounds", description: "Compounds by standard InChI: structures, depictions, descriptors of one compound." },
  { name: "Algorithms", description: "Miners, descriptors, feature selection and lazar: each described by its parameters; a POST runs it as a task." },
  { name: "Models", description: "lazar models and their predictions." },
  { name: "Validation", description: "Cross-validations of lazar and their reports." },
  { name: "Tasks", description: "Long operations: poll a task until it has a result." },
  { name: "SPARQL", description: "Read-only SPARQL 1.1 over every graph." },
];

/** Headers an answer may carry (components/headers of the document). */
export type HeaderName = "Location" | "Link" | "ETag" | "Retry-After" | "WWW-Authenticate";

/** An answer that is not an error. */
export interface Answer {
  /** A status, or a class of them (a failed task answers with its error's own status). */
  readonly status: 200 | 201 | 202 | 204 | 304 | "4XX" | "5XX";
  readonly description: string;
  /** Media types of the body, the default (no Accept, or `*\/*`) first; none: no body. */
  readonly types: readonly string[];
  readonly headers?: readonly HeaderName[];
}

/** The error statuses of the service (errors.ts), each a response of the document. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 406 | 409 | 411 | 413 | 415 | 422 | 503 | 507;

/** A query or header parameter. */
export interface ParamDoc {
  readonly name: string;
  readonly in: "query" | "header";
  readonly description: string;
  readonly schema: JsonSchema;
  readonly required?: boolean;
  /** An example value (a generic client, or the test, can send it). */
  readonly example?: string;
}

/** A request body: its media types with their schemas. */
export interface BodyDoc {
  readonly description: string;
  readonly required: boolean;
  readonly content: Readonly<Record<string, { readonly schema: JsonSchema; readonly encoding?: Readonly<Record<string, { readonly contentType: string }>> }>>;
}

export interface OperationDoc {
  readonly tag: Tag;
  readonly summary: string;
  readonly description?: string;
  readonly answers: readonly Answer[];
  /** Errors the route itself answers; the generator adds those of negotiation, RDF, parameters, tasks and access. */
  readonly errors: readonly ErrorStatus[];
  /** Shared query parameters (paging: http/paging.ts) by name. */
  readonly paging?: readonly ("page" | "page_size" | "column_page" | "column_page_size")[];
  readonly params?: readonly ParamDoc[];
  /** A body of an algorithm's parameters, checked against this spec (resources/params.ts). */
  readonly paramsOf?: AlgorithmSpec;
  readonly body?: BodyDoc;
  /** The answer is negotiated (Accept, `?format=`: http/negotiate.ts); default true. */
  readonly negotiated?: boolean;
  /** A POST that only reads (SPARQL): public like a GET (http/auth.ts). */
  readonly read?: boolean;
  /** A DELETE of something with a creator: with tokens, only its creator or an admin (403). */
  readonly owned?: boolean;
  /** Served by a middleware of app.ts, not by a route of the router. */
  readonly middleware?: boolean;
}

const TASK_CREATED: Answer = {
  status: 202,
  description: "A task was created: its URI is the body and the Location. Poll it (GET /task/{id}) until it answers 200 with the result's URI.",
  types: [URI_LIST, ...RDF, HTML],
  headers: ["Location"],
};

/** A collection's members: a uri-list by default, RDF (`rdfs:member`), or an HTML page. */
function collection(what: string): Answer {
  return { status: 200, description: `The ${what}: their URIs (uri-list), as RDF, or a page of them (HTML, paged).`, types: [URI_LIST, ...RDF, HTML] };
}

const DELETED: Answer = { status: 200, description: "Deleted: the URI of what was deleted (uri-list), or a line saying so.", types: [PLAIN, URI_LIST] };

const ID_GET: ErrorStatus[] = [404];

/** The sort of a collection's HTML list (html/list.ts): `sort` (one of `keys`) and `order`. */
function sortParams(keys: readonly string[]): ParamDoc[] {
  return [
    { name: "sort", in: "query", description: "the HTML list's order: by this column (default: date, newest first; without `order`, text sorts A→Z, dates newest first, sizes largest first)", schema: { type: "string", enum: [...keys] } },
    { name: "order", in: "query", description: "the HTML list's direction", schema: { type: "string", enum: ["asc", "desc"] } },
  ];
}

/** The compound search of GET /compound (http/routes/compound-search.ts). */
const COMPOUND_SEARCH_PARAMS: readonly ParamDoc[] = [
  { name: "q", in: "query", description: "find compounds by a SMILES (any spelling), a standard InChI, an InChIKey or a name a dataset gives them", schema: { type: "string", minLength: 1, maxLength: 4000 } },
  { name: "substructure", in: "query", description: "find the stored compounds containing a SMILES or SMARTS pattern (the miners' subset; at most 200 characters and 40 atoms)", schema: { type: "string", minLength: 1, maxLength: 200 } },
];

/** The predict routes: POST /model/{id}, and POST /model with model_uri. */
function PREDICTING(summary: string, errors: readonly ErrorStatus[], spec: AlgorithmSpec = PREDICT): OperationDoc {
  return {
    tag: "Models",
    summary,
    description:
      "Give exactly one of compound_uri, dataset_uri, structure, or (multipart/form-data) a CSV or SD file in the part 'file', read by the rules and limits of POST /dataset. One structure (one line) is stored as a compound and predicted at once, like compound_uri; several lines, or a file, become a dataset that is predicted in a task. A line of structure that cannot be read is refused (400 naming the line) and nothing is stored. A browser's form (Accept text/html) is answered 303 See Other to the prediction or the task.",
    answers: [
      { status: 201, description: "compound_uri or one structure: the prediction dataset's URI (body and Location).", types: [URI_LIST, PLAIN], headers: ["Location"] },
      { status: 200, description: "compound_uri (or one structure) predicted before with this model, by the same token (or without tokens), and still stored: that prediction dataset's URI.", types: [URI_LIST, PLAIN] },
      { ...TASK_CREATED, description: `dataset_uri, several structures or a file: ${TASK_CREATED.description}` },
    ],
    errors: [...errors, 411, 422, 503, 507],
    paramsOf: spec,
  };
}

const SPARQL_PARAMS: readonly ParamDoc[] = [
  {
    name: "default-graph-uri",
    in: "query",
    description: "a graph to make part of the default graph (repeatable; replaces the query's FROM); without it and FROM the default graph is the union of all graphs",
    schema: { type: "array", items: { type: "string" } },
  },
  {
    name: "named-graph-uri",
    in: "query",
    description: "a graph to make a named graph of the dataset (repeatable; replaces FROM NAMED)",
    schema: { type: "array", items: { type: "string" } },
  },
];

/** A SELECT that every store answers (the test and a generic client can send it). */
export const SPARQL_EXAMPLE = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }";

const SPARQL_RESULTS = `SELECT and ASK answer ${SOLUTION_FORMATS.join(", ")}; CONSTRUCT and DESCRIBE answer ${GRAPH_FORMATS.join(", ")}; Accept: application/json gets SPARQL JSON results (application/sparql-results+json) for SELECT and ASK, JSON-LD (application/ld+json) for CONSTRUCT and DESCRIBE.`;

const STRUCTURE_TYPES = ["chemical/x-daylight-smiles", "chemical/x-inchi", "chemical/x-mdl-molfile", PLAIN];

/** The entries, keyed `METHOD /path` (OpenAPI path syntax). */
export const OPERATIONS: Readonly<Record<string, OperationDoc>> = {
  "GET /": {
    tag: "Service",
    summary: "The service description",
    description: "What the service holds and serves: its collections, SPARQL endpoint, vocabulary, this API description (qg:apiDescription, and the Link header with rel service-desc) and the store's figures.",
    answers: [{ status: 200, description: "The service (RDF), its home page (HTML), or its collections (uri-list).", types: [...RDF, HTML, URI_LIST], headers: ["Link"] }],
    errors: [],
  },
  "GET /.well-known/void": {
    tag: "Service",
    summary: "The VoID description of the service's data",
    description: "A void:Dataset of everything the service holds (VoID §7.2): its SPARQL endpoint, URI space, vocabularies, size in triples and the classes of its main resources.",
    answers: [{ status: 200, description: "The description (RDF).", types: [...RDF] }],
    errors: [],
  },
  "GET /ontology": {
    tag: "Service",
    summary: "The vocabulary the service adds to OpenTox 1.1",
    answers: [{ status: 200, description: "ontology/qsargraph.ttl, resolved against this service's base URL.", types: [...RDF, URI_LIST, HTML] }],
    errors: [],
  },
  "GET /ontology/context.jsonld": {
    tag: "Service",
    summary: "The JSON-LD context of the service's JSON representations",
    answers: [{ status: 200, description: "The context (its prefixes).", types: ["application/ld+json", "application/json"] }],
    errors: [],
  },
  "GET /static/{name}": {
    tag: "Service",
    summary: "A script of the HTML pages",
    description: "The pages' own browser scripts (live depiction, forms, following a task), cached for a day. The pages work without them.",
    answers: [{ status: 200, description: "The script.", types: ["text/javascript"] }],
    errors: [404],
    negotiated: false,
  },
  "GET /favicon.ico": {
    tag: "Service",
    summary: "No icon (browsers ask for one)",
    answers: [{ status: 204, description: "No content.", types: [] }],
    errors: [],
    negotiated: false,
  },
  "GET /openapi.json": {
    tag: "Service",
    summary: "This API description (OpenAPI 3.1)",
    description: "Built once when the service starts, from the same parameter specifications the service checks requests with, and from its routes. It describes this deployment: its base URL, and whether a token is needed.",
    answers: [
      { status: 200, description: "The OpenAPI document.", types: OPENAPI_TYPES, headers: ["ETag"] },
      { status: 304, description: "The copy of the client (If-None-Match) is current.", types: [], headers: ["ETag"] },
    ],
    errors: [],
  },

  "GET /task": {
    tag: "Tasks",
    summary: "Every task",
    description: "The HTML page lists the newest first.",
    answers: [collection("tasks")],
    errors: [],
    paging: ["page", "page_size"],
    params: [...sortParams(["date", "title", "status"])],
  },
  "GET /task/{id}": {
    tag: "Tasks",
    summary: "A task: its state, progress and result",
    description:
      "The status code follows the task's state: 202 while it is queued or running, 200 once it completed (the uri-list body is then the result's URI, also the Location), the status of its error when it failed (a uri-list or plain-text client gets the error report as text), 503 when it was cancelled. text/event-stream sends a progress event on every change and a final status event.",
    answers: [
      { status: 200, description: "Completed: the uri-list body is the result's URI, also the Location (except for text/event-stream).", types: [URI_LIST, ...RDF, HTML, PLAIN, "application/problem+json", "text/event-stream"], headers: ["Location"] },
      { status: 202, description: "Queued or running: the uri-list body is the task's own URI.", types: [URI_LIST, ...RDF, HTML, PLAIN, "application/problem+json"] },
      { status: "4XX", description: "The task failed with this status: its error report.", types: [PLAIN, ...RDF, HTML, "application/problem+json"] },
      { status: "5XX", description: "The task failed with this status, or was cancelled (503): its error report.", types: [PLAIN, ...RDF, HTML, "application/problem+json"] },
    ],
    errors: ID_GET,
  },
  "DELETE /task/{id}": {
    tag: "Tasks",
    summary: "Cancel a task",
    description: "Cancels a queued or running task; the answer is the task's state after the cancel. A finished task is left as it is: 409, its state conflicts with a cancel.",
    answers: [{ status: 200, description: "The task (uri-list or RDF).", types: [URI_LIST, ...RDF] }],
    errors: [404, 409, 507],
    owned: true,
  },

  "GET /dataset": {
    tag: "Datasets",
    summary: "Every dataset",
    answers: [collection("datasets")],
    errors: [],
    paging: ["page", "page_size"],
    params: [...sortParams(["date", "title", "size"])],
  },
  "POST /dataset": {
    tag: "Datasets",
    summary: "Upload a CSV or SD file: a task whose result is the dataset",
    description:
      "The CSV and SDF rules (separator, structure column, SD tags, typing, warnings by line or record) are in the README, \"Datasets\". Any other format is refused with 415 naming the supported ones. The size, rows, columns and triples of an upload are checked before the task is created (413 naming the limit).",
    answers: [TASK_CREATED],
    errors: [400, 411, 413, 415, 503, 507],
    params: [
      { name: "filename", in: "query", description: "the file name of a raw body (else its Content-Disposition's)", schema: { type: "string", maxLength: 1000 } },
      { name: "Content-Disposition", in: "header", description: "the file name of a raw body: attachment; filename=\"…\"", schema: { type: "string" } },
    ],
    body: {
      description: "The file: the multipart field 'file' (with up to 8 small text fields: an HTML form's api_token), or the file itself as the body (text/csv, or an SD file as chemical/x-mdl-sdfile or chemical/x-mdl-molfile; the body may be chunked).",
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            required: ["file"],
            properties: {
              file: { type: "string", contentMediaType: "text/csv", description: "the CSV file, or an SD file (its part's Content-Type chemical/x-mdl-sdfile, or a name ending in .sdf)" },
              api_token: { type: "string", writeOnly: true, description: "an HTML form's API token" },
            },
          },
          encoding: { file: { contentType: "text/csv, chemical/x-mdl-sdfile, chemical/x-mdl-molfile, application/octet-stream" } },
        },
        "text/csv": { schema: { type: "string", contentMediaType: "text/csv" } },
        ...Object.fromEntries(SDF_TYPES.map((t) => [t, { schema: { type: "string", contentMediaType: t } }])),
      },
    },
  },
  "GET /dataset/{id}": {
    tag: "Datasets",
    summary: "A dataset",
    description: "RDF in the OpenTox 1.1 shape; CSV in the order of the uploaded file (streamed); its compounds (uri-list); an HTML table paged by rows and by columns, at most 25,000 cells a page.",
    answers: [{ status: 200, description: "The dataset.", types: [...RDF, HTML, CSV, URI_LIST] }],
    errors: ID_GET,
    paging: ["page", "page_size", "column_page", "column_page_size"],
  },
  "DELETE /dataset/{id}": {
    tag: "Datasets",
    summary: "Delete a dataset",
    description: "A dataset that a model was built from (training or feature dataset) stays while the model exists (409).",
    answers: [DELETED],
    errors: [404, 409, 507],
    owned: true,
  },
  "GET /dataset/{id}/compounds": {
    tag: "Datasets",
    summary: "A dataset's compounds, in the order of their first line",
    answers: [{ status: 200, description: "Compound URIs.", types: [URI_LIST] }],
    errors: ID_GET,
  },
  "GET /dataset/{id}/features": {
    tag: "Datasets",
    summary: "A dataset's features",
    answers: [{ status: 200, description: "Feature URIs.", types: [URI_LIST] }],
    errors: ID_GET,
  },
  "GET /dataset/{id}/feature/{name}": {
    tag: "Datasets",
    summary: "A feature of a dataset",
    description:
      "A substructure mined by BBRC or LAST-PM (a feature with ot:smarts) is also served as a picture: image/svg+xml (Accept, or ?format=svg; width and height in pixels), its atoms and bonds highlighted; any other feature answers that with 406. Its HTML page says what the pattern means: the p-value of the miner's test and the class it is more frequent in.",
    answers: [{ status: 200, description: "The feature: its title, types, accepted values and source.", types: [...RDF, HTML, URI_LIST] }],
    errors: [404, 406, 422, 503],
    params: (["width", "height"] as const).map((name) => ({
      name,
      in: "query" as const,
      description: `the picture's ${name} in pixels (image/svg+xml of a substructure only)`,
      schema: { type: "integer", minimum: DEPICTION_SIZE.min, maximum: DEPICTION_SIZE.max, default: name === "width" ? 240 : 160 },
    })),
  },
  "POST /dataset/{id}/pc": {
    tag: "Datasets",
    summary: "Physico-chemical descriptors of a dataset's compounds: a task whose result is a feature dataset",
    answers: [TASK_CREATED],
    errors: [404],
    paramsOf: PC_OF_RESOURCE,
  },

  "GET /compound": {
    tag: "Compounds",
    summary: "Every compound the service has stored, or those a search finds",
    description: "With `q` (a SMILES, InChI, InChIKey or name) or `substructure` (a SMILES or SMARTS pattern): the compounds found (README \"Finding compounds\"); one stored compound found by `q` answers 303 See Other to it (Location), as a browser's form POST does.",
    answers: [collection("compounds")],
    errors: [400, 503],
    paging: ["page", "page_size"],
    params: [...sortParams(["inchi"]), ...COMPOUND_SEARCH_PARAMS],
  },
  "POST /compound": {
    tag: "Compounds",
    summary: "A structure's compound URI (stored if new)",
    description: "The structure is read in a worker (RDKit), identified by its standard InChI, and stored if the service did not know it.",
    answers: [
      { status: 201, description: "A new compound: its URI (body and Location).", types: [URI_LIST, PLAIN], headers: ["Location"] },
      { status: 200, description: "A known compound: its URI (body and Location).", types: [URI_LIST, PLAIN], headers: ["Location"] },
    ],
    errors: [400, 413, 415, 422, 503, 507],
    body: {
      description: "One structure: a SMILES, a standard InChI or a molfile (at most 1 MiB; structure limits: README \"Structure limits\").",
      required: true,
      content: Object.fromEntries(STRUCTURE_TYPES.map((t) => [t, { schema: { type: "string", minLength: 1 } }])),
    },
  },
  "GET /compound/{inchi}": {
    tag: "Compounds",
    summary: "A compound, by its standard InChI",
    description:
      "A compound the service has not stored is read from its InChI (decoded to a structure and accepted only when RDKit gives the same InChI back): served, not stored. The SMILES, molfile and SVG representations need a structure, which every stored compound has.",
    answers: [{ status: 200, description: "The compound.", types: [...RDF, HTML, "chemical/x-inchi", URI_LIST, "chemical/x-daylight-smiles", "chemical/x-mdl-molfile", "image/svg+xml"] }],
    errors: [404, 422, 503],
    params: (["width", "height"] as const).map((name) => ({
      name,
      in: "query" as const,
      description: `the depiction's ${name} in pixels (image/svg+xml only)`,
      schema: { type: "integer", minimum: DEPICTION_SIZE.min, maximum: DEPICTION_SIZE.max, default: name === "width" ? 300 : 200 },
    })),
    middleware: true,
  },
  "POST /compound/{inchi}/pc": {
    tag: "Compounds",
    summary: "Physico-chemical descriptors of one compound: a feature dataset, made at once",
    answers: [{ status: 201, description: "The feature dataset's URI (body and Location).", types: [URI_LIST, PLAIN], headers: ["Location"] }],
    errors: [404, 422, 503, 507],
    paramsOf: PC_OF_RESOURCE,
    middleware: true,
  },

  "GET /algorithm": {
    tag: "Algorithms",
    summary: "Every algorithm",
    answers: [collection("algorithms")],
    errors: [],
  },
  "GET /algorithm/pc": {
    tag: "Algorithms",
    summary: "Every physico-chemical descriptor, with its pc_type, lib and value names",
    answers: [{ status: 200, description: "The descriptors.", types: [...RDF, HTML, URI_LIST] }],
    errors: [],
  },

  "GET /algorithm/pc/{name}": {
    tag: "Algorithms",
    summary: "One physico-chemical descriptor of /algorithm/pc, with its pc_type, lib and value names",
    description: "Computed with /algorithm/pc/AllDescriptors (by pc_type and lib), as the descriptor's own IRI is described and not run.",
    answers: [{ status: 200, description: "The descriptor.", types: [...RDF, HTML, URI_LIST] }],
    errors: [404],
  },

  "GET /model": {
    tag: "Models",
    summary: "Every model",
    answers: [collection("models")],
    errors: [],
    paging: ["page", "page_size"],
    params: [...sortParams(["date", "title", "size", "endpoint", "algorithm"])],
  },
  "GET /model/{id}": {
    tag: "Models",
    summary: "A model",
    answers: [{ status: 200, description: "The model record (RDF), or its page with a form that predicts (HTML).", types: [...RDF, HTML, URI_LIST] }],
    errors: ID_GET,
  },
  "POST /model/{id}": PREDICTING("Predict a compound, structures (answered at once when one) or a dataset or file (a task)", [404]),
  "POST /model": PREDICTING("Predict with the model chosen by model_uri (the predict box of a page that offers several models)", [], PREDICT_WITH_MODEL),
  "DELETE /model/{id}": {
    tag: "Models",
    summary: "Delete a model",
    answers: [DELETED],
    errors: [404, 507],
    owned: true,
  },
  "GET /model/{id}/predicted/value": {
    tag: "Models",
    summary: "The feature under which a model's predictions are written",
    answers: [{ status: 200, description: "The feature (RDF), or a page saying what it is (HTML).", types: [...RDF, HTML, URI_LIST] }],
    errors: ID_GET,
  },
  "GET /model/{id}/predicted/confidence": {
    tag: "Models",
    summary: "The feature under which a model's confidences are written",
    answers: [{ status: 200, description: "The feature (RDF), or a page saying what it is (HTML).", types: [...RDF, HTML, URI_LIST] }],
    errors: ID_GET,
  },
  "GET /depiction": {
    tag: "Compounds",
    summary: "The drawing of a structure given as text (the predict box's live drawing)",
    description: "Nothing is stored. The text is measured against the structure limits before it is read (README \"Structure limits\"); one that is not a structure answers 422.",
    answers: [{ status: 200, description: "The drawing.", types: ["image/svg+xml"] }],
    errors: [400, 413, 422, 503],
    params: [
      { name: "smiles", in: "query", required: true, description: "the SMILES (or standard InChI) to draw", schema: { type: "string", minLength: 1 }, example: "c1ccccc1NN" },
      { name: "highlight", in: "query", description: "a SMARTS whose first match is highlighted (atoms and bonds)", schema: { type: "string", maxLength: 2000 } },
      ...(["width", "height"] as const).map((name) => ({
        name,
        in: "query" as const,
        description: `the drawing's ${name} in pixels`,
        schema: { type: "integer", minimum: DEPICTION_SIZE.min, maximum: DEPICTION_SIZE.max, default: name === "width" ? 300 : 200 },
      })),
    ],
  },

  "GET /validation": {
    tag: "Validation",
    summary: "Every cross-validation and report",
    answers: [collection("cross-validations and reports")],
    errors: [],
    paging: ["page", "page_size"],
    params: [...sortParams(["date", "title", "size", "result"])],
  },
  "GET /validation/crossvalidation": {
    tag: "Validation",
    summary: "Every cross-validation",
    answers: [collection("cross-validations")],
    errors: [],
    paging: ["page", "page_size"],
    params: [...sortParams(["date", "title", "size", "result"])],
  },
  "POST /validation/crossvalidation": {
    tag: "Validation",
    summary: "Cross-validate lazar: a task whose result is the cross-validation",
    answers: [TASK_CREATED],
    errors: [],
    paramsOf: CROSSVALIDATION,
  },
  "GET /validation/crossvalidation/{id}": {
    tag: "Validation",
    summary: "A cross-validation",
    answers: [{ status: 200, description: "Its parameters, pooled statistics and every prediction (RDF), or its report (HTML; the predictions a page at a time).", types: [...RDF, HTML, URI_LIST] }],
    errors: ID_GET,
    paging: ["page", "page_size"],
  },
  "DELETE /validation/crossvalidation/{id}": {
    tag: "Validation",
    summary: "Delete a cross-validation",
    answers: [DELETED],
    errors: [404, 507],
    owned: true,
  },
  "POST /validation/report/crossvalidation": {
    tag: "Validation",
    summary: "A report of one or more cross-validations: a task whose result is the report",
    answers: [TASK_CREATED],
    errors: [],
    paramsOf: REPORT,
  },
  "GET /validation/report/crossvalidation/{id}": {
    tag: "Validation",
    summary: "A cross-validation report",
    answers: [{ status: 200, description: "The report: the cross-validations it shows (RDF), or the report itself (HTML; of several, their comparison first; the predictions a page at a time).", types: [...RDF, HTML, URI_LIST] }],
    errors: ID_GET,
    paging: ["page", "page_size"],
  },
  "DELETE /validation/report/crossvalidation/{id}": {
    tag: "Validation",
    summary: "Delete a report",
    answers: [DELETED],
    errors: [404, 507],
    owned: true,
  },

  "GET /sparql": {
    tag: "SPARQL",
    summary: "A SPARQL query (SPARQL 1.1 Protocol, query operation)",
    description: `Without a query, a browser (Accept: text/html) gets a form, a client that takes RDF the SPARQL 1.1 Service Description of the endpoint (Turtle by default), any other client a 400. ${SPARQL_RESULTS} A query that cannot start or end within the time limit is refused with 503 and Retry-After.`,
    answers: [{ status: 200, description: "The query's result (or the form, or the service description).", types: [...SOLUTION_FORMATS, ...GRAPH_FORMATS, HTML] }],
    errors: [400, 503],
    params: [{ name: "query", in: "query", description: "the query (read-only: an update is a 400)", schema: { type: "string" }, example: SPARQL_EXAMPLE }, ...SPARQL_PARAMS],
  },
  "POST /sparql": {
    tag: "SPARQL",
    summary: "A SPARQL query sent in the body",
    description: `${SPARQL_RESULTS} application/sparql-update is refused (400: read-only). A query that cannot start or end within the time limit is refused with 503 and Retry-After.`,
    answers: [{ status: 200, description: "The query's result.", types: [...SOLUTION_FORMATS, ...GRAPH_FORMATS] }],
    errors: [400, 413, 415, 503],
    params: SPARQL_PARAMS,
    body: {
      description: `The query: a form field 'query', or the query itself (at most ${MAX_SPARQL_BODY_BYTES} bytes, UTF-8).`,
      required: true,
      content: {
        "application/x-www-form-urlencoded": {
          schema: {
            type: "object",
            required: ["query"],
            properties: {
              query: { type: "string", description: "the query" },
              "default-graph-uri": { type: "array", items: { type: "string" } },
              "named-graph-uri": { type: "array", items: { type: "string" } },
            },
          },
        },
        "application/sparql-query": { schema: { type: "string", minLength: 1 } },
      },
    },
    read: true,
  },
};

/** Path parameters, keyed by the path up to and including the parameter. */
export const PATH_PARAMETERS: Readonly<Record<string, { readonly description: string; readonly schema: JsonSchema }>> = {
  "/dataset/{id}": { description: "a dataset's id (the last segment of its URI)", schema: { type: "string" } },
  "/dataset/{id}/feature/{name}": { description: "the feature's name, as the last segment of its URI (percent-encoded; the names . and .. are written (.) and (..))", schema: { type: "string" } },
  "/algorithm/pc/{name}": { description: "a descriptor's id, as /algorithm/pc lists it", schema: { type: "string" } },
  "/task/{id}": { description: "a task's id", schema: { type: "string" } },
  "/static/{name}": { description: "a script's file name", schema: { type: "string" } },
  "/model/{id}": { description: "a model's id", schema: { type: "string" } },
  "/validation/crossvalidation/{id}": { description: "a cross-validation's id", schema: { type: "string" } },
  "/validation/report/crossvalidation/{id}": { description: "a report's id", schema: { type: "string" } },
  "/compound/{inchi}": {
    description: "the compound's standard InChI (InChI=1S/…), percent-encoded as one segment; the service also takes it unencoded, as its own compound URIs write it (a ? of an undefined stereo centre then as %3F)",
    schema: { type: "string", pattern: "^InChI(=|%3D)" },
  },
};

/** What each error status means (README "Errors"). */
export const ERROR_MEANINGS: Readonly<Record<ErrorStatus, string>> = {
  400: "A parameter or input is wrong (empty, out of range, repeated, unknown, a bad row or page): the report names the field.",
  401: "A token is needed and missing, not 'Bearer <token>', or unknown (README \"Access control\").",
  403: "The token is valid, but neither the creator's of the resource nor an admin token.",
  404: "No such resource (or it is still being written).",
  406: "No representation fits Accept (or ?format=), or the resource is too large for the format asked: the report lists the media types that are available.",
  409: "The resource's state conflicts with the request: it is still in use (a dataset a model was built from), or a task to cancel has already finished.",
  411: "A multipart body without Content-Length.",
  413: "A body or structure past a limit (upload bytes, rows, columns or triples; parameters' body; structure size): the report names the limit and its option.",
  415: "A body of a media type the route does not take: the report lists those it takes.",
  422: "A structure that cannot be read.",
  503: "The service is busy: the task queue is full or a SPARQL query waited or ran past its time limit (both with Retry-After), or a large render or a structure job waited or ran too long.",
  507: "The disk or the in-memory store cannot take the change: nothing of it was stored.",
};

/**
 * The two routes of an algorithm at `/algorithm/{path}` (and at each alias): GET describes it
 * (ot:Algorithm with its ot:Parameters; HTML with a form that runs it), POST runs it as a task.
 */
export function algorithmOperations(spec: AlgorithmSpec, path: string): { readonly GET: OperationDoc; readonly POST: OperationDoc } {
  const alias = path === spec.path ? "" : ` The same as /algorithm/${spec.path} (an OpenTox 1.1 path).`;
  return {
    GET: {
      tag: "Algorithms",
      summary: `${spec.title}: what it does and its parameters`,
      description: `${spec.description}${alias}`,
      answers: [{ status: 200, description: "The algorithm and its parameters (ot:Algorithm, ot:Parameters with their defaults), or a page with a form that runs it (HTML).", types: [...RDF, HTML, URI_LIST] }],
      errors: [],
    },
    POST: {
      tag: "Algorithms",
      summary: `Run ${spec.title}: a task`,
      description: `${spec.description}${alias} Everything that can be checked before the task starts is checked (400 naming each parameter at fault; nothing is created).`,
      answers: [TASK_CREATED],
      errors: [],
      paramsOf: spec,
    },
  };
}
