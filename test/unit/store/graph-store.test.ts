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
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, describe, it } from "node:test";
import * as ox from "oxigraph";
import { journalPath } from "../../../src/store/disk.ts";
import { GraphStore } from "../../../src/store/graph-store.ts";
import { encodeRecord, HEADER_BYTES } from "../../../src/store/journal.ts";

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
const contents = (s: GraphStore, g: string): string[] => sorted(s.ox.dump({ format: "application/n-triples", from_graph_name: ox.namedNode(g) }));

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "qsargraph-store-"));
  dirs.push(d);
  return d;
}

/** Open, run `fn`, close — closing even when an assertion fails. */
async function withStore<T>(dir: string, fn: (s: GraphStore) => Promise<T> | T, opts?: Parameters<typeof GraphStore.open>[1]): Promise<T> {
  const s = GraphStore.open(dir, opts);
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
      assert.deepEqual(contents(s, G("a")), sorted(triples("a", 5)));
      return { a: contents(s, G("a")), u: contents(s, G("u")), b: contents(s, G("b")), seq: seq2 };
    });
    assert.equal(before.u.length, 2);
    await withStore(dir, (s) => {
      assert.equal(s.openInfo.lastSeq, before.seq);
      assert.equal(s.openInfo.tornTail, undefined);
      for (const g of ["a", "u", "b"]) assert.ok(s.has(G(g)), `has ${g}`);
      assert.deepEqual(contents(s, G("a")), sorted(triples("a", 5)));
      assert.deepEqual(contents(s, G("a")), before.a);
      assert.deepEqual(contents(s, G("u")), before.u);
      assert.match(s.dump(G("u"), "application/n-triples"), /Benzol – C₆H₆ für 5 € 中文 🧪/);
      assert.deepEqual(contents(s, G("b")), before.b);
      assert.deepEqual(s.graphsWithPrefix(`${EX}graph/`).sort(), [G("a"), G("b"), G("u")]);
    });
  });

  it("replaces and deletes graphs, in operation order, and the result survives reopen", async () => {
    const dir = tempDir();
    await withStore(dir, async (s) => {
      await s.commit([{ graph: G("r"), ntriples: triples("old", 4) }, { graph: G("keep"), ntriples: triples("keep") }, { graph: G("d"), ntriples: triples("d") }]);
      await s.commit([{ graph: G("r"), ntriples: triples("new", 2) }]);
      assert.deepEqual(contents(s, G("r")), sorted(triples("new", 2)), "replace leaves no old triples");
      await s.commit([{ graph: G("d"), delete: true }]);
      assert.equal(s.has(G("d")), false);
      assert.deepEqual(contents(s, G("d")), []);
      // Within one commit the operations apply in order.
      await s.commit([{ graph: G("x"), delete: true }, { graph: G("x"), ntriples: triples("x") }]);
      await s.commit([{ graph: G("y"), ntriples: triples("y") }, { graph: G("y"), delete: true }]);
      assert.equal(s.has(G("x")), true);
      assert.equal(s.has(G("y")), false);
    });
    await withStore(dir, (s) => {
      assert.deepEqual(contents(s, G("r")), sorted(triples("new", 2)));
      assert.deepEqual(contents(s, G("keep")), sorted(triples("keep")));
      assert.equal(s.has(G("d")), false);
      assert.deepEqual(contents(s, G("d")), []);
      assert.deepEqual(contents(s, G("x")), sorted(triples("x")));
      assert.equal(s.has(G("y")), false);
      assert.deepEqual(contents(s, G("y")), []);
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
      await withStore(dir, (s) => {
        assert.ok(s.openInfo.tornTail, `cut ${cut}: torn tail reported`);
        assert.equal(s.openInfo.lastSeq, 2, `cut ${cut}: the torn commit is not counted`);
        assert.deepEqual(contents(s, G("one")), sorted(triples("one")), `cut ${cut}: "one" not replaced`);
        assert.deepEqual(contents(s, G("two")), sorted(triples("two")), `cut ${cut}: "two" not deleted`);
        assert.equal(s.has(G("three")), false, `cut ${cut}: "three" absent`);
        assert.deepEqual(contents(s, G("three")), []);
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
    await withStore(dir, (s) => {
      assert.equal(s.openInfo.tornTail, undefined);
      assert.equal(s.openInfo.lastSeq, 3);
      assert.deepEqual(contents(s, G("five")), sorted(triples("five")));
      assert.deepEqual(contents(s, G("one")), sorted(triples("one")));
      assert.equal(s.has(G("three")), false);
    });

    // And the complete record, restored, replays in full.
    writeFileSync(journal, full);
    await withStore(dir, (s) => {
      assert.equal(s.openInfo.tornTail, undefined);
      assert.deepEqual(contents(s, G("one")), sorted(triples("one-replaced", 50)));
      assert.equal(s.has(G("two")), false);
      assert.deepEqual(contents(s, G("three")), sorted(triples("three", 50)));
      assert.deepEqual(contents(s, G("four")), sorted(triples("four", 50)));
    });
  });

  it("compaction at open (compactAboveBytes: 0) writes a snapshot, removes covered journals and keeps every graph", async () => {
    const dir = tempDir();
    const expected = await withStore(dir, async (s) => {
      await s.commit([{ graph: G("a"), ntriples: triples("a", 10) }, { graph: G("u"), ntriples: UNICODE }]);
      await s.commit([{ graph: G("b"), ntriples: triples("b", 10) }]);
      await s.commit([{ graph: G("a"), ntriples: triples("a2", 3) }]);
      await s.commit([{ graph: G("b"), delete: true }]);
      return { a: contents(s, G("a")), u: contents(s, G("u")), seq: s.lastSeq };
    });
    const oldJournals = journals(dir);
    assert.deepEqual(snapshots(dir), []);
    await withStore(
      dir,
      (s) => {
        assert.equal(s.openInfo.compacted, true);
        assert.equal(s.openInfo.lastSeq, expected.seq);
        assert.deepEqual(contents(s, G("a")), expected.a);
      },
      { compactAboveBytes: 0 },
    );
    assert.equal(snapshots(dir).length, 1, "one snapshot written");
    for (const j of oldJournals) assert.ok(!existsSync(join(dir, j)), `covered journal ${j} removed`);
    assert.deepEqual(files(dir, /\.tmp$/), [], "no temporary files left");
    const remaining = journals(dir);
    assert.equal(remaining.length, 1, "a fresh journal segment for new commits");
    assert.equal(statSync(join(dir, remaining[0]!)).size, 0);

    await withStore(dir, (s) => {
      assert.equal(s.openInfo.compacted, false, "nothing to compact on the second open");
      assert.equal(s.openInfo.lastSeq, expected.seq);
      assert.deepEqual(contents(s, G("a")), expected.a);
      assert.deepEqual(contents(s, G("a")), sorted(triples("a2", 3)));
      assert.deepEqual(contents(s, G("u")), expected.u);
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
    await withStore(dir, (s) => {
      assert.equal(s.openInfo.lastSeq, 5);
      assert.deepEqual(contents(s, G("a")), sorted(triples("a-after")));
      assert.equal(s.has(G("b")), false);
      assert.deepEqual(contents(s, G("c")), sorted(triples("c")));
      assert.deepEqual(contents(s, G("d")), sorted(triples("d")));
      assert.deepEqual(contents(s, G("e")), sorted(triples("e")));
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
    await withStore(dir, (s) => {
      assert.deepEqual(contents(s, G("small")), sorted(triples("small")));
      assert.equal(s.has(G("big")), true, "the acknowledged commit is still there after reopen");
      assert.equal(contents(s, G("big")).length, 40_000);
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
    await withStore(dir, (s) => {
      assert.equal(s.openInfo.lastSeq, 3);
      for (const g of ["a", "b", "c"]) assert.deepEqual(contents(s, G(g)), sorted(triples(g)));
    });
    const intact = readFileSync(first);
    const bad = Buffer.from(intact);
    const at = r1.length + HEADER_BYTES + 5; // a payload byte of commit 2
    bad[at] = bad[at]! ^ 0x20;
    writeFileSync(first, bad);
    assert.throws(() => GraphStore.open(dir), (err: Error) => err.message.includes(basename(first)));
    assert.deepEqual(readFileSync(first), bad, "the corrupt segment is left as it was");

    // A cut-short record is just as fatal when it is not in the newest segment.
    writeFileSync(first, intact.subarray(0, intact.length - 7));
    assert.throws(() => GraphStore.open(dir), (err: Error) => err.message.includes(basename(first)));
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
      assert.throws(() => (opened = GraphStore.open(dir)), (err: Error) => err.message.includes(basename(journal)));
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
      opened = GraphStore.open(dir);
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
      assert.equal(contents(s, G("big")).length, N);
      assert.deepEqual(contents(s, G("replaced")), sorted(big.replaceAll("/big/", "/rep/")));
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
        assert.deepEqual(contents(s, G(g)), sorted(triples(`v1-${g}`, 2)), `${g} holds its own quads only`);
      }
      await s.commit([{ graphs: [G("c2")], nquads: nq("v2", ["c2"], 1) }]);
      assert.deepEqual(contents(s, G("c2")), sorted(triples("v2-c2", 1)), "replaced");
      assert.deepEqual(contents(s, G("c1")), sorted(triples("v1-c1", 2)), "untouched");
    });
    const expect = (s: GraphStore): void => {
      assert.deepEqual(contents(s, G("c1")), sorted(triples("v1-c1", 2)));
      assert.deepEqual(contents(s, G("c2")), sorted(triples("v2-c2", 1)));
      assert.deepEqual(contents(s, G("c3")), sorted(triples("v1-c3", 2)));
      assert.deepEqual(contents(s, G("ds")), sorted(triples("ds")));
      assert.deepEqual(contents(s, G("other")), sorted(triples("other")));
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
    await withStore(dir, (s) => {
      assert.equal(s.openInfo.lastSeq, 4);
      assert.deepEqual(contents(s, G("p")), sorted(triples("p2")));
      assert.deepEqual(contents(s, G("q")), sorted(triples("q")));
      assert.deepEqual(contents(s, G("r")), sorted(triples("r")));
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
    await withStore(dir, (s) => {
      assert.equal(s.openInfo.tornTail, undefined);
      assert.deepEqual(contents(s, G("b")), sorted(triples("b")));
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
      assert.deepEqual(contents(s, G("big")), sorted(body));
      assert.equal(s.has(G("other")), false);
    });
    await withStore(dir, (s) => {
      assert.deepEqual(contents(s, G("big")), sorted(triples("part1", 5) + triples("part2", 5)));
      assert.deepEqual(contents(s, G("old")), sorted(triples("old")));
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
      assert.equal(s.ox.size, 0);
      await assert.rejects(st.load(triples("y")), /closed/);
      const again = s.stage(G("x"));
      await again.load(triples("z", 2));
      await again.discard();
      assert.equal(s.ox.size, 0);
    });
    await withStore(dir, (s) => {
      assert.equal(s.has(G("x")), false);
      assert.equal(s.ox.size, 0);
    });
    // The snapshot alone (journal after it removed) has "kept" and nothing staged.
    for (const j of journals(dir)) rmSync(join(dir, j));
    await withStore(dir, (s) => {
      assert.deepEqual([...s.allGraphs()], [G("kept")]);
      assert.equal(s.ox.size, 3);
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
        const size = s.ox.size;
        await assert.rejects(
          s.commit([{ graph: G("c"), ntriples: triples("c", 1200) }]),
          (e: Error & { status?: number }) => e.status === 507 && /cannot take 1200 more triples.*has loaded 4500.*1500 of them current data.*could not renew.*restart the service/.test(e.message),
        );
        assert.equal(s.lastSeq, seq, "no record was written");
        assert.equal(s.ox.size, size);
        assert.equal(s.has(G("c")), false);
        // Small commits (task states) may use the 2 % reserve above the capacity.
        await s.commit([{ graph: G("task"), ntriples: triples("t", 600) }]);
        assert.equal(s.capacity().loaded, 5100);
        // A stage load is checked the same way, before it loads anything.
        const st = s.stage(G("staged"));
        await assert.rejects(st.load(triples("s", 2000)), (e: Error & { status?: number }) => e.status === 507);
        await st.discard();
        assert.equal(s.ox.size, 1500 + 600);
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
        assert.deepEqual(contents(s, G("a")), sorted(triples("b", 1500)));
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
        const old = s.ox;
        await s.commit([{ graph: G("d"), ntriples: triples("d", 100) }]);
        assert.notEqual(s.ox, old, "a new in-memory store");
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
        assert.equal(s.ox.size, 4030);
        assert.deepEqual(contents(s, G("a")), sorted(triples("e", 1500)));
        assert.deepEqual(contents(s, G("c")), sorted(triples("c", 2500)));
        for (const i of [1, 2, 3]) assert.deepEqual(contents(s, G(`t${i}`)), sorted(triples(`t${i}`, 10)));
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
      (s) => {
        assert.deepEqual(s.capacity(), { loaded: 1530, live: 1530, max: 5000, renewals: 0 });
        assert.deepEqual(contents(s, G("a")), sorted(triples("e", 1500)));
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
        assert.deepEqual(contents(s, G("f")), sorted(triples("f", 1600)));
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
        const old = s.ox;
        const during = s.commit([{ graph: G("t"), ntriples: triples("t", 10) }]);
        const st = s.stage(G("staged"));
        const load = st.load(triples("s", 20));
        await Promise.all([big, during, load]);
        assert.notEqual(s.ox, old);
        assert.deepEqual(contents(s, G("t")), sorted(triples("t", 10)));
        assert.deepEqual(contents(s, G("c")), sorted(triples("c", 2500)));
        await s.commit([{ graph: G("staged"), ntriples: triples("s", 20) }], { preloaded: [st] });
        assert.deepEqual(contents(s, G("staged")), sorted(triples("s", 20)));
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
    await withStore(dir, (s) => {
      assert.deepEqual([...s.allGraphs()].sort(), [G("m1"), G("m2"), G("x")]);
      assert.deepEqual(contents(s, G("x")), sorted(triples("x3", 7)));
      assert.deepEqual(contents(s, G("m1")), sorted(triples("m1", 4)));
      assert.deepEqual(contents(s, G("m2")), [`<${EX}s> <${EX}p> "2" .`]);
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
        assert.deepEqual(sorted(s.dump(G("small"), "application/n-triples")), sorted(triples("s", 10)));
        assert.equal(s.graphSize(G("big")), 11);
        assert.throws(
          () => s.dump(G("big"), "application/n-triples"),
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
    await withStore(dir, (s) => {
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
