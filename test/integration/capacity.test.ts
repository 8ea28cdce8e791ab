/**
 * The store's capacity over HTTP (src/store/graph-store.ts, "Capacity"): a descriptor request
 * whose result cannot fit is refused at once with 507; an upload whose dataset turns out too
 * large ends in a task error with status 507; both messages say how much was needed and what
 * to do, nothing of either is stored, smaller work goes on, and a restart loads only the
 * current data (replaced and deleted graphs are not loaded again).
 *
 * The counts are independent of the code under test: all descriptors of a CDK-compatible set
 * are 263 values per compound (the 41 CDK classes lazar listed in pc_descriptors.yaml,
 * opentox/install @ 1684c34, each with the value names CDK's getDescriptorNames() gives at
 * default parameters, cdk/cdk @ caa24d6), each written as 3 triples in the OpenTox shape (an
 * ot:values link, its ot:feature and its ot:value; docs/opentox-api.md "RDF shapes"), so
 * hamster's 85 compounds need ≥ 85 × 263 × 3 = 67,065 triples when every value exists; its
 * constitutional block is 14 values (≤ 85 × 14 × 3 + feature metadata, well under 10,000).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { get, HAMSTER, KAZIUS, postForm, runTask, serviceFigures, sparqlSelect, storeSnapshot, uploadDataset, uploadFile, waitForTask } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";

const MAX_QUADS = 30_000;
/** The store's own capacity check is what these tests exercise: the upload limit (a third of MAX_QUADS by default) would refuse Kazius at the POST. */
const ENV = { MAX_QUADS: String(MAX_QUADS), MAX_UPLOAD_TRIPLES: String(10 * MAX_QUADS) };

describe("store capacity (MAX_QUADS)", () => {
  const srv = useServer({ env: ENV, upload: { hamster: HAMSTER } });

  test("descriptors that cannot fit: 507 at once with the numbers, no task, nothing stored; smaller work still runs", async () => {
    const before = await storeSnapshot(srv.base);
    const r = await postForm(`${srv.datasets.hamster}/pc`, { lib: "cdk" }, "application/problem+json");
    assert.equal(r.status, 507);
    const report = (await r.json()) as { status: number };
    assert.equal(report.status, 507);
    const text = JSON.stringify(report);
    assert.match(text, new RegExp(`the descriptors of 85 compounds \\(263 values each: up to ${85 * 263 * 3} triples\\)`));
    assert.match(text, new RegExp(`holds at most ${MAX_QUADS} triples \\(MAX_QUADS\\)`));
    assert.match(text, /more than the store can hold even after a restart/);
    assert.deepEqual(await storeSnapshot(srv.base), before, "nothing was stored");

    const fd = await runTask(`${srv.datasets.hamster}/pc`, { lib: "cdk", pc_type: "constitutional" }, 120_000);
    assert.equal((await get(fd, "text/uri-list")).status, 200);
  });

  test("an upload whose dataset does not fit: task error 507, nothing of it stored", async () => {
    const before = await storeSnapshot(srv.base);
    const r = await uploadFile(srv.base, readFileSync(KAZIUS), "kazius.csv");
    assert.equal(r.status, 202);
    const task = (await r.text()).trim();
    const done = await waitForTask(task, 120_000);
    assert.equal(done.status, 507, done.body);
    const text = await (await get(task, "text/plain")).text();
    assert.match(text, /InsufficientStorage: the store cannot take \d+ more triples/);
    assert.match(text, /more than the store can hold even after a restart/);
    assert.deepEqual(await storeSnapshot(srv.base), before, "nothing of the upload was stored");
  });

  /** The service description's store figures (qg:storeCapacity, qg:triplesLoaded, qg:triplesCurrent). */
  async function figures(): Promise<{ max: number; loaded: number; current: number; renewals: number }> {
    const f = await serviceFigures(srv.base, "storeCapacity", "triplesLoaded", "triplesCurrent", "storeRenewals");
    return { max: f.storeCapacity, loaded: f.triplesLoaded, current: f.triplesCurrent, renewals: f.storeRenewals };
  }

  test("replaced and deleted data count until a restart, which loads only what is current", async () => {
    // The failed upload above loaded part of its dataset before it was refused: that memory is
    // not free again until a restart, so the store is near its capacity now.
    const full = await figures();
    assert.ok(full.loaded > full.current, JSON.stringify(full));
    await srv.restart();
    const fresh = await figures();
    assert.deepEqual(fresh, { max: MAX_QUADS, loaded: full.current, current: full.current, renewals: 0 });

    const second = await uploadDataset(srv.base, HAMSTER);
    assert.equal((await fetch(second, { method: "DELETE" })).status, 200);
    const live = await storeSnapshot(srv.base);
    const before = await figures();
    // The second upload was loaded and deleted: loaded exceeds current by at least its triples.
    assert.ok(before.loaded > before.current, JSON.stringify(before));
    assert.ok(before.current >= live.quads, `current ${before.current} ≥ the ${live.quads} quads outside task graphs`);
    await srv.restart();
    assert.deepEqual(await figures(), { max: MAX_QUADS, loaded: before.current, current: before.current, renewals: 0 });
    assert.deepEqual(await storeSnapshot(srv.base), live);
    assert.equal((await get(second, "text/uri-list")).status, 404);
    assert.equal((await get(srv.datasets.hamster, "text/uri-list")).status, 200);
  });

  test("uploads and deletes past the capacity never hit 507: the store renews its memory (and the SPARQL replica its copy)", async () => {
    const start = await figures();
    const datasetsBefore = (await (await get(`${srv.base}/dataset`, "text/uri-list")).text()).split(/\r?\n/).filter(Boolean).sort();
    let last = start;
    let cycles = 0;
    // Each cycle loads a hamster dataset and deletes it; without renewal the loaded count would
    // pass MAX_QUADS after a few dozen cycles and the next upload would end with 507 (the store
    // renews only when work would not fit otherwise, so two renewals mean it got there twice).
    while (cycles < 300) {
      const ds = await uploadDataset(srv.base, HAMSTER);
      assert.equal((await fetch(ds, { method: "DELETE" })).status, 200);
      cycles++;
      const now = await figures();
      last = now;
      if (now.renewals >= 2) break;
    }
    assert.ok(last.renewals >= 2, `${cycles} cycles, ${JSON.stringify(last)}`);
    assert.ok(last.loaded <= MAX_QUADS, JSON.stringify(last));
    // Each deleted dataset is gone (the current data grew only by the upload tasks' records),
    // and the replica follows: the datasets it has are exactly those the writer lists.
    const listed = (await (await get(`${srv.base}/dataset`, "text/uri-list")).text()).split(/\r?\n/).filter(Boolean).sort();
    assert.deepEqual(listed, datasetsBefore);
    const rows = await sparqlSelect(srv.base, "SELECT DISTINCT ?d WHERE { GRAPH ?d { ?d a <http://www.opentox.org/api/1.1#Dataset> } } ORDER BY ?d");
    assert.deepEqual(rows.map((r) => r.d!.value), listed);
    assert.equal((await get(srv.datasets.hamster, "text/uri-list")).status, 200);
  });
});
