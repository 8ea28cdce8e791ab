/**
 * Crash tests (README "Durability": a change is fsynced before it is acknowledged, a restart
 * replays the journal; docs/ARCHITECTURE.md "Store and durability"): the real server is
 * SIGKILLed (a) while an upload task is running, (b) right after an upload task completed,
 * (c) during a burst of concurrent uploads; each time it is restarted on the same data directory
 * and port. After a restart a completed dataset is intact, an interrupted task is an Error
 * "interrupted by restart", and no half-written dataset is visible.
 *
 * Expected counts come from the files (fixtures/data/SOURCES.md and the files themselves):
 * hamster_carcinogenicity.csv 85 rows / 85 distinct compounds; multicolumn.csv 7 rows / 5 distinct
 * compounds; kazius.csv 4069 rows / 4068 compounds (one tautomer pair shares a standard InChI, see
 * datasets.test.ts).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { Parser } from "n3";
import { get, HAMSTER, KAZIUS, MULTI, sortedNTriples, uploadFile, uriList } from "../helpers/server.ts";
import { useServer, type ServerHandle } from "../helpers/use-server.ts";

const FILES = {
  kazius: { path: KAZIUS, compounds: 4068 },
  hamster: { path: HAMSTER, compounds: 85 },
  multi: { path: MULTI, compounds: 5 },
} as const;
type FileKey = keyof typeof FILES;

const OT = "http://www.opentox.org/api/1.1#";
const INTERRUPTED = "interrupted by restart";

/** SIGKILL the server and start a new process on the same data directory and port. */
async function crashAndRestart(srv: ServerHandle): Promise<void> {
  await srv.kill();
  assert.equal(srv.proc.signalCode, "SIGKILL", "the server died of SIGKILL");
  await srv.restart();
}

async function submit(base: string, key: FileKey): Promise<string> {
  const path = FILES[key].path;
  const r = await uploadFile(base, readFileSync(path), path.slice(path.lastIndexOf("/") + 1));
  assert.equal(r.status, 202, await r.clone().text());
  const task = (await r.text()).trim();
  assert.equal(r.headers.get("location"), task);
  return task;
}

interface PlainStatus {
  readonly http: number;
  readonly text: string;
  readonly state: string;
  readonly pct: number;
}

/** GET the task as text/plain: "Running 12.3 %", "Completed 100.0 % <uri>", or an error report. */
async function plain(task: string): Promise<PlainStatus> {
  const r = await get(task, "text/plain");
  const text = (await r.text()).trim();
  const m = /^(Queued|Running|Completed|Cancelled) (\d+(?:\.\d+)?) %/.exec(text);
  return { http: r.status, text, state: m ? m[1]! : /^\d{3} /.test(text) ? "Error" : "?", pct: m ? Number(m[2]) : Number.NaN };
}

const unfinished = (s: PlainStatus): boolean => s.state === "Queued" || s.state === "Running";

/** The task's own triples, parsed from its Turtle representation. */
async function taskTriples(task: string): Promise<{ status: string[]; messages: string[]; results: string[] }> {
  const r = await get(task, "text/turtle");
  const quads = new Parser({ baseIRI: task }).parse(await r.text());
  const objects = (p: string): string[] => quads.filter((q) => q.predicate.value === OT + p).map((q) => q.object.value);
  return { status: quads.filter((q) => q.subject.value === task && q.predicate.value === `${OT}hasStatus`).map((q) => q.object.value), messages: objects("message"), results: objects("resultURI") };
}

/** Check that the task is an Error "interrupted by restart" in uri-list, text/plain and RDF. */
async function assertInterrupted(task: string): Promise<void> {
  const ul = await get(task, "text/uri-list");
  const body = await ul.text();
  assert.equal(ul.status, 500, `uri-list status of ${task}: ${body}`);
  assert.notEqual(body.trim(), task, "the uri-list body differs from the task URI (a poller stops)");
  assert.ok(body.includes(INTERRUPTED), `uri-list body names the interruption: ${body}`);
  const p = await plain(task);
  assert.equal(p.state, "Error", p.text);
  assert.ok(p.text.includes(INTERRUPTED), p.text);
  const rdf = await taskTriples(task);
  assert.deepEqual(rdf.status, ["Error"]);
  assert.ok(rdf.messages.some((m) => m.includes(INTERRUPTED)), `ot:message: ${rdf.messages.join(" | ")}`);
  assert.deepEqual(rdf.results, [], "no result URI");
}

