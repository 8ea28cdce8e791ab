/**
 * The OpenAPI description (src/http/openapi/document.ts) built from the service's real router:
 * the app is created as `npm start` creates it (src/app.ts, on a fresh data directory; it does
 * not listen), and its router's routes are compared with the document's paths both ways. The
 * document is checked with an OpenAPI 3.1 validator (@seriousme/openapi-schema-validator, which
 * holds the OpenAPI Initiative's published schemas) and its schemas with Ajv's JSON Schema
 * 2020-12. What the document says about parameters is compared with what the README and
 * docs/cross-validation.md document (quoted at each expectation), not with the spec objects the
 * document is generated from.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createApp, type App } from "../../../../src/app.ts";
import { loadConfig } from "../../../../src/config.ts";
import { buildApiDocument, routeKeys, type DocumentOptions, type RouteEntry } from "../../../../src/http/openapi/document.ts";

type Json = Record<string, any>;

const OPEN: DocumentOptions = { baseUrl: "http://localhost:8080", version: "0.0.0", tokens: false, privateReads: false };
const TOKENS: DocumentOptions = { ...OPEN, tokens: true };
const PRIVATE: DocumentOptions = { ...OPEN, tokens: true, privateReads: true };

/** The routes the compound middleware serves (src/http/routes/compounds.ts: the InChI holds slashes). */
const MIDDLEWARE = ["GET /compound/{inchi}", "POST /compound/{inchi}/pc"];

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/** `METHOD /path` of every operation of a document. */
function operations(doc: Json): string[] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) => Object.keys(item as Json).filter((m) => METHODS.includes(m)).map((m) => `${m.toUpperCase()} ${path}`));
}

function op(doc: Json, key: string): Json {
  const [method, path] = key.split(" ") as [string, string];
  const o = doc.paths[path]?.[method.toLowerCase()];
  assert.ok(o, `no operation ${key}`);
  return o as Json;
}

/** The schema a `$ref` names (within the document). */
function resolve(doc: Json, s: Json): Json {
  if (typeof s.$ref !== "string") return s;
  return (s.$ref as string).slice(2).split("/").reduce((o: Json, k) => o[k], doc);
}

/** The properties of an operation's form body. */
function formBody(doc: Json, key: string): Json {
  const schema = resolve(doc, op(doc, key).requestBody.content["application/x-www-form-urlencoded"].schema as Json);
  return schema;
}

