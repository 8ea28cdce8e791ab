/**
 * mulberry32, a small seeded PRNG, so that resampling is deterministic and language-independent.
 * Two views of the same generator, because callers need two different outputs:
 * - `mulberry32Uint32`: the raw 32-bit unsigned draws, for exact integer arithmetic that other
 *   languages can reproduce (the cross-validation folds, validate/folds.ts, which writes the
 *   steps out);
 * - `mulberry32Unit`: the same draws divided by 2³², uniform numbers in [0, 1), for the ordinary
 *   `Math.random`-style uses (bootstrap samples, feature subsets, conformer distances).
 * Seeded alike they give the same sequence, once as integers and once as fractions.
 */

/** The next 32-bit unsigned draw of mulberry32 seeded with `seed`. */
export function mulberry32Uint32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** mulberry32 as uniform numbers in the unit interval [0, 1): each 32-bit draw / 2³². */
export function mulberry32Unit(seed: number): () => number {
  const next = mulberry32Uint32(seed);
  return () => next() / 4294967296;
}

/** Fisher–Yates shuffle in place. */
export function shuffle<T>(items: T[], rand: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  }
  return items;
}
