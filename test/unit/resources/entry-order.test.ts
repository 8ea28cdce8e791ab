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
import { EntryOrder, readColumn, readCompoundsInOrder } from "../../../src/resources/entry-order.ts";
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
    const store = await GraphStore.open(dir);
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

  it("reads a feature's column and the compounds in order, in blocks, with each compound's structure", async () => {
    // 1,200 entries (lines 2…1,201: three blocks of 500): compound C(l mod 700), so 500 recur; a
    // value of feature F on every line not divisible by 5, two values on lines divisible by 7;
    // the row's own SMILES on lines divisible by 11; compound graphs (InChI; SMILES for even
    // numbers) stored for compounds 0…599 only. Expected rows are built here from that rule.
    const ds = `${BASE}/dataset/columnsdatas`;
    const F = `${ds}/feature/F`;
    const G = `${ds}/feature/G`;
    const xsd = "http://www.w3.org/2001/XMLSchema#";
    const lines = Array.from({ length: 1200 }, (_, k) => k + 2);
    const c = (l: number): number => l % 700;
    const cu = (n: number): string => `${BASE}/compound/C${n}`;
    const lit = (x: string): string => JSON.stringify(x);
    const t: string[] = [`<${ds}> <${v.qg.numberOfEntries.value}> "1200"^^<${xsd}integer> .`];
    for (const l of [...lines].reverse()) {
      const e = `<${ds}#e${l}>`;
      t.push(`${e} <${v.qg.line.value}> "${l}"^^<${xsd}integer> .`, `${e} <${OT}compound> <${cu(c(l))}> .`);
      if (l % 11 === 0) t.push(`${e} <${v.qg.smiles.value}> ${lit(`row${l}`)} .`);
      const vals: [string, string][] = [];
      if (l % 5 !== 0) vals.push([F, `f${l}`]);
      if (l % 7 === 0) vals.push([F, `g${l}`]);
      vals.push([G, `x${l}`]);
      vals.forEach(([f, x], j) => t.push(`${e} <${OT}values> <${ds}#e${l}v${j}> .`, `<${ds}#e${l}v${j}> <${OT}feature> <${f}> .`, `<${ds}#e${l}v${j}> <${OT}value> ${lit(x)} .`));
    }
    const compounds = Array.from({ length: 600 }, (_, n) => ({
      graph: cu(n),
      ntriples: `<${cu(n)}> <${v.qg.inchi.value}> ${lit(`InChI=1S/C${n}`)} .\n` + (n % 2 === 0 ? `<${cu(n)}> <${v.qg.smiles.value}> ${lit(`S${n}`)} .\n` : ""),
    }));
    const store = await GraphStore.open(join(dir, "column"));
    try {
      await store.commit([{ graph: ds, ntriples: t.join("\n") + "\n" }, ...compounds]);
      const structure = (l: number): { inchi?: string; compoundSmiles?: string } => {
        const n = c(l);
        if (n >= 600) return {};
        return { inchi: `InChI=1S/C${n}`, ...(n % 2 === 0 ? { compoundSmiles: `S${n}` } : {}) };
      };
      const expected = lines.flatMap((l) => {
        const values = [...(l % 5 !== 0 ? [`f${l}`] : []), ...(l % 7 === 0 ? [`g${l}`] : [])];
        return values.map((value) => ({ line: l, compound: cu(c(l)), value, ...(l % 11 === 0 ? { smiles: `row${l}` } : {}), ...structure(l) }));
      });
      const got = await readColumn(new EntryOrder(store, v), ds, F);
      const key = (r: { line: number; value: string }): string => `${r.line} ${r.value}`;
      assert.deepEqual([...got].sort((a, b) => a.line - b.line || key(a).localeCompare(key(b))), [...expected].sort((a, b) => a.line - b.line || key(a).localeCompare(key(b))));
      assert.deepEqual(got.map((r) => r.line), expected.map((r) => r.line), "in line order");

      const firstLine = new Map<number, number>();
      for (const l of lines) if (!firstLine.has(c(l))) firstLine.set(c(l), l);
      const inOrder = [...firstLine].map(([n, l]) => {
        const s = structure(l);
        return { compound: cu(n), line: l, ...(s.inchi ? { inchi: s.inchi } : {}), ...(s.compoundSmiles ? { smiles: s.compoundSmiles } : {}) };
      });
      assert.deepEqual(await readCompoundsInOrder(new EntryOrder(store, v), ds), inOrder);
    } finally {
      await store.close();
    }
  });
});