describe("the API description of the service's router", () => {
  let app: App;
  let dir: string;
  let routes: readonly RouteEntry[];
  let doc: Json;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "qsargraph-openapi-"));
    app = await createApp(loadConfig([], { DATA_DIR: dir, WORKERS: "1", SPARQL_WORKERS: "1" }));
    routes = app.router.stack;
    const api = buildApiDocument(routes, OPEN);
    assert.deepEqual(api.problems, []);
    doc = api.document;
  });
  after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("every route of the router is in the document, and every operation of the document is a route (or the compound middleware's)", () => {
    const routed = routeKeys(routes);
    assert.ok(routed.length > 40, `only ${routed.length} routes`);
    assert.deepEqual(new Set(operations(doc)), new Set([...routed, ...MIDDLEWARE]));
    // HEAD goes with GET and is not an operation of its own; every GET route answers HEAD.
    for (const r of routes) if (r.methods.includes("GET")) assert.ok(r.methods.includes("HEAD"), String(r.path));
  });

  it("a route without a description, a description without a route, a path parameter without a description and a regular-expression route are reported", () => {
    const planted: RouteEntry[] = [
      ...routes.filter((r) => r.path !== "/favicon.ico"),
      { path: "/dataset/:id/summary", methods: ["HEAD", "GET"] },
      { path: "/thing/:thing", methods: ["DELETE"] },
      { path: /^\/legacy\/.*/, methods: ["GET"] },
    ];
    const api = buildApiDocument(planted, OPEN);
    assert.deepEqual([...api.problems].sort(), [
      "DELETE /thing/{thing} is a route of the router without a description in src/http/openapi/operations.ts",
      "GET /dataset/{id}/summary is a route of the router without a description in src/http/openapi/operations.ts",
      "GET /favicon.ico is described in src/http/openapi/operations.ts but is no route of the router",
      "the path parameter /thing/{thing} has no description in src/http/openapi/operations.ts",
      "the route /^\\/legacy\\/.*/ is a regular expression: no OpenAPI path can describe it",
    ]);
    // The undescribed routes are listed all the same.
    assert.ok(operations(api.document).includes("GET /dataset/{id}/summary"));
  });

  it("is a valid OpenAPI 3.1 document without tokens, with tokens and with private reads; a broken one is not", async () => {
    for (const o of [OPEN, TOKENS, PRIVATE]) {
      const v = new Validator();
      const res = await v.validate(buildApiDocument(routes, o).document as never);
      assert.equal(v.version, "3.1");
      assert.deepEqual(res.errors, undefined);
      assert.equal(res.valid, true);
    }
    // The validator is not one that takes anything: an operation without responses, a path
    // parameter that is not required.
    const broken = structuredClone(doc);
    delete broken.paths["/dataset"].get.responses;
    broken.paths["/dataset/{id}"].parameters[0].required = false;
    const res = await new Validator().validate(broken as never);
    assert.equal(res.valid, false);
  });

  it("every schema is JSON Schema 2020-12 (Ajv, strict) and every $ref resolves", () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, formats: { uri: true } });
    // Components by an id of their own, so that their references resolve within Ajv.
    const text = JSON.stringify(doc).replace(/"#\/components\/schemas\/([^"]+)"/g, '"urn:qsargraph:$1"');
    const d = JSON.parse(text) as Json;
    for (const [name, s] of Object.entries(d.components.schemas as Json)) ajv.addSchema(s as object, `urn:qsargraph:${name}`);
    const found: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (node === null || typeof node !== "object") return;
      for (const [k, v] of Object.entries(node as Json)) {
        if (k === "schema" && v && typeof v === "object") {
          found.push(at);
          ajv.compile(v as object);
        } else walk(v, `${at}/${k}`);
      }
    };
    walk(d.paths, "#/paths");
    walk(d.components.parameters, "#/components/parameters");
    walk(d.components.headers, "#/components/headers");
    for (const name of Object.keys(d.components.schemas as Json)) ajv.getSchema(`urn:qsargraph:${name}`);
    assert.ok(found.length > 300, `only ${found.length} schemas`);
    // Every $ref of the document points at something.
    for (const ref of JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? []) {
      const target = ref.slice(8, -1);
      assert.ok(resolve(doc, { $ref: target }) !== undefined, target);
    }
  });

  it("operation ids are unique; every operation has a summary, a tag and answers with a description", () => {
    const ids = operations(doc).map((k) => op(doc, k).operationId as string);
    assert.equal(new Set(ids).size, ids.length);
    for (const k of operations(doc)) {
      const o = op(doc, k);
      assert.ok(o.summary && o.tags?.length === 1, k);
      assert.ok(Object.keys(o.responses as Json).length > 0, k);
    }
  });

  it("algorithm parameters as the README documents them (BBRC, LAST-PM, descriptors, lazar, RFE) and docs/cross-validation.md (cross-validation)", () => {
    // README "Algorithms and substructure mining": BBRC takes dataset_uri (required),
    // prediction_feature, min_frequency (default 5pm), nr_hits (default false), feature_type
    // (trees or paths), backbone, min_chisq_significance (0–1); "max_visited, both miners;
    // default 500,000".
    const bbrc = formBody(doc, "POST /algorithm/miner/bbrc");
    assert.deepEqual(bbrc.required, ["dataset_uri"]);
    assert.deepEqual(Object.keys(bbrc.properties as Json).sort(), ["api_token", "backbone", "dataset_uri", "feature_type", "max_visited", "min_chisq_significance", "min_frequency", "nr_hits", "prediction_feature"]);
    assert.equal(bbrc.properties.min_frequency.default, "5pm");
    assert.equal(bbrc.properties.nr_hits.type, "boolean");
    assert.equal(bbrc.properties.nr_hits.default, false);
    assert.deepEqual(bbrc.properties.feature_type.enum, ["trees", "paths"]);
    assert.equal(bbrc.properties.backbone.type, "boolean");
    assert.deepEqual([bbrc.properties.min_chisq_significance.minimum, bbrc.properties.min_chisq_significance.maximum], [0, 1]);
    assert.deepEqual([bbrc.properties.max_visited.type, bbrc.properties.max_visited.default], ["integer", 500_000]);
    // The OpenTox paths answer the same (README: "also the OpenTox paths /algorithm/fminer/bbrc and /algorithm/fminer").
    assert.deepEqual(formBody(doc, "POST /algorithm/fminer/bbrc"), bbrc);
    assert.deepEqual(formBody(doc, "POST /algorithm/fminer"), bbrc);

    // LAST-PM: "dataset_uri, prediction_feature, min_frequency (default 80pm), max_visited, nr_hits".
    const last = formBody(doc, "POST /algorithm/miner/last");
    assert.deepEqual(Object.keys(last.properties as Json).sort(), ["api_token", "dataset_uri", "max_visited", "min_frequency", "nr_hits", "prediction_feature"]);
    assert.equal(last.properties.min_frequency.default, "80pm");

    // Descriptors: "pc_type: one or a comma-separated list of constitutional, electronic,
    // topological, geometrical, cpsa, hybrid (default: all). lib: cdk (default) … and/or rdkit".
    const pc = formBody(doc, "POST /algorithm/pc/AllDescriptors");
    const pcTypes = ["constitutional", "electronic", "topological", "geometrical", "cpsa", "hybrid"];
    assert.deepEqual((pc.properties.pc_type.default as string).split(",").sort(), [...pcTypes].sort());
    const pcType = new RegExp(pc.properties.pc_type.pattern as string);
    for (const t of pcTypes) assert.ok(pcType.test(t), t);
    assert.ok(pcType.test("constitutional,topological"));
    assert.ok(!pcType.test("whim"));
    assert.equal(pc.properties.lib.default, "cdk");
    assert.ok(new RegExp(pc.properties.lib.pattern as string).test("cdk,rdkit"));
    // The same selection for a dataset's and a compound's descriptors (POST <dataset>/pc, POST <compound>/pc).
    assert.deepEqual(Object.keys(formBody(doc, "POST /dataset/{id}/pc").properties as Json).sort(), ["api_token", "lib", "pc_type"]);
    assert.deepEqual(formBody(doc, "POST /compound/{inchi}/pc"), formBody(doc, "POST /dataset/{id}/pc"));

    // lazar: "prediction_algorithm: weighted_majority_vote …, local_svm_classification,
    // local_svm_regression …, weighted_average"; "min_train_performance (0.1)"; the kernel model:
    // "prediction_algorithm=kernel_svm", "confidence_level (0.5–0.99, default 0.8)"; the forest:
    // "prediction_algorithm=random_forest", "num_trees (10–1000, default 200)", "features: morgan,
    // morgan+descriptors or descriptors".
    const lazar = formBody(doc, "POST /algorithm/qsar");
    assert.deepEqual([...(lazar.properties.prediction_algorithm.enum as string[])].sort(), ["kernel_svm", "local_svm_classification", "local_svm_regression", "random_forest", "weighted_average", "weighted_majority_vote"]);
    assert.equal(lazar.properties.min_train_performance.default, 0.1);
    assert.deepEqual([lazar.properties.confidence_level.default, lazar.properties.confidence_level.minimum, lazar.properties.confidence_level.maximum], [0.8, 0.5, 0.99]);
    assert.deepEqual([lazar.properties.num_trees.type, lazar.properties.num_trees.default, lazar.properties.num_trees.minimum, lazar.properties.num_trees.maximum], ["integer", 200, 10, 1000]);
    assert.deepEqual([...(lazar.properties.features.enum as string[])].sort(), ["descriptors", "morgan", "morgan+descriptors"]);
    assert.deepEqual(formBody(doc, "POST /algorithm/lazar"), lazar);

    // RFE: "dataset_uri …, prediction_feature, feature_dataset_uri …, del_missing (… default: impute …), random_seed (1)".
    const rfe = formBody(doc, "POST /algorithm/fs/rfe");
    assert.deepEqual([rfe.properties.del_missing.default, rfe.properties.random_seed.default], [false, 1]);

    // docs/cross-validation.md "The request": "num_folds (default 10), random_seed (default 1),
    // stratified (false by default, or true)"; algorithm_uri and dataset_uri are needed.
    const cv = formBody(doc, "POST /validation/crossvalidation");
    assert.deepEqual([...(cv.required as string[])].sort(), ["algorithm_uri", "dataset_uri"]);
    assert.deepEqual([cv.properties.num_folds.default, cv.properties.random_seed.default, cv.properties.stratified.default], [10, 1, "false"]);
  });

  it("paging as the README documents it: page from 1, page_size 1–500 (50), column_page_size 1–500 (100)", () => {
    const params = doc.components.parameters as Json;
    assert.deepEqual(params.page.schema, { type: "integer", minimum: 1, default: 1 });
    assert.deepEqual(params.page_size.schema, { type: "integer", minimum: 1, maximum: 500, default: 50 });
    assert.deepEqual(params.column_page_size.schema, { type: "integer", minimum: 1, maximum: 500, default: 100 });
    // README "Pages": on /dataset, /compound, /task, /model, /validation, /validation/crossvalidation and a dataset's table.
    for (const k of ["GET /dataset", "GET /compound", "GET /task", "GET /model", "GET /validation", "GET /validation/crossvalidation", "GET /dataset/{id}"]) {
      assert.ok((op(doc, k).parameters as Json[]).some((p) => p.$ref === "#/components/parameters/page_size"), k);
    }
  });

  it("task-creating POSTs answer 202 with Location, and a full queue 503 with Retry-After; errors come as the error report's media types", () => {
    const upload = op(doc, "POST /dataset");
    // README "Datasets": a multipart form, or the file as the body: CSV, or SDF in either media type.
    assert.deepEqual(Object.keys(upload.requestBody.content as Json).sort(), ["chemical/x-mdl-molfile", "chemical/x-mdl-sdfile", "multipart/form-data", "text/csv"]);
    assert.ok(upload.responses["202"].headers.Location);
    assert.equal(upload.responses["503"].$ref, "#/components/responses/ServiceUnavailable");
    assert.ok(doc.components.responses.ServiceUnavailable.headers["Retry-After"]);
    assert.deepEqual(Object.keys(doc.components.responses.BadRequest.content as Json).sort(), ["application/ld+json", "application/json", "application/n-triples", "application/problem+json", "application/rdf+xml", "text/html", "text/plain", "text/turtle"].sort());
    const bbrc = op(doc, "POST /algorithm/miner/bbrc");
    assert.deepEqual(Object.keys(bbrc.requestBody.content as Json).sort(), ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"]);
    assert.deepEqual(Object.keys(bbrc.responses as Json).sort(), ["202", "400", "406", "413", "415", "503", "507"]);
  });

  it("conditional GET (RFC 9110 §13.1.2, as http/conditional.ts answers it): every GET with a 200 takes If-None-Match, its 200 has an ETag and it may answer 304; POSTs do not", () => {
    for (const key of operations(doc).filter((k) => k.startsWith("GET "))) {
      const o = op(doc, key);
      if (!o.responses["200"]) continue;
      assert.ok(resolve(doc, o.responses["200"]).headers?.ETag, `${key}: 200 with ETag`);
      assert.ok(o.responses["304"], `${key}: 304`);
      assert.ok((o.parameters as Json[]).some((p) => resolve(doc, p).name === "If-None-Match" && resolve(doc, p).in === "header"), `${key}: If-None-Match`);
    }
    assert.equal(resolve(doc, op(doc, "GET /dataset/{id}").responses["304"]).headers.ETag.$ref, "#/components/headers/ETag");
    assert.equal(op(doc, "POST /dataset").responses["304"], undefined);
  });

  it("access: no security without tokens; with tokens writes need a bearer token, reads take one, 401 everywhere and 403 on deletes; private reads need one to read", () => {
    assert.equal(doc.security, undefined);
    for (const k of operations(doc)) assert.equal(op(doc, k).security, undefined, k);
    assert.equal(op(doc, "DELETE /dataset/{id}").responses["403"], undefined);
    const withTokens = buildApiDocument(routes, TOKENS).document as Json;
    assert.deepEqual(op(withTokens, "POST /dataset").security, [{ bearer: [] }]);
    assert.deepEqual(op(withTokens, "DELETE /model/{id}").security, [{ bearer: [] }]);
    assert.deepEqual(op(withTokens, "GET /dataset").security, [{}, { bearer: [] }]);
    // README: "Reads — GET, HEAD, OPTIONS, and SPARQL queries sent by POST — are public".
    assert.deepEqual(op(withTokens, "POST /sparql").security, [{}, { bearer: [] }]);
    for (const k of operations(withTokens)) assert.ok(op(withTokens, k).responses["401"], k);
    for (const k of operations(withTokens).filter((k) => k.startsWith("DELETE "))) assert.ok(op(withTokens, k).responses["403"], k);
    assert.equal(op(withTokens, "GET /dataset/{id}").responses["403"], undefined);
    const privateReads = buildApiDocument(routes, PRIVATE).document as Json;
    assert.deepEqual(op(privateReads, "GET /dataset").security, [{ bearer: [] }]);
    assert.deepEqual(doc.components.securitySchemes.bearer.scheme, "bearer");
  });
});
