/**
 * The API description served at /openapi.json against the real server: every path and method it
 * lists is called, with requests built from the document itself — its path parameters filled with
 * ids of resources the test creates through the document's own operations (hamster_carcinogenicity.csv
 * uploaded, a lazar model, a cross-validation and its report, descriptors, …), its query
 * parameters, its request bodies in the media types it lists and checked against its schemas
 * (Ajv, JSON Schema 2020-12) before they are sent — and each answer's status must be one the
 * document lists for that operation, its media type one it lists for that status. Every GET is
 * also asked for each media type its 2xx answer lists (Accept, and each `?format=` alias the
 * document offers): each must be served; without Accept the first one listed must come (the
 * document says the default comes first). Each path with an id is also asked with an id that
 * does not exist (the documented 404), each parameter body also with a parameter the schema does
 * not allow (the documented 400). At the end every operation of the document must have been
 * called. A second server with tokens serves a document that says so, and its 401 is the
 * documented one.
 *
 * Reference: what a valid document is comes from the OpenAPI Initiative's schema for 3.1
 * (@seriousme/openapi-schema-validator); the link relation `service-desc` from RFC 8631; 304 for
 * a matching If-None-Match from RFC 9110 §13.1.2.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Validator } from "@seriousme/openapi-schema-validator";
import { HAMSTER } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { QG_NS } from "../../src/store/vocab.ts";

type Json = Record<string, any>;

const METHODS = ["get", "post", "put", "delete", "patch"];
/** An id of the services' form that no resource has. */
const NO_ID = "zzzzzzzzzzzz";

interface Call {
  readonly method: "GET" | "POST" | "DELETE";
  /** The document's path (`/dataset/{id}`). */
  readonly path: string;
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly accept?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A body in one of the media types the document lists; `invalid`: one its schema refuses. */
  readonly body?: { readonly type: string; readonly value: unknown; readonly invalid?: boolean };
}

interface Answer {
  readonly status: number;
  /** The media type (no parameters), or "" without a body. */
  readonly type: string;
  readonly text: string;
  readonly headers: Headers;
}

/** Talks to one server through its document: every call is checked against what the document says. */
class Client {
  readonly called = new Set<string>();
  private readonly ajv = new Ajv2020({ strict: false, allowUnionTypes: true, formats: { uri: true } });

  constructor(
    readonly base: string,
    readonly doc: Json,
    private readonly auth: Readonly<Record<string, string>> = {},
  ) {
    for (const [name, s] of Object.entries(doc.components.schemas as Json)) this.ajv.addSchema(this.local(s), `urn:doc:${name}`);
  }

  /** A schema with the document's component references made resolvable by Ajv. */
  private local(s: unknown): object {
    return JSON.parse(JSON.stringify(s).replace(/"#\/components\/schemas\/([^"]+)"/g, '"urn:doc:$1"')) as object;
  }

  resolve(o: Json): Json {
    if (typeof o.$ref !== "string") return o;
    return (o.$ref as string).slice(2).split("/").reduce((x: Json, k) => x[k], this.doc);
  }

  operation(method: string, path: string): Json {
    const op = this.doc.paths[path]?.[method.toLowerCase()] as Json | undefined;
    assert.ok(op, `the document has no ${method} ${path}`);
    return op;
  }

  /** Every operation of the document, as `METHOD /path`. */
  operations(): string[] {
    return Object.entries(this.doc.paths as Json).flatMap(([path, item]) => Object.keys(item as Json).filter((m) => METHODS.includes(m)).map((m) => `${m.toUpperCase()} ${path}`));
  }

  /** The documented response for a status (its own, or its class: 4XX, 5XX). */
  response(op: Json, status: number): Json | undefined {
    const r = (op.responses as Json)[String(status)] ?? (op.responses as Json)[`${String(status)[0]}XX`];
    return r === undefined ? undefined : this.resolve(r as Json);
  }

  /** The media types of an operation's documented 2xx answers. */
  okTypes(op: Json, status = 200): string[] {
    return Object.keys((this.response(op, status)?.content ?? {}) as Json);
  }

