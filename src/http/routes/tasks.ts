/**
 * /task and /task/{id} (docs/opentox-api.md "Long operations are tasks"): status codes by state,
 * uri-list body = task URI until completed then the result URI, HTML that refreshes,
 * `text/event-stream` progress, DELETE cancels.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import { PassThrough } from "node:stream";
import { Conflict, NotFound } from "../../errors.ts";
import { isFinished, taskHttpStatus, taskQuads, type TaskState } from "../../resources/task.ts";
import { isId } from "../../resources/uris.ts";
import { toNTriples } from "../../store/ntriples.ts";
import { requireOwner } from "../auth.ts";
import type { Deps } from "../deps.ts";
import { problem, reportText } from "../error-response.ts";
import { negotiate } from "../negotiate.ts";
import { collectionReps, rdfReps, respond, seeOther, uriList } from "../respond.ts";
import { listPage, NEWEST_FIRST } from "../html/list.ts";
import { TASK_COLUMNS, TASK_LIST, taskListHtml } from "../html/collections.ts";
import { textSource } from "../render-rdf.ts";
import { ot } from "../../store/vocab.ts";
import { taskHtml } from "../html/task.ts";

function taskJson(t: TaskState): Record<string, unknown> {
  return { uri: t.uri, status: t.status, percentageCompleted: t.percentageCompleted, resultURI: t.resultUri ?? null, error: t.error ?? null };
}

export function registerTasks(router: Router, deps: Deps): void {
  const { tasks, vocab, uris } = deps;

  const find = (ctx: Context): TaskState => {
    const id = String(ctx.params.id);
    const t = isId(id) ? tasks.get(id) : undefined;
    if (!t) throw new NotFound(`no task ${uris.task(id)}`);
    return t;
  };

  router.get("/task", async (ctx) => {
    // tasks change state: a cache must ask again every time (with the ETag: a 304 if unchanged)
    ctx.set("Cache-Control", "no-cache");
    const list = tasks.list();
    const html = (): string => taskListHtml(listPage(ctx.query, list, TASK_COLUMNS, NEWEST_FIRST, TASK_LIST), vocab.base);
    await respond(ctx, [...collectionReps(uris.tasks(), list.map((t) => t.uri), ot.Task, deps), ["text/html", html]]);
  });

  router.get("/task/:id", async (ctx) => {
    const t = find(ctx);
    ctx.set("Cache-Control", "no-cache");
    const offers = ["text/uri-list", "text/turtle", "application/n-triples", "application/ld+json", "application/json", "application/rdf+xml", "text/html", "text/plain", "application/problem+json", "text/event-stream"];
    if (negotiate(ctx, offers) === "text/event-stream") return streamEvents(ctx, deps, t);
    const status = taskHttpStatus(t);
    if (t.status === "Completed" && t.resultUri) ctx.set("Location", t.resultUri);
    // A failed or cancelled task answers uri-list and plain-text clients with its error report,
    // so that a client polling until the body differs from the task URI stops.
    const failure = (t.status === "Error" || t.status === "Cancelled") && t.error ? reportText(t.error) : t.status === "Cancelled" ? `503 Cancelled: task ${t.uri} was cancelled\n` : undefined;
    await respond(
      ctx,
      [
        ["text/uri-list", () => failure ?? uriList([t.status === "Completed" && t.resultUri ? t.resultUri : t.uri])],
        ...rdfReps(() => textSource(toNTriples(taskQuads(t, vocab))), deps),
        ["text/html", () => taskHtml(t, vocab.base)],
        ["text/plain", () => failure ?? `${t.status} ${t.percentageCompleted.toFixed(1)} %${t.resultUri ? ` ${t.resultUri}` : ""}\n`],
        ["application/problem+json", () => JSON.stringify(t.error ? problem(t.error, t.uri) : taskJson(t))],
      ],
      status,
    );
    // the error report is not a URI list: say what it is
    if (failure !== undefined && ctx.type === "text/uri-list") ctx.type = "text/plain; charset=utf-8";
  });

  router.delete("/task/:id", async (ctx) => {
    const t = find(ctx);
    requireOwner(ctx, t.createdBy, t.uri, "cancel");
    // Cancelling a task that has finished would change nothing: RFC 9110 §15.5.10, the request
    // conflicts with the resource's current state (409, with the state in the report).
    if (!(await tasks.cancel(t.id))) throw new Conflict(`task ${t.uri} has already finished (${t.status}); only a queued or running task can be cancelled`);
    // The DELETE itself succeeded: 200 with the task's state, not the task's GET status (a 503
    // would tell clients the service is unavailable).
    await respond(ctx, [["text/uri-list", () => uriList([t.uri])], ...rdfReps(() => textSource(toNTriples(taskQuads(t, vocab))), deps)], 200);
  });
}

/** Server-sent events: one `progress` event per change, a final `status` event, then close. */
function streamEvents(ctx: Context, deps: Deps, t: TaskState): void {
  const stream = new PassThrough();
  ctx.status = 200;
  ctx.type = "text/event-stream";
  ctx.set("Cache-Control", "no-cache");
  ctx.body = stream;
  const stop = (): void => void deps.tasks.events.off(t.id, send);
  function send(s: TaskState): void {
    // A client that went away: koa destroys the stream; stop listening, write nothing.
    if (stream.destroyed || stream.writableEnded) return stop();
    const done = isFinished(s.status);
    stream.write(`event: ${done ? "status" : "progress"}\ndata: ${JSON.stringify(taskJson(s))}\n\n`);
    if (done) {
      stop();
      stream.end();
    }
  }
  // Early disconnects are ordinary for event streams: nothing to report. Koa pipes the body to
  // the response and hands a pipe that ended before the stream did to ctx.onerror, which logs a
  // stack; here that only means the client went away.
  const onerror = ctx.onerror.bind(ctx);
  ctx.onerror = (err: Error | null): void => {
    if (err && (err as NodeJS.ErrnoException).code === "ERR_STREAM_PREMATURE_CLOSE") return stop();
    onerror(err as Error);
  };
  stream.on("error", stop);
  stream.on("close", stop);
  ctx.res.on("close", stop);
  deps.tasks.events.on(t.id, send);
  send(t);
}

/**
 * 202 + Location + task URI body (uri-list by default), as every long POST answers; a browser's
 * form (HTML wanted) gets 303 to the task page instead, which follows the task.
 */
export async function respondTask(ctx: Context, t: TaskState, deps: Deps): Promise<void> {
  if (seeOther(ctx, t.uri)) return;
  ctx.set("Location", t.uri);
  await respond(
    ctx,
    [["text/uri-list", () => uriList([t.uri])], ...rdfReps(() => textSource(toNTriples(taskQuads(t, deps.vocab))), deps), ["text/html", () => taskHtml(t, deps.vocab.base)]],
    202,
  );
}
