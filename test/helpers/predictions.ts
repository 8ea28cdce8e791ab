/**
 * Reading a global model's prediction (kernel_svm, random_forest; algorithms/global/entries.ts)
 * and a cross-validation's statistics back over HTTP, for the integration tests of the models.
 */
import assert from "node:assert/strict";
import { compoundUri, get, postForm, sparqlSelect } from "./server.ts";
import { QG_NS } from "../../src/store/vocab.ts";

/** What one prediction dataset entry says about compound `c`. */
export interface PredictionEntry {
  value?: string;
  confidence?: number;
  /** The p-value of each class, by class. */
  pValues: Map<string, number>;
  lower?: number;
  upper?: number;
  level?: number;
  /** The neighbours' similarities, most similar first. */
  neighbours: number[];
  /** The neighbours' measured values, in the order of `neighbours` (the same similarity: any order). */
  measuredActivities: string[];
  measured: boolean;
  nearest?: number;
  inside?: boolean;
  threshold?: number;
  note?: string;
  reason?: string;
}

/** The entry of compound `c` in prediction dataset `pd` of model `model`, read with SPARQL. */
export async function predictionEntry(base: string, pd: string, model: string, c: string): Promise<PredictionEntry> {
  const qg = QG_NS;
  const rows = await sparqlSelect(
    base,
    `PREFIX ot: <http://www.opentox.org/api/1.1#> PREFIX qg: <${qg}>
     SELECT ?c ?f ?x ?cls ?p ?lo ?hi ?lvl ?n ?sim ?act ?m ?near ?in ?thr ?note ?reason WHERE { GRAPH <${pd}> { ?e ot:compound ?c .
       OPTIONAL { ?e qg:nearestSimilarity ?near ; qg:insideDomain ?in ; qg:domainThreshold ?thr } OPTIONAL { ?e qg:domainNote ?note }
       OPTIONAL { ?e ot:values ?v . ?v ot:feature ?f ; ot:value ?x }
       OPTIONAL { ?e qg:pValue ?pn . ?pn qg:forClass ?cls ; qg:confidence ?p }
       OPTIONAL { ?e qg:intervalLower ?lo ; qg:intervalUpper ?hi } OPTIONAL { ?e qg:confidenceLevel ?lvl }
       OPTIONAL { ?e qg:neighbour ?n . ?n qg:similarity ?sim ; qg:measuredActivity ?act } OPTIONAL { ?e qg:measured ?m } OPTIONAL { ?e qg:reason ?reason } } }`,
  );
  const e: PredictionEntry = { pValues: new Map(), neighbours: [], measuredActivities: [], measured: false };
  const neighbours = new Map<string, { sim: number; act: string }>();
  for (const r of rows) {
    if (r.c!.value !== c) continue;
    if (r.f?.value === `${model}/predicted/value`) e.value = r.x!.value;
    if (r.f?.value === `${model}/predicted/confidence`) e.confidence = Number(r.x!.value);
    if (r.cls) e.pValues.set(r.cls.value, Number(r.p!.value));
    if (r.lo) [e.lower, e.upper] = [Number(r.lo.value), Number(r.hi!.value)];
    if (r.lvl) e.level = Number(r.lvl.value);
    if (r.n) neighbours.set(r.n.value, { sim: Number(r.sim!.value), act: r.act!.value });
    if (r.m) e.measured = true;
    if (r.near) [e.nearest, e.inside, e.threshold] = [Number(r.near.value), r.in!.value === "true", Number(r.thr!.value)];
    if (r.note) e.note = r.note.value;
    if (r.reason) e.reason = r.reason.value;
  }
  const sorted = [...neighbours.values()].sort((a, b) => b.sim - a.sim);
  e.neighbours = sorted.map((n) => n.sim);
  e.measuredActivities = sorted.map((n) => n.act);
  return e;
}

/** A statistic (`qg:<name>`) of cross-validation `cv`, NaN when it has none. */
export async function crossValidationStatistic(base: string, cv: string, name: string): Promise<number> {
  const nt = await (await get(cv, "application/n-triples")).text();
  const m = new RegExp(`^<${cv.replace(/[/.]/g, "\\$&")}> <${QG_NS.replace(/[/.]/g, "\\$&")}${name}> "([^"]+)"`, "m").exec(nt);
  return m ? Number(m[1]) : NaN;
}

