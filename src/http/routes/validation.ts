/**
 * /validation, /validation/crossvalidation[/{id}], /validation/report/crossvalidation[/{id}]
 * (docs/cross-validation.md): POST runs a cross-validation (task) or makes a
 * report of one or more (task); GET serves them as RDF, uri-list and HTML (the report page:
 * statistics, confusion matrix, plots as server-rendered SVG, coverage and conformal calibration,
 * per-fold table, every prediction; a report of several compares them first);
 * DELETE removes one (its creator or an admin token, README "Access control").
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import { NotFound } from "../../errors.ts";
import { parseParams } from "../../resources/params.ts";
import { isId } from "../../resources/uris.ts";
import { rdf } from "../../store/vocab.ts";
import { crossValidation, crossValidationReport } from "../../algorithms/crossvalidation/index.ts";
import { crossValidationOf, type StoredCrossValidation } from "../../resources/validation.ts";
import { read } from "../../resources/reads.ts";
import { crossValidationComparisonPage, crossValidationReportBody, REPORT_STYLE, type CrossValidationResult, type PredictionsShown } from "../../validate/index.ts";
import { nextTurn } from "../../threads/turns.ts";
import { requireOwner } from "../auth.ts";
import type { Deps } from "../deps.ts";
import { esc, link, page } from "../html/layout.ts";
import { readParams } from "../request-params.ts";
import { collectionReps, rdfReps, respond, uriList } from "../respond.ts";
import { listPage, NEWEST_FIRST } from "../html/list.ts";
import { VALIDATION_COLUMNS, VALIDATION_LIST, validationListHtml } from "../html/collections.ts";
import { pageNav, readPage, ROWS } from "../paging.ts";
import { storedSource } from "../render-rdf.ts";
import { respondTask } from "./tasks.ts";
import { readFormContext } from "./algorithms.ts";
import { crossValidationForm, reportForm } from "../html/crossvalidation-form.ts";
import { FORMS_SCRIPT } from "../html/algorithm.ts";

/** How many cross-validations the report form offers (the newest). */
const REPORT_FORM_VALIDATIONS = 200;

