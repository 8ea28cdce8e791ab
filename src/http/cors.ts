/**
 * Cross-origin access (the Fetch standard's CORS protocol; README "Access control" → "Cross-origin
 * requests"), so that a linked-data client in a browser page of another site can read and query
 * the service.
 *
 * - Every response: `Access-Control-Allow-Origin: *` and `Access-Control-Expose-Headers` naming
 *   the headers a client needs to follow the API (Location, Link, ETag, Content-Location, Allow,
 *   Retry-After, Last-Modified). `*` is right here: reads are public, and a write is authorised by
 *   an `Authorization: Bearer` token (http/auth.ts), never by a cookie, so a page of another site
 *   can do nothing with a visitor's browser that it could not do itself. `*` also means a browser
 *   never sends credentials (cookies) cross-origin.
 * - A preflight (OPTIONS with `Access-Control-Request-Method`) is answered here, before access
 *   control and routing, with 204, the methods, the request headers allowed (Accept,
 *   Content-Type, Authorization and the other headers a client sends: If-None-Match,
 *   If-Modified-Since) and `Access-Control-Max-Age` (one day).
 */
import type { Context, Next } from "koa";

export const CORS_METHODS = "GET, HEAD, POST, PUT, DELETE, OPTIONS";
export const CORS_REQUEST_HEADERS = "Accept, Accept-Language, Content-Type, Authorization, If-None-Match, If-Modified-Since";
export const CORS_EXPOSED_HEADERS = "Location, Link, ETag, Last-Modified, Content-Location, Allow, Retry-After";
/** Seconds a browser may keep a preflight's answer (browsers cap it: Chromium at 2 h). */
export const CORS_MAX_AGE_S = 86_400;

export function cors() {
  return async function corsHeaders(ctx: Context, next: Next): Promise<void> {
    ctx.set("Access-Control-Allow-Origin", "*");
    ctx.set("Access-Control-Expose-Headers", CORS_EXPOSED_HEADERS);
    if (ctx.method === "OPTIONS" && ctx.get("Access-Control-Request-Method") !== "" && ctx.get("Origin") !== "") {
      ctx.set("Access-Control-Allow-Methods", CORS_METHODS);
      ctx.set("Access-Control-Allow-Headers", CORS_REQUEST_HEADERS);
      ctx.set("Access-Control-Max-Age", String(CORS_MAX_AGE_S));
      ctx.status = 204;
      return;
    }
    // error answers keep them: the error middleware (after this one) renders without clearing headers
    await next();
  };
}