describe("crash: SIGKILL during and after uploads", () => {
  // A fresh server for each test, ended with SIGKILL.
  const srv = useServer({ each: true, kill: true });

  test("(a) killed while an upload task runs: the task is an Error after restart and nothing was stored", async () => {
    const task = await submit(srv.base, "kazius");
    // Poll until the job is under way: status Running with progress > 0 (the CSV is parsed and
    // RDKit is reading structures in the workers; ~4 s of work remain).
    let last: PlainStatus;
    const t0 = Date.now();
    for (;;) {
      last = await plain(task);
      if (!unfinished(last) || (last.state === "Running" && last.pct > 0)) break;
      assert.ok(Date.now() - t0 < 60_000, "the task started within 60 s");
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(last.state, "Running", `the task was running when killed: ${last.text}`);
    assert.ok(last.pct > 0 && last.pct < 100);

    await crashAndRestart(srv);
    await assertInterrupted(task);
    assert.deepEqual(await uriList(`${srv.base}/task`), [task], "the task is still listed");
    assert.deepEqual(await uriList(`${srv.base}/dataset`), [], "no dataset exists");
    assert.deepEqual(await uriList(`${srv.base}/compound`), [], "no compound of the upload exists");

    // The Error state itself is durable: a second crash right after the restart changes nothing
    // (a re-derived state would carry a new finishing time).
    const taskGraph = await sortedNTriples(task);
    await crashAndRestart(srv);
    assert.deepEqual(await sortedNTriples(task), taskGraph);
    await assertInterrupted(task);
  });

  test("(b) killed right after an upload completed: the dataset is intact after restart", async () => {
    const task = await submit(srv.base, "hamster");
    let result: string;
    for (;;) {
      const r = await get(task, "text/uri-list");
      const body = (await r.text()).trim();
      if (body !== task) {
        assert.equal(r.status, 200, body);
        result = body;
        break;
      }
      await new Promise((res) => setTimeout(res, 10));
    }
    // Read what the completed task acknowledges, then crash at once.
    const [triples, compounds] = await Promise.all([sortedNTriples(result), uriList(result)]);
    await crashAndRestart(srv);

    assert.equal(compounds.length, FILES.hamster.compounds, "85 compounds before the crash");
    assert.ok(triples.length > 85 * 3);
    const ul = await get(task, "text/uri-list");
    assert.equal(ul.status, 200);
    assert.equal((await ul.text()).trim(), result, "the task still points at the same result");
    const p = await plain(task);
    assert.equal(p.state, "Completed", p.text);
    assert.equal(p.pct, 100);
    assert.deepEqual((await taskTriples(task)).results, [result]);
    assert.deepEqual(await uriList(`${srv.base}/dataset`), [result]);
    const restored = await uriList(result);
    assert.equal(restored.length, FILES.hamster.compounds);
    assert.deepEqual(restored, compounds);
    assert.deepEqual(await sortedNTriples(result), triples, "the dataset's N-Triples are identical to before the kill");
    for (const c of restored.slice(0, 5)) assert.equal((await get(c, "text/turtle")).status, 200, `compound ${c} served`);
  });

  test("(c) killed during a burst of concurrent uploads: acknowledged datasets intact, the rest interrupted", async () => {
    const tasks: string[] = [];
    const kind = new Map<string, FileKey>();
    const burst = async (keys: FileKey[]): Promise<void> => {
      const ts = await Promise.all(keys.map((k) => submit(srv.base, k)));
      ts.forEach((t, i) => {
        tasks.push(t);
        kind.set(t, keys[i]!);
      });
    };
    // Every task seen Completed before the kill, with what its dataset served at that moment.
    const acknowledged = new Map<string, { result: string; triples: string[]; compounds: string[] }>();
    const pollRound = async (): Promise<PlainStatus[]> => {
      const states = await Promise.all(tasks.map(plain));
      for (const [i, s] of states.entries()) {
        const t = tasks[i]!;
        assert.ok(s.state !== "Error" && s.state !== "Cancelled" && s.state !== "?", `no upload fails on its own: ${s.text}`);
        if (s.state === "Completed" && !acknowledged.has(t)) {
          const result = s.text.split(" ").pop()!;
          const [triples, compounds] = await Promise.all([sortedNTriples(result), uriList(result)]);
          acknowledged.set(t, { result, triples, compounds });
        }
      }
      return states;
    };

    // Wave 1: seven uploads at once. The pool is FIFO, so which of them finishes first varies
    // from run to run; wait until at least one has completed.
    await burst(["kazius", "hamster", "multi", "kazius", "hamster", "multi", "hamster"]);
    const t0 = Date.now();
    while (acknowledged.size === 0) {
      await pollRound();
      assert.ok(Date.now() - t0 < 120_000, "an upload completed within 120 s");
      await new Promise((r) => setTimeout(r, 20));
    }
    // Wave 2 while wave 1 may still run: a Kazius upload needs seconds, so it is certainly in
    // flight when the kill comes right after one more polling round.
    await burst(["kazius", "hamster", "multi"]);
    const atKill = await pollRound();
    assert.ok(atKill.some(unfinished), "uploads were in flight at the kill");
    await crashAndRestart(srv);

    const restarted = new Map(await Promise.all(tasks.map(async (t) => [t, await plain(t)] as const)));
    let interrupted = 0;
    const completedResults: string[] = [];
    for (const t of tasks) {
      const s = restarted.get(t)!;
      assert.ok(s.state === "Completed" || s.state === "Error", `task ${t} (${kind.get(t)}) is finished after restart: ${s.text}`);
      if (s.state === "Error") {
        await assertInterrupted(t);
        interrupted++;
        continue;
      }
      // Completed: its dataset exists in full (also the ones that completed after the last poll).
      const result = s.text.split(" ").pop()!;
      completedResults.push(result);
      const compounds = await uriList(result);
      assert.equal(compounds.length, FILES[kind.get(t)!].compounds, `${kind.get(t)} dataset ${result} complete`);
    }
    for (const [t, ack] of acknowledged) {
      assert.equal(restarted.get(t)!.state, "Completed", `acknowledged task ${t} is still Completed`);
      const ul = await get(t, "text/uri-list");
      assert.equal((await ul.text()).trim(), ack.result);
      assert.equal(ack.compounds.length, FILES[kind.get(t)!].compounds);
      assert.deepEqual(await uriList(ack.result), ack.compounds);
      assert.deepEqual(await sortedNTriples(ack.result), ack.triples, `dataset ${ack.result} identical to before the kill`);
    }
    assert.ok(interrupted >= 1, "at least one task (the second wave's Kazius upload) was interrupted");
    assert.deepEqual(await uriList(`${srv.base}/dataset`), completedResults.sort(), "exactly the completed tasks' datasets exist");
    console.log(`burst of ${tasks.length}: ${acknowledged.size} acknowledged before the kill, ${completedResults.length} completed, ${interrupted} interrupted`);
  });
});
