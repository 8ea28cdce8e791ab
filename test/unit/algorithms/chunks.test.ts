/**
 * Chunked results (src/algorithms/chunks.ts) on a real embedded store's stage: every chunk's
 * entries end up in the committed graph, in chunk order, and a store slower to load than the
 * pool is to compute never has more than AHEAD (16) chunks computed and not yet loaded. The
 * stage's `load` is the store's own, only delayed (as a remote store's write is) and counted.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { chunked, chunkedBody, runChunks } from "../../../src/algorithms/chunks.ts";
import { GraphStore } from "../../../src/store/graph-store.ts";

const G = "http://example.org/dataset/chunked";
const line = (i: number): string => `<http://example.org/e${i}> <http://example.org/v> "${i}" .\n`;

test("a slow stage: at most 16 chunks wait for their load; the graph holds every chunk's entries", async () => {
  const dir = mkdtempSync(join(tmpdir(), "qsargraph-chunks-"));
  const store = await GraphStore.open(dir);
  try {
    const stage = store.stage(G);
    const load = stage.load.bind(stage);
    let computed = 0;
    let loaded = 0;
    let most = 0;
    stage.load = async (body) => {
      await new Promise((r) => setTimeout(r, 5));
      await load(body);
      loaded++;
    };
    const items = Array.from({ length: 2_000 }, (_, i) => i);
    const { outputs, loads } = await runChunks(
      chunked(items, 20),
      (c) => c.length,
      async (c) => {
        computed++;
        most = Math.max(most, computed - loaded);
        return { entries: Buffer.from(c.map(line).join("")) };
      },
      () => undefined,
      stage,
    );
    assert.ok(most <= 16 && most >= 2, `chunks computed and not loaded at once: ${most}`);
    const body = await chunkedBody(Buffer.from(`<${G}> <http://example.org/title> "t" .\n`), outputs, loads, stage);
    await store.commit([{ graph: G, ntriples: body }], { preloaded: [stage] });
    assert.equal(store.graphSize(G), 2_001);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a failed chunk stops the chunks not yet started: runChunks rejects with its error", async () => {
  const dir = mkdtempSync(join(tmpdir(), "qsargraph-chunks-"));
  const store = await GraphStore.open(dir);
  try {
    const stage = store.stage(G);
    let started = 0;
    await assert.rejects(
      runChunks(
        chunked(Array.from({ length: 100 }, (_, i) => i), 1),
        () => 1,
        async (c) => {
          started++;
          if (c[0] === 3) throw new Error("chunk 3 failed");
          await new Promise((r) => setTimeout(r, 20));
          return { entries: Buffer.from(line(c[0]!)) };
        },
        () => undefined,
        stage,
      ),
      /chunk 3 failed/,
    );
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(started < 100, `chunks started after the failure: ${started} of 100`);
    await stage.discard();
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
