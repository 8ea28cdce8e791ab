/**
 * The methods of a resource (RFC 9110 §9.3.7 OPTIONS, §15.5.6 405 and §10.2.1 Allow), after the
 * routes, for a request no route answered:
 *
 * - OPTIONS on a path that has routes → `204 No Content` with `Allow` (a CORS preflight never gets
 *   here: http/cors.ts answers it first);
 * - any other method the path does not have → `405 Method Not Allowed` with `Allow`, rendered like
 *   every error (problem details, RDF, HTML or text);
 * - a path no route matches stays 404.
 *
 * `/compound/{InChI}` is served by a middleware (the InChI holds slashes), not a route: its
 * methods are named here (COMPOUND_METHODS).
 */
import type Router from "@koa/router";
import type { Context, Next } from "koa";
import { MethodNotAllowed } from "../errors.ts";

export const COMPOUND_METHODS: readonly string[] = ["GET", "HEAD", "OPTIONS"];
const COMPOUND_PC_METHODS: readonly string[] = ["POST", "OPTIONS"];

/** The methods the routes of `router` (and the compound middleware) serve at `path`; empty when none. */
export function methodsOf(router: Router, path: string): string[] {
  if (path.startsWith("/compound/InChI=")) return [...(path.endsWith("/pc") ? COMPOUND_PC_METHODS : COMPOUND_METHODS)];
  const methods = new Set<string>();
  for (const layer of router.match(path, "GET").path) for (const m of layer.methods) methods.add(m);
  if (methods.size === 0) return [];
  methods.add("OPTIONS");
  const order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
  return [...methods].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

export function allowedMethods(router: Router) {
  return async function allow(ctx: Context, next: Next): Promise<void> {
    await next();
    if (ctx.status !== 404 || ctx.body !== undefined && ctx.body !== null) return;
    const methods = methodsOf(router, ctx.path);
    if (methods.length === 0) return;
    ctx.set("Allow", methods.join(", "));
    if (ctx.method === "OPTIONS") {
      ctx.status = 204;
      return;
    }
    if (!methods.includes(ctx.method)) throw new MethodNotAllowed(`${ctx.method} is not allowed on ${ctx.path}; allowed: ${methods.join(", ")}`);
  };
}
