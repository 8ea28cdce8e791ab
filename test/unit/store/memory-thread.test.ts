/**
 * The in-memory store in its own thread (src/store/memory-thread.ts): reads are answered between
 * the slices of a load, what a read returns must be plain data, and a thread that dies is
 * replaced by one that reloads the data directory, after which reads and commits work again.
 */
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GraphStore } from "../../../src/store/graph-store.ts";

const READS = new URL("../../helpers/store-reads-fault.ts", import.meta.url);
const G = (n: string): string => `http://example.org/graph/${n}`;
const triples = (tag: string, n: number): string => Array.from({ length: n }, (_, i) => `<http://example.org/${tag}/s${i}> <http://example.org/p> "${tag} ${"v".repeat(60)} ${i}" .\n`).join("");

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "qsargraph-memory-"));
  dirs.push(d);
  return d;
}

describe("the store's thread", () => {
  it("answers a read posted during a large load before the load is done, with part of it loaded", async () => {
    const s = await GraphStore.open(tempDir());
    try {
      const n = 100_000; // ≈ 11 MB of N-Triples: many times what is posted ahead (1 MB)
      const body = triples("big", n);
      assert.ok(Buffer.byteLength(body) > 8 * 1024 * 1024);
      assert.equal(await s.read<number>(READS, "quads", []), 0, "empty (and the reads module is loaded in the thread)");
      let committed = false;
      const commit = s.commit([{ graph: G("big"), ntriples: body }]).then(() => (committed = true));
      // The commit posts 1 MB of slices, then waits for the thread to apply them: reads posted
      // meanwhile are queued between slices, so the thread answers them while the load goes on.
      let during = 0;
      for (let i = 0; i < 10_000 && during === 0 && !committed; i++) during = await s.read<number>(READS, "quads", []);
      assert.equal(committed, false, "answered before the commit resolved");
      assert.ok(during > 0 && during < n, `${during} of ${n} triples loaded when the read ran`);
      await commit;
      assert.equal(await s.read<number>(READS, "quads", []), n, "a read after the commit sees all of it");
    } finally {
      await s.close();
    }
  });

  it("refuses a read whose result is an Oxigraph term, and goes on serving", async () => {
    const s = await GraphStore.open(tempDir());
    try {
      await s.commit([{ graph: G("a"), ntriples: triples("a", 3) }]);
      await assert.rejects(s.read(READS, "term", []), /read term: the result is an instance of NamedNode, not plain data/);
      assert.equal(await s.read<number>(READS, "quads", []), 3);
    } finally {
      await s.close();
    }
  });

  it("a thread that dies is replaced by one that reloads the data directory; reads and commits work again", async () => {
    const dir = tempDir();
    const s = await GraphStore.open(dir);
    try {
      await s.commit([{ graph: G("a"), ntriples: triples("a", 5) }]);
      await assert.rejects(s.read(READS, "exit", []), /the store's thread exited with code 3/);
      assert.equal(await s.read<number>(READS, "quads", []), 5, "the acknowledged commit is back, loaded from disk");
      await s.commit([{ graph: G("b"), ntriples: triples("b", 2) }]);
      assert.equal(await s.read<number>(READS, "quads", []), 7);
      assert.match(await s.dump(G("b"), "application/n-triples"), /"b v+ 1"/);
    } finally {
      await s.close();
    }
  });
});
