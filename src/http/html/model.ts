/** HTML of a model (lazar, the kernel model or the random forest): what it was built from and with, and forms to predict a compound or a dataset. */
import { RANDOM_FOREST } from "../../algorithms/global/spec.ts";
import type { ModelRecord } from "../../resources/model.ts";
import { dl, esc, link, page } from "./layout.ts";

/** The features a random forest is grown on, by its `features` parameter. */
const FOREST_FEATURES: Readonly<Record<string, string>> = {
  morgan: "Morgan fingerprint bits (radius 2, 2048 bits)",
  "morgan+descriptors": "Morgan fingerprint bits (radius 2, 2048 bits) and RDKit's 2D descriptors",
  descriptors: "RDKit's 2D descriptors",
};

/** A global model's features and algorithm in words (the kernel model, the random forest). */
function globalModel(m: ModelRecord): { features: string; algorithm: string } {
  const param = (name: string): string => m.parameters.find(([n]) => n === name)?.[1] ?? "";
  if (m.predictionAlgorithm === RANDOM_FOREST) {
    return {
      features: `computed by the model: ${esc(FOREST_FEATURES[param("features")] ?? param("features"))}, ${m.features} of them varying among the training compounds; neighbours and domain by Tanimoto on the Morgan bits`,
      algorithm: `a random forest of ${esc(param("num_trees"))} trees, with conformal p-values from the out-of-bag votes or intervals scaled by the trees' spread`,
    };
  }
  return {
    features: "computed by the model: Morgan (radius 2), atom-pair, RDKit path and MACCS fingerprints (Tanimoto kernels) and RDKit's 2D descriptors (RBF kernel)",
    algorithm: "a support vector machine on the mean of the kernels, with conformal p-values or intervals",
  };
}

export function modelHtml(m: ModelRecord, base: string): string {
  const global = m.featureKind === "fingerprints" ? globalModel(m) : null;
  return page(
    m.title,
    dl([
      ["URI", `<span class="mono">${esc(m.uri)}</span>`],
      ["Endpoint", `${link(m.endpoint, m.endpointTitle)}${m.classes.length > 0 ? ` (classes ${esc(m.classes.join(", "))})` : " (numeric)"}`],
      ["Training dataset", link(m.trainingDataset)],
      ...(global
        ? ([["Features", global.features]] as [string, string][])
        : ([
            ["Feature dataset", link(m.featureDataset)],
            ["Features", `${m.features} (${m.featureKind === "substructure" ? "substructures, weighted Tanimoto" : "descriptors, cosine in the whitened SVD space"})`],
          ] as [string, string][])),
      ["Training compounds", String(m.trainingCompounds)],
      ["Prediction algorithm", esc(m.predictionAlgorithm) + (global ? ` (${global.algorithm})` : "")],
      ...(global ? [] : ([["min_sim", String(m.minSim)]] as [string, string][])),
      ["Parameters", m.parameters.map(([k, v]) => `<code>${esc(k)}</code> = <span class="mono">${esc(v)}</span>`).join("<br>")],
      ["Created", esc(m.created.toISOString())],
      ["Software", `qsargraph ${esc(m.version)}`],
    ]) +
      `<h2>Predict</h2><form method="post" action="${esc(m.uri)}"><p><label>compound_uri <input name="compound_uri" size="80" placeholder="${esc(base)}/compound/InChI=1S/…"></label> <button>Predict</button></p></form>` +
      `<form method="post" action="${esc(m.uri)}"><p><label>dataset_uri <input name="dataset_uri" size="80" placeholder="${esc(base)}/dataset/…"></label> <button>Predict the dataset</button></p></form>`,
    { base, self: m.uri, formats: ["ttl", "json", "rdf"] },
  );
}
