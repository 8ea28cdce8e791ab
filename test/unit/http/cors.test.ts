/**
 * The CORS middleware (src/http/cors.ts) on koa contexts made by koa itself (no HTTP): a
 * preflight — an OPTIONS with Origin and Access-Control-Request-Method (the Fetch standard,
 * "CORS-preflight request") — is answered 204 without reaching the next middleware; every other
 * request passes on and carries Allow-Origin `*`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import Koa from "koa";
import { cors } from "../../../src/http/cors.ts";

function context(method: string, headers: Record<string, string>): Koa.Context {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.url = "/dataset";
  req.headers = headers;
  return new Koa().createContext(req, new ServerResponse(req));
}

describe("CORS", () => {
  it("answers a preflight itself", async () => {
    const ctx = context("OPTIONS", { origin: "https://a.example", "access-control-request-method": "POST" });
    let reached = false;
    await cors()(ctx, async () => void (reached = true));
    assert.equal(reached, false);
    assert.equal(ctx.status, 204);
    assert.equal(ctx.response.get("Access-Control-Allow-Origin"), "*");
    assert.match(ctx.response.get("Access-Control-Allow-Headers"), /Authorization/);
  });
  it("passes an OPTIONS without Access-Control-Request-Method on (not a preflight)", async () => {
    const ctx = context("OPTIONS", { origin: "https://a.example" });
    let reached = false;
    await cors()(ctx, async () => void (reached = true));
    assert.equal(reached, true);
    assert.equal(ctx.response.get("Access-Control-Allow-Methods") ?? "", "");
  });
  it("a simple request: Allow-Origin * and the exposed headers", async () => {
    const ctx = context("GET", { origin: "https://a.example" });
    await cors()(ctx, async () => undefined);
    assert.equal(ctx.response.get("Access-Control-Allow-Origin"), "*");
    assert.match(ctx.response.get("Access-Control-Expose-Headers"), /\bETag\b/);
  });
});
