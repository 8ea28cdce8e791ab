/**
 * Task resource ↔ quads (the task conventions: docs/opentox-api.md "Long operations are tasks").
 *
 * States: Queued → Running → Completed | Error | Cancelled. The task graph holds
 * `ot:hasStatus`, `ot:percentageCompleted`, `ot:resultURI`, `dc:date`, timings, the time budget
 * (`qg:timeLimitSeconds`, `qg:deadline`: when an unfinished task is stopped) and, on failure, an
 * `ot:ErrorReport` node (`<task>#error`, causes `<task>#error-1`, …).
 */
import { DataFactory } from "n3";
import * as ox from "oxigraph";
import type { Quad, NamedNode } from "@rdfjs/types";
import type { ErrorReport } from "../errors.ts";
import { dateTime, dbl, dc, int, iri, ot, rdf, str, type Vocab } from "../store/vocab.ts";

const { quad } = DataFactory;
type OxStore = ox.Store;

export type TaskStatus = "Queued" | "Running" | "Completed" | "Error" | "Cancelled";

export interface TaskState {
  readonly id: string;
  readonly uri: string;
  readonly title: string;
  readonly operation: string;
  status: TaskStatus;
  /** 0–100 */
  percentageCompleted: number;
  resultUri?: string;
  readonly createdAt: Date;
  /** Time budget from creation (TASK_TIME_LIMIT_S): the task is stopped at createdAt + timeLimitMs. */
  readonly timeLimitMs?: number;
  startedAt?: Date;
  finishedAt?: Date;
  error?: ErrorReport;
  /** Name of the API token that submitted it (resources/creator.ts); absent without tokens. */
  readonly createdBy?: string;
}

export function isFinished(s: TaskStatus): boolean {
  return s === "Completed" || s === "Error" || s === "Cancelled";
}

/**
 * HTTP status of GET on a task, as OpenTox clients expect it: 202 while queued or running, 200
 * once completed, the error's own status when failed (500 if it has none), 503 when cancelled.
 */
export function taskHttpStatus(t: TaskState): number {
  switch (t.status) {
    case "Completed":
      return 200;
    case "Cancelled":
      return 503;
    case "Error":
      return t.error?.status ?? 500;
    default:
      return 202;
  }
}

export function taskQuads(t: TaskState, v: Vocab): Quad[] {
  const s = iri(t.uri);
  const g = s;
  const q: Quad[] = [];
  const add = (subj: NamedNode, p: NamedNode, o: Quad["object"]): void => void q.push(quad(subj, p, o, g));
  add(s, rdf.type, ot.Task);
  add(s, dc.title, str(t.title));
  add(s, v.qg.operation, str(t.operation));
  add(s, ot.hasStatus, str(t.status));
  add(s, ot.percentageCompleted, dbl(Math.round(t.percentageCompleted * 10) / 10));
  add(s, dc.date, dateTime(t.createdAt));
  add(s, v.qg.createdAt, dateTime(t.createdAt));
  if (t.timeLimitMs !== undefined) {
    add(s, v.qg.timeLimitSeconds, int(Math.round(t.timeLimitMs / 1000)));
    add(s, v.qg.deadline, dateTime(new Date(t.createdAt.getTime() + t.timeLimitMs)));
  }
  if (t.startedAt) add(s, v.qg.startedAt, dateTime(t.startedAt));
  if (t.finishedAt) add(s, v.qg.finishedAt, dateTime(t.finishedAt));
  if (t.resultUri) add(s, ot.resultURI, iri(t.resultUri));
  if (t.createdBy !== undefined) add(s, v.qg.createdBy, str(t.createdBy));
  if (t.error) add(s, ot.errorReport, errorReportNode(t.uri + "#error", t.error, t.uri, v, g, q));
  return q;
}

/** Adds the quads of an `ot:ErrorReport` node and returns the node. */
export function errorReportNode(uri: string, r: ErrorReport, actor: string, v: Vocab, g: NamedNode, q: Quad[]): NamedNode {
  const n = iri(uri);
  q.push(quad(n, rdf.type, ot.ErrorReport, g));
  q.push(quad(n, ot.statusCode, int(r.status), g));
  q.push(quad(n, ot.errorCode, str(r.code), g));
  q.push(quad(n, ot.message, str(r.message), g));
  q.push(quad(n, ot.actor, iri(actor), g));
  if (r.line !== undefined) q.push(quad(n, v.qg.errorLine, int(r.line), g));
  if (r.column !== undefined) q.push(quad(n, v.qg.errorColumn, str(String(r.column)), g));
  if (r.field !== undefined) q.push(quad(n, v.qg.errorField, str(r.field), g));
  (r.causes ?? []).forEach((c, i) => {
    q.push(quad(n, ot.errorCause, errorReportNode(`${uri}-${i + 1}`, c, actor, v, g, q), g));
  });
  return n;
}

/** Read a task back from its graph (start-up); null if the graph holds no task. */
export function readTask(store: OxStore, uri: string, v: Vocab): TaskState | null {
  const g = ox.namedNode(uri);
  const props = propsOf(store, uri, g);
  const status = props.get(ot.hasStatus.value)?.[0];
  if (!status) return null;
  const one = (p: NamedNode): string | undefined => props.get(p.value)?.[0];
  const started = one(v.qg.startedAt);
  const limit = one(v.qg.timeLimitSeconds);
  const finished = one(v.qg.finishedAt);
  const result = one(ot.resultURI);
  const err = one(ot.errorReport);
  const createdBy = one(v.qg.createdBy);
  return {
    id: uri.slice(uri.lastIndexOf("/") + 1),
    uri,
    title: one(dc.title) ?? "",
    operation: one(v.qg.operation) ?? "",
    status: status as TaskStatus,
    percentageCompleted: Number(one(ot.percentageCompleted) ?? 0),
    createdAt: new Date(one(v.qg.createdAt) ?? 0),
    ...(limit !== undefined ? { timeLimitMs: Number(limit) * 1000 } : {}),
    ...(started ? { startedAt: new Date(started) } : {}),
    ...(finished ? { finishedAt: new Date(finished) } : {}),
    ...(result ? { resultUri: result } : {}),
    ...(err ? { error: readErrorReport(store, err, g, v) } : {}),
    ...(createdBy !== undefined ? { createdBy } : {}),
  };
}

function propsOf(store: OxStore, subject: string, g: ox.NamedNode): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const q of store.match(ox.namedNode(subject), null, null, g)) {
    const list = out.get(q.predicate.value) ?? [];
    list.push(q.object.value);
    out.set(q.predicate.value, list);
  }
  return out;
}

function readErrorReport(store: OxStore, node: string, g: ox.NamedNode, v: Vocab): ErrorReport {
  const p = propsOf(store, node, g);
  const one = (t: NamedNode): string | undefined => p.get(t.value)?.[0];
  const line = one(v.qg.errorLine);
  const column = one(v.qg.errorColumn);
  const field = one(v.qg.errorField);
  const causes = (p.get(ot.errorCause.value) ?? []).sort().map((c) => readErrorReport(store, c, g, v));
  return {
    status: Number(one(ot.statusCode) ?? 500),
    code: one(ot.errorCode) ?? "InternalError",
    message: one(ot.message) ?? "",
    ...(line !== undefined ? { line: Number(line) } : {}),
    ...(column !== undefined ? { column } : {}),
    ...(field !== undefined ? { field } : {}),
    ...(causes.length > 0 ? { causes } : {}),
  };
}
