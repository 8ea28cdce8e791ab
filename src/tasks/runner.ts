/**
 * Task lifecycle (what clients see of it: docs/opentox-api.md "Long operations are tasks"): create
 * a durable task, run its operation, and commit the operation's graphs together with the task's
 * completion in one transaction.
 *
 * An operation is an async function on the main thread that orchestrates pool jobs (the compute
 * happens in workers) and returns the graph operations to commit and the result URI. Progress is
 * written to the task graph without fsync (throttled); creation and the final state are durable.
 * After a restart, tasks that were Queued or Running become Error "interrupted by restart".
 *
 * Bounds (README "Limits"): at most `maxPending` unfinished tasks — one more `submit` is refused
 * with 503 and a Retry-After before anything is created; and a time budget per task, counted
 * from its creation — a task still unfinished then is stopped like a cancel (its pool jobs
 * cancelled, their workers terminated, staged data discarded) and ends Error naming the budget.
 */
import { EventEmitter, setMaxListeners } from "node:events";
import { Cancelled, InsufficientStorage, ServiceUnavailable, TaskTimeLimit, toReport, toServiceError } from "../errors.ts";
import type { StoreBackend, StagedGraph } from "../store/backend.ts";
import type { GraphOp } from "../store/journal.ts";
import { toNTriples } from "../store/ntriples.ts";
import type { Vocab } from "../store/vocab.ts";
import { actingCreator, withCreator } from "../resources/creator.ts";
import { isFinished, taskQuads, type TaskState } from "../resources/task.ts";
import { read } from "../resources/reads.ts";
import { newId, type Uris } from "../resources/uris.ts";
import type { JobPool, RunOptions } from "./pool.ts";
import type { JobInput, JobKind, JobMap, JobOutput } from "./job.ts";

export interface OperationResult {
  readonly ops: readonly GraphOp[];
  readonly resultUri: string;
  /** Graphs the operation loaded ahead (StoreBackend.stage) for puts in `ops`; discarded if the commit does not happen. */
  readonly preloaded?: readonly StagedGraph[];
  /**
   * Run once the result is committed, before the task reports Completed: making the result
   * ready to use (a model's data read into its cache, so that its first prediction is fast). A
   * failure is logged and changes nothing (the result is stored; its first use does the work).
   */
  readonly warm?: () => Promise<void>;
}

/** What an operation of a task may do; `J`: the jobs it may run. */
export interface OperationContext<J extends JobMap = JobMap> {
  readonly signal: AbortSignal;
  readonly taskUri: string;
  /** Overall progress in [0, 1]. */
  progress(fraction: number): void;
  /** Run a pool job on behalf of this task (cancelled with it; marks the task Running). */
  run<K extends JobKind<J>>(kind: K, input: JobInput<J, K>, onProgress?: (f: number) => void): Promise<JobOutput<J, K>>;
}

export type Operation<J extends JobMap = JobMap> = (ctx: OperationContext<J>) => Promise<OperationResult>;

const PROGRESS_WRITE_MS = 250;
/** How often final task states that could not be written (a full disk) are tried again. */
const RETRY_WRITE_MS = 5000;

export interface TaskLimits {
  /** Unfinished tasks at most (MAX_PENDING_TASKS). */
  readonly maxPending: number;
  /** Time budget of a task from its creation, in ms (TASK_TIME_LIMIT_S). */
  readonly timeLimitMs: number;
}

/** setTimeout's longest delay (2³¹ − 1 ms, 24.8 days); a longer budget is not enforced past it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const DEFAULT_TASK_LIMITS: TaskLimits = { maxPending: 32, timeLimitMs: 3_600_000 };

/** A duration as people read it: "1 h", "90 s", "2 min 5 s". */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const parts: string[] = [];
  if (s >= 3600) parts.push(`${Math.floor(s / 3600)} h`);
  if (s % 3600 >= 60) parts.push(`${Math.floor((s % 3600) / 60)} min`);
  if (s % 60 > 0) parts.push(`${s % 60} s`);
  return parts.join(" ");
}

