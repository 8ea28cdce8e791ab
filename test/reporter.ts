/**
 * What test/run.ts adds to node's reporter: the wall time of each test file, as a diagnostic when
 * it ends, and the slowest files just before node's summary (the totals over all files, which
 * stays last). A diagnostic prints as "# …" in TAP and "ℹ …" in spec.
 *
 * The files run one after another (concurrency 1), so a file's wall time is from the first event
 * of its run (node takes it from the queue) to the first of the next file's, or to the summary:
 * start-up, hooks (servers started and stopped) and the process's exit included.
 */
import { relative, resolve } from "node:path";

const SLOWEST = 10;

export interface TestEvent {
  readonly type: string;
  readonly data?: { readonly file?: string; readonly nesting?: number; readonly message?: string } & Record<string, unknown>;
}

/** A diagnostic at the top level, as node's reporters print it ("# …" in TAP, "ℹ …" in spec). */
const note = (message: string): TestEvent => ({ type: "test:diagnostic", data: { nesting: 0, message } });

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** The events, with the files' times put in. */
export async function* withFileTimes(source: AsyncIterable<TestEvent>): AsyncGenerator<TestEvent> {
  const times: { file: string; ms: number }[] = [];
  let current: { file: string; start: number } | undefined;
  let summarised = false;
  const finish = (now: number): TestEvent | undefined => {
    if (!current) return undefined;
    const file = current.file;
    const ms = now - current.start;
    times.push({ file, ms });
    current = undefined;
    return note(`${file}: ${seconds(ms)}`);
  };
  for await (const event of source) {
    const now = performance.now();
    // Some events name the file as given, others by its absolute path.
    const file = event.data?.file === undefined ? undefined : relative(process.cwd(), resolve(event.data.file));
    // Queued is not started: node queues the next file while one runs.
    if (file && event.type !== "test:enqueue" && file !== current?.file) {
      const done = finish(now);
      if (done) yield done;
      current = { file, start: now };
    }
    // The run's own plan and summary (no file): every file has ended.
    if (!file && event.data?.nesting === 0 && !summarised && (event.type === "test:plan" || (event.type === "test:diagnostic" && /^tests \d+$/.test(event.data.message ?? "")))) {
      summarised = true;
      const done = finish(now);
      if (done) yield done;
      if (times.length > 1) {
        const slowest = [...times].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST);
        yield note(`slowest files (of ${times.length}, ${seconds(times.reduce((sum, t) => sum + t.ms, 0))} in all):`);
        for (const t of slowest) yield note(`  ${seconds(t.ms).padStart(8)}  ${t.file}`);
      }
    }
    yield event;
  }
}
