/**
 * The durable graph store (src/store/graph-store.ts over disk.ts and journal.ts), on a real data
 * directory in a temp dir: commits survive close/reopen, replace and delete, all-or-nothing
 * multi-graph commits after a torn journal tail, compaction into a snapshot, corruption that must
 * stop the start, pending graphs hidden from `has()`, and non-durable commits.
 *
 * Graph contents are compared as sorted N-Triples lines (the fixtures use IRIs only, no blank
 * nodes, so Oxigraph's dump has the same lines as the input). The only internals used are the
 * data-dir layout of disk.ts (`journalPath`, the `journal-*.qgj` / `snapshot-*.qgs` names it
 * documents) and the exported record constants of journal.ts.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, afterEach, before, describe, it } from "node:test";
import { journalPath } from "../../../src/store/disk.ts";
import { GraphStore, type RecordLocation } from "../../../src/store/graph-store.ts";
import { decodeRecord, encodeRecord, HEADER_BYTES, scanRecords } from "../../../src/store/journal.ts";
import { smallDisk, thinDisk, type SmallDisk } from "../../helpers/disk.ts";

const EX = "http://example.org/";
const G = (name: string): string => `${EX}graph/${name}`;

/** `n` triples about `tag`, one line each, ASCII only. */
function triples(tag: string, n = 3): string {
  let s = "";
  for (let i = 0; i < n; i++) s += `<${EX}${tag}/s${i}> <${EX}p/value> "${tag} value ${i}" .\n`;
  return s;
}

const UNICODE = `<${EX}mol/1> <${EX}p/label> "Benzol – C₆H₆ für 5 € 中文 🧪"@de .\n<${EX}mol/1> <${EX}p/inchi> "InChI=1S/C6H6/c1-2-4-6-5-3-1/h1-6H" .\n`;

const sorted = (nt: string): string[] => nt.split("\n").filter(Boolean).sort();
/** A graph's content in memory (Oxigraph's own writer; `dump` refuses graphs over maxDumpTriples). */
const contents = async (s: GraphStore, g: string): Promise<string[]> => sorted(await s.memory.dump(g, "application/n-triples"));

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "qsargraph-store-"));
  dirs.push(d);
  return d;
}