/** Runs tasks whose operations run jobs of map `J` on the pool. */
export class TaskRunner<J extends JobMap = JobMap> {
  private readonly tasks = new Map<string, TaskState>();
  private readonly controllers = new Map<string, AbortController>();
  private readonly lastWrite = new Map<string, number>();
  /** Final states the store could not write (507: a full or read-only disk), written again later. */
  private readonly unwritten = new Map<string, TaskState>();
  private retryTimer: NodeJS.Timeout | undefined;
  readonly events = new EventEmitter();

  constructor(
    private readonly store: StoreBackend,
    private readonly pool: JobPool<J>,
    private readonly uris: Uris,
    private readonly vocab: Vocab,
    private readonly limits: TaskLimits = DEFAULT_TASK_LIMITS,
  ) {
    this.events.setMaxListeners(0);
  }

  /** Load every task graph; mark unfinished ones as interrupted (durably). */
  async recover(): Promise<number> {
    const interrupted: TaskState[] = [];
    for (const t of await read(this.store, this.vocab, "tasks", this.store.graphsWithPrefix(this.uris.tasks() + "/"))) {
      if (!t) continue;
      this.tasks.set(t.id, t);
      if (!isFinished(t.status)) {
        t.status = "Error";
        t.finishedAt = new Date();
        t.error = { status: 500, code: "InternalError", message: "interrupted by restart: the service stopped while this task was running; submit it again" };
        interrupted.push(t);
      }
    }
    // A full or read-only disk must not stop the start: the states are served from memory and written later.
    if (interrupted.length > 0) await this.store.commit(interrupted.map((t) => this.taskOp(t))).catch((err: unknown) => this.writeLater(interrupted, err));
    return interrupted.length;
  }

  get(id: string): TaskState | undefined {
    return this.tasks.get(id);
  }

