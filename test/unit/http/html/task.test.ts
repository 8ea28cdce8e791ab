/**
 * html/task.ts: the task page by state (docs/opentox-api.md "Forms and the task page"): a running
 * task's page refreshes itself only without scripts (the refresh inside <noscript>), carries what
 * the forms script follows, and has the cancel form hidden for the script to show; a completed
 * one links its result prominently by kind and does not refresh; a failed one shows its message,
 * what to do for its status, and the whole report; a cancelled one says so.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { resultName, taskHtml, whatToDo } from "../../../../src/http/html/task.ts";
import type { TaskState } from "../../../../src/resources/task.ts";

const BASE = "http://localhost:8080";
const T = `${BASE}/task/tttttttttttt`;
const base: TaskState = { id: "tttttttttttt", uri: T, title: "lazar model for activity", operation: "model building", status: "Running", percentageCompleted: 42.25, createdAt: new Date("2026-01-01T00:00:00Z"), startedAt: new Date("2026-01-01T00:00:01Z") };

test("running: what runs, progress, the refresh without scripts only, the data the script follows, the cancel form hidden", () => {
  const html = taskHtml(base, BASE);
  assert.match(html, /Building a model: lazar model for activity/);
  assert.match(html, /<progress id="task-progress" max="100" value="42.25" aria-label="Progress">42.3 %<\/progress>/);
  assert.match(html, new RegExp(`<noscript><meta http-equiv="refresh" content="2; url=${T}"></noscript>`));
  assert.match(html, new RegExp(`<div id="task" data-task="${T}" data-status="Running" data-result="" data-finished-ago-ms="-1" hidden>`));
  assert.match(html, new RegExp(`<form id="task-cancel" method="post" action="${T}" data-method="delete" hidden>`));
  assert.match(html, /<script src="http:\/\/localhost:8080\/static\/forms.js" defer>/);
  assert.match(html, /This page follows the task/);
});

test("completed: a prominent link to the result by its kind, no refresh, no cancel; how long ago it finished", () => {
  const M = `${BASE}/model/mmmmmmmmmmmm`;
  const html = taskHtml({ ...base, status: "Completed", percentageCompleted: 100, resultUri: M, finishedAt: new Date("2026-01-01T00:00:05Z") }, BASE, Date.parse("2026-01-01T00:00:07Z"));
  assert.match(html, new RegExp(`<h2 id="task-result">Done: <a href="${M}">open the model</a></h2>`));
  assert.doesNotMatch(html, /refresh/);
  assert.doesNotMatch(html, /task-cancel/);
  assert.match(html, /data-finished-ago-ms="2000"/);
  assert.deepEqual(
    [`${BASE}/dataset/x`, `${BASE}/validation/crossvalidation/x`, `${BASE}/validation/report/crossvalidation/x`, `${BASE}/other`].map(resultName),
    ["the dataset", "the cross-validation", "the report", "the result"],
  );
});

test("failed: the message, what to do by status, the report; cancelled: said so", () => {
  const error = { status: 400, code: "BadRequest", message: "BBRC stopped: use a larger max_visited", field: "max_visited" };
  const html = taskHtml({ ...base, status: "Error", error, finishedAt: new Date() }, BASE);
  assert.match(html, /<section id="task-error" class="err"><h2>The task failed<\/h2><p><strong>BBRC stopped: use a larger max_visited<\/strong><\/p><p>The request cannot be done as asked \(see max_visited\)\. Go back to the form, correct it and submit it again\.<\/p>/);
  assert.match(html, /<pre>400 BadRequest: BBRC stopped: use a larger max_visited \(field max_visited\)\n<\/pre>/);
  assert.match(whatToDo({ status: 500, code: "InternalError", message: "x" }), /report it with this task's URI/);
  assert.match(whatToDo({ status: 500, code: "TaskTimeLimit", message: "x" }), /time budget/);
  assert.match(whatToDo({ status: 507, code: "InsufficientStorage", message: "x" }), /out of storage/);
  assert.match(taskHtml({ ...base, status: "Cancelled", finishedAt: new Date() }, BASE), /The task was cancelled/);
});
