/**
 * The pages that explain mined substructures (issue 17, "Explain"; README "Algorithms and
 * substructure mining", docs/miners.md "What the pages say"), over HTTP on a real server: BBRC and
 * LAST-PM mined on lazar's hamster_carcinogenicity.csv, then
 *
 * - each feature's page says "more frequent in compounds with Hamster Carcinogenicity = <class>
 *   (p = …, χ² test, F of 85 compounds contain it)", where the class and p come from an
 *   independent calculation here: the class counts the feature states (qg:classCount), the class
 *   sizes counted in the CSV itself (40 false, 45 true), fminer's statistic as lazar's spec
 *   writes it (Σ (f_c − E_c − 0.5)² / E_c, E_c = n_c·F/N; ../shared/spec/lazar.md), its p-value
 *   as the normal tail 2·(1 − Φ(√χ²)) for one degree of freedom integrated numerically (Simpson),
 *   and the class by lazar's effect rule (the largest (actual − expected)/actual);
 * - the stored ot:pValue stays lazar's 1 − p, and ot:effect the class number;
 * - the picture: GET <feature>?format=svg is image/svg+xml with one highlighted atom per atom of
 *   the SMARTS (counted in the SMARTS: every atom of the miners' SMARTS is bracketed), the page
 *   shows it, and the dataset page shows a lazy thumbnail per feature of its page.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { get, HAMSTER, runTask } from "../helpers/server.ts";
import { useServer } from "../helpers/use-server.ts";
import { unescapeHtml } from "../helpers/html.ts";
import { QG_NS } from "../../src/store/vocab.ts";

const OT = "http://www.opentox.org/api/1.1#";

/** The class sizes of the hamster endpoint, counted in the file. */
function classSizes(): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const line of readFileSync(HAMSTER, "utf8").split(/\r?\n/).slice(1)) {
    const value = line.slice(line.lastIndexOf(",") + 1).trim();
    if (value) sizes.set(value, (sizes.get(value) ?? 0) + 1);
  }
  return sizes;
}

/** ∫ of the standard normal density from z to z + 40 by Simpson's rule: 1 − Φ(z). */
function normalTail(z: number): number {
  const n = 200_000;
  const h = 40 / n;
  const f = (x: number): number => Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI);
  let s = f(z) + f(z + 40);
  for (let i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * f(z + i * h);
  return (s * h) / 3;
}

/** The p-value of a χ² statistic with one degree of freedom: P(|Z| ≥ √χ²). */
function chiSquareP1(chi: number): number {
  return 2 * normalTail(Math.sqrt(chi));
}

/** p as the pages write it: two significant digits, a true minus sign. */
function written(p: number): string {
  const [m, e] = p.toExponential(1).split("e");
  return `${m}e${Number(e) < 0 ? `\u2212${-Number(e)}` : Number(e)}`;
}

/** The feature's triples as predicate → objects (N-Triples read line by line). */
async function featureFacts(uri: string): Promise<Map<string, string[]>> {
  const nt = await (await get(uri, "application/n-triples")).text();
  const out = new Map<string, string[]>();
  for (const line of nt.split("\n")) {
    const m = /^<[^>]+> <([^>]+)> (?:"((?:[^"\\]|\\.)*)"(?:\^\^<[^>]+>)?|<([^>]+)>) \.$/.exec(line.trim());
    if (!m) continue;
    const l = out.get(m[1]!) ?? [];
    l.push(m[2] ?? m[3]!);
    out.set(m[1]!, l);
  }
  return out;
}

/** The atoms of a SMARTS as the miners write it: bracket atoms and `*`, not those inside a bracket's recursive $(…). */
function topLevelAtoms(smarts: string): number {
  let depth = 0;
  let atoms = 0;
  for (const c of smarts) {
    if (c === "[") {
      if (depth === 0) atoms++;
      depth++;
    } else if (c === "]") depth--;
    else if (c === "*" && depth === 0) atoms++;
  }
  return atoms;
}


