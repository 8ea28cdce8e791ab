/**
 * Appending the graph store's commit records to the active journal segment (graph-store.ts;
 * the record format is journal.ts, the files disk.ts). It gives out the seqs, writes records
 * strictly in seq order, fdatasyncs durable ones (one at a time, so that each sync reports the
 * errors of the pages it covers) and decides each record's outcome in seq order: only a record
 * that is written, synced if durable, and has no failed record before it is posted to the
 * listeners (the read replica), which therefore never see a record that is cut back later.
 *
 * Disk faults: a record the disk does not take (the write or its fsync) fails with 507
 * (errors.ts `storageFailure`), and so does every record queued behind it; their seqs are given
 * out again, and the journal is truncated back to where the failed record began (retried
 * before the next write, which waits for it, when the truncation fails too).
 */
import { closeSync, fdatasync, ftruncate, openSync, writev } from "node:fs";
import { promisify } from "node:util";
import { InsufficientStorage, storageFailure } from "../errors.ts";
import { journalPath } from "./disk.ts";
import { encodeRecordAsync, type GraphOp } from "./journal.ts";

const fdatasyncAsync = promisify(fdatasync);
const ftruncateAsync = promisify(ftruncate);
const writevAsync = promisify(writev);

/** Where a committed record lies in the journal (the read replica reads it from there). */
export interface RecordLocation {
  readonly path: string;
  readonly offset: number;
  readonly length: number;
}

export type RecordListener = (seq: number, at: RecordLocation) => void;

/** A commit on its way to the journal. */
export interface Ticket {
  readonly seq: number;
  /** What it changes, for messages: "the change to <graph> and n other graphs". */
  readonly what: string;
  /** Set when the commit cannot be kept: its record, or one written before it, did not reach the disk. */
  failure?: InsufficientStorage;
}

/** Where the write of a record went. */
export interface Written {
  readonly fd: number;
  readonly at: RecordLocation;
}

export class JournalWriter {
  private seq = 0;
  /** The active journal segment, open for appending (-1: not open yet, e.g. the disk was read-only at start-up). */
  private fd = -1;
  private journalFile = "";
  /** Bytes of the active journal segment written so far (complete records, unless `cutTo` is set). */
  private fileOffset = 0;
  /**
   * Set when the journal must be truncated back to this length before the next append: a record
   * whose write or fsync failed (or a torn tail a read-only disk kept at start-up) lies beyond it.
   */
  private cutTo: number | undefined;
  /** Why the last truncation failed. */
  private cutError: unknown;
  /** The truncation queued after the last failure (commits that failed wait for it before they answer). */
  private cutting: Promise<void> = Promise.resolve();
  /** Records are written strictly in seq order through this chain (and truncations between them). */
  private writeChain: Promise<void> = Promise.resolve();
  /** Each record's outcome (written, synced, kept), decided in seq order. */
  private outcomeChain: Promise<void> = Promise.resolve();
  /** Commits whose outcome is not decided yet. */
  private readonly inFlight = new Set<Ticket>();
  /** Commits that failed to reach the disk since the last one that did (for the log). */
  private failures = 0;
  private readonly listeners: RecordListener[] = [];

  /** `dir`: the data directory (for the messages of disk faults). */
  constructor(private readonly dir: string) {}

  /**
   * Continue after recovery: `lastSeq` is the last complete record, which ends at `validBytes`
   * of the segment `file`; `tornTailKept` says that bytes after it could not be cut off at
   * start-up (they are cut before the next write).
   */
  resume(lastSeq: number, file: string, validBytes: number, tornTailKept: string | undefined): void {
    this.seq = lastSeq;
    this.journalFile = file;
    this.fileOffset = validBytes;
    if (tornTailKept) {
      this.cutTo = this.fileOffset;
      console.error(`store: the torn tail of ${tornTailKept}; it is cut before the next write`);
    }
  }

  /** Seq of the last record queued (given out again when records fail). */
  get lastSeq(): number {
    return this.seq;
  }

  /** The journal may end in a record that failed: it is cut back before the next write. */
  get cutPending(): boolean {
    return this.cutTo !== undefined;
  }

  get isOpen(): boolean {
    return this.fd >= 0;
  }

  onRecord(listener: RecordListener): void {
    this.listeners.push(listener);
  }

  /**
   * Queue the record of `ops` as the next seq: its bodies are hashed now (large ones off the
   * main thread), it is written after every record before it, then synced if `durable`.
   * `outcome` resolves when it is kept (see the module comment) and rejects with the ticket's
   * failure otherwise.
   */
  append(ops: readonly GraphOp[], what: string, durable: boolean): { ticket: Ticket; outcome: Promise<Written> } {
    const ticket: Ticket = { seq: ++this.seq, what };
    this.inFlight.add(ticket);
    const encoded = encodeRecordAsync(ticket.seq, ops);
    encoded.catch(() => undefined); // handled where the write awaits it
    const written = this.writeChain.then(() => this.write(ticket, encoded));
    this.writeChain = written.then(
      () => undefined,
      () => undefined,
    );
    return { ticket, outcome: this.decide(ticket, written, durable) };
  }

  /** Append a ticket's record (a link of the write chain). */
  private async write(ticket: Ticket, encoded: Promise<Uint8Array[]>): Promise<Written> {
    if (ticket.failure) throw ticket.failure;
    const parts = await encoded;
    try {
      // What a failed write left goes first; a journal that could not be opened is opened now.
      await this.cut();
      if (this.cutTo !== undefined) throw this.cutError;
      if (this.fd < 0) this.fd = openSync(this.journalFile, "a");
    } catch (err) {
      this.fail(ticket, err, undefined);
      throw ticket.failure;
    }
    if (ticket.failure) throw ticket.failure;
    const offset = this.fileOffset;
    const length = parts.reduce((a, p) => a + p.length, 0);
    try {
      await writeAll(this.fd, parts);
    } catch (err) {
      this.fail(ticket, err, offset);
      throw ticket.failure;
    }
    this.fileOffset = offset + length;
    return { fd: this.fd, at: { path: this.journalFile, offset, length } };
  }

