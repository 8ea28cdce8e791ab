/**
 * store/sparql-store.ts helpers that need no external store: cutting bodies into batches of
 * whole lines, a catalog entry's change, and N-Quads → INSERT DATA (checked by parsing the update with Oxigraph and
 * comparing its quads with the N-Quads parsed on their own). The backend itself is tested
 * against Virtuoso in test/external/sparql-store.test.ts.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import * as ox from "oxigraph";
import { batches, entryChange, nquadsToInsert } from "../../../src/store/sparql-store.ts";

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `<http://e/s${i}> <http://e/p> "${i}" .\n`).join("");

test("batches cut at line ends, at most maxLines lines each, and together give back the body (strings and bytes)", () => {
  const body = lines(10);
  for (const b of [body, Buffer.from(body)]) {
    const parts = [...batches(b, 4, 1 << 20)];
    // 10 lines in batches of 4: 4 + 4 + 2 (by hand).
    assert.deepEqual(parts.map((p) => p.lines), [4, 4, 2]);
    const text = parts.map((p) => (typeof p.part === "string" ? p.part : Buffer.from(p.part).toString())).join("");
    assert.equal(text, body);
    for (const p of parts) assert.ok(String(typeof p.part === "string" ? p.part : Buffer.from(p.part)).endsWith("\n"));
  }
});

test("batches also cut by size: a batch stops before the line that would pass maxBytes, but holds at least one line", () => {
  const body = lines(10); // lines 0–9 are 33 bytes each ("<http://e/sN> <http://e/p> \"N\" .\n", counted by hand)
  assert.equal(body.length, 10 * 33);
  // 100 bytes: three lines (99) fit, a fourth (132) does not.
  assert.deepEqual([...batches(body, 50_000, 100)].map((p) => p.lines), [3, 3, 3, 1]);
  // Smaller than one line: one line per batch.
  assert.deepEqual([...batches(body, 50_000, 10)].map((p) => p.lines), Array(10).fill(1));
  // A last line without its newline is a line too.
  assert.deepEqual([...batches('<http://e/a> <http://e/p> "x" .\n<http://e/b> <http://e/p> "y" .', 1, 1 << 20)].map((p) => p.lines), [1, 1]);
  assert.deepEqual([...batches("", 10, 10)], []);
});

test("nquadsToInsert groups lines by their graph (found at the line's end, whatever the literal holds) and counts them", () => {
  const nq = [
    `<http://e/s> <http://e/p> "a <b> c" <http://e/g1> .`,
    `<http://e/s> <http://e/p> "x"@en <http://e/g2> .`,
    `_:b1 <http://e/p> "1"^^<http://www.w3.org/2001/XMLSchema#integer> <http://e/g2> .`,
    ``,
  ].join("\n");
  const { update, perGraph } = nquadsToInsert(Buffer.from(nq));
  assert.deepEqual([...perGraph], [["http://e/g1", 1], ["http://e/g2", 2]]);
  // The same quads as Oxigraph reads from the N-Quads directly (blank node labels aside).
  const viaUpdate = new ox.Store();
  viaUpdate.update(update);
  const direct = new ox.Store();
  direct.load(nq, { format: "application/n-quads" });
  const shape = (s: ox.Store): string[] => s.match().map((q) => `${q.subject.termType === "BlankNode" ? "_" : q.subject.value} ${q.predicate.value} ${q.object.termType}:${q.object.value}:${q.object.termType === "Literal" ? `${(q.object as ox.Literal).language}/${(q.object as ox.Literal).datatype.value}` : ""} ${q.graph.value}`).sort();
  assert.deepEqual(shape(viaUpdate), shape(direct));
  assert.equal(shape(direct).length, 3);
  // Each graph's lines as N-Triples (for the local body cache): the same triples as Oxigraph reads per graph.
  const { lines: perGraphLines } = nquadsToInsert(Buffer.from(nq));
  for (const g of ["http://e/g1", "http://e/g2"]) {
    const asTriples = new ox.Store();
    asTriples.load(perGraphLines.get(g)!.join("\n"), { format: "application/n-triples", to_graph_name: ox.namedNode(g) });
    assert.deepEqual(shape(asTriples), shape(direct).filter((l) => l.endsWith(` ${g}`)));
  }
  assert.throws(() => nquadsToInsert(`<http://e/s> <http://e/p> "no graph" .\n`), /N-Quads line without a graph/);
});

test("entryChange: the statements a catalog request deletes and inserts; those both entries hold are neither (applied with Oxigraph: the same catalog as deleting the whole old entry and inserting the whole new one)", () => {
  const g = "http://e/g";
  const cat = "http://e/catalog";
  const writing = { state: "writing" as const, triples: 0, commit: 7 };
  const ready = { state: "ready" as const, triples: 4, commit: 7 };
  // A publish: the commit is kept (by hand: state and triples change, commit stays).
  const publish = entryChange(g, writing, ready);
  assert.equal(publish.del.length, 2);
  assert.equal(publish.ins.length, 2);
  assert.ok([...publish.del, ...publish.ins].every((t) => !t.includes("#commit")));
  // A replace's ready entry in a several-request publish keeps what it replaces too.
  const replacing = { ...writing, previousCommit: 3, previousTriples: 9 };
  const replaced = { ...ready, previousCommit: 3, previousTriples: 9 };
  assert.deepEqual([entryChange(g, replacing, replaced).del.length, entryChange(g, replacing, replaced).ins.length], [2, 2]);
  // Only one side: everything of it.
  assert.deepEqual(entryChange(g, undefined, replacing).ins.length, 5);
  assert.deepEqual(entryChange(g, ready, undefined).del.length, 3);
  assert.deepEqual(entryChange(g, ready, ready), { del: [], ins: [] });
  // Applied to a store holding the old entry: the same as the whole delete and insert.
  for (const [from, to] of [[writing, ready], [replacing, replaced], [ready, { state: "deleting" as const, triples: 4, commit: 8 }]] as const) {
    const whole = entryChange(g, undefined, from).ins;
    const full = new ox.Store();
    full.load(whole.join("\n"), { format: "application/n-triples", to_graph_name: ox.namedNode(cat) });
    full.update(`DELETE DATA { GRAPH <${cat}> { ${entryChange(g, from, undefined).del.join("\n")} } } ; INSERT DATA { GRAPH <${cat}> { ${entryChange(g, undefined, to).ins.join("\n")} } }`);
    const diff = new ox.Store();
    diff.load(whole.join("\n"), { format: "application/n-triples", to_graph_name: ox.namedNode(cat) });
    const c = entryChange(g, from, to);
    diff.update(`${c.del.length > 0 ? `DELETE DATA { GRAPH <${cat}> { ${c.del.join("\n")} } } ;` : ""} INSERT DATA { GRAPH <${cat}> { ${c.ins.join("\n")} } }`);
    const dump = (s: ox.Store): string[] => s.match().map((q) => `${q.subject.value} ${q.predicate.value} ${q.object.value}`).sort();
    assert.deepEqual(dump(diff), dump(full));
    assert.equal(dump(full).length, entryChange(g, undefined, to).ins.length);
  }
});