/** Open, run `fn`, close — closing even when an assertion fails. */
async function withStore<T>(dir: string, fn: (s: GraphStore) => Promise<T> | T, opts?: Parameters<typeof GraphStore.open>[1]): Promise<T> {
  const s = await GraphStore.open(dir, opts);
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

function files(dir: string, re: RegExp): string[] {
  return readdirSync(dir).filter((n) => re.test(n)).sort();
}
const journals = (dir: string): string[] => files(dir, /^journal-.*\.qgj$/);
const snapshots = (dir: string): string[] => files(dir, /^snapshot-.*\.qgs$/);
function newestJournal(dir: string): string {
  const j = journals(dir);
  assert.ok(j.length > 0, "a journal segment exists");
  return join(dir, j[j.length - 1]!);
}

after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("GraphStore", () => {
  it("commits survive close and reopen, graph by graph", async () => {
    const dir = tempDir();
    const before = await withStore(dir, async (s) => {
      assert.equal(s.openInfo.lastSeq, 0);
      const seq1 = await s.commit([{ graph: G("a"), ntriples: triples("a", 5) }, { graph: G("u"), ntriples: UNICODE }]);
      const seq2 = await s.commit([{ graph: G("b"), ntriples: triples("b", 2) }]);
      assert.equal(seq2, seq1 + 1);
      assert.deepEqual((await contents(s, G("a"))), sorted(triples("a", 5)));
      return { a: (await contents(s, G("a"))), u: (await contents(s, G("u"))), b: (await contents(s, G("b"))), seq: seq2 };
    });
    assert.equal(before.u.length, 2);
    await withStore(dir, async (s) => {
      assert.equal(s.openInfo.lastSeq, before.seq);
      assert.equal(s.openInfo.tornTail, undefined);
      for (const g of ["a", "u", "b"]) assert.ok(s.has(G(g)), `has ${g}`);
      assert.deepEqual((await contents(s, G("a"))), sorted(triples("a", 5)));
      assert.deepEqual((await contents(s, G("a"))), before.a);
      assert.deepEqual((await contents(s, G("u"))), before.u);
      assert.match(await s.dump(G("u"), "application/n-triples"), /Benzol – C₆H₆ für 5 € 中文 🧪/);
      assert.deepEqual((await contents(s, G("b"))), before.b);
      assert.deepEqual(s.graphsWithPrefix(`${EX}graph/`).sort(), [G("a"), G("b"), G("u")]);
    });
  });

  it("replaces and deletes graphs, in operation order, and the result survives reopen", async () => {
    const dir = tempDir();
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("r"), ntriples: triples("old", 4) }, { graph: G("keep"), ntriples: triples("keep") }, { graph: G("d"), ntriples: triples("d") }]);
      await s.commit([{ graph: G("r"), ntriples: triples("new", 2) }]);
      assert.deepEqual((await contents(s, G("r"))), sorted(triples("new", 2)), "replace leaves no old triples");
      await s.commit([{ graph: G("d"), delete: true }]);
      assert.equal(s.has(G("d")), false);
      assert.deepEqual((await contents(s, G("d"))), []);
      // Within one commit the operations apply in order.
      await s.commit([{ graph: G("x"), delete: true }, { graph: G("x"), ntriples: triples("x") }]);
      await s.commit([{ graph: G("y"), ntriples: triples("y") }, { graph: G("y"), delete: true }]);
      assert.equal(s.has(G("x")), true);
      assert.equal(s.has(G("y")), false);
    });
    await withStore(dir, async (s) => {
      assert.deepEqual((await contents(s, G("r"))), sorted(triples("new", 2)));
      assert.deepEqual((await contents(s, G("keep"))), sorted(triples("keep")));
      assert.equal(s.has(G("d")), false);
      assert.deepEqual((await contents(s, G("d"))), []);
      assert.deepEqual((await contents(s, G("x"))), sorted(triples("x")));
      assert.equal(s.has(G("y")), false);
      assert.deepEqual((await contents(s, G("y"))), []);
    });
  });

  it("an atomic multi-graph commit is all-or-nothing after a torn tail, and the journal is truncated", async () => {
    const dir = tempDir();
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("one"), ntriples: triples("one") }]);
      await s.commit([{ graph: G("two"), ntriples: triples("two") }]);
    });
    const journal = newestJournal(dir);
    const goodBytes = statSync(journal).size;
    // The torn commit: two new graphs, a replacement of "one" and the deletion of "two".
    const tornOps = [
      { graph: G("three"), ntriples: triples("three", 50) },
      { graph: G("one"), ntriples: triples("one-replaced", 50) },
      { graph: G("two"), delete: true as const },
      { graph: G("four"), ntriples: triples("four", 50) },
    ];
    await withStore(dir, (s) => s.commit(tornOps));
    assert.equal(newestJournal(dir), journal, "the commit went to the same segment");
    const full = readFileSync(journal);
    const record = full.subarray(goodBytes);
    assert.ok(record.length > HEADER_BYTES + 3 * 50 * 40);
    // Cuts: inside the header, right after it, inside the JSON line, after the first body is
    // complete (so "three" alone could be loaded), in the last body, one byte short.
    const firstBodyEnd = record.length - Buffer.byteLength(triples("one-replaced", 50) + triples("four", 50));
    const cuts = [1, HEADER_BYTES - 1, HEADER_BYTES, HEADER_BYTES + 10, firstBodyEnd + 1, record.length - 100, record.length - 1];

    for (const cut of cuts) {
      writeFileSync(journal, Buffer.concat([full.subarray(0, goodBytes), record.subarray(0, cut)]));
      await withStore(dir, async (s) => {
        assert.ok(s.openInfo.tornTail, `cut ${cut}: torn tail reported`);
        assert.equal(s.openInfo.lastSeq, 2, `cut ${cut}: the torn commit is not counted`);
        assert.deepEqual((await contents(s, G("one"))), sorted(triples("one")), `cut ${cut}: "one" not replaced`);
        assert.deepEqual((await contents(s, G("two"))), sorted(triples("two")), `cut ${cut}: "two" not deleted`);
        assert.equal(s.has(G("three")), false, `cut ${cut}: "three" absent`);
        assert.deepEqual((await contents(s, G("three"))), []);
        assert.equal(s.has(G("four")), false, `cut ${cut}: "four" absent`);
      });
      assert.equal(statSync(journal).size, goodBytes, `cut ${cut}: the torn tail was truncated`);
    }

    // After the truncation a further commit and reopen work: no torn tail, the new commit is there.
    writeFileSync(journal, Buffer.concat([full.subarray(0, goodBytes), record.subarray(0, record.length >> 1)]));
    await withStore(dir, async (s) => {
      assert.ok(s.openInfo.tornTail);
      const seq = await s.commit([{ graph: G("five"), ntriples: triples("five") }]);
      assert.equal(seq, 3);
    });
    await withStore(dir, async (s) => {
      assert.equal(s.openInfo.tornTail, undefined);
      assert.equal(s.openInfo.lastSeq, 3);
      assert.deepEqual((await contents(s, G("five"))), sorted(triples("five")));
      assert.deepEqual((await contents(s, G("one"))), sorted(triples("one")));
      assert.equal(s.has(G("three")), false);
    });

    // And the complete record, restored, replays in full.
    writeFileSync(journal, full);
    await withStore(dir, async (s) => {
      assert.equal(s.openInfo.tornTail, undefined);
      assert.deepEqual((await contents(s, G("one"))), sorted(triples("one-replaced", 50)));
      assert.equal(s.has(G("two")), false);
      assert.deepEqual((await contents(s, G("three"))), sorted(triples("three", 50)));
      assert.deepEqual((await contents(s, G("four"))), sorted(triples("four", 50)));
    });
  });

  it("compaction at open (compactAboveBytes: 0) writes a snapshot, removes covered journals and keeps every graph", async () => {
    const dir = tempDir();
    const expected = await withStore(dir, async (s) => {
      await s.commit([{ graph: G("a"), ntriples: triples("a", 10) }, { graph: G("u"), ntriples: UNICODE }]);
      await s.commit([{ graph: G("b"), ntriples: triples("b", 10) }]);
      await s.commit([{ graph: G("a"), ntriples: triples("a2", 3) }]);
      await s.commit([{ graph: G("b"), delete: true }]);
      return { a: (await contents(s, G("a"))), u: (await contents(s, G("u"))), seq: s.lastSeq };
    });
    const oldJournals = journals(dir);
    assert.deepEqual(snapshots(dir), []);
    await withStore(
      dir,
      async (s) => {
        assert.equal(s.openInfo.compacted, true);
        assert.equal(s.openInfo.lastSeq, expected.seq);
        assert.deepEqual((await contents(s, G("a"))), expected.a);
      },
      { compactAboveBytes: 0 },
    );
    assert.equal(snapshots(dir).length, 1, "one snapshot written");
    for (const j of oldJournals) assert.ok(!existsSync(join(dir, j)), `covered journal ${j} removed`);
    assert.deepEqual(files(dir, /\.tmp$/), [], "no temporary files left");
    const remaining = journals(dir);
    assert.equal(remaining.length, 1, "a fresh journal segment for new commits");
    assert.equal(statSync(join(dir, remaining[0]!)).size, 0);

    await withStore(dir, async (s) => {
      assert.equal(s.openInfo.compacted, false, "nothing to compact on the second open");
      assert.equal(s.openInfo.lastSeq, expected.seq);
      assert.deepEqual((await contents(s, G("a"))), expected.a);
      assert.deepEqual((await contents(s, G("a"))), sorted(triples("a2", 3)));
      assert.deepEqual((await contents(s, G("u"))), expected.u);
      assert.equal(s.has(G("b")), false, "a graph deleted before the snapshot stays deleted");
      assert.deepEqual(s.graphsWithPrefix(EX).sort(), [G("a"), G("u")]);
    });
  });

  it("store.compact() while running: snapshot + new segment; later commits replay on top of it", async () => {
    const dir = tempDir();
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("a"), ntriples: triples("a") }, { graph: G("b"), ntriples: triples("b") }]);
      await s.commit([{ graph: G("c"), ntriples: triples("c") }]);
      const before = journals(dir);
      await s.compact();
      assert.equal(snapshots(dir).length, 1);
      for (const j of before) assert.ok(!existsSync(join(dir, j)), `covered journal ${j} removed`);
      await s.commit([{ graph: G("b"), delete: true }, { graph: G("a"), ntriples: triples("a-after") }]);
      await s.commit([{ graph: G("d"), ntriples: triples("d") }]);
      await s.compact();
      assert.equal(snapshots(dir).length, 1, "the older snapshot is removed");
      await s.commit([{ graph: G("e"), ntriples: triples("e") }]);
    });
    await withStore(dir, async (s) => {
      assert.equal(s.openInfo.lastSeq, 5);
      assert.deepEqual((await contents(s, G("a"))), sorted(triples("a-after")));
      assert.equal(s.has(G("b")), false);
      assert.deepEqual((await contents(s, G("c"))), sorted(triples("c")));
      assert.deepEqual((await contents(s, G("d"))), sorted(triples("d")));
      assert.deepEqual((await contents(s, G("e"))), sorted(triples("e")));
    });
  });

  it("store.compact() while a commit is still being applied does not lose that commit", async () => {
    // The snapshot is labelled with the last *journalled* seq and the journal holding that commit
    // is pruned, so the snapshot must contain the commit even if it is not applied in memory yet.
    const dir = tempDir();
    const big = triples("big", 40_000);
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("small"), ntriples: triples("small") }]);
      const pending = s.commit([{ graph: G("big"), ntriples: big }]);
      await s.compact();
      await pending;
      assert.equal(s.has(G("big")), true);
    });
    await withStore(dir, async (s) => {
      assert.deepEqual((await contents(s, G("small"))), sorted(triples("small")));
      assert.equal(s.has(G("big")), true, "the acknowledged commit is still there after reopen");
      assert.equal((await contents(s, G("big"))).length, 40_000);
    });
  });

  it("a corrupt record in a non-newest journal segment stops open with the file name", async () => {
    const dir = tempDir();
    // Two segments as the layout of disk.ts names them: commits 1–2, then 3 onwards.
    const first = journalPath(dir, 1);
    const second = journalPath(dir, 3);
    const r1 = encodeRecord(1, [{ graph: G("a"), ntriples: triples("a") }]);
    const r2 = encodeRecord(2, [{ graph: G("b"), ntriples: triples("b") }]);
    const r3 = encodeRecord(3, [{ graph: G("c"), ntriples: triples("c") }]);
    writeFileSync(first, Buffer.concat([r1, r2]));
    writeFileSync(second, r3);
    // Intact, the two segments replay in order (so the failure below is the corruption's).
    await withStore(dir, async (s) => {
      assert.equal(s.openInfo.lastSeq, 3);
      for (const g of ["a", "b", "c"]) assert.deepEqual((await contents(s, G(g))), sorted(triples(g)));
    });
    const intact = readFileSync(first);
    const bad = Buffer.from(intact);
    const at = r1.length + HEADER_BYTES + 5; // a payload byte of commit 2
    bad[at] = bad[at]! ^ 0x20;
    writeFileSync(first, bad);
    await assert.rejects(GraphStore.open(dir), (err: Error) => err.message.includes(basename(first)));
    assert.deepEqual(readFileSync(first), bad, "the corrupt segment is left as it was");

    // A cut-short record is just as fatal when it is not in the newest segment.
    writeFileSync(first, intact.subarray(0, intact.length - 7));
    await assert.rejects(GraphStore.open(dir), (err: Error) => err.message.includes(basename(first)));
    assert.equal(statSync(first).size, intact.length - 7, "not truncated");
  });

  it("a corrupt record followed by complete records in the newest segment stops open (it is not a torn append)", async () => {
    // disk.ts: "Only the tail of the newest journal segment may be torn; anything else that fails
    // to decode is corruption and stops the start." Commits 2 and 3 were acknowledged; treating a
    // damaged commit 1 as a torn tail would silently truncate all three.
    const dir = tempDir();
    await withStore(dir, async (s) => {
      for (const g of ["a", "b", "c"]) await s.commit([{ graph: G(g), ntriples: triples(g) }]);
    });
    const journal = newestJournal(dir);
    const bytes = readFileSync(journal);
    const bad = Buffer.from(bytes);
    bad[HEADER_BYTES + 5] = bad[HEADER_BYTES + 5]! ^ 0x20; // payload of commit 1
    writeFileSync(journal, bad);
    let opened: GraphStore | undefined;
    try {
      await assert.rejects(async () => (opened = await GraphStore.open(dir)), (err: Error) => err.message.includes(basename(journal)));
    } finally {
      await opened?.close();
    }
    assert.equal(statSync(journal).size, bytes.length, "the journal is not truncated");
  });

  it("a corrupt snapshot stops open and is not deleted (after pruning it is the only copy)", async () => {
    const dir = tempDir();
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("a"), ntriples: triples("a") }]);
      await s.commit([{ graph: G("b"), ntriples: triples("b") }]);
      await s.compact();
      await s.commit([{ graph: G("c"), ntriples: triples("c") }]);
    });
    const [snap] = snapshots(dir);
    assert.ok(snap);
    const path = join(dir, snap);
    const bad = readFileSync(path);
    bad[HEADER_BYTES + 30] = bad[HEADER_BYTES + 30]! ^ 0x20;
    writeFileSync(path, bad);
    let opened: GraphStore | undefined;
    let error: Error | undefined;
    try {
      opened = await GraphStore.open(dir);
    } catch (err) {
      error = err as Error;
    } finally {
      await opened?.close();
    }
    assert.ok(existsSync(path), "the corrupt snapshot file is kept (it holds commits 1–2; their journal was pruned)");
    assert.ok(error, "open fails: commits 1–2 exist only in the damaged snapshot");
    assert.ok(error.message.includes(snap), `the error names the snapshot: ${error.message}`);
  });

  it("has() is false for a graph whose commit is still being applied", async () => {
    const dir = tempDir();
    const N = 40_000;
    const big = triples("big", N);
    assert.ok(Buffer.byteLength(big) >= 3 * 1024 * 1024, "≥ 3 MB of N-Triples");
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("replaced"), ntriples: triples("replaced-old") }]);
      assert.equal(s.has(G("replaced")), true);

      let done = false;
      const commit = s.commit([{ graph: G("big"), ntriples: big }, { graph: G("replaced"), ntriples: big.replaceAll("/big/", "/rep/") }]).then((seq) => {
        done = true;
        return seq;
      });
      // Synchronously after calling commit: neither the new nor the replaced graph is visible.
      assert.equal(s.has(G("big")), false, "new graph hidden while pending");
      assert.equal(s.has(G("replaced")), false, "replaced graph hidden while pending");
      assert.deepEqual(s.graphsWithPrefix(EX), [], "pending graphs are not listed");
      // And at every turn of the event loop until the commit resolves.
      let turns = 0;
      while (!done) {
        await new Promise((r) => setImmediate(r));
        if (done) break;
        turns++;
        assert.equal(s.has(G("big")), false, `turn ${turns}: big hidden`);
        assert.equal(s.has(G("replaced")), false, `turn ${turns}: replaced hidden`);
      }
      await commit;
      assert.ok(turns > 0, "the load yielded to the event loop at least once");
      assert.equal(s.has(G("big")), true);
      assert.equal(s.has(G("replaced")), true);
      assert.equal((await contents(s, G("big"))).length, N);
      assert.deepEqual((await contents(s, G("replaced"))), sorted(big.replaceAll("/big/", "/rep/")));
    });
  });

  it("a several-graph put (one N-Quads body) replaces exactly its graphs, is hidden while pending and survives reopen and compaction", async () => {
    const dir = tempDir();
    const nq = (tag: string, graphs: string[], n = 2): string =>
      graphs.map((g) => triples(`${tag}-${g}`, n).replaceAll(" .\n", ` <${G(g)}> .\n`)).join("");
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("c1"), ntriples: triples("old-c1") }, { graph: G("other"), ntriples: triples("other") }]);
      const commit = s.commit([{ graph: G("ds"), ntriples: triples("ds") }, { graphs: [G("c1"), G("c2"), G("c3")], nquads: nq("v1", ["c1", "c2", "c3"]) }]);
      for (const g of ["ds", "c1", "c2", "c3"]) assert.equal(s.has(G(g)), false, `${g} hidden while pending`);
      assert.equal(s.has(G("other")), true);
      await commit;
      for (const g of ["c1", "c2", "c3"]) {
        assert.equal(s.has(G(g)), true);
        assert.deepEqual((await contents(s, G(g))), sorted(triples(`v1-${g}`, 2)), `${g} holds its own quads only`);
      }
      await s.commit([{ graphs: [G("c2")], nquads: nq("v2", ["c2"], 1) }]);
      assert.deepEqual((await contents(s, G("c2"))), sorted(triples("v2-c2", 1)), "replaced");
      assert.deepEqual((await contents(s, G("c1"))), sorted(triples("v1-c1", 2)), "untouched");
    });
    const expect = async (s: GraphStore): Promise<void> => {
      assert.deepEqual((await contents(s, G("c1"))), sorted(triples("v1-c1", 2)));
      assert.deepEqual((await contents(s, G("c2"))), sorted(triples("v2-c2", 1)));
      assert.deepEqual((await contents(s, G("c3"))), sorted(triples("v1-c3", 2)));
      assert.deepEqual((await contents(s, G("ds"))), sorted(triples("ds")));
      assert.deepEqual((await contents(s, G("other"))), sorted(triples("other")));
      assert.deepEqual(s.graphsWithPrefix(EX).sort(), ["c1", "c2", "c3", "ds", "other"].map(G));
    };
    await withStore(dir, expect);
    await withStore(dir, (s) => assert.equal(s.openInfo.compacted, true), { compactAboveBytes: 0 });
    await withStore(dir, expect);
  });

  it("durable:false commits are replayed after a clean close", async () => {
    const dir = tempDir();
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("p"), ntriples: triples("p1") }], { durable: false });
      await s.commit([{ graph: G("p"), ntriples: triples("p2") }], { durable: false });
      await s.commit([{ graph: G("q"), ntriples: triples("q") }], { durable: false });
      // Not awaited: close() must wait for it.
      void s.commit([{ graph: G("r"), ntriples: triples("r") }], { durable: false });
    });
    await withStore(dir, async (s) => {
      assert.equal(s.openInfo.lastSeq, 4);
      assert.deepEqual((await contents(s, G("p"))), sorted(triples("p2")));
      assert.deepEqual((await contents(s, G("q"))), sorted(triples("q")));
      assert.deepEqual((await contents(s, G("r"))), sorted(triples("r")));
    });
  });

  it("a torn tail on a segment that holds nothing else (header only) recovers an empty store", async () => {
    const dir = tempDir();
    const j = journalPath(dir, 1);
    writeFileSync(j, encodeRecord(1, [{ graph: G("a"), ntriples: triples("a") }]).subarray(0, HEADER_BYTES - 3));
    await withStore(dir, async (s) => {
      assert.ok(s.openInfo.tornTail);
      assert.equal(s.openInfo.lastSeq, 0);
      assert.equal(s.has(G("a")), false);
      await s.commit([{ graph: G("b"), ntriples: triples("b") }]);
    });
    assert.equal(statSync(j).size > 0, true);
    await withStore(dir, async (s) => {
      assert.equal(s.openInfo.tornTail, undefined);
      assert.deepEqual((await contents(s, G("b"))), sorted(triples("b")));
    });
    // A torn append to that segment later is again truncated to the last complete commit.
    const size = statSync(j).size;
    appendFileSync(j, encodeRecord(2, [{ graph: G("c"), ntriples: triples("c") }]).subarray(0, 40));
    await withStore(dir, (s) => assert.ok(s.openInfo.tornTail));
    assert.equal(statSync(j).size, size);
  });

  it("a staged graph is loaded but not served until a commit with preloaded publishes it, and the journal holds it", async () => {
    const dir = tempDir();
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("old"), ntriples: triples("old") }]);
      assert.throws(() => s.stage(G("old")), /cannot stage/);
      const st = s.stage(G("big"));
      assert.throws(() => s.stage(G("big")), /cannot stage/);
      await st.load(triples("part1", 5));
      await st.load(triples("part2", 5));
      assert.equal(s.has(G("big")), false);
      assert.ok(![...s.allGraphs()].includes(G("big")));
      // The journalled body is what was staged: here the two parts, as the upload concatenates them.
      const body = triples("part1", 5) + triples("part2", 5);
      await assert.rejects(s.commit([{ graph: G("other"), ntriples: body }], { preloaded: [st] }), /no put of staged graph/);
      await s.commit([{ graph: G("big"), ntriples: body }], { preloaded: [st] });
      assert.equal(s.has(G("big")), true);
      assert.deepEqual((await contents(s, G("big"))), sorted(body));
      assert.equal(s.has(G("other")), false);
    });
    await withStore(dir, async (s) => {
      assert.deepEqual((await contents(s, G("big"))), sorted(triples("part1", 5) + triples("part2", 5)));
      assert.deepEqual((await contents(s, G("old"))), sorted(triples("old")));
    });
  });

  it("a discarded stage leaves nothing in memory or on disk, and the graph can be staged again", async () => {
    const dir = tempDir();
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("kept"), ntriples: triples("kept") }]);
      const st = s.stage(G("x"));
      await st.load(triples("x", 4));
      // A snapshot taken while the stage is open holds the committed graphs only.
      await s.compact();
      assert.equal(snapshots(dir).length, 1);
      await s.commit([{ graph: G("kept"), delete: true }]);
      await st.discard();
      assert.equal((await s.quadsInMemory()), 0);
      await assert.rejects(st.load(triples("y")), /closed/);
      const again = s.stage(G("x"));
      await again.load(triples("z", 2));
      await again.discard();
      assert.equal((await s.quadsInMemory()), 0);
    });
    await withStore(dir, async (s) => {
      assert.equal(s.has(G("x")), false);
      assert.equal((await s.quadsInMemory()), 0);
    });
    // The snapshot alone (journal after it removed) has "kept" and nothing staged.
    for (const j of journals(dir)) rmSync(join(dir, j));
    await withStore(dir, async (s) => {
      assert.deepEqual([...s.allGraphs()], [G("kept")]);
      assert.equal((await s.quadsInMemory()), 3);
    });
  });

  it("capacity: a commit or stage load past maxQuads fails with 507 before anything is journalled; replaced data still counts until reopen", async () => {
    const dir = tempDir();
    await withStore(
      dir,
      async (s) => {
        await s.commit([{ graph: G("a"), ntriples: triples("a", 3000) }]);
        assert.deepEqual(s.capacity(), { loaded: 3000, live: 3000, max: 5000, renewals: 0 });
        // Replacing a graph frees nothing in Oxigraph's memory store: loaded grows, live does not.
        // (Renewal cannot help below: old 4500 + current 1500 would not fit together in 5000.)
        await s.commit([{ graph: G("a"), ntriples: triples("b", 1500) }]);
        assert.deepEqual(s.capacity(), { loaded: 4500, live: 1500, max: 5000, renewals: 0 });
        const seq = s.lastSeq;
        const size = (await s.quadsInMemory());
        await assert.rejects(
          s.commit([{ graph: G("c"), ntriples: triples("c", 1200) }]),
          (e: Error & { status?: number }) => e.status === 507 && /cannot take 1200 more triples.*has loaded 4500.*1500 of them current data.*could not renew.*restart the service/.test(e.message),
        );
        assert.equal(s.lastSeq, seq, "no record was written");
        assert.equal((await s.quadsInMemory()), size);
        assert.equal(s.has(G("c")), false);
        // Small commits (task states) may use the 2 % reserve above the capacity.
        await s.commit([{ graph: G("task"), ntriples: triples("t", 600) }]);
        assert.equal(s.capacity().loaded, 5100);
        // A stage load is checked the same way, before it loads anything.
        const st = s.stage(G("staged"));
        await assert.rejects(st.load(triples("s", 2000)), (e: Error & { status?: number }) => e.status === 507);
        await st.discard();
        assert.equal((await s.quadsInMemory()), 1500 + 600);
        // More than the store can hold at all: the message says so.
        await assert.rejects(s.commit([{ graph: G("huge"), ntriples: triples("h", 6000) }]), /more than the store can hold even after a restart/);
      },
      { maxQuads: 5000 },
    );
    // Reopening loads only the current graphs: the replaced 3000 triples are not loaded again.
    await withStore(
      dir,
      async (s) => {
        assert.deepEqual(s.capacity(), { loaded: 2100, live: 2100, max: 5000, renewals: 0 });
        assert.deepEqual((await contents(s, G("a"))), sorted(triples("b", 1500)));
        await s.commit([{ graph: G("c"), ntriples: triples("c", 1200) }]);
      },
      { maxQuads: 5000 },
    );
  });

  it("renewal: the store reloads only its current data into a new store — before work would not fit, or once past half its capacity with more garbage than data", async () => {
    const dir = tempDir();
    const renewed: number[] = [];
    await withStore(
      dir,
      async (s) => {
        s.onRenew(() => renewed.push(s.capacity().loaded));
        await s.commit([{ graph: G("a"), ntriples: triples("a", 2000) }]);
        await s.commit([{ graph: G("a"), ntriples: triples("b", 1000) }]);
        // Replacing a graph frees nothing in Oxigraph's memory store: loaded 3000, current 1000.
        assert.deepEqual(s.capacity(), { loaded: 3000, live: 1000, max: 5000, renewals: 0 });
        // Past half the capacity (2500) with more garbage (2000) than data (1000): the next
        // commit renews first. Old + new (3000 + 1000) fit in 5000.
        await s.commit([{ graph: G("d"), ntriples: triples("d", 100) }]);
        assert.equal(await s.quadsInMemory(), 1100, "a new in-memory store: only the current triples");
        assert.deepEqual(renewed, [1000], "right after the renewal only the current triples count as loaded");
        assert.deepEqual(s.capacity(), { loaded: 1100, live: 1100, max: 5000, renewals: 1 });
        await s.commit([{ graph: G("d"), delete: true }]);
        await s.commit([{ graph: G("a"), ntriples: triples("e", 1500) }]);
        // loaded 2600, current 1500: less garbage than data, so no early renewal; but 2500 more
        // would pass 5000 while current + 2500 fits: this commit renews. Small commits sent at
        // the same time were queued first: the renewal waits for them and reloads them too.
        assert.deepEqual(s.capacity(), { loaded: 2600, live: 1500, max: 5000, renewals: 1 });
        const big = s.commit([{ graph: G("c"), ntriples: triples("c", 2500) }]);
        const small = [1, 2, 3].map((i) => s.commit([{ graph: G(`t${i}`), ntriples: triples(`t${i}`, 10) }]));
        await Promise.all([big, ...small]);
        assert.deepEqual(renewed, [1000, 1530]);
        assert.deepEqual(s.capacity(), { loaded: 4030, live: 4030, max: 5000, renewals: 2 });
        assert.equal((await s.quadsInMemory()), 4030);
        assert.deepEqual((await contents(s, G("a"))), sorted(triples("e", 1500)));
        assert.deepEqual((await contents(s, G("c"))), sorted(triples("c", 2500)));
        for (const i of [1, 2, 3]) assert.deepEqual((await contents(s, G(`t${i}`))), sorted(triples(`t${i}`, 10)));
        assert.equal(s.has(G("d")), false);
        // Deleted now, c's 2500 triples are garbage; but old 4030 + new 1530 would not fit
        // together in 5000, so this store cannot renew before a restart: 507 says so.
        await s.commit([{ graph: G("c"), delete: true }]);
        await assert.rejects(
          s.commit([{ graph: G("f"), ntriples: triples("f", 1200) }]),
          (e: Error & { status?: number }) => e.status === 507 && /could not renew its memory now.*restart the service/.test(e.message),
        );
        assert.equal(s.capacity().renewals, 2);
      },
      { maxQuads: 5000 },
    );
    await withStore(
      dir,
      async (s) => {
        assert.deepEqual(s.capacity(), { loaded: 1530, live: 1530, max: 5000, renewals: 0 });
        assert.deepEqual((await contents(s, G("a"))), sorted(triples("e", 1500)));
        assert.equal(s.has(G("c")), false);
        assert.equal(s.has(G("d")), false);
      },
      { maxQuads: 5000 },
    );
  });

  it("renewal and stages: a stage's first load may renew; a stage holding data stops renewal (its data is not on disk)", async () => {
    await withStore(
      tempDir(),
      async (s) => {
        await s.commit([{ graph: G("a"), ntriples: triples("a", 2000) }]);
        await s.commit([{ graph: G("a"), ntriples: triples("b", 1000) }]);
        const st = s.stage(G("staged"));
        await st.load(triples("s", 2500));
        assert.deepEqual(s.capacity(), { loaded: 1000 + 2500, live: 1000, max: 5000, renewals: 1 });
        await assert.rejects(
          s.commit([{ graph: G("f"), ntriples: triples("f", 1600) }]),
          (e: Error & { status?: number }) => e.status === 507 && /could not renew its memory now/.test(e.message),
        );
        await st.discard();
        await s.commit([{ graph: G("f"), ntriples: triples("f", 1600) }]);
        assert.deepEqual(s.capacity(), { loaded: 2600, live: 2600, max: 5000, renewals: 2 });
        assert.deepEqual((await contents(s, G("f"))), sorted(triples("f", 1600)));
        assert.equal(s.has(G("staged")), false);
      },
      { maxQuads: 5000 },
    );
  });

  it("renewal: commits and stage loads that come while it runs wait for it and land in the new store", async () => {
    await withStore(
      tempDir(),
      async (s) => {
        await s.commit([{ graph: G("a"), ntriples: triples("a", 2000) }]);
        await s.commit([{ graph: G("a"), ntriples: triples("b", 1000) }]);
        const big = s.commit([{ graph: G("c"), ntriples: triples("c", 2500) }]);
        // The renewal starts a few microtasks later (and may end within one macrotask): poll them.
        for (let i = 0; i < 10_000 && !s.renewalUnderWay; i++) await Promise.resolve();
        assert.equal(s.renewalUnderWay, true);
        const during = s.commit([{ graph: G("t"), ntriples: triples("t", 10) }]);
        const st = s.stage(G("staged"));
        const load = st.load(triples("s", 20));
        await Promise.all([big, during, load]);
        assert.deepEqual((await contents(s, G("t"))), sorted(triples("t", 10)));
        assert.deepEqual((await contents(s, G("c"))), sorted(triples("c", 2500)));
        await s.commit([{ graph: G("staged"), ntriples: triples("s", 20) }], { preloaded: [st] });
        assert.deepEqual((await contents(s, G("staged"))), sorted(triples("s", 20)));
        assert.deepEqual(s.capacity(), { loaded: 3530, live: 3530, max: 5000, renewals: 1 });
      },
      { maxQuads: 5000 },
    );
  });

  it("recovery skips operations whose graphs are written again later, with the same final graphs", async () => {
    const dir = tempDir();
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("x"), ntriples: triples("x1", 50) }, { graph: G("y"), ntriples: triples("y1", 20) }]);
      await s.commit([{ graph: G("x"), ntriples: triples("x2", 10) }]);
      await s.commit([{ graph: G("y"), delete: true }]);
      await s.commit([{ graphs: [G("m1"), G("m2")], nquads: `<${EX}s> <${EX}p> "1" <${G("m1")}> .\n<${EX}s> <${EX}p> "2" <${G("m2")}> .\n` }]);
      await s.commit([{ graph: G("m1"), ntriples: triples("m1", 4) }]);
      await s.compact();
      await s.commit([{ graph: G("x"), ntriples: triples("x3", 7) }]);
      await s.commit([{ graph: G("z"), ntriples: triples("z", 5) }, { graph: G("z"), delete: true }]);
    });
    await withStore(dir, async (s) => {
      assert.deepEqual([...s.allGraphs()].sort(), [G("m1"), G("m2"), G("x")]);
      assert.deepEqual((await contents(s, G("x"))), sorted(triples("x3", 7)));
      assert.deepEqual((await contents(s, G("m1"))), sorted(triples("m1", 4)));
      assert.deepEqual((await contents(s, G("m2"))), [`<${EX}s> <${EX}p> "2" .`]);
      // Loaded: the snapshot's x2 (10) is superseded by x3 and skipped; z's put is deleted in the
      // same commit and skipped; the snapshot's m1, m2 and the journal's x3 are loaded.
      assert.deepEqual(s.capacity(), { loaded: 4 + 1 + 7, live: 12, max: 9_000_000, renewals: 0 });
    });
  });

  it("dump refuses a graph over maxDumpTriples with 406 naming the sizes and what to ask for instead", async () => {
    await withStore(
      tempDir(),
      async (s) => {
        await s.commit([{ graph: G("small"), ntriples: triples("s", 10) }, { graph: G("big"), ntriples: triples("b", 11) }]);
        assert.deepEqual(sorted(await s.dump(G("small"), "application/n-triples")), sorted(triples("s", 10)));
        assert.equal(s.graphSize(G("big")), 11);
        await assert.rejects(
          s.dump(G("big"), "application/n-triples"),
          (e: Error & { status?: number }) => e.status === 406 && /has 11 triples; RDF is written for at most 10 .*text\/csv/.test(e.message),
        );
      },
      { maxDumpTriples: 10 },
    );
  });

  it("storedBody: where each graph's current N-Triples lie on disk, after commits, reopen and compaction", async () => {
    const dir = tempDir();
    /** The bytes at a graph's stored body, as sorted lines. */
    const onDisk = (s: GraphStore, g: string): string[] => {
      const at = s.storedBody(g);
      assert.ok(at, `${g} has a stored body`);
      return sorted(readFileSync(at.path).subarray(at.offset, at.offset + at.length).toString("utf8"));
    };
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("a"), ntriples: triples("a1", 3) }, { graph: G("b"), ntriples: Buffer.from(UNICODE) }]);
      await s.commit([{ graph: G("a"), ntriples: triples("a2", 5) }, { graph: G("gone"), ntriples: triples("g", 2) }]);
      await s.commit([{ graph: G("gone"), delete: true }, { graphs: [G("m")], nquads: `<${EX}s> <${EX}p> "1" <${G("m")}> .\n` }]);
      assert.deepEqual(onDisk(s, G("a")), sorted(triples("a2", 5)), "the last put of a, not the first");
      assert.deepEqual(onDisk(s, G("b")), sorted(UNICODE), "byte offsets, not character offsets");
      assert.equal(s.storedBody(G("gone")), undefined, "a deleted graph has none");
      assert.equal(s.storedBody(G("m")), undefined, "a graph of a several-graph put has none");
    });
    await withStore(dir, async (s) => {
      assert.deepEqual(onDisk(s, G("a")), sorted(triples("a2", 5)), "after reopen: found by recovery");
      assert.deepEqual(onDisk(s, G("b")), sorted(UNICODE));
      assert.equal(s.storedBody(G("gone")), undefined);
    });
    await withStore(
      dir,
      async (s) => {
        assert.equal(s.openInfo.compacted, true);
        assert.match(basename(s.storedBody(G("a"))!.path), /^snapshot-/, "after compaction the body lies in the snapshot");
        assert.deepEqual(onDisk(s, G("a")), sorted(triples("a2", 5)));
        assert.deepEqual(onDisk(s, G("b")), sorted(UNICODE));
        await s.commit([{ graph: G("b"), ntriples: triples("b2", 4) }]);
        assert.match(basename(s.storedBody(G("b"))!.path), /^journal-/);
        assert.deepEqual(onDisk(s, G("b")), sorted(triples("b2", 4)));
        await s.compact();
        assert.deepEqual(onDisk(s, G("b")), sorted(triples("b2", 4)), "store.compact() while running moves it to the new snapshot");
        assert.match(basename(s.storedBody(G("b"))!.path), /^snapshot-/);
      },
      { compactAboveBytes: 0 },
    );
  });
});