  async call(c: Call): Promise<Answer> {
    const key = `${c.method} ${c.path}`;
    const op = this.operation(c.method, c.path);
    this.called.add(key);
    const item = this.doc.paths[c.path] as Json;
    const declared = [...((item.parameters ?? []) as Json[]), ...((op.parameters ?? []) as Json[])].map((p) => this.resolve(p));
    // Path parameters: exactly those the document declares, each given.
    let url = c.path;
    for (const p of declared.filter((p) => p.in === "path")) {
      const v = c.params?.[p.name as string];
      assert.ok(v !== undefined, `${key}: no value for the path parameter ${p.name}`);
      url = url.replace(`{${p.name}}`, encodeURIComponent(v));
    }
    assert.ok(!/\{/.test(url), `${key}: a path parameter the document does not declare`);
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(c.query ?? {})) {
      assert.ok(declared.some((p) => p.in === "query" && p.name === k), `${key}: the document has no query parameter ${k}`);
      query.append(k, v);
    }
    for (const p of declared.filter((p) => p.in === "query" && p.required)) assert.ok(query.has(p.name as string), `${key}: the required ${p.name} is missing`);
    const headers: Record<string, string> = { ...this.auth, ...c.headers };
    if (c.accept) headers.Accept = c.accept;
    let body: BodyInit | undefined;
    if (c.body) {
      const media = op.requestBody?.content?.[c.body.type] as Json | undefined;
      assert.ok(media, `${key}: the document lists no ${c.body.type} body`);
      const valid = this.ajv.validate(this.local(media.schema), c.body.value);
      assert.equal(valid, !c.body.invalid, `${key}: the body ${JSON.stringify(c.body.value).slice(0, 200)} is ${valid ? "valid" : "invalid"} by the document (${this.ajv.errorsText()})`);
      body = encode(c.body.type, c.body.value, media);
      if (c.body.type !== "multipart/form-data") headers["Content-Type"] = c.body.type;
    }
    const r = await fetch(`${this.base}${url}${query.size > 0 ? `?${query}` : ""}`, { method: c.method, headers, body });
    const text = await r.text();
    const type = (r.headers.get("content-type") ?? "").split(";")[0]!.trim();
    const documented = this.response(op, r.status);
    assert.ok(documented, `${key} answered ${r.status}, which the document does not list (${Object.keys(op.responses as Json).join(", ")}): ${text.slice(0, 300)}`);
    const types = Object.keys((documented.content ?? {}) as Json);
    if (types.length === 0) assert.equal(text, "", `${key} ${r.status}: the document lists no body`);
    else assert.ok(types.includes(type), `${key} ${r.status} came as '${type}', which the document does not list for it (${types.join(", ")})`);
    // What is created is named in Location (a completed task's 200 has one too, but not as an event stream).
    if ((r.status === 201 || r.status === 202) && (documented.headers as Json | undefined)?.Location) assert.ok(r.headers.get("location"), `${key} ${r.status}: no Location`);
    return { status: r.status, type, text, headers: r.headers };
  }

