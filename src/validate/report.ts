/**
 * The human-readable cross-validation report (docs/cross-validation.md "The report"; its content
 * follows the 2012 validation service's, opentox/validation report_factory.rb
 * `create_report_crossvalidation`), built from a plain {@link CrossValidationResult}: parameters
 * and the pooled-results table, the confusion matrix and per-class table (classification), the SVG
 * plots (ROC and accuracy versus confidence, or predicted versus measured and RMSE versus
 * confidence), accuracy or RMSE versus coverage, the conformal calibration (conformal models
 * only), the per-fold table and a table of every prediction with the compound's depiction
 * (`<compound URI>?format=svg`). Plain HTML with a print stylesheet; no scripts.
 *
 * Every text and URI is escaped; links and images are only emitted for http(s) URIs and
 * root-relative paths, so a hostile URI cannot become a `javascript:` link.
 */
import { COVERAGE_LEVELS, type ConformalCalibration, type Coverage } from "./conformal.ts";
import { accuracyConfidencePlot, calibrationPlot, classificationRocPlot, coveragePlot, errorConfidencePlot, scatterPlot } from "./plots.ts";
import type { ClassificationResult, CrossValidationResult, RegressionResult } from "./result.ts";
import type { ClassificationStatistics, CountStatistics, RegressionStatistics } from "./statistics.ts";
import { PALETTE, xmlEscape as esc } from "./svg.ts";

export const REPORT_TITLE = "Cross-validation report";

/** Report stylesheet (screen and print), to be placed in the page's `<head>`. */
export const REPORT_STYLE = `<style>
.cv-report table{border-collapse:collapse;margin:.5em 0}
.cv-report td,.cv-report th{border:1px solid #ccc;padding:.2em .45em;text-align:left;vertical-align:middle}
.cv-report td.num{text-align:right;font-variant-numeric:tabular-nums}
.cv-report .miss{background:#fde8e8}.cv-report .unpredicted{color:#595959}
.cv-report .plots{display:flex;flex-wrap:wrap;gap:1em}.cv-report figure{margin:0}
.cv-report figcaption{font-size:.85em;color:#555;max-width:480px}
.cv-report img.depiction{width:120px;height:90px;object-fit:contain}
.cv-report .note{font-size:.9em;color:#444}
.cv-report .mono{font-family:ui-monospace,monospace;font-size:.85em;word-break:break-all}
.cv-report .warning{border:1px solid #D55E00;background:#fff3e8;padding:.3em .9em;margin:.5em 0}
.cv-report .small-n{color:#9a3c00;font-size:.85em}
.cv-report table.comparison td,.cv-report table.comparison thead th{max-width:26em}
.cv-report .swatch{display:inline-block;width:.8em;height:.8em;margin-right:.35em;vertical-align:baseline}
${PALETTE.map((c, k) => `.cv-report .swatch-${k}{background:${c}}`).join("\n")}
details.cv-detail{margin:1em 0;border-top:1px solid #ccc;padding-top:.4em}
details.cv-detail>summary{cursor:pointer;font-weight:bold}
@media print{
.cv-report{font-size:10pt}.cv-report a{color:inherit;text-decoration:none}
.cv-report section,.cv-report figure,.cv-report tr{break-inside:avoid}
.cv-report thead{display:table-header-group}
.cv-report img.depiction{width:80px;height:60px}
.cv-report .plots svg{max-width:48%;height:auto}
}
</style>`;

