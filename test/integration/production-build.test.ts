/**
 * The production build (`npm run build`: tsconfig.build.json, src/ → dist/) and the compiled
 * service under plain node: issue 15's "`node dist/main.js` starts the service".
 *
 * `npm run build` compiles into a temporary directory (`--outDir`), laid out as the Docker image
 * is: `dist/` beside `ontology/` and `package.json` (the compiled modules find both by relative
 * URLs), and a `node_modules` of the production dependencies only (the lock's packages not
 * marked `dev`, linked from the checkout's), so tsx, esbuild and TypeScript cannot even be
 * resolved there. The server is started as `node <dir>/dist/main.js`; through HTTP an upload completes as a task
 * (the pool's worker threads), a SPARQL ASK answers (the read replica's workers) and a structure
 * is read and drawn (the chemistry pool): every kind of worker starts from compiled JavaScript.
 *
 * Expected values: the version is package.json's, read here; hamster_carcinogenicity.csv has 85
 * distinct compounds (fixtures/data/SOURCES.md); ethanol's standard InChI
 * InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3 is the published one (PubChem CID 702).
 *
 * The Docker image (Dockerfile) is built and started when a working `docker` is on PATH
 * (`docker info` succeeds); otherwise that test is skipped, saying why.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it, before } from "node:test";
import { promisify } from "node:util";
import { freePort, freshDir, get, HAMSTER, postCompound, ROOT, uploadDataset, uriList } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { QG_NS } from "../../src/store/vocab.ts";

const run = promisify(execFile);
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/** Compile src/ into `<dir>/dist` with `npm run build` (its output directory moved there) and lay out the rest of a production install beside it. */
async function buildInto(dir: string): Promise<void> {
  await run("npm", ["run", "build", "--", "--outDir", join(dir, "dist")], { cwd: ROOT });
  cpSync(join(ROOT, "ontology"), join(dir, "ontology"), { recursive: true });
  copyFileSync(join(ROOT, "package.json"), join(dir, "package.json"));
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { dev?: boolean }> };
  for (const [path, pkg] of Object.entries(lock.packages)) {
    // Top-level packages only (a nested one lives inside its parent's folder), production ones only.
    if (!path.startsWith("node_modules/") || path.includes("/node_modules/", 1) || pkg.dev) continue;
    const from = join(ROOT, path);
    if (!existsSync(from)) continue; // an optional package of another platform
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    symlinkSync(from, join(dir, path));
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe("production build: the compiled service under plain node", () => {
  const dir = freshDir("qsargraph-build-");
  const main = join(dir, "dist", "main.js");
  before(() => buildInto(dir), { timeout: 300_000 });
  const srv = useServer({ main, remove: [dir] });

  it("compiles src/ into dist/ with the same layout, JavaScript only, and the process is `node <dir>/dist/main.js` with production dependencies only", () => {
    const files = filesUnder(join(dir, "dist"));
    const sources = filesUnder(join(ROOT, "src")).filter((f) => f.endsWith(".ts"));
    assert.ok(files.length > 0 && files.every((f) => f.endsWith(".js")), `only .js files: ${files.filter((f) => !f.endsWith(".js")).join(", ")}`);
    assert.deepEqual(
      files.map((f) => f.slice(join(dir, "dist").length)).sort(),
      sources.map((f) => f.slice(join(ROOT, "src").length).replace(/\.ts$/, ".js")).sort(),
      "one .js module for every .ts source, at the same path",
    );
    const cmdline = readFileSync(`/proc/${srv.proc.pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    assert.deepEqual(cmdline, [process.execPath, main], "no --import tsx, no other flag");
    assert.ok(existsSync(join(dir, "node_modules", "koa")), "a production dependency is there");
    for (const dev of ["tsx", "esbuild", "typescript"]) assert.ok(!existsSync(join(dir, "node_modules", dev)), `${dev} is not installed beside the build`);
  });

  it("GET / answers with the service description (its version from ../package.json) and /ontology with ontology/qsargraph.ttl", async () => {
    const r = await get(`${srv.base}/`, "application/n-triples");
    const nt = await r.text();
    assert.equal(r.status, 200, nt);
    assert.ok(nt.includes(`<${QG_NS}version> "${VERSION}"`), nt);
    const o = await get(`${srv.base}/ontology`, "application/n-triples");
    const ont = await o.text();
    assert.equal(o.status, 200, ont);
    assert.ok(ont.includes(`<${QG_NS}storeCapacity>`), "the vocabulary read from the ontology file");
  });

  it("a CSV upload completes as a task (pool workers), a SPARQL ASK answers (replica workers), a structure is read and drawn (chemistry worker)", { timeout: 180_000 }, async () => {
    const dataset = await uploadDataset(srv.base, HAMSTER);
    assert.equal((await uriList(dataset)).length, 85, "hamster_carcinogenicity.csv's 85 compounds");

    const ask = async (query: string): Promise<boolean> => {
      const r = await fetch(`${srv.base}/sparql?query=${encodeURIComponent(query)}`, { headers: { Accept: "application/sparql-results+json" } });
      assert.equal(r.status, 200);
      return ((await r.json()) as { boolean: boolean }).boolean;
    };
    assert.equal(await ask(`ASK { <${dataset}> a <http://www.opentox.org/api/1.1#Dataset> }`), true);
    assert.equal(await ask(`ASK { <${dataset}-not-there> a <http://www.opentox.org/api/1.1#Dataset> }`), false);

    const c = await postCompound(srv.base, "CCO");
    const compound = (await c.text()).trim();
    assert.equal(c.status, 200, compound);
    assert.ok(compound.endsWith("/compound/InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3"), compound);
    const svg = await get(compound, "image/svg+xml");
    const body = await svg.text();
    assert.equal(svg.status, 200, body);
    assert.match(svg.headers.get("content-type") ?? "", /^image\/svg\+xml/);
    assert.ok(body.includes("<svg"), body.slice(0, 200));
  });
});

/** Runs a docker command; its stdout. */
async function docker(args: string[], timeoutMs: number): Promise<string> {
  const { stdout } = await run("docker", args, { timeout: timeoutMs, killSignal: "SIGKILL", maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim();
}

/** Why docker cannot be used here, or undefined when `docker info` succeeds. */
async function dockerUnavailable(): Promise<string | undefined> {
  try {
    await docker(["info"], 30_000);
    return undefined;
  } catch (err) {
    const e = err as { code?: unknown; stderr?: string; message: string };
    if (e.code === "ENOENT") return "no docker on PATH";
    const lines = (e.stderr ?? e.message).trim().split("\n");
    return `\`docker info\` failed: ${lines[lines.length - 1]}`;
  }
}

describe("Docker image", () => {
  it("builds from the Dockerfile, starts, and GET / answers", { timeout: 25 * 60_000 }, async (t) => {
    const why = await dockerUnavailable();
    if (why) {
      t.skip(`docker not available: ${why}`);
      return;
    }
    const tag = `qsargraph-test:${process.pid}`;
    await docker(["build", "-t", tag, ROOT], 20 * 60_000);
    let container: string | undefined;
    try {
      const port = await freePort();
      // Published on loopback only, so --open (no tokens) is safe.
      container = await docker(["run", "-d", "-p", `127.0.0.1:${port}:8080`, tag, "--open"], 60_000);
      const t0 = Date.now();
      let answer: { status: number; body: string } | undefined;
      while (!answer && Date.now() - t0 < 60_000) {
        try {
          const r = await get(`http://127.0.0.1:${port}/`, "application/n-triples");
          answer = { status: r.status, body: await r.text() };
        } catch {
          await new Promise((res) => setTimeout(res, 500));
        }
      }
      assert.ok(answer, `the container did not answer in 60 s:\n${await docker(["logs", container], 30_000).catch(() => "")}`);
      assert.equal(answer.status, 200, answer.body);
      assert.ok(answer.body.includes(`/ontology#version> "${VERSION}"`), answer.body);
    } finally {
      if (container) await docker(["rm", "-f", container], 60_000).catch(() => undefined);
      await docker(["rmi", "-f", tag], 60_000).catch(() => undefined);
    }
  });
});
