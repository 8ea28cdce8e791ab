/**
 * The cross-validation form (`GET /validation/crossvalidation` as HTML; generated from the
 * cross-validation's AlgorithmSpec with the widgets of html/algorithm.ts, filled from the query
 * string: a model page links `?dataset_uri=…&algorithm_uri=…&prediction_feature=…&algorithm_params=…`)
 * and the report form (`POST /validation/report/crossvalidation`: a checkbox per cross-validation,
 * the newest first; several make a comparison).
 */
import { CROSSVALIDATION } from "../../algorithms/crossvalidation/spec.ts";
import type { CrossValidationChoice } from "../../resources/form-choices.ts";
import { paramsForm, type FormContext } from "./algorithm.ts";
import { esc, link } from "./layout.ts";

/** The form that runs a cross-validation (posts to `action`, the cross-validations' collection). */
export function crossValidationForm(action: string, ctx: FormContext): string {
  return `<section id="crossvalidation-form"><h2>Run a cross-validation</h2><p>Folds by unique compound; the model is built in each training fold with the parameters given in <code>algorithm_params</code> (empty: the default model) and predicts the fold left out. It runs as a task: this page then follows it and opens the result.</p>${paramsForm(CROSSVALIDATION.parameters, action, ctx, "Cross-validate", "cv-", false)}</section>`;
}

/** A cross-validation's label in the report form: title, date, prediction algorithm or parameters, folds. */
export function crossValidationLabel(c: CrossValidationChoice): string {
  const how = c.predictionAlgorithm || c.algorithmParams || "default parameters";
  return `${c.title || c.uri} — ${how}, ${c.numFolds} folds${c.created ? `, ${c.created.slice(0, 10)}` : ""}`;
}

/**
 * The form that makes a report of the chosen cross-validations (`action`: the reports'
 * collection); `total` is how many there are (the form shows the newest).
 */
export function reportForm(action: string, validations: readonly CrossValidationChoice[], total: number): string {
  if (validations.length === 0) return `<section id="report-form"><h2>Make a report</h2><p>There is no cross-validation yet: run one first.</p></section>`;
  const more = total > validations.length ? ` (the ${validations.length} newest of ${total})` : "";
  const boxes = validations
    .map((c, i) => `<li><input type="checkbox" id="report-cv-${i}" name="validation_uris" value="${esc(c.uri)}"${i === 0 ? " checked" : ""}> <label for="report-cv-${i}">${esc(crossValidationLabel(c))}</label> ${link(c.uri, "open")}</li>`)
    .join("");
  return `<section id="report-form"><h2>Make a report</h2><form method="post" action="${esc(action)}" data-form="report"><fieldset><legend>Cross-validations to report on${esc(more)} — one gives its report, several a comparison (comparable when they share dataset, folds and seed)</legend><ul>${boxes}</ul></fieldset><p><button type="submit">Make the report</button></p></form></section>`;
}
