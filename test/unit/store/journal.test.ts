/**
 * The journal's framed records (src/store/journal.ts): encode → scan/decode round trips, a torn
 * tail at every cut inside the last record, and a checksum that catches a flipped payload byte.
 * The header layout is taken from the module's exported MAGIC and HEADER_BYTES only.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { concatBodies, decodeRecord, encodeRecord, encodeRecordAsync, HEADER_BYTES, MAGIC, scanRecords, type GraphOp } from "../../../src/store/journal.ts";

const EX = "http://example.org/";

const people =
  `<${EX}alice> <${EX}knows> <${EX}bob> .\n` +
  `<${EX}alice> <${EX}name> "Alice" .\n`;
// Multi-byte UTF-8 in literals and IRIs: 2-byte (é, ü), 3-byte (€, 中), 4-byte (🧪, a surrogate
// pair in JS), a line separator U+2028 and an escaped newline/quote, so that byte lengths and
// string lengths differ.
const unicode =
  `<${EX}mol/é> <${EX}label> "Benzol – C₆H₆ für 5 € 中文 🧪\u2028end"@de .\n` +
  `<${EX}mol/é> <${EX}note> "line\\nbreak \\"quoted\\" tab\\t" .\n`;

const records: { seq: number; ops: GraphOp[]; end?: boolean }[] = [
  { seq: 1, ops: [{ graph: `${EX}g/people`, ntriples: people }] },
  { seq: 2, ops: [{ graph: `${EX}g/people`, delete: true }] },
  { seq: 3, ops: [{ graph: `${EX}g/ünï🧪`, ntriples: unicode }, { graph: `${EX}g/empty`, ntriples: "" }, { graph: `${EX}g/gone`, delete: true }, { graph: `${EX}g/people`, ntriples: people }] },
  { seq: 4, ops: [{ graph: `${EX}g/empty`, ntriples: "" }] },
  { seq: 5, ops: [], end: true },
];

/** Decoded put bodies are byte views; compare them as text. */
function asText(ops: readonly GraphOp[]): GraphOp[] {
  const t = (b: string | Uint8Array): string => (typeof b === "string" ? b : Buffer.from(b).toString("utf8"));
  return ops.map((op) => ("delete" in op ? op : "graphs" in op ? { graphs: op.graphs, nquads: t(op.nquads) } : { graph: op.graph, ntriples: t(op.ntriples) }));
}

function encodeAll(): { buf: Buffer; offsets: number[] } {
  const parts = records.map((r) => encodeRecord(r.seq, r.ops, r.end ?? false));
  const offsets: number[] = [];
  let off = 0;
  for (const p of parts) {
    offsets.push(off);
    off += p.length;
  }
  return { buf: Buffer.concat(parts), offsets };
}