export function registerValidation(router: Router, deps: Deps): void {
  const { store, vocab, uris, tasks } = deps;
  const cvBase = uris.crossValidations();
  const reportBase = uris.crossValidationReports();
  const members = (prefix: string): string[] => store.graphsWithPrefix(`${prefix}/`).filter((g) => isId(g.slice(prefix.length + 1))).sort();

  /** The HTML list of cross-validations and reports: every member's row in one read, sorted and paged (html/collections.ts). */
  const listHtml = async (ctx: Context, title: string, intro: string, list: readonly string[], self: string): Promise<string> => {
    const rows = (await read(store, vocab, "validationRows", list)).filter((r) => r !== null);
    return validationListHtml(title, intro, listPage(ctx.query, rows, VALIDATION_COLUMNS, NEWEST_FIRST, VALIDATION_LIST), self, vocab.base, [FORMS_SCRIPT]);
  };
  /** The report form (a checkbox per cross-validation, the newest first). */
  const reportFormHtml = async (): Promise<string> => {
    const choices = await read(store, vocab, "crossValidationChoices", members(cvBase), REPORT_FORM_VALIDATIONS);
    return reportForm(reportBase, choices.validations, choices.total);
  };

  router.get("/validation", async (ctx) => {
    const list = [...members(cvBase), ...members(reportBase)];
    await respond(ctx, [
      ...collectionReps(uris.validations(), list, vocab.qg.CrossValidation, deps),
      ["text/html", async () => listHtml(ctx, "Validations", `<p>${link(cvBase, "Run a cross-validation")} (a form), or make a report of those below.</p>${await reportFormHtml()}`, list, uris.validations())],
    ]);
  });

  router.get("/validation/crossvalidation", async (ctx) => {
    const list = members(cvBase);
    await respond(ctx, [
      ...collectionReps(cvBase, list, vocab.qg.CrossValidation, deps),
      ["text/html", async () => listHtml(ctx, "Cross-validations", crossValidationForm(cvBase, await readFormContext(ctx, deps)) + (await reportFormHtml()), list, cvBase)],
    ]);
  });

  router.post("/validation/crossvalidation", async (ctx) => {
    const raw = await readParams(ctx);
    const t = await crossValidation.submit(parseParams(crossValidation.spec, raw), raw, cvBase, deps);
    await respondTask(ctx, t, deps);
  });

  /**
   * The results of the cross-validations looked at last (a stored cross-validation never changes;
   * a deleted one is refused before the cache is asked): reading Kazius's 4,069 predictions from
   * the store takes ≈ 200 ms, its page from here ≈ 20 ms.
   */
  const recent = new Map<string, CrossValidationResult>();
  const RECENT = 8;
  const resultOf = async (uri: string, stored?: StoredCrossValidation): Promise<CrossValidationResult | null> => {
    const cached = recent.get(uri);
    if (cached) {
      recent.delete(uri);
      recent.set(uri, cached);
      return cached;
    }
    const data = stored ?? (await read(store, vocab, "crossValidation", uri));
    if (!data) return null;
    const r = crossValidationOf(uri, data);
    recent.set(uri, r);
    if (recent.size > RECENT) recent.delete(recent.keys().next().value!);
    await nextTurn(); // the statistics in one turn of the event loop, the page in the next
    return r;
  };

  const cvOf = async (ctx: Context): Promise<CrossValidationResult> => {
    const id = String(ctx.params.id);
    const uri = `${cvBase}/${id}`;
    const r = isId(id) && store.has(uri) ? await resultOf(uri) : null;
    if (!r) throw new NotFound(`no cross-validation ${uri}`);
    return r;
  };

  /** A report page lists the predictions a page at a time (all 4,069 of Kazius are ≈ 2.4 MB of HTML and 200 ms to render). */
  const PREDICTIONS = { ...ROWS, defaultSize: 100, items: "predictions" };
  const predictionsPage = (ctx: Context, r: CrossValidationResult): PredictionsShown => {
    const p = readPage(ctx.query, PREDICTIONS, r.predictions.length);
    return { offset: p.offset, count: p.count, nav: pageNav(p, PREDICTIONS) };
  };
  /** In a comparison, each folded report lists its first predictions and links its own page for the rest. */
  const firstPredictions = (uri: string, r: CrossValidationResult): PredictionsShown => {
    const count = Math.min(PREDICTIONS.defaultSize, r.predictions.length);
    const rest = r.predictions.length > count ? ` ${link(uri, "The cross-validation's page")} lists all of them, a page at a time.` : "";
    return { offset: 0, count, nav: `<p class="note">The first ${count} of ${r.predictions.length}.${rest}</p>` };
  };

  /** A cross-validation page's actions: its report as a resource of its own (to keep, cite or share), and a comparison. */
  const reportActions = (cv: string): string =>
    `<form id="make-report" method="post" action="${esc(reportBase)}"><input type="hidden" name="validation_uris" value="${esc(cv)}"><p><button type="submit">Make a report of this cross-validation</button> (a report resource of its own), or ${link(uris.validations(), "compare it with others")} (the report form of the validations).</p></form>`;

  router.get("/validation/crossvalidation/:id", async (ctx) => {
    const r = await cvOf(ctx);
    await respond(ctx, [
      ...rdfReps(() => storedSource(store, r.uri), deps),
      ["text/html", () => page("Cross-validation", reportActions(r.uri) + crossValidationReportBody(r, predictionsPage(ctx, r)), { base: vocab.base, self: r.uri, formats: ["ttl", "json", "rdf"], head: REPORT_STYLE })],
      ["text/uri-list", () => uriList([r.uri])],
    ]);
  });

  router.post("/validation/report/crossvalidation", async (ctx) => {
    const raw = await readParams(ctx);
    // the parameter repeated (the report form's checkboxes) names several, as a list would
    const named = raw.get("validation_uris");
    if (named && named.length > 1) raw.set("validation_uris", [named.join(",")]);
    const t = await crossValidationReport.submit(parseParams(crossValidationReport.spec, raw), raw, reportBase, deps);
    await respondTask(ctx, t, deps);
  });

  // DELETE a cross-validation or a report (its creator or an admin token when tokens are on). A
  // report of a deleted cross-validation says so; nothing else refers to them.
  for (const [path, prefix, what] of [["/validation/crossvalidation/:id", cvBase, "cross-validation"], ["/validation/report/crossvalidation/:id", reportBase, "report"]] as const) {
    router.delete(path, async (ctx) => {
      const id = String(ctx.params.id);
      const uri = `${prefix}/${id}`;
      if (!isId(id) || !store.has(uri)) throw new NotFound(`no ${what} ${uri}`);
      requireOwner(ctx, await read(store, vocab, "creator", uri), uri, "delete");
      await store.commit([{ graph: uri, delete: true }]);
      recent.delete(uri);
      await respond(ctx, [["text/plain", () => `deleted ${uri}\n`], ["text/uri-list", () => uriList([uri])]]);
    });
  }

  router.get("/validation/report/crossvalidation/:id", async (ctx) => {
    const id = String(ctx.params.id);
    const uri = `${reportBase}/${id}`;
    if (!isId(id) || !store.has(uri)) throw new NotFound(`no report ${uri}`);
    const cvs = await read(store, vocab, "reportValidations", uri);
    await respond(ctx, [
      ...rdfReps(() => storedSource(store, uri), deps),
      [
        "text/html",
        async () => {
          // those not looked at lately in one read
          const present = cvs.filter((u) => store.has(u) && !recent.has(u));
          const stored = new Map(present.map((u, i) => [u, i]));
          const found = await read(store, vocab, "crossValidations", present);
          const results: { uri: string; result: CrossValidationResult | null }[] = [];
          for (const u of cvs) {
            const i = stored.get(u);
            const data = i === undefined ? undefined : found[i];
            // one cross-validation's statistics per turn of the event loop (resultOf)
            results.push({ uri: u, result: store.has(u) && data !== null ? await resultOf(u, data) : null });
          }
          const bodies: (string | undefined)[] = [];
          for (const { uri: u, result: r } of results) {
            bodies.push(r ? crossValidationReportBody(r, results.length > 1 ? firstPredictions(u, r) : predictionsPage(ctx, r)) : undefined);
            await nextTurn(); // one report body per turn (Kazius: ≈ 30–50 ms each)
          }
          // several: one page comparing them, each one's own report folded below (docs/cross-validation.md "Comparing cross-validations")
          const body =
            results.length > 1
              ? crossValidationComparisonPage(results, bodies)
              : results.map(({ uri: u, result: r }, i) => (r ? `<h2>${link(u)}</h2>${bodies[i]}` : `<h2>${esc(u)}</h2><p>This cross-validation has been deleted.</p>`)).join("\n");
          return page("Cross-validation report", body, { base: vocab.base, self: uri, formats: ["ttl", "json", "rdf"], head: REPORT_STYLE });
        },
      ],
      ["text/uri-list", () => uriList([uri])],
    ]);
  });
}
