/**
 * HTML of a model (lazar, the kernel model or the random forest): the predict box first
 * (html/predict.ts), what it was built from and with, and its validations — the
 * cross-validations of its algorithm and parameters on its training data
 * (resources/model-validations.ts), with their headline statistics — and a link to the
 * cross-validation form filled in with its data and parameters.
 */
import { RANDOM_FOREST } from "../../algorithms/global/spec.ts";
import { predictedConfidenceUri, predictedValueUri, type ModelRecord } from "../../resources/model.ts";
import { modelAlgorithmParams, type ValidationSummary } from "../../resources/model-validations.ts";
import { PREDICT } from "../../algorithms/lazar/spec.ts";
import { FORMS_SCRIPT, paramRow, type FormContext } from "./algorithm.ts";
import { predictForm, PREDICT_SCRIPTS } from "./predict.ts";
import { sig3 } from "./prediction.ts";
import { dl, esc, link, page } from "./layout.ts";

/** The features a random forest is grown on, by its `features` parameter. */
const FOREST_FEATURES: Readonly<Record<string, string>> = {
  morgan: "Morgan fingerprint bits (radius 2, 2048 bits)",
  "morgan+descriptors": "Morgan fingerprint bits (radius 2, 2048 bits) and RDKit's 2D descriptors",
  descriptors: "RDKit's 2D descriptors",
};

/** A global model's features and algorithm in words (the kernel model, the random forest). */
function globalModel(m: ModelRecord): { features: string; algorithm: string } {
  const param = (name: string): string => m.parameters.find(([n]) => n === name)?.[1] ?? "";
  if (m.predictionAlgorithm === RANDOM_FOREST) {
    return {
      features: `computed by the model: ${esc(FOREST_FEATURES[param("features")] ?? param("features"))}, ${m.features} of them varying among the training compounds; neighbours and domain by Tanimoto on the Morgan bits`,
      algorithm: `a random forest of ${esc(param("num_trees"))} trees, with conformal p-values from the out-of-bag votes or intervals scaled by the trees' spread`,
    };
  }
  return {
    features: "computed by the model: Morgan (radius 2), atom-pair, RDKit path and MACCS fingerprints (Tanimoto kernels) and RDKit's 2D descriptors (RBF kernel)",
    algorithm: "a support vector machine on the mean of the kernels, with conformal p-values or intervals",
  };
}

/** The query string of the cross-validation form prefilled with this model's data, algorithm and parameters. */
export function crossValidateQuery(m: Pick<ModelRecord, "trainingDataset" | "algorithm" | "endpoint" | "parameters">): string {
  return new URLSearchParams({ dataset_uri: m.trainingDataset, algorithm_uri: m.algorithm, prediction_feature: m.endpoint, algorithm_params: modelAlgorithmParams(m) }).toString();
}

/** The headline statistics of a cross-validation in words (accuracy and AUC, or RMSE and R²; the predicted share; n). */
export function headline(cv: ValidationSummary): string {
  const s = cv.statistics;
  const parts: string[] = [];
  if (s.accuracy !== undefined) parts.push(`accuracy ${sig3(s.accuracy)}`);
  if (s.averageAreaUnderRoc !== undefined) parts.push(`AUC ${sig3(s.averageAreaUnderRoc)}`);
  if (s.rootMeanSquaredError !== undefined) parts.push(`RMSE ${sig3(s.rootMeanSquaredError)}`);
  if (s.rSquare !== undefined) parts.push(`R² ${sig3(s.rSquare)}`);
  if (s.numPredicted !== undefined && s.numInstances !== undefined && s.numInstances > 0) parts.push(`${s.numPredicted} of ${s.numInstances} predicted (${sig3((100 * s.numPredicted) / s.numInstances)} %)`);
  return parts.join(", ");
}

function validationsSection(m: ModelRecord, validations: readonly ValidationSummary[], base: string): string {
  const form = `${base}/validation/crossvalidation?${crossValidateQuery(m)}`;
  const action = `<p>${link(form, "Cross-validate this model")} (the form, filled in with this model's training data, endpoint and parameters).</p>`;
  if (validations.length === 0) return `<section id="validations"><h2>Validations</h2><p>No cross-validation of this model's algorithm and parameters on its training data yet.</p>${action}</section>`;
  const rows = validations
    .map((cv) => `<tr><td>${link(cv.uri, cv.title || cv.uri)}</td><td>${cv.numFolds}</td><td>${esc(headline(cv))}</td><td>${esc(cv.created.slice(0, 19).replace("T", " "))}</td></tr>`)
    .join("");
  return `<section id="validations"><h2>Validations (${validations.length})</h2><p>Cross-validations of the same training data and endpoint with the same prediction algorithm, whose parameters agree with the model's.</p><table><tr><th>Cross-validation</th><th>Folds</th><th>Statistics (pooled)</th><th>Date</th></tr>${rows}</table>${action}</section>`;
}

