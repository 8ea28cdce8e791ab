/**
 * Oxigraph instances of their own (src/store/oxigraph-instance.ts) and the store's renewal into
 * one (graph-store.ts "Renewal"): a store in a separate instance answers queries made with the
 * shared instance's terms; a dropped instance is collected, but not while one of its terms is
 * still referenced; a store renewed while idle leaves its old instance to the collector, so its
 * WebAssembly memory goes back to the system, and asks for that collection itself. (The figures these rely on were measured; see the
 * module comment: here only what can be counted, not RSS.)
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ox from "oxigraph";
import { collectDropped, newOxigraphInstance, oxigraphInstancesAlive } from "../../../src/store/oxigraph-instance.ts";
import { GraphStore } from "../../../src/store/graph-store.ts";

/** Collect garbage (the service's own full collection) until the finalisers have run (they run in later turns of the event loop). */
async function collect(): Promise<void> {
  for (let i = 0; i < 6; i++) {
    assert.ok(collectDropped() >= 0);
    await new Promise((res) => setTimeout(res, 30));
  }
}

const nquads = (n: number, tag: string, graph: string): string =>
  Array.from({ length: n }, (_, i) => `<http://example.org/${tag}/${i}> <http://example.org/value> "${i}" <${graph}> .\n`).join("");

describe("Oxigraph instances of their own", () => {
  it("is a separate module whose store answers matches and queries made with the shared instance's terms", () => {
    const other = newOxigraphInstance();
    assert.notEqual(other, ox);
    assert.notEqual(other.Store, ox.Store);
    const s = new other.Store();
    s.load(nquads(3, "a", "http://example.org/g"), { format: "application/n-quads" });
    const found = s.match(ox.namedNode("http://example.org/a/1"), null, null, ox.namedNode("http://example.org/g"));
    assert.equal(found.length, 1);
    assert.equal(found[0]!.object.value, "1");
    assert.equal(s.query("ASK { GRAPH <http://example.org/g> { <http://example.org/a/2> ?p \"2\" } }"), true);
    // The shared instance is still what `import` gives, and unaffected.
    assert.equal(new ox.Store().size, 0);
  });

  it("is collected once dropped, and not while one of its terms is referenced", async () => {
    await collect();
    const before = oxigraphInstancesAlive();
    let other: typeof ox | null = newOxigraphInstance();
    let s: ox.Store | null = new other.Store();
    s.load(nquads(1000, "b", "http://example.org/g"), { format: "application/n-quads" });
    let term: ox.Term | null = s.match(null, null, null, null)[0]!.subject;
    (s as unknown as { free(): void }).free();
    s = null;
    other = null;
    await collect();
    assert.equal(oxigraphInstancesAlive(), before + 1, "a term of the instance keeps it");
    assert.equal(term.value.startsWith("http://example.org/b/"), true);
    term = null;
    await collect();
    assert.equal(oxigraphInstancesAlive(), before);
  });

  it("renewing the store while idle moves it into a new instance and releases the old one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "qsargraph-instance-"));
    const store = await GraphStore.open(dir, { idleMs: 200, minIdleGarbage: 100 });
    try {
      const g = "http://example.org/graph/churn";
      const nt = (tag: string): string => nquads(200, tag, g).replace(/ <[^>]+> \.\n/g, " .\n");
      await store.commit([{ graph: g, ntriples: nt("a") }]);
      await store.commit([{ graph: g, ntriples: nt("b") }]);
      await store.commit([{ graph: g, ntriples: nt("c") }]);
      assert.deepEqual([store.capacity().loaded, store.capacity().live], [600, 200]);
      assert.equal((await store.memory.stats()).instances, 1, "the store's thread holds one instance");
      const t0 = performance.now();
      while (store.capacity().renewals === 0 && performance.now() - t0 < 10_000) await new Promise((res) => setTimeout(res, 25));
      assert.equal(store.capacity().renewals, 1);
      assert.deepEqual([store.capacity().loaded, store.capacity().live], [200, 200]);
      const dumped = await store.memory.dump(g, "application/n-triples");
      assert.match(dumped, /<http:\/\/example\.org\/c\/7>/, "the current data is there");
      assert.equal(await store.quadsInMemory(), 200, "replaced data is not");
      // The store's thread runs full collections from 2 s after the renewal on: none here.
      const t1 = performance.now();
      while ((await store.memory.stats()).instances > 1 && performance.now() - t1 < 10_000) await new Promise((res) => setTimeout(res, 50));
      assert.equal((await store.memory.stats()).instances, 1, "one new instance, the old one released by the thread's own collection");
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
