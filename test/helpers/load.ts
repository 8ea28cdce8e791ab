/**
 * A mixed load of concurrent clients against a running server. The goal it checks: 50 clients
 * uploading, predicting, polling and querying SPARQL at once for 60 s get no error except the
 * 503s the README documents ("Limits", "SPARQL"); docs/benchmarks.md "50 clients for 60 s" has
 * the measured figures.
 * Used by bench/load.ts (figures, memory) and test/integration/load.test.ts (no errors).
 *
 * Client i does kind i mod 5, in a loop until the time is up:
 *   upload   POST a small CSV (20 rows of hamster), poll its task until it ends, DELETE the dataset
 *   predict  POST a compound of hamster to the model (answered directly, 201)
 *   poll     GET a task as text/uri-list, then GET / as HTML
 *   sparql   a small SELECT through /sparql
 *   compound GET a compound's SVG depiction and its Turtle
 * Every request is valid, so any answer but the expected one is an error, except 503 (the
 * documented refusal of a full queue or a busy SPARQL pool, which a client retries after
 * `Retry-After`). Network failures are errors.
 */
import { readFileSync } from "node:fs";
import { HAMSTER } from "./data.ts";

export interface LoadSetup {
  readonly base: string;
  readonly model: string;
  /** Compound URIs the predict and compound clients use. */
  readonly compounds: readonly string[];
  /** A finished task the poll clients read. */
  readonly task: string;
  readonly headers?: Record<string, string>;
}

export interface LoadResult {
  readonly requests: number;
  /** Answers by "<kind> <status>". */
  readonly answers: ReadonlyMap<string, number>;
  /** Unexpected answers and network failures, with a sample message each. */
  readonly errors: readonly string[];
  readonly unavailable: number;
  readonly latencies: ReadonlyMap<string, readonly number[]>;
}

const KINDS = ["upload", "predict", "poll", "sparql", "compound"] as const;
type Kind = (typeof KINDS)[number];

/** The first 20 data rows of hamster_carcinogenicity.csv, as a CSV text. */
export function smallCsv(): string {
  return readFileSync(HAMSTER, "utf8").split(/\r?\n/).slice(0, 21).join("\n") + "\n";
}

export async function runLoad(s: LoadSetup, clients: number, seconds: number): Promise<LoadResult> {
  const csv = smallCsv();
  const answers = new Map<string, number>();
  const latencies = new Map<string, number[]>();
  const errors: string[] = [];
  let requests = 0;
  let unavailable = 0;
  const end = performance.now() + seconds * 1000;
  const h = s.headers ?? {};

  /** One request: counted, timed; `ok` = the statuses expected. 503 waits for Retry-After (capped). */
  async function call(kind: Kind, url: string, init: RequestInit, ok: readonly number[]): Promise<Response | null> {
    requests++;
    const t = performance.now();
    let r: Response;
    try {
      r = await fetch(url, { ...init, headers: { ...h, ...(init.headers as Record<string, string>) } });
    } catch (err) {
      errors.push(`${kind} ${url}: ${String((err as Error).cause ?? err)}`);
      return null;
    }
    const key = `${kind} ${r.status}`;
    answers.set(key, (answers.get(key) ?? 0) + 1);
    (latencies.get(kind) ?? latencies.set(kind, []).get(kind)!).push(performance.now() - t);
    if (r.status === 503) {
      unavailable++;
      await r.arrayBuffer();
      const after = Number(r.headers.get("retry-after") ?? 1);
      await new Promise((res) => setTimeout(res, Math.min(5, Number.isFinite(after) ? after : 1) * 1000));
      return null;
    }
    if (!ok.includes(r.status)) {
      errors.push(`${kind} ${init.method ?? "GET"} ${url}: ${r.status} ${(await r.text()).slice(0, 200)}`);
      return null;
    }
    return r;
  }

  async function upload(): Promise<void> {
    const form = new FormData();
    form.append("file", new Blob([csv]), "hamster-20.csv");
    const r = await call("upload", `${s.base}/dataset`, { method: "POST", body: form, headers: { Accept: "text/uri-list" } }, [202]);
    if (!r) return;
    const task = (await r.text()).trim();
    for (;;) {
      if (performance.now() > end + 60_000) return void errors.push(`upload task ${task} did not finish within a minute of the end`);
      await new Promise((res) => setTimeout(res, 200));
      const p = await call("upload", task, { headers: { Accept: "text/uri-list" } }, [200, 201, 202]);
      if (!p) continue;
      const body = (await p.text()).trim();
      if (body === task) continue;
      if (p.status !== 200) return void errors.push(`upload task ${task} ended ${p.status}: ${body.slice(0, 200)}`);
      const d = await call("upload", body, { method: "DELETE", headers: { Accept: "text/plain" } }, [200]);
      await d?.arrayBuffer();
      return;
    }
  }

  async function client(i: number): Promise<void> {
    const kind = KINDS[i % KINDS.length]!;
    let n = i;
    while (performance.now() < end) {
      const compound = s.compounds[n++ % s.compounds.length]!;
      switch (kind) {
        case "upload":
          await upload();
          break;
        case "predict": {
          const r = await call(kind, s.model, { method: "POST", body: new URLSearchParams({ compound_uri: compound }), headers: { Accept: "text/uri-list" } }, [200, 201]);
          await r?.arrayBuffer();
          break;
        }
        case "poll": {
          const r = await call(kind, s.task, { headers: { Accept: "text/uri-list" } }, [200]);
          await r?.arrayBuffer();
          const home = await call(kind, `${s.base}/`, { headers: { Accept: "text/html" } }, [200]);
          await home?.arrayBuffer();
          await new Promise((res) => setTimeout(res, 100));
          break;
        }
        case "sparql": {
          const q = `SELECT ?d (COUNT(?e) AS ?n) WHERE { GRAPH ?d { ?d <http://www.opentox.org/api/1.1#dataEntry> ?e } } GROUP BY ?d LIMIT 20`;
          const r = await call(kind, `${s.base}/sparql?query=${encodeURIComponent(q)}`, { headers: { Accept: "application/sparql-results+json" } }, [200]);
          await r?.arrayBuffer();
          break;
        }
        case "compound": {
          const svg = await call(kind, `${compound}?format=svg`, {}, [200]);
          await svg?.arrayBuffer();
          const ttl = await call(kind, compound, { headers: { Accept: "text/turtle" } }, [200]);
          await ttl?.arrayBuffer();
          break;
        }
      }
    }
  }

  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  return { requests, answers, errors, unavailable, latencies };
}
