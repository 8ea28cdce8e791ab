/**
 * The comparison of several cross-validations on one page (docs/cross-validation.md "Comparing
 * cross-validations"): a table with one column per cross-validation (algorithm and parameters,
 * dataset, endpoint, folds and seed, instances predicted, accuracy and AUC or RMSE and R²,
 * conformal error rates at ε = 0.1 and 0.2 and the efficiency at 0.2, run time), overlaid plots
 * (ROC, accuracy or RMSE versus coverage, conformal calibration; one line per cross-validation,
 * in the same colour in every plot, with a legend), and a warning when they are not comparable:
 * only cross-validations of the same dataset and endpoint with the same number of folds, seed and
 * stratification have the same folds, so that their figures differ by the algorithm alone.
 */
import { calibrationAt } from "./conformal.ts";
import { rocCurve } from "./curves.ts";
import { calibrationPlot, coveragePlot, rocClasses, rocPlot } from "./plots.ts";
import { crossValidationReportBody, figure, link, MIN_RELIABLE_N, num, smallN } from "./report.ts";
import type { ClassificationResult, CrossValidationResult, RegressionResult } from "./result.ts";
import { PALETTE, xmlEscape as esc } from "./svg.ts";

/**
 * The cross-validated prediction algorithm: as recorded, else as named in the `name=value;…`
 * parameters, else "lazar" (the default when cross-validations did not record it).
 */
export function algorithmName(p: Pick<CrossValidationResult["parameters"], "algorithmParams" | "predictionAlgorithm">): string {
  if (p.predictionAlgorithm !== undefined) return p.predictionAlgorithm;
  for (const part of p.algorithmParams.split(";")) {
    const [k, ...v] = part.split("=");
    if (k?.trim() === "prediction_algorithm" && v.length > 0) return v.join("=").trim();
  }
  return "lazar";
}

/** Short names of the prediction algorithms for legends (at most 11 characters: a legend shows 14 with the number). */
const SHORT_NAMES: Readonly<Record<string, string>> = {
  kernel_svm: "kernel SVM",
  random_forest: "forest",
  weighted_majority_vote: "lazar WMV",
  local_svm_classification: "lazar SVM",
  local_svm_regression: "lazar SVR",
  weighted_average: "lazar w.avg",
};

/** The short name of the k-th (0-based) cross-validation of a comparison: its number and algorithm. */
export function comparisonLabel(r: CrossValidationResult, k: number): string {
  const name = algorithmName(r.parameters);
  return `${k + 1}: ${SHORT_NAMES[name] ?? name}`;
}

/**
 * Why the cross-validations are not comparable with the first one (empty: comparable): another
 * kind of endpoint, dataset, endpoint feature, number of folds, seed or stratification.
 */
export function comparabilityProblems(results: readonly CrossValidationResult[]): string[] {
  const first = results[0];
  if (!first) return [];
  const out: string[] = [];
  results.slice(1).forEach((r, i) => {
    const name = `cross-validation ${i + 2}`;
    const a = first.parameters;
    const b = r.parameters;
    if (r.type !== first.type) out.push(`${name} is a ${r.type}, cross-validation 1 a ${first.type}`);
    if (b.datasetUri !== a.datasetUri) out.push(`${name} uses another dataset (${b.datasetUri}) than cross-validation 1 (${a.datasetUri})`);
    if (b.predictionFeature !== a.predictionFeature) out.push(`${name} predicts another endpoint (${b.predictionFeature}) than cross-validation 1 (${a.predictionFeature})`);
    if (b.numFolds !== a.numFolds) out.push(`${name} has ${b.numFolds} folds, cross-validation 1 ${a.numFolds}`);
    if (b.randomSeed !== a.randomSeed) out.push(`${name} has seed ${b.randomSeed}, cross-validation 1 seed ${a.randomSeed}`);
    if (b.stratified !== a.stratified) out.push(`${name} is ${b.stratified ? "" : "not "}stratified, cross-validation 1 is ${a.stratified ? "" : "not "}`);
  });
  return out;
}

/** A cell: a number, or a dash when there is none; computed on `n` predicted compounds, with the small-n warning (report.ts). */
function cell(x: number | undefined, digits = 3, n = MIN_RELIABLE_N): string {
  return x === undefined || !Number.isFinite(x) ? "<td>–</td>" : `<td class="num">${esc(num(x, digits))}${n < MIN_RELIABLE_N ? `<br>${smallN(n)}` : ""}</td>`;
}

