/**
 * What the task machinery knows of jobs: a job is a function that runs in a worker thread, takes
 * plain (structured-clone-safe) input and returns plain output, and may report progress. The
 * machinery is generic over a map of jobs (kind → function); the service's map is
 * algorithms/jobs.ts, handed to the pools by app.ts as a module (`JobModule`) that each worker
 * thread imports. A job must not write to the bytes of its input: large Uint8Arrays reach it on
 * memory shared with the other jobs given the same bytes (pool.ts).
 */

/** What a job running in a worker thread may do besides computing: report progress. */
export interface JobContext {
  /** Progress of this job in [0, 1]. */
  progress(fraction: number): void;
}

/** A job (its input type is its first parameter's). */
export type Job = (input: never, ctx: JobContext) => unknown;
/** Jobs by kind. */
export type JobMap = Readonly<Record<string, Job>>;
export type JobKind<J extends JobMap> = keyof J & string;
export type JobInput<J extends JobMap, K extends JobKind<J>> = Parameters<J[K]>[0];
export type JobOutput<J extends JobMap, K extends JobKind<J>> = Awaited<ReturnType<J[K]>>;

/**
 * The module a pool's worker threads import (its URL is the pool's `module` option): the jobs,
 * and optionally what the thread does once before its first job and after each job. `setup` is
 * the pool's `setup` option, passed through as it is.
 */
export interface JobModule {
  readonly jobs: JobMap;
  /** Before the worker says it is ready (e.g. load and warm up a toolkit). */
  setUp?(setup: unknown): Promise<void>;
  /** After each job: `recycle` asks the pool to replace this worker once it has answered. */
  afterJob?(kind: string, setup: unknown): { recycle?: true };
}
