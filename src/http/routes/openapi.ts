/**
 * `GET /openapi.json`: the OpenAPI 3.1 description of the service (http/openapi/document.ts),
 * built once, when the routes are registered: this must be the last route registered (app.ts),
 * since the document lists the router's routes as they are then. Served as application/json
 * (the default), application/openapi+json or application/vnd.oai.openapi+json, with an ETag
 * (If-None-Match → 304) and a max-age: it changes only with a restart (a new version, other
 * tokens, another base URL).
 */
import type Router from "@koa/router";
import { createHash } from "node:crypto";
import { VERSION } from "../../version.ts";
import type { Access } from "../auth.ts";
import type { Deps } from "../deps.ts";
import { notModified } from "../conditional.ts";
import { negotiate } from "../negotiate.ts";
import { buildApiDocument, type ApiDocument } from "../openapi/document.ts";
import { OPENAPI_TYPES } from "../openapi/operations.ts";

/** Seconds a client may keep the document without asking again. */
const MAX_AGE_S = 300;

export function registerOpenApi(router: Router, deps: Deps, access: Access): ApiDocument {
  let body = "";
  let etag = "";
  router.get("/openapi.json", (ctx) => {
    const type = negotiate(ctx, OPENAPI_TYPES);
    ctx.set("Cache-Control", `max-age=${MAX_AGE_S}`);
    ctx.set("ETag", etag);
    // RFC 9110 §13.1.2 (weak comparison), as for every resource (http/conditional.ts)
    if (notModified(ctx.get("If-None-Match"), "", etag, "")) {
      ctx.status = 304;
      return;
    }
    ctx.type = type;
    ctx.body = body;
  });
  const api = buildApiDocument(router.stack, { baseUrl: deps.uris.base, version: VERSION, tokens: access.tokens !== undefined, privateReads: access.privateReads });
  for (const p of api.problems) console.warn(`API description: ${p}`);
  body = JSON.stringify(api.document);
  etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  return api;
}
