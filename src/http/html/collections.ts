/**
 * The list pages of the models, validations and tasks (the datasets' is in dataset.ts, the
 * compounds' in compound.ts): each a sortable, paged list table (list.ts) of what a person picks
 * a member by — title, date, size and a few facts.
 */
import type { ModelRow, ValidationRow } from "../../resources/listings.ts";
import type { TaskState } from "../../resources/task.ts";
import { ROWS, type PageSpec } from "../paging.ts";
import { count, decimal, headline } from "./dataset.ts";
import { esc, link, page } from "./layout.ts";
import { dateCell, dateValue, listTable, type ListColumn, type ListPage } from "./list.ts";

export const MODEL_LIST: PageSpec = { ...ROWS, items: "models" };
export const VALIDATION_LIST: PageSpec = { ...ROWS, items: "validations" };
export const TASK_LIST: PageSpec = { ...ROWS, items: "tasks" };

const lastSegment = (uri: string): string => uri.slice(uri.lastIndexOf("/") + 1);

/** Models: title, date, endpoint, algorithm, training compounds (the size), training dataset. */
export const MODEL_COLUMNS: readonly ListColumn<ModelRow>[] = [
  { title: "Title", cell: (m) => link(m.uri, m.title || m.uri), sort: { key: "title", value: (m) => m.title || m.uri, natural: "asc" } },
  { title: "Created", cell: (m) => dateCell(m.created), sort: { key: "date", value: (m) => dateValue(m.created), natural: "desc" } },
  { title: "Endpoint", cell: (m) => `${esc(m.endpointTitle)} <span class="muted">(${m.classification ? "classes" : "numeric"})</span>`, sort: { key: "endpoint", value: (m) => m.endpointTitle, natural: "asc" } },
  { title: "Algorithm", cell: (m) => esc(m.algorithm), sort: { key: "algorithm", value: (m) => m.algorithm, natural: "asc" } },
  { title: "Training compounds", cell: (m) => count(m.trainingCompounds), numeric: true, sort: { key: "size", value: (m) => m.trainingCompounds, natural: "desc" } },
  { title: "Training dataset", cell: (m) => (m.trainingDataset ? link(m.trainingDataset, lastSegment(m.trainingDataset)) : "") },
];

export function modelListHtml(p: ListPage<ModelRow>, base: string): string {
  return page("Models", `${listTable("Models, with their training data", p, MODEL_COLUMNS, MODEL_LIST)}<p>Build one with ${link(`${base}/algorithm/qsar`, "the model form")}, or from a dataset's page.</p>`, {
    base,
    self: `${base}/model`,
    formats: ["uri", "ttl"],
  });
}

/** Cross-validations and reports: title, kind, date, dataset, algorithm, folds, compounds (the size), accuracy or RMSE. */
export const VALIDATION_COLUMNS: readonly ListColumn<ValidationRow>[] = [
  { title: "Title", cell: (v) => link(v.uri, v.title || v.uri), sort: { key: "title", value: (v) => v.title || v.uri, natural: "asc" } },
  { title: "Kind", cell: (v) => (v.kind === "report" ? `report of ${v.validations?.length ?? 0}` : "cross-validation") },
  { title: "Created", cell: (v) => dateCell(v.created), sort: { key: "date", value: (v) => dateValue(v.created), natural: "desc" } },
  { title: "Dataset", cell: (v) => (v.dataset ? link(v.dataset, lastSegment(v.dataset)) : "") },
  { title: "Algorithm", cell: (v) => esc(v.algorithm ?? "") },
  { title: "Folds", cell: (v) => count(v.folds), numeric: true },
  { title: "Compounds", cell: (v) => count(v.instances ?? v.validations?.length), numeric: true, sort: { key: "size", value: (v) => v.instances ?? v.validations?.length, natural: "desc" } },
  { title: "Result", cell: (v) => esc(headline(v)), sort: { key: "result", value: (v) => v.accuracy ?? v.rmse, natural: "desc" } },
];

/** The list part of /validation and /validation/crossvalidation (and of the reports' list). */
export function validationListHtml(title: string, intro: string, p: ListPage<ValidationRow>, self: string, base: string, scripts: readonly string[] = []): string {
  return page(title, `${intro}${listTable(`${title}, with their results`, p, VALIDATION_COLUMNS, VALIDATION_LIST)}`, { base, self, formats: ["uri", "ttl"], scripts });
}

/** Tasks: title, status, progress, date, result. */
export const TASK_COLUMNS: readonly ListColumn<TaskState>[] = [
  { title: "Task", cell: (t) => link(t.uri, t.title), sort: { key: "title", value: (t) => t.title, natural: "asc" } },
  { title: "Status", cell: (t) => esc(t.status), sort: { key: "status", value: (t) => t.status, natural: "asc" } },
  { title: "%", cell: (t) => esc(decimal(t.percentageCompleted, 0)), numeric: true },
  { title: "Created", cell: (t) => dateCell(t.createdAt), sort: { key: "date", value: (t) => t.createdAt.getTime(), natural: "desc" } },
  { title: "Result", cell: (t) => (t.resultUri ? link(t.resultUri) : "") },
];

export function taskListHtml(p: ListPage<TaskState>, base: string): string {
  return page("Tasks", listTable("Tasks", p, TASK_COLUMNS, TASK_LIST), { base, self: `${base}/task`, formats: ["uri", "ttl", "json"] });
}
