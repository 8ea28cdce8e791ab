/**
 * The data directory of the graph store: journal segments and snapshots (see journal.ts for the
 * record format). Used by the writer (main thread) and, read-only, by the SPARQL read replica.
 *
 *     <dir>/snapshot-<seq>.qgs     complete snapshot of every graph as of commit <seq>
 *     <dir>/journal-<first>.qgj    commits <first>, <first>+1, … appended in order
 *
 * Recovery = newest complete snapshot, then every journal record with a larger seq, in order.
 * Only the tail of the newest journal segment may be torn (a crash during an append); anything
 * else that fails to decode is corruption and stops the start with a message naming the file.
 */
import { closeSync, existsSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { bodyOf, bodyRanges, encodeRecord, graphsOf, isTornTail, scanRecords, type BodyLocation, type DecodedRecord, type GraphOp } from "./journal.ts";

const SNAP = /^snapshot-(\d{12})\.qgs$/;
const JOUR = /^journal-(\d{12})\.qgj$/;

function pad(n: number): string {
  return String(n).padStart(12, "0");
}

export function journalPath(dir: string, firstSeq: number): string {
  return join(dir, `journal-${pad(firstSeq)}.qgj`);
}

export function snapshotPath(dir: string, seq: number): string {
  return join(dir, `snapshot-${pad(seq)}.qgs`);
}

interface Listing {
  readonly snapshots: { seq: number; path: string }[];
  readonly journals: { first: number; path: string }[];
}

export function listDataDir(dir: string): Listing {
  const snapshots: { seq: number; path: string }[] = [];
  const journals: { first: number; path: string }[] = [];
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const s = SNAP.exec(name);
    if (s) snapshots.push({ seq: Number(s[1]), path: join(dir, name) });
    const j = JOUR.exec(name);
    if (j) journals.push({ first: Number(j[1]), path: join(dir, name) });
  }
  snapshots.sort((a, b) => b.seq - a.seq);
  journals.sort((a, b) => a.first - b.first);
  return { snapshots, journals };
}

export interface RecoveryResult {
  /** Seq of the last commit applied (0 for an empty store). */
  readonly lastSeq: number;
  readonly snapshotSeq: number;
  /** The journal segment new commits are appended to, and its valid length. */
  readonly activeJournal?: { readonly path: string; readonly first: number; readonly validBytes: number };
  readonly journalBytes: number;
  /** Set when the tail of the newest journal was torn (and, unless read-only, truncated). */
  readonly tornTail?: string;
  /**
   * Set when that torn tail could not be truncated (the disk is read-only): the writer must cut
   * the active journal back to `activeJournal.validBytes` before it appends.
   */
  readonly tornTailKept?: string;
}

/**
 * Replay the data directory: the newest snapshot, then the journal records after it, in seq
 * order. `apply(rec, last)` is called for every record; `last(i, g)` says whether operation i of
 * the record is the last one that writes graph g: if not, g is replaced or deleted later and
 * its content here need not be loaded (apply.ts `currentOps`) — Oxigraph's memory store never
 * frees what a replaced or dropped graph held, so loading it would make a restart take the
 * memory of everything stored since the snapshot instead of what is stored now.
 * Every record is read and checked before the first is applied. With `readOnly` nothing on disk
 * is touched (the replica reads while the writer appends). `locate(op)` says where the body of
 * one of the record's puts lies in its file (GraphStore serves large graphs from there).
 */