  list(): TaskState[] {
    return [...this.tasks.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  private taskOp(t: TaskState): GraphOp {
    return { graph: t.uri, ntriples: toNTriples(taskQuads(t, this.vocab)) };
  }

  /** Unfinished tasks (queued or running, and those being created). */
  get pending(): number {
    return this.controllers.size;
  }

  /**
   * Throw 503 (with Retry-After) when one more task would pass `maxPending`. `submit` checks it;
   * a route may call it first, before work that only a task would use (reading an upload).
   */
  admit(): void {
    const { maxPending } = this.limits;
    if (this.pending < maxPending) return;
    const wait = this.retryAfterSeconds();
    throw new ServiceUnavailable(
      `the service has ${this.pending} unfinished tasks, its limit (MAX_PENDING_TASKS = ${maxPending}, option --max-pending-tasks); nothing was created: try again in ${duration(wait * 1000)}`,
      { retryAfter: wait },
    );
  }

  /**
   * When a task is likely to finish: for each unfinished task, the earlier of its budget's end and
   * the time its progress so far predicts (elapsed · (100 − p) / p); the soonest of them, 1 s to 1 h.
   */
  private retryAfterSeconds(now = Date.now()): number {
    let soonest = Infinity;
    for (const id of this.controllers.keys()) {
      const t = this.tasks.get(id);
      if (!t) continue;
      let eta = t.createdAt.getTime() + (t.timeLimitMs ?? this.limits.timeLimitMs) - now;
      const p = t.percentageCompleted;
      if (t.startedAt && p > 0) eta = Math.min(eta, ((now - t.startedAt.getTime()) * (100 - p)) / p);
      soonest = Math.min(soonest, eta);
    }
    return Math.min(3600, Math.max(1, Math.ceil((Number.isFinite(soonest) ? soonest : 60_000) / 1000)));
  }

  /** Create the task durably (it is Queued on return) and start the operation; 503 when the queue is full. */
  async submit(title: string, operation: string, run: Operation<J>): Promise<TaskState> {
    this.admit();
    const id = newId();
    // The token name of the request submitting it (README "Access control"); recorded on the
    // task and on the resources it creates.
    const createdBy = actingCreator();
    const t: TaskState = {
      id, uri: this.uris.task(id), title, operation, status: "Queued", percentageCompleted: 0, createdAt: new Date(), timeLimitMs: this.limits.timeLimitMs,
      ...(createdBy !== undefined ? { createdBy } : {}),
    };
    // The slot is taken before the creation is awaited, so that concurrent submits see it.
    const ac = new AbortController();
    setMaxListeners(0, ac.signal);
    this.controllers.set(id, ac);
    try {
      await this.store.commit([this.taskOp(t)]);
    } catch (err) {
      this.controllers.delete(id);
      throw err;
    }
    this.tasks.set(id, t);
    void this.execute(t, ac, run);
    return t;
  }

  private markRunning(t: TaskState): void {
    if (t.status !== "Queued") return;
    t.status = "Running";
    t.startedAt = new Date();
    this.write(t, true);
  }

  private setProgress(t: TaskState, fraction: number): void {
    const pct = Math.max(t.percentageCompleted, Math.min(99.9, fraction * 100));
    if (pct === t.percentageCompleted || isFinished(t.status)) return;
    t.percentageCompleted = pct;
    this.write(t, false);
  }

  /** Non-durable write of an intermediate state (throttled unless forced) and an event. */
  private write(t: TaskState, force: boolean): void {
    this.events.emit(t.id, t);
    const now = Date.now();
    if (!force && now - (this.lastWrite.get(t.id) ?? 0) < PROGRESS_WRITE_MS) return;
    this.lastWrite.set(t.id, now);
    void this.store.commit([this.taskOp(t)], { durable: false }).catch(() => undefined);
  }

  private async execute(t: TaskState, ac: AbortController, run: Operation<J>): Promise<void> {
    const ctx: OperationContext<J> = {
      signal: ac.signal,
      taskUri: t.uri,
      progress: (f) => {
        this.markRunning(t);
        this.setProgress(t, f);
      },
      run: <K extends JobKind<J>>(kind: K, input: JobInput<J, K>, onProgress?: (f: number) => void): Promise<JobOutput<J, K>> => {
        const opts: RunOptions = { signal: ac.signal, owner: t.id, onStart: () => this.markRunning(t), ...(onProgress ? { onProgress } : {}) };
        return this.pool.run(kind, input, opts);
      },
    };
    // The final state is committed from a copy and published only after the commit: a client
    // that sees "Completed" must find the result in the store.
    const final: TaskState = { ...t };
    let ops: readonly GraphOp[] = [];
    let preloaded: readonly StagedGraph[] = [];
    // The budget: past it, the task is stopped like a cancel, with the budget as the reason.
    const budget = t.timeLimitMs ?? this.limits.timeLimitMs;
    const timer = setTimeout(() => {
      ac.abort(new TaskTimeLimit(`the task ran past its time budget of ${duration(budget)} (TASK_TIME_LIMIT_S = ${Math.round(budget / 1000)}, option --task-time-limit-s) and was stopped; nothing of it was stored`, { field: "TASK_TIME_LIMIT_S" }));
    }, Math.min(MAX_TIMER_MS, Math.max(0, t.createdAt.getTime() + budget - Date.now())));
    // An operation that does not react to the abort is not waited for: the task ends at once, and
    // whatever the operation loads later is discarded when it settles.
    const stopped = new Promise<never>((_, reject) => {
      if (ac.signal.aborted) reject(ac.signal.reason);
      ac.signal.addEventListener("abort", () => reject(ac.signal.reason), { once: true });
    });
    stopped.catch(() => undefined);
    const running = Promise.resolve().then(() => run(ctx));
    try {
      const result = await Promise.race([running, stopped]);
      preloaded = result.preloaded ?? [];
      if (ac.signal.aborted) throw new Cancelled("cancelled");
      ops = await withCreator(result.ops, t.createdBy, this.vocab, (g) => !this.store.has(g), preloaded);
      final.status = "Completed";
      final.percentageCompleted = 100;
      final.resultUri = result.resultUri;
    } catch (err) {
      const overBudget = ac.signal.reason instanceof TaskTimeLimit;
      if (!(err instanceof Error && "status" in err) && !ac.signal.aborted) console.error(`task ${t.uri} failed:`, err);
      final.status = ac.signal.aborted && !overBudget ? "Cancelled" : "Error";
      if (final.status === "Error") final.error = toReport(overBudget ? (ac.signal.reason as TaskTimeLimit) : toServiceError(err));
      // A cancelled task says so in an ot:ErrorReport, as a failed one does.
      else final.error = toReport(new Cancelled(`task ${t.uri} was cancelled (DELETE) before it finished; nothing of it was stored`));
      ops = [];
      await discard(preloaded);
      preloaded = [];
      running.then((r) => discard(r.preloaded ?? []), () => undefined);
    } finally {
      clearTimeout(timer);
      this.pool.release?.(t.id);
    }
    final.percentageCompleted = Math.max(final.percentageCompleted, t.percentageCompleted);
    final.startedAt = t.startedAt ?? new Date();
    final.finishedAt = new Date();
    let warm: (() => Promise<void>) | undefined;
    if (final.status === "Completed") warm = await running.then((r) => r.warm, () => undefined);
    try {
      await this.store.commit([...ops, this.taskOp(final)], { preloaded });
      if (warm) await warm().catch((err: unknown) => console.error(`task ${t.uri}: its result was stored, getting it ready failed:`, err));
    } catch (err) {
      console.error(`task ${t.uri}: commit failed`, err);
      await discard(preloaded);
      final.status = "Error";
      delete final.resultUri;
      final.error = toReport(toServiceError(err));
      await this.store.commit([this.taskOp(final)]).catch((e: unknown) => this.writeLater([t], e));
    }
    this.controllers.delete(t.id);
    this.lastWrite.delete(t.id);
    Object.assign(t, final);
    this.events.emit(t.id, t);
  }

  /**
   * The store could not write these (final) states: clients get them from memory meanwhile,
   * and they are written as soon as the disk takes them (a restart before that reports the
   * tasks as interrupted). Other failures are not retried.
   */
  private writeLater(states: readonly TaskState[], err: unknown): void {
    if (!(err instanceof InsufficientStorage)) return;
    for (const t of states) this.unwritten.set(t.id, t);
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      const due = [...this.unwritten.values()];
      this.unwritten.clear();
      void this.store.commit(due.map((t) => this.taskOp(t))).catch((e: unknown) => this.writeLater(due, e));
    }, RETRY_WRITE_MS);
    this.retryTimer.unref();
  }

  /** Cancel a queued or running task; returns false if it had already finished. */
  async cancel(id: string): Promise<boolean> {
    const t = this.tasks.get(id);
    const ac = this.controllers.get(id);
    if (!t || !ac || isFinished(t.status)) return false;
    ac.abort();
    await new Promise<void>((resolve) => {
      const check = (s: TaskState): void => {
        if (isFinished(s.status)) {
          this.events.off(id, check);
          resolve();
        }
      };
      this.events.on(id, check);
    });
    return true;
  }

  /** Wait until every running task has finished (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all(
      [...this.controllers.keys()].map(
        (id) => new Promise<void>((resolve) => this.events.on(id, (s: TaskState) => isFinished(s.status) && resolve())),
      ),
    );
  }
}

async function discard(stages: readonly StagedGraph[]): Promise<void> {
  for (const st of stages) await st.discard().catch(() => undefined);
}
