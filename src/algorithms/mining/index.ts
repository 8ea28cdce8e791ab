/** The substructure miners, BBRC and LAST-PM, as algorithms: one object each. */
import type { Algorithm } from "../algorithm.ts";
import { newId } from "../../resources/uris.ts";
import type { AlgorithmSpec } from "../../resources/algorithm.ts";
import { mineOperation } from "./operation.ts";
import { BBRC, LAST, miningRequest } from "./spec.ts";

function miner(spec: AlgorithmSpec): Algorithm {
  return {
    spec,
    async submit(params, _raw, _uri, { store, uris, vocab, tasks }) {
      const request = await miningRequest(spec, params, store, uris, vocab);
      return tasks.submit(request.title, `${spec.title} mining`, mineOperation(store, vocab, request, uris.dataset(newId())));
    },
  };
}

export const bbrc: Algorithm = miner(BBRC);
export const last: Algorithm = miner(LAST);
