/**
 * The cross-validations that validate a model (its page lists them): those of the same training
 * dataset and endpoint, with the same prediction algorithm, whose given parameters
 * (`qg:algorithmParams`, name=value;…) all agree with the parameters the model records. A
 * cross-validation that left a parameter to its default is counted as agreeing: the model records
 * the value its build used, the cross-validation only what it was given. Each with the headline
 * statistics its graph stores (pooled over the folds: resources/validation.ts), not recomputed.
 */
import * as ox from "oxigraph";
import { dc, NS, type Vocab } from "../store/vocab.ts";
import type { ModelRecord } from "./model.ts";

export interface ValidationSummary {
  readonly uri: string;
  readonly title: string;
  readonly created: string;
  readonly algorithmParams: string;
  readonly predictionAlgorithm?: string;
  readonly numFolds: number;
  /** Pooled statistics by name (accuracy, averageAreaUnderRoc, rootMeanSquaredError, rSquare, numInstances, numPredicted, …). */
  readonly statistics: Readonly<Record<string, number>>;
}

const HEADLINE = ["accuracy", "averageAreaUnderRoc", "rootMeanSquaredError", "rSquare", "numInstances", "numPredicted", "percentUnpredicted"] as const;

/** The cross-validations of training dataset `dataset` and endpoint `endpoint`, newest first. */
export function readValidationsOf(store: ox.Store, dataset: string, endpoint: string, v: Vocab): ValidationSummary[] {
  const rows = store.query(
    `SELECT DISTINCT ?cv WHERE { GRAPH ?cv { ?cv a <${v.qg.CrossValidation.value}> ; <${NS.ot}trainingDataset> <${dataset}> ; <${NS.ot}dependentVariables> <${endpoint}> } }`,
  ) as Map<string, ox.Term>[];
  return rows
    .map((r) => {
      const uri = r.get("cv")!.value;
      const g = ox.namedNode(uri);
      const one = (p: string): string | undefined => store.match(ox.namedNode(uri), ox.namedNode(p), null, g)[0]?.object.value;
      const statistics: Record<string, number> = {};
      for (const k of HEADLINE) {
        const x = one(`${v.qgNs}${k}`);
        if (x !== undefined) statistics[k] = Number(x);
      }
      const algorithm = one(v.qg.predictionAlgorithm.value);
      return {
        uri,
        title: one(dc.title.value) ?? "",
        created: one(dc.date.value) ?? "",
        algorithmParams: one(v.qg.algorithmParams.value) ?? "",
        ...(algorithm !== undefined ? { predictionAlgorithm: algorithm } : {}),
        numFolds: Number(one(v.qg.numFolds.value) ?? 0),
        statistics,
      };
    })
    .sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : a.uri < b.uri ? -1 : 1));
}

/** `name=value;name=value` → pairs (empty parts skipped; a part without `=` has the value ""). */
export function parseAlgorithmParams(text: string): [string, string][] {
  return text
    .split(";")
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => {
      const i = p.indexOf("=");
      return i < 0 ? [p, ""] : [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    });
}

/** Whether two parameter values are the same: equal text, or equal numbers ("0.30" and "0.3"). */
function sameValue(a: string, b: string): boolean {
  return a === b || (a.trim() !== "" && b.trim() !== "" && Number.isFinite(Number(a)) && Number(a) === Number(b));
}

/** Parameters that say what is modelled, not how: given apart from algorithm_params. */
const DATA_PARAMS = new Set(["dataset_uri", "prediction_feature"]);

/** Whether cross-validation `cv` validates model `m`'s algorithm and parameters (the data are matched by the read). */
export function validatesModel(m: Pick<ModelRecord, "predictionAlgorithm" | "parameters">, cv: Pick<ValidationSummary, "predictionAlgorithm" | "algorithmParams">): boolean {
  if (cv.predictionAlgorithm !== undefined && cv.predictionAlgorithm !== m.predictionAlgorithm) return false;
  const recorded = new Map(m.parameters.map(([k, x]) => [k, x]));
  return parseAlgorithmParams(cv.algorithmParams).every(([k, x]) => DATA_PARAMS.has(k) || (recorded.has(k) && sameValue(recorded.get(k)!, x)));
}

/** The `algorithm_params` that cross-validate model `m` with its own parameters (name=value;…). */
export function modelAlgorithmParams(m: Pick<ModelRecord, "parameters">): string {
  return m.parameters
    .filter(([k]) => !DATA_PARAMS.has(k))
    .map(([k, x]) => `${k}=${x}`)
    .join(";");
}

/** The cross-validations that validate model `m` (see the module comment), newest first. */
export function readModelValidations(store: ox.Store, m: Pick<ModelRecord, "trainingDataset" | "endpoint" | "predictionAlgorithm" | "parameters">, v: Vocab): ValidationSummary[] {
  return readValidationsOf(store, m.trainingDataset, m.endpoint, v).filter((cv) => validatesModel(m, cv));
}
