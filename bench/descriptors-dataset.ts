/**
 * All descriptors (every pc_type, lib cdk) of a large dataset through `POST /dataset/{id}/pc`,
 * as a user runs it: the first N compounds (default 10,000) of MoleculeNet MUV
 * (fixtures/data/moleculenet/muv.csv, SMILES column only) are uploaded, the descriptor task is
 * polled to its end, and the server's memory is sampled every 0.5 s from /proc (resident set
 * and its high-water mark; the process includes the worker threads and both Oxigraph stores).
 * Then the server is stopped and started again on the same data directory, and the time until
 * the feature dataset is served again is measured (the journal replays it), and the dataset is
 * exported as CSV three times while another client pings the server. Last, the feature
 * dataset is deleted and the same descriptors asked for again (this needs a store renewal).
 *
 *   nice -n 19 npx tsx bench/descriptors-dataset.ts [compounds] [pc_type list]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { DATA, freshDir, removeDir, startServer, uploadDataset } from "../test/helpers/server.ts";

const n = Number(process.argv[2] ?? 10000);
const pcType = process.argv[3];
const lines = readFileSync(`${DATA}moleculenet/muv.csv`, "utf8").split(/\r?\n/).filter(Boolean);
const col = lines[0]!.split(",").indexOf("smiles");
const dir = freshDir("qsargraph-bench-");
const csv = `${dir}/muv-${n}.csv`;
writeFileSync(csv, ["SMILES", ...lines.slice(1, n + 1).map((l) => l.split(",")[col]!)].join("\n") + "\n");
const dataDir = `${dir}/data`;

function memory(pid: number): { rss: number; hwm: number } {
  const s = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string): number => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? NaN);
  return { rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 };
}

const gb = (mb: number): string => (mb / 1024).toFixed(2);

/**
 * GET the dataset as text/csv, timing the first byte and the whole body, while another client
 * asks for the service description every 100 ms: its slowest answer bounds how long the
 * export kept the server's event loop busy.
 */
async function exportCsv(base: string, dataset: string): Promise<void> {
  let exporting = true;
  let slowest = 0;
  const pings = (async () => {
    while (exporting) {
      const t = performance.now();
      await (await fetch(`${base}/`, { headers: { Accept: "text/uri-list" } })).text();
      slowest = Math.max(slowest, performance.now() - t);
      await new Promise((res) => setTimeout(res, 100));
    }
  })();
  const logged = srv.output().length;
  const t0 = performance.now();
  const r = await fetch(dataset, { headers: { Accept: "text/csv" } });
  const firstByte = performance.now() - t0;
  const body = await r.text();
  const seconds = (performance.now() - t0) / 1000;
  exporting = false;
  await pings;
  const lines = body.split("\n").filter(Boolean);
  const stalls = srv.output().slice(logged).split("\n").filter((l) => l.startsWith("event loop stalled"));
  console.log(
    `CSV export: status ${r.status}, ${(body.length / 1e6).toFixed(1)} MB, ${lines.length - 1} rows × ${(lines[0] ?? "").split(",").length} columns in ${seconds.toFixed(1)} s (headers after ${(firstByte / 1000).toFixed(1)} s); slowest concurrent answer ${slowest.toFixed(0)} ms; server RSS ${gb(memory(srv.proc.pid!).rss)} GB; stalls over 500 ms: ${stalls.length ? stalls.join("; ") : "none"}`,
  );
}
/**
 * Delete the feature dataset and ask for the same descriptors again: the store has loaded the
 * first result, so the second fits only if the store renews its memory (GraphStore "Renewal")
 * instead of answering 507. Prints the time, the store's figures and the stalls over 500 ms.
 */
