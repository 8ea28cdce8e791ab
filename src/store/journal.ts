/**
 * The on-disk format of the graph store: an append-only journal of committed changes and
 * snapshots, both made of the same framed records. A change is acknowledged to a client only
 * once its record is on disk (docs/ARCHITECTURE.md "Store and durability").
 *
 * A record is one atomic commit: an ordered list of graph operations, each either "replace graph
 * G by these N-Triples" or "delete graph G". Framing, little-endian:
 *
 *     "QGJ1" | seq: u64 | payload length: u32 | first 8 bytes of SHA-256(seq, length, payload) | payload
 *
 * payload = one JSON line `{"ops":[{"g":iri,"n":bytes}|{"g":iri,"d":1}|{"gs":[iri…],"n":bytes}], "end"?: true}`
 * followed by the bodies of the put operations, concatenated in order (`n` = body length in
 * bytes): N-Triples for a one-graph put, N-Quads for a several-graph put (`gs`).
 * Only the end of the newest journal can be torn by a crash during an append: a record cut short,
 * a last record whose hash does not match, or trailing zero bytes (a file extended but not
 * written). Anything else that fails to decode, with valid-looking data after it, is corruption.
 */
import { nextTurn } from "../threads/turns.ts";
import { createHash } from "node:crypto";

export const MAGIC = Buffer.from("QGJ1", "latin1");
export const HEADER_BYTES = 24;

/** A graph body: text, or its UTF-8 bytes (as workers hand them over, without a copy). */
export type Body = string | Uint8Array;

/**
 * One operation of a commit: replace a graph's content (N-Triples), delete a graph, or replace
 * several graphs at once from one N-Quads body (every quad must be in one of `graphs`; used for
 * many small graphs, e.g. the compounds of an upload, which load much faster in one call).
 */
export type GraphOp =
  | { readonly graph: string; readonly ntriples: Body }
  | { readonly graph: string; readonly delete: true }
  | { readonly graphs: readonly string[]; readonly nquads: Body };

/** The graphs an operation replaces or deletes. */
export function graphsOf(op: GraphOp): readonly string[] {
  return "graphs" in op ? op.graphs : [op.graph];
}

/** The body of a put (empty for a delete). */
export function bodyOf(op: GraphOp): Body {
  return "graphs" in op ? op.nquads : "ntriples" in op ? op.ntriples : "";
}

/** Triples (lines) of an N-Triples or N-Quads body: every statement is one line. */
export function countStatements(body: Body): number {
  if (body.length === 0) return 0;
  let n = 0;
  if (typeof body === "string") {
    for (let i = body.indexOf("\n"); i >= 0; i = body.indexOf("\n", i + 1)) n++;
    return body.endsWith("\n") ? n : n + 1;
  }
  for (let i = body.indexOf(10); i >= 0; i = body.indexOf(10, i + 1)) n++;
  return body[body.length - 1] === 10 ? n : n + 1;
}

export function bytesOf(b: Body): Uint8Array {
  return typeof b === "string" ? Buffer.from(b, "utf8") : b;
}

/** Where a put's body lies in a file of records (journal segment or snapshot): bytes [offset, offset + length). */
export interface BodyLocation {
  readonly path: string;
  readonly offset: number;
  readonly length: number;
}

/**
 * Where each put's body lies in an encoded record, as [offset from the record's start, length]
 * (undefined for a delete), from the record's total length: the bodies end the record, in the
 * order of their operations (see the framing above).
 */
export function bodyRanges(ops: readonly GraphOp[], recordLength: number): ([number, number] | undefined)[] {
  const lengths = ops.map((op) => {
    if ("delete" in op) return undefined;
    const b = bodyOf(op);
    return typeof b === "string" ? Buffer.byteLength(b) : b.length;
  });
  let at = recordLength - lengths.reduce<number>((a, n) => a + (n ?? 0), 0);
  return lengths.map((n) => {
    if (n === undefined) return undefined;
    const range: [number, number] = [at, n];
    at += n;
    return range;
  });
}