function errorCell(r: CrossValidationResult, significance: number): string {
  const p = calibrationAt(r.calibration, significance);
  const n = r.calibration?.n ?? 0;
  return p === undefined ? `<td class="note">not conformal</td>` : `<td class="num">${esc(num(p.errorRate))} <span class="note">(${esc(p.errors)} of ${esc(n)})</span>${n < MIN_RELIABLE_N ? `<br>${smallN(n)}` : ""}</td>`;
}

/** The comparison table: one row per figure, one column per cross-validation. */
function comparisonTable(results: readonly CrossValidationResult[]): string {
  const cls = (r: CrossValidationResult): ClassificationResult | undefined => (r.type === "classification" ? r : undefined);
  const reg = (r: CrossValidationResult): RegressionResult | undefined => (r.type === "regression" ? r : undefined);
  const rows: [string, (r: CrossValidationResult) => string][] = [
    ["cross-validation", (r) => `<td class="mono">${link(r.uri)}</td>`],
    ["algorithm", (r) => `<td>${link(r.parameters.algorithmUri)}</td>`],
    ["algorithm parameters", (r) => `<td>${r.parameters.algorithmParams ? `<code>${esc(r.parameters.algorithmParams)}</code>` : "(defaults)"}</td>`],
    ["dataset", (r) => `<td class="mono">${link(r.parameters.datasetUri)}</td>`],
    ["endpoint", (r) => `<td class="mono">${link(r.parameters.predictionFeature)}</td>`],
    ["folds / seed / stratified", (r) => `<td>${esc(r.parameters.numFolds)} / ${esc(r.parameters.randomSeed)} / ${r.parameters.stratified ? "yes" : "no"}</td>`],
    ["instances", (r) => cell(r.pooled.numInstances)],
    ["predicted", (r) => `<td class="num">${esc(r.pooled.numPredicted)} (${esc(num(100 - r.pooled.percentUnpredicted, 1))} %)${2 * r.pooled.numPredicted < r.pooled.numInstances - r.pooled.numWithoutClass ? `<br><span class="small-n">less than half predicted</span>` : ""}</td>`],
  ];
  if (results.some(cls)) {
    rows.push(["accuracy", (r) => cell(cls(r)?.pooled.accuracy, 3, r.pooled.numPredicted)], ["average AUC", (r) => cell(cls(r)?.pooled.averageAreaUnderRoc, 3, r.pooled.numPredicted)]);
  }
  if (results.some(reg)) {
    rows.push(["RMSE", (r) => cell(reg(r)?.pooled.rootMeanSquaredError, 3, r.pooled.numPredicted)], ["R²", (r) => cell(reg(r)?.pooled.rSquare, 3, r.pooled.numPredicted)]);
  }
  const pointAt = (r: CrossValidationResult, coverage: number) => r.coverage.points.find((p) => Math.abs(p.coverage - coverage) < 1e-9);
  const metric = results.every(cls) ? "accuracy" : results.some(cls) ? "accuracy / RMSE" : "RMSE";
  rows.push(
    [`${metric} at 50 % coverage`, (r) => cell(pointAt(r, 0.5)?.value, 3, pointAt(r, 0.5)?.n)],
    ["conformal error rate at ε = 0.1", (r) => errorCell(r, 0.1)],
    ["conformal error rate at ε = 0.2", (r) => errorCell(r, 0.2)],
    [
      "efficiency at ε = 0.2",
      (r) => {
        const c = r.calibration;
        if (!c) return "<td>–</td>";
        if (c.type === "classification") return `<td>${esc(num(calibrationAt(c, 0.2)?.singleClassRate ?? NaN))} single-class sets</td>`;
        const w = c.meanIntervalWidth;
        return `<td>mean interval width ${esc(w === undefined ? "–" : Number.isFinite(w) ? num(w) : "unbounded")}${c.confidenceLevel !== undefined ? ` (level ${esc(c.confidenceLevel)})` : ""}</td>`;
      },
    ],
    ["run time", (r) => (r.runtimeMs === undefined ? "<td>–</td>" : `<td class="num">${esc((r.runtimeMs / 1000).toFixed(1))} s</td>`)],
  );
  const head = results.map((r, k) => `<th><span class="swatch swatch-${k % PALETTE.length}"></span>${esc(comparisonLabel(r, k))}</th>`).join("");
  return `<table class="comparison"><thead><tr><th></th>${head}</tr></thead><tbody>\n${rows.map(([name, f]) => `<tr><th>${esc(name)}</th>${results.map(f).join("")}</tr>`).join("\n")}\n</tbody></table>`;
}

