/**
 * The one error hierarchy of the service (how errors reach clients: docs/opentox-api.md "Errors").
 *
 * Every error a client can see is a `ServiceError` with a fixed HTTP status. Pure modules throw
 * these too (e.g. the CSV parser throws `BadRequest` with the line and column at fault), so the
 * HTTP layer and the task runner render them the same way: as an `ot:ErrorReport` in RDF,
 * `application/problem+json`, `text/plain` or HTML. Nothing else is shown to clients: an
 * unexpected exception becomes an `InternalError` without its stack.
 */
import { dirname } from "node:path";

/** Where in the input the problem is (a CSV line/column, a form field, a query offset). */
export interface ErrorLocation {
  readonly line?: number;
  readonly column?: number | string;
  readonly field?: string;
}

export interface ErrorDetails extends ErrorLocation {
  /** Further reports, e.g. one per rejected row, or the error of a sub-task. */
  readonly causes?: readonly ServiceError[];
  /** Extra values shown to the client (e.g. the media types that are available). */
  readonly extra?: Readonly<Record<string, string | number | readonly string[]>>;
  /** Seconds after which the request may succeed: sent as `Retry-After` (e.g. a full task queue). */
  readonly retryAfter?: number;
}

export abstract class ServiceError extends Error {
  abstract readonly status: number;
  /** Short, stable name of the error kind, also used as `ot:errorCode`. */
  abstract readonly code: string;
  readonly details: ErrorDetails;

