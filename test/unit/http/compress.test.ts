/**
 * One-piece compression of answers held in memory (src/http/compress.ts). The compressed bytes
 * are checked by decoding them (node's zlib decoders, which implement RFC 1952 gzip and RFC 7932
 * Brotli independently of the encoder's settings) and by the gzip member header of RFC 1952 §2.3.1
 * (ID1 0x1f, ID2 0x8b, CM 8 = deflate); both sides of the synchronous limit are exercised.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { COMPRESS_MIN_BYTES, COMPRESS_SYNC_MAX_BYTES, compressBody, compressibleType } from "../../../src/http/compress.ts";

/** Turtle-like text of about `bytes` bytes (repetitive, as RDF is). */
function text(bytes: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < bytes; i++) lines.push(`<http://example.org/compound/${i}> <http://www.opentox.org/api/1.1#feature> "${(i * 0.37).toFixed(2)}" .`);
  return Buffer.from(lines.join("\n").slice(0, bytes));
}

describe("compressBody", () => {
  for (const size of [COMPRESS_MIN_BYTES, COMPRESS_SYNC_MAX_BYTES, COMPRESS_SYNC_MAX_BYTES + 1, 1024 * 1024]) {
    it(`gzip of ${size} bytes (${size <= COMPRESS_SYNC_MAX_BYTES ? "on the main thread" : "in the thread pool"}) is one gzip member that decodes to the body`, async () => {
      const body = text(size);
      assert.equal(body.length, size);
      const z = await compressBody(body, "gzip");
      assert.deepEqual([...z.subarray(0, 3)], [0x1f, 0x8b, 8]);
      assert.ok(z.length < size / 2, `${z.length} of ${size} bytes`);
      assert.ok(gunzipSync(z).equals(body));
    });
    it(`Brotli of ${size} bytes decodes to the body`, async () => {
      const body = text(size);
      const b = await compressBody(body, "br");
      assert.ok(b.length < size / 2, `${b.length} of ${size} bytes`);
      assert.ok(brotliDecompressSync(b).equals(body));
    });
  }
});

describe("compressibleType", () => {
  it("text, JSON, XML, SVG and the RDF types are compressed; event streams, images and zips are not", () => {
    for (const t of ["text/html", "text/turtle", "text/uri-list", "application/sparql-results+json", "application/ld+json", "application/json", "application/rdf+xml", "application/n-triples", "image/svg+xml"]) assert.equal(compressibleType(t), true, t);
    for (const t of ["text/event-stream", "image/png", "application/zip", "application/octet-stream"]) assert.equal(compressibleType(t), false, t);
  });
});
