/**
 * The progress display on stderr while the client follows a task: on a terminal one line redrawn
 * in place (at most 10 times a second, cleared when the task ends); forced on (`--progress`)
 * where stderr is not a terminal, a line each time the status changes or the percentage passes a
 * multiple of 10, so that a log shows the course of the task. stdout never sees it.
 */

const BAR = 20;

/** `[########------------]  42.0 %  Running  upload hamster.csv`, cut to `columns - 1` characters. */
export function barLine(percent: number, status: string, label: string, columns = 80): string {
  const p = Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0;
  const filled = Math.round((p / 100) * BAR);
  const line = `[${"#".repeat(filled)}${"-".repeat(BAR - filled)}] ${p.toFixed(1).padStart(5)} %  ${status}${label ? `  ${label}` : ""}`;
  const max = Math.max(10, columns - 1);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export interface ProgressStream {
  write(s: string): unknown;
  readonly columns?: number;
}

export class Progress {
  #last = 0;
  #shown = "";
  #step = -1;
  #status = "";

  constructor(
    private readonly stream: ProgressStream,
    private readonly tty: boolean,
    private readonly label: string,
    private readonly now: () => number = Date.now,
  ) {}

  update(status: string, percent: number): void {
    if (this.tty) {
      const t = this.now();
      if (status === this.#status && t - this.#last < 100) return;
      this.#last = t;
      this.#status = status;
      const line = barLine(percent, status, this.label, this.stream.columns || 80);
      if (line === this.#shown) return;
      this.#shown = line;
      this.stream.write(`\r${line}\x1b[K`);
      return;
    }
    const step = Math.floor(Math.min(100, Math.max(0, percent)) / 10);
    if (status === this.#status && step === this.#step) return;
    this.#status = status;
    this.#step = step;
    this.stream.write(`${barLine(percent, status, this.label, 1000)}\n`);
  }

  /** The task ended (or the client stops following it): clear the terminal line. */
  finish(): void {
    if (this.tty && this.#shown !== "") this.stream.write("\r\x1b[K");
    this.#shown = "";
  }
}
