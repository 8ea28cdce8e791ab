/**
 * The command-line client's outcomes (README "Command-line client"): each failure is an error
 * class with its exit code, so that a shell script can tell them apart.
 *
 *   0  done
 *   1  the task ended in error (or was cancelled): its error report is printed
 *   2  usage error: an unknown command or option, a missing argument, a file that cannot be read
 *   3  the service answered with an HTTP error: its status and message are printed
 *   4  the service cannot be reached (refused, unknown host, reset connection)
 *   130  interrupted (Ctrl-C); a task that was being followed goes on and is named
 */
export const EXIT = { ok: 0, taskFailed: 1, usage: 2, http: 3, unreachable: 4, interrupted: 130 } as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad command line (exit 2); the command's usage line is printed with it. */
export class UsageError extends CliError {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message, EXIT.usage);
  }
}

/** The service answered with an error status (exit 3). */
export class HttpError extends CliError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message, EXIT.http);
  }
}

/** A task the client followed ended in Error or was cancelled (exit 1). */
export class TaskFailed extends CliError {
  constructor(
    message: string,
    readonly task: string,
  ) {
    super(message, EXIT.taskFailed);
  }
}

/** No answer: connection refused, unknown host, connection reset (exit 4). */
export class Unreachable extends CliError {
  constructor(message: string) {
    super(message, EXIT.unreachable);
  }
}

/** Ctrl-C (exit 130). */
export class Interrupted extends CliError {
  constructor(message: string) {
    super(message, EXIT.interrupted);
  }
}
