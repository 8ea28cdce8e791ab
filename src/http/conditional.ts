/**
 * Conditional requests and caching (RFC 9110 §8.8 and §13, RFC 9111 §5.2; README
 * "Representations (every resource)" → "Caching").
 *
 * - A successful GET or HEAD whose body is in memory (a string or a Buffer: every representation
 *   but a streamed export) gets a weak `ETag`: the SHA-1 of the body, so it changes with every
 *   change of the representation (a dataset deleted and uploaded again, a task that progresses)
 *   and differs between the representations of one resource. Weak, because a representation
 *   is the same resource state, not the same bytes, once compressed.
 * - `If-None-Match` naming it (weak comparison, RFC 9110 §8.8.3.2) or `*`, or without
 *   If-None-Match an `If-Modified-Since` not older than a `Last-Modified` the route set, →
 *   `304 Not Modified` with the same ETag and no body (§13.1.2, §13.1.3, in §13.2.2's order).
 *   Evaluated here, not by koa's `ctx.fresh`: the `fresh` package ignores the conditions when the
 *   request says `Cache-Control: no-cache`, which fetch() adds to every conditional request it is
 *   given, while RFC 9110 has the origin server evaluate them whatever the request's caching
 *   directives (those are for caches).
 * - A streamed body gets no ETag (it is not hashed before it is sent), nor does a body over
 *   ETAG_MAX_BYTES: hashing runs on the main thread (SHA-1: 10 MiB in 13–19 ms here), and a
 *   rendered Turtle of a million triples would hold the event loop for well over 100 ms.
 * Tasks set `Cache-Control: no-cache` themselves (routes/tasks.ts): their state changes.
 */
import { createHash } from "node:crypto";
import type { Context, Next } from "koa";

/** Largest body given an ETag: 16 MiB (≈ 20–30 ms of SHA-1). */
export const ETAG_MAX_BYTES = 16 * 1024 * 1024;

export function etagOf(body: string | Buffer): string {
  return `W/"${createHash("sha1").update(body).digest("base64url")}"`;
}

export function conditional() {
  return async function conditionalGet(ctx: Context, next: Next): Promise<void> {
    await next();
    if ((ctx.method !== "GET" && ctx.method !== "HEAD") || ctx.status !== 200) return;
    const body: unknown = ctx.body;
    if (!ctx.response.get("ETag") && (typeof body === "string" || Buffer.isBuffer(body)) && ctx.response.length <= ETAG_MAX_BYTES) ctx.etag = etagOf(body);
    if (notModified(ctx.get("If-None-Match"), ctx.get("If-Modified-Since"), ctx.response.get("ETag"), ctx.response.get("Last-Modified"))) ctx.status = 304;
  };
}

/** The entity tags of an If-None-Match value, without their `W/` (weak comparison); ["*"] for `*`. */
export function entityTags(header: string): string[] {
  if (header.trim() === "*") return ["*"];
  return [...header.matchAll(/(?:W\/)?("[^"]*")/g)].map((m) => m[1]!);
}

/** RFC 9110 §13.2.2 steps 3 and 4 for GET/HEAD: true when the answer is 304. */
export function notModified(ifNoneMatch: string, ifModifiedSince: string, etag: string, lastModified: string): boolean {
  if (ifNoneMatch !== "") {
    if (etag === "") return false;
    const tags = entityTags(ifNoneMatch);
    return tags.includes("*") || tags.includes(etag.replace(/^W\//, ""));
  }
  if (ifModifiedSince === "" || lastModified === "") return false;
  const since = Date.parse(ifModifiedSince);
  const modified = Date.parse(lastModified);
  return Number.isFinite(since) && Number.isFinite(modified) && modified <= since;
}