  /**
   * Decide a ticket's outcome, in seq order: its record is written, synced if durable (one fsync
   * at a time, so that each reports the errors of the pages it covers), and no record before it
   * failed. Only then is it posted to the listeners (the read replica), so that they never see
   * a record that is cut back later.
   */
  private decide(ticket: Ticket, written: Promise<Written>, durable: boolean): Promise<Written> {
    const before = this.outcomeChain;
    const outcome = (async (): Promise<Written> => {
      let w: Written | undefined;
      try {
        w = await written;
        await before;
        if (ticket.failure) throw ticket.failure;
        if (durable) await fdatasyncAsync(w.fd);
      } catch (err) {
        this.fail(ticket, err, w?.at.offset);
        await this.cutting;
        if (w && this.cutTo !== undefined) {
          // Written whole but not synced, and it could not be cut off either (the disk turned
          // read-only after an I/O error): the kernel may still hand it to a restart.
          const f = ticket.failure!;
          ticket.failure = new InsufficientStorage(
            `${f.message}. Its record could not be removed from the journal either (${errorText(this.cutError)}): a restart before the disk is writable again may find the change stored`,
            f.details,
          );
        }
        throw ticket.failure;
      } finally {
        this.inFlight.delete(ticket);
      }
      if (this.failures > 0) {
        console.error(`store: the journal is written again (after ${this.failures} commits that could not be written)`);
        this.failures = 0;
      }
      for (const l of this.listeners) l(ticket.seq, w.at);
      return w;
    })();
    this.outcomeChain = outcome.then(() => undefined, () => undefined);
    return outcome;
  }

  /**
   * A ticket's record did not reach the disk (`offset`: where it was being written, if it was):
   * it and every commit after it fail with 507, their seqs are given out again, and the journal
   * is cut back to where the record began.
   */
  private fail(ticket: Ticket, err: unknown, offset: number | undefined): void {
    if (ticket.failure) return;
    ticket.failure = storageFailure(err, ticket.what, this.journalFile, this.dir);
    if (this.failures++ === 0) console.error(`store: ${ticket.failure.message}`);
    for (const t of this.inFlight) if (t.seq > ticket.seq && !t.failure) t.failure = storageFailure(err, t.what, this.journalFile, this.dir);
    this.seq = Math.min(this.seq, ticket.seq - 1);
    if (offset !== undefined) {
      this.cutTo = Math.min(this.cutTo ?? offset, offset);
      this.cutting = this.writeChain = this.writeChain.then(() => this.cut());
    }
  }

  /** Truncate the journal back to `cutTo` (a link of the write chain); on failure it stays due. */
  private async cut(): Promise<void> {
    const to = this.cutTo;
    if (to === undefined) return;
    try {
      if (this.fd < 0) this.fd = openSync(this.journalFile, "a");
      await ftruncateAsync(this.fd, to);
      await fdatasyncAsync(this.fd);
      this.fileOffset = to;
      if (this.cutTo === to) this.cutTo = undefined;
    } catch (err) {
      this.cutError = err;
      console.error(`store: could not truncate ${this.journalFile} back to ${to} bytes (retried before the next write): ${errorText(err)}`);
    }
  }

  /**
   * Before a snapshot (which is read from the journal on disk and must end at the last complete
   * record): cut back what a failed record left, in the write chain; throw 507 when it cannot be.
   */
  async cutBeforeSnapshot(): Promise<void> {
    if (this.cutTo !== undefined) await (this.writeChain = this.writeChain.then(() => this.cut()));
    if (this.cutTo !== undefined) throw storageFailure(this.cutError, `a snapshot of commit ${this.seq}`, this.journalFile, this.dir);
  }

  /** Open the active journal segment for appending; when it cannot be, say why (and stay read-only until a commit opens it). */
  open(): string | undefined {
    try {
      this.fd = openSync(this.journalFile, "a");
      return undefined;
    } catch (err) {
      this.fd = -1;
      const why = storageFailure(err, "new commits", this.journalFile, this.dir).message;
      console.error(`store: ${why}`);
      return why;
    }
  }

  /**
   * A snapshot now holds every commit: close the active segment and start a new one after the
   * last seq (opened now, or by the next commit if it cannot be created now).
   */
  startSegment(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    this.journalFile = journalPath(this.dir, this.seq + 1);
    this.fileOffset = 0;
    this.cutTo = undefined;
    this.open();
  }

  /** Wait for every queued write, then close the journal. */
  async close(): Promise<void> {
    await this.writeChain;
    if (this.fd >= 0) {
      closeSync(this.fd);
      this.fd = -1;
    }
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Write every buffer, in order, with as few system calls as the kernel allows. */
async function writeAll(fd: number, parts: Uint8Array[]): Promise<void> {
  let rest = parts.filter((p) => p.length > 0);
  while (rest.length > 0) {
    let n = (await writevAsync(fd, rest)).bytesWritten;
    const next: Uint8Array[] = [];
    for (const p of rest) {
      if (n >= p.length) n -= p.length;
      else {
        next.push(n > 0 ? p.subarray(n) : p);
        n = 0;
      }
    }
    rest = next;
  }
}