  constructor(message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

export class BadRequest extends ServiceError {
  readonly status = 400;
  readonly code = "BadRequest";
}

export class NotFound extends ServiceError {
  readonly status = 404;
  readonly code = "NotFound";
}

/** No valid API token where one is needed (README "Access control"); answered with `WWW-Authenticate: Bearer`. */
export class Unauthorized extends ServiceError {
  readonly status = 401;
  readonly code = "Unauthorized";
}

/** A valid API token that may not do this (e.g. delete a resource another token created). */
export class Forbidden extends ServiceError {
  readonly status = 403;
  readonly code = "Forbidden";
}

export class MethodNotAllowed extends ServiceError {
  readonly status = 405;
  readonly code = "MethodNotAllowed";
}

export class NotAcceptable extends ServiceError {
  readonly status = 406;
  readonly code = "NotAcceptable";
  constructor(
    readonly available: readonly string[],
    requested: string,
    why = `None of the requested media types (${requested}) is available`,
  ) {
    super(`${why}; available: ${available.join(", ")}`, {
      field: "Accept",
      extra: { available },
    });
  }
}

export class Conflict extends ServiceError {
  readonly status = 409;
  readonly code = "Conflict";
}

/** A body whose size must be declared up front (a multipart upload without Content-Length). */
export class LengthRequired extends ServiceError {
  readonly status = 411;
  readonly code = "LengthRequired";
}

export class PayloadTooLarge extends ServiceError {
  readonly status = 413;
  readonly code = "PayloadTooLarge";
}

export class UnsupportedMediaType extends ServiceError {
  readonly status = 415;
  readonly code = "UnsupportedMediaType";
}

/** Well-formed input that cannot be processed (e.g. a structure that does not parse). */
export class UnprocessableEntity extends ServiceError {
  readonly status = 422;
  readonly code = "UnprocessableEntity";
}

/**
 * The result cannot be stored (RFC 4918 §11.5): it would pass the in-memory store's capacity
 * (graph-store.ts `maxQuads`), or the disk cannot take it (full, read-only, a quota or file-size
 * limit, an I/O error: `storageFailure`). Nothing of the request was stored.
 */
export class InsufficientStorage extends ServiceError {
  readonly status = 507;
  readonly code = "InsufficientStorage";
}

export class InternalError extends ServiceError {
  readonly status = 500;
  readonly code = "InternalError";
}

/** The operation was cancelled by a client (tasks: `DELETE /task/{id}`). */
export class Cancelled extends ServiceError {
  readonly status = 503;
  readonly code = "Cancelled";
}

export class ServiceUnavailable extends ServiceError {
  readonly status = 503;
  readonly code = "ServiceUnavailable";
}

/** Errors of a write that a full or read-only disk causes (answered 507 wherever they come from). */
const DISK_FULL = new Set(["ENOSPC", "EDQUOT", "EROFS", "EFBIG"]);

/** Turn anything thrown into a ServiceError; unknown errors lose their message and stack. */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  const e = err as NodeJS.ErrnoException | undefined;
  if (e && DISK_FULL.has(e.code ?? "")) return storageFailure(e, undefined, e.path ?? "a file", e.path ? dirname(e.path) : "it");
  return new InternalError("Internal error");
}

/**
 * A plain, structured-clone-safe form of an error, used to carry errors out of worker threads
 * and to store them in task graphs.
 */
export interface ErrorReport {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number | string;
  readonly field?: string;
  readonly causes?: readonly ErrorReport[];
}

export function toReport(err: ServiceError): ErrorReport {
  const d = err.details;
  return {
    status: err.status,
    code: err.code,
    message: err.message,
    ...(d.line !== undefined ? { line: d.line } : {}),
    ...(d.column !== undefined ? { column: d.column } : {}),
    ...(d.field !== undefined ? { field: d.field } : {}),
    ...(d.causes && d.causes.length > 0 ? { causes: d.causes.map(toReport) } : {}),
  };
}

const byCode: Record<string, new (message: string, details?: ErrorDetails) => ServiceError> = {
  BadRequest,
  NotFound,
  Unauthorized,
  Forbidden,
  MethodNotAllowed,
  Conflict,
  LengthRequired,
  PayloadTooLarge,
  UnsupportedMediaType,
  UnprocessableEntity,
  InsufficientStorage,
  InternalError,
  Cancelled,
  ServiceUnavailable,
};

/** Rebuild a ServiceError from its report (e.g. after it crossed a worker boundary). */
export function fromReport(r: ErrorReport): ServiceError {
  const Ctor = byCode[r.code] ?? InternalError;
  return new Ctor(r.message, {
    ...(r.line !== undefined ? { line: r.line } : {}),
    ...(r.column !== undefined ? { column: r.column } : {}),
    ...(r.field !== undefined ? { field: r.field } : {}),
    ...(r.causes ? { causes: r.causes.map(fromReport) } : {}),
  });
}

/** A SPARQL query ran past the time limit and was stopped (the replica worker was restarted). */
export class QueryTimeout extends ServiceError {
  readonly status = 503;
  readonly code = "QueryTimeout";
}
/** A task ran past its time budget (TASK_TIME_LIMIT_S) and was stopped; nothing of it was stored. */
export class TaskTimeLimit extends ServiceError {
  readonly status = 503;
  readonly code = "TaskTimeLimit";
}
// Registered here rather than in the literal above: a class is not usable before its declaration.
byCode.QueryTimeout = QueryTimeout;
byCode.TaskTimeLimit = TaskTimeLimit;

/** What went wrong writing to a disk, in words, and what makes it work again. */
function diskProblem(code: string | undefined, dir: string, path: string): { why: string; until: string } {
  switch (code) {
    case "ENOSPC":
      return { why: `the disk holding ${dir} is full (ENOSPC)`, until: "there is free space on it" };
    case "EDQUOT":
      return { why: `the disk quota of the service's user on the disk holding ${dir} is used up (EDQUOT)`, until: "the quota is raised or space is freed" };
    case "EROFS":
      return { why: `the disk holding ${dir} is read-only (EROFS)`, until: "it is writable again (mounted read-write)" };
    case "EFBIG":
      return { why: `${path} has reached the largest file size the service may write (EFBIG: its file-size limit, ulimit -f, or the file system's maximum)`, until: "the limit is raised" };
    case "EIO":
      return { why: `the disk holding ${dir} reported an input/output error (EIO)`, until: "the disk works again (check it)" };
    case "EACCES":
    case "EPERM":
      return { why: `the service may not write ${path} (${code})`, until: `it may (check the owner and permissions of ${dir})` };
    default:
      return { why: `writing ${path} failed (${code ?? "unknown error"})`, until: "the cause is removed" };
  }
}

/**
 * The 507 answer for a write to disk that failed (the store's journal and snapshots, graph-store.ts;
 * any other file through `toServiceError`): what could not be written, where, why (a full or
 * read-only disk, a quota, a file-size limit, an I/O error) and that the service writes again
 * by itself once the cause is gone. `what` names the change ("the change to <graph>").
 */
export function storageFailure(err: unknown, what: string | undefined, path: string, dir: string): InsufficientStorage {
  if (err instanceof InsufficientStorage) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const { why, until } = diskProblem(code, dir, path);
  return new InsufficientStorage(`could not write ${what ? `${what} to ` : ""}${path}: ${why}. Nothing of it was stored; the service goes on serving what it has and writes again as soon as ${until}, without a restart`, {
    extra: { path, ...(code ? { errno: code } : {}) },
  });
}
