/** HTML of a model (lazar or kernel): what it was built from and with, and forms to predict a compound or a dataset. */
import type { ModelRecord } from "../../resources/model.ts";
import { dl, esc, link, page } from "./layout.ts";

export function modelHtml(m: ModelRecord, base: string): string {
  return page(
    m.title,
    dl([
      ["URI", `<span class="mono">${esc(m.uri)}</span>`],
      ["Endpoint", `${link(m.endpoint, m.endpointTitle)}${m.classes.length > 0 ? ` (classes ${esc(m.classes.join(", "))})` : " (numeric)"}`],
      ["Training dataset", link(m.trainingDataset)],
      ...(m.featureKind === "fingerprints"
        ? ([["Features", "computed by the model: Morgan (radius 2), atom-pair, RDKit path and MACCS fingerprints (Tanimoto kernels) and RDKit's 2D descriptors (RBF kernel)"]] as [string, string][])
        : ([
            ["Feature dataset", link(m.featureDataset)],
            ["Features", `${m.features} (${m.featureKind === "substructure" ? "substructures, weighted Tanimoto" : "descriptors, cosine in the whitened SVD space"})`],
          ] as [string, string][])),
      ["Training compounds", String(m.trainingCompounds)],
      ["Prediction algorithm", esc(m.predictionAlgorithm) + (m.featureKind === "fingerprints" ? " (a support vector machine on the mean of the kernels, with conformal p-values or intervals)" : "")],
      ...(m.featureKind === "fingerprints" ? [] : ([["min_sim", String(m.minSim)]] as [string, string][])),
      ["Parameters", m.parameters.map(([k, v]) => `<code>${esc(k)}</code> = <span class="mono">${esc(v)}</span>`).join("<br>")],
      ["Created", esc(m.created.toISOString())],
      ["Software", `qsargraph ${esc(m.version)}`],
    ]) +
      `<h2>Predict</h2><form method="post" action="${esc(m.uri)}"><p><label>compound_uri <input name="compound_uri" size="80" placeholder="${esc(base)}/compound/InChI=1S/…"></label> <button>Predict</button></p></form>` +
      `<form method="post" action="${esc(m.uri)}"><p><label>dataset_uri <input name="dataset_uri" size="80" placeholder="${esc(base)}/dataset/…"></label> <button>Predict the dataset</button></p></form>`,
    { base, self: m.uri, formats: ["ttl", "json", "rdf"] },
  );
}