  /** Poll a task (GET /task/{id}, uri-list) until it has ended: its final answer. */
  async finish(taskUri: string, timeoutMs = 120_000): Promise<Answer> {
    const id = taskUri.slice(taskUri.lastIndexOf("/") + 1);
    const t0 = Date.now();
    for (;;) {
      const a = await this.call({ method: "GET", path: "/task/{id}", params: { id }, accept: "text/uri-list" });
      if (a.status !== 202) return a;
      assert.ok(Date.now() - t0 < timeoutMs, `task ${taskUri} did not end in ${timeoutMs} ms`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }

  /** A task-creating call: 202 with the task (body and Location); the task must complete: its result. */
  async run(c: Call): Promise<string> {
    const a = await this.call({ ...c, accept: "text/uri-list" });
    assert.equal(a.status, 202, `${c.method} ${c.path}: ${a.text}`);
    const task = a.text.trim();
    assert.equal(a.headers.get("location"), task);
    const done = await this.finish(task);
    assert.equal(done.status, 200, `${c.method} ${c.path}: the task ended ${done.status}: ${done.text}`);
    return done.text.trim();
  }
}

/** A body as a client sends the media type. */
function encode(type: string, value: unknown, media: Json): BodyInit {
  if (type === "application/x-www-form-urlencoded") return new URLSearchParams(value as Record<string, string>);
  if (type === "application/json") return JSON.stringify(value);
  if (type === "multipart/form-data") {
    const form = new FormData();
    for (const [k, v] of Object.entries(value as Record<string, string>)) {
      // A property the document types as a file's content goes as a file part.
      const file = (media.schema?.properties?.[k] as Json | undefined)?.contentMediaType as string | undefined;
      if (file) form.append(k, new Blob([v], { type: file }), "hamster_carcinogenicity.csv");
      else form.append(k, v);
    }
    return form;
  }
  return String(value);
}

/** A media type of SELECT results (any that is no graph type). */
const SOLUTION = "application/sparql-results+json";

const last = (uri: string): string => uri.slice(uri.lastIndexOf("/") + 1);

describe("/openapi.json: every path and method answers as the document says", () => {
  const srv = useServer();
  let api: Client;
  /** Path parameter values of real resources, by the path up to the parameter. */
  const real: Record<string, string> = {};
  /** Parameter values for request bodies, by parameter name. */
  const values: Record<string, string> = {};
  let csv: string;

  before(async () => {
    const r = await fetch(`${srv.base}/openapi.json`);
    assert.equal(r.status, 200);
    api = new Client(srv.base, (await r.json()) as Json);
    csv = readFileSync(HAMSTER, "utf8");
  });

  it("is valid OpenAPI 3.1, describes this server, is linked from the service description and revalidates with its ETag", async () => {
    const v = new Validator();
    const res = await v.validate(structuredClone(api.doc) as never);
    assert.deepEqual([res.valid, v.version], [true, "3.1"], JSON.stringify(res.errors));
    // Validating holds this process's event loop for seconds on a busy machine, in which the server
    // may close the idle keep-alive connection (Node's 5 s keepAliveTimeout): let the loop see
    // that before the next request, or fetch sends it on the closed connection ("fetch failed",
    // ECONNRESET; seen on the SPARQL store run, whose Virtuoso loads the machine).
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(api.doc.servers[0].url, srv.base);
    const root = await api.call({ method: "GET", path: "/", accept: "application/n-triples" });
    assert.match(root.headers.get("link") ?? "", new RegExp(`^<${srv.base}/openapi\\.json>; rel="service-desc"`));
    assert.ok(root.text.includes(`<${srv.base}/> <${QG_NS}apiDescription> <${srv.base}/openapi.json> .`), root.text);
    const home = await api.call({ method: "GET", path: "/", accept: "text/html" });
    assert.ok(home.text.includes(`href="${srv.base}/openapi.json"`));
    const first = await api.call({ method: "GET", path: "/openapi.json" });
    assert.equal(first.type, "application/json");
    assert.deepEqual(JSON.parse(first.text), api.doc);
    const etag = first.headers.get("etag")!;
    assert.match(first.headers.get("cache-control") ?? "", /max-age=\d+/);
    const again = await api.call({ method: "GET", path: "/openapi.json", headers: { "If-None-Match": etag } });
    assert.equal(again.status, 304);
    const typed = await api.call({ method: "GET", path: "/openapi.json", accept: "application/openapi+json" });
    assert.equal(typed.type, "application/openapi+json");
    // The ontology declares the link's predicate.
    const ontology = await api.call({ method: "GET", path: "/ontology", accept: "application/n-triples" });
    assert.ok(ontology.text.includes(`<${QG_NS}apiDescription> <http://www.w3.org/2000/01/rdf-schema#label> "API description"`));
  });

  it("the resources the paths need, made through the document's operations (upload, descriptors, model, cross-validation, report)", async () => {
    const ds = await api.run({ method: "POST", path: "/dataset", body: { type: "multipart/form-data", value: { file: csv } } });
    real["/dataset/{id}"] = last(ds);
    values.dataset_uri = ds;
    const features = await api.call({ method: "GET", path: "/dataset/{id}/features", params: { id: last(ds) } });
    const feature = features.text.trim().split(/\r?\n/)[0]!;
    values.prediction_feature = feature;
    real["/dataset/{id}/feature/{name}"] = decodeURIComponent(last(feature));
    const compounds = await api.call({ method: "GET", path: "/dataset/{id}/compounds", params: { id: last(ds) } });
    const compound = compounds.text.trim().split(/\r?\n/)[0]!;
    values.compound_uri = compound;
    real["/compound/{inchi}"] = decodeURIComponent(compound.slice(`${srv.base}/compound/`.length));
    // A small dataset of its own, sent as a text/csv body, to be deleted at the end.
    const small = await api.run({ method: "POST", path: "/dataset", query: { filename: "three.csv" }, body: { type: "text/csv", value: "SMILES,activity\nCCO,1\nCCN,0\nCCC,1\n" } });
    real.small = last(small);

    values.feature_dataset_uri = await api.run({ method: "POST", path: "/dataset/{id}/pc", params: { id: last(ds) }, body: { type: "application/x-www-form-urlencoded", value: { pc_type: "constitutional" } } });
    const model = await api.run({ method: "POST", path: "/algorithm/qsar", body: { type: "application/x-www-form-urlencoded", value: { dataset_uri: ds, min_frequency: "8" } } });
    real["/model/{id}"] = last(model);
    values.algorithm_uri = `${srv.base}/algorithm/qsar`;
    const cv = await api.run({
      method: "POST",
      path: "/validation/crossvalidation",
      body: { type: "application/json", value: { algorithm_uri: values.algorithm_uri, dataset_uri: ds, num_folds: 2, algorithm_params: "min_frequency=8" } },
    });
    real["/validation/crossvalidation/{id}"] = last(cv);
    values.validation_uris = cv;
    const report = await api.run({ method: "POST", path: "/validation/report/crossvalidation", body: { type: "multipart/form-data", value: { validation_uris: cv } } });
    real["/validation/report/crossvalidation/{id}"] = last(report);
    // A task of the service: the first one (the upload).
    const tasks = await api.call({ method: "GET", path: "/task", accept: "text/uri-list" });
    real["/task/{id}"] = last(tasks.text.trim().split(/\r?\n/)[0]!);
    // A descriptor of /algorithm/pc: the last one its uri-list names (the first is AllDescriptors).
    const pc = await api.call({ method: "GET", path: "/algorithm/pc", accept: "text/uri-list" });
    real["/algorithm/pc/{name}"] = decodeURIComponent(last(pc.text.trim().split(/\r?\n/).at(-1)!));
    // A script of the pages: the first one a page of the service loads.
    const page = await api.call({ method: "GET", path: "/algorithm/qsar", accept: "text/html" });
    real["/static/{name}"] = /src="[^"]*\/static\/([^"]+)"/.exec(page.text)![1]!;
  });

  /** The path parameters of `path`, of real resources (`missing`: of none). */
  const paramsOf = (path: string, missing = false): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const m of path.matchAll(/\{([^}]+)\}/g)) {
      const upTo = path.slice(0, m.index! + m[0].length);
      const v = real[upTo];
      assert.ok(v !== undefined, `no resource for ${upTo}`);
      out[m[1]!] = missing && upTo === path.slice(0, path.lastIndexOf("}") + 1) ? (m[1] === "inchi" ? "not-an-InChI" : m[1] === "name" ? "no such feature" : NO_ID) : v;
    }
    return out;
  };

  /** A query that SPARQL answers in `type` (the document lists the types of each query form). */
  const sparqlQuery = (type: string): Record<string, string> => {
    if (type === "text/html") return {};
    const example = (api.operation("GET", "/sparql").parameters as Json[]).find((p) => p.name === "query")!.example as string;
    return { query: ["text/turtle", "application/n-triples", "application/rdf+xml", "application/ld+json", "application/n-quads"].includes(type) ? "CONSTRUCT WHERE { ?s ?p ?o } LIMIT 3" : example };
  };

  it("every GET serves each media type it lists (Accept and ?format=), the first without Accept; a missing id is the documented 404", async () => {
    const gets = api.operations().filter((k) => k.startsWith("GET "));
    const problems: string[] = [];
    for (const key of gets) {
      const path = key.slice(4);
      const op = api.operation("GET", path);
      const params = paramsOf(path);
      const ok = (op.responses as Json)["200"] ? 200 : 204;
      const types = api.okTypes(op, ok);
      // A required query parameter takes the document's example (GET /depiction's smiles).
      const examples = Object.fromEntries(((op.parameters ?? []) as Json[]).filter((p) => p.in === "query" && p.required === true && p.example !== undefined).map((p) => [p.name as string, String(p.example)]));
      const queryFor = (t: string): Record<string, string> => (path === "/sparql" ? sparqlQuery(t) : examples);
      // No Accept: the first type listed.
      const plain = await api.call({ method: "GET", path, params, query: queryFor(types[0] ?? "") });
      if (plain.status !== ok || (types.length > 0 && plain.type !== types[0])) problems.push(`${key} without Accept: ${plain.status} ${plain.type}, not ${ok} ${types[0]}`);
      for (const t of types) {
        const a = await api.call({ method: "GET", path, params, query: queryFor(t), accept: t });
        if (a.status !== ok || a.type !== t) problems.push(`${key} Accept ${t}: ${a.status} ${a.type}`);
      }
      const format = ((op.parameters ?? []) as Json[]).find((p) => p.name === "format");
      for (const alias of (format?.schema.enum ?? []) as string[]) {
        // Which type an alias stands for the document does not say, so SPARQL's type (which
        // depends on the query form) is found by trying a SELECT, a CONSTRUCT and no query (the form).
        const queries = path === "/sparql" ? [sparqlQuery(SOLUTION), sparqlQuery("text/turtle"), {}] : [examples];
        let a: Answer | undefined;
        for (const q of queries) {
          a = await api.call({ method: "GET", path, params, query: { ...q, format: alias } });
          if (a.status === ok) break;
        }
        if (a!.status !== ok || !types.includes(a!.type)) problems.push(`${key} ?format=${alias}: ${a!.status} ${a!.type}`);
      }
      if (path.includes("{")) {
        const missing = await api.call({ method: "GET", path, params: paramsOf(path, true), accept: "application/problem+json" });
        if (missing.status !== 404) problems.push(`${key} of nothing: ${missing.status}, not 404`);
        else assert.equal(JSON.parse(missing.text).status, 404);
      }
    }
    assert.deepEqual(problems, []);
  });

  it("every POST: a body its schema refuses is the documented 400; a valid one creates what the document says (202 and a task that completes, or 201/200)", async () => {
    const posts = api.operations().filter((k) => k.startsWith("POST "));
    /** Parameters some algorithms need to finish quickly on hamster (valid by the document: checked in `call`). */
    const quick: Record<string, Record<string, string>> = {
      "/algorithm/miner/bbrc": { min_frequency: "8" },
      "/algorithm/miner/last": { min_frequency: "10" },
      "/algorithm/pc/AllDescriptors": { pc_type: "constitutional" },
      "/compound/{inchi}/pc": { pc_type: "constitutional" },
      "/dataset/{id}/pc": { pc_type: "constitutional" },
    };
    const primary = new Set(["/algorithm/miner/bbrc", "/algorithm/miner/last", "/algorithm/pc/AllDescriptors", "/algorithm/fs/rfe"]);
    for (const key of posts) {
      const path = key.slice(5);
      const op = api.operation("POST", path);
      const content = (op.requestBody?.content ?? {}) as Json;
      if (!content["application/x-www-form-urlencoded"] || path === "/sparql") continue;
      const schema = api.resolve(content["application/x-www-form-urlencoded"].schema as Json);
      const required = ((schema.required ?? []) as string[]).filter((n) => n !== "api_token");
      const body: Record<string, string> = Object.fromEntries(required.map((n) => [n, values[n]!]));
      for (const n of required) assert.ok(values[n], `${key}: no value for ${n}`);
      const params = path.includes("{") ? paramsOf(path) : undefined;
      const bad = await api.call({ method: "POST", path, params, body: { type: "application/x-www-form-urlencoded", value: { ...body, not_a_parameter: "1" }, invalid: true }, accept: "application/problem+json" });
      assert.equal(bad.status, 400, `${key}: ${bad.text}`);
      assert.equal(JSON.parse(bad.text).field, "not_a_parameter");
      if (path.includes("{")) {
        const missing = await api.call({ method: "POST", path, params: paramsOf(path, true), body: { type: "application/x-www-form-urlencoded", value: { ...body, ...quick[path] } } });
        assert.equal(missing.status, 404, `${key} of nothing: ${missing.text}`);
      }
      if (primary.has(path)) await api.run({ method: "POST", path, body: { type: "application/x-www-form-urlencoded", value: { ...body, ...quick[path] } } });
    }
    // Predictions: one compound at once (201; asked again, 200 and the same), a dataset as a task (202).
    const model = { id: real["/model/{id}"]! };
    const one = await api.call({ method: "POST", path: "/model/{id}", params: model, body: { type: "application/x-www-form-urlencoded", value: { compound_uri: values.compound_uri } } });
    assert.equal(one.status, 201, one.text);
    assert.equal(one.headers.get("location"), one.text.trim());
    const again = await api.call({ method: "POST", path: "/model/{id}", params: model, body: { type: "application/x-www-form-urlencoded", value: { compound_uri: values.compound_uri } } });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.text.trim(), one.text.trim(), "the stored prediction");
    await api.run({ method: "POST", path: "/model/{id}", params: model, body: { type: "application/json", value: { dataset_uri: values.dataset_uri } } });
    // One compound's descriptors (201), a structure (201 new or 200 known).
    const pc = await api.call({ method: "POST", path: "/compound/{inchi}/pc", params: paramsOf("/compound/{inchi}"), body: { type: "multipart/form-data", value: { pc_type: "constitutional" } } });
    assert.equal(pc.status, 201, pc.text);
    for (const [type, value] of [["chemical/x-daylight-smiles", "CCO"], ["chemical/x-inchi", "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3"], ["text/plain", "CCO"]] as const) {
      const c = await api.call({ method: "POST", path: "/compound", body: { type, value } });
      // Ethanol, PubChem CID 702: its standard InChI.
      assert.ok([200, 201].includes(c.status), c.text);
      assert.equal(c.text.trim(), `${srv.base}/compound/InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3`);
    }
    // SPARQL by POST: a form and the query itself.
    const example = (api.operation("GET", "/sparql").parameters as Json[]).find((p) => p.name === "query")!.example as string;
    const form = await api.call({ method: "POST", path: "/sparql", body: { type: "application/x-www-form-urlencoded", value: { query: example } } });
    const direct = await api.call({ method: "POST", path: "/sparql", body: { type: "application/sparql-query", value: example }, accept: "text/csv" });
    assert.deepEqual([form.status, form.type, direct.status, direct.type], [200, "application/sparql-results+json", 200, "text/csv"]);
  });

