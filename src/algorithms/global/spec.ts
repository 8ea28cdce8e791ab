/**
 * What the global models of `POST /algorithm/qsar` (prediction_algorithm=kernel_svm, the default,
 * and random_forest) check alike: lazar's parameters do not apply to them (they compute their own
 * features and use every training compound), neither do the other global model's own parameters,
 * and they need two classes or a number and at least GLOBAL_MIN_COMPOUNDS training compounds.
 */
import { BadRequest } from "../../errors.ts";

/** The global models' names as values of `prediction_algorithm`. */
export const KERNEL_SVM = "kernel_svm";
export const RANDOM_FOREST = "random_forest";

/** The confidence level of regression intervals unless `confidence_level` says otherwise. */
export const DEFAULT_CONFIDENCE_LEVEL = 0.8;

/** The fewest training compounds a global model is built from (its calibration needs them). */
export const GLOBAL_MIN_COMPOUNDS = 10;

/**
 * The most training compounds each global model is built from: the kernel model holds the n × n
 * kernel matrix and libsvm a copy of each training fold's (≈ 20 bytes per entry: ≈ 1.3 GB at
 * 8,000); the forest ranks its rows in 15 bits (learn/forest.ts).
 */
export const GLOBAL_MAX_COMPOUNDS: Readonly<Record<string, number>> = { [KERNEL_SVM]: 8000, [RANDOM_FOREST]: 32767 };

/** Parameters of /algorithm/qsar that configure lazar only. */
export const LAZAR_ONLY = ["feature_dataset_uri", "feature_generation_uri", "min_sim", "min_train_performance", "nr_hits", "min_frequency", "max_visited", "feature_type", "backbone", "min_chisq_significance", "pc_type", "lib"];

/** Parameters of /algorithm/qsar that apply to some global models only: name → the prediction algorithms they apply to. */
export const GLOBAL_ONLY: Readonly<Record<string, readonly string[]>> = {
  confidence_level: [KERNEL_SVM, RANDOM_FOREST],
  num_trees: [RANDOM_FOREST],
  features: [RANDOM_FOREST],
};

/** The first parameter given in `raw` that does not apply to prediction algorithm `algorithm` (a global model's or lazar's), and the algorithms it applies to. */
export function notApplying(raw: ReadonlyMap<string, readonly string[]>, algorithm: string): { name: string; to: readonly string[] } | undefined {
  for (const [name, to] of Object.entries(GLOBAL_ONLY)) if (raw.has(name) && !to.includes(algorithm)) return { name, to };
  return undefined;
}

/** A 400 naming the parameter that applies to other prediction algorithms only. */
export function refuseNotApplying(raw: ReadonlyMap<string, readonly string[]>, algorithm: string): void {
  const wrong = notApplying(raw, algorithm);
  if (wrong) throw new BadRequest(`parameter '${wrong.name}' applies to prediction_algorithm=${wrong.to.join(" or ")} only`, { field: wrong.name });
}

/**
 * The checks of a global model's request (`algorithm` its prediction_algorithm, `title` how the
 * messages name it): a 400 naming the parameter or dataset at fault.
 */
export function checkGlobalRequest(raw: ReadonlyMap<string, readonly string[]>, algorithm: string, title: string, classes: readonly string[], trainingCompounds: number): void {
  const wrong = LAZAR_ONLY.find((n) => raw.has(n));
  if (wrong !== undefined) throw new BadRequest(`parameter '${wrong}' configures lazar's features or neighbours; prediction_algorithm=${algorithm} computes its own fingerprints and descriptors and uses every training compound`, { field: wrong });
  refuseNotApplying(raw, algorithm);
  if (classes.length === 1) throw new BadRequest("the endpoint has a single class: there is nothing to predict", { field: "prediction_feature" });
  const max = GLOBAL_MAX_COMPOUNDS[algorithm] ?? Infinity;
  if (trainingCompounds > max) {
    throw new BadRequest(
      `the dataset has ${trainingCompounds} compounds with a value of the endpoint; ${title} is built from at most ${max}${algorithm === KERNEL_SVM ? " (prediction_algorithm=random_forest takes up to 32767)" : ""}. Use a part of the data, or lazar's read-across`,
      { field: "dataset_uri" },
    );
  }
  if (trainingCompounds < GLOBAL_MIN_COMPOUNDS) {
    throw new BadRequest(
      `the dataset has ${trainingCompounds} compounds with a value of the endpoint; ${title} needs at least ${GLOBAL_MIN_COMPOUNDS}. For fewer, give lazar's features yourself (feature_dataset_uri) or add compounds`,
      { field: "dataset_uri" },
    );
  }
}
