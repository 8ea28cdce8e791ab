/**
 * The vocabulary file ontology/qsargraph.ttl against what the code writes (issue 18, point 3):
 * every name of QG_NAMES (store/vocab.ts) and every `qg:` IRI that a cross-validation's graph
 * holds (its pooled statistics are named from validate/statistics.ts's fields, not from
 * QG_NAMES: resources/validation.ts `statisticsQuads`) is defined once in the file, with its
 * kind (owl:Class, owl:ObjectProperty or owl:DatatypeProperty), exactly one English label and an
 * English comment. The file is read with n3's Turtle parser; the namespace is the one Vocab
 * gives (so the test holds whatever the namespace IRI is).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Parser } from "n3";
import type { Quad } from "@rdfjs/types";
import { NS, QG_NAMES, Vocab } from "../../../src/store/vocab.ts";
import { crossValidationNTriples, crossValidationResultOf, type CrossValidationParameters, type StoredPrediction } from "../../../src/resources/validation.ts";

const BASE = "http://localhost:8080";
const v = new Vocab(BASE);
const ONTOLOGY = new URL("../../../ontology/qsargraph.ttl", import.meta.url);
// the file's relative IRIs resolve against the served ontology's IRI, as GET /ontology does
const quads: Quad[] = new Parser({ baseIRI: `${BASE}/ontology` }).parse(readFileSync(ONTOLOGY, "utf8"));
const KINDS = new Set([`${NS.owl}Class`, `${NS.owl}ObjectProperty`, `${NS.owl}DatatypeProperty`]);

const about = (iri: string, predicate: string): Quad["object"][] => quads.filter((q) => q.subject.value === iri && q.predicate.value === predicate).map((q) => q.object);

/** What is wrong with the definition of `iri` in the file ("" when nothing). */
function problems(iri: string): string {
  const out: string[] = [];
  const types = about(iri, `${NS.rdf}type`).map((o) => o.value);
  // n3 keeps repeated triples: a term stated twice has two rdf:type triples
  if (types.length !== 1 || !KINDS.has(types[0]!)) out.push(`rdf:type ${JSON.stringify(types)} (one of owl:Class, owl:ObjectProperty, owl:DatatypeProperty expected once)`);
  const labels = about(iri, `${NS.rdfs}label`);
  if (labels.length !== 1 || labels[0]!.termType !== "Literal" || (labels[0] as { language: string }).language !== "en") out.push(`${labels.length} labels (one @en expected)`);
  const comments = about(iri, `${NS.rdfs}comment`);
  if (comments.length !== 1 || (comments[0] as { language?: string }).language !== "en" || comments[0]!.value.length < 10) out.push(`${comments.length} comments (one @en sentence expected)`);
  return out.length === 0 ? "" : `${iri.slice(v.qgNs.length)}: ${out.join("; ")}`;
}

function assertDefined(iris: Iterable<string>): void {
  const bad = [...new Set(iris)].map(problems).filter((p) => p !== "");
  assert.deepEqual(bad, [], `terms badly defined in ontology/qsargraph.ttl:\n${bad.join("\n")}`);
}

test("the file defines terms in the service's namespace (the parse is not vacuous)", () => {
  const defined = new Set(quads.filter((q) => q.subject.value.startsWith(v.qgNs) && q.predicate.value === `${NS.rdf}type`).map((q) => q.subject.value));
  // QG_NAMES plus the pooled statistics of validate/statistics.ts (26) and qg:rank (algorithms/rfe)
  assert.ok(defined.size >= QG_NAMES.length + 20, `${defined.size} terms`);
  assert.ok(defined.has(`${v.qgNs}Warning`) && defined.has(`${v.qgNs}accuracy`));
});

test("every name of QG_NAMES is defined once, with its kind, one English label and an English comment", () => {
  assertDefined(QG_NAMES.map((n) => v.qg[n].value));
});

test("every term the file defines in the namespace has its kind, one English label and an English comment", () => {
  assertDefined(quads.filter((q) => q.subject.value.startsWith(v.qgNs)).map((q) => q.subject.value));
});

test("every qg: IRI of a classification's and a regression's cross-validation graph is defined (pooled statistics, coverage, calibration)", () => {
  const C = (n: number): string => `${BASE}/compound/InChI=1S/C${n}H4`;
  const common = { title: "t", algorithmUri: `${BASE}/algorithm/qsar`, datasetUri: `${BASE}/dataset/d`, endpoint: `${BASE}/dataset/d/feature/f`, algorithmParams: "", numFolds: 2, seed: 1, stratified: true };
  const graphs: [CrossValidationParameters & { title: string }, StoredPrediction[]][] = [
    [
      { ...common, classes: ["false", "true"], predictionAlgorithm: "kernel_svm" },
      [
        { compound: C(1), fold: 0, measured: "true", predicted: "true", confidence: 0.9, pValues: [0.1, 0.6] },
        { compound: C(2), fold: 1, measured: "false", predicted: "true", confidence: 0.6, pValues: [0.2, 0.4] },
        { compound: C(3), fold: 0, measured: "false", predicted: "false", confidence: 0.7, pValues: [0.5, 0.1] },
        { compound: C(4), fold: 1, measured: "true", predicted: null, confidence: null },
      ],
    ],
    [
      { ...common, classes: [], confidenceLevel: 0.8 },
      [
        { compound: C(1), fold: 0, measured: 1.5, predicted: 1.25, confidence: 0.8, interval: [0.5, 2], truthPValue: 0.6 },
        { compound: C(2), fold: 1, measured: -3, predicted: 1, confidence: 0.7, interval: [-1, 3], truthPValue: 0.05 },
        { compound: C(3), fold: 0, measured: 2.5, predicted: 2, confidence: 0.9, interval: [1, 3], truthPValue: 0.4 },
        { compound: C(4), fold: 1, measured: 7, predicted: null, confidence: null },
      ],
    ],
  ];
  const used = new Set<string>();
  for (const [p, predictions] of graphs) {
    const uri = `${BASE}/validation/crossvalidation/${p.classes.length > 0 ? "c" : "r"}`;
    const nt = crossValidationNTriples(uri, p, predictions, crossValidationResultOf(p, uri, predictions, 10), 10, v);
    for (const q of new Parser({ format: "N-Triples" }).parse(nt)) {
      for (const t of [q.predicate, q.object]) if (t.termType === "NamedNode" && t.value.startsWith(v.qgNs)) used.add(t.value);
    }
  }
  // the statistics both kinds pool (validate/statistics.ts CountStatistics and the two result types), named by hand
  for (const n of ["numInstances", "numPredicted", "accuracy", "weightedAccuracy", "averageAreaUnderRoc", "rootMeanSquaredError", "rSquare", "concordanceCorrelationCoefficient", "targetVariancePredicted", "calibrationPoint", "coveragePoint", "truthPValue"]) {
    assert.ok(used.has(v.qgNs + n), `the graphs use qg:${n}`);
  }
  assertDefined(used);
});
