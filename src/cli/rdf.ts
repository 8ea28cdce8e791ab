/**
 * What the client reads from the service's RDF (N-Triples, parsed with n3): the entries of a
 * prediction dataset and the pooled statistics of a cross-validation. The shapes are the
 * service's (README "Models and predictions", "Cross-validation and reports"); the service's own
 * vocabulary `qg:` is `https://w3id.org/qsargraph/ontology#` (servers before it used
 * `<BASE_URL>/ontology#`): its terms are recognised by their local name after `/ontology#`, so the
 * client reads both.
 */
import { Parser, type Quad } from "n3";

const OT = "http://www.opentox.org/api/1.1#";
const XSD_DOUBLE = "http://www.w3.org/2001/XMLSchema#double";

const isQg = (iri: string, name: string): boolean => iri.endsWith(`/ontology#${name}`);

export function parseNTriples(text: string): Quad[] {
  return new Parser({ format: "N-Triples" }).parse(text);
}

export interface PredictionEntry {
  readonly compound: string;
  /** predicted: a value (and confidence); measured: a training compound, its measured value(s); unpredicted: a reason, no value. */
  readonly status: "predicted" | "measured" | "unpredicted";
  /** The predicted value, or the measured values joined by ", ". */
  readonly value: string | null;
  readonly confidence: number | null;
  readonly neighbours: number | null;
  readonly reason: string | null;
}

/**
 * The entries of prediction dataset `dataset`, in line order: the value under the model's
 * `<model>/predicted/value`, the confidence under `<model>/predicted/confidence` (the dataset's
 * two `ot:predictedVariables`: found there, so the model URI need not be spelt as the service
 * spells it), `qg:numberOfNeighbours`, `qg:reason`, and for a training compound
 * `qg:measured true` with its values under the endpoint feature.
 */
export function readPredictions(quads: readonly Quad[], dataset: string): PredictionEntry[] {
  const predicted = quads.filter((q) => q.subject.value === dataset && q.predicate.value === `${OT}predictedVariables`).map((q) => q.object.value);
  const valueFeature = predicted.find((f) => f.endsWith("/predicted/value"));
  const confidenceFeature = predicted.find((f) => f.endsWith("/predicted/confidence"));
  const bySubject = new Map<string, Quad[]>();
  for (const q of quads) {
    const s = q.subject.value;
    let list = bySubject.get(s);
    if (!list) bySubject.set(s, (list = []));
    list.push(q);
  }
  const entries = (bySubject.get(dataset) ?? []).filter((q) => q.predicate.value === `${OT}dataEntry`).map((q) => q.object.value);
  const out: { line: number; entry: PredictionEntry }[] = [];
  for (const e of entries) {
    let compound = "";
    let line = Number.MAX_SAFE_INTEGER;
    let value: string | null = null;
    let confidence: number | null = null;
    let neighbours: number | null = null;
    let reason: string | null = null;
    let measuredFlag = false;
    const measured: string[] = [];
    for (const q of bySubject.get(e) ?? []) {
      const p = q.predicate.value;
      if (p === `${OT}compound`) compound = q.object.value;
      else if (isQg(p, "line")) line = Number(q.object.value);
      else if (isQg(p, "numberOfNeighbours")) neighbours = Number(q.object.value);
      else if (isQg(p, "reason")) reason = q.object.value;
      else if (isQg(p, "measured")) measuredFlag = q.object.value === "true";
      else if (p === `${OT}values`) {
        const node = bySubject.get(q.object.value) ?? [];
        const feature = node.find((x) => x.predicate.value === `${OT}feature`)?.object.value;
        const v = node.find((x) => x.predicate.value === `${OT}value`)?.object.value;
        if (feature === undefined || v === undefined) continue;
        if (feature === valueFeature) value = v;
        else if (feature === confidenceFeature) confidence = Number(v);
        else measured.push(v);
      }
    }
    const entry: PredictionEntry = measuredFlag
      ? { compound, status: "measured", value: measured.join(", "), confidence: null, neighbours: null, reason: null }
      : value !== null
        ? { compound, status: "predicted", value, confidence, neighbours, reason: null }
        : { compound, status: "unpredicted", value: null, confidence, neighbours, reason };
    out.push({ line, entry });
  }
  return out.sort((a, b) => a.line - b.line).map((x) => x.entry);
}

/** The pooled statistics of cross-validation `cv`: its `qg:<name>` values typed xsd:double, by name. */
export function readStatistics(quads: readonly Quad[], cv: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const q of quads) {
    if (q.subject.value !== cv || q.object.termType !== "Literal" || q.object.datatype.value !== XSD_DOUBLE) continue;
    const p = q.predicate.value;
    const at = p.lastIndexOf("/ontology#");
    if (at < 0) continue;
    out.set(p.slice(at + "/ontology#".length), Number(q.object.value));
  }
  return out;
}