/** True for http(s) URIs and root-relative paths — the only ones made into links or images. */
export function isSafeUri(uri: string): boolean {
  return /^https?:\/\/[^\s<>"']+$/i.test(uri) || /^\/(?!\/)[^\s<>"']*$/.test(uri);
}

export function link(uri: string, text: string = uri): string {
  return isSafeUri(uri) ? `<a href="${esc(uri)}">${esc(text)}</a>` : esc(text);
}

/** The depiction URI of a compound: its URI with `format=svg`. */
export function depictionUri(compound: string): string {
  return `${compound}${compound.includes("?") ? "&" : "?"}format=svg`;
}

export function num(x: number, digits = 3): string {
  return Number.isInteger(x) ? String(x) : x.toFixed(digits);
}

export function td(x: number | string, digits = 3): string {
  return typeof x === "number" ? `<td class="num">${num(x, digits)}</td>` : `<td>${esc(x)}</td>`;
}

export function table(head: readonly string[], rows: readonly string[], cls = ""): string {
  return `<table${cls ? ` class="${cls}"` : ""}><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join("")}</tr></thead><tbody>\n${rows.join("\n")}\n</tbody></table>`;
}

export function figure(svg: string, caption: string): string {
  return `<figure>${svg}<figcaption>${esc(caption)}</figcaption></figure>`;
}

/**
 * The fewest predicted compounds a statistic is shown without a warning: below it, one or two
 * predictions more or less move a figure by several per cent (an accuracy on 12 compounds moves in
 * steps of 8 %), so the report says so next to the figure.
 */
export const MIN_RELIABLE_N = 20;

/** The warning next to a statistic computed on `n` predicted compounds; "" when n is enough. */
export function smallN(n: number): string {
  return n < MIN_RELIABLE_N ? `<span class="small-n">n = ${esc(n)}: too few for a reliable figure</span>` : "";
}

/** A table cell holding the small-n warning (empty when n is enough). */
function smallNCell(n: number): string {
  return `<td>${smallN(n)}</td>`;
}

/** The share of the compounds with a measured value that were predicted, and the warning when it is less than half. */
export function predictedShareWarning(s: CountStatistics): string {
  const measured = s.numInstances - s.numWithoutClass;
  if (measured === 0 || s.numPredicted * 2 >= measured) return "";
  return `<div class="warning"><p><strong>Less than half of the compounds were predicted:</strong> ${esc(s.numPredicted)} of ${esc(measured)} (${esc(num((100 * s.numPredicted) / measured, 1))} %). The statistics describe the predicted compounds only, which the model found similar enough to its training compounds; they say little about the rest.</p></div>`;
}

function parametersSection(r: CrossValidationResult): string {
  const p = r.parameters;
  const rows: [string, string][] = [
    ["cross-validation", link(r.uri)],
    ["algorithm", link(p.algorithmUri)],
    ["algorithm parameters", p.algorithmParams ? `<code>${esc(p.algorithmParams)}</code>` : "(none)"],
    ["dataset", link(p.datasetUri)],
    ["prediction feature", link(p.predictionFeature)],
    ["endpoint", esc(r.type)],
    ["folds", esc(p.numFolds)],
    ["random seed", esc(p.randomSeed)],
    ["stratified", p.stratified ? "yes" : "no"],
  ];
  if (p.confidenceLevel !== undefined) rows.push(["confidence level of the intervals", esc(p.confidenceLevel)]);
  if (r.runtimeMs !== undefined) rows.push(["run time", `${esc((r.runtimeMs / 1000).toFixed(1))} s`]);
  if (r.created) rows.push(["created", esc(r.created)]);
  return `<section id="parameters"><h2>Parameters</h2><table>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${v}</td></tr>`).join("")}</table></section>`;
}

function countRows(s: CountStatistics): [string, number][] {
  return [
    ["instances", s.numInstances],
    ["without measured value", s.numWithoutClass],
    ["unpredicted", s.numUnpredicted],
    ["unpredicted (%)", s.percentUnpredicted],
    ["predicted", s.numPredicted],
  ];
}

/** The counts, then the statistics, each statistic with the small-n warning of `n` predicted compounds. */
function summaryTable(counts: readonly [string, number][], statistics: readonly [string, number][], n: number): string {
  const rows = [...counts.map(([k, v]) => `<tr><th>${esc(k)}</th>${td(v)}<td></td></tr>`), ...statistics.map(([k, v]) => `<tr><th>${esc(k)}</th>${td(v)}${smallNCell(n)}</tr>`)];
  return `<table>${rows.join("")}</table>`;
}

const POOLED_NOTE = `<p class="note">Statistics are computed by pooling the predictions of all folds, not by averaging the statistics of the folds.</p>`;

function classificationSummary(s: ClassificationStatistics): string {
  const rows: [string, number][] = [
    ["accuracy", s.accuracy],
    ["weighted accuracy", s.weightedAccuracy],
    ["average AUC", s.averageAreaUnderRoc],
  ];
  // a class's rates are computed on its own predicted instances (TPR) and the others' (TNR)
  const perClass = table(
    ["class", "instances", "AUC", "F-measure", "TPR", "TNR", "PPV", "NPV", "note"],
    s.classStatistics.map(
      (c) =>
        `<tr>${td(c.classValue)}${td(c.numActual)}${td(c.areaUnderRoc)}${td(c.fMeasure)}${td(c.truePositiveRate)}${td(c.trueNegativeRate)}${td(c.positivePredictiveValue)}${td(c.negativePredictiveValue)}${smallNCell(Math.min(c.numActual, s.numPredicted - c.numActual))}</tr>`,
    ),
    "per-class",
  );
  const empty = s.emptyClasses.length
    ? `<p class="note">Classes without any measured instance: ${s.emptyClasses.map((c) => `<code>${esc(c)}</code>`).join(", ")}.</p>`
    : "";
  return `<section id="summary"><h2>Pooled results</h2>${POOLED_NOTE}${predictedShareWarning(s)}${summaryTable(countRows(s), rows, s.numPredicted)}<h3>Per class</h3>${perClass}${empty}</section>`;
}

function confusionSection(s: ClassificationStatistics): string {
  const value = new Map(s.confusionMatrix.map((c) => [`${c.actual}\u0000${c.predicted}`, c.value]));
  const rows = s.classes.map(
    (a) => `<tr><th>${esc(a)}</th>${s.classes.map((p) => td(value.get(`${a}\u0000${p}`) ?? 0)).join("")}</tr>`,
  );
  return `<section id="confusion-matrix"><h2>Confusion matrix</h2><table class="confusion"><thead><tr><th>actual \\ predicted</th>${s.classes.map((c) => `<th>${esc(c)}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table></section>`;
}

function regressionRows(s: RegressionStatistics): [string, number][] {
  return [
    ["RMSE", s.rootMeanSquaredError],
    ["weighted RMSE", s.weightedRootMeanSquaredError],
    ["MAE", s.meanAbsoluteError],
    ["weighted MAE", s.weightedMeanAbsoluteError],
    ["R²", s.rSquare],
    ["weighted R²", s.weightedRSquare],
    ["Pearson r", s.sampleCorrelationCoefficient],
    ["concordance correlation", s.concordanceCorrelationCoefficient],
  ];
}

function foldHead(r: CrossValidationResult): string[] {
  return r.type === "classification"
    ? ["fold", "instances", "unpredicted", "accuracy", "weighted accuracy", "average AUC", "note"]
    : ["fold", "instances", "unpredicted", "RMSE", "weighted RMSE", "MAE", "R²", "weighted R²", "Pearson r", "CCC", "note"];
}

function foldsSection(r: CrossValidationResult): string {
  const label = (f: number): string => {
    const uri = r.foldUris?.[f];
    return `<td>${uri ? link(uri, `fold ${f + 1}`) : `fold ${f + 1}`}</td>`;
  };
  const rows =
    r.type === "classification"
      ? r.folds.map(
          ({ fold, statistics: s }) =>
            `<tr>${label(fold)}${td(s.numInstances)}${td(s.numUnpredicted)}${td(s.accuracy)}${td(s.weightedAccuracy)}${td(s.averageAreaUnderRoc)}${smallNCell(s.numPredicted)}</tr>`,
        )
      : r.folds.map(
          ({ fold, statistics: s }) =>
            `<tr>${label(fold)}${td(s.numInstances)}${td(s.numUnpredicted)}${regressionRows(s)
              .filter(([k]) => k !== "weighted MAE")
              .map(([, v]) => td(v))
              .join("")}${smallNCell(s.numPredicted)}</tr>`,
        );
  return `<section id="folds"><h2>Per fold</h2>${table(foldHead(r), rows, "folds")}</section>`;
}

/**
 * Which predictions a report page lists (a page of them: Kazius has 4,069, ≈ 2.4 MB of HTML
 * all at once), and `nav`, the HTML that moves between the pages (the caller's paging).
 */
export interface PredictionsShown {
  readonly offset: number;
  readonly count: number;
  readonly nav: string;
}

function predictionsSection(r: CrossValidationResult, shown?: PredictionsShown): string {
  const conformal = r.calibration !== null;
  const head = ["structure", "compound", "measured", "predicted", r.type === "classification" ? "miss" : "error", "confidence", ...(conformal ? [r.type === "classification" ? "p-values" : "interval (p-value of the measured value)"] : []), "fold"];
  const classes = r.type === "classification" ? r.classes : [];
  const conformalCell = (p: CrossValidationResult["predictions"][number]): string => {
    if (!conformal) return "";
    if (p.pValues) return `<td class="num">${p.pValues.map((x, c) => `${esc(classes[c] ?? c)} ${esc(num(x))}`).join("<br>")}</td>`;
    if (p.interval) {
      const b = (x: number): string => (Number.isFinite(x) ? num(x) : x > 0 ? "∞" : "−∞");
      return `<td class="num">[${esc(b(p.interval[0]))}, ${esc(b(p.interval[1]))}]${p.truthPValue === undefined ? "" : ` (${esc(num(p.truthPValue))})`}</td>`;
    }
    return "<td>–</td>";
  };
  const listed = shown ? r.predictions.slice(shown.offset, shown.offset + shown.count) : r.predictions;
  const rows = listed.map((p) => {
    const img = isSafeUri(p.compound)
      ? `<img class="depiction" src="${esc(depictionUri(p.compound))}" alt="structure" loading="lazy">`
      : "";
    let flag = "";
    let cls = "";
    if (p.predicted === null) cls = "unpredicted";
    else if (p.measured !== null) {
      if (r.type === "classification") {
        const miss = p.measured !== p.predicted;
        flag = miss ? "miss" : "";
        cls = miss ? "miss" : "";
      } else flag = num((p.predicted as number) - (p.measured as number));
    }
    const value = (v: string | number | null): string => (v === null ? "<td>–</td>" : td(v));
    return `<tr${cls ? ` class="${cls}"` : ""}><td>${img}</td><td class="mono">${link(p.compound)}</td>${value(p.measured)}${
      p.predicted === null ? "<td>not predicted</td>" : value(p.predicted)
    }<td>${esc(flag)}</td>${p.predicted === null || p.confidence === null ? "<td>–</td>" : td(p.confidence)}${conformalCell(p)}${td(p.fold + 1)}</tr>`;
  });
  const nav = shown?.nav ?? "";
  return `<section id="predictions"><h2>All predictions (${r.predictions.length})</h2>${nav}${table(head, rows, "predictions")}${nav}</section>`;
}

function classificationBody(r: ClassificationResult): string {
  const plots = `<section id="plots"><h2>Plots</h2><div class="plots">${figure(
    classificationRocPlot(r.predictions, r.pooled.classes),
    "ROC curve on the signed confidence (+confidence when the class was predicted, −confidence otherwise), pooled over all folds.",
  )}${figure(
    accuracyConfidencePlot(r.predictions),
    "Accuracy of the predictions whose confidence is at least the threshold, pooled over all folds.",
  )}</div></section>`;
  return classificationSummary(r.pooled) + confusionSection(r.pooled) + plots;
}

function regressionBody(r: RegressionResult): string {
  const summary = `<section id="summary"><h2>Pooled results</h2>${POOLED_NOTE}${predictedShareWarning(r.pooled)}${summaryTable(countRows(r.pooled), regressionRows(r.pooled), r.pooled.numPredicted)}</section>`;
  const plots = `<section id="plots"><h2>Plots</h2><div class="plots">${figure(
    scatterPlot(r.predictions, r.parameters.numFolds),
    "Predicted versus measured values, one colour per fold; the dashed line is the identity.",
  )}${figure(
    errorConfidencePlot(r.predictions),
    "Root mean squared error of the predictions whose confidence is at least the threshold.",
  )}</div></section>`;
  return summary + plots;
}

const pct = (x: number): string => `${num(100 * x, 1)} %`;

/** The coverage table and plot of one cross-validation. */
function coverageSection(c: Coverage): string {
  const metric = c.metric === "accuracy" ? "accuracy" : "RMSE";
  const threshold = c.order === "confidence" ? "lowest confidence kept" : "widest interval kept";
  const order =
    c.order === "confidence"
      ? "the most confident predictions first"
      : "the narrowest conformal intervals first (the model states one confidence, its intervals' level, for all predictions)";
  const grid = (x: number): boolean => COVERAGE_LEVELS.some((l) => Math.abs(l - x) < 1e-12);
  const rows = c.points.map((p) => `<tr>${td(grid(p.coverage) ? pct(p.coverage) : `${pct(p.coverage)} (all predictions)`)}${td(p.n)}${td(pct(p.actualCoverage))}${Number.isFinite(p.threshold) ? td(p.threshold) : td("unbounded")}${td(p.value)}${smallNCell(p.n)}</tr>`);
  const reach = c.points.at(-1)?.actualCoverage ?? 0;
  const missing = reach < 1 ? `<p class="note">Coverages above ${esc(pct(reach))} cannot be reached: the other instances were not predicted.</p>` : "";
  return `<section id="coverage"><h2>${esc(c.metric === "accuracy" ? "Accuracy" : "RMSE")} versus coverage</h2><p class="note">The ${esc(metric)} of the predictions one keeps when keeping only a share of all ${esc(c.total)} instances, ${esc(order)}. Predictions tied with the last one kept are kept too, so the actual coverage can exceed the nominal one.</p>${table(
    ["coverage", "predictions kept", "actual coverage", threshold, metric, "note"],
    rows,
    "coverage",
  )}${missing}<div class="plots">${figure(coveragePlot([{ label: metric, coverage: c }]), `${metric === "RMSE" ? "RMSE" : "Accuracy"} of the kept predictions against the share of all instances they cover.`)}</div></section>`;
}

/** The conformal calibration table and plot of one cross-validation. */
function calibrationSection(c: ConformalCalibration): string {
  const classes = c.type === "classification";
  const head = ["significance ε", "errors", "observed error rate", ...(classes ? ["mean set size", "single-class sets", "empty sets"] : [])];
  const rows = c.points.map(
    (p) =>
      `<tr>${td(p.significance, 2)}${td(p.errors)}${td(p.errorRate)}${classes ? `${td(p.meanSetSize ?? NaN)}${td(p.singleClassRate ?? NaN)}${td(p.emptySetRate ?? NaN)}` : ""}</tr>`,
  );
  const rule = classes
    ? "an instance is an error at ε when its measured class is not in the prediction set {classes whose p-value exceeds ε}"
    : "an instance is an error at ε when the p-value of its measured value is at most ε, i.e. the value lies outside the interval at confidence 1 − ε";
  const intervals =
    !classes && c.meanIntervalWidth !== undefined
      ? `<p class="note">The stored intervals${c.confidenceLevel !== undefined ? ` (confidence level ${esc(c.confidenceLevel)})` : ""}: mean width ${esc(Number.isFinite(c.meanIntervalWidth) ? num(c.meanIntervalWidth) : "unbounded")}, measured values outside them ${esc(pct(c.intervalErrorRate ?? 0))}.</p>`
      : "";
  const few = c.n < MIN_RELIABLE_N ? `<p>${smallN(c.n)}</p>` : "";
  return `<section id="calibration"><h2>Conformal calibration</h2><p class="note">Over the ${esc(c.n)} predicted instances with a conformal p-value: ${esc(rule)}. A valid model's observed error rate is about ε and not above it.</p>${few}${table(head, rows, "calibration")}${intervals}<div class="plots">${figure(
    calibrationPlot([{ label: "observed", calibration: c }]),
    "Observed error rate against the significance; the dashed diagonal is error rate = significance.",
  )}</div></section>`;
}

/** The report body (to be wrapped in the service's page frame, with {@link REPORT_STYLE} in the head); `shown`: a page of the predictions, else all. */
export function crossValidationReportBody(r: CrossValidationResult, shown?: PredictionsShown): string {
  const main = r.type === "classification" ? classificationBody(r) : regressionBody(r);
  const conformal = r.calibration ? calibrationSection(r.calibration) : "";
  return `<div class="cv-report">\n${parametersSection(r)}\n${main}\n${coverageSection(r.coverage)}\n${conformal}\n${foldsSection(r)}\n${predictionsSection(r, shown)}\n</div>`;
}

/** A complete standalone HTML document of the report. */
export function crossValidationReportDocument(r: CrossValidationResult): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(REPORT_TITLE)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
${REPORT_STYLE}</head>
<body><h1>${esc(REPORT_TITLE)}</h1>
${crossValidationReportBody(r)}
</body></html>`;
}