export interface DecodedRecord {
  readonly seq: number;
  /** Put bodies are views into the decoded buffer (no copy). */
  readonly ops: readonly GraphOp[];
  /** Set on the last record of a complete snapshot. */
  readonly end: boolean;
}

interface OpHeader {
  readonly g?: string;
  readonly gs?: readonly string[];
  readonly n?: number;
  readonly d?: 1;
}

/**
 * The record checksum: SHA-256 over the seq and length fields, the JSON line, and the SHA-256 of
 * each body. Hashing the bodies one by one lets a writer hash large bodies off the main thread
 * (WebCrypto) without first copying them into one buffer.
 */
function digest(fields: Uint8Array, json: Uint8Array, bodyHashes: readonly Uint8Array[]): Buffer {
  const h = createHash("sha256").update(fields).update(json);
  for (const b of bodyHashes) h.update(b);
  return h.digest().subarray(0, 8);
}

function hashSync(b: Uint8Array): Uint8Array {
  return createHash("sha256").update(b).digest();
}

/** Bodies above this size are hashed in slices by encodeRecordAsync, yielding in between. */
const ASYNC_HASH_BYTES = 256 * 1024;
/** Bytes hashed or copied between two yields to the event loop (≈ 5–10 ms of work). */
const SLICE_BYTES = 8 * 1024 * 1024;


/**
 * SHA-256 of a large body without stalling the event loop: in 8 MiB slices with a yield after
 * each. (WebCrypto's digest hashes on another thread but first copies its input on this one:
 * measured 0.5 s for 800 MB on an idle machine and 2.9 s for a 1 GB descriptor dataset on a
 * busy server — long enough for Node to drop keep-alive connections with requests in flight.)
 */
async function hashAsync(b: Uint8Array): Promise<Uint8Array> {
  if (b.length < ASYNC_HASH_BYTES) return hashSync(b);
  const h = createHash("sha256");
  for (let i = 0; i < b.length; i += SLICE_BYTES) {
    h.update(b.subarray(i, i + SLICE_BYTES));
    if (i + SLICE_BYTES < b.length) await nextTurn();
  }
  return new Uint8Array(h.digest());
}

/**
 * `Buffer.concat` for the large bodies of results (hundreds of MB): the copy is done in 8 MiB
 * steps with a yield in between, so that the event loop keeps serving (one 1 GB concat took
 * 2.9 s on a busy server).
 */
export async function concatBodies(parts: readonly Uint8Array[]): Promise<Buffer> {
  let total = 0;
  for (const p of parts) total += p.length;
  if (total <= SLICE_BYTES) return Buffer.concat(parts);
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  let sinceYield = 0;
  for (const p of parts) {
    for (let i = 0; i < p.length; i += SLICE_BYTES) {
      const piece = p.subarray(i, i + SLICE_BYTES);
      out.set(piece, at);
      at += piece.length;
      sinceYield += piece.length;
      if (sinceYield >= SLICE_BYTES) {
        sinceYield = 0;
        await nextTurn();
      }
    }
  }
  return out;
}

function headOf(ops: readonly GraphOp[], end: boolean): { json: Buffer; bodies: Uint8Array[] } {
  const bodies: Uint8Array[] = [];
  const heads: OpHeader[] = [];
  for (const op of ops) {
    if ("delete" in op) {
      heads.push({ g: op.graph, d: 1 });
      continue;
    }
    const body = bytesOf(bodyOf(op));
    bodies.push(body);
    heads.push("graphs" in op ? { gs: op.graphs, n: body.length } : { g: op.graph, n: body.length });
  }
  const json = Buffer.from(JSON.stringify(end ? { ops: heads, end: true } : { ops: heads }) + "\n", "utf8");
  return { json, bodies };
}

function header(seq: number, json: Uint8Array, bodies: readonly Uint8Array[], bodyHashes: readonly Uint8Array[]): Buffer {
  const h = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(h, 0);
  h.writeBigUInt64LE(BigInt(seq), 4);
  h.writeUInt32LE(json.length + bodies.reduce((a, b) => a + b.length, 0), 12);
  digest(h.subarray(4, 16), json, bodyHashes).copy(h, 16);
  return h;
}

