/**
 * lazar's substructure featurisation, in one place for every path that makes or uses
 * substructure features: the miner's feature dataset (mining/job.ts writes each compound's hits
 * as its values), a stored model's training data (model-data.ts reads those values back), a
 * query's features (job.ts, model.predict) and a cross-validation fold, which mines its training
 * part and predicts its test part without storing anything (crossvalidation/job.ts). So a fold
 * builds exactly the vectors a model built from the same rows has.
 *
 * A compound's hits: the features it has (the miner's own occurrences for a training compound,
 * the SMARTS matched for a query) and, with nr_hits, how often each occurs (embeddings counted as
 * fminer counts them, chem/smarts/), else 1. Its fingerprint (learn/fingerprint.ts
 * `weightedFingerprint`): per feature the weight (its p-value), or hits × weight with nr_hits;
 * features with no hits or no weight are left out.
 */
import { weightedFingerprint, type FeatureHits, type SparseFingerprint } from "../../learn/index.ts";
import { QuerySet } from "../../chem/smarts/index.ts";
import type { OrderedCompounds } from "../../mining/order.ts";
import type { Found } from "../mining/job.ts";

/** The miner's features, each once (the first of equal SMARTS), in the miner's order. */
export function distinctFeatures(found: readonly Found[]): Found[] {
  const seen = new Set<string>();
  const out: Found[] = [];
  for (const f of found) {
    if (seen.has(f.smarts)) continue;
    seen.add(f.smarts);
    out.push(f);
  }
  return out;
}

/**
 * The hits of a compound of a mining run, by its tid (the miner's canonical order): the features
 * whose occurrences include it, ascending, each with its count of embeddings in the compound's
 * graph when `nrHits`, else 1. The counting (the costly part) is done when a compound's hits are
 * asked for, so a caller counts only the compounds it uses and can report progress as it goes.
 */
export function minedHits(features: readonly Found[], compounds: OrderedCompounds, nrHits: boolean): (tid: number) => FeatureHits[] {
  const present: number[][] = compounds.graphs.map(() => []);
  features.forEach((f, j) => {
    for (let i = 0; i < f.tids.length; i++) present[f.tids[i]!]?.push(j);
  });
  const counter = nrHits ? new QuerySet(features.map((f) => f.smarts)) : null;
  return (t) => {
    const js = present[t] ?? [];
    const counts = counter && js.length > 0 ? counter.countAll(compounds.graphs[t]!) : null;
    return js.map((j) => ({ feature: j, hits: counts ? counts[j]! : 1 }));
  };
}

/** A molecule as the matcher takes it. */
type Molecule = Parameters<QuerySet["countAll"]>[0];

/** A query molecule's hits: every feature's SMARTS matched on it (counted only when `nrHits`). */
export function queryHits(queries: QuerySet, mol: Molecule, nrHits: boolean): FeatureHits[] {
  const counts = queries.countAll(mol, nrHits ? Number.MAX_SAFE_INTEGER : 1);
  const out: FeatureHits[] = [];
  for (let j = 0; j < counts.length; j++) if (counts[j]! > 0) out.push({ feature: j, hits: counts[j]! });
  return out;
}

/** A compound's fingerprint from its hits and the features' weights (p-values). */
export function fingerprintOf(hits: Iterable<FeatureHits>, weights: ArrayLike<number>, nrHits: boolean): SparseFingerprint {
  return weightedFingerprint(hits, weights, nrHits);
}
