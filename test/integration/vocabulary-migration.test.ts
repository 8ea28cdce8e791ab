/**
 * A data directory of an earlier version (the service's terms under `<BASE_URL>/ontology#`) is
 * moved to the stable namespace at the first start (docs/vocabulary.md "Data written before"),
 * through HTTP: hamster is uploaded, the directory is turned into what an earlier version wrote
 * (every graph rewritten through the store with the old namespace, the mark removed), and the
 * restarted service serves the dataset exactly as before (blank-node labels aside), answers a
 * SPARQL query in the stable namespace, logs the move, and takes the next upload.
 *
 * Input: fixtures/data hamster_carcinogenicity.csv (SOURCES.md): 85 compounds.
 */
import assert from "node:assert/strict";
import { unlinkSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { GraphStore } from "../../src/store/graph-store.ts";
import { get, HAMSTER, sparqlSelect, startServer, uploadDataset, type TestServer } from "../helpers/server.ts";

/** The stable namespace as documented (docs/vocabulary.md), spelt out. */
const QG = "https://w3id.org/qsargraph/ontology#";

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.stop();
});

const comparable = (nt: string): string[] =>
  nt
    .split("\n")
    .filter(Boolean)
    .map((l) => l.replace(/_:[A-Za-z0-9]+/g, "_:b"))
    .sort();

test("an old data directory is moved to the stable namespace at start and served as before", { timeout: 300_000 }, async () => {
  const first = await startServer();
  servers.push(first);
  const { base, dataDir } = first;
  const port = new URL(base).port;
  const ds = await uploadDataset(base, HAMSTER);
  const before = await (await get(ds, "application/n-triples")).text();
  assert.ok(before.includes(`<${QG}numberOfCompounds>`), "the dataset is written in the stable namespace");
  await first.stop();

  // What an earlier version left: every graph in the old namespace (through the store, so the journal is valid), no mark.
  const old = `${base}/ontology#`;
  const store = await GraphStore.open(dataDir);
  let graphs = 0;
  for (const g of [...store.allGraphs()]) {
    const nt = await store.memory.dump(g, "application/n-triples");
    if (!nt.includes(`<${QG}`)) continue;
    await store.commit([{ graph: g, ntriples: nt.replaceAll(`<${QG}`, `<${old}`) }]);
    graphs++;
  }
  await store.close();
  assert.ok(graphs >= 86, `the dataset and its 85 compounds were rewritten (${graphs})`);
  unlinkSync(join(dataDir, "vocabulary"));

  const second = await startServer({ dataDir, port: Number(port) });
  servers.push(second);
  assert.match(second.output(), new RegExp(`moved from ${old.replace(/[/.]/g, "\\$&")} to ${QG.replace(/[/.]/g, "\\$&")}`));
  const after = await (await get(ds, "application/n-triples")).text();
  assert.ok(!after.includes(old), "no term of the old namespace is served");
  assert.deepEqual(comparable(after), comparable(before), "the dataset is served as before the move");
  const [row] = await sparqlSelect(base, `SELECT ?n WHERE { GRAPH <${ds}> { <${ds}> <${QG}numberOfCompounds> ?n } }`);
  assert.equal(row?.n?.value, "85");
  // and the service goes on: the next upload is stored in the stable namespace too
  const next = await uploadDataset(base, HAMSTER);
  assert.ok((await (await get(next, "application/n-triples")).text()).includes(`<${QG}numberOfCompounds> "85"`));
});
