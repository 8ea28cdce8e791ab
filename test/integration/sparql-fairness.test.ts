/**
 * SPARQL fairness (README "SPARQL", its paragraph on limits and fairness): queries whose clients
 * gave up do not go on running, and a query does not wait behind others for longer than the time
 * limit.
 *
 * The server runs with the default two SPARQL workers. The expensive query is a four-way cross
 * join over every triple of the store (after the hamster upload ≈ 10^3 triples, so ≈ 10^12 join
 * rows). Oxigraph counted the 9.3·10^5 rows of a two-way join over 964 triples in 2.3 s on the
 * test machine (≈ 4·10^5 rows/s), so no worker finishes it within any time limit used here.
 *
 * 1. With SPARQL_TIMEOUT_MS=60000: three such queries from clients that abort after 200 ms, then
 *    a trivial ASK. It is answered (true: the uploaded dataset exists) before the time limit —
 *    which it could not be if the abandoned queries still held both workers — and the service
 *    description counts exactly two worker restarts (the two running queries were stopped; the
 *    third, still waiting, was dropped).
 * 2. Restarted on the same data with SPARQL_TIMEOUT_MS=2000: three such queries at once; two run
 *    and are stopped at the limit (503 QueryTimeout), the third cannot start within the limit
 *    (503 ServiceUnavailable); each 503 carries Retry-After (the limit, in seconds).
 * Each part ends with `assertServesNormally`.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertServesNormally, get, HAMSTER, serviceFigure } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";

const OT = "http://www.opentox.org/api/1.1#";
const CROSS_JOIN = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }";
const JSON_T = "application/sparql-results+json";

function sparqlUrl(base: string, query: string): string {
  return `${base}/sparql?query=${encodeURIComponent(query)}`;
}

describe("SPARQL fairness", () => {
  // Ended with SIGKILL: a cross join the test gave up on may still be running.
  const srv = useServer({ env: { SPARQL_TIMEOUT_MS: "60000" }, upload: { hamster: HAMSTER }, kill: true });

  test("queries whose clients disconnected are stopped: a trivial ASK is answered before the time limit", async () => {
    const base = srv!.base;
    assert.equal(await serviceFigure(base, "sparqlWorkers"), 2);
    assert.equal(await serviceFigure(base, "sparqlTimeLimitMs"), 60_000);
    const [triples] = await (async () => {
      const r = await fetch(sparqlUrl(base, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"), { headers: { Accept: JSON_T } });
      const j = (await r.json()) as { results: { bindings: { n: { value: string } }[] } };
      return j.results.bindings.map((b) => Number(b.n.value));
    })();
    // Even at 10^7 rows/s (25 times the measured rate) this is more than 1000 s.
    assert.ok(triples! ** 4 > 1e10, `${triples} triples: the cross join must be far beyond any time limit`);
    const restarts = await serviceFigure(base, "sparqlWorkerRestarts");

    const t0 = performance.now();
    const abandoned = await Promise.all(
      [0, 1, 2].map(async () => {
        const ac = new AbortController();
        const timer = setTimeout(() => ac.abort(), 200);
        try {
          const r = await fetch(sparqlUrl(base, CROSS_JOIN), { headers: { Accept: JSON_T }, signal: ac.signal });
          return `answered ${r.status}: ${await r.text()}`;
        } catch (e) {
          return (e as Error).name;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    assert.deepEqual(abandoned, ["AbortError", "AbortError", "AbortError"], "the clients gave up before any answer");

    const ask = await fetch(sparqlUrl(base, `ASK { GRAPH <${srv.datasets.hamster}> { <${srv.datasets.hamster}> a <${OT}Dataset> } }`), { headers: { Accept: JSON_T } });
    const elapsed = performance.now() - t0;
    assert.equal(ask.status, 200, await ask.clone().text());
    assert.deepEqual(await ask.json(), { head: {}, boolean: true });
    assert.ok(elapsed < 60_000, `the ASK was answered after ${Math.round(elapsed)} ms, not before the time limit`);

    // Both running queries had their workers replaced; the waiting one never ran.
    const t1 = performance.now();
    while ((await serviceFigure(base, "sparqlWorkerRestarts")) < restarts + 2 && performance.now() - t1 < 30_000) {
      await new Promise((res) => setTimeout(res, 50));
    }
    assert.equal(await serviceFigure(base, "sparqlWorkerRestarts"), restarts + 2);
    await assertServesNormally(base);
  });

  test("a query over the time limit, and one that cannot start within it, get 503 with Retry-After", async () => {
    await srv.restart({ env: { SPARQL_TIMEOUT_MS: "2000" } });
    const base = srv.base;
    assert.equal(await serviceFigure(base, "sparqlTimeLimitMs"), 2000);
    // Wait until both workers have loaded (the home page says how many are loading).
    const t0 = performance.now();
    while (!(await (await get(`${base}/`, "text/html")).text()).includes("0 loading the data")) {
      if (performance.now() - t0 > 30_000) throw new Error("the SPARQL workers did not load in 30 s");
      await new Promise((res) => setTimeout(res, 50));
    }

    const answers = await Promise.all(
      [0, 1, 2].map(async () => {
        const r = await fetch(sparqlUrl(base, CROSS_JOIN), { headers: { Accept: "application/sparql-results+json, text/plain;q=0.1" } });
        return { status: r.status, retryAfter: r.headers.get("retry-after"), text: await r.text() };
      }),
    );
    for (const a of answers) {
      assert.equal(a.status, 503, a.text);
      assert.equal(a.retryAfter, "2");
    }
    const codes = answers.map((a) => /^503 (\w+):/.exec(a.text)?.[1]).sort();
    assert.deepEqual(codes, ["QueryTimeout", "QueryTimeout", "ServiceUnavailable"], answers.map((a) => a.text).join(""));
    assert.match(answers.find((a) => a.text.includes("QueryTimeout"))!.text, /time limit of 2000 ms and was stopped/);
    assert.match(answers.find((a) => a.text.includes("ServiceUnavailable"))!.text, /no SPARQL worker became free within the time limit of 2000 ms/);
    await assertServesNormally(base);
  });
});
