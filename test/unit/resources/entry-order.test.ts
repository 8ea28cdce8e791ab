/**
 * The order of a dataset's entries (src/resources/entry-order.ts), on a real GraphStore in a temp
 * dir: a dataset of 5,000 entries on lines 2…6,001 without every sixth line (so the lines reach
 * past two blocks of lookups and have gaps), compound i on line l being C(l mod 1,000) (so most
 * compounds recur), and a warning that lists two of the lines. The expected lines, pages and compound order are computed here from that
 * rule, not by the code under test.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { EntryOrder } from "../../../src/resources/entry-order.ts";
import { GraphStore } from "../../../src/store/graph-store.ts";
import { Vocab } from "../../../src/store/vocab.ts";

const BASE = "http://localhost:8080";
const v = new Vocab(BASE);
const DS = `${BASE}/dataset/abcdefghijkm`;
const OT = "http://www.opentox.org/api/1.1#";
const dir = mkdtempSync(join(tmpdir(), "qsargraph-order-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const linesOf = (last: number): number[] => Array.from({ length: last - 1 }, (_, k) => k + 2).filter((l) => l % 6 !== 0);
function body(lines: readonly number[]): string {
  // Written in descending order: the store's order must not matter. A warning about lines 2 and
  // 7 lists them with qg:line as well (as an upload's warnings do): it is not an entry.
  const warning = [2, 7].map((l) => `<${DS}#w1> <${v.qg.line.value}> "${l}"^^<http://www.w3.org/2001/XMLSchema#integer> .\n`).join("");
  return (
    warning +
    [...lines]
      .reverse()
      .map((l) => `<${DS}#e${l}> <${v.qg.line.value}> "${l}"^^<http://www.w3.org/2001/XMLSchema#integer> .\n<${DS}#e${l}> <${OT}compound> <${BASE}/compound/C${l % 1000}> .\n`)
      .join("")
  );
}

describe("EntryOrder", () => {
  it("finds the lines in order across blocks and gaps, pages them, and lists compounds by first line", async () => {
    const store = GraphStore.open(dir);
    try {
      const expected = linesOf(6001);
      assert.equal(expected.length, 5000);
      await store.commit([{ graph: DS, ntriples: body(expected) }]);
      const order = new EntryOrder(store, v);
      assert.deepEqual([...(await order.lines(DS))], expected);
      const page = await order.refs(DS, 4000, 5);
      assert.deepEqual(
        page.map((r) => [r.entry, r.line, r.compound]),
        expected.slice(4000, 4005).map((l) => [`${DS}#e${l}`, l, `${BASE}/compound/C${l % 1000}`]),
      );
      const firstSeen: string[] = [];
      for (const l of expected) if (!firstSeen.includes(`${BASE}/compound/C${l % 1000}`)) firstSeen.push(`${BASE}/compound/C${l % 1000}`);
      const compounds: string[] = [];
      for await (const c of order.compounds(DS)) compounds.push(c);
      assert.deepEqual(compounds, firstSeen);

      // The graph replaced by fewer entries: the kept order is not used again.
      await store.commit([{ graph: DS, ntriples: body(linesOf(100)) }]);
      assert.deepEqual([...(await order.lines(DS))], linesOf(100));
      // A dataset that states its number of entries (as the service's do): the same lines.
      const stated = `<${DS}> <${v.qg.numberOfEntries.value}> "5000"^^<http://www.w3.org/2001/XMLSchema#integer> .\n`;
      await store.commit([{ graph: DS, ntriples: stated + body(expected) }]);
      assert.deepEqual([...(await order.lines(DS))], expected);
    } finally {
      await store.close();
    }
  });
});
