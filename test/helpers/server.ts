/**
 * Integration-test helper: starts the real server (`src/main.ts`) as a child process on
 * 127.0.0.1 with a fresh data directory, and small HTTP helpers to talk to it. A child process,
 * not an in-process app, so that tests can SIGKILL it and restart it on the same data.
 * The service's entry is `src/main.ts`, run through tsx, unless a start names another
 * (`StartOptions.main`) or the environment does (QSARGRAPH_TEST_MAIN, e.g. `dist/main.js` after
 * `npm run build`: the tests or the benches against the compiled service, run by plain node).
 * `npm test` and `npm run test:sparql` compile the service first and run it so (package.json): a
 * start through tsx took about 1 s more to listen and 1 s more to its first upload (2026-11-28,
 * 2-core machine), over the few hundred servers of a run.
 *
 * QSARGRAPH_TEST_STORE=sparql (`npm run test:sparql`) starts every server with `--store sparql` on
 * a Virtuoso (test/helpers/virtuoso.ts) instead of the embedded store: one Virtuoso per test file
 * (process), started with the first server and shared by the file's servers. Servers of one file
 * do not see each other's graphs: each has its own port, so its own base URL, so its own graph
 * IRIs and catalog (`<base>/.store/catalog`), and its SPARQL endpoint shows only the graphs of its
 * catalog. A restart on the same data directory (same port) finds the same Virtuoso, hence its
 * data; a fresh data directory on a base URL the shared Virtuoso has already served gets a
 * Virtuoso of its own (nothing of the other's is found). Why shared: one Virtuoso start costs
 * 2–8 s here (docs/virtuoso.md); a file starts up to a dozen servers.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isTypeScript } from "../../src/threads/spawn.ts";

export { DATA, EPAFHM, HAMSTER, KAZIUS, MULTI } from "./data.ts";
import { HAMSTER } from "./data.ts";
import { QG_NS } from "../../src/store/vocab.ts";
import { MANY_FOREIGN_GRAPHS } from "../../src/store/sparql-proxy.ts";
export const ROOT = new URL("../../", import.meta.url).pathname;

export function freshDir(prefix = "qsargraph-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * Test ports are drawn from 20,000–32,767, below Linux's default range of ephemeral ports
 * (32,768–60,999, /proc/sys/net/ipv4/ip_local_port_range), from which the kernel also takes the
 * local ports of outgoing connections: .ci/run runs two test runs at once, and a port the kernel
 * handed out (port 0) was taken by another connection before the server bound it (EADDRINUSE).
 */
const PORT_LOW = 20_000;
const PORT_HIGH = 32_767;

/** Whether 127.0.0.1:`port` can be bound now. */
function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

/** A port that was free a moment ago (PORT_LOW–PORT_HIGH, at random). */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    const port = PORT_LOW + Math.floor(Math.random() * (PORT_HIGH - PORT_LOW + 1));
    if (await canBind(port)) return port;
  }
  throw new Error(`no free port found in ${PORT_LOW}–${PORT_HIGH} after 100 tries`);
}

export interface TestServer {
  readonly base: string;
  readonly dataDir: string;
  readonly proc: ChildProcess;
  readonly output: () => string;
  /** Graceful stop (SIGTERM) and wait. */
  stop(): Promise<void>;
  /** SIGKILL and wait: a crash. */
  kill(): Promise<void>;
}

export interface StartOptions {
  readonly dataDir?: string;
  readonly port?: number;
  readonly env?: Record<string, string>;
  /** The service's entry file (absolute, or relative to the checkout): a `.ts` file runs through tsx, a compiled `.js` one under plain node. Default: QSARGRAPH_TEST_MAIN, else src/main.ts. */
  readonly main?: string;
}

/** The service's entry file of the test processes: QSARGRAPH_TEST_MAIN, else src/main.ts. */
export const SERVICE_MAIN = process.env.QSARGRAPH_TEST_MAIN ?? "src/main.ts";

/** node's arguments that start the service from `main`. */
export function serviceArgs(main: string = SERVICE_MAIN): string[] {
  return isTypeScript(main) ? ["--import", "tsx", main] : [main];
}

/**
 * Extra node flags for the server process, from QSARGRAPH_SERVER_NODE_ARGS (space-separated), for
 * looking into a bench run, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` (node refuses --cpu-prof
 * in NODE_OPTIONS).
 */
