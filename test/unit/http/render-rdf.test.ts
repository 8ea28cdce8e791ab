/**
 * RDF representations over HTTP (src/http/render-rdf.ts) with a real render pool (worker threads
 * without RDKit): a graph over its format's size limit is refused at once (406 naming its size,
 * the limit, and the formats that fit) without any work; N-Triples of a stored graph are the
 * bytes of its range of the file; a larger graph rendered in the pool from a file range holds
 * exactly the file's triples (parsed back with n3, and Oxigraph for RDF/XML); a render whose client went away stops with
 * Cancelled. The file and its N-Triples are written by this test.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { after, describe, it } from "node:test";
import { Parser } from "n3";
import * as ox from "oxigraph";
import { INLINE_TRIPLES, renderRdf, RENDER_LIMITS } from "../../../src/http/render-rdf.ts";
import { Vocab } from "../../../src/store/vocab.ts";
import { servicePool } from "../../../src/algorithms/jobs.ts";
import { canonical } from "../../helpers/rdf.ts";

const v = new Vocab("http://localhost:8080");
const pool = servicePool(1, { rdkit: false });
const deps = { vocab: v, renderPool: pool };
const dir = mkdtempSync(join(tmpdir(), "qsargraph-render-"));

/** `n` triples, one line each. */
function lines(n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += `<http://localhost:8080/dataset/abcdefghijkm#e${i}> <http://www.opentox.org/api/1.1#value> "${i} – ü"^^<http://www.w3.org/2001/XMLSchema#string> .\n`;
  return s;
}
const triples = (nt: string): string[] => new Parser({ format: "N-Triples" }).parse(nt).map(canonical).sort();

async function text(body: string | Buffer | Readable): Promise<string> {
  if (typeof body === "string") return body;
  if (Buffer.isBuffer(body)) return body.toString("utf8");
  const parts: Buffer[] = [];
  for await (const c of body) parts.push(c as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

after(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("renderRdf", () => {
  const graph = lines(3000);
  // The graph's body lies in the middle of a file, as in a journal segment.
  const before = Buffer.from("QGJ1 some other record\n");
  const bytes = Buffer.concat([before, Buffer.from(graph), Buffer.from("and the next record")]);
  const path = join(dir, "journal");
  writeFileSync(path, bytes);
  const file = { path, offset: before.length, length: Buffer.byteLength(graph) };

  it("over the size limit: 406 at once, naming the size, the limit and the formats that fit; nothing reaches the pool", async () => {
    const n = RENDER_LIMITS["application/ld+json"] + 1;
    await assert.rejects(
      renderRdf({ triples: n, source: { file } }, "application/ld+json", deps),
      (e: Error & { status?: number }) =>
        e.status === 406 && /has 250,001 triples; JSON-LD is rendered for at most 250,000/.test(e.message) && /available: text\/turtle, application\/n-triples, application\/rdf\+xml/.test(e.message),
    );
    assert.equal(pool.queued, 0);
  });

  it("N-Triples of a stored graph: exactly the bytes of its range, streamed", async () => {
    assert.equal(await text(await renderRdf({ triples: 3000, source: { file } }, "application/n-triples", deps)), graph);
  });

  it(`a graph over ${INLINE_TRIPLES} triples from a file range, rendered in the pool: Turtle and RDF/XML hold its triples`, async () => {
    const turtle = await text(await renderRdf({ triples: 3000, source: { file } }, "text/turtle", deps));
    assert.deepEqual(new Parser({ format: "Turtle" }).parse(turtle).map(canonical).sort(), triples(graph));
    const xml = await text(await renderRdf({ triples: 3000, source: { file } }, "application/rdf+xml", deps));
    assert.deepEqual(ox.parse(xml, { format: "application/rdf+xml" }).map(canonical).sort(), triples(graph));
  });

  it("a collection of 1,000 members (2,001 triples) is built and rendered in the pool", async () => {
    const members = Array.from({ length: 1000 }, (_, i) => `http://localhost:8080/compound/C${i}`);
    const nt = await text(await renderRdf({ triples: 2001, source: { collection: { uri: "http://localhost:8080/compound", members, memberType: "http://www.opentox.org/api/1.1#Compound" } } }, "application/n-triples", deps));
    const got = triples(nt);
    assert.equal(got.length, 2001);
    assert.ok(got.includes("<http://localhost:8080/compound> <http://www.w3.org/2000/01/rdf-schema#member> <http://localhost:8080/compound/C999>"));
  });

  it("a render whose client went away stops: Cancelled (503)", async () => {
    const gone = AbortSignal.abort();
    await assert.rejects(renderRdf({ triples: 3000, source: { file } }, "application/ld+json", deps, gone), (e: Error & { status?: number; code?: string }) => e.status === 503 && e.code === "Cancelled");
  });
});
