/**
 * Cross-validation folds, reproducible from an integer seed in any language.
 *
 * The unit is the unique compound: every measurement of a compound lands in the same fold. The
 * reference shuffled with Ruby's Mersenne Twister (not reproducible elsewhere) and stratified
 * through R clustering; this module replaces both with the following exactly specified steps.
 * All arithmetic is on unsigned 32-bit integers unless stated; "mod" is the non-negative
 * remainder.
 *
 * 1. Units. The distinct compound identifiers (URIs), sorted by Unicode code point (= UTF-8
 *    byte order). Call them u[0] … u[n−1]. k (`numFolds`) must satisfy 2 ≤ k ≤ n.
 * 2. PRNG: mulberry32 with state s = seed mod 2³² (seed an integer; −1 → 4294967295).
 *    Each draw:  s = (s + 0x6D2B79F5) mod 2³²;  t = s;
 *                t = ((t XOR (t >> 15)) · (t OR 1)) mod 2³²;
 *                t = t XOR ((t + ((t XOR (t >> 7)) · (t OR 61)) mod 2³²) mod 2³²);
 *                return t XOR (t >> 14)        (">>" is a logical shift)
 * 3. Shuffle (Fisher–Yates, from the end): for i = n−1 down to 1: draw r, j = ⌊r·(i+1) / 2³²⌋
 *    (exact integer arithmetic), swap u[i] and u[j].
 * 4a. Not stratified: cut the shuffled list into k contiguous chunks, fold f getting ⌊n/k⌋ + 1
 *    units if f < n mod k, else ⌊n/k⌋ (as the reference: the first n mod k folds get one more).
 * 4b. Stratified: give each unit a stratum key, stable-sort the shuffled list by that key, then
 *    deal round-robin: the unit at position p goes to fold p mod k. Every stratum is then spread
 *    over the folds with counts differing by at most one, and fold sizes differ by at most one
 *    (the first n mod k folds get one more). Stratum keys:
 *    - class labels (any non-numeric target): a unit's class is the most frequent of its
 *      measured labels (ties: the smallest in code-point order); keys are ordered by the labels'
 *      code points; units without a measured value come last, as one stratum;
 *    - numeric targets (every measured target a number): a unit's value is the mean of its
 *      measurements (summed in input order); rank the units with a value by (value, position in the shuffled list)
 *      ascending, and the key is ⌊rank / k⌋ — consecutive blocks of k similar values, one unit
 *      of each block per fold; units without a value come last, as one stratum.
 *
 * Folds are numbered 0 … k−1 here (reports show 1 … k). The units inside a fold keep the order
 * in which they were dealt.
 */
import { mulberry32Uint32 } from "../numeric/random.ts";
import { compareCodePoints } from "./statistics.ts";

/** Fisher–Yates shuffle in place with 32-bit draws (step 3). */
export function shuffleInPlace<T>(items: T[], next: () => number): T[] {
  if (items.length > 2 ** 21) throw new RangeError("too many units for an exact shuffle");
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor((next() * (i + 1)) / 4294967296); // exact: the product is < 2⁵³
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  }
  return items;
}

export interface FoldOptions {
  readonly numFolds: number;
  readonly seed: number;
  readonly stratified?: boolean;
}

export interface FoldAssignment {
  readonly numFolds: number;
  readonly seed: number;
  readonly stratified: boolean;
  /** Compounds of each fold (test set of fold f = folds[f]). */
  readonly folds: readonly (readonly string[])[];
  /** Fold of every compound. */
  readonly foldOf: ReadonlyMap<string, number>;
  /** Fold of every input instance (parallel to the `compounds` argument). */
  readonly instanceFold: Int32Array;
}

/** Thrown for an invalid number of folds or seed; the HTTP layer answers 400. */
export class FoldError extends RangeError {
  override readonly name = "FoldError";
}

type Target = string | number | null;

/**
 * Assigns every compound to one of `numFolds` folds (module comment). `compounds` has one entry
 * per instance (duplicates allowed); `targets`, parallel to it, is needed only when stratified.
 */
export function assignFolds(
  compounds: readonly string[],
  options: FoldOptions,
  targets?: readonly Target[],
): FoldAssignment {
  const k = options.numFolds;
  const stratified = options.stratified === true;
  if (!Number.isSafeInteger(options.seed)) throw new FoldError(`random_seed must be an integer, got ${options.seed}`);
  const units = [...new Set(compounds)].sort(compareCodePoints);
  if (!Number.isInteger(k) || k < 2) throw new FoldError(`num_folds must be an integer > 1, got ${k}`);
  if (k > units.length) throw new FoldError(`num_folds (${k}) exceeds the number of distinct compounds (${units.length})`);
  if (stratified && (!targets || targets.length !== compounds.length)) {
    throw new FoldError("stratified folds need one target value per instance");
  }
  shuffleInPlace(units, mulberry32Uint32(options.seed)); // step 2
  const folds: string[][] = Array.from({ length: k }, () => []);
  if (!stratified) {
    const base = Math.floor(units.length / k);
    const extra = units.length % k;
    let p = 0;
    for (let f = 0; f < k; f++) {
      const size = base + (f < extra ? 1 : 0);
      folds[f]!.push(...units.slice(p, p + size));
      p += size;
    }
  } else {
    const keys = strataKeys(units, compounds, targets!, k);
    const order = units.map((_, p) => p).sort((a, b) => compareKeys(keys[a]!, keys[b]!) || a - b);
    order.forEach((p, q) => folds[q % k]!.push(units[p]!));
  }
  const foldOf = new Map<string, number>();
  folds.forEach((list, f) => list.forEach((u) => foldOf.set(u, f)));
  return {
    numFolds: k,
    seed: options.seed,
    stratified,
    folds,
    foldOf,
    instanceFold: Int32Array.from(compounds, (c) => foldOf.get(c)!),
  };
}

/** A stratum key: [group, label-or-block]; group 1 = units without a measured value (last). */
type Key = readonly [number, string | number];

function compareKeys(a: Key, b: Key): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  const x = a[1];
  const y = b[1];
  return typeof x === "number" && typeof y === "number" ? x - y : compareCodePoints(String(x), String(y));
}

/** Stratum key of each shuffled unit (step 4b). */
function strataKeys(units: readonly string[], compounds: readonly string[], targets: readonly Target[], k: number): Key[] {
  const measured = new Map<string, (string | number)[]>();
  compounds.forEach((c, i) => {
    const t = targets[i];
    if (t === null || t === undefined || (typeof t === "number" && !Number.isFinite(t))) return;
    let list = measured.get(c);
    if (!list) measured.set(c, (list = []));
    list.push(t);
  });
  const all = [...measured.values()].flat();
  const numeric = all.length > 0 && all.every((t) => typeof t === "number");
  if (!numeric) {
    return units.map((u): Key => {
      const labels = measured.get(u);
      if (!labels) return [1, ""];
      const count = new Map<string, number>();
      for (const l of labels) count.set(String(l), (count.get(String(l)) ?? 0) + 1);
      const best = [...count].sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]))[0]![0];
      return [0, best];
    });
  }
  const mean = units.map((u) => {
    const v = measured.get(u) as number[] | undefined;
    return v ? v.reduce((s, x) => s + x, 0) / v.length : null;
  });
  const ranked = units
    .map((_, p) => p)
    .filter((p) => mean[p] !== null)
    .sort((a, b) => mean[a]! - mean[b]! || a - b);
  const keys: Key[] = units.map(() => [1, 0]);
  ranked.forEach((p, rank) => (keys[p] = [0, Math.floor(rank / k)]));
  return keys;
}