describe("explain pages: mined substructures in words and pictures", () => {
  const srv = useServer({ upload: { hamster: HAMSTER } });
  const sizes = classSizes();
  const N = [...sizes.values()].reduce((a, b) => a + b, 0);

  test("the hamster file has 40 false and 45 true (what the independent calculation uses)", () => {
    assert.deepEqual([sizes.get("false"), sizes.get("true"), N], [40, 45, 85]);
  });

  async function checkMiner(path: string, params: Record<string, string>, name: string): Promise<void> {
    const fd = await runTask(`${srv.base}/algorithm/${path}`, { dataset_uri: srv.datasets.hamster, ...params });
    const features = (await (await get(`${fd}/features`, "text/uri-list")).text()).trim().split(/\r?\n/);
    assert.ok(features.length >= 5, `${name}: ${features.length} features`);
    let checked = 0;
    for (const f of features.slice(0, 12)) {
      const facts = await featureFacts(f);
      const counts = new Map((facts.get(`${QG_NS}classCount`) ?? []).map((s) => [s.split("=")[0]!, Number(s.split("=")[1])] as const));
      const F = [...counts.values()].reduce((a, b) => a + b, 0);
      // fminer's statistic and lazar's effect rule, from the counts and the file's class sizes.
      let chi = 0;
      let effect: string | undefined;
      let best = -Infinity;
      for (const [c, n] of [...sizes].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
        const f = counts.get(c) ?? 0;
        const E = (n * F) / N;
        chi += (f - E - 0.5) ** 2 / E;
        const actual = f / F;
        const expected = n / N;
        if (actual > expected && (actual - expected) / actual > best) {
          best = (actual - expected) / actual;
          effect = c;
        }
      }
      const p = chiSquareP1(chi);
      assert.ok(effect, `${f}: a class is over-represented`);
      const html = await (await get(f, "text/html")).text();
      const sentence = unescapeHtml(/<p id="explanation"><strong>(.*?)<\/strong><\/p>/.exec(html)?.[1] ?? "");
      assert.equal(sentence, `More frequent in compounds with Hamster Carcinogenicity = ${effect} (p = ${written(p)}, χ² test, ${F} of 85 compounds contain it).`, f);
      // The stored values stay lazar's: ot:pValue = 1 − p (the CDF), ot:effect the class number (false = 1, true = 2).
      assert.ok(Math.abs(Number(facts.get(`${OT}pValue`)![0]) - (1 - p)) < 1e-5, `${f}: stored ot:pValue ${facts.get(`${OT}pValue`)![0]} is 1 − ${p}`);
      assert.equal(facts.get(`${OT}effect`)![0], effect === "false" ? "1" : "2");
      assert.ok(html.includes(`Stored ot:effect</th><td>${effect === "false" ? "1" : "2"}: class`), "the page says what the stored number is");
      // The picture: one highlighted atom per atom of the SMARTS.
      const smarts = facts.get(`${OT}smarts`)![0]!;
      const atoms = topLevelAtoms(smarts);
      assert.ok(html.includes(`<img src="${f}?format=svg&#38;width=300&#38;height=200" alt="substructure `), "the page shows the picture");
      const svg = await get(`${f}?format=svg&width=300&height=200`, "*/*");
      assert.equal(svg.status, 200);
      assert.equal(svg.headers.get("content-type"), "image/svg+xml");
      const text = await svg.text();
      assert.ok(text.startsWith("<?xml version='1.0' encoding='UTF-8'?>\n<svg"), text.slice(0, 80));
      const drawn = new Set([...text.matchAll(/<ellipse [^>]*class='atom-(\d+)'/g)].map((m) => Number(m[1])));
      assert.equal(drawn.size, atoms, `${smarts}: ${atoms} atoms, highlighted ${[...drawn].join(",")}`);
      checked++;
    }
    assert.ok(checked >= 5);
    // The dataset page: a lazy thumbnail and the sentence for each feature of its page of columns.
    const t0 = performance.now();
    const page = await (await get(`${fd}?page_size=1&column_page_size=100`, "text/html")).text();
    const ms = performance.now() - t0;
    console.log(`${name}: the feature dataset's page with ${Math.min(100, features.length)} features took ${ms.toFixed(0)} ms`);
    const thumbs = [...page.matchAll(/<img src="([^"]+)\?format=svg&#38;width=160&#38;height=110" alt="substructure [^"]*" width="160" height="110" loading="lazy">/g)].map((m) => m[1]);
    assert.deepEqual(thumbs, features.slice(0, 100));
    assert.ok(page.includes("more frequent in compounds with Hamster Carcinogenicity = "));
    // A feature of an uploaded dataset has no picture.
    const plain = await get(`${srv.datasets.hamster}/feature/Hamster%20Carcinogenicity?format=svg`, "*/*");
    assert.equal(plain.status, 406);
  }

  test("BBRC: sentence, p-value and class from an independent χ² calculation; the picture", async () => {
    await checkMiner("miner/bbrc", {}, "BBRC");
  });

  test("LAST-PM: the same words (χ² with k − 1 = 1 degree of freedom for two classes)", async () => {
    await checkMiner("miner/last", {}, "LAST-PM");
  });
});