function nodeArgs(): string[] {
  return (process.env.QSARGRAPH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
}

/** The test store (QSARGRAPH_TEST_STORE): `embedded` (default) or `sparql` (a Virtuoso per test file). */
export const TEST_STORE: "embedded" | "sparql" = process.env.QSARGRAPH_TEST_STORE === "sparql" ? "sparql" : "embedded";

type VirtuosoHandle = Awaited<ReturnType<typeof import("./virtuoso.ts").startVirtuoso>>;
let sharedVirtuoso: Promise<VirtuosoHandle> | undefined;
/** Per Virtuoso: the data directory that owns each base URL served on it. */
const owners = new Map<Promise<VirtuosoHandle>, Map<string, string>>();
/** The Virtuoso each data directory's servers use. */
const virtuosoOf = new Map<string, Promise<VirtuosoHandle>>();

async function newVirtuoso(): Promise<VirtuosoHandle> {
  const { startVirtuoso } = await import("./virtuoso.ts");
  const v = await startVirtuoso();
  // The test file's process ends when its tests do; its exit ends the Virtuoso.
  v.detach();
  return v;
}

/**
 * The graphs the services of this file wrote on the Virtuoso: their catalogs' entries, counted by
 * the catalog graphs of the base URLs served there (a count with the graph and predicate bound:
 * a `DISTINCT ?g` over the whole store passes Virtuoso's time limit there after a large upload).
 */
async function graphsOf(h: VirtuosoHandle, bases: Iterable<string>): Promise<number> {
  let n = 0;
  for (const base of bases) {
    const q = `SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${base}/.store/catalog> { ?g <${QG_NS}state> ?x } }`;
    const r = await fetch(h.sparql, { method: "POST", body: new URLSearchParams({ query: q }), headers: { Accept: "application/sparql-results+json" } });
    if (!r.ok) throw new Error(`the test Virtuoso's catalog of ${base} could not be counted (${r.status}): ${await r.text()}`);
    n += Number(((await r.json()) as { results: { bindings: { n?: { value: string } }[] } }).results.bindings[0]?.n?.value ?? 0);
  }
  return n;
}

/**
 * The environment that puts a server on the test Virtuoso (see the module comment): the same
 * Virtuoso for a data directory's restarts, the shared one unless its base URL was already
 * served there by another data directory.
 */
async function sparqlStoreEnv(dataDir: string, base: string): Promise<Record<string, string>> {
  let v = virtuosoOf.get(dataDir);
  if (!v) {
    sharedVirtuoso ??= newVirtuoso();
    // A new service on the shared Virtuoso sees the graphs the file's other services wrote as
    // foreign graphs, which its /sparql excludes one by one on every query: past
    // MANY_FOREIGN_GRAPHS (the README's limit for a store that is not the service's own; Virtuoso
    // refuses a query excluding a few thousand, SP030 "Too many arguments") it gets a fresh
    // Virtuoso, shared from then on.
    const current = sharedVirtuoso;
    if ((await graphsOf(await current, owners.get(current)?.keys() ?? [])) >= MANY_FOREIGN_GRAPHS && sharedVirtuoso === current) sharedVirtuoso = newVirtuoso();
    const sharedOwners = owners.get(sharedVirtuoso) ?? new Map<string, string>();
    owners.set(sharedVirtuoso, sharedOwners);
    const owner = sharedOwners.get(base);
    v = owner === undefined || owner === dataDir ? sharedVirtuoso : newVirtuoso();
    virtuosoOf.set(dataDir, v);
  }
  const byBase = owners.get(v) ?? new Map<string, string>();
  owners.set(v, byBase);
  if (!byBase.has(base)) byBase.set(base, dataDir);
  const h = await v;
  return { STORE: "sparql", SPARQL_QUERY_URL: h.sparql, SPARQL_UPDATE_URL: h.update, SPARQL_GSP_URL: h.gsp, SPARQL_GSP_PARAM: "graph-uri" };
}

/**
 * How long a server is given to listen: 60 s; 180 s on the SPARQL store, where a restart reads the
 * catalog (3 rows per graph) and the store's graph list (the proxy's foreign graphs) from
 * Virtuoso. Measured (2026-11-28, load average 15–25): a restart after an upload of the whole HIV set
 * (41,119 compound graphs) did not listen within 60 s, nor within 180 s (docs/virtuoso.md "Upload
 * speed on the SPARQL store": the proxy's list of foreign graphs is a `SELECT DISTINCT ?g` over the
 * whole store, which Virtuoso did not finish there).
 */
export const START_WAIT_MS = TEST_STORE === "sparql" ? 180_000 : 60_000;

/** Starts of a server on a port of its own choosing that found the port taken meanwhile, before it gives up. */
const PORT_TRIES = 4;

export async function startServer(o: StartOptions = {}): Promise<TestServer> {
  for (let attempt = 1; ; attempt++) {
    const dataDir = o.dataDir ?? freshDir();
    try {
      return await startServerOnce({ ...o, dataDir });
    } catch (err) {
      // The port chosen here was taken between the check and the server's own bind (another
      // process's choice): again on another, with a fresh data directory when this one was made
      // here. A port the caller gave is not changed.
      if (o.port !== undefined || attempt >= PORT_TRIES || !(err instanceof PortTaken)) throw err;
      if (o.dataDir === undefined) removeDir(dataDir);
    }
  }
}

class PortTaken extends Error {}

async function startServerOnce(o: StartOptions & { readonly dataDir: string }): Promise<TestServer> {
  const { dataDir } = o;
  const port = o.port ?? (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const storeEnv = TEST_STORE === "sparql" && o.env?.STORE === undefined ? await sparqlStoreEnv(dataDir, o.env?.BASE_URL ?? base) : {};
  const proc = spawn(process.execPath, [...nodeArgs(), ...serviceArgs(o.main)], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", BASE_URL: base, DATA_DIR: dataDir, WORKERS: "2", ...storeEnv, ...o.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => proc.on("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    // A server that does not listen in time is ended: its pipes would keep the test file running.
    const timer = setTimeout(() => {
      reject(new Error(`server did not start in ${START_WAIT_MS / 1000} s:\n${out}`));
      proc.kill("SIGKILL");
    }, START_WAIT_MS);
    const check = (): void => {
      if (out.includes("listening on")) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout!.on("data", check);
    proc.on("exit", (code) => {
      clearTimeout(timer);
      const message = `server exited with ${code} before listening:\n${out}`;
      reject(out.includes(`EADDRINUSE: address already in use 127.0.0.1:${port}`) ? new PortTaken(message) : new Error(message));
    });
  });
  return {
    base,
    dataDir,
    proc,
    output: () => out,
    async stop(): Promise<void> {
      if (proc.exitCode === null) proc.kill("SIGTERM");
      await exited;
    },
    async kill(): Promise<void> {
      if (proc.exitCode === null) proc.kill("SIGKILL");
      await exited;
    },
  };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export async function get(url: string, accept = "text/turtle", init: RequestInit = {}): Promise<Response> {
  return fetch(url, { ...init, headers: { Accept: accept, ...(init.headers as Record<string, string> | undefined) } });
}

/** POST a file as multipart field `file` (or another field name). */
export async function uploadFile(base: string, bytes: Uint8Array | string, fileName: string, field = "file", accept = "text/uri-list"): Promise<Response> {
  const form = new FormData();
  form.append(field, new Blob([typeof bytes === "string" ? bytes : new Uint8Array(bytes)]), fileName);
  return fetch(`${base}/dataset`, { method: "POST", body: form, headers: { Accept: accept } });
}

/**
 * How long an upload's task is waited for (`datasetOf`, `uploadDataset`): 120 s; 600 s on the
 * SPARQL store, where an upload's commit writes every new compound's graph and catalog entry to
 * Virtuoso. Measured (2026-11-28, this shared 2-core machine at load average 15–25): MoleculeNet
 * HIV's 41,913 rows (budgets.test.ts then uploaded them all) took 262 s and 389 s on the SPARQL store, of which the
 * commit of 41,119 compound graphs was 97 s and 192 s (marking them in the catalog 12–25 s, their
 * ≈ 170 INSERT DATA 62–138 s, publishing 20–26 s), the rest (parsing the structures, 140–172 s)
 * as on the embedded store. docs/virtuoso.md "Upload speed on the SPARQL store".
 */
export const UPLOAD_WAIT_MS = TEST_STORE === "sparql" ? 600_000 : 120_000;

/** Poll a task with Accept: text/uri-list until the body differs from the task URI (`headers`: e.g. an Authorization for private reads). */
export async function waitForTask(taskUri: string, timeoutMs = 120_000, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const t0 = Date.now();
  for (;;) {
    const r = await fetch(taskUri, { headers: { Accept: "text/uri-list", ...headers } });
    const body = (await r.text()).trim();
    if (body !== taskUri) return { status: r.status, body };
    if (Date.now() - t0 > timeoutMs) throw new Error(`task ${taskUri} did not finish in ${timeoutMs} ms`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** The dataset of an upload's answer (`r`: 202 with the task URI): waits for the task, which must complete. */
export async function datasetOf(r: Response, headers: Record<string, string> = {}): Promise<string> {
  const body = (await r.text()).trim();
  assert.equal(r.status, 202, body);
  const done = await waitForTask(body, UPLOAD_WAIT_MS, headers);
  assert.equal(done.status, 200, done.body);
  return done.body;
}

/** Upload a CSV text as the file `fileName` and wait: the dataset URI. */
export async function uploadCsv(base: string, csv: string, fileName: string): Promise<string> {
  return datasetOf(await uploadFile(base, csv, fileName));
}

/** Upload and wait: returns the dataset URI (throws with the error report if the task failed). */
export async function uploadDataset(base: string, path: string, fileName?: string): Promise<string> {
  const { readFileSync } = await import("node:fs");
  const r = await uploadFile(base, readFileSync(path), fileName ?? path.slice(path.lastIndexOf("/") + 1));
  if (r.status !== 202) throw new Error(`upload answered ${r.status}: ${await r.text()}`);
  const task = (await r.text()).trim();
  const done = await waitForTask(task, UPLOAD_WAIT_MS);
  if (done.status !== 200) {
    const report = await (await fetch(task, { headers: { Accept: "text/plain" } })).text();
    throw new Error(`upload task failed (${done.status}): ${report}`);
  }
  return done.body;
}

/** Sorted N-Triples lines of a resource (for comparing graphs). */
export async function sortedNTriples(uri: string): Promise<string[]> {
  const r = await get(uri, "application/n-triples");
  return (await r.text()).split("\n").filter(Boolean).sort();
}

/** Lines of a text/uri-list response (CRLF or LF), without blanks. */
export async function uriList(url: string): Promise<string[]> {
  const r = await get(url, "text/uri-list");
  const body = await r.text();
  assert.equal(r.status, 200, `GET ${url} answered ${r.status}: ${body}`);
  return body.split(/\r?\n/).filter(Boolean);
}

/** A SPARQL SELECT through /sparql (JSON results): the bindings. */
export async function sparqlSelect(base: string, query: string): Promise<Record<string, { value: string }>[]> {
  const r = await fetch(`${base}/sparql?query=${encodeURIComponent(query)}`, { headers: { Accept: "application/sparql-results+json" } });
  if (r.status !== 200) throw new Error(`SPARQL answered ${r.status}: ${await r.text()}`);
  const j = (await r.json()) as { results: { bindings: Record<string, { value: string }>[] } };
  return j.results.bindings;
}

/** Integer figures of the service description (`qg:<name>` of `<base>/`, e.g. triplesLoaded), by name; each must be there. */
export async function serviceFigures<N extends string>(base: string, ...names: N[]): Promise<Record<N, number>> {
  const nt = await (await get(`${base}/`, "application/n-triples")).text();
  const figures = {} as Record<N, number>;
  for (const name of names) {
    const m = new RegExp(`<${QG_NS}${name}> "(\\d+)"`).exec(nt);
    if (!m) throw new Error(`no ${name} on the service description:\n${nt}`);
    figures[name] = Number(m[1]);
  }
  return figures;
}

/** One integer figure of the service description (`qg:<name>`). */
export async function serviceFigure(base: string, name: string): Promise<number> {
  return (await serviceFigures(base, name))[name];
}

/** POST a structure to /compound (a SMILES unless `type` says otherwise); the answer. */
export async function postCompound(base: string, body: string, o: { type?: string; accept?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(`${base}/compound`, { method: "POST", body, headers: { "Content-Type": o.type ?? "chemical/x-daylight-smiles", Accept: o.accept ?? "text/uri-list", ...o.headers } });
}

/** POST a SMILES to /compound and return the compound's URI (200 known, 201 new; anything else fails the test). */
export async function compoundUri(base: string, smiles: string): Promise<string> {
  const r = await postCompound(base, smiles);
  assert.ok(r.status === 200 || r.status === 201, await r.clone().text());
  return (await r.text()).trim();
}

/** What a failed request must not change: the dataset list and the quads outside task graphs. */
export interface StoreSnapshot {
  readonly datasets: string;
  readonly quads: number;
}

export async function storeSnapshot(base: string): Promise<StoreSnapshot> {
  const datasets = await (await get(`${base}/dataset`, "text/uri-list")).text();
  const [row] = await sparqlSelect(base, `SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(!STRSTARTS(STR(?g), "${base}/task/")) }`);
  return { datasets, quads: Number(row?.n?.value) };
}

/** A task's `ot:hasStatus` and `ot:percentageCompleted`, read from its N-Triples. */
export async function taskState(taskUri: string): Promise<{ status: string; percentageCompleted: number }> {
  const nt = await (await get(taskUri, "application/n-triples")).text();
  const status = /<http:\/\/www\.opentox\.org\/api\/1\.1#hasStatus> "([^"]*)"/.exec(nt)?.[1];
  const pct = /<http:\/\/www\.opentox\.org\/api\/1\.1#percentageCompleted> "([^"]*)"/.exec(nt)?.[1];
  if (status === undefined || pct === undefined) throw new Error(`not a task: ${taskUri}\n${nt}`);
  return { status, percentageCompleted: Number(pct) };
}

/** Poll a task's state until `done` holds. */
export async function waitForTaskState(
  taskUri: string,
  done: (t: { status: string; percentageCompleted: number }) => boolean,
  timeoutMs = 60_000,
): Promise<{ status: string; percentageCompleted: number }> {
  const t0 = Date.now();
  for (;;) {
    const t = await taskState(taskUri);
    if (done(t)) return t;
    if (Date.now() - t0 > timeoutMs) throw new Error(`task ${taskUri} did not reach the state in ${timeoutMs} ms: ${JSON.stringify(t)}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** POST parameters as a form (as `curl -d` does). */
export async function postForm(url: string, params: Record<string, string>, accept = "text/uri-list"): Promise<Response> {
  return fetch(url, { method: "POST", body: new URLSearchParams(params), headers: { Accept: accept } });
}

/** POST a long operation: 202 with Location = the task; wait for it to complete; its result URI. */
export async function runTask(url: string, params: Record<string, string>, timeoutMs = 600_000): Promise<string> {
  const r = await postForm(url, params);
  assert.equal(r.status, 202, await r.clone().text());
  assert.equal(r.headers.get("location"), (await r.clone().text()).trim());
  const done = await waitForTask((await r.text()).trim(), timeoutMs);
  assert.equal(done.status, 200, done.body);
  return done.body;
}

/**
 * What every robustness test checks after a bad input: the service still serves normal requests
 * correctly (README "Limits": a refusal leaves nothing behind). GET / answers within `maxHomeMs`
 * (the home page reads nothing heavy: a slow answer means the event loop is held); a normal SMILES
 * is read as its published standard InChI (ethanol, PubChem CID 702); hamster_carcinogenicity.csv
 * uploads with its 85 distinct compounds (as it has in the reference data). `headers` adds e.g. an
 * Authorization.
 */
export async function assertServesNormally(base: string, o: { headers?: Record<string, string>; maxHomeMs?: number; upload?: boolean } = {}): Promise<void> {
  const headers = o.headers ?? {};
  const t0 = performance.now();
  const home = await fetch(`${base}/`, { headers: { Accept: "text/html", ...headers } });
  const homeMs = performance.now() - t0;
  assert.equal(home.status, 200, `GET / answered ${home.status}`);
  await home.arrayBuffer();
  assert.ok(homeMs < (o.maxHomeMs ?? 1000), `GET / took ${Math.round(homeMs)} ms`);
  const c = await postCompound(base, "CCO", { headers });
  assert.ok(c.status === 200 || c.status === 201, `POST /compound CCO answered ${c.status}: ${await c.clone().text()}`);
  assert.equal((await c.text()).trim(), `${base}/compound/InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3`);
  if (o.upload === false) return;
  const form = new FormData();
  const { readFileSync } = await import("node:fs");
  form.append("file", new Blob([readFileSync(HAMSTER)]), "hamster_carcinogenicity.csv");
  const r = await fetch(`${base}/dataset`, { method: "POST", body: form, headers: { Accept: "text/uri-list", ...headers } });
  assert.equal(r.status, 202, `upload answered ${r.status}: ${await r.clone().text()}`);
  const done = await waitForTask((await r.text()).trim(), 120_000, headers);
  assert.equal(done.status, 200, `hamster upload failed: ${done.body}`);
  const compounds = await fetch(done.body, { headers: { Accept: "text/uri-list", ...headers } });
  assert.equal((await compounds.text()).split(/\r?\n/).filter(Boolean).length, 85);
}

/** One server-sent event of a task's event stream (README "Tasks"). */
export interface TaskEvent {
  readonly event: string;
  readonly data: { status: string; percentageCompleted: number; resultURI: string | null };
}

/** The events of a task's `text/event-stream` body. */
export function parseTaskEvents(text: string): TaskEvent[] {
  return text
    .split(/\n\n+/)
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
      const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
      return { event, data: JSON.parse(data) as TaskEvent["data"] };
    });
}
