/**
 * The SPARQL backend's local body cache (`--store sparql`, issue 19): each graph's N-Triples, as
 * the service wrote them, in files under the data directory, so that the SparqlStore can give a
 * graph's `storedBody` (large graphs are served streamed from it, as the embedded store serves them
 * from its journal) and render `dump` from it byte for byte as the embedded store does (Virtuoso
 * gives literals back rewritten, docs/virtuoso.md finding 2, and cuts large answers short,
 * finding 5). The store is the truth; the cache is rebuilt from it whenever it is missing.
 *
 * Files (in `dir`):
 *   `<sha1(graph)>-<commit>.nt`   the body of one graph (a one-graph put, a stage, or fetched)
 *   `<commit>.pack` + `<commit>.index`   the graphs of the commit's several-graph (N-Quads) puts:
 *                                 each graph's triples together as N-Triples, and one index line
 *                                 per graph, `offset length graph`
 *   `*.tmp`                       being written
 * A file is written under a temporary name and fsynced before the commit point, and renamed after
 * it (an index after its pack): a file under its final name is complete. It is served only while
 * the catalog holds its graph `ready` with the same commit. At start-up (`open`) every other file
 * is removed; a ready graph without a file is fetched from the store on first use (`fetch`, in
 * pages). Files of replaced and deleted graphs are removed after the commit (a pack once none of
 * its graphs is current).
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { open, readFile, readdir, rename, stat, unlink, type FileHandle } from "node:fs/promises";
import { basename, join } from "node:path";
import { slicer } from "../threads/turns.ts";
import type { Body, BodyLocation } from "./journal.ts";

/** In `BodyCache.open`'s `ready`: the graph's newest file, whatever its commit. */
export const ANY_COMMIT = -1;

