/** HTML of a task: its state, progress, result or error; it refreshes itself until the task ends. */
import { isFinished, type TaskState } from "../../resources/task.ts";
import { reportText } from "../error-response.ts";
import { dl, esc, link, page } from "./layout.ts";

export function taskHtml(t: TaskState, base: string): string {
  const rows: [string, string][] = [
    ["Status", esc(t.status)],
    ["Operation", esc(t.operation)],
    ["Progress", `<progress max="100" value="${t.percentageCompleted}"></progress> ${t.percentageCompleted.toFixed(1)} %`],
    ["Created", esc(t.createdAt.toISOString())],
  ];
  if (t.startedAt) rows.push(["Started", esc(t.startedAt.toISOString())]);
  if (t.finishedAt) rows.push(["Finished", esc(t.finishedAt.toISOString())]);
  if (t.resultUri) rows.push(["Result", link(t.resultUri)]);
  if (t.error) rows.push(["Error", `<pre class="err">${esc(reportText(t.error))}</pre>`]);
  // The refresh names the task: the page may have been the answer to a POST (an HTML form).
  const refresh = isFinished(t.status) ? "" : `<meta http-equiv="refresh" content="2; url=${esc(t.uri)}">`;
  return page(`Task: ${t.title}`, dl(rows), { base, self: t.uri, formats: ["ttl", "json", "uri"], head: refresh });
}
