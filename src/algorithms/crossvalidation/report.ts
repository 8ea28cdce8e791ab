/**
 * A report of one or more cross-validations (`POST /validation/report/crossvalidation`): a task
 * that stores the report's graph (resources/validation.ts), which names the cross-validations
 * its page shows.
 */
import type { Algorithm } from "../algorithm.ts";
import { BadRequest } from "../../errors.ts";
import type { AlgorithmSpec } from "../../resources/algorithm.ts";
import { isId, newId } from "../../resources/uris.ts";
import { reportNTriples } from "../../resources/validation.ts";

export const REPORT: AlgorithmSpec = {
  path: "validation/report/crossvalidation",
  aliases: [],
  title: "Cross-validation report",
  description: "A human-readable report of one or more cross-validations.",
  types: [],
  parameters: [{ name: "validation_uris", description: "one or more cross-validations of this service, separated by commas or spaces (or the parameter repeated)", required: true, kind: { type: "text" } }],
};

export const crossValidationReport: Algorithm = {
  spec: REPORT,
  async submit(params, _raw, _uri, { store, uris, vocab, tasks }) {
    const cvBase = uris.crossValidations();
    const list = (params.string("validation_uris") ?? "").split(/[\s,]+/).filter(Boolean);
    if (list.length === 0) throw new BadRequest("parameter 'validation_uris' names no cross-validation", { field: "validation_uris" });
    for (const u of list) {
      if (!u.startsWith(`${cvBase}/`) || !isId(u.slice(cvBase.length + 1)) || !store.has(u)) throw new BadRequest(`parameter 'validation_uris': ${u} is not a cross-validation of this service`, { field: "validation_uris" });
    }
    const report = `${uris.crossValidationReports()}/${newId()}`;
    return tasks.submit("Cross-validation report", "report", async () => ({ ops: [{ graph: report, ntriples: reportNTriples(report, list, vocab) }], resultUri: report }));
  },
};
