/**
 * Conformal calibration and coverage of cross-validations over HTTP (docs/cross-validation.md
 * "Coverage", "Conformal calibration", "Comparing cross-validations"): 10-fold cross-validations
 * of `prediction_algorithm=kernel_svm` on hamster_carcinogenicity.csv (classes) and
 * EPAFHM.medi_log10.csv (numbers). The calibration the service reports is read from its Turtle
 * and, independently parsed, its JSON-LD (the same triples), and checked against the stored
 * p-values themselves: at every significance ε the number of errors is the number of instances
 * whose measured value has a p-value ≤ ε (classes: the p-value of the measured class), the rates
 * lie in [0, 1] and do not decrease with ε; for numbers the stored interval at 0.8 misses exactly
 * the values whose p-value is ≤ 0.2. Validity on these small sets: within 4 binomial standard
 * deviations of ε (the bound test/unit/learn/conformal.test.ts explains). A report of the lazar
 * and the kernel cross-validation (same seed) compares them without a warning; one with another
 * seed warns.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Parser, type Quad } from "n3";
import { EPAFHM, get, HAMSTER, runTask as runTaskFor } from "../helpers/server.ts";
import { parseRdf } from "../helpers/rdf.ts";
import { useServer } from "../helpers/use-server.ts";
import { QG_NS } from "../../src/store/vocab.ts";

const runTask = (url: string, params: Record<string, string>): Promise<string> => runTaskFor(url, params, 300_000);
const SIGNIFICANCES = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5];

/** A cross-validation's graph from its Turtle (parsed with n3), as lookups. */
async function graphOf(cv: string): Promise<{ quads: Quad[]; objects: (s: string, p: string) => string[]; one: (s: string, p: string) => string | undefined; turtle: string }> {
  const turtle = await (await get(cv, "text/turtle")).text();
  const quads = new Parser({ format: "Turtle", baseIRI: cv }).parse(turtle);
  const index = new Map<string, string[]>();
  for (const q of quads) {
    const k = `${q.subject.value} ${q.predicate.value}`;
    index.set(k, [...(index.get(k) ?? []), q.object.value]);
  }
  const objects = (s: string, p: string): string[] => index.get(`${s} ${p}`) ?? [];
  return { quads, objects, one: (s, p) => objects(s, p)[0], turtle };
}

interface Calibration {
  readonly n: number;
  readonly points: { significance: number; errors: number; errorRate: number }[];
}

/** The calibration the service stored: qg:conformalInstances and the qg:calibrationPoint nodes. */
function storedCalibration(g: Awaited<ReturnType<typeof graphOf>>, cv: string, qg: string): Calibration {
  const n = Number(g.one(cv, `${qg}conformalInstances`));
  const points = g
    .objects(cv, `${qg}calibrationPoint`)
    .map((node) => ({ significance: Number(g.one(node, `${qg}significance`)), errors: Number(g.one(node, `${qg}numErrors`)), errorRate: Number(g.one(node, `${qg}errorRate`)) }))
    .sort((a, b) => a.significance - b.significance);
  return { n, points };
}

/** The checks every stored calibration must pass, given the p-values of the measured values counted from the stored predictions. */
function checkCalibration(c: Calibration, truth: readonly number[]): void {
  assert.deepEqual(c.points.map((p) => p.significance), SIGNIFICANCES);
  assert.equal(c.n, truth.length, "counted over every instance with a p-value");
  let last = 0;
  for (const p of c.points) {
    assert.ok(p.errorRate >= 0 && p.errorRate <= 1, `error rate ${p.errorRate}`);
    assert.ok(p.errorRate >= last, `error rates do not decrease with ε: ${p.errorRate} after ${last}`);
    last = p.errorRate;
    assert.equal(p.errors, truth.filter((x) => x <= p.significance).length, `errors at ε = ${p.significance} counted from the stored p-values`);
    assert.ok(Math.abs(p.errorRate - p.errors / c.n) < 1e-12);
  }
  for (const eps of [0.1, 0.2]) {
    const rate = c.points.find((p) => p.significance === eps)!.errorRate;
    const sd = Math.sqrt((eps * (1 - eps)) / c.n);
    assert.ok(Math.abs(rate - eps) <= 4 * sd, `error rate ${rate} at ε = ${eps}: more than 4 sd (${sd.toFixed(3)}) from ε`);
  }
}