/** A record as the list of buffers to write in order (header, JSON line, bodies), without copying the bodies. */
export async function encodeRecordAsync(seq: number, ops: readonly GraphOp[]): Promise<Uint8Array[]> {
  const { json, bodies } = headOf(ops, false);
  const hashes = await Promise.all(bodies.map(hashAsync));
  return [header(seq, json, bodies, hashes), json, ...bodies];
}

export function encodeRecord(seq: number, ops: readonly GraphOp[], end = false): Buffer {
  const { json, bodies } = headOf(ops, end);
  return Buffer.concat([header(seq, json, bodies, bodies.map(hashSync)), json, ...bodies]);
}

export interface ScanResult {
  readonly records: DecodedRecord[];
  /** Bytes of the buffer covered by complete, valid records. */
  readonly validBytes: number;
  /** Why scanning stopped before the end of the buffer, if it did. */
  readonly tornReason?: string;
}

/** Decode every complete record in `buf`; stops at the first torn or corrupt one. */
export function scanRecords(buf: Buffer): ScanResult {
  const records: DecodedRecord[] = [];
  let pos = 0;
  while (pos < buf.length) {
    if (buf.length - pos < HEADER_BYTES) return { records, validBytes: pos, tornReason: `incomplete record header at byte ${pos}` };
    if (!buf.subarray(pos, pos + 4).equals(MAGIC)) return { records, validBytes: pos, tornReason: `bad record marker at byte ${pos}` };
    const seq = Number(buf.readBigUInt64LE(pos + 4));
    const len = buf.readUInt32LE(pos + 12);
    const start = pos + HEADER_BYTES;
    if (start + len > buf.length) return { records, validBytes: pos, tornReason: `record ${seq} is cut short at byte ${pos}` };
    const payload = buf.subarray(start, start + len);
    const rec = decodePayload(seq, payload);
    if (!rec || !digest(buf.subarray(pos + 4, pos + 16), rec.json, rec.bodies.map(hashSync)).equals(buf.subarray(pos + 16, pos + 24))) {
      return { records, validBytes: pos, tornReason: `record ${seq} fails its checksum at byte ${pos}` };
    }
    records.push(rec.record);
    pos = start + len;
  }
  return { records, validBytes: pos };
}

function decodePayload(seq: number, payload: Buffer): { record: DecodedRecord; json: Buffer; bodies: Buffer[] } | null {
  const nl = payload.indexOf(10);
  if (nl < 0) return null;
  let head: { ops: OpHeader[]; end?: boolean };
  try {
    head = JSON.parse(payload.toString("utf8", 0, nl)) as { ops: OpHeader[]; end?: boolean };
  } catch {
    return null;
  }
  let off = nl + 1;
  const ops: GraphOp[] = [];
  const bodies: Buffer[] = [];
  for (const h of head.ops) {
    if (h.d) {
      ops.push({ graph: h.g!, delete: true });
      continue;
    }
    const body = payload.subarray(off, off + (h.n ?? 0));
    off += body.length;
    bodies.push(body);
    ops.push(h.gs ? { graphs: h.gs, nquads: body } : { graph: h.g!, ntriples: body });
  }
  if (off !== payload.length) return null;
  return { record: { seq, ops, end: head.end === true }, json: payload.subarray(0, nl + 1), bodies };
}

/**
 * Whether the bytes from the first undecodable record to the end of the file are what a crash
 * during an append leaves (see the module comment), as opposed to corruption of committed data.
 */
export function isTornTail(rest: Buffer): boolean {
  if (rest.length < HEADER_BYTES) return true;
  if (rest.every((b) => b === 0)) return true;
  if (!rest.subarray(0, 4).equals(MAGIC)) return false;
  const end = HEADER_BYTES + rest.readUInt32LE(12);
  // cut short, or the last record of the file (its hash failed: a partly written page)
  return end >= rest.length;
}

/** Decode one record given as a whole buffer (as sent to the read replica). */
export function decodeRecord(buf: Buffer): DecodedRecord {
  const { records, tornReason } = scanRecords(buf);
  if (records.length !== 1 || tornReason) throw new Error(`not a single journal record: ${tornReason ?? records.length}`);
  return records[0]!;
}
