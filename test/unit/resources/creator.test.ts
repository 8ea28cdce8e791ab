/**
 * Recording who created a resource (src/resources/creator.ts) on a real graph store in a temp
 * dir: the `qg:createdBy` triple goes into every new one-graph put (text and byte bodies, and a
 * staged graph, whose journalled body and loaded content must agree — checked by reopening the
 * store from its journal), never into existing graphs, deletes or several-graph puts (compounds);
 * and the acting creator follows a request's async work (AsyncLocalStorage).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { actAs, actingCreator, withCreator } from "../../../src/resources/creator.ts";
import { read } from "../../../src/resources/reads.ts";
import { GraphStore } from "../../../src/store/graph-store.ts";
import type { GraphOp } from "../../../src/store/journal.ts";
import { Vocab } from "../../../src/store/vocab.ts";
import { QG_NS } from "../../../src/store/vocab.ts";

const BASE = "http://qsar.example.org";
const v = new Vocab(BASE);
const CREATED_BY = `<${QG_NS}createdBy>`;
const G = (name: string): string => `${BASE}/dataset/${name}`;
const body = (g: string): string => `<${g}> <http://purl.org/dc/elements/1.1/title> "${g.slice(-1)}" .\n`;
const text = (b: string | Uint8Array): string => (typeof b === "string" ? b : Buffer.from(b).toString("utf8"));

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "qsargraph-creator-"));
  dirs.push(d);
  return d;
}

describe("withCreator", () => {
  it("adds the triple to new one-graph puts only", async () => {
    const bytes = Buffer.from(body(G("b")).trimEnd()); // no final newline: the triple must not run into it
    const ops: GraphOp[] = [
      { graph: G("a"), ntriples: body(G("a")) },
      { graph: G("b"), ntriples: bytes },
      { graph: G("old"), ntriples: body(G("old")) },
      { graph: G("gone"), delete: true },
      { graphs: [`${BASE}/compound/x`], nquads: `<${BASE}/compound/x> <http://example.org/p> "x" <${BASE}/compound/x> .\n` },
    ];
    const out = await withCreator(ops, "alice", v, (g) => g !== G("old"));
    assert.equal(text((out[0] as { ntriples: string }).ntriples), `<${G("a")}> ${CREATED_BY} "alice" .\n${body(G("a"))}`);
    assert.equal(text((out[1] as { ntriples: Uint8Array }).ntriples), `<${G("b")}> ${CREATED_BY} "alice" .\n${body(G("b")).trimEnd()}`);
    assert.equal(out[2], ops[2]);
    assert.equal(out[3], ops[3]);
    assert.equal(out[4], ops[4]);
    assert.deepEqual(await withCreator(ops, undefined, v, () => true), ops);
  });

  it("loads the triple into a staged graph too, so the store and the journal agree", async () => {
    const dir = tempDir();
    const s = await GraphStore.open(dir);
    try {
      const st = s.stage(G("staged"));
      const b = Buffer.from(body(G("staged")));
      await st.load(b);
      const ops = await withCreator([{ graph: G("staged"), ntriples: b }], "bob", v, (g) => !s.has(g), [st]);
      await s.commit(ops, { preloaded: [st] });
      assert.equal(await read(s, v, "creator", G("staged")), "bob");
      assert.equal((await s.dump(G("staged"), "application/n-triples")).split("\n").filter(Boolean).length, 2);
    } finally {
      await s.close();
    }
    const again = await GraphStore.open(dir);
    try {
      assert.equal(await read(again, v, "creator", G("staged")), "bob", "the journal replays the creator");
      assert.equal((await again.dump(G("staged"), "application/n-triples")).split("\n").filter(Boolean).length, 2);
    } finally {
      await again.close();
    }
  });
});

describe("actingCreator", () => {
  it("is the request's creator across awaits, and undefined outside a request", async () => {
    assert.equal(actingCreator(), undefined);
    const seen = await actAs(() => "alice", async () => {
      await new Promise((r) => setTimeout(r, 5));
      return actingCreator();
    });
    assert.equal(seen, "alice");
    assert.throws(() => actAs(() => { throw new Error("no token yet"); }, () => actingCreator()), /no token yet/);
    assert.equal(actingCreator(), undefined);
  });
});
