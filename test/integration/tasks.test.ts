/**
 * Tasks over HTTP against the real server (docs/opentox-api.md "Long operations are tasks"; README
 * "Tasks"): 202 + Location + task URI on POST /dataset; polling with Accept: text/uri-list (202 +
 * task URI while queued or running, then 200 + result URI); the task graph (ot:hasStatus,
 * ot:percentageCompleted, ot:resultURI, dc:date); HTML that refreshes only while the task runs;
 * server-sent progress events ending with a `status` event; DELETE cancels a running upload (→
 * Cancelled with an ot:ErrorReport, GET 503, no dataset) and answers 409 on a finished task
 * (left alone); an event-stream client that leaves early logs nothing; /task lists the tasks.
 *
 * Inputs: kazius.csv (4069 rows, long enough to be seen running), muv.csv (93,127 rows, ≈30 s,
 * cancelled after ≈1 s) from fixtures/data (SOURCES.md). Status codes from docs/opentox-api.md
 * "Long operations are tasks", the ones the OpenTox task service gave (opentox/task :
 * application.rb @ v4.0.0) plus Queued.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Parser } from "n3";
import { DATA, get, KAZIUS, parseTaskEvents, storeSnapshot, taskState, uploadFile, uriList, waitForTaskState } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";

const MUV = `${DATA}moleculenet/muv.csv`;
const OT = "http://www.opentox.org/api/1.1#";
const XSD = "http://www.w3.org/2001/XMLSchema#";
const REFRESH = /<meta http-equiv="refresh"/i;

describe("tasks", () => {
  const srv = useServer();
  const created: string[] = [];
  let kaziusTask = "";
  let kaziusDataset = "";

  async function submit(path: string): Promise<string> {
    const r = await uploadFile(srv.base, readFileSync(path), path.slice(path.lastIndexOf("/") + 1));
    const body = await r.text();
    assert.equal(r.status, 202, body);
    const task = body.trim();
    created.push(task);
    return task;
  }

  test("POST /dataset → 202, Location and a uri-list body with the task URI; polling: 202 + task URI, then 200 + result URI", async () => {
    const r = await uploadFile(srv.base, readFileSync(KAZIUS), "kazius.csv");
    assert.equal(r.status, 202);
    assert.equal(r.headers.get("content-type")?.split(";")[0], "text/uri-list");
    const body = await r.text();
    assert.match(body, /^\S+\r?\n$/, "one URI, one line");
    const task = body.trim();
    assert.match(task, new RegExp(`^${srv.base}/task/[a-z2-9]{12}$`));
    assert.equal(r.headers.get("location"), task);
    created.push(task);
    kaziusTask = task;

    const seen: [number, string][] = [];
    const t0 = Date.now();
    for (;;) {
      const p = await get(task, "text/uri-list");
      const b = (await p.text()).trim();
      seen.push([p.status, b]);
      if (b !== task || Date.now() - t0 > 60_000) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    const last = seen.at(-1)!;
    assert.equal(last[0], 200, `finished: ${last[1]}`);
    assert.match(last[1], new RegExp(`^${srv.base}/dataset/[a-z2-9]{12}$`));
    kaziusDataset = last[1];
    assert.ok(seen.length > 1, "the task was seen unfinished at least once");
    for (const [status, b] of seen.slice(0, -1)) assert.deepEqual([status, b], [202, task], "while queued or running: 202 and the task URI");
    assert.equal((await uriList(kaziusDataset)).length, 4068, "the result is the dataset (4069 rows, 4068 distinct compounds)");
  });

  test("the task graph has ot:hasStatus, ot:percentageCompleted, ot:resultURI and dc:date", async () => {
    const t0 = Date.now();
    const quads = new Parser({ format: "Turtle" }).parse(await (await get(kaziusTask, "text/turtle")).text());
    const one = (p: string) => {
      const found = quads.filter((q) => q.subject.value === kaziusTask && q.predicate.value === p);
      assert.equal(found.length, 1, `one ${p}`);
      return found[0]!.object;
    };
    assert.ok(quads.some((q) => q.subject.value === kaziusTask && q.object.value === `${OT}Task`), "a ot:Task");
    assert.equal(one(`${OT}hasStatus`).value, "Completed");
    const pct = one(`${OT}percentageCompleted`);
    assert.equal(Number(pct.value), 100);
    assert.equal(one(`${OT}resultURI`).value, kaziusDataset);
    const date = one("http://purl.org/dc/elements/1.1/date");
    assert.equal((date as { datatype?: { value: string } }).datatype?.value, `${XSD}dateTime`);
    const when = Date.parse(date.value);
    assert.ok(when <= t0 && when > t0 - 120_000, `dc:date ${date.value} is the creation time of this task`);
    assert.doesNotMatch(await (await get(kaziusTask, "text/html")).text(), REFRESH, "a finished task's page does not refresh");
  });

  test("text/event-stream: progress events, then a final status event (Completed), then the stream ends", async () => {
    const task = await submit(KAZIUS);
    const r = await fetch(task, { headers: { Accept: "text/event-stream" }, signal: AbortSignal.timeout(90_000) });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("content-type")?.split(";")[0], "text/event-stream");
    const events = parseTaskEvents(await r.text()); // resolves only when the server ends the stream
    const progress = events.slice(0, -1);
    const final = events.at(-1)!;
    assert.ok(progress.length >= 1, "at least one progress event");
    for (const e of progress) {
      assert.equal(e.event, "progress");
      assert.ok(["Queued", "Running"].includes(e.data.status), e.data.status);
    }
    const pcts = progress.map((e) => e.data.percentageCompleted);
    assert.deepEqual(pcts, [...pcts].sort((a, b) => a - b), "progress never goes back");
    assert.equal(final.event, "status");
    assert.equal(final.data.status, "Completed");
    assert.equal(final.data.percentageCompleted, 100);
    assert.match(final.data.resultURI ?? "", new RegExp(`^${srv.base}/dataset/`));
  });

  test("DELETE on a running upload: the task ends Cancelled, GET answers 503, no dataset is created", async () => {
    const before = await storeSnapshot(srv.base);
    const task = await submit(MUV);
    await waitForTaskState(task, (t) => t.status === "Running");
    const html = await (await get(task, "text/html")).text();
    assert.match(html, REFRESH, "the running task's page refreshes");
    const polled = await get(task, "text/uri-list");
    assert.deepEqual([polled.status, (await polled.text()).trim()], [202, task]);
    await new Promise((res) => setTimeout(res, 1000));
    assert.equal((await taskState(task)).status, "Running", "muv.csv takes far longer than a second");

    const del = await fetch(task, { method: "DELETE", headers: { Accept: "text/uri-list" } });
    assert.equal(del.status, 200, "the DELETE itself succeeded");
    assert.equal((await del.text()).trim(), task);
    assert.equal((await taskState(task)).status, "Cancelled");
    const r = await get(task, "text/uri-list");
    const body = (await r.text()).trim();
    assert.equal(r.status, 503);
    assert.notEqual(body, task, "a poller stops: the body is not the task URI");
    assert.match(body, /Cancelled/);
    const ttl = await get(task, "text/turtle");
    assert.equal(ttl.status, 503);
    // Like a failed task, the cancelled one carries an ot:ErrorReport (OpenTox 1.1 ot:errorReport).
    const tq = new Parser({ format: "Turtle", baseIRI: task }).parse(await ttl.text());
    const report = tq.find((q) => q.subject.value === task && q.predicate.value === `${OT}errorReport`)?.object.value;
    assert.ok(report, "ot:errorReport on the cancelled task");
    assert.ok(tq.some((q) => q.subject.value === report && q.object.value === `${OT}ErrorReport`), "a ot:ErrorReport");
    assert.equal(tq.find((q) => q.subject.value === report && q.predicate.value === `${OT}statusCode`)?.object.value, "503");
    assert.equal(tq.find((q) => q.subject.value === report && q.predicate.value === `${OT}errorCode`)?.object.value, "Cancelled");
    const again = await fetch(task, { method: "DELETE", headers: { Accept: "text/uri-list" } });
    assert.equal(again.status, 409, "cancelling it again conflicts with its state");
    await again.text();
    assert.doesNotMatch(await (await get(task, "text/html")).text(), REFRESH);
    // Nothing of the upload was stored, also a moment later.
    await new Promise((res) => setTimeout(res, 500));
    assert.deepEqual(await storeSnapshot(srv.base), before, "GET /dataset and the quads outside task graphs are unchanged");
  });

  test("an event-stream client that disconnects early: the server logs nothing, the task runs on", async () => {
    const task = await submit(MUV);
    await waitForTaskState(task, (t) => t.status === "Running");
    const logged = srv.output().length;
    const ac = new AbortController();
    const r = await fetch(task, { headers: { Accept: "text/event-stream" }, signal: ac.signal });
    const reader = r.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    assert.match(first, /^event: progress\n/, "the stream had begun");
    ac.abort();
    await reader.cancel().catch(() => undefined);
    // progress events keep coming while muv.csv is read: give the server some to (not) write
    await new Promise((res) => setTimeout(res, 1500));
    assert.equal((await taskState(task)).status, "Running");
    const del = await fetch(task, { method: "DELETE", headers: { Accept: "text/uri-list" } });
    assert.equal(del.status, 200);
    await del.text();
    assert.equal(srv.output().slice(logged), "", "nothing was logged (before: a stack trace of a premature close)");
  });

  test("DELETE on a completed task answers 409 Conflict (RFC 9110 §15.5.10) and leaves it completed", async () => {
    const del = await fetch(kaziusTask, { method: "DELETE", headers: { Accept: "text/plain" } });
    assert.equal(del.status, 409);
    assert.match(await del.text(), /already finished \(Completed\)/);
    assert.equal((await taskState(kaziusTask)).status, "Completed");
    const r = await get(kaziusTask, "text/uri-list");
    assert.deepEqual([r.status, (await r.text()).trim()], [200, kaziusDataset]);
    assert.ok((await uriList(`${srv.base}/dataset`)).includes(kaziusDataset));
  });

  test("/task lists every task (uri-list)", async () => {
    const list = await uriList(`${srv.base}/task`);
    assert.equal(created.length, 4);
    for (const t of created) assert.ok(list.includes(t), `${t} listed`);
    for (const t of list) assert.match(t, new RegExp(`^${srv.base}/task/[a-z2-9]{12}$`));
  });
});
