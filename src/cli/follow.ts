/**
 * Following a task until it ends (README "Tasks"): `GET <task>` with `Accept: text/uri-list`
 * answers 202 and the task URI while it is queued or running, 200 and the result URI once it
 * completed, and for a failed or cancelled task the error's status with its error report as
 * text. The client polls so (every 0.2 s at first, then less often, at most every second); when
 * progress is shown it first reads the task's event stream (`Accept: text/event-stream`: a
 * progress event per change, then a final status event) and polls once it ends, so a stream
 * that breaks or is not offered costs nothing but the progress display.
 *
 * A failed poll is a failed task (exit 1) only if the task itself says so (its N-Triples have
 * `ot:hasStatus "Error"` or `"Cancelled"`); otherwise it is the request that failed (exit 3:
 * e.g. 404 for a task the service does not know, 401 without a token under --private-reads).
 *
 * Ctrl-C stops following, not the task: the task URI is named so that `qsargraph wait <task>`
 * can follow it later; with `cancelOnInterrupt` the task is cancelled (DELETE) first. So is it
 * when the service cannot be reached any more while the task is followed.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Client, messageOf, networkError } from "./client.ts";
import { HttpError, Interrupted, TaskFailed, Unreachable } from "./errors.ts";
import { EventStreamParser } from "./sse.ts";
import type { Progress } from "./progress.ts";
import { parseUriList } from "./uri-list.ts";

const OT = "http://www.opentox.org/api/1.1#";
const FIRST_WAIT_MS = 200;
const MAX_WAIT_MS = 1000;

export interface FollowOptions {
  /** Shown while the task runs; undefined: no progress display. */
  readonly progress?: Progress;
  /** Aborted by Ctrl-C. */
  readonly signal?: AbortSignal;
  readonly cancelOnInterrupt?: boolean;
}

/** Follow `task` to its end: its result URI, or TaskFailed / HttpError / Unreachable / Interrupted. */
export async function followTask(client: Client, task: string, o: FollowOptions = {}): Promise<string> {
  try {
    if (o.progress) await watch(client, task, o.progress, o.signal);
    return await poll(client, task, o.signal);
  } catch (err) {
    if (err instanceof Unreachable) throw new Unreachable(`${err.message}; the task may go on: qsargraph wait ${task}`);
    if (!(err instanceof Interrupted)) throw err;
    o.progress?.finish();
    if (o.cancelOnInterrupt) {
      const r = await client.request("DELETE", task, { accept: "text/uri-list", signal: AbortSignal.timeout(10_000) }).catch((e: unknown) => e as Error);
      if (r instanceof Response && r.status < 400) throw new Interrupted(`interrupted: task ${task} cancelled`);
      const why = r instanceof Response ? messageOf(r.status, r.statusText, r.headers.get("content-type") ?? "", await r.text().catch(() => "")) : r.message;
      throw new Interrupted(`interrupted: task ${task} could not be cancelled (${why}); it goes on`);
    }
    throw new Interrupted(`interrupted: task ${task} goes on; follow it with: qsargraph wait ${task}`);
  } finally {
    o.progress?.finish();
  }
}

async function poll(client: Client, task: string, signal?: AbortSignal): Promise<string> {
  let wait = FIRST_WAIT_MS;
  for (;;) {
    const r = await client.request("GET", task, { accept: "text/uri-list" });
    let body: string;
    try {
      body = await r.text();
    } catch (err) {
      throw networkError(err, task);
    }
    const uris = parseUriList(body);
    if (r.status === 202 || (r.status < 300 && uris[0] === task)) {
      try {
        await sleep(wait, undefined, signal ? { signal } : {});
      } catch (err) {
        throw networkError(err, task);
      }
      wait = Math.min(MAX_WAIT_MS, Math.round(wait * 1.5));
      continue;
    }
    const message = messageOf(r.status, r.statusText, r.headers.get("content-type") ?? "", body);
    if (r.status < 300) {
      if (uris[0] === undefined) throw new HttpError(`GET ${task} answered ${r.status} without a result URI`, r.status);
      return uris[0];
    }
    const state = await taskStatus(client, task);
    if (state === "Error") throw new TaskFailed(`task ${task} failed: ${message}`, task);
    if (state === "Cancelled") throw new TaskFailed(message.includes(task) ? message : `task ${task} was cancelled: ${message}`, task);
    throw new HttpError(`GET ${task} answered ${message}`, r.status);
  }
}

/** The task's ot:hasStatus, if `task` is a task the service can show. */
async function taskStatus(client: Client, task: string): Promise<string | undefined> {
  const r = await client.request("GET", task, { accept: "application/n-triples" });
  const nt = await r.text().catch(() => "");
  const m = new RegExp(`^<${escapeRegExp(task)}> <${escapeRegExp(OT)}hasStatus> "(\\w+)"`, "m").exec(nt);
  return m?.[1];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Show the task's progress from its event stream until its final status event (or the stream ends). */
async function watch(client: Client, task: string, progress: Progress, signal?: AbortSignal): Promise<void> {
  const r = await client.request("GET", task, { accept: "text/event-stream" });
  if (r.status !== 200 || !(r.headers.get("content-type") ?? "").startsWith("text/event-stream") || !r.body) {
    await r.body?.cancel().catch(() => undefined);
    return;
  }
  const parser = new EventStreamParser();
  const decoder = new TextDecoder();
  try {
    for await (const chunk of r.body) {
      for (const e of parser.push(decoder.decode(chunk, { stream: true }))) {
        let state: { status?: unknown; percentageCompleted?: unknown };
        try {
          state = JSON.parse(e.data) as typeof state;
        } catch {
          continue;
        }
        progress.update(String(state.status ?? ""), Number(state.percentageCompleted ?? 0));
        if (e.event === "status") return;
      }
    }
  } catch (err) {
    // Ctrl-C; any other break of the stream leaves the polling to find out.
    if (signal?.aborted || (err as { name?: string })?.name === "AbortError") throw new Interrupted(`interrupted (${task})`);
  }
}
