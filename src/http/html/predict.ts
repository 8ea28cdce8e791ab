/**
 * The predict box of the home page and of each model page (README "Predicting"): a text area for
 * structures (one SMILES, InChI, InChIKey or known name a line), a CSV or SD file for a batch, and on a page
 * that offers several models a choice of model. It posts to the model (POST /model/{id}) or, with
 * the choice, to POST /model with `model_uri`; a browser is sent on (303) to the prediction or its
 * task. Without scripts the form works as it is; the page's script `depict-live`
 * (html/scripts/depict-live.ts, PREDICT_SCRIPTS) draws the first structure as it is typed.
 */
import { esc } from "./layout.ts";

/** A model the box may predict with; the label shows what is given of title, endpoint, algorithm and date. */
export interface PredictModel {
  readonly uri: string;
  readonly title: string;
  readonly endpoint?: string;
  readonly algorithm?: string;
  readonly created?: Date | string;
}

export interface PredictFormOptions {
  readonly base: string;
  /** The model the box predicts with (a model page), or the models to choose from (the home page; newest first). */
  readonly models: readonly PredictModel[];
}

/** The scripts a page with the predict box names in its PageOptions.scripts (html/scripts.ts). */
export const PREDICT_SCRIPTS: readonly string[] = ["depict-live.js"];

/** A model's label in the choice: title, endpoint, algorithm, date (what is given of them). */
export function modelLabel(m: PredictModel): string {
  const date = m.created === undefined ? "" : (typeof m.created === "string" ? m.created : m.created.toISOString()).slice(0, 10);
  const parts = [m.endpoint, m.algorithm, date].filter((x): x is string => x !== undefined && x !== "" && x !== m.title);
  return parts.length > 0 ? `${m.title} (${parts.join(", ")})` : m.title;
}

export function predictForm(o: PredictFormOptions): string {
  if (o.models.length === 0) return "";
  const choose = o.models.length > 1;
  const action = choose ? `${o.base}/model` : o.models[0]!.uri;
  const select = choose
    ? `<p><label for="predict-model">Model</label> <select id="predict-model" name="model_uri" required>${o.models.map((m) => `<option value="${esc(m.uri)}">${esc(modelLabel(m))}</option>`).join("")}</select></p>`
    : "";
  return (
    `<form id="predict" method="post" action="${esc(action)}" enctype="multipart/form-data">${select}` +
    `<p><label for="predict-structure">Structure: a SMILES, standard InChI, InChIKey or a name the service knows, one a line (several lines are predicted together)</label><br>` +
    `<textarea id="predict-structure" name="structure" rows="3" cols="70" spellcheck="false" autocomplete="off" autocapitalize="off" placeholder="c1ccccc1NN" data-depiction="${esc(o.base)}/depiction" aria-describedby="predict-drawing"></textarea></p>` +
    `<div id="predict-drawing" class="drawing" aria-live="polite"></div>` +
    `<p><label for="predict-file">Or a CSV or SD file of structures</label> <input type="file" id="predict-file" name="file" accept=".csv,.tsv,.txt,text/csv,.sdf,.sd,.mol,chemical/x-mdl-sdfile"></p>` +
    `<p><button type="submit">Predict</button></p></form>`
  );
}
