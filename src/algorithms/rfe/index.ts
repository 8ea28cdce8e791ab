/** Recursive feature elimination as an algorithm. */
import type { Algorithm } from "../algorithm.ts";
import { newId } from "../../resources/uris.ts";
import { rfeOperation } from "./operation.ts";
import { RFE, rfeRequest } from "./spec.ts";

export const rfe: Algorithm = {
  spec: RFE,
  async submit(params, _raw, uri, { store, uris, vocab, tasks }) {
    const request = await rfeRequest(params, store, uris, vocab);
    return tasks.submit(request.title, "feature selection", rfeOperation(request, uris.dataset(newId()), uri, vocab.base));
  },
};
