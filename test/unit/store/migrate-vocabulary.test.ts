/**
 * Moving a data directory written with the old, base-dependent namespace (`<BASE>/ontology#`)
 * to the stable one (src/store/migrate-vocabulary.ts), on real directories written by the store:
 * every IRI in the old namespace is rewritten (one-graph puts, a several-graph put, a graph
 * replaced after an old write), literals stay as they were, deleted graphs stay deleted, the
 * mark makes the next start a no-op, a crash before the mark redoes nothing harmful, and the
 * store commits and recovers as before afterwards.
 *
 * The expected contents are the fixtures below with the namespace replaced by hand (the test's
 * own string replacement), compared as sorted N-Triples lines.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { GraphStore } from "../../../src/store/graph-store.ts";
import { migrateVocabulary, VOCABULARY_MARK } from "../../../src/store/migrate-vocabulary.ts";

const BASE = "http://qsar.example.org:8080";
const OLD = `${BASE}/ontology#`;
/** The stable namespace, spelt out (README "Vocabulary"), not read from the code. */
const NEW = "https://w3id.org/qsargraph/ontology#";
const OT = "http://www.opentox.org/api/1.1#";

const dataset = (id: string): string =>
  [
    `<${BASE}/dataset/${id}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${OT}Dataset> .`,
    `<${BASE}/dataset/${id}> <${OLD}numberOfCompounds> "2"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
    `<${BASE}/dataset/${id}> <${OLD}warning> <${BASE}/dataset/${id}#w1> .`,
    `<${BASE}/dataset/${id}#w1> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${OLD}Warning> .`,
    // a literal that mentions the old namespace without angle brackets stays as it is
    `<${BASE}/dataset/${id}#w1> <http://www.w3.org/2000/01/rdf-schema#comment> "see ${OLD}line" .`,
    `<${BASE}/dataset/${id}#e1> <${OLD}line> "2"^^<http://www.w3.org/2001/XMLSchema#integer> .`,
  ].join("\n") + "\n";
const compound = (k: number): string => `<${BASE}/compound/C${k}> <${OLD}inchi> "InChI=1S/C${k}" <${BASE}/compound/C${k}> .\n`;

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "qg-migrate-"));
  dirs.push(d);
  return d;
}

const sorted = (nt: string): string[] => nt.split("\n").filter(Boolean).sort();
const renamed = (nt: string): string => nt.replaceAll(`<${OLD}`, `<${NEW}`);

/** A directory as the service wrote it before the stable namespace: old IRIs, a replace, a delete, a several-graph put. */
async function oldDirectory(): Promise<string> {
  const dir = tempDir();
  const s = await GraphStore.open(dir);
  await s.commit([{ graph: `${BASE}/dataset/a`, ntriples: dataset("a") }]);
  await s.commit([{ graphs: [`${BASE}/compound/C1`, `${BASE}/compound/C2`], nquads: compound(1) + compound(2) }]);
  await s.commit([{ graph: `${BASE}/dataset/b`, ntriples: dataset("b") }]);
  await s.commit([{ graph: `${BASE}/dataset/gone`, ntriples: dataset("gone") }]);
  await s.commit([{ graph: `${BASE}/dataset/gone`, delete: true }]);
  // replaced: its current content has one old IRI, its first had six
  await s.commit([{ graph: `${BASE}/dataset/b`, ntriples: `<${BASE}/dataset/b> <${OLD}numberOfCompounds> "0"^^<http://www.w3.org/2001/XMLSchema#integer> .\n` }]);
  await s.close();
  return dir;
}

describe("migrateVocabulary", () => {
  it("rewrites every IRI of the old namespace in the current data, keeps literals, deletions and the commit count", async () => {
    const dir = await oldDirectory();
    const done = migrateVocabulary(dir, OLD);
    assert.ok(done);
    // current content: dataset a (4 old IRIs: not the literal), the two compounds (1 each, one put), dataset b (1)
    assert.equal(done.replaced, 4 + 2 + 1);
    assert.equal(done.rewritten, 3);
    assert.equal(done.seq, 6);
    assert.equal(readFileSync(join(dir, VOCABULARY_MARK), "utf8").trim(), NEW);
    // the old journal is gone: the snapshot holds every commit
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith(".qgj")), []);
    const s = await GraphStore.open(dir);
    try {
      assert.equal(s.lastSeq, 6);
      assert.deepEqual(sorted(await s.memory.dump(`${BASE}/dataset/a`, "application/n-triples")), sorted(renamed(dataset("a"))));
      assert.ok((await s.memory.dump(`${BASE}/dataset/a`, "application/n-triples")).includes(`"see ${OLD}line"`), "the literal is unchanged");
      assert.deepEqual(sorted(await s.memory.dump(`${BASE}/compound/C2`, "application/n-triples")), [`<${BASE}/compound/C2> <${NEW}inchi> "InChI=1S/C2" .`]);
      assert.deepEqual(sorted(await s.memory.dump(`${BASE}/dataset/b`, "application/n-triples")), [`<${BASE}/dataset/b> <${NEW}numberOfCompounds> "0"^^<http://www.w3.org/2001/XMLSchema#integer> .`]);
      assert.equal(s.has(`${BASE}/dataset/gone`), false);
      // the store goes on as before: a commit after the move is journalled and recovered
      await s.commit([{ graph: `${BASE}/dataset/c`, ntriples: renamed(dataset("c")) }]);
    } finally {
      await s.close();
    }
    assert.equal(migrateVocabulary(dir, OLD), undefined, "marked: nothing to do");
    const again = await GraphStore.open(dir);
    try {
      assert.equal(again.lastSeq, 7);
      assert.deepEqual(sorted(await again.memory.dump(`${BASE}/dataset/c`, "application/n-triples")), sorted(renamed(dataset("c"))));
    } finally {
      await again.close();
    }
  });

  it("a crash after the new snapshot but before the mark: the next start finds nothing to rewrite and marks", async () => {
    const dir = await oldDirectory();
    assert.ok(migrateVocabulary(dir, OLD));
    unlinkSync(join(dir, VOCABULARY_MARK));
    assert.equal(migrateVocabulary(dir, OLD), undefined);
    assert.ok(existsSync(join(dir, VOCABULARY_MARK)));
    const s = await GraphStore.open(dir);
    try {
      assert.deepEqual(sorted(await s.memory.dump(`${BASE}/dataset/a`, "application/n-triples")), sorted(renamed(dataset("a"))));
    } finally {
      await s.close();
    }
  });

  it("a new or empty directory is only marked", () => {
    const dir = join(tempDir(), "fresh");
    assert.equal(migrateVocabulary(dir, OLD), undefined);
    assert.deepEqual(readdirSync(dir), [VOCABULARY_MARK]);
  });

  it("data under another base are left alone (only the running base's namespace is the old one)", async () => {
    const dir = await oldDirectory();
    assert.equal(migrateVocabulary(dir, "http://elsewhere.example.org/ontology#"), undefined);
    const s = await GraphStore.open(dir);
    try {
      assert.deepEqual(sorted(await s.memory.dump(`${BASE}/dataset/a`, "application/n-triples")), sorted(dataset("a")));
    } finally {
      await s.close();
    }
  });
});