describe("journal records", () => {
  it("round-trips puts, deletes, unicode literals and an empty graph body", () => {
    for (const r of records) {
      const buf = encodeRecord(r.seq, r.ops, r.end ?? false);
      assert.ok(buf.subarray(0, MAGIC.length).equals(MAGIC), "record starts with the magic");
      const d = decodeRecord(buf);
      assert.equal(d.seq, r.seq);
      assert.equal(d.end, r.end ?? false);
      assert.deepEqual(asText(d.ops), r.ops);
    }
  });

  it("round-trips a several-graph put (one N-Quads body) between other operations", () => {
    const nquads = `<${EX}c/1> <${EX}p> "é 🧪" <${EX}g/c1> .\n<${EX}c/2> <${EX}p> "x" <${EX}g/c2> .\n`;
    const ops: GraphOp[] = [
      { graph: `${EX}g/a`, ntriples: unicode },
      { graphs: [`${EX}g/c1`, `${EX}g/c2`], nquads },
      { graph: `${EX}g/b`, delete: true },
      { graph: `${EX}g/z`, ntriples: people },
    ];
    const d = decodeRecord(encodeRecord(11, ops));
    assert.deepEqual(asText(d.ops), ops);
  });

  it("scans a sequence of records back in order and accounts for every byte", () => {
    const { buf } = encodeAll();
    const scan = scanRecords(buf);
    assert.equal(scan.tornReason, undefined);
    assert.equal(scan.validBytes, buf.length);
    assert.deepEqual(
      scan.records.map((r) => ({ seq: r.seq, ops: asText(r.ops), end: r.end })),
      records.map((r) => ({ seq: r.seq, ops: r.ops, end: r.end ?? false })),
    );
  });

  it("keeps a unicode body byte-exact (the length field counts bytes, not UTF-16 units)", () => {
    const op: GraphOp = { graph: `${EX}g/u`, ntriples: unicode };
    const buf = encodeRecord(7, [op, { graph: `${EX}g/after`, ntriples: people }]);
    assert.ok(Buffer.byteLength(unicode, "utf8") > unicode.length, "fixture has multi-byte characters");
    const d = decodeRecord(buf);
    const ops = asText(d.ops);
    assert.equal((ops[0] as { ntriples: string }).ntriples, unicode);
    assert.equal((ops[1] as { ntriples: string }).ntriples, people, "the body after a multi-byte body starts at the right byte");
  });

  it("reports a torn tail at every cut inside the last record and returns exactly the complete records before it", () => {
    const { buf, offsets } = encodeAll();
    // The first three records; the third is the largest (four ops, unicode), so the cuts run
    // through its header, its JSON line and its bodies.
    const lastStart = offsets[2]!;
    const whole = buf.subarray(0, offsets[3]!);
    const expected = records.slice(0, 2).map((r) => ({ seq: r.seq, ops: r.ops, end: false }));
    for (let cut = lastStart + 1; cut < whole.length; cut++) {
      const scan = scanRecords(whole.subarray(0, cut));
      assert.ok(scan.tornReason, `cut at ${cut}: torn tail reported`);
      assert.equal(scan.validBytes, lastStart, `cut at ${cut}: valid bytes end where the last record starts`);
      assert.deepEqual(
        scan.records.map((r) => ({ seq: r.seq, ops: asText(r.ops), end: r.end })),
        expected,
        `cut at ${cut}: the complete records before the tail`,
      );
    }
    // And the uncut buffer is complete.
    const full = scanRecords(whole);
    assert.equal(full.tornReason, undefined);
    assert.equal(full.records.length, 3);
  });

  it("a cut inside the only record yields no records", () => {
    const rec = encodeRecord(1, records[0]!.ops);
    for (let cut = 1; cut < rec.length; cut++) {
      const scan = scanRecords(rec.subarray(0, cut));
      assert.ok(scan.tornReason);
      assert.equal(scan.validBytes, 0);
      assert.equal(scan.records.length, 0);
    }
    assert.throws(() => decodeRecord(rec.subarray(0, rec.length - 1)), /not a single journal record/);
  });

  it("a flipped payload byte fails the checksum, at any position of the payload", () => {
    const rec = encodeRecord(9, records[2]!.ops);
    const payloadBytes = rec.length - HEADER_BYTES;
    assert.ok(payloadBytes > 100);
    for (const at of [HEADER_BYTES, HEADER_BYTES + 1, HEADER_BYTES + Math.floor(payloadBytes / 2), rec.length - 1]) {
      const bad = Buffer.from(rec);
      bad[at] = bad[at]! ^ 0x01;
      const scan = scanRecords(Buffer.concat([encodeRecord(8, records[0]!.ops), bad]));
      assert.match(scan.tornReason ?? "", /checksum/, `flip at ${at}`);
      assert.deepEqual(scan.records.map((r) => r.seq), [8], `flip at ${at}: only the record before survives`);
      assert.throws(() => decodeRecord(bad), /checksum/);
    }
  });

  it("a damaged record marker stops the scan", () => {
    const rec = encodeRecord(1, records[0]!.ops);
    const bad = Buffer.from(rec);
    bad[0] = bad[0]! ^ 0xff;
    const scan = scanRecords(bad);
    assert.ok(scan.tornReason);
    assert.equal(scan.records.length, 0);
    assert.equal(scan.validBytes, 0);
  });

  it("encodeRecordAsync (bodies hashed in slices between yields) writes the same bytes as encodeRecord", async () => {
    // 20 MiB and 300 KiB bodies cross the slice (8 MiB) and async (256 KiB) thresholds.
    const big = Buffer.alloc(20 * 1024 * 1024 + 17);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31 + (i >> 9)) & 0xff;
    const ops: GraphOp[] = [
      { graph: "http://example.org/g/big", ntriples: big },
      { graph: "http://example.org/g/mid", ntriples: big.subarray(5, 300 * 1024) },
      { graph: "http://example.org/g/gone", delete: true },
    ];
    const parts = await encodeRecordAsync(7, ops);
    assert.ok(Buffer.concat(parts).equals(encodeRecord(7, ops)));
    const scan = scanRecords(Buffer.concat(parts));
    assert.equal(scan.records.length, 1);
    assert.equal(scan.tornReason, undefined);
  });

  it("concatBodies equals Buffer.concat across the slice size", async () => {
    const a = Buffer.alloc(9 * 1024 * 1024, 1);
    const b = Buffer.from("tail\n");
    const c = Buffer.alloc(3, 2);
    for (const parts of [[a, b, c], [b, c], [], [c, a, a]]) {
      assert.ok((await concatBodies(parts)).equals(Buffer.concat(parts)));
    }
  });
});

