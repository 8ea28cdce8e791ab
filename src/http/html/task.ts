/**
 * HTML of a task (docs/opentox-api.md "Forms and the task page"): what runs, its state and
 * progress, and then its result or its error. The page follows the task: the forms script
 * (html/scripts/forms.ts) subscribes to the task's event stream, moves the progress bar and,
 * when the task completes, forwards to the result; without scripts a meta refresh (inside
 * `<noscript>`, so that it does not race the script) reloads the page until the task ends, and
 * the finished page shows a prominent link to the result. A failed task shows its error report
 * as one block with what to do. A cancel button (a DELETE of the task, sent by the script: it
 * is shown only where the script runs) stops an unfinished task.
 */
import type { ErrorReport } from "../../errors.ts";
import { isFinished, type TaskState } from "../../resources/task.ts";
import { reportText } from "../error-response.ts";
import { FORMS_SCRIPT } from "./algorithm.ts";
import { dl, esc, link, page } from "./layout.ts";

/** What runs, in words, by the task's operation. */
const OPERATIONS: Readonly<Record<string, string>> = {
  "dataset upload": "Reading an uploaded file into a dataset",
  "model building": "Building a model",
  prediction: "Predicting a dataset with a model",
  "cross-validation": "Cross-validating a model-building algorithm",
  report: "Making a cross-validation report",
  descriptors: "Computing physico-chemical descriptors",
  "feature selection": "Selecting features (recursive feature elimination)",
  "BBRC mining": "Mining substructures (BBRC)",
  "LAST-PM mining": "Mining latent structures (LAST-PM)",
};

/** What a person can do about a failed task, by its error's status. */
export function whatToDo(e: ErrorReport): string {
  if (e.code === "TaskTimeLimit") return "The task ran out of its time budget (TASK_TIME_LIMIT_S). Try a smaller dataset or parameters that do less work (e.g. a larger min_frequency), or ask the operator for a longer budget.";
  if (e.status === 400 || e.status === 404 || e.status === 409 || e.status === 422) return `The request cannot be done as asked${e.field ? ` (see ${e.field})` : ""}. Go back to the form, correct it and submit it again.`;
  if (e.status === 413) return "The input is larger than this service accepts. Use a smaller file or dataset.";
  if (e.status === 503) return "The service was busy or stopped. Submit the form again in a while.";
  if (e.status === 507) return "The service is out of storage. Ask its operator to free space; then submit the form again.";
  return "This is a fault of the service. Submit the form again; if it fails again, report it with this task's URI and the report below.";
}

/** What a result URI names, for the link to it. */
export function resultName(uri: string): string {
  if (/\/model\/[^/]+$/.test(uri)) return "the model";
  if (/\/validation\/report\/crossvalidation\/[^/]+$/.test(uri)) return "the report";
  if (/\/validation\/crossvalidation\/[^/]+$/.test(uri)) return "the cross-validation";
  if (/\/dataset\/[^/]+$/.test(uri)) return "the dataset";
  return "the result";
}

export function taskHtml(t: TaskState, base: string, now = Date.now()): string {
  const finished = isFinished(t.status);
  const pct = t.percentageCompleted.toFixed(1);
  const rows: [string, string][] = [
    ["What runs", `${esc(OPERATIONS[t.operation] ?? t.operation)}: ${esc(t.title)}`],
    ["Status", `<output id="task-status">${esc(t.status)}</output>`],
    ["Progress", `<progress id="task-progress" max="100" value="${t.percentageCompleted}" aria-label="Progress">${pct} %</progress> <output id="task-percent">${pct} %</output>`],
    ["Created", esc(t.createdAt.toISOString())],
  ];
  if (t.startedAt) rows.push(["Started", esc(t.startedAt.toISOString())]);
  if (t.finishedAt) rows.push(["Finished", esc(t.finishedAt.toISOString())]);
  if (t.resultUri) rows.push(["Result", link(t.resultUri)]);
  let outcome = "";
  if (t.status === "Completed" && t.resultUri) outcome = `<h2 id="task-result">Done: ${link(t.resultUri, `open ${resultName(t.resultUri)}`)}</h2>`;
  else if (t.status === "Error" && t.error) {
    outcome = `<section id="task-error" class="err"><h2>The task failed</h2><p><strong>${esc(t.error.message)}</strong></p><p>${esc(whatToDo(t.error))}</p><details><summary>The error report</summary><pre>${esc(reportText(t.error))}</pre></details></section>`;
  } else if (t.status === "Cancelled") outcome = `<section id="task-error" class="err"><h2>The task was cancelled</h2><p>Nothing was made. Submit the form again to run it.</p></section>`;
  else outcome = `<p id="task-following">This page follows the task${t.status === "Queued" ? " (it waits for a free worker)" : ""} and opens the result when it is done.</p>`;
  // the cancel form is shown by the script (a DELETE needs one); the token field is added to it when tokens are on
  const cancel = finished ? "" : `<form id="task-cancel" method="post" action="${esc(t.uri)}" data-method="delete" hidden><p><button type="submit">Cancel the task</button></p></form>`;
  // Without scripts the page reloads itself (naming the task: it may have been the answer to a form's POST).
  const refresh = finished ? "" : `<noscript><meta http-equiv="refresh" content="2; url=${esc(t.uri)}"></noscript>`;
  const ago = t.finishedAt ? Math.max(0, now - t.finishedAt.getTime()) : -1;
  const data = `<div id="task" data-task="${esc(t.uri)}" data-status="${esc(t.status)}" data-result="${esc(t.resultUri ?? "")}" data-finished-ago-ms="${ago}" hidden></div>`;
  return page(`Task: ${t.title}`, `${data}${outcome}${dl(rows)}${cancel}`, { base, self: t.uri, formats: ["ttl", "json", "uri"], head: refresh, scripts: [FORMS_SCRIPT] });
}