  it("every DELETE: a missing id is the documented 404; a real one is deleted (200) and then gone (404); a finished task 409", async () => {
    const deletes = api.operations().filter((k) => k.startsWith("DELETE "));
    // The dataset deleted is the small one (no model was built from it).
    real["/dataset/{id}"] = real.small!;
    // Reports, cross-validations and models first: a dataset a model was built from stays while the model exists.
    const order = ["/task/{id}", "/validation/report/crossvalidation/{id}", "/validation/crossvalidation/{id}", "/model/{id}", "/dataset/{id}"];
    assert.deepEqual([...deletes.map((k) => k.slice(7))].sort(), [...order].sort());
    for (const path of order) {
      const missing = await api.call({ method: "DELETE", path, params: paramsOf(path, true) });
      assert.equal(missing.status, 404, `DELETE ${path} of nothing: ${missing.text}`);
      const done = await api.call({ method: "DELETE", path, params: paramsOf(path), accept: "text/uri-list" });
      // The task (the upload) has finished: cancelling it conflicts with its state (documented 409).
      assert.equal(done.status, path === "/task/{id}" ? 409 : 200, `DELETE ${path}: ${done.text}`);
      if (path === "/task/{id}") continue; // a finished task stays
      const gone = await api.call({ method: "GET", path, params: paramsOf(path) });
      assert.equal(gone.status, 404, `GET ${path} after its DELETE: ${gone.status}`);
    }
  });

