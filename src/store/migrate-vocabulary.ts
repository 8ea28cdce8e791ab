/**
 * Moves a data directory to the vocabulary's stable namespace (store/vocab.ts `QG_NS`).
 *
 * Until 2026-11 the service's own terms were minted under its base URL (`<BASE_URL>/ontology#line`).
 * A directory written then holds those IRIs in its snapshot and journal. At start-up, before
 * anything reads the directory (the store's threads, the SPARQL replicas), `migrateVocabulary`
 * reads it as recovery does, rewrites every IRI that starts with the old namespace to the stable
 * one, and writes the result as a new snapshot as of the last commit (disk.ts `writeSnapshot`:
 * complete, fsynced, then renamed into place); the journal segments it covers are then removed.
 * A file `vocabulary` holding the namespace marks the directory as done, so later starts cost a
 * file read. A crash at any point leaves either the old files (the next start migrates again) or
 * the new snapshot (the next start finds nothing left to rewrite and writes the mark): nothing
 * acknowledged is lost.
 *
 * The rewrite is textual on N-Triples/N-Quads bodies: every `<` + old namespace becomes `<` + the
 * new one (an IRI; a literal that spells such an IRI between angle brackets would change too).
 * The old namespace is the one of the base URL the service runs with now.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { currentOps, fills } from "./apply.ts";
import { fsyncDir, listDataDir, pruneCovered, recover, writeSnapshot } from "./disk.ts";
import { bodyOf, type Body, type GraphOp } from "./journal.ts";
import { QG_NS } from "./vocab.ts";

/** The mark of a directory whose data use `QG_NS` (its content: the namespace). */
export const VOCABULARY_MARK = "vocabulary";

export interface VocabularyMigration {
  /** Graph operations (current content) whose body was rewritten. */
  readonly rewritten: number;
  /** Occurrences of the old namespace replaced. */
  readonly replaced: number;
  /** The commit the new snapshot stands for. */
  readonly seq: number;
  readonly ms: number;
}

/** Replace every occurrence of `from` in `body` by `to`; undefined when there is none. */
function rewrite(body: Body, from: Buffer, to: Buffer): { body: Buffer; count: number } | undefined {
  const buf = typeof body === "string" ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  let at = buf.indexOf(from);
  if (at < 0) return undefined;
  const parts: Buffer[] = [];
  let start = 0;
  let count = 0;
  while (at >= 0) {
    parts.push(buf.subarray(start, at), to);
    start = at + from.length;
    count++;
    at = buf.indexOf(from, start);
  }
  parts.push(buf.subarray(start));
  return { body: Buffer.concat(parts), count };
}

function withBody(op: GraphOp, body: Buffer): GraphOp {
  return "graphs" in op ? { graphs: op.graphs, nquads: body } : { graph: (op as { graph: string }).graph, ntriples: body };
}

/** Write the mark atomically (temporary file, fsync, rename, fsync of the directory). */
function mark(dir: string, ns: string): void {
  const tmp = join(dir, `${VOCABULARY_MARK}.tmp`);
  const fd = openSync(tmp, "w");
  try {
    writeSync(fd, `${ns}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(dir, VOCABULARY_MARK));
  fsyncDir(dir);
}

/**
 * Rewrite the data of `dir` from `legacyNs` to `ns` unless its mark says it is done; returns what
 * was done (undefined when nothing was to do). Throws, naming the directory, when data need the
 * rewrite and the disk cannot take it (read-only, full): the service must not serve its data in
 * two namespaces. (With nothing to rewrite, a mark that cannot be written is only logged.)
 */
export function migrateVocabulary(dir: string, legacyNs: string, ns: string = QG_NS): VocabularyMigration | undefined {
  const markPath = join(dir, VOCABULARY_MARK);
  if (existsSync(markPath) && readFileSync(markPath, "utf8").trim() === ns) return undefined;
  const t0 = performance.now();
  try {
    mkdirSync(dir, { recursive: true });
    const listing = listDataDir(dir);
    let result: VocabularyMigration | undefined;
    if (legacyNs !== ns && (listing.snapshots.length > 0 || listing.journals.length > 0)) {
      const current: GraphOp[] = [];
      const rec = recover(dir, (r, last) => current.push(...currentOps(r.ops, last)), true);
      const from = Buffer.from(`<${legacyNs}`);
      const to = Buffer.from(`<${ns}`);
      let rewritten = 0;
      let replaced = 0;
      const ops = current.filter(fills).map((op) => {
        const r = rewrite(bodyOf(op), from, to);
        if (!r) return op;
        rewritten++;
        replaced += r.count;
        return withBody(op, r.body);
      });
      if (rewritten > 0) {
        writeSnapshot(dir, rec.lastSeq, ops);
        pruneCovered(dir, rec.lastSeq);
        // every commit is in the snapshot now, the newest segment's too (pruning keeps it for appends)
        for (const j of listDataDir(dir).journals) unlinkSync(j.path);
        fsyncDir(dir);
        result = { rewritten, replaced, seq: rec.lastSeq, ms: performance.now() - t0 };
      }
    }
    if (result) mark(dir, ns);
    else {
      // nothing was to rewrite: a disk that cannot take the mark (read-only, full) must not stop
      // the start (README "Durability"); the next start looks again
      try {
        mark(dir, ns);
      } catch (err) {
        console.error(`store: ${dir} needs no change of vocabulary namespace, but its mark could not be written: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return result;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new Error(`could not move the data in ${dir} to the vocabulary namespace ${ns} (docs/vocabulary.md): ${why}`, { cause: err });
  }
}