async function deleteAndAgain(dataset: string, featureDataset: string): Promise<void> {
  const figures = async (): Promise<string> => {
    const nt = await (await fetch(`${srv.base}/`, { headers: { Accept: "application/n-triples" } })).text();
    return ["triplesLoaded", "triplesCurrent", "storeRenewals"].map((k) => `${k} ${new RegExp(`#${k}> "(\\d+)"`).exec(nt)?.[1]}`).join(", ");
  };
  const logged = srv.output().length;
  const del = await fetch(featureDataset, { method: "DELETE" });
  console.log(`deleted the feature dataset (${del.status}); ${await figures()}`);
  const t0 = performance.now();
  const r = await fetch(`${dataset}/pc`, { method: "POST", body: new URLSearchParams({ lib: "cdk", ...(pcType ? { pc_type: pcType } : {}) }), headers: { Accept: "text/uri-list" } });
  const accepted = (performance.now() - t0) / 1000;
  const body = (await r.text()).trim();
  if (r.status !== 202) {
    console.log(`the same descriptors again: ${r.status} after ${accepted.toFixed(1)} s: ${body}`);
    return;
  }
  let slowest = 0;
  let result: { status: number; body: string } | undefined;
  while (result === undefined) {
    const t = performance.now();
    const p = await fetch(body, { headers: { Accept: "text/uri-list" } });
    const text = (await p.text()).trim();
    slowest = Math.max(slowest, performance.now() - t);
    if (text !== body) result = { status: p.status, body: text };
    else await new Promise((res) => setTimeout(res, 100));
  }
  const stalls = srv.output().slice(logged).split("\n").filter((l) => l.startsWith("event loop stalled") || l.startsWith("store renewed"));
  console.log(
    `the same descriptors again: accepted after ${accepted.toFixed(1)} s, ended ${result.status} after ${((performance.now() - t0) / 1000).toFixed(1)} s; slowest poll answer ${slowest.toFixed(0)} ms; ${await figures()}; RSS ${gb(memory(srv.proc.pid!).rss)} GB\n  ${stalls.join("\n  ")}`,
  );
}

// QSARGRAPH_TIMING: the server logs event-loop stalls over 500 ms (printed at the end).
let srv = await startServer({ dataDir, env: { QSARGRAPH_TIMING: "1" } });
try {
  let t0 = performance.now();
  const dataset = await uploadDataset(srv.base, csv);
  console.log(`upload of ${n} compounds: ${((performance.now() - t0) / 1000).toFixed(1)} s; server RSS ${gb(memory(srv.proc.pid!).rss)} GB`);
  t0 = performance.now();
  const r = await fetch(`${dataset}/pc`, {
    method: "POST",
    body: new URLSearchParams({ lib: "cdk", ...(pcType ? { pc_type: pcType } : {}) }),
    headers: { Accept: "text/uri-list" },
  });
  if (r.status !== 202) throw new Error(`POST ${dataset}/pc answered ${r.status}: ${await r.text()}`);
  const task = (await r.text()).trim();
  let peak = 0;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, memory(srv.proc.pid!).rss);
    } catch {
      /* process gone: reported below */
    }
  }, 500);
  // Poll as waitForTask does (every 100 ms, keep-alive), timing each answer: the slowest one
  // bounds how long the server's event loop was busy. A failed request is retried while the
  // server process lives, and counted.
  let done: { status: number; body: string } | undefined;
  let slowest = 0;
  let slowestAt = 0;
  let failures = 0;
  try {
    while (done === undefined) {
      const t = performance.now();
      try {
        const p = await fetch(task, { headers: { Accept: "text/uri-list" } });
        const body = (await p.text()).trim();
        if (performance.now() - t > slowest) [slowest, slowestAt] = [performance.now() - t, (t - t0) / 1000];
        if (body !== task) done = { status: p.status, body };
      } catch (err) {
        await new Promise((res) => setTimeout(res, 1000));
        if (srv.proc.exitCode !== null || srv.proc.signalCode !== null) throw err;
        failures++;
        console.log(`a poll failed after ${((t - t0) / 1000).toFixed(1)} s (${String((err as Error).cause ?? err)}); the server lives, polling on`);
      }
      await new Promise((res) => setTimeout(res, 100));
    }
  } catch (err) {
    throw new Error(`polling failed (${String(err)}); server exit ${srv.proc.exitCode}, signal ${srv.proc.signalCode}, peak RSS sampled ${gb(peak)} GB; its last output:\n${srv.output().slice(-3000)}`);
  } finally {
    clearInterval(sampler);
  }
  console.log(`slowest poll answer ${slowest.toFixed(0)} ms (at ${slowestAt.toFixed(0)} s); failed polls ${failures}`);
  const stalls = srv.output().split("\n").filter((l) => l.startsWith("event loop stalled"));
  console.log(`server event-loop stalls over 500 ms: ${stalls.length}${stalls.length ? `\n  ${stalls.join("\n  ")}` : ""}`);
  const seconds = (performance.now() - t0) / 1000;
  if (srv.proc.exitCode !== null || srv.proc.signalCode !== null) throw new Error(`server died (exit ${srv.proc.exitCode}, signal ${srv.proc.signalCode}):\n${srv.output().slice(-2000)}`);
  if (done.status !== 200) {
    const report = await (await fetch(task, { headers: { Accept: "text/plain" } })).text();
    console.log(`descriptor task ended with ${done.status} after ${seconds.toFixed(1)} s: ${report}`);
  } else {
    const nt = await (await fetch(done.body, { headers: { Accept: "text/uri-list" } })).text();
    console.log(`descriptors (${pcType ?? "all pc_types"}, lib cdk): ${seconds.toFixed(1)} s; ${nt.split("\n").filter(Boolean).length} compounds listed; server RSS peak sampled ${gb(peak)} GB, high-water mark ${gb(memory(srv.proc.pid!).hwm)} GB`);
    const sparql = await fetch(`${srv.base}/sparql?query=${encodeURIComponent(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${done.body}> { ?s ?p ?o } }`)}`, { headers: { Accept: "application/sparql-results+json" } });
    console.log(`triples in the feature dataset (SPARQL): ${JSON.stringify(((await sparql.json()) as { results: { bindings: { n: { value: string } }[] } }).results.bindings[0]?.n.value)}`);
    await srv.stop();
    t0 = performance.now();
    srv = await startServer({ dataDir, port: Number(new URL(srv.base).port), env: { QSARGRAPH_TIMING: "1" } });
    const listening = (performance.now() - t0) / 1000;
    for (;;) {
      const g = await fetch(done.body, { headers: { Accept: "text/uri-list" } });
      if (g.status === 200) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    console.log(`restart: listening after ${listening.toFixed(1)} s, feature dataset served after ${((performance.now() - t0) / 1000).toFixed(1)} s; RSS ${gb(memory(srv.proc.pid!).rss)} GB`);
    for (let run = 1; run <= 3; run++) await exportCsv(srv.base, done.body);
    await deleteAndAgain(dataset, done.body);
  }
} finally {
  await srv.stop();
  removeDir(dir);
}