  it("every operation of the document was called", () => {
    assert.deepEqual(api.operations().filter((k) => !api.called.has(k)), []);
  });
});

describe("/openapi.json of a server with tokens: writes need one, and the 401 is the documented one", () => {
  const TOKEN = "alice-0123456789abcdef0123456789";
  const srv = useServer({ env: { QSARGRAPH_TOKENS: `alice ${TOKEN}` } });

  it("the document asks a bearer token for writes only; a write without one is its 401 with the Bearer challenge", async () => {
    const doc = (await (await fetch(`${srv.base}/openapi.json`)).json()) as Json;
    const api = new Client(srv.base, doc);
    assert.deepEqual(api.operation("POST", "/dataset").security, [{ bearer: [] }]);
    assert.deepEqual(api.operation("GET", "/dataset").security, [{}, { bearer: [] }]);
    const refused = await api.call({ method: "POST", path: "/dataset", body: { type: "text/csv", value: "SMILES,a\nCCO,1\n" } });
    assert.equal(refused.status, 401);
    assert.match(refused.headers.get("www-authenticate") ?? "", /^Bearer realm="qsargraph"/);
    const read = await api.call({ method: "GET", path: "/dataset" });
    assert.equal(read.status, 200);
    const authorised = new Client(srv.base, doc, { Authorization: `Bearer ${TOKEN}` });
    const bad = await authorised.call({ method: "POST", path: "/algorithm/miner/bbrc", body: { type: "application/json", value: { dataset_uri: `${srv.base}/dataset/${NO_ID}` } } });
    assert.equal(bad.status, 400, bad.text);
  });
});