export function graphKey(graph: string): string {
  return createHash("sha1").update(graph).digest("hex");
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

async function unlinkQuietly(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}

/** A body file being written under a temporary name: appended to, fsynced (`seal`), then renamed (`publish`) or removed (`discard`). */
export class BodyFile {
  private opening?: Promise<FileHandle>;
  /** Bytes written so far. */
  bytes = 0;
  private closed = false;

  constructor(readonly tmp: string) {}

  private fh(): Promise<FileHandle> {
    if (this.closed) return Promise.reject(new Error(`${this.tmp} is closed`));
    this.opening ??= open(this.tmp, "w");
    return this.opening;
  }

  async append(part: Body): Promise<void> {
    const h = await this.fh();
    const bytes = typeof part === "string" ? Buffer.from(part, "utf8") : part;
    await h.write(bytes, 0, bytes.length, this.bytes);
    this.bytes += bytes.length;
  }

  /** fsync: what was appended is on disk (before the commit point). More may be appended after. */
  async seal(): Promise<void> {
    await (await this.fh()).sync();
  }

  /** fsync, close and rename to its final name (after the commit point). */
  async publish(path: string): Promise<void> {
    const h = await this.fh();
    await h.sync();
    this.closed = true;
    await h.close();
    await rename(this.tmp, path);
  }

  async discard(): Promise<void> {
    if (this.opening && !this.closed) {
      this.closed = true;
      await this.opening.then((h) => h.close(), () => undefined);
    }
    this.closed = true;
    await unlinkQuietly(this.tmp);
  }
}

interface Held {
  readonly at: BodyLocation;
  readonly commit: number;
}

export class BodyCache {
  private readonly held = new Map<string, Held>();
  /** Packs: current graphs located in each (a pack is removed with its last one). */
  private readonly packRefs = new Map<string, number>();
  private stageCount = 0;

  private constructor(readonly dir: string) {}

  /**
   * Open the cache in `dir` (created if missing), keeping the files of `ready` (graph → commit)
   * and removing every other one. A commit of ANY_COMMIT (a graph whose delete a crash undid: its
   * catalog entry lost the commit that wrote it) takes the graph's newest file, and `adopted` says
   * which commit that was.
   */
  static async open(dir: string, ready: ReadonlyMap<string, number>): Promise<{ cache: BodyCache; removed: number; adopted: Map<string, number> }> {
    mkdirSync(dir, { recursive: true });
    const c = new BodyCache(dir);
    const byKey = new Map<string, string>();
    let i = 0;
    for (const g of ready.keys()) {
      byKey.set(graphKey(g), g);
      if (++i % 20_000 === 0) await tick();
    }
    const names = await readdir(dir);
    const packs = new Set(names.filter((n) => /^\d+\.pack$/.test(n)));
    let removed = 0;
    const remove = async (name: string): Promise<void> => {
      removed++;
      await unlinkQuietly(join(dir, name));
    };
    /** Every body found: graph, commit, where. */
    const found: { g: string; commit: number; at: BodyLocation }[] = [];
    const indexes: [string, number][] = [];
    for (const name of names) {
      const one = /^([0-9a-f]{40})-(\d+)\.nt$/.exec(name);
      const index = /^(\d+)\.index$/.exec(name);
      if (one) {
        const g = byKey.get(one[1]!);
        if (g === undefined) await remove(name);
        else {
          const path = join(dir, name);
          found.push({ g, commit: Number(one[2]), at: { path, offset: 0, length: (await stat(path)).size } });
        }
      } else if (index) {
        const commit = Number(index[1]);
        if (!packs.has(`${commit}.pack`)) {
          await remove(name);
          continue;
        }
        indexes.push([name, commit]);
        const path = join(dir, `${commit}.pack`);
        const text = await readFile(join(dir, name), "utf8");
        let n = 0;
        for (const line of text.split("\n")) {
          const m = /^(\d+) (\d+) (.+)$/.exec(line);
          if (m && ready.has(m[3]!)) found.push({ g: m[3]!, commit, at: { path, offset: Number(m[1]), length: Number(m[2]) } });
          if (++n % 20_000 === 0) await tick();
        }
      } else if (!/^\d+\.pack$/.test(name)) {
        await remove(name); // temporary files, and anything else
      }
    }
    const adopted = new Map<string, number>();
    for (const f of found) {
      if (ready.get(f.g) === ANY_COMMIT && f.commit > (adopted.get(f.g) ?? -1)) adopted.set(f.g, f.commit);
    }
    const kept = new Set<string>();
    for (const f of found) {
      const want = ready.get(f.g) === ANY_COMMIT ? adopted.get(f.g) : ready.get(f.g);
      if (want !== f.commit) continue;
      c.held.set(f.g, { at: f.at, commit: f.commit });
      kept.add(f.at.path);
      if (f.at.path.endsWith(".pack")) c.packRefs.set(f.at.path, (c.packRefs.get(f.at.path) ?? 0) + 1);
    }
    for (const f of found) if (!f.at.path.endsWith(".pack") && !kept.has(f.at.path)) await remove(basename(f.at.path));
    for (const [name, commit] of indexes) {
      if (!kept.has(join(dir, `${commit}.pack`))) await remove(name);
    }
    for (const pack of packs) if (!kept.has(join(dir, pack))) await remove(pack);
    return { cache: c, removed, adopted };
  }

  /** Where the graph's body lies, when the cache holds it for `commit`. */
  location(graph: string, commit: number): BodyLocation | undefined {
    const h = this.held.get(graph);
    return h && h.commit === commit ? h.at : undefined;
  }

  path(graph: string, commit: number): string {
    return join(this.dir, `${graphKey(graph)}-${commit}.nt`);
  }

  /** A new one-graph file for `graph` of `commit`. */
  create(graph: string, commit: number): BodyFile {
    return new BodyFile(`${this.path(graph, commit)}.tmp`);
  }

  /** A stage's file (its commit is not known yet). */
  createForStage(graph: string): BodyFile {
    return new BodyFile(join(this.dir, `${graphKey(graph)}-stage${++this.stageCount}.tmp`));
  }

  /** Publish a one-graph file (after the commit point) and hold it for the graph. Best effort: a file that cannot be renamed is fetched again on first use. */
  async publish(graph: string, commit: number, file: BodyFile): Promise<void> {
    const path = this.path(graph, commit);
    try {
      await file.publish(path);
    } catch (err) {
      console.error(`store: the local copy of ${graph} could not be kept (it will be fetched from the SPARQL store): ${(err as Error).message}`);
      await file.discard();
      return;
    }
    await this.replace(graph, { at: { path, offset: 0, length: file.bytes }, commit });
  }

  /** A pack of several graphs' N-Triples for `commit`, written before the commit point. */
  async writePack(commit: number, graphs: ReadonlyMap<string, readonly string[]>): Promise<Pack> {
    const data = new BodyFile(join(this.dir, `${commit}.pack.tmp`));
    const index = new BodyFile(join(this.dir, `${commit}.index.tmp`));
    const ranges: [string, number, number][] = [];
    try {
      let chunk: string[] = [];
      let chunkBytes = 0;
      let indexText = "";
      let offset = 0;
      const pause = slicer();
      for (const [g, lines] of graphs) {
        await pause();
        const text = lines.length > 0 ? `${lines.join("\n")}\n` : "";
        const length = Buffer.byteLength(text);
        ranges.push([g, offset, length]);
        indexText += `${offset} ${length} ${g}\n`;
        offset += length;
        chunk.push(text);
        chunkBytes += length;
        if (chunkBytes > 1 << 20) {
          await data.append(chunk.join(""));
          chunk = [];
          chunkBytes = 0;
          await index.append(indexText);
          indexText = "";
        }
      }
      await data.append(chunk.join(""));
      await index.append(indexText);
      await data.seal();
      await index.seal();
    } catch (err) {
      await data.discard();
      await index.discard();
      throw err;
    }
    return { commit, data, index, ranges };
  }

  /** Publish a pack (after the commit point): the data first, then its index. */
  async publishPack(pack: Pack): Promise<void> {
    const path = join(this.dir, `${pack.commit}.pack`);
    try {
      await pack.data.publish(path);
      await pack.index.publish(join(this.dir, `${pack.commit}.index`));
    } catch (err) {
      console.error(`store: the local copy of commit ${pack.commit}'s graphs could not be kept (they will be fetched from the SPARQL store): ${(err as Error).message}`);
      await pack.data.discard();
      await pack.index.discard();
      await unlinkQuietly(path);
      return;
    }
    const pause = slicer();
    for (const [g, offset, length] of pack.ranges) {
      await pause();
      await this.replace(g, { at: { path, offset, length }, commit: pack.commit });
    }
  }

  async discardPack(pack: Pack): Promise<void> {
    await pack.data.discard();
    await pack.index.discard();
  }

  /** The graph is deleted (or replaced by a put that has no file): its file goes. */
  async forget(graph: string): Promise<void> {
    await this.release(this.held.get(graph));
    this.held.delete(graph);
  }

  private async replace(graph: string, h: Held): Promise<void> {
    const old = this.held.get(graph);
    this.held.set(graph, h);
    if (h.at.path.endsWith(".pack")) this.packRefs.set(h.at.path, (this.packRefs.get(h.at.path) ?? 0) + 1);
    await this.release(old);
  }

  private async release(h: Held | undefined): Promise<void> {
    if (!h) return;
    const refs = this.packRefs.get(h.at.path);
    if (refs === undefined) {
      await unlinkQuietly(h.at.path);
      return;
    }
    if (refs > 1) {
      this.packRefs.set(h.at.path, refs - 1);
      return;
    }
    this.packRefs.delete(h.at.path);
    await unlinkQuietly(h.at.path);
    await unlinkQuietly(h.at.path.replace(/\.pack$/, ".index"));
  }

  /** Files and bytes the cache holds (for tests and figures). */
  async usage(): Promise<{ files: number; bytes: number }> {
    let files = 0;
    let bytes = 0;
    for (const name of await readdir(this.dir)) {
      files++;
      bytes += (await stat(join(this.dir, name))).size;
    }
    return { files, bytes };
  }
}

export interface Pack {
  readonly commit: number;
  readonly data: BodyFile;
  readonly index: BodyFile;
  readonly ranges: readonly [string, number, number][];
}

/** Read a body's bytes. */
export async function readBody(at: BodyLocation): Promise<Buffer> {
  const h = await open(at.path, "r");
  try {
    const out = Buffer.alloc(at.length);
    let done = 0;
    while (done < at.length) {
      const { bytesRead } = await h.read(out, done, at.length - done, at.offset + done);
      if (bytesRead === 0) throw new Error(`${at.path} ends before byte ${at.offset + at.length}`);
      done += bytesRead;
    }
    return out;
  } finally {
    await h.close();
  }
}
