/**
 * Neighbours and training-set queries of lazar models (docs/lazar-method.md "Neighbours" and
 * "Prediction").
 *
 * A training *instance* is one activity value of a training compound: a compound measured
 * twice is two instances and counts twice as a neighbour. Every instance whose
 * compound's similarity to the query is strictly greater than `min_sim` is a neighbour; no k
 * limit; training order is kept (no sorting).
 *
 * A query that is itself in the training set (same identity key, e.g. its InChI) is not
 * predicted: the model reports its measured value(s), marked as such — as the 2012 lazar
 * services did; lazar's later library versions predicted it with itself left out of the
 * neighbours instead.
 */

/** Training instances: instance i belongs to training compound row `row[i]`. */
export interface TrainingInstances {
  readonly row: Int32Array;
  /** Class index (1-based, value_map order) or numeric value. */
  readonly activity: Float64Array;
}

export interface Neighbour {
  /** Instance index (training order). */
  readonly instance: number;
  /** Training compound row (index into the fingerprint matrix / descriptor space). */
  readonly row: number;
  /** Similarity on the model's own scale (Tanimoto [0,1], cosine [−1,1]). */
  readonly similarity: number;
  /** Measured activity of this instance. */
  readonly activity: number;
}

/** Instances from per-compound activity lists (each value one instance, compound order). */
export function instancesOf(activities: readonly (readonly number[])[]): TrainingInstances {
  const row: number[] = [];
  const activity: number[] = [];
  activities.forEach((values, r) => {
    for (const v of values) {
      row.push(r);
      activity.push(v);
    }
  });
  return { row: Int32Array.from(row), activity: Float64Array.from(activity) };
}

/**
 * Every instance whose row similarity is > minSim (strict; NaN never), in instance order.
 * `similarities` has one entry per training compound row.
 */
export function findNeighbours(similarities: ArrayLike<number>, instances: TrainingInstances, minSim: number): Neighbour[] {
  const out: Neighbour[] = [];
  const { row, activity } = instances;
  for (let i = 0; i < row.length; i++) {
    const r = row[i]!;
    const s = similarities[r]!;
    if (s > minSim) out.push({ instance: i, row: r, similarity: s, activity: activity[i]! });
  }
  return out;
}

/** Looks up training compounds by identity (InChI or any canonical key). */
export class TrainingLookup {
  private readonly byKey = new Map<string, number>();

  /** `keys[r]` = identity of training row r (null/empty = unknown). */
  constructor(keys: readonly (string | null | undefined)[]) {
    keys.forEach((k, r) => {
      if (k && !this.byKey.has(k)) this.byKey.set(k, r);
    });
  }

  /** Training row with this identity, or -1. */
  rowOf(key: string | null | undefined): number {
    return key ? (this.byKey.get(key) ?? -1) : -1;
  }

  /** The measured activities of a training row (every instance), in instance order. */
  static measured(row: number, instances: TrainingInstances): number[] {
    const out: number[] = [];
    for (let i = 0; i < instances.row.length; i++) if (instances.row[i] === row) out.push(instances.activity[i]!);
    return out;
  }
}