/**
 * What every global model of lazar's hamster set must answer (the kernel model's and the forest's
 * tests share it): a new compound (phenylhydrazine) gets both classes' p-values in (0, 1], the
 * conformal confidence (1 − the other class's p-value), its five most similar training compounds
 * with their measured classes, and the applicability domain (the nearest similarity against the
 * model's threshold, a note exactly when outside); a compound unlike any hamster compound (a
 * perfluorinated silane) is outside and still predicted; a training compound (acetaldehyde) is
 * answered with its measured class and no prediction.
 */
export async function assertHamsterPredictions(base: string, model: string): Promise<void> {
  const ask = async (smiles: string): Promise<PredictionEntry> => {
    const c = await compoundUri(base, smiles);
    const r = await postForm(model, { compound_uri: c });
    assert.equal(r.status, 201, `${smiles}: a new prediction dataset; ${await r.clone().text()}`);
    return predictionEntry(base, (await r.text()).trim(), model, c);
  };
  const e = await ask("c1ccccc1NN");
  assert.deepEqual([...e.pValues.keys()].sort(), ["false", "true"]);
  for (const p of e.pValues.values()) assert.ok(p > 0 && p <= 1, `p-value ${p}`);
  assert.ok(e.value === "false" || e.value === "true");
  const other = e.value === "true" ? "false" : "true";
  assert.ok(Math.abs(e.confidence! - (1 - e.pValues.get(other)!)) < 1e-9, "confidence = 1 − the other class's p-value");
  assert.equal(e.neighbours.length, 5, "the five most similar training compounds");
  assert.ok(e.neighbours.every((s) => s > 0 && s <= 1));
  assert.ok(e.measuredActivities.every((a) => a === "true" || a === "false"), "with their measured classes");
  assert.ok(Math.abs(e.nearest! - e.neighbours[0]!) < 1e-6, `nearest ${e.nearest}, first neighbour ${e.neighbours[0]}`);
  assert.ok(e.threshold! > 0 && e.threshold! < 1, `threshold ${e.threshold}`);
  assert.equal(e.inside, e.nearest! >= e.threshold!);
  assert.equal(e.note !== undefined, !e.inside, "a note exactly when outside");
  const far = await ask("FC(F)(F)C(F)(F)C(F)(F)C(F)(F)[Si](C(F)(F)F)(C(F)(F)F)C(F)(F)C(F)(F)C(F)(F)C(F)(F)F");
  assert.ok(far.value === "false" || far.value === "true", "still predicted");
  assert.equal(far.inside, false, `nearest ${far.nearest}, threshold ${far.threshold}`);
  assert.match(far.note ?? "", /outside the applicability domain/);
  const training = await ask("CC=O");
  assert.equal(training.measured, true);
  assert.equal(training.value, undefined, "no prediction");
}

/** A cross-validation's pooled statistics (qg:<name>, xsd:double, on the cross-validation) and each compound's fold, from its N-Triples. */
export async function crossValidationResult(cv: string): Promise<{ stats: Map<string, number>; folds: Map<string, string> }> {
  const nt = await (await get(cv, "application/n-triples")).text();
  const stats = new Map<string, number>();
  for (const m of nt.matchAll(new RegExp(`^<${cv.replace(/[/.]/g, "\\$&")}> <${QG_NS.replace(/[/.]/g, "\\$&")}(\\w+)> "([^"]+)"\\^\\^<http://www\\.w3\\.org/2001/XMLSchema#double> \\.$`, "gm"))) stats.set(m[1]!, Number(m[2]));
  const folds = new Map<string, string>();
  const compound = new Map<string, string>();
  for (const m of nt.matchAll(/^<([^>]+#p\d+)> <http:\/\/www\.opentox\.org\/api\/1\.1#compound> <([^>]+)> \.$/gm)) compound.set(m[1]!, m[2]!);
  for (const m of nt.matchAll(/^<([^>]+#p\d+)> <[^>]+#fold> "(\d+)"/gm)) folds.set(compound.get(m[1]!)!, m[2]!);
  return { stats, folds };
}