/** The same calibration triples in the JSON-LD as in the Turtle (each parsed by its own library). */
async function sameInJsonLd(base: string, cv: string, turtle: string): Promise<void> {
  const jsonLd = await (await get(cv, "application/ld+json")).text();
  // jsonld.js writes doubles with 16 significant digits (toExponential(15)): compare them to 12
  const pick = (triples: string[]): string[] =>
    triples
      .filter((t) => /#(calibrationPoint|significance|numErrors|errorRate|conformalInstances|coveragePoint|coverage|accuracy|rootMeanSquaredError)>/.test(t))
      .map((t) => t.replace(/"([^"]+)"\^\^<http:\/\/www\.w3\.org\/2001\/XMLSchema#double>$/, (_, x: string) => `${Number(x).toPrecision(12)} (double)`));
  const fromJson = pick(await parseRdf(jsonLd, "application/ld+json", base));
  const fromTurtle = pick(await parseRdf(turtle, "text/turtle", base));
  assert.ok(fromTurtle.some((t) => t.includes("#calibrationPoint>")));
  assert.deepEqual(fromJson, fromTurtle);
}

describe("conformal calibration and coverage of cross-validations over HTTP", () => {
  const srv = useServer({ upload: { hamster: HAMSTER, epafhm: EPAFHM } });
  let kernelCv = "";

  test("kernel_svm on hamster: the calibration in Turtle and JSON-LD agrees with the stored p-values of the measured classes; coverage from 10 % to 100 %", async () => {
    const qg = QG_NS;
    kernelCv = await runTask(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: srv.datasets.hamster, algorithm_params: "prediction_algorithm=kernel_svm" });
    const g = await graphOf(kernelCv);
    // the p-value of the measured class of every prediction, from its qg:pValue nodes
    const truth: number[] = [];
    for (const p of g.objects(kernelCv, `${qg}prediction`)) {
      const measured = g.one(p, `${qg}measuredActivity`)!;
      const nodes = g.objects(p, `${qg}pValue`);
      assert.equal(nodes.length, 2, "both classes' p-values");
      const own = nodes.find((n) => g.one(n, `${qg}forClass`) === measured)!;
      truth.push(Number(g.one(own, `${qg}confidence`)));
    }
    assert.equal(truth.length, 85);
    checkCalibration(storedCalibration(g, kernelCv, qg), truth);
    // efficiency: a share of single-class sets and a mean set size at each ε
    const at02 = g.objects(kernelCv, `${qg}calibrationPoint`).find((n) => g.one(n, `${qg}significance`) === "0.2")!;
    const single = Number(g.one(at02, `${qg}singleClassRate`));
    const size = Number(g.one(at02, `${qg}meanSetSize`));
    assert.ok(single >= 0 && single <= 1 && size >= 0 && size <= 2, `${single} ${size}`);
    // accuracy versus coverage: every prediction is made, so all ten coverages, the last keeping all 85
    const cov = g.objects(kernelCv, `${qg}coveragePoint`).map((n) => ({ c: Number(g.one(n, `${qg}coverage`)), n: Number(g.one(n, `${qg}numPredicted`)), acc: Number(g.one(n, `${qg}accuracy`)) }));
    assert.equal(cov.length, 10);
    for (const p of cov) {
      assert.ok(p.n >= Math.ceil(p.c * 85 - 1e-9), `coverage ${p.c} keeps ${p.n}`);
      assert.ok(p.acc >= 0 && p.acc <= 1);
    }
    assert.equal(cov.find((p) => p.c === 1)!.n, 85);
    assert.equal(cov.find((p) => p.c === 1)!.acc, Number(g.one(kernelCv, `${qg}accuracy`)), "at 100 % the pooled accuracy");
    await sameInJsonLd(srv.base, kernelCv, g.turtle);
  });

  test("kernel_svm on EPAFHM.medi: p-values of the measured values; the 0.8 interval misses exactly those with p ≤ 0.2", async () => {
    const qg = QG_NS;
    const cv = await runTask(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: srv.datasets.epafhm, algorithm_params: "prediction_algorithm=kernel_svm" });
    const g = await graphOf(cv);
    assert.equal(g.one(cv, `${qg}confidenceLevel`), "0.8");
    const truth: number[] = [];
    let outside = 0;
    for (const p of g.objects(cv, `${qg}prediction`)) {
      const y = Number(g.one(p, `${qg}measuredActivity`));
      const t = Number(g.one(p, `${qg}truthPValue`));
      const lo = Number(g.one(p, `${qg}intervalLower`));
      const hi = Number(g.one(p, `${qg}intervalUpper`));
      assert.ok(t > 0 && t <= 1, `p-value ${t}`);
      assert.ok(lo < hi, `[${lo}, ${hi}]`);
      const miss = !(y >= lo && y <= hi);
      assert.equal(t <= 0.2, miss, `${y} in [${lo}, ${hi}] with p ${t}`);
      if (miss) outside++;
      truth.push(t);
    }
    // 91 measured values of 88 compounds (fixtures/data/SOURCES.md): each its own instance and p-value
    assert.equal(truth.length, 91);
    const c = storedCalibration(g, cv, qg);
    checkCalibration(c, truth);
    assert.equal(Number(g.one(cv, `${qg}intervalErrorRate`)), outside / 91);
    assert.equal(c.points.find((p) => p.significance === 0.2)!.errors, outside);
    assert.ok(Number(g.one(cv, `${qg}meanIntervalWidth`)) > 0);
    assert.equal(g.one(cv, `${qg}coverageOrder`), "interval width");
    await sameInJsonLd(srv.base, cv, g.turtle);
    // the page shows the calibration table and plot
    const html = await (await get(cv, "text/html")).text();
    assert.match(html, /<section id="calibration">/);
    assert.match(html, /Conformal calibration/);
  });

  test("a report of the lazar and the kernel_svm cross-validation (same seed) compares them; another seed gives a warning", async () => {
    const lazar = await runTask(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: srv.datasets.hamster, algorithm_params: "prediction_algorithm=weighted_majority_vote" });
    const report = await runTask(`${srv.base}/validation/report/crossvalidation`, { validation_uris: `${lazar} ${kernelCv}` });
    const html = await (await get(report, "text/html")).text();
    assert.match(html, /Comparison of 2 cross-validations/);
    assert.match(html, /share their folds/);
    assert.doesNotMatch(html, /Not comparable/);
    // numbered in URI order (the report's order)
    const [first, second] = [lazar, kernelCv].sort().map((u) => (u === lazar ? "lazar WMV" : "kernel SVM"));
    assert.ok(html.includes(`1: ${first}`) && html.includes(`2: ${second}`));
    assert.equal(html.match(/<details class="cv-detail">/g)?.length, 2);
    const other = await runTask(`${srv.base}/validation/crossvalidation`, { algorithm_uri: `${srv.base}/algorithm/qsar`, dataset_uri: srv.datasets.hamster, algorithm_params: "prediction_algorithm=kernel_svm", random_seed: "2" });
    const warned = await (await get(await runTask(`${srv.base}/validation/report/crossvalidation`, { validation_uris: `${kernelCv},${other}` }), "text/html")).text();
    assert.match(warned, /Not comparable/);
    assert.match(warned, /seed 2/);
  });
});
