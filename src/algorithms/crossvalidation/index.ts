/** k-fold cross-validation of lazar as an algorithm (`POST /validation/crossvalidation`). */
import type { Algorithm } from "../algorithm.ts";
import { newId } from "../../resources/uris.ts";
import { crossValidationOperation } from "./operation.ts";
import { CROSSVALIDATION, crossValidationRequest } from "./spec.ts";

export const crossValidation: Algorithm = {
  spec: CROSSVALIDATION,
  async submit(params, _raw, _uri, { store, uris, vocab, tasks }) {
    const request = await crossValidationRequest(params, params.string("algorithm_params") ?? "", store, uris, vocab);
    const cv = `${uris.crossValidations()}/${newId()}`;
    return tasks.submit(request.title, "cross-validation", crossValidationOperation(request, cv, vocab));
  },
};

export { crossValidationReport } from "./report.ts";
