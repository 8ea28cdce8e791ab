/**
 * The on-disk format of the graph store: an append-only journal of committed changes and
 * snapshots, both made of the same framed records (DESIGN §1.4 "durable before acknowledged").
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
import { createHash } from "node:crypto";

export const MAGIC = Buffer.from("QGJ1", "latin1");
export const HEADER_BYTES = 24;

/**
 * One operation of a commit: replace a graph's content (N-Triples), delete a graph, or replace
 * several graphs at once from one N-Quads body (every quad must be in one of `graphs`; used for
 * many small graphs, e.g. the compounds of an upload, which load much faster in one call).
 */
export type GraphOp =
  | { readonly graph: string; readonly ntriples: string }
  | { readonly graph: string; readonly delete: true }
  | { readonly graphs: readonly string[]; readonly nquads: string };

/** The graphs an operation replaces or deletes. */
export function graphsOf(op: GraphOp): readonly string[] {
  return "graphs" in op ? op.graphs : [op.graph];
}

export interface DecodedRecord {
  readonly seq: number;
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

/** The checksum covers the seq and length fields of the header as well as the payload. */
function digest(header: Buffer, payload: Buffer): Buffer {
  return createHash("sha256").update(header.subarray(4, 16)).update(payload).digest().subarray(0, 8);
}

export function encodeRecord(seq: number, ops: readonly GraphOp[], end = false): Buffer {
  const bodies: Buffer[] = [];
  const heads: OpHeader[] = [];
  for (const op of ops) {
    if ("delete" in op) heads.push({ g: op.graph, d: 1 });
    else if ("graphs" in op) {
      const body = Buffer.from(op.nquads, "utf8");
      bodies.push(body);
      heads.push({ gs: op.graphs, n: body.length });
    } else {
      const body = Buffer.from(op.ntriples, "utf8");
      bodies.push(body);
      heads.push({ g: op.graph, n: body.length });
    }
  }
  const json = Buffer.from(JSON.stringify(end ? { ops: heads, end: true } : { ops: heads }) + "\n", "utf8");
  const payload = Buffer.concat([json, ...bodies]);
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeBigUInt64LE(BigInt(seq), 4);
  header.writeUInt32LE(payload.length, 12);
  digest(header, payload).copy(header, 16);
  return Buffer.concat([header, payload]);
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
    if (!digest(buf.subarray(pos, pos + HEADER_BYTES), payload).equals(buf.subarray(pos + 16, pos + 24))) {
      return { records, validBytes: pos, tornReason: `record ${seq} fails its checksum at byte ${pos}` };
    }
    records.push(decodePayload(seq, payload));
    pos = start + len;
  }
  return { records, validBytes: pos };
}

function decodePayload(seq: number, payload: Buffer): DecodedRecord {
  const nl = payload.indexOf(10);
  const head = JSON.parse(payload.toString("utf8", 0, nl)) as { ops: OpHeader[]; end?: boolean };
  let off = nl + 1;
  const ops: GraphOp[] = [];
  for (const h of head.ops) {
    if (h.d) {
      ops.push({ graph: h.g!, delete: true });
      continue;
    }
    const n = h.n ?? 0;
    const body = payload.toString("utf8", off, off + n);
    off += n;
    ops.push(h.gs ? { graphs: h.gs, nquads: body } : { graph: h.g!, ntriples: body });
  }
  return { seq, ops, end: head.end === true };
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