export function recover(
  dir: string,
  apply: (rec: DecodedRecord, last: (op: number, graph: string) => boolean, locate: (op: GraphOp) => BodyLocation | undefined) => void,
  readOnly = false,
): RecoveryResult {
  if (!readOnly) mkdirSync(dir, { recursive: true });
  const { snapshots, journals } = listDataDir(dir);
  if (!readOnly) removeTemporaries(dir);
  let snapshotSeq = 0;
  const all: DecodedRecord[] = [];
  /** The file each record was read from (its bodies are views of `buf`). */
  const files = new Map<DecodedRecord, { path: string; buf: Buffer }>();
  const snap = snapshots[0];
  if (snap) {
    // Snapshots are written under a temporary name and renamed when complete, and pruning
    // removes what they cover: a damaged snapshot is lost data, never something to skip.
    const buf = readFileSync(snap.path);
    const { records, tornReason } = scanRecords(buf);
    if (tornReason || !records[records.length - 1]?.end) {
      throw new Error(`snapshot ${snap.path} is damaged (${tornReason ?? "no end record"}); restore it from a backup`);
    }
    all.push(...records);
    for (const r of records) files.set(r, { path: snap.path, buf });
    snapshotSeq = snap.seq;
  }
  let lastSeq = snapshotSeq;
  let journalBytes = 0;
  let tornTail: string | undefined;
  let tornTailKept: string | undefined;
  let active: RecoveryResult["activeJournal"];
  journals.forEach((j, i) => {
    const buf = readFileSync(j.path);
    const { records, validBytes, tornReason } = scanRecords(buf);
    const newest = i === journals.length - 1;
    if (tornReason && !newest) throw new Error(`journal ${j.path} is corrupt (${tornReason}); it is not the newest segment, so this is not a torn append`);
    if (tornReason && !isTornTail(buf.subarray(validBytes))) {
      throw new Error(`journal ${j.path} is corrupt (${tornReason}) with committed data after it; refusing to start rather than drop it`);
    }
    for (const r of records) {
      if (r.seq <= lastSeq) continue;
      if (r.seq !== lastSeq + 1) throw new Error(`journal ${j.path}: commit ${r.seq} follows ${lastSeq}; commits are missing`);
      all.push(r);
      files.set(r, { path: j.path, buf });
      lastSeq = r.seq;
    }
    journalBytes += validBytes;
    if (tornReason) {
      tornTail = `${j.path}: ${tornReason}`;
      // A disk that is read-only now (or fails) leaves the tail in place: the store still starts
      // and serves what is complete, and the writer cuts the tail before its first append.
      if (!readOnly) {
        try {
          truncate(j.path, validBytes);
        } catch (err) {
          tornTailKept = `${j.path} could not be truncated (${err instanceof Error ? err.message : String(err)})`;
        }
      }
    }
    if (newest) active = { path: j.path, first: j.first, validBytes };
  });
  // The last operation (numbered across all records) that writes each graph.
  const lastWrite = new Map<string, number>();
  let k = 0;
  for (const r of all) {
    for (const op of r.ops) {
      for (const g of graphsOf(op)) lastWrite.set(g, k);
      k++;
    }
  }
  k = 0;
  for (const r of all) {
    const first = k;
    const file = files.get(r)!;
    const locate = (op: GraphOp): BodyLocation | undefined => {
      const b = bodyOf(op);
      return "delete" in op || typeof b === "string" ? undefined : { path: file.path, offset: b.byteOffset - file.buf.byteOffset, length: b.length };
    };
    apply(r, (i, g) => lastWrite.get(g) === first + i, locate);
    k += r.ops.length;
  }
  return { lastSeq, snapshotSeq, journalBytes, ...(active ? { activeJournal: active } : {}), ...(tornTail ? { tornTail } : {}), ...(tornTailKept ? { tornTailKept } : {}) };
}

/** Remove snapshots left half-written (best effort: on a read-only disk they stay, and are ignored). */
function removeTemporaries(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".qgs.tmp")) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      // listDataDir never reads them
    }
  }
}

function truncate(path: string, length: number): void {
  const fd = openSync(path, "r+");
  try {
    ftruncateSync(fd, length);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function fsyncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Largest record body written to a snapshot, in bytes of N-Triples. */
const SNAPSHOT_RECORD_BYTES = 8 * 1024 * 1024;

/**
 * Write a complete snapshot as of commit `seq` from graph operations (puts), atomically: it is
 * written under a temporary name, fsynced, then renamed. Older snapshots and the journal segments
 * it covers are removed afterwards by `pruneCovered`. When it cannot be written (a full disk) the
 * temporary file is removed and the error thrown; nothing else is touched. `onBody(op, at)`
 * learns where each put's body lies in the snapshot.
 */
export function writeSnapshot(dir: string, seq: number, ops: Iterable<GraphOp>, onBody?: (op: GraphOp, at: BodyLocation) => void): string {
  const final = snapshotPath(dir, seq);
  const tmp = `${final}.tmp`;
  let fd = -1;
  try {
    fd = openSync(tmp, "w");
    let batch: GraphOp[] = [];
    let bytes = 0;
    let written = 0;
    const flush = (end: boolean): void => {
      const record = encodeRecord(seq, batch, end);
      writeSync(fd, record);
      bodyRanges(batch, record.length).forEach((r, i) => r && onBody?.(batch[i]!, { path: final, offset: written + r[0], length: r[1] }));
      written += record.length;
      batch = [];
      bytes = 0;
    };
    for (const op of ops) {
      batch.push(op);
      bytes += bodyOf(op).length;
      if (bytes >= SNAPSHOT_RECORD_BYTES) flush(false);
    }
    flush(true);
    fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    renameSync(tmp, final);
  } catch (err) {
    // A full disk: give the space of the partial snapshot back; nothing else was touched.
    if (fd >= 0) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // not created, or the disk is read-only
    }
    throw err;
  }
  fsyncDir(dir);
  return final;
}

/** Remove snapshots older than `snapshotSeq` and journal segments whose commits it all covers. */
export function pruneCovered(dir: string, snapshotSeq: number): void {
  const { snapshots, journals } = listDataDir(dir);
  for (const s of snapshots) if (s.seq < snapshotSeq) unlinkSync(s.path);
  journals.forEach((j, i) => {
    const next = journals[i + 1];
    if (next && next.first <= snapshotSeq + 1) unlinkSync(j.path);
  });
  removeTemporaries(dir);
  fsyncDir(dir);
}
