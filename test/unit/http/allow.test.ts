/**
 * The methods of a path (src/http/allow.ts methodsOf), for a router built here: what RFC 9110
 * §10.2.1 Allow lists — the routes' methods (koa-router adds HEAD to a GET route), and OPTIONS;
 * nothing for a path no route has; GET, HEAD, OPTIONS for a compound URI.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import Router from "@koa/router";
import { methodsOf } from "../../../src/http/allow.ts";

describe("methods of a path", () => {
  const router = new Router();
  router.get("/dataset", () => undefined);
  router.post("/dataset", () => undefined);
  router.get("/dataset/:id", () => undefined);
  router.delete("/dataset/:id", () => undefined);
  it("the routes' methods, HEAD with GET, and OPTIONS, in a fixed order", () => {
    assert.deepEqual(methodsOf(router, "/dataset"), ["GET", "HEAD", "POST", "OPTIONS"]);
    assert.deepEqual(methodsOf(router, "/dataset/abc"), ["GET", "HEAD", "DELETE", "OPTIONS"]);
  });
  it("none for a path without routes", () => {
    assert.deepEqual(methodsOf(router, "/nothing"), []);
  });
  it("a compound URI (served by a middleware)", () => {
    assert.deepEqual(methodsOf(router, "/compound/InChI=1S/CH4/h1H4"), ["GET", "HEAD", "OPTIONS"]);
  });
});
