/**
 * store/body-cache.ts on its own (no external store): files published after a commit are found
 * again at start-up for the graphs `ready` with the same commit; every other file is removed; a
 * graph whose delete was undone takes its newest file; a pack goes with its last graph. Expected
 * values are the bodies the tests write themselves. The cache inside the SPARQL backend (commits,
 * crashes, fetches from the store) is tested against Virtuoso in test/external/sparql-store.test.ts.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { ANY_COMMIT, BodyCache, graphKey, readBody } from "../../../src/store/body-cache.ts";
import { freshDir } from "../../helpers/server.ts";

const G = (i: number): string => `http://e/g${i}`;
const nt = (tag: string): string => `<http://e/${tag}> <http://e/p> "${tag}" .\n`;

test("published files are found again for graphs ready with their commit; others, temporary and stray files are removed", async () => {
  const dir = freshDir("qsargraph-bodies-");
  try {
    const { cache } = await BodyCache.open(dir, new Map());
    const a = cache.create(G(1), 3);
    await a.append(nt("a1"));
    await a.append(Buffer.from(nt("a2")));
    await a.seal();
    assert.equal(cache.location(G(1), 3), undefined, "not served before it is published");
    await cache.publish(G(1), 3, a);
    assert.equal((await readBody(cache.location(G(1), 3)!)).toString(), nt("a1") + nt("a2"));
    const pack = await cache.writePack(4, new Map([[G(2), [nt("b").trim()]], [G(3), [nt("c1").trim(), nt("c2").trim()]]]));
    await cache.publishPack(pack);
    assert.equal((await readBody(cache.location(G(3), 4)!)).toString(), nt("c1") + nt("c2"));
    const torn = cache.create(G(4), 5);
    await torn.append(nt("d"));
    writeFileSync(join(dir, `${graphKey(G(9))}-1.nt`), nt("stray"));
    // G(2) is no longer ready (deleted), G(1) was replaced by commit 6 (no file: fetched later).
    const again = await BodyCache.open(dir, new Map([[G(1), 6], [G(3), 4], [G(4), 5]]));
    assert.equal(again.removed, 3, "G(1)'s old file, the stray one, the temporary one");
    assert.equal(again.cache.location(G(1), 6), undefined);
    assert.equal(again.cache.location(G(4), 5), undefined, "a temporary file is never served");
    assert.equal((await readBody(again.cache.location(G(3), 4)!)).toString(), nt("c1") + nt("c2"));
    assert.deepEqual(readdirSync(dir).sort(), ["4.index", "4.pack"]);
    // The pack goes with its last graph.
    await again.cache.forget(G(3));
    assert.deepEqual(readdirSync(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a graph whose delete was undone (ANY_COMMIT) takes its newest file, and says which commit it was", async () => {
  const dir = freshDir("qsargraph-bodies-");
  try {
    const { cache } = await BodyCache.open(dir, new Map());
    for (const [commit, tag] of [[2, "old"], [7, "new"]] as const) {
      const f = cache.create(G(1), commit);
      await f.append(nt(tag));
      await f.publish(cache.path(G(1), commit)); // both left behind, as after a crash mid-replace
    }
    const { cache: c, adopted, removed } = await BodyCache.open(dir, new Map([[G(1), ANY_COMMIT]]));
    assert.deepEqual([...adopted], [[G(1), 7]]);
    assert.equal(removed, 1);
    assert.equal(readFileSync(c.location(G(1), 7)!.path, "utf8"), nt("new"));
    assert.equal(existsSync(cache.path(G(1), 2)), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
