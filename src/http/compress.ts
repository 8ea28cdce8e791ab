/**
 * Compression of answers held in memory (README "Representations (every resource)" → "Caching
 * and compression"; docs/benchmarks.md "50 clients after issue 18's HTTP layer").
 *
 * koa-compress (app.ts) turns every compressed answer into a zlib stream: a stream object, a
 * round trip through libuv's thread pool for each chunk and for the final flush, a chunked
 * response piped through `stream.pipeline` (which builds an AbortError, stack trace included,
 * when it finishes). For the answers this service mostly gives — a page, a depiction or a
 * Turtle document of a few KiB, a string or a Buffer already complete — that bookkeeping cost more
 * than the compression itself: under the 50-client load the main thread spent about a tenth of
 * its time in zlib's stream code. Here such a body is compressed in one call into a Buffer that
 * is sent with its Content-Length:
 *
 * - up to COMPRESS_SYNC_MAX_BYTES synchronously (gzip at GZIP_LEVEL of 64 KiB of text takes about
 *   1 ms: far within the 100 ms a piece of work may hold the event loop), above it by one call in
 *   the thread pool (zlib's `gzip`/`brotliCompress` with a callback), never a stream;
 * - only bodies of COMPRESS_MIN_BYTES or more (below, the headers outweigh the gain), of a
 *   compressible type (`compressibleType`), of a GET or POST answer that is not 204/205/206/304,
 *   without `Cache-Control: no-transform` and without a Content-Encoding already;
 * - the encoding is the one the client prefers among gzip and br (`ctx.acceptsEncodings`, so
 *   q-values and `identity;q=0` count); no Accept-Encoding means no compression.
 *
 * Streamed bodies (large exports) are left to koa-compress after this middleware, which sees the
 * Content-Encoding set here and lets in-memory answers pass.
 */
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from "node:zlib";
import { promisify } from "node:util";
import type { Context, Next } from "koa";

/** Smallest body compressed: 1 KiB (koa-compress's default threshold, kept). */
export const COMPRESS_MIN_BYTES = 1024;
/** Largest body compressed on the main thread; larger in-memory bodies go to the thread pool in one call. */
export const COMPRESS_SYNC_MAX_BYTES = 64 * 1024;
/** gzip level: zlib's default (6). */
export const GZIP_LEVEL = 6;
/** Brotli quality 4: Node's default (11) costs several times gzip's CPU per answer (docs/benchmarks.md). */
export const BROTLI_QUALITY = 4;

const GZIP_OPTIONS: ZlibOptions = { level: GZIP_LEVEL };
const BROTLI_OPTIONS: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } };
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Media types worth compressing: text, JSON, XML, SVG and the RDF types, but not event streams. */
export function compressibleType(type: string): boolean {
  return type !== "text/event-stream" && (type.startsWith("text/") || /[/+](json|xml)$/.test(type) || type === "application/n-triples" || type === "image/svg+xml");
}

/** `body` compressed with `encoding`: synchronously when small, else in the thread pool. */
export async function compressBody(body: Buffer, encoding: "gzip" | "br"): Promise<Buffer> {
  if (body.length <= COMPRESS_SYNC_MAX_BYTES) return encoding === "gzip" ? gzipSync(body, GZIP_OPTIONS) : brotliCompressSync(body, BROTLI_OPTIONS);
  return encoding === "gzip" ? gzipAsync(body, GZIP_OPTIONS) : brotliAsync(body, BROTLI_OPTIONS);
}

const NO_BODY = new Set([204, 205, 206, 304]);

export function compressInMemory() {
  return async function compressAnswer(ctx: Context, next: Next): Promise<void> {
    ctx.vary("Accept-Encoding");
    await next();
    const body: unknown = ctx.body;
    if (typeof body !== "string" && !Buffer.isBuffer(body)) return;
    if (ctx.method === "HEAD" || NO_BODY.has(ctx.status) || ctx.response.get("Content-Encoding") || ctx.response.get("Content-Range")) return;
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(ctx.response.get("Cache-Control"))) return;
    if (ctx.response.length < COMPRESS_MIN_BYTES || !compressibleType(ctx.response.type)) return;
    if (!ctx.get("Accept-Encoding")) return;
    const encoding = ctx.acceptsEncodings("gzip", "br", "identity");
    if (encoding !== "gzip" && encoding !== "br") return;
    const type = ctx.response.get("Content-Type");
    const bytes = typeof body === "string" ? Buffer.from(body) : body;
    ctx.body = await compressBody(bytes, encoding);
    // koa sets application/octet-stream for a Buffer body when no type is set: keep the answer's own
    ctx.set("Content-Type", type);
    ctx.set("Content-Encoding", encoding);
  };
}
