/**
 * The predict box of the home page and of each model page (a first version: a compound URI;
 * the SMILES box with live depiction replaces it).
 */
import { esc } from "./layout.ts";

export interface PredictFormOptions {
  readonly base: string;
  /** The model the box predicts with (a model page), or the models to choose from (the home page; newest first). */
  readonly models: readonly { readonly uri: string; readonly title: string }[];
}

export function predictForm(o: PredictFormOptions): string {
  if (o.models.length === 0) return "";
  const choose = o.models.length === 1 ? "" : "";
  return `<form id="predict" method="post" action="${esc(o.models[0]!.uri)}">${choose}<p><label>compound_uri <input name="compound_uri" size="80"></label> <button>Predict</button></p></form>`;
}
