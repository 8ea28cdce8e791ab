/**
 * The set-up and tear-down every integration test shares: the real server (`startServer`: a
 * child process on 127.0.0.1 with a fresh data directory), optionally with datasets uploaded,
 * stopped and its data directory removed at the end — however the tests went.
 *
 *   describe("…", () => {
 *     const srv = useServer({ env: { MAX_QUADS: "30000" }, upload: { hamster: HAMSTER } });
 *     test("…", async () => {
 *       await get(`${srv.base}/dataset`);   // the current process's base URL
 *       srv.datasets.hamster;               // the uploaded dataset's URI
 *       await srv.restart();                // same data directory and port
 *     });
 *   });
 *
 * `useServer` registers `before`/`after` hooks (or `beforeEach`/`afterEach` with `each`) in the
 * describe block it is called in (at the top level: for the file); `withServer` is the same for
 * one piece of a test. The handle always refers to the current process, so `srv.base` stays
 * right across restarts.
 */
import { after, afterEach, before, beforeEach } from "node:test";
import type { ChildProcess } from "node:child_process";
import { smallDisk, type SmallDisk } from "./disk.ts";
import { freshDir, removeDir, startServer, uploadCsv, uploadDataset, type TestServer } from "./server.ts";

/** A file to upload: its path, or a CSV text and the file name to send it under. */
export type UploadSource = string | { readonly text: string; readonly name: string };

export interface ServerOptions<K extends string = never> {
  /** Environment for the server process over the defaults (limits, tokens, time limits, …). */
  readonly env?: Record<string, string>;
  /** Uploaded in this order once the server listens, each waited for (it must complete); the URIs are `datasets[name]`. */
  readonly upload?: Record<K, UploadSource>;
  /** After the uploads, restart on the same data directory and port with this environment in place of `env`: data prepared under one configuration, then served under another. */
  readonly restart?: { readonly env: Record<string, string> };
  /** Put the data directory on a real tmpfs of this many bytes (test/helpers/disk.ts), to fill or remount read-only: `disk`. */
  readonly disk?: number;
  /** More directories to remove at the end (a tokens file's, a TMPDIR given in `env`; with `each`, after every test). */
  readonly remove?: readonly string[];
  /** End the server with SIGKILL rather than SIGTERM (one that may be stuck in work the test abandoned). */
  readonly kill?: boolean;
  /** A fresh server for every test of the block (`beforeEach`/`afterEach`) rather than one for all. */
  readonly each?: boolean;
  /** The service's entry file (server.ts `StartOptions.main`; default src/main.ts through tsx): e.g. a compiled `main.js`. */
  readonly main?: string;
}

export interface ServerHandle<K extends string = never> {
  /** The base URL (`http://127.0.0.1:<port>`; the same across restarts). */
  readonly base: string;
  readonly dataDir: string;
  /** The current process. */
  readonly proc: ChildProcess;
  /** Everything the current process wrote to stdout and stderr. */
  output(): string;
  /** The dataset URIs of `upload`, by name. */
  readonly datasets: Readonly<Record<K, string>>;
  /** The small disk of the `disk` option. */
  readonly disk: SmallDisk;
  /** Graceful stop (SIGTERM) and wait. */
  stop(): Promise<void>;
  /** SIGKILL and wait: a crash. */
  kill(): Promise<void>;
  /** Stop the process (if it still runs) and start a new one on the same data directory and port; `env` replaces the environment of the last start. */
  restart(o?: { readonly env?: Record<string, string> }): Promise<void>;
}

/** One server's life: `open` starts it (and uploads), `close` ends it and removes what it made. */
class Session<K extends string> implements ServerHandle<K> {
  #server: TestServer | undefined;
  #env: Record<string, string> = {};
  #dataDir: string | undefined;
  #disk: SmallDisk | undefined;
  readonly #datasets = {} as Record<K, string>;

  constructor(private readonly o: ServerOptions<K>) {}

  get #current(): TestServer {
    if (!this.#server) throw new Error("the test server is not running (use its handle inside tests and hooks only)");
    return this.#server;
  }
  get base(): string {
    return this.#current.base;
  }
  get dataDir(): string {
    return this.#current.dataDir;
  }
  get proc(): ChildProcess {
    return this.#current.proc;
  }
  output(): string {
    return this.#current.output();
  }
  get datasets(): Readonly<Record<K, string>> {
    return this.#datasets;
  }
  get disk(): SmallDisk {
    if (!this.#disk) throw new Error("no disk: give the option `disk`");
    return this.#disk;
  }
  stop(): Promise<void> {
    return this.#current.stop();
  }
  kill(): Promise<void> {
    return this.#current.kill();
  }

  async restart(o: { readonly env?: Record<string, string> } = {}): Promise<void> {
    const old = this.#current;
    await old.stop();
    if (o.env) this.#env = o.env;
    this.#server = await startServer({ dataDir: old.dataDir, port: Number(new URL(old.base).port), env: this.#env, main: this.o.main });
  }

  async open(): Promise<void> {
    this.#env = this.o.env ?? {};
    for (const name of Object.keys(this.#datasets)) delete this.#datasets[name as K];
    if (this.o.disk !== undefined) this.#disk = await smallDisk(this.o.disk);
    // Known before the start, so that `close` removes it even if the server fails to start.
    this.#dataDir = this.#disk ? `${this.#disk.dir}/data` : freshDir();
    this.#server = await startServer({ dataDir: this.#dataDir, env: this.#env, main: this.o.main });
    for (const [name, source] of Object.entries(this.o.upload ?? {}) as [K, UploadSource][]) {
      this.#datasets[name] = typeof source === "string" ? await uploadDataset(this.base, source) : await uploadCsv(this.base, source.text, source.name);
    }
    if (this.o.restart) await this.restart(this.o.restart);
  }

  /** Every step is tried; the first failure is thrown at the end. */
  async close(): Promise<void> {
    const server = this.#server;
    const dataDir = this.#dataDir;
    const disk = this.#disk;
    this.#server = this.#dataDir = this.#disk = undefined;
    const steps: (() => unknown)[] = [
      () => server && (this.o.kill ? server.kill() : server.stop()),
      // A data directory on the small disk goes with it (it may be read-only now).
      () => dataDir && !disk && removeDir(dataDir),
      ...(this.o.remove ?? []).map((dir) => () => removeDir(dir)),
      () => disk?.close(),
    ];
    const errors: unknown[] = [];
    for (const step of steps) {
      try {
        await step();
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) throw errors[0];
  }
}

/**
 * Registers hooks that start the server before the tests of the enclosing describe block (or
 * file) and end it after them; returns the handle. Options: see `ServerOptions`.
 */
export function useServer<K extends string = never>(o: ServerOptions<K> = {}): ServerHandle<K> {
  const session = new Session(o);
  if (o.each) {
    beforeEach(() => session.open());
    afterEach(() => session.close());
  } else {
    before(() => session.open());
    after(() => session.close());
  }
  return session;
}

/** A server for the duration of `fn` (inside one test), ended and removed however `fn` ends. */
export async function withServer<T, K extends string = never>(o: Omit<ServerOptions<K>, "each">, fn: (srv: ServerHandle<K>) => Promise<T>): Promise<T> {
  const session = new Session(o);
  try {
    await session.open();
    return await fn(session);
  } finally {
    await session.close();
  }
}