/** The comparison of `results` (in this order; the first is the reference of the comparability check). */
export function crossValidationComparisonBody(results: readonly CrossValidationResult[]): string {
  const colors = results.map((_, k) => PALETTE[k % PALETTE.length]!);
  const lines = results.map((r, k) => ({ r, label: comparisonLabel(r, k), color: colors[k]! }));
  const problems = comparabilityProblems(results);
  const verdict =
    problems.length > 0
      ? `<div class="warning"><p><strong>Not comparable:</strong> these cross-validations do not share their folds, so their figures differ by more than the algorithm.</p><ul>${problems.map((p) => `<li>${esc(p)}</li>`).join("")}</ul></div>`
      : `<p class="note">All use the same dataset, endpoint, number of folds, seed and stratification, so they share their folds: their figures differ by the algorithm alone.</p>`;
  const figures: string[] = [];
  const classifications = lines.filter((l): l is typeof l & { r: ClassificationResult } => l.r.type === "classification");
  const regressions = lines.filter((l) => l.r.type === "regression");
  if (classifications.length > 0) {
    const c = rocClasses(classifications[0]!.r.pooled.classes)[0]!;
    figures.push(
      figure(
        rocPlot(classifications.map((l) => ({ label: l.label, color: l.color, points: rocCurve(l.r.predictions, c) })), `ROC curve of class ${c}`, { legend: true }),
        `ROC curves of class “${c}” on the signed confidence, one line per cross-validation.`,
      ),
      figure(coveragePlot(classifications.map((l) => ({ label: l.label, color: l.color, coverage: l.r.coverage })), { legend: true }), "Accuracy of the most confident predictions against the share of all instances they cover."),
    );
  }
  if (regressions.length > 0) {
    figures.push(figure(coveragePlot(regressions.map((l) => ({ label: l.label, color: l.color, coverage: l.r.coverage })), { legend: true }), "RMSE of the most confident predictions against the share of all instances they cover."));
  }
  const conformal = lines.filter((l) => l.r.calibration !== null);
  figures.push(
    figure(
      calibrationPlot(conformal.map((l) => ({ label: l.label, color: l.color, calibration: l.r.calibration! })), { legend: true }),
      conformal.length > 0
        ? "Observed error rate of the conformal prediction sets or intervals against the significance; the dashed diagonal is error rate = significance. Models without p-values have no line."
        : "None of these cross-validations has conformal p-values.",
    ),
  );
  return `<div class="cv-report cv-comparison">\n<section id="comparison"><h2>Comparison of ${esc(results.length)} cross-validations</h2>${verdict}${comparisonTable(results)}</section>\n<section id="comparison-plots"><h2>Plots</h2><div class="plots">${figures.join("")}</div></section>\n</div>`;
}

/**
 * The page of a report of several cross-validations: the comparison of those still stored, then
 * each one's own report, folded (`<details>`; no script), and a note for each deleted one.
 * `bodies[i]`, when given, is item i's report body already rendered (crossValidationReportBody:
 * a caller on the main thread renders them one per turn of the event loop).
 */
export function crossValidationComparisonPage(items: readonly { readonly uri: string; readonly result: CrossValidationResult | null }[], bodies: readonly (string | undefined)[] = []): string {
  const present = items.flatMap((i) => (i.result ? [i.result] : []));
  const comparison = present.length > 0 ? crossValidationComparisonBody(present) : "";
  let k = 0;
  const details = items.map((i, n) => {
    if (!i.result) return `<section class="cv-deleted"><h2>${esc(i.uri)}</h2><p>This cross-validation has been deleted.</p></section>`;
    const label = comparisonLabel(i.result, k++);
    return `<details class="cv-detail"><summary>Cross-validation ${esc(label)} in full: ${esc(i.uri)}</summary>\n${bodies[n] ?? crossValidationReportBody(i.result)}\n</details>`;
  });
  return `${comparison}\n${details.join("\n")}`;
}
