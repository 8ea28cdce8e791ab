/**
 * The applicability domain of a global model (the kernel model, the random forest): a query is
 * inside when its most similar training compound is at least `threshold` similar, the similarity
 * that all but `DOMAIN_QUANTILE` of the training compounds reach with their own nearest other
 * training compound. Outside, the model still predicts (the conformal p-values or interval say
 * how surely), but the query is less like the training data than nearly every training compound
 * is like the rest. The similarity is the model's own: the mean kernel of the kernel model,
 * Tanimoto on Morgan bits for the forest.
 */
import { nearestTanimoto, type BitRows } from "../../learn/kernels.ts";

export interface Domain {
  readonly threshold: number;
  readonly quantile: number;
}

export const DOMAIN_QUANTILE = 0.05;

/** The domain from each training compound's similarity with its nearest other one. */
export function domainFromNearest(nearest: Float64Array, quantile = DOMAIN_QUANTILE): Domain {
  const sorted = Float64Array.from(nearest).sort();
  return { threshold: sorted.length < 2 ? 0 : sorted[Math.floor(quantile * (sorted.length - 1))]!, quantile };
}

/** The domain from an n × n Gram matrix: each row's largest kernel value with another row, at the quantile. */
export function applicabilityDomain(gram: ArrayLike<number>, n: number, quantile = DOMAIN_QUANTILE): Domain {
  const nearest = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let best = -Infinity;
    for (let j = 0; j < n; j++) if (j !== i && gram[i * n + j]! > best) best = gram[i * n + j]!;
    nearest[i] = best;
  }
  return domainFromNearest(nearest, quantile);
}

/** The domain of fingerprints `r` under Tanimoto (learn/kernels.ts nearestTanimoto: no n × n matrix). */
export function tanimotoDomain(r: BitRows, quantile = DOMAIN_QUANTILE): Domain {
  return domainFromNearest(nearestTanimoto(r), quantile);
}

/** Why a prediction outside the domain is to be read with care. */
export function domainNote(nearest: number, domain: Domain): string {
  const pct = Math.round(100 * (1 - domain.quantile));
  return `outside the applicability domain: the most similar training compound has similarity ${nearest.toFixed(2)}, below ${domain.threshold.toFixed(2)}, which ${pct} % of the training compounds reach with their nearest other training compound; the prediction is given, its p-values or interval say how sure it is`;
}