/**
 * Disk faults on real file systems: a tmpfs of 8 MiB (test/helpers/disk.ts: mounted in a private
 * mount namespace, so nothing is left mounted however the test ends). Filled with a filler file
 * until the kernel answers ENOSPC, it is a full disk; remounted read-only, a read-only one. The
 * fsync failure uses ext4 on a loop device over a smaller tmpfs (`thinDisk`); EFBIG a process
 * file-size limit (prlimit).
 */
describe("GraphStore when the disk does not take a write (full, read-only, failing, a file-size limit)", () => {
  let disk: SmallDisk;
  before(async () => {
    disk = await smallDisk(8 << 20);
  });
  after(async () => {
    await disk?.close();
  });
  afterEach(() => {
    disk.release();
  });

  /** A store directory of its own on the small disk. */
  let n = 0;
  const storeDir = (): string => join(disk.dir, `store-${n++}`);

  /** Every graph of the store with its sorted triples (the whole in-memory state). */
  const state = async (s: GraphStore): Promise<Record<string, string[]>> => Object.fromEntries(await Promise.all([...s.allGraphs()].sort().map(async (g) => [g, await contents(s, g)] as const)));

  it("a commit the full disk cannot take fails with 507 and leaves nothing: the journal ends at the last complete record, memory is as before, commits queued behind it fail too, the replica is told of none; after space returns the next commit succeeds; reopen holds exactly the acknowledged commits", async () => {
    const dir = storeDir();
    const posted: { seq: number; at: RecordLocation }[] = [];
    const nq = (graphs: string[]): string => graphs.map((g) => triples(g, 2).replaceAll(" .\n", ` <${G(g)}> .\n`)).join("");
    const s = await GraphStore.open(dir);
    let acknowledged: Record<string, string[]>;
    try {
      s.onRecord((seq, at) => posted.push({ seq, at }));
      await s.commit([{ graph: G("keep"), ntriples: triples("keep") }, { graph: G("r"), ntriples: triples("r-old") }, { graph: G("d"), ntriples: triples("d") }]);
      const journal = newestJournal(dir);
      const size = statSync(journal).size;
      const before = (await state(s));
      const quads = (await s.quadsInMemory());
      const live = s.capacity().live;
      const seq = s.lastSeq;

      disk.fill();
      assert.equal(disk.free(), 0, "the disk is full");
      // A new graph large enough to need new pages (the journal's last page may have room for a
      // few bytes), new graphs from N-Quads, a replacement and a deletion of existing graphs.
      const failing = s.commit([
        { graph: G("new"), ntriples: triples("new", 5000) },
        { graphs: [G("m1"), G("m2")], nquads: nq(["m1", "m2"]) },
        { graph: G("r"), ntriples: triples("r-new") },
        { graph: G("d"), delete: true },
      ]);
      // Queued behind it: a durable commit and a progress write (durable: false).
      const behind = s.commit([{ graph: G("behind"), ntriples: triples("behind", 3000) }]);
      const progress = s.commit([{ graph: G("r"), ntriples: triples("r-progress", 3000) }], { durable: false });
      const full = `: the disk holding ${dir} is full (ENOSPC). Nothing of it was stored`;
      await assert.rejects(failing, (e: Error & { status?: number }) => e.status === 507 && e.message.startsWith(`could not write the change to <${G("new")}> and 4 other graphs to ${journal}${full}`));
      await assert.rejects(behind, (e: Error & { status?: number }) => e.status === 507 && e.message.startsWith(`could not write the change to <${G("behind")}> to ${journal}${full}`));
      await assert.rejects(progress, (e: Error & { status?: number }) => e.status === 507 && e.message.startsWith(`could not write the change to <${G("r")}> to ${journal}${full}`));

      assert.equal(statSync(journal).size, size, "the journal is cut back to its last complete record");
      assert.equal(s.lastSeq, seq, "the failed commits' seqs are given out again");
      assert.deepEqual((await state(s)), before, "every graph as before");
      assert.equal((await s.quadsInMemory()), quads, "and nothing else in memory (what was loaded ahead is dropped)");
      assert.equal(s.capacity().live, live, "the triples of the current graphs are counted as before");
      for (const g of ["keep", "r", "d"]) assert.equal(s.has(G(g)), true, `${g} is served (not left pending)`);
      assert.deepEqual(posted.map((p) => p.seq), [1], "the replica is told of the acknowledged commit only");

      // Still full: the next commit fails the same way, and the journal stays as it was.
      await assert.rejects(s.commit([{ graph: G("again"), ntriples: triples("again", 3000) }]), (e: Error & { status?: number }) => e.status === 507);
      assert.equal(statSync(journal).size, size);

      disk.release();
      const next = await s.commit([{ graph: G("after"), ntriples: triples("after", 3000) }, { graph: G("r"), ntriples: triples("r-after") }]);
      assert.equal(next, seq + 1);
      assert.deepEqual(posted.map((p) => p.seq), [1, 2]);
      // What the replica is told lies in the journal as one complete record, the one committed.
      const bytes = readFileSync(journal);
      for (const p of posted) {
        assert.equal(p.at.path, journal);
        const rec = decodeRecord(bytes.subarray(p.at.offset, p.at.offset + p.at.length));
        assert.equal(rec.seq, p.seq);
      }
      assert.equal(posted[1]!.at.offset, size, "written where the failed record had begun");
      assert.deepEqual((await contents(s, G("r"))), sorted(triples("r-after")));
      acknowledged = (await state(s));
    } finally {
      await s.close();
    }
    await withStore(dir, async (s2) => {
      assert.equal(s2.openInfo.tornTail, undefined, "no torn tail: the failed records were cut back");
      assert.equal(s2.openInfo.lastSeq, 2);
      assert.deepEqual((await state(s2)), acknowledged);
      assert.deepEqual(Object.keys(acknowledged), ["after", "d", "keep", "r"].map(G));
    });
  });

  it("a stage whose commit fails on a full disk is discarded; the graph can be staged and committed once space returns", async () => {
    const dir = storeDir();
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("task"), ntriples: triples("queued") }]);
      const st = s.stage(G("ds"));
      await st.load(triples("part1", 2000));
      await st.load(triples("part2", 2000));
      disk.fill();
      const body = triples("part1", 2000) + triples("part2", 2000);
      await assert.rejects(
        s.commit([{ graph: G("ds"), ntriples: body }, { graph: G("task"), ntriples: triples("completed") }], { preloaded: [st] }),
        (e: Error & { status?: number }) => e.status === 507 && /full \(ENOSPC\)/.test(e.message),
      );
      assert.equal((await s.quadsInMemory()), 3, "the staged triples are gone; the task graph is as before");
      assert.deepEqual((await contents(s, G("task"))), sorted(triples("queued")));
      disk.release();
      const again = s.stage(G("ds"));
      await again.load(body);
      await s.commit([{ graph: G("ds"), ntriples: body }, { graph: G("task"), ntriples: triples("completed") }], { preloaded: [again] });
      assert.equal(s.has(G("ds")), true);
    });
    await withStore(dir, async (s) => {
      assert.deepEqual((await contents(s, G("ds"))), sorted(triples("part1", 2000) + triples("part2", 2000)));
      assert.deepEqual((await contents(s, G("task"))), sorted(triples("completed")));
    });
  });

  it("open on a full disk: the due compaction is not done and changes nothing; the store serves; the next open with space compacts", async () => {
    const dir = storeDir();
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("a"), ntriples: triples("a1", 100) }]);
      await s.commit([{ graph: G("a"), ntriples: triples("a2", 100) }, { graph: G("b"), ntriples: triples("b") }]);
    });
    const journalBytes = readFileSync(newestJournal(dir));
    disk.fill();
    await withStore(
      dir,
      async (s) => {
        assert.equal(s.openInfo.compacted, false);
        assert.match(s.openInfo.compactionFailed ?? "", new RegExp(`could not write a snapshot of commit 2 to ${dir}/snapshot-0+2\\.qgs: the disk holding ${dir} is full \\(ENOSPC\\)`));
        assert.equal(s.openInfo.notWritable, undefined, "the journal itself is open");
        assert.deepEqual((await contents(s, G("a"))), sorted(triples("a2", 100)));
        assert.deepEqual((await contents(s, G("b"))), sorted(triples("b")));
      },
      { compactAboveBytes: 0 },
    );
    assert.deepEqual(snapshots(dir), [], "no snapshot");
    assert.deepEqual(files(dir, /\.tmp$/), [], "the partial snapshot was removed (its space given back)");
    assert.deepEqual(readFileSync(newestJournal(dir)), journalBytes, "the journal is untouched");
    disk.release();
    await withStore(dir, (s) => assert.equal(s.openInfo.compacted, true), { compactAboveBytes: 0 });
    await withStore(dir, async (s) => {
      assert.deepEqual((await contents(s, G("a"))), sorted(triples("a2", 100)));
      assert.deepEqual((await contents(s, G("b"))), sorted(triples("b")));
    });
  });

  it("open on a read-only disk: serves what is complete, keeps a torn tail it cannot cut; commits fail with 507 until the disk is writable again, then the tail is cut and the commit goes after the last complete record", async () => {
    const dir = storeDir();
    await withStore(dir, (s) => s.commit([{ graph: G("a"), ntriples: triples("a") }]));
    const journal = newestJournal(dir);
    const valid = statSync(journal).size;
    appendFileSync(journal, encodeRecord(2, [{ graph: G("torn"), ntriples: triples("torn") }]).subarray(0, 60));
    disk.remount("ro");
    let remounted = false;
    try {
      await withStore(dir, async (s) => {
        assert.match(s.openInfo.tornTail ?? "", /cut short/);
        assert.match(s.openInfo.notWritable ?? "", new RegExp(`the disk holding ${dir} is read-only \\(EROFS\\)`));
        assert.equal(statSync(journal).size, valid + 60, "the torn tail is still there");
        assert.deepEqual((await contents(s, G("a"))), sorted(triples("a")));
        assert.equal(s.has(G("torn")), false);
        await assert.rejects(
          s.commit([{ graph: G("b"), ntriples: triples("b") }]),
          (e: Error & { status?: number }) => e.status === 507 && e.message.startsWith(`could not write the change to <${G("b")}> to ${journal}: the disk holding ${dir} is read-only (EROFS)`),
        );
        assert.equal(s.has(G("b")), false);
        disk.remount("rw");
        remounted = true;
        assert.equal(await s.commit([{ graph: G("b"), ntriples: triples("b") }]), 2);
      });
    } finally {
      if (!remounted) disk.remount("rw");
    }
    const bytes = readFileSync(journal);
    const { records, tornReason } = scanRecords(bytes);
    assert.equal(tornReason, undefined, "the torn tail was cut before the new record");
    assert.deepEqual(records.map((r) => r.seq), [1, 2]);
    await withStore(dir, async (s) => {
      assert.deepEqual([...s.allGraphs()].sort(), [G("a"), G("b")]);
      assert.deepEqual((await contents(s, G("b"))), sorted(triples("b")));
    });
  });

  it("an fsync that fails after the write succeeded (the storage under ext4 ran out: ENOSPC or EIO) fails the commit with 507; memory and the replica never see it; the kernel's switch to read-only gives 507 after", async () => {
    // ext4 of 64 MiB on 8 MiB of real storage (thinDisk): the 16 MB record is written into the
    // page cache without error, and its fsync is what fails.
    const thin = await thinDisk(8 << 20, 64 << 20);
    try {
      const dir = join(thin.dir, "store");
      const posted: number[] = [];
      await withStore(dir, async (s) => {
        s.onRecord((seq) => posted.push(seq));
        await s.commit([{ graph: G("a"), ntriples: triples("a") }]);
        const before = (await state(s));
        const quads = (await s.quadsInMemory());
        const big = triples("big", 250_000);
        assert.ok(Buffer.byteLength(big) > 16e6);
        await assert.rejects(
          s.commit([{ graph: G("big"), ntriples: big }, { graph: G("a"), delete: true }]),
          (e: Error & { status?: number }) =>
            e.status === 507 &&
            // The block layer reports the device's lack of space as ENOSPC or EIO.
            new RegExp(`^could not write the change to <${G("big")}> and 1 other graph to ${newestJournal(dir)}: the disk holding ${dir} (is full \\(ENOSPC\\)|reported an input/output error \\(EIO\\))\\. `).test(e.message) &&
            // ext4 went read-only: the record could not be cut off, and the message says what that means
            /could not be removed from the journal either .*a restart before the disk is writable again may find the change stored/.test(e.message),
        );
        assert.deepEqual((await state(s)), before);
        assert.equal((await s.quadsInMemory()), quads);
        assert.equal(s.has(G("a")), true);
        assert.deepEqual(posted, [1], "the replica was not told of the record");
        await assert.rejects(
          s.commit([{ graph: G("b"), ntriples: triples("b") }]),
          (e: Error & { status?: number }) => e.status === 507 && /is read-only \(EROFS\)/.test(e.message),
        );
        assert.deepEqual(posted, [1]);
      });
    } finally {
      await thin.close();
    }
  });

  it("a file-size limit (EFBIG): the commit past it fails with 507 naming the limit, smaller ones go on", async () => {
    // RLIMIT_FSIZE on a child process (prlimit): Node ignores SIGXFSZ, so a write past the limit
    // is cut short and the next one fails with EFBIG, as for a service started under `ulimit -f`.
    const dir = tempDir();
    const limit = 64 * 1024;
    const script = `
      const { GraphStore } = await import(${JSON.stringify(new URL("../../../src/store/graph-store.ts", import.meta.url).pathname)});
      const { statSync } = await import("node:fs");
      const t = (tag, n) => Array.from({ length: n }, (_, i) => "<${EX}" + tag + "/s" + i + "> <${EX}p> \\"" + tag + " " + i + "\\" .\\n").join("");
      const s = await GraphStore.open(${JSON.stringify(dir)});
      await s.commit([{ graph: "${G("a")}", ntriples: t("a", 10) }]);
      const journal = ${JSON.stringify(journalPath(dir, 1))};
      const before = statSync(journal).size;
      let error = "";
      try { await s.commit([{ graph: "${G("big")}", ntriples: t("big", 5000) }]); } catch (e) { error = e.status + " " + e.message; }
      const after = statSync(journal).size;
      const seq = await s.commit([{ graph: "${G("c")}", ntriples: t("c", 10) }]);
      await s.close();
      console.log(JSON.stringify({ before, after, error, seq }));
    `;
    const r = spawnSync("prlimit", [`--fsize=${limit}`, process.execPath, "--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim().split("\n").pop()!) as { before: number; after: number; error: string; seq: number };
    assert.ok(out.error.startsWith(`507 could not write the change to <${G("big")}> to ${journalPath(dir, 1)}: ${journalPath(dir, 1)} has reached the largest file size the service may write (EFBIG`), out.error);
    assert.equal(out.after, out.before, "cut back");
    assert.equal(out.seq, 2);
    await withStore(dir, async (s) => {
      assert.deepEqual([...s.allGraphs()].sort(), [G("a"), G("c")]);
      assert.equal((await contents(s, G("c"))).length, 10);
    });
  });
});