/** The form that predicts a whole dataset: the dataset as the algorithm forms offer it (a select of the newest, or a URI). */
function predictDatasetForm(m: ModelRecord, forms: FormContext): string {
  const param = PREDICT.parameters.find((p) => p.name === "dataset_uri")!;
  return `<form id="predict-dataset" method="post" action="${esc(m.uri)}"><h3>Or every compound of a dataset</h3><table>${paramRow({ ...param, required: true }, forms, "predict-")}</table><p><button type="submit">Predict the dataset</button></p></form>`;
}

export function modelHtml(m: ModelRecord, base: string, forms: FormContext, validations: readonly ValidationSummary[] = []): string {
  const global = m.featureKind === "fingerprints" ? globalModel(m) : null;
  const box = predictForm({ base, models: [{ uri: m.uri, title: m.title, endpoint: m.endpointTitle, algorithm: m.predictionAlgorithm, created: m.created }] });
  return page(
    m.title,
    `<section id="predict-box"><h2>Predict</h2>${box}` +
      `${predictDatasetForm(m, forms)}</section>` +
      `<section id="model"><h2>The model</h2>` +
      dl([
        ["URI", `<span class="mono">${esc(m.uri)}</span>`],
        ["Endpoint", `${link(m.endpoint, m.endpointTitle)}${m.classes.length > 0 ? ` (classes ${esc(m.classes.join(", "))})` : " (numeric)"}`],
        ["Training dataset", link(m.trainingDataset)],
        ...(global
          ? ([["Features", global.features]] as [string, string][])
          : ([
              ["Feature dataset", link(m.featureDataset)],
              ["Features", `${m.features} (${m.featureKind === "substructure" ? "substructures, weighted Tanimoto" : "descriptors, cosine in the whitened SVD space"})`],
            ] as [string, string][])),
        ["Training compounds", String(m.trainingCompounds)],
        ["Prediction algorithm", esc(m.predictionAlgorithm) + (global ? ` (${global.algorithm})` : "")],
        ...(global ? [] : ([["min_sim", String(m.minSim)]] as [string, string][])),
        ["Parameters", m.parameters.map(([k, v]) => `<code>${esc(k)}</code> = <span class="mono">${esc(v)}</span>`).join("<br>")],
        ["Predicted variables", `${link(predictedValueUri(m.uri), "value")}, ${link(predictedConfidenceUri(m.uri), "confidence")}`],
        ["Created", esc(m.created.toISOString())],
        ["Software", `qsargraph ${esc(m.version)}`],
      ]) +
      `</section>` +
      validationsSection(m, validations, base),
    { base, self: m.uri, formats: ["ttl", "json", "rdf"], scripts: [...PREDICT_SCRIPTS, FORMS_SCRIPT] },
  );
}

/** The page of a model's predicted variable: what its predictions (or confidences) are written under. */
export function predictedFeatureHtml(m: ModelRecord, which: "value" | "confidence", base: string): string {
  const uri = which === "value" ? predictedValueUri(m.uri) : predictedConfidenceUri(m.uri);
  const what =
    which === "value"
      ? `The feature under which ${link(m.uri, m.title)} writes its predictions of ${link(m.endpoint, m.endpointTitle)} (qg:predicts the endpoint)${m.classes.length > 0 ? `: one of the classes ${esc(m.classes.join(", "))}` : ": a number"}.`
      : `The feature under which ${link(m.uri, m.title)} writes the confidence of each prediction of ${esc(m.endpointTitle)}: a number from 0 to 1 (0 when nothing is predicted; docs/lazar-method.md "Confidence").`;
  return page(`${m.endpointTitle}${which === "value" ? " (predicted)" : " confidence"}`, `<p>${what}</p>${dl([["URI", `<span class="mono">${esc(uri)}</span>`], ["Model", link(m.uri, m.title)]])}`, { base, self: uri, formats: ["ttl", "json", "rdf"] });
}
