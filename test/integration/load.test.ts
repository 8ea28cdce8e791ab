/**
 * 50 concurrent clients (uploads polled to their end and deleted, predictions, task and home
 * polls, SPARQL, compound depictions; test/helpers/load.ts) for 20 s against one server: every
 * request is valid, so every answer must be the expected one or a documented 503 (full task
 * queue, busy SPARQL pool), and every kind of request must have been served. bench/load.ts runs
 * the same load for 60 s and measures latency and memory.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { assertServesNormally, HAMSTER, runTask, uploadDataset, uriList } from "../helpers/server.ts";
import { runLoad } from "../helpers/load.ts";
import { useServer } from "../helpers/use-server.ts";

const srv = useServer();

test("50 clients for 20 s: no error but documented 503s, every kind served, then normal service", { timeout: 300_000 }, async () => {
  const hamster = await uploadDataset(srv.base, HAMSTER);
  const model = await runTask(`${srv.base}/algorithm/lazar`, { dataset_uri: hamster, min_frequency: "8" });
  const tasks = await uriList(`${srv.base}/task`);
  const r = await runLoad({ base: srv.base, model, compounds: await uriList(hamster), task: tasks[0]! }, 50, 20);
  assert.deepEqual(r.errors, []);
  for (const [kind, status] of [["upload", 202], ["predict", 201], ["poll", 200], ["sparql", 200], ["compound", 200]] as const) {
    assert.ok((r.answers.get(`${kind} ${status}`) ?? 0) > 0, `no ${kind} request was answered ${status}: ${JSON.stringify([...r.answers])}`);
  }
  await assertServesNormally(srv.base);
});
