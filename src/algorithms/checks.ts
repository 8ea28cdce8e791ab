/**
 * Checks shared by the operations that take a dataset as a parameter (miners, descriptors,
 * models, predictions, feature selection): a URI given as a parameter must name a resource of
 * this service, else 400 naming the parameter; nothing is ever fetched from another server
 * (docs/opentox-api.md "Resources and URIs").
 */
import { BadRequest } from "../errors.ts";
import type { Uris } from "../resources/uris.ts";
import type { StoreBackend } from "../store/backend.ts";

/** `uri` must be an existing dataset of this service; else a 400 for parameter `field`. */
export function requireDataset(uri: string, field: string, store: StoreBackend, uris: Uris): void {
  if (uris.idOf("dataset", uri) === null || !store.has(uri)) throw new BadRequest(`parameter '${field}': ${uri} is not a dataset of this service`, { field });
}
